"""`CensoredData` and `fit` of censored data without a GPU: cuarray.scipy.stats' modules run on
NumPy stand-ins (tests/scipy/stats_distn_host.py) and are compared with scipy.stats on fresh
samples: the object's arrays, repr, str, length and SciPy's errors; the censored negative
log-likelihood at given parameters to 1e-12; fits by the likelihood reached and SciPy's rules
(method "MM" refused, own fits of uncensored `CensoredData`, `nnlf` without it)."""

import importlib.util
import inspect
import pathlib

import numpy as np
import pytest

sst = pytest.importorskip("scipy.stats")


def _load(name):
    spec = importlib.util.spec_from_file_location("h51_" + name, pathlib.Path(__file__).parent / (name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


HOST = _load("stats_distn_host")
_quiet, _mixed_interval = HOST.quiet, HOST.mixed_interval


@pytest.fixture(scope="module")
def mods():
    return HOST.host_stats()


@pytest.fixture(scope="module")
def CD(mods):
    return mods["_censored"].CensoredData


def _dist(mods, name):
    return getattr(mods["_distn_continuous"], name, None) or getattr(mods["_distn_gamma"], name)


def _both(CD, make):
    """(ours, SciPy's) made by the same call of the class's constructor or class method."""
    return make(CD), make(sst.CensoredData)


def _same(ours, ref):
    for attr in ("_uncensored", "_left", "_right", "_interval"):
        a, b = getattr(ours, attr), getattr(ref, attr)
        assert a.dtype == b.dtype and a.shape == b.shape, (attr, a, b)
        np.testing.assert_array_equal(a, b)
    assert repr(ours) == repr(ref) and str(ours) == str(ref)
    assert len(ours) == len(ref) and ours.num_censored() == ref.num_censored()


CONSTRUCT = {
    "all": lambda rng: lambda C: C(uncensored=rng.normal(size=7), left=rng.normal(size=3), right=rng.normal(size=2),
                                   interval=_mixed_interval(rng, 12)),
    "interval_only": lambda rng: lambda C: C(interval=_mixed_interval(rng, 20)),
    "right": lambda rng: lambda C: C.right_censored(rng.normal(size=15), rng.random(15) < 0.3),
    "left_ints": lambda rng: lambda C: C.left_censored(list(rng.integers(0, 9, 10)), list(rng.random(10) < 0.5)),
    "interval_censored": lambda rng: lambda C: C.interval_censored(*_mixed_interval(rng, 16).T),
    "empty": lambda rng: lambda C: C(),
    "int_lists": lambda rng: lambda C: C(uncensored=[1, 2], interval=[[1, 2], [3, 3]]),
    "empty_interval_list": lambda rng: lambda C: C(uncensored=[1.5], interval=[]),
}


@pytest.mark.parametrize("case", sorted(CONSTRUCT))
def test_constructors_as_scipy(CD, case):
    rng = np.random.default_rng()
    state = rng.bit_generator.state
    ours = CONSTRUCT[case](rng)(CD)
    rng.bit_generator.state = state  # the same draws for SciPy's
    ref = CONSTRUCT[case](rng)(sst.CensoredData)
    _same(ours, ref)
    np.testing.assert_array_equal(ours._uncensor(), ref._uncensor())
    for a, b in ((-0.5, 0.7), (0.0, np.inf), (-np.inf, 0.3)):
        _same(ours._supported(a, b), ref._supported(a, b))
    _same(ours - 0.25, ref - 0.25)
    _same(ours / 2.0, ref / 2.0)


BAD = [
    lambda C: C(uncensored=[[1.0, 2.0]]), lambda C: C(uncensored=[1.0, np.nan]), lambda C: C(left=[1.0, np.inf]),
    lambda C: C(right=[-np.inf]), lambda C: C(uncensored=[np.nan], left=[[1.0]]), lambda C: C(interval=[1.0, 2.0]),
    lambda C: C(interval=[[1.0, 2.0, 3.0]]), lambda C: C(interval=[[np.nan, 1.0]]),
    lambda C: C(interval=[[np.inf, np.inf]]), lambda C: C(interval=[[2.0, 1.0]]),
    lambda C: C(left=[np.nan], interval=[[2.0, 1.0]]), lambda C: C.right_censored([[1.0]], [True]),
    lambda C: C.right_censored([1.0], [[True]]), lambda C: C.right_censored([1.0, np.inf], [True, False]),
    lambda C: C.left_censored([1.0, 2.0], [True]), lambda C: C.interval_censored([[1.0]], [2.0]),
    lambda C: C.interval_censored([1.0], [np.nan]), lambda C: C.interval_censored([1.0, 2.0], [3.0]),
    lambda C: C.interval_censored([-np.inf], [-np.inf]), lambda C: C.interval_censored([3.0], [2.0]),
]


@pytest.mark.parametrize("i", range(len(BAD)))
def test_errors_as_scipy(CD, i):
    with pytest.raises(ValueError) as ref:
        BAD[i](sst.CensoredData)
    with pytest.raises(ValueError) as ours:
        BAD[i](CD)
    assert str(ours.value) == str(ref.value)


def test_signatures_as_scipy():
    from cuarray.scipy import stats

    for attr in ("__init__", "right_censored", "left_censored", "interval_censored", "num_censored",
                 "_uncensor", "_supported"):
        got = inspect.signature(getattr(stats.CensoredData, attr))
        want = inspect.signature(getattr(sst.CensoredData, attr))
        assert [(p.name, p.kind, p.default) for p in got.parameters.values()] == \
            [(p.name, p.kind, p.default) for p in want.parameters.values()], attr


def _sample(name, rng, n=120):
    """A fresh sample with about a quarter of it censored in the way of `name`'s case."""
    x = {"norm": lambda: rng.normal(1.5, 2.0, n), "gamma": lambda: rng.gamma(2.5, 1.5, n),
         "weibull_min": lambda: rng.weibull(2.0, n) * 3.0, "lognorm": lambda: rng.lognormal(0.2, 0.6, n),
         "expon": lambda: 0.5 + rng.exponential(2.0, n), "logistic": lambda: rng.logistic(1.0, 0.7, n),
         "gumbel_l": lambda: -rng.gumbel(0.5, 2.0, n), "t": lambda: rng.standard_t(5.0, n) + 1.0,
         "beta": lambda: rng.beta(2.0, 3.0, n), "pareto": lambda: rng.pareto(3.0, n) + 1.0,
         "uniform": lambda: rng.uniform(0.0, 2.0, n)}[name]()
    return x


def _censor(kind, x, rng):
    """(our constructor call, the same for SciPy) of x censored as `kind`."""
    q1, q3 = np.quantile(x, [0.2, 0.8])
    if kind == "right":
        c = x > q3
        return lambda C: C.right_censored(np.where(c, q3, x), c)
    if kind == "left":
        c = x < q1
        return lambda C: C.left_censored(np.where(c, q1, x), c)
    # a mix: the upper fifth right-censored, the lower fifth left-censored, a third of the rest
    # known only to lie within a unit-width interval around it
    width = (q3 - q1) / 4
    mid = (x >= q1) & (x <= q3) & (rng.random(x.size) < 0.35)
    lo = np.where(x > q3, q3, np.where(x < q1, -np.inf, np.where(mid, x - width * rng.random(x.size), x)))
    hi = np.where(x > q3, np.inf, np.where(x < q1, q1, np.where(mid, lo + width, x)))
    return lambda C: C.interval_censored(lo, hi)


FITS = [("norm", "right", {}), ("norm", "mixed", {"fscale": 2.0}), ("weibull_min", "right", {"floc": 0.0}),
        ("gamma", "mixed", {"floc": 0.0}), ("lognorm", "left", {"floc": 0.0}), ("expon", "mixed", {}),
        ("logistic", "mixed", {}), ("gumbel_l", "left", {}), ("t", "right", {"f0": 5.0})]


@pytest.mark.parametrize("name,kind,kw", FITS)
def test_censored_fit_as_scipy(mods, CD, name, kind, kw):
    """The same Nelder-Mead (fmin's xtol = ftol = 1e-4) on the same censored likelihood: both stop
    where the simplex's values agree to 1e-4, within about 1e-6 of the optimum's value (the
    likelihood's curvature ~ n / scale**2 over steps <= xtol), so ours reaches SciPy's likelihood
    to 1e-6 relative (values ~ 1e2); the fixed parameters come back as given."""
    rng = np.random.default_rng()
    make = _censor(kind, _sample(name, rng), rng)
    ours_data, ref_data = make(CD), make(sst.CensoredData)
    assert ours_data.num_censored() > 0
    dist, ref_dist = _dist(mods, name), getattr(sst, name)
    ours, ref = _quiet(dist.fit, ours_data, **kw), _quiet(ref_dist.fit, ref_data, **kw)
    assert isinstance(ours, tuple) and len(ours) == len(ref)
    got, want = (float(_quiet(ref_dist._penalized_nnlf, p, ref_data)) for p in (ours, ref))
    assert got <= want + 1e-6 * abs(want), (name, ours, ref, got, want)
    for k, v in kw.items():
        assert ours[{"floc": -2, "fscale": -1}.get(k, 0)] == v


def _theta_cases(name, rng):
    """Parameters near and far from the data's fit, one with a loc above part of a bounded
    support's data (values outside the support: the penalty), and invalid ones (inf)."""
    return {"norm": [(rng.normal(1.5, 0.5), rng.uniform(1.0, 3.0)), (0.0, -1.0)],
            "gamma": [(rng.uniform(1.5, 3.0), 0.0, rng.uniform(1.0, 2.0)), (2.0, 1.0, 1.5), (-1.0, 0.0, 1.0)],
            "weibull_min": [(rng.uniform(1.5, 2.5), 0.0, 3.0), (2.0, 2.0, 3.0)],
            "lognorm": [(0.6, 0.0, rng.uniform(1.0, 1.5)), (0.6, 1.0, 1.0)],
            "expon": [(0.5, rng.uniform(1.5, 2.5)), (2.0, 2.0)], "logistic": [(1.0, 0.7)],
            "gumbel_l": [(-0.5, 2.0)], "t": [(5.0, 1.0, 1.0), (0.0, 1.0, 1.0)],
            # bounded supports: data and intervals on, across and beyond their ends
            "beta": [(2.0, 3.0, 0.0, 1.0), (2.0, 3.0, 0.2, 0.5), (0.5, 0.5, -0.1, 1.2)],
            "pareto": [(3.0, 0.0, 1.0), (3.0, 0.5, 1.0), (2.0, -0.2, 1.1)],
            "uniform": [(0.0, 2.0), (0.3, 1.2), (-1.0, 4.0)]}[name]


@pytest.mark.parametrize("name", ["norm", "gamma", "weibull_min", "lognorm", "expon", "logistic", "gumbel_l", "t",
                                  "beta", "pareto", "uniform"])
@pytest.mark.parametrize("kind", ["right", "left", "mixed"])
def test_censored_likelihood_as_scipy(mods, CD, name, kind):
    rng = np.random.default_rng()
    make = _censor(kind, _sample(name, rng, n=60), rng)
    ours_data, ref_data = make(CD), make(sst.CensoredData)
    dist, ref_dist = _dist(mods, name), getattr(sst, name)
    data = mods["_distn_fit"]._Censored(ours_data)
    for theta in _theta_cases(name, rng):
        got = float(_quiet(dist._penalized_nnlf_censored, list(theta), data))
        want = float(_quiet(ref_dist._penalized_nnlf, theta, ref_data))
        np.testing.assert_allclose(got, want, rtol=1e-12, err_msg=str(theta))


def test_mm_refused_and_uncensored_data_as_scipy(mods, CD):
    rng = np.random.default_rng()
    x = rng.weibull(2.0, 80) * 3.0
    c = x > np.quantile(x, 0.8)
    for name in ("norm", "gamma", "t", "weibull_min"):
        for data in (lambda C: C.right_censored(x, c), lambda C: C(x)):
            if name == "weibull_min" and data(CD).num_censored() == 0:
                continue  # SciPy's weibull_min takes "MM" of uncensored CensoredData: below
            with pytest.raises(ValueError, match='For censored data, the method must be "MLE".'):
                _quiet(getattr(sst, name).fit, data(sst.CensoredData), method="MM")
            with pytest.raises(ValueError, match='For censored data, the method must be "MLE".'):
                _dist(mods, name).fit(data(CD), method="MM")
    # without censored values: the distributions' own fits of the plain array, as SciPy's
    np.testing.assert_allclose(_dist(mods, "norm").fit(CD(x)), sst.norm.fit(x), rtol=1e-12)
    np.testing.assert_allclose(_dist(mods, "expon").fit(CD(x), floc=0.0), sst.expon.fit(x, floc=0.0), rtol=1e-12)
    np.testing.assert_allclose(_quiet(_dist(mods, "weibull_min").fit, CD(x), method="MM"),
                               _quiet(sst.weibull_min.fit, x, method="MM"), rtol=1e-10)
    # gamma's own floc fit never takes CensoredData (SciPy's): the generic fit, fscale not closed-form
    ours, ref = _quiet(_dist(mods, "gamma").fit, CD(x), floc=0.0), _quiet(sst.gamma.fit, sst.CensoredData(x), floc=0.0)
    closed = sst.gamma.fit(x, floc=0.0)
    assert ours[1] == 0.0 and ours[0] != closed[0]
    got, want = (float(sst.gamma.nnlf(p, x)) for p in (ours, ref))
    assert got <= want + 1e-6 * abs(want)


def test_nnlf_refuses_censored_data(mods, CD):
    data = CD.right_censored([1.0, 2.0, 3.0], [False, True, False])
    with pytest.raises(TypeError):
        sst.norm.nnlf((0.0, 1.0), sst.CensoredData.right_censored([1.0, 2.0, 3.0], [False, True, False]))
    with pytest.raises(TypeError):
        _dist(mods, "norm").nnlf((0.0, 1.0), data)


# -- ecdf ------------------------------------------------------------------------------------------
def _ecdf_sample(rng, kind):
    """A fresh sample with ties (rounded to 0.1), right-censored in about a third of its values."""
    x = np.round(rng.exponential(2.0, int(rng.integers(5, 60))), 1)
    c = rng.random(x.size) < 0.35
    if kind == "uncensored":
        return lambda C: x if C is None else C(x)
    if kind == "all_censored_last":  # the largest value censored: the sf stays above 0
        c[np.argmax(x)] = True
    return lambda C: C.right_censored(x, c) if C is not None else None


@pytest.mark.parametrize("kind", ["uncensored", "right", "all_censored_last"])
def test_ecdf_as_scipy(mods, CD, kind):
    """The counts are exact and the estimates the same few products, so ours equal SciPy's to
    rounding (1e-13); the steps are looked up exactly, also at the quantiles themselves, at +-inf and NaN."""
    rng = np.random.default_rng()
    make = _ecdf_sample(rng, kind)
    ours = mods["_survival"].ecdf(make(CD) if kind != "uncensored" else make(None))
    ref = sst.ecdf(make(sst.CensoredData) if kind != "uncensored" else make(None))
    for which in ("cdf", "sf"):
        a, b = getattr(ours, which), getattr(ref, which)
        np.testing.assert_array_equal(a.quantiles, b.quantiles)
        np.testing.assert_allclose(a.probabilities, b.probabilities, rtol=1e-13, atol=1e-15)
        np.testing.assert_array_equal(a._n, b._n)
        np.testing.assert_array_equal(a._d, b._d)
        q = b.quantiles
        v = np.concatenate([[-np.inf, np.nan, np.inf], q, q - 0.05, q + 0.05]).reshape(3, -1)
        np.testing.assert_allclose(a.evaluate(v), b.evaluate(v), rtol=1e-13, atol=1e-15)
        for method in ("linear", "log-log"):
            level = float(rng.uniform(0.5, 0.99))
            ca, cb = (_quiet(f.confidence_interval, level, method=method) for f in (a, b))
            for lo_hi in ("low", "high"):
                np.testing.assert_allclose(getattr(ca, lo_hi).probabilities, getattr(cb, lo_hi).probabilities,
                                           rtol=1e-12, atol=1e-15, err_msg=method)


def test_ecdf_errors_and_warning_as_scipy(mods, CD):
    ecdf = mods["_survival"].ecdf
    for bad in ([[1.0, 2.0]], [1.0, np.nan], [np.inf]):
        with pytest.raises(ValueError) as ref:
            sst.ecdf(bad)
        with pytest.raises(ValueError) as ours:
            ecdf(np.asarray(bad))
        assert str(ours.value) == str(ref.value)
    for make in (lambda C: C([1.0, 2.0], left=[0.5]), lambda C: C([1.0], interval=[[0.0, 3.0]])):
        with pytest.raises(NotImplementedError, match="only uncensored and right-censored"):
            sst.ecdf(make(sst.CensoredData))
        with pytest.raises(NotImplementedError, match="only uncensored and right-censored"):
            ecdf(make(CD))
    res, ref = ecdf(np.array([3.0, 1.0, 2.0, 2.0])), sst.ecdf([3.0, 1.0, 2.0, 2.0])
    for level, method, match in ((1.5, "linear", "`confidence_level` must be"), ([0.9, 0.8], "linear", "must be a scalar"),
                                 (0.9, "nope", "`method` must be one of")):
        with pytest.raises(ValueError, match=match):
            ref.cdf.confidence_interval(level, method=method)
        with pytest.raises(ValueError, match=match):
            res.cdf.confidence_interval(level, method=method)
    # n == d at the last value: SciPy's NaN bound and its warning
    with pytest.warns(RuntimeWarning, match="undefined at some observations"):
        ci = res.sf.confidence_interval()
    with pytest.raises(NotImplementedError, match="Confidence interval bounds do not implement"):
        ci.low.confidence_interval()
    empty, empty_ref = ecdf(np.array([])), sst.ecdf([])
    assert empty.cdf.quantiles.shape == empty_ref.cdf.quantiles.shape == (0,)
    np.testing.assert_array_equal(empty.sf.evaluate([1.0, -np.inf]), empty_ref.sf.evaluate([1.0, -np.inf]))


def test_ecdf_signatures_as_scipy():
    from cuarray.scipy import stats

    res, ref = stats._survival, sst.ecdf([1.0, 2.0])
    pairs = [(stats.ecdf, sst.ecdf)] + [(getattr(res.EmpiricalDistributionFunction, m), getattr(ref.cdf, m))
                                        for m in ("evaluate", "confidence_interval")]
    for got, want in pairs:
        got_p = [(p.name, p.kind, p.default) for p in inspect.signature(got).parameters.values() if p.name != "self"]
        assert got_p == [(p.name, p.kind, p.default) for p in inspect.signature(want).parameters.values()], want
