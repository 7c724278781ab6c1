"""The distribution objects of cuarray.scipy.stats on the GPU against scipy.stats: every
distribution and method over x on and off the support (+-inf, NaN), q in and out of [0, 1],
scalar parameters (checked on the host) and device parameters (0-d and broadcast N-D, with
invalid entries), float32 x, frozen objects, rvs (shapes, support, seeds, Generators)."""

from __future__ import annotations

import importlib.util
import pathlib
import warnings

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

sst = pytest.importorskip("scipy.stats")

import cuarray  # noqa: E402
from cuarray.scipy import stats as cst  # noqa: E402


def _load(name):
    spec = importlib.util.spec_from_file_location("h29g_" + name, pathlib.Path(__file__).parent / (name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


cases = _load("stats_distn_cases")
G = cuarray.asarray
# the device's special functions (CUDA's erf, lgamma, ...) are not SciPy's bit for bit
RTOL = 1e-10


def _ref(dist, method, *args, **kw):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            return getattr(dist, method)(*args, **kw)
        except ZeroDivisionError:  # SciPy's scalar path for pareto's entropy at b = 0 (NaN)
            return np.float64(np.nan)


def _host(v):
    return tuple(_host(t) for t in v) if isinstance(v, tuple) else np.asarray(v.get() if hasattr(v, "get") else v)


def _quantile_ok(name, ref, method, q, got, want, shapes, kw, discrete):
    """SciPy's quantiles, or ours where SciPy's own cdf (sf) shows ours is the root and SciPy's is
    not (Boost's beta quantile at q = 1e-300, SciPy's poisson ppf next to 1: see the CPU tests), or
    where the quantile lies beyond the double range (`cases.quantile_overflows`)."""
    back = "cdf" if method == "ppf" else "sf"
    with np.errstate(all="ignore"):
        if discrete:
            ok = (lambda k: _ref(ref, "cdf", k, *shapes, **kw) >= q) if method == "ppf" else \
                (lambda k: _ref(ref, "sf", k, *shapes, **kw) <= q)
            better = ok(got) & ~ok(got - 1) & np.isfinite(got) & ~(ok(want) & ~ok(want - 1))
            if name == "hypergeom":  # the exact quantile; at an exact tie of cdf(k) with q (60, 45,
                # 30 at q = 1/2) the tails' sums are equal and the reduction's order rounds either way
                better = better | (got == cases.hypergeom_quantile(method, q, shapes, kw.get("loc", 0.0)))
        else:
            err_got = np.abs(_ref(ref, back, got, *shapes, **kw) / q - 1)
            err_want = np.abs(_ref(ref, back, want, *shapes, **kw) / q - 1)
            close = np.abs(_ref(ref, back, got, *shapes, **kw) - q) <= 1e-12 * q + 1e-299
            beyond = cases.quantile_overflows(name, method, q, shapes, kw) & \
                (got == (-np.inf if method == "ppf" else np.inf))
            better = ((err_got < 1e-10) & (err_want > 1e-6) & np.isfinite(got)) | \
                (np.isnan(want) & (q > 0) & (q < 1) & close) | beyond
            if name == "skewnorm":  # SciPy's (Boost's) is no oracle in the tails: the root is
                better = better | cases.skewnorm_root(method, q, got, shapes, kw, RTOL)
            if name == "vonmises":  # brentq's root of a cdf known to a few ulp of 1: see there
                better = better | cases.vonmises_root(method, q, got, shapes, kw, RTOL)
            if name == "truncnorm":  # SciPy's isf subtracts where q is below eps: see there
                better = better | cases.truncnorm_root(method, q, got, want, shapes, kw)
    return np.where(better, got, want)


def _check(ours, ref, x, shapes, kw, methods, what, discrete=False, dev_shapes=None):
    dshapes = dev_shapes if dev_shapes is not None else shapes
    dkw = {k: (G(v) if isinstance(v, np.ndarray) else v) for k, v in kw.items()}
    for method in methods:
        got = _host(getattr(ours, method)(G(x), *dshapes, **dkw))
        # SciPy's ppf/isf keep float32 q and run their float32 loops; ours compute in double:
        # the oracle is SciPy's at the same q in float64
        want = _ref(ref, method, x.astype(np.float64) if method in ("ppf", "isf") else x, *shapes, **kw)
        if method in ("ppf", "isf"):
            want = _quantile_ok(what, ref, method, x, got, want, shapes, kw, discrete)
        else:
            want = cases.cancellation_free(what, method, x, shapes, kw, want)
            if discrete:
                want = cases.hypergeom_exact(ref, what, method, x, shapes, kw, want)
        tol = 1e-300 if method in ("ppf", "isf") else cases.atol(what, method, x, shapes, kw, got, want)
        cases.same(got, np.asarray(want, np.float64), (what, method, shapes, kw), rtol=RTOL, atol=tol)


CONT = ("pdf", "logpdf", "cdf", "logcdf", "sf", "logsf")


@pytest.mark.parametrize("name", sorted(cases.CONTINUOUS))
def test_continuous(name):
    rng = np.random.default_rng()
    ours, ref = getattr(cst, name), getattr(sst, name)
    valid, invalid = cases.CONTINUOUS[name]
    x, q = cases.x_grid(rng, name), cases.q_grid(rng)
    for shapes in valid + ([invalid] if invalid else []):
        for loc, scale in ((0.0, 1.0), (1.5, 2.5), (0.0, -1.0), (np.nan, 1.0)):
            kw = dict(loc=loc, scale=scale)
            _check(ours, ref, x, shapes, kw, CONT, name)
            _check(ours, ref, q, shapes, kw, ("ppf", "isf"), name)
            for method in ("mean", "var", "std", "median", "entropy", "support"):
                got = _host(getattr(ours, method)(*shapes, **kw))
                want = cases.moments_exact(name, method, shapes, kw, lambda: _ref(ref, method, *shapes, **kw))
                for g, w in zip(np.atleast_1d(got) if method == "support" else [got],
                                want if method == "support" else [want]):
                    cases.same(g, np.asarray(w, np.float64), (name, method, shapes, kw), rtol=RTOL)
            for g, w, tol in zip(_host(ours.stats(*shapes, moments="mvsk", **kw)),
                                 cases.moments_exact(name, "stats", shapes, kw,
                                                     lambda: _ref(ref, "stats", *shapes, moments="mvsk", **kw)),
                                 cases.stats_rtol(name, shapes, RTOL)):
                cases.same(g, np.asarray(w, np.float64), (name, "stats", shapes, kw), rtol=tol)


@pytest.mark.parametrize("name", ["norm", "expon", "gamma", "beta", "t", "f", "lognorm", "weibull_min", "invgamma",
                                  "genextreme", "skewnorm", "truncnorm"])
def test_device_parameters_broadcast(name):
    """x (5,) float32 and float64, loc (3, 1), shapes (4, 1, 1) as device arrays with invalid
    entries (a negative scale, a shape out of its domain, NaN): SciPy's (4, 3, 5) float64 result."""
    rng = np.random.default_rng()
    ours, ref = getattr(cst, name), getattr(sst, name)
    valid = cases.CONTINUOUS[name][0][-1]
    loc = np.array([[0.0], [-0.01], [0.02]])
    scale = np.array([[1.0], [1.5], [-1.0]])
    shapes = tuple(np.array([v, v * 1.3, -v, np.nan]).reshape(4, 1, 1) for v in valid)
    dshapes = tuple(G(s) for s in shapes)
    for dt in (np.float32, np.float64):
        x = rng.uniform(0.05, 0.95, 5).astype(dt)
        _check(ours, ref, x, shapes, dict(loc=loc, scale=scale), CONT + ("ppf", "isf"), name, dev_shapes=dshapes)
    zero_d = tuple(G(np.float64(v)) for v in valid)  # 0-d device parameters
    x = rng.uniform(0.05, 3, 7)
    _check(ours, ref, x, valid, {}, CONT, name, dev_shapes=zero_d)
    got = _host(ours.stats(*dshapes, loc=G(loc), scale=G(scale), moments="mvsk"))
    for g, w, tol in zip(got, _ref(ref, "stats", *shapes, loc=loc, scale=scale, moments="mvsk"),
                         cases.stats_rtol(name, shapes, RTOL)):
        cases.same(g, w, (name, "stats"), rtol=tol)
    for order in (1, 2, 3, 4):
        cases.same(_host(ours.moment(order, *dshapes, loc=G(loc), scale=G(scale))),
                   _ref(ref, "moment", order, *shapes, loc=loc, scale=scale), (name, "moment", order), rtol=1e-9)


@pytest.mark.parametrize("name", sorted(cases.DISCRETE))
def test_discrete(name):
    rng = np.random.default_rng()
    ours, ref = getattr(cst, name), getattr(sst, name)
    valid, invalid = cases.DISCRETE[name]
    k, q = cases.k_grid(rng), cases.q_grid(rng)
    for shapes in valid + [invalid]:
        for loc in (0.0, 2.0, np.nan):
            kw = dict(loc=loc)
            _check(ours, ref, k, shapes, kw, ("pmf", "logpmf", "cdf", "logcdf", "sf", "logsf"), name, True)
            _check(ours, ref, q, shapes, kw, ("ppf", "isf"), name, True)
            for g, w in zip(_host(ours.stats(*shapes, moments="mvsk", **kw)),
                            _ref(ref, "stats", *shapes, moments="mvsk", **kw)):
                cases.same(g, np.asarray(w, np.float64), (name, "stats", shapes, kw), rtol=RTOL)
            if name in cases.DISCRETE_ENTROPY:
                cases.same(_host(ours.entropy(*shapes, **kw)), np.asarray(_ref(ref, "entropy", *shapes, **kw), np.float64),
                           (name, "entropy", shapes, kw), rtol=RTOL)
    # device parameters, broadcast
    shapes = tuple(np.array([v for v in col]).reshape(-1, 1) for col in zip(*valid))
    _check(ours, ref, k, shapes, {}, ("pmf", "cdf", "sf"), name, True, dev_shapes=tuple(G(s) for s in shapes))
    _check(ours, ref, q, shapes, {}, ("ppf", "isf"), name, True, dev_shapes=tuple(G(s) for s in shapes))


def test_frozen_and_tails():
    x = np.array([-40.0, -10.0, 0.0, 10.0, 40.0])
    cases.same(_host(cst.norm(1.0, 2.0).cdf(G(x))), sst.norm(1.0, 2.0).cdf(x), "frozen cdf")
    # the tails by SciPy's forms: norm.logsf through log_ndtr(-x), expon.cdf through expm1
    cases.same(_host(cst.norm.logsf(G(x))), sst.norm.logsf(x), "norm.logsf", rtol=1e-12)
    cases.same(_host(cst.norm.sf(G(x))), sst.norm.sf(x), "norm.sf", rtol=1e-12)
    tiny = np.array([1e-300, 1e-20, 1e-10])
    cases.same(_host(cst.expon.cdf(G(tiny))), sst.expon.cdf(tiny), "expon.cdf", rtol=1e-14)
    cases.same(_host(cst.gamma(2.5, scale=3.0).logpdf(G(x))), sst.gamma(2.5, scale=3.0).logpdf(x), "frozen")
    lo, hi = cst.t(5).interval(0.95)
    cases.same(_host(lo), np.float64(sst.t(5).interval(0.95)[0]), "interval", rtol=1e-12)
    cases.same(_host(hi), np.float64(sst.t(5).interval(0.95)[1]), "interval", rtol=1e-12)
    with pytest.raises(TypeError, match="asarray"):
        cst.norm.cdf(np.ones(3))


@pytest.mark.parametrize("name", sorted(cases.CONTINUOUS) + sorted(cases.DISCRETE))
def test_rvs(name):
    ours, ref = getattr(cst, name), getattr(sst, name)
    valid = (cases.CONTINUOUS.get(name) or cases.DISCRETE[name])[0][-1]
    a = ours.rvs(*valid, size=(100, 30), random_state=3)
    b = ours.rvs(*valid, size=(100, 30), rng=cuarray.random.default_rng(3))
    assert a.shape == (100, 30) and a.dtype == (np.int64 if name in cases.DISCRETE else np.float64)
    np.testing.assert_array_equal(_host(a), _host(b))  # a seed and the Generator it makes: one stream
    lo, hi = ref.support(*valid)
    ha = _host(a)
    assert np.all((ha >= lo) & (ha <= hi)), name
    # SciPy's vonmises moments integrate its ppf (seconds): the oracle's
    var = cases.moments_exact(name, "var", valid, {}, lambda: ref.var(*valid))
    mean = cases.moments_exact(name, "mean", valid, {}, lambda: ref.mean(*valid))
    if name not in ("cauchy",) and np.isfinite(var) and var > 0:  # sample mean within 6 sigma
        se = np.sqrt(var / ha.size)
        assert abs(ha.mean() - mean) < 6 * se + 1e-12, (name, ha.mean(), mean)


def test_vonmises_device_kappa():
    """kappa a device array mixing Hill's series (each element's length masked out of the
    longest), kappa = 0, the normal approximation (from 50) and invalid values, loc and scale:
    SciPy's values, the quantiles roots of SciPy's cdf (`cases.vonmises_root`), the moments
    `cases.vonmises_moments` (SciPy integrates them with quad), rvs wrapped into [-pi, pi)."""
    rng = np.random.default_rng()
    kappa = np.array([0.0, 0.5, 2.0, 10.0, 49.0, 49.99, 50.0, 300.0, -1.0, np.nan]).reshape(-1, 1)
    x = np.concatenate([rng.uniform(-7, 7, 6), [-np.pi, np.pi, 0.0]])
    kw = dict(loc=0.25, scale=1.5)
    _check(cst.vonmises, sst.vonmises, x, (kappa,), kw, CONT, "vonmises", dev_shapes=(G(kappa),))
    q = np.concatenate([rng.uniform(0, 1, 5), [0.5, 1e-10, 0.0, 1.0]])
    _check(cst.vonmises, sst.vonmises, q, (kappa,), kw, ("ppf", "isf"), "vonmises", dev_shapes=(G(kappa),))
    got = _host(cst.vonmises.stats(G(kappa), moments="mvsk", **kw))
    for g, w in zip(got, cases.vonmises_moments((kappa,), kw)):
        cases.same(g, w, ("vonmises", "stats"), rtol=RTOL)
    cases.same(_host(cst.vonmises.entropy(G(kappa), **kw)), sst.vonmises.entropy(kappa, **kw), "entropy", rtol=RTOL)
    v = _host(cst.vonmises.rvs(2.0, loc=10.0, size=500, random_state=1))
    assert v.min() >= -np.pi and v.max() < np.pi


def test_genextreme_moments_next_to_zero():
    """c a device array on both sides of the series' edge |c| = 0.1 and down to 0: the mean and
    variance against log Gamma's series summed in Fractions (`cases.genextreme_moments`)."""
    c = np.array([0.0, 1e-200, -1e-160, 1e-14, 1e-9, -1e-9, 3e-6, -7e-4, 9.9e-3, -9.99e-3, 1.1e-2, -0.05,
                  0.0999, -0.0999, 0.3])
    kw = dict(loc=0.5, scale=2.0)
    m, v = _host(cst.genextreme.stats(G(c), **kw))
    want_m, want_v = cases.genextreme_moments((c,), kw, np.full(c.shape, np.nan), np.full(c.shape, np.nan))
    big = np.abs(c) >= cases.GENEXTREME_SERIES  # SciPy's own formula there (3e-15 of the value at 0.3)
    want_m = np.where(big, sst.genextreme.mean(c, **kw), want_m)
    want_v = np.where(big, sst.genextreme.var(c, **kw), want_v)
    # the series and expm1 to a few ulp, CUDA's tgamma in Gamma(1 + c)**2 to a few more: 1e-13 is
    # hundreds of ulp
    cases.same(m, want_m, "genextreme mean", rtol=1e-13)
    cases.same(v, want_v, "genextreme var", rtol=1e-13)


def test_truncnorm_far_tails():
    """ppf, isf, cdf and sf next to q = 0 and 1 (1 - q exact) over infinite ends, tails and a
    central interval, a and b device arrays and host scalars: the quantiles against the bisection
    of SciPy's log-space cdf and sf (`cases.truncnorm_quantile`; SciPy's isf(1 - 2**-53, -inf,
    1.5) is -8.2095, the quantile -8.2178), cdf and sf at them against SciPy's away from a finite
    end (where both lose eps / (x - end) to the masses' difference)."""
    a, b = np.array(cases.TRUNCNORM_TAILS).T[:, :, None]
    q = cases.TAIL_Q
    # a few ulp of log_ndtr move x by as many ulp of log p / (x d log p / dx): 1e-11 is 1e4 of that
    for method in ("ppf", "isf"):
        x = cases.truncnorm_quantile(method, q, a, b)
        cases.same(_host(getattr(cst.truncnorm, method)(G(q), G(a), G(b))), x, ("truncnorm", method, "device a, b"),
                   rtol=1e-11)
        for i, (ai, bi) in enumerate(cases.TRUNCNORM_TAILS):
            cases.same(_host(getattr(cst.truncnorm, method)(G(q), ai, bi)), x[i], ("truncnorm", method, ai, bi),
                       rtol=1e-11)
        far = np.minimum(np.abs(x - a), np.abs(x - b)) > 0.1
        for back in ("cdf", "sf"):
            got = _host(getattr(cst.truncnorm, back)(G(x), G(a), G(b)))
            cases.same(got[far], _ref(sst.truncnorm, back, x, a, b)[far], ("truncnorm", back), rtol=RTOL)
