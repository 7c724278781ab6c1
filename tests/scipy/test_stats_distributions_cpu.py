"""The distribution objects of cuarray.scipy.stats without a GPU: their modules run with NumPy
and scipy.special standing in for cuarray's routines (tests/scipy/stats_distn_host.py) and are
compared with scipy.stats over parameters (scalar, broadcast N-D, invalid, NaN), x on and off the
support, q in and out of [0, 1]; the argument parsing, frozen objects and signatures."""

import importlib.util
import inspect
import pathlib
import warnings

import numpy as np
import pytest

sst = pytest.importorskip("scipy.stats")


def _load(name):
    spec = importlib.util.spec_from_file_location("h29_" + name, pathlib.Path(__file__).parent / (name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


cases = _load("stats_distn_cases")
CONT_METHODS = ("pdf", "logpdf", "cdf", "logcdf", "sf", "logsf")
DISC_METHODS = ("pmf", "logpmf", "cdf", "logcdf", "sf", "logsf")


@pytest.fixture(scope="module")
def host(distn_host):
    mods = distn_host
    out = {}
    for m in ("_distn_continuous", "_distn_gamma", "_distn_discrete", "_distn_real_shape", "_distn_vonmises",
              "_distn_truncnorm"):
        out.update({n: getattr(mods[m], n) for n in (set(cases.CONTINUOUS) | set(cases.DISCRETE))
                    if hasattr(mods[m], n)})
    return out


def _call(dist, method, *args, **kw):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return getattr(dist, method)(*args, **kw)


def _ref(dist, method, *args, **kw):
    """SciPy's value; NaN where SciPy's scalar path divides a Python float by 0 (pareto's entropy
    at b = 0: an invalid parameter, whose value is NaN in SciPy's array path)."""
    try:
        return _call(dist, method, *args, **kw)
    except ZeroDivisionError:
        return np.float64(np.nan)


def _better(name, ref, method, q, got, want, shapes, kw):
    """SciPy's quantiles, except where SciPy's own cdf (sf) says ours is the closer root: Boost's
    beta quantile stops early at q = 1e-300 (beta(2, 5).ppf gives 4e-51 whose cdf is 2.6e-100;
    the root is 2.58e-151); or where the quantile lies beyond the double range (`quantile_overflows`)."""
    back = "cdf" if method == "ppf" else "sf"
    with np.errstate(all="ignore"):
        err_got = np.abs(_call(ref, back, got, *shapes, **kw) / q - 1)
        err_want = np.abs(_call(ref, back, want, *shapes, **kw) / q - 1)
        close = np.abs(_call(ref, back, got, *shapes, **kw) - q) <= 1e-12 * q + 1e-299
    beyond = cases.quantile_overflows(name, method, q, shapes, kw) & (got == (-np.inf if method == "ppf" else np.inf))
    root = cases.skewnorm_root(method, q, got, shapes, kw, 1e-12) if name == "skewnorm" else \
        cases.vonmises_root(method, q, got, shapes, kw, 1e-12) if name == "vonmises" else \
        cases.truncnorm_root(method, q, got, want, shapes, kw) if name == "truncnorm" else False
    return np.where(((err_got < 1e-12) & (err_want > 1e-6) & np.isfinite(got))
                    | (np.isnan(want) & (q > 0) & (q < 1) & close) | beyond | root, got, want)


def _better_discrete(ref, method, q, got, want, shapes, loc):
    """SciPy's quantiles, except where ours is the smallest k with cdf(k) >= q (sf(k) <= q) by
    SciPy's own cdf (sf) and SciPy's is not: its poisson ppf steps back once from ceil(pdtrik),
    which overshoots near q = 1 (poisson(2000).ppf(1 - 1e-16) is 2377, cdf(2376) is already q).
    hypergeom's: the exact quantile (`cases.hypergeom_quantile`)."""
    if method == "ppf":
        ok = lambda k: _call(ref, "cdf", k, *shapes, loc=loc) >= q  # noqa: E731
    else:
        ok = lambda k: _call(ref, "sf", k, *shapes, loc=loc) <= q  # noqa: E731
    with np.errstate(all="ignore"):
        ours_ok = ok(got) & ~ok(got - 1) & np.isfinite(got)
        theirs_ok = ok(want) & ~ok(want - 1)
    want = np.where(ours_ok & ~theirs_ok, got, want)
    if ref.name == "hypergeom":  # the exact quantile, where SciPy's rounded cdf ties with q
        exact = cases.hypergeom_quantile(method, q, shapes, loc)
        want = np.where(np.isnan(exact), want, exact)
    return want


@pytest.mark.parametrize("name", sorted(cases.CONTINUOUS))
def test_continuous_matches_scipy(host, name):
    rng = np.random.default_rng()
    ours, ref = host[name], getattr(sst, name)
    valid, invalid = cases.CONTINUOUS[name]
    x, q = cases.x_grid(rng, name), cases.q_grid(rng)
    for shapes in valid + ([invalid] if invalid else []):
        for loc, scale in ((0.0, 1.0), (1.5, 2.5), (-0.5, 0.0), (0.0, -1.0), (np.nan, 1.0), (0.0, np.nan)):
            kw = dict(loc=loc, scale=scale)
            for method in CONT_METHODS:
                want = cases.cancellation_free(name, method, x, shapes, kw, _call(ref, method, x, *shapes, **kw))
                got = _call(ours, method, x, *shapes, **kw)
                cases.same(got, want, (name, method, shapes, kw), rtol=1e-12,
                           atol=cases.atol(name, method, x, shapes, kw, got, want))
            for method in ("ppf", "isf"):
                got, want = _call(ours, method, q, *shapes, **kw), _call(ref, method, q, *shapes, **kw)
                cases.same(got, _better(name, ref, method, q, got, want, shapes, kw), (name, method, shapes, kw), rtol=1e-12)
            for method in ("mean", "var", "std", "median", "entropy", "support"):
                got = _call(ours, method, *shapes, **kw)
                want = cases.moments_exact(name, method, shapes, kw, lambda: _ref(ref, method, *shapes, **kw))
                for g, w in zip(np.broadcast_arrays(*np.atleast_1d(got)), np.broadcast_arrays(*np.atleast_1d(want))):
                    cases.same(g, w, (name, method, shapes, kw), rtol=1e-12)
            got = _call(ours, "stats", *shapes, moments="mvsk", **kw)
            want = cases.moments_exact(name, "stats", shapes, kw, lambda: _call(ref, "stats", *shapes, moments="mvsk", **kw))
            for g, w, tol in zip(got, want, cases.stats_rtol(name, shapes, 1e-10)):
                cases.same(g, np.asarray(w, float), (name, "stats", shapes, kw), rtol=tol)


@pytest.mark.parametrize("name", ["norm", "gamma", "beta", "t", "f", "lognorm", "pareto", "genextreme", "skewnorm",
                                  "truncnorm"])
def test_broadcast_parameters(host, name):
    """x (5,) with loc (3, 1) and shapes (4, 1, 1): the result (4, 3, 5), invalid entries NaN."""
    rng = np.random.default_rng()
    ours, ref = host[name], getattr(sst, name)
    valid, _ = cases.CONTINUOUS[name]
    x = rng.uniform(0.05, 0.95, 5)
    loc = np.array([[0.0], [-0.01], [0.02]])
    scale = np.array([[1.0], [1.5], [-1.0]])
    shapes = tuple(np.array([v, v * 1.3, -v, np.nan]).reshape(4, 1, 1) for v in valid[-1])
    kw = dict(loc=loc, scale=scale)
    for method in CONT_METHODS + ("ppf", "isf"):
        got = _call(ours, method, x, *shapes, **kw)
        want = cases.cancellation_free(name, method, x, shapes, kw, _call(ref, method, x, *shapes, **kw))
        if method in ("ppf", "isf") and name == "skewnorm":  # SciPy's is Boost's Newton: see skewnorm_root
            want = np.where(cases.skewnorm_root(method, x, got, shapes, kw, 1e-12), got, want)
        if method in ("ppf", "isf") and name == "truncnorm":  # SciPy's isf subtracts: see truncnorm_root
            want = np.where(cases.truncnorm_root(method, x, got, want, shapes, kw), got, want)
        cases.same(got, want, (name, method), rtol=1e-12, atol=cases.atol(name, method, x, shapes, kw, got, want))
    for m in ("mvsk", "m", "v"):
        got, want = _call(ours, "stats", *shapes, loc=loc, scale=scale, moments=m), \
            _call(ref, "stats", *shapes, loc=loc, scale=scale, moments=m)
        for g, w in zip(got if len(m) > 1 else [got], want if len(m) > 1 else [want]):
            cases.same(g, w, (name, "stats", m), rtol=1e-10)
    for order in (0, 1, 2, 3, 4):
        cases.same(_call(ours, "moment", order, *shapes, loc=loc, scale=scale),
                   _call(ref, "moment", order, *shapes, loc=loc, scale=scale), (name, "moment", order), rtol=1e-9)


@pytest.mark.parametrize("name", sorted(cases.DISCRETE))
def test_discrete_matches_scipy(host, name):
    rng = np.random.default_rng()
    ours, ref = host[name], getattr(sst, name)
    valid, invalid = cases.DISCRETE[name]
    k, q = cases.k_grid(rng), cases.q_grid(rng)
    for shapes in valid + [invalid]:
        for loc in (0.0, 2.0, np.nan):
            for method in DISC_METHODS:
                want = cases.hypergeom_exact(ref, name, method, k, shapes, dict(loc=loc),
                                             _call(ref, method, k, *shapes, loc=loc))
                cases.same(_call(ours, method, k, *shapes, loc=loc), want, (name, method, shapes, loc),
                           rtol=1e-12, atol=1e-300)
            for method in ("ppf", "isf"):
                got, want = _call(ours, method, q, *shapes, loc=loc), _call(ref, method, q, *shapes, loc=loc)
                cases.same(got, _better_discrete(ref, method, q, got, want, shapes, loc), (name, method, shapes, loc))
            got = _call(ours, "stats", *shapes, moments="mvsk", loc=loc)
            want = _call(ref, "stats", *shapes, moments="mvsk", loc=loc)
            for g, w in zip(got, want):
                cases.same(g, np.asarray(w, float), (name, "stats", shapes, loc), rtol=1e-10)
            if name in cases.DISCRETE_ENTROPY:
                cases.same(_call(ours, "entropy", *shapes, loc=loc), np.asarray(_call(ref, "entropy", *shapes, loc=loc),
                                                                                 float), (name, "entropy", shapes, loc))
            else:
                with pytest.raises(NotImplementedError):
                    ours.entropy(*shapes, loc=loc)


def test_frozen_and_parsing(host):
    norm, gamma = host["norm"], host["gamma"]
    x = np.linspace(-2, 5, 9)
    cases.same(norm(1.0, 2.0).cdf(x), sst.norm(1.0, 2.0).cdf(x), "frozen cdf")
    cases.same(gamma(2.0, scale=3.0).logpdf(x), sst.gamma(2.0, scale=3.0).logpdf(x), "frozen logpdf")
    cases.same(gamma(a=2.0).sf(x), sst.gamma(a=2.0).sf(x), "shape by keyword")
    fz = gamma(2.0, loc=0.5)
    for m in ("mean", "var", "std", "median", "entropy"):
        cases.same(getattr(fz, m)(), sst.gamma(2.0, loc=0.5).__getattribute__(m)(), m)
    lo, hi = fz.interval(0.9)
    wlo, whi = sst.gamma(2.0, loc=0.5).interval(0.9)
    cases.same(lo, np.float64(wlo), "interval")
    cases.same(hi, np.float64(whi), "interval")
    for bad in (lambda: gamma.pdf(x), lambda: gamma.pdf(x, 1.0, a=1.0), lambda: norm.cdf(x, 0, 1, 2),
                lambda: norm.cdf(x, loc=0, sigma=1)):
        for d in (None,):
            with pytest.raises(TypeError):
                bad()
    with pytest.raises(ValueError, match="confidence"):
        norm.interval(1.5)
    with pytest.raises(ValueError, match="integer"):
        norm.moment(1.5)
    with pytest.raises(ValueError, match="Domain error"):
        gamma.rvs(-1.0, size=3)
    with pytest.raises(ValueError, match="Domain error"):
        norm.rvs(scale=np.array([1.0, -1.0]))
    cases.same(norm.moment(6, loc=1.0, scale=2.0), np.float64(sst.norm.moment(6, loc=1.0, scale=2.0)), "moment 6")
    # loc = 0 (host and device): S^n E[Y^n] alone, as SciPy; loc != 0: the binomial sum
    for name, shape, order in (("t", 0.8, 2), ("t", 1.5, 2), ("t", 3.5, 3), ("gamma", 2.5, 5), ("weibull_min", 1.5, 6)):
        for loc in (0.0, np.array([0.0, 1.0])):
            cases.same(_call(host[name], "moment", order, shape, loc=loc, scale=2.0),
                       np.asarray(_call(getattr(sst, name), "moment", order, shape, loc=loc, scale=2.0), float),
                       (name, "moment", shape, loc))


def test_rvs_shapes_and_values(host):
    rng = np.random.default_rng(5)
    for name in sorted(cases.CONTINUOUS) + sorted(cases.DISCRETE):
        dist = host[name]
        valid = (cases.CONTINUOUS.get(name) or cases.DISCRETE[name])[0][-1]
        v = _call(dist, "rvs", *valid, size=(400,), random_state=rng)
        assert v.shape == (400,), name
        assert v.dtype == (np.int64 if name in cases.DISCRETE else np.float64), name
        lo, hi = _call(getattr(sst, name), "support", *valid)
        assert np.all((v >= lo) & (v <= hi)), name
    v = host["norm"].rvs(loc=np.zeros((3, 1)), scale=np.ones(4), random_state=1)
    assert v.shape == (3, 4)
    with pytest.raises(ValueError, match="size"):
        host["norm"].rvs(loc=np.zeros(3), size=4)
    # by inversion: the standard normal's sample moments
    s = host["laplace"].rvs(size=20000, rng=np.random.default_rng(0))
    assert abs(s.mean()) < 0.1 and abs(s.var() - 2.0) < 0.2


SCIPY_METHODS = ("pdf", "logpdf", "cdf", "logcdf", "sf", "logsf", "ppf", "isf", "rvs", "stats", "moment",
                 "entropy", "interval", "support", "median", "mean", "var", "std", "freeze", "pmf", "logpmf")


@pytest.mark.parametrize("name", sorted(cases.CONTINUOUS) + sorted(cases.DISCRETE))
def test_signatures_match_scipy(name):
    from cuarray.scipy import stats

    ours, ref = getattr(stats, name), getattr(sst, name)
    for m in SCIPY_METHODS:
        if hasattr(ref, m):
            got = inspect.signature(getattr(ours, m))
            want = inspect.signature(getattr(ref, m))
            assert [p.kind for p in got.parameters.values()] == [p.kind for p in want.parameters.values()], (m, got, want)
            assert list(got.parameters)[0] == list(want.parameters)[0] or not got.parameters, (m, got, want)
    assert ours.shapes == (ref.shapes or "")


def test_vonmises_array_kappa(host):
    """kappa as an array mixing Hill's series (each element's length masked out of the longest),
    kappa = 0, the normal approximation and invalid values: SciPy's values elementwise, the
    quantiles roots of SciPy's cdf (`cases.vonmises_root`), the moments `cases.vonmises_moments`."""
    rng = np.random.default_rng()
    ours = host["vonmises"]
    kappa = np.array([0.0, 0.5, 2.0, 10.0, 49.0, 49.99, 50.0, 300.0, -1.0, np.nan]).reshape(-1, 1)
    x = np.concatenate([rng.uniform(-7, 7, 6), [-np.pi, np.pi, 0.0]])
    kw = dict(loc=0.25, scale=1.5)
    for method in CONT_METHODS:
        got, want = _call(ours, method, x, kappa, **kw), _call(sst.vonmises, method, x, kappa, **kw)
        cases.same(got, want, ("vonmises", method), rtol=1e-12, atol=cases.atol("vonmises", method, x, (kappa,), kw,
                                                                                 got, want))
    q = np.concatenate([rng.uniform(0, 1, 5), [0.5, 1e-10, 0.0, 1.0]])
    for method in ("ppf", "isf"):
        got = _call(ours, method, q, kappa, **kw)
        want = _call(sst.vonmises, method, q, kappa, **kw)
        want = np.where(cases.vonmises_root(method, q, got, (kappa,), kw, 1e-12), got, want)
        cases.same(got, want, ("vonmises", method), rtol=1e-12)
    for g, w in zip(_call(ours, "stats", kappa, moments="mvsk", **kw), cases.vonmises_moments((kappa,), kw)):
        cases.same(g, w, ("vonmises", "stats"), rtol=1e-10)
    cases.same(_call(ours, "entropy", kappa, **kw), _call(sst.vonmises, "entropy", kappa, **kw), "entropy")
    v = ours.rvs(2.0, loc=10.0, size=500, random_state=1)  # wrapped into [-pi, pi) as SciPy's
    assert v.min() >= -np.pi and v.max() < np.pi
    with pytest.raises(NotImplementedError):
        ours.fit(np.zeros(3))


def test_genextreme_moments_next_to_zero(host):
    """c as an array on both sides of the series' edge |c| = 0.1 and down to 0 and 1e-200: the
    mean and variance against log Gamma's series summed in Fractions (`cases.genextreme_moments`;
    SciPy's formula keeps the rounding of 1 + c: 8e-8 of the mean off at c = 1e-9)."""
    c = np.array([0.0, 1e-200, -1e-160, 1e-14, 1e-9, -1e-9, 3e-6, -7e-4, 9.9e-3, -9.99e-3, 1.1e-2, -0.05,
                  0.0999, -0.0999, 0.3])
    kw = dict(loc=0.5, scale=2.0)
    m, v = _call(host["genextreme"], "stats", c, **kw)
    want_m, want_v = cases.genextreme_moments((c,), kw, np.full(c.shape, np.nan), np.full(c.shape, np.nan))
    big = np.abs(c) >= cases.GENEXTREME_SERIES  # SciPy's own formula there (3e-15 of the value at 0.3)
    want_m = np.where(big, sst.genextreme.mean(c, **kw), want_m)
    want_v = np.where(big, sst.genextreme.var(c, **kw), want_v)
    cases.same(m, want_m, "genextreme mean", rtol=1e-14)
    cases.same(v, want_v, "genextreme var", rtol=1e-14)


def test_truncnorm_far_tails(host):
    """ppf and isf next to q = 0 and 1 over infinite ends, tails and a central interval against
    the bisection of SciPy's log-space cdf and sf (`cases.truncnorm_quantile`): SciPy's own
    quantile keeps only an absolute eps of log Phi(x) where Phi(x) is next to 1 (its
    isf(1 - 2**-53, -inf, 1.5) is -8.2095, the quantile -8.2178). cdf and sf there against
    SciPy's, away from a finite end (where both lose eps / (x - end) to the masses' difference)."""
    a, b = np.array(cases.TRUNCNORM_TAILS).T[:, :, None]
    q = cases.TAIL_Q
    for method in ("ppf", "isf"):
        x = cases.truncnorm_quantile(method, q, a, b)
        # the bisection to one ulp of x, ours to a few: 1e-13 is hundreds of ulp
        cases.same(_call(host["truncnorm"], method, q, a, b), x, ("truncnorm", method), rtol=1e-13)
        far = np.minimum(np.abs(x - a), np.abs(x - b)) > 0.1
        for back in ("cdf", "sf"):
            cases.same(_call(host["truncnorm"], back, x, a, b)[far], _call(sst.truncnorm, back, x, a, b)[far],
                       ("truncnorm", back), rtol=1e-13)
