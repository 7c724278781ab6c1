"""boxcox, yeojohnson, yeojohnson_llf, boxcox_normmax, yeojohnson_normmax without a GPU: the module on
NumPy (stats_tests_host; SciPy's scalar optimizers run as in cuarray) against scipy.stats: the
transforms, the log-likelihood's branches, axes and NaN policies, the estimates, the interval, the
`ymax` bound, the errors; and the signatures."""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest

sst = pytest.importorskip("scipy.stats")
import scipy  # noqa: E402
import scipy.optimize  # noqa: E402

from cuarray.scipy import stats as cst  # noqa: E402

SCIPY_118 = tuple(int(v) for v in scipy.__version__.split(".")[:2]) >= (1, 18)
needs_118 = pytest.mark.skipif(not SCIPY_118, reason="SciPy < 1.18 has no nan_policy in the power transforms")


@pytest.fixture(scope="module")
def P(stats_host):
    return stats_host["_power"]


def _same(got, want, rtol=1e-12, atol=0.0):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, got.dtype, want.shape, want.dtype)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, equal_nan=True)


def _quiet(f, *a, **k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return f(*a, **k)


def _mixed(rng, n=40):
    return rng.standard_normal(n) * rng.uniform(0.5, 3) + rng.uniform(-1, 1)


@pytest.mark.parametrize("lmbda", [0.0, 2.0, 0.5, -1.3, 2.7, 1e-17])
def test_yeojohnson_transform(P, lmbda):
    x = _mixed(np.random.default_rng())
    # elementwise log1p/expm1 of the same values: a few ulps
    _same(P.yeojohnson(x, lmbda), sst.yeojohnson(x, lmbda), rtol=1e-14)
    _same(P.yeojohnson(np.arange(-3, 4), lmbda), sst.yeojohnson(np.arange(-3, 4), lmbda), rtol=1e-14)
    # float32: the power's exponent u = (2 - lmbda) log1p(|x|) (|u| < 12 here) carries a relative
    # error of an ulp or two, so exp(u) one of |u| ulps: 12 * 6e-8 < 1e-6, hence 4e-6
    _same(P.yeojohnson(x.astype(np.float32), lmbda), sst.yeojohnson(x.astype(np.float32), lmbda), rtol=4e-6)


@pytest.mark.parametrize("lmbda", [0.0, 2.0, 0.5, -1.3])
@pytest.mark.parametrize("kind", ["mixed", "positive", "negative"])
def test_yeojohnson_llf(P, lmbda, kind):
    rng = np.random.default_rng()
    x = {"mixed": _mixed(rng, 60), "positive": rng.lognormal(size=60), "negative": -rng.lognormal(size=60)}[kind]
    # the same sums of logs and variance (in logarithms where SciPy takes them): n ulps of |llf|
    for data, kw in ((x, {}), (x.reshape(6, 10), {"axis": 1}), (x.reshape(6, 10), {"axis": None}),
                     (x.reshape(6, 10), {"axis": 0, "keepdims": True}), (x.reshape(6, 10), {"axis": None, "keepdims": True})):
        _same(_quiet(P.yeojohnson_llf, lmbda, data, **kw), _quiet(sst.yeojohnson_llf, lmbda, data, **kw), rtol=1e-11)


def test_yeojohnson_llf_edges(P):
    rng = np.random.default_rng()
    for lmb, data, kw in ((0.5, np.float64(2.0), {}), (0.5, np.array([]), {}), (0.5, np.ones((2, 0)), {"axis": 1}),
                          (0.5, np.array([1.0, -1, 1, -1]), {}), (0.5, np.arange(5), {})):
        _same(_quiet(P.yeojohnson_llf, lmb, data, **kw), _quiet(sst.yeojohnson_llf, lmb, data, **kw), rtol=1e-12)
    if SCIPY_118:  # 1.18's positive branch takes the variance in logarithms, in the promoted dtype:
        # a constant sample's is finite (1.17: inf), a float32 one with a NumPy float64 lmb float64's
        _same(_quiet(P.yeojohnson_llf, 0.5, np.ones(4)), sst.yeojohnson_llf(0.5, np.ones(4)), rtol=1e-12)
        x32 = rng.lognormal(size=5).astype(np.float32)
        _same(P.yeojohnson_llf(np.float64(0.5), x32), sst.yeojohnson_llf(np.float64(0.5), x32), rtol=1e-12)
    x = _mixed(rng, 30).reshape(3, 10)
    x[1, 4] = np.nan
    for policy in ("propagate", "omit"):
        _same(P.yeojohnson_llf(0.7, x, axis=1, nan_policy=policy), sst.yeojohnson_llf(0.7, x, axis=1, nan_policy=policy))
    with pytest.raises(ValueError):
        P.yeojohnson_llf(0.7, x, axis=1, nan_policy="raise")


def test_boxcox_llf_numpy_scalar_lambda_promotes(stats_host):
    """SciPy's promotion: a NumPy float64 lmb makes the float32 sample's log-likelihood float64 (the
    optimizers pass NumPy floats, so the estimate of a float32 sample is float64's)."""
    x = np.random.default_rng().lognormal(size=20).astype(np.float32)
    d = stats_host["_descriptive"]
    _same(d.boxcox_llf(np.float64(0.3), x), sst.boxcox_llf(np.float64(0.3), x), rtol=1e-12)
    assert np.asarray(d.boxcox_llf(0.3, x)).dtype == np.float32 == np.asarray(sst.boxcox_llf(0.3, x)).dtype


def _lognormal(rng):
    return rng.lognormal(rng.uniform(-1, 1), rng.uniform(0.3, 1.0), size=rng.integers(30, 80))


# The estimates are Brent's minimizers of the same likelihood (xtol 1.48e-8 relative) computed
# with different rounding: at a minimum of curvature c, a rounding e of the objective moves the
# minimizer by about sqrt(2 e / c) ~ 1e-7 here (e ~ 1e-14 |llf|, c > n/10), hence 2e-6.
LMBDA_ATOL = 2e-6


def test_estimates(P):
    rng = np.random.default_rng()
    x, z = _lognormal(rng), _mixed(rng, 50)
    y, lmax = P.boxcox(x)
    y0, lmax0 = sst.boxcox(x)
    _same(lmax, lmax0, rtol=0, atol=LMBDA_ATOL)
    _same(y, sst.boxcox(x, lmax), rtol=1e-13)
    for method in ("pearsonr", "mle", "all"):
        _same(P.boxcox_normmax(x, method=method), sst.boxcox_normmax(x, method=method), rtol=0, atol=LMBDA_ATOL)
    y, lmax = P.yeojohnson(z)
    _same(lmax, sst.yeojohnson(z)[1], rtol=0, atol=LMBDA_ATOL)
    _same(y, sst.yeojohnson(z, lmax), rtol=1e-13)
    for data in (x, -x):
        _same(P.yeojohnson_normmax(data), sst.yeojohnson_normmax(data), rtol=0, atol=LMBDA_ATOL)
    _same(P.yeojohnson_normmax(z, brack=(-1, 1)), sst.yeojohnson_normmax(z, brack=(-1, 1)), rtol=0, atol=LMBDA_ATOL)
    # float32 samples: SciPy's optimizers pass NumPy floats, so the likelihood is float64's
    _same(P.boxcox(x.astype(np.float32))[1], sst.boxcox(x.astype(np.float32))[1], rtol=0, atol=LMBDA_ATOL)


def test_interval_and_optimizer(P):
    x = _lognormal(np.random.default_rng())
    got, want = P.boxcox(x, alpha=0.05), sst.boxcox(x, alpha=0.05)
    assert isinstance(got[2], tuple) and len(got[2]) == 2
    # brentq's roots (xtol 2e-12) of a likelihood with slope ~ sqrt(n) there; lmax within LMBDA_ATOL
    np.testing.assert_allclose(got[2], want[2], rtol=0, atol=LMBDA_ATOL)

    def opt(f):
        return scipy.optimize.minimize_scalar(f, bounds=(-0.5, 0.5), method="bounded")
    _same(P.boxcox(x, optimizer=opt)[1], sst.boxcox(x, optimizer=opt)[1], rtol=0, atol=LMBDA_ATOL)


def test_ymax_bound(P):
    # left-skewed data: the optimal lambda (> 3, however flat the likelihood) takes max(x) ~ 49 past
    # 1e3, so the bound binds, and the bounded lambda depends only on that datum and ymax
    x = 50 - np.random.default_rng().lognormal(1, 0.5, size=50)
    for method in ("mle", "all"):
        with pytest.warns(UserWarning, match="constrained optimum"):
            got = P.boxcox_normmax(x, method=method, ymax=1e3)
        with pytest.warns(UserWarning):
            want = sst.boxcox_normmax(x, method=method, ymax=1e3)
        _same(got, want, rtol=1e-12)


ERRORS = [
    ("boxcox", (np.ones((2, 3)),), {}), ("boxcox", (np.ones(3),), {}), ("boxcox", (np.array([1.0, -1, 2]),), {}),
    ("boxcox", (np.arange(1.0, 5),), {"optimizer": 3}), ("boxcox_normmax", (np.arange(1.0, 5),), {"optimizer": lambda f: 3}),
    ("boxcox_normmax", (np.arange(1.0, 5),), {"method": "foo"}), ("boxcox_normmax", (np.arange(1.0, 5),), {"ymax": -1}),
    ("boxcox_normmax", (np.arange(1.0, 5),), {"brack": (-1, 1), "optimizer": scipy.optimize.minimize_scalar}),
    ("boxcox_normmax", (np.array([1.0, 2, np.inf]),), {}), ("yeojohnson", (np.array([1j]),), {}),
    ("yeojohnson_normmax", (np.array([1.0, np.inf]),), {}),
]


@pytest.mark.parametrize("case", range(len(ERRORS)))
def test_errors_as_scipy(P, case):
    name, args, kw = ERRORS[case]
    with pytest.raises(ValueError) as theirs:
        getattr(sst, name)(*args, **kw)
    with pytest.raises(ValueError) as ours:
        getattr(P, name)(*args, **kw)
    assert str(ours.value) == str(theirs.value)


def test_small_inputs(P):
    _same(P.boxcox(np.array([])), sst.boxcox(np.array([])))
    _same(P.yeojohnson(np.array([])), sst.yeojohnson(np.array([])))
    _same(P.yeojohnson_normmax(np.zeros(4)), sst.yeojohnson_normmax(np.zeros(4)))
    _same(P.boxcox(np.arange(1, 5), 0.3), sst.boxcox(np.arange(1, 5), 0.3), rtol=1e-14)


@needs_118
def test_nan_policies(P):
    x = _lognormal(np.random.default_rng())
    x[3] = np.nan
    for policy in ("propagate", "omit"):
        for name in ("boxcox", "yeojohnson"):
            got, want = _quiet(getattr(P, name), x, nan_policy=policy), _quiet(getattr(sst, name), x, nan_policy=policy)
            _same(got[1], want[1], rtol=0, atol=LMBDA_ATOL)
            _same(got[0], want[0], rtol=1e-5)
        got, want = P.boxcox(x, alpha=0.1, nan_policy=policy), sst.boxcox(x, alpha=0.1, nan_policy=policy)
        np.testing.assert_allclose(got[2], want[2], rtol=0, atol=LMBDA_ATOL)
        _same(P.boxcox_normmax(x, method="all", nan_policy=policy), sst.boxcox_normmax(x, method="all", nan_policy=policy),
              rtol=0, atol=LMBDA_ATOL)
    for name in ("boxcox", "yeojohnson", "boxcox_normmax", "yeojohnson_normmax"):
        with pytest.raises(ValueError, match="nan"):
            getattr(P, name)(x, nan_policy="raise")


@pytest.mark.parametrize("name", ["boxcox", "boxcox_normmax", "yeojohnson", "yeojohnson_llf", "yeojohnson_normmax"])
def test_signature_is_scipys(name):
    if not SCIPY_118 and name != "yeojohnson_llf":
        pytest.skip("SciPy < 1.18 has no nan_policy here")
    # str: boxcox_normmax's default ymax is a private singleton that prints as BIG_FLOAT
    assert str(inspect.signature(getattr(cst, name))) == str(inspect.signature(getattr(sst, name)))
