"""anderson without a GPU: the module (`_anderson`) run with NumPy in place of cuarray's routines
(stats_tests_host; the Gumbel fits and the families' logcdf/logsf SciPy's, cuarray's own being
tested against them in the distribution tests) against scipy.stats: every family name, dtypes,
the critical values and levels, the fitted parameters, `method='interpolate'`, the FutureWarning,
the errors and the signature."""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest

sst = pytest.importorskip("scipy.stats")

from cuarray.scipy import stats as cst  # noqa: E402

DISTS = ("norm", "expon", "logistic", "gumbel", "gumbel_r", "gumbel_l", "extreme1", "Norm")


@pytest.fixture(scope="module")
def H(stats_host):
    module = stats_host["_anderson"]
    module._DISTS = {k: getattr(sst, k) for k in module._DISTS}
    return module


def _quiet(f, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        return f(*args, **kw)


@pytest.mark.parametrize("dist", DISTS)
@pytest.mark.parametrize("dtype", ["float64", "float32", "int64"])
def test_as_scipy(H, dist, dtype):
    rng = np.random.default_rng()
    n = int(rng.integers(8, 60))
    x = np.abs(rng.standard_normal(n) * 2 + 3) if dtype != "int64" else rng.integers(1, 30, n)
    x = x.astype(dtype)
    got, want = _quiet(H.anderson, x, dist), _quiet(sst.anderson, x, dist)
    # the same sums in the same order (the logistic fit: SciPy's fsolve on the same function
    # values), so A^2 agrees to rounding; float32 samples: their float32 sums, ~1e-7 relative
    rtol = 1e-10 if dtype != "float32" else 1e-5
    np.testing.assert_allclose(got.statistic, want.statistic, rtol=rtol)
    for g, w in ((got.critical_values, want.critical_values), (got.significance_level, want.significance_level)):
        assert g.dtype == w.dtype and np.array_equal(g, w), (g, w)
    for g, w in zip(got.fit_result.params, want.fit_result.params):
        assert np.asarray(g).dtype == np.asarray(w).dtype
        np.testing.assert_allclose(g, w, rtol=rtol)
    assert got.fit_result.success and got.fit_result.message == want.fit_result.message
    gi, wi = H.anderson(x, dist, method="interpolate"), sst.anderson(x, dist, method="interpolate")
    np.testing.assert_allclose(gi.statistic, wi.statistic, rtol=rtol)
    # interpolated between table levels: its slope is at most ~1 per unit of A^2 in these tables
    np.testing.assert_allclose(gi.pvalue, wi.pvalue, rtol=rtol, atol=1e-12)


def test_future_warning_and_lists(H):
    x = [0.3, 1.2, -0.4, 2.5, 0.9, 1.7, 0.1, 1.1]
    with pytest.warns(FutureWarning, match="method"):
        got = H.anderson(x)
    with pytest.warns(FutureWarning, match="method"):
        want = sst.anderson(x)
    np.testing.assert_allclose(got.statistic, want.statistic, rtol=1e-12)
    assert len(got) == 3


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # NumPy's, in SciPy's empty-sample path
def test_errors_as_scipy(H):
    x = np.arange(1.0, 9.0)
    for f in (H.anderson, sst.anderson):
        with pytest.raises(ValueError, match="Invalid distribution"):
            f(x, "cauchy", method="interpolate")
        with pytest.raises(ValueError, match="method"):
            f(x, method="bogus")
        with pytest.raises(ZeroDivisionError):
            f(np.array([]), method="interpolate")
    with pytest.raises(NotImplementedError):
        H.anderson(x, "weibull_min", method="interpolate")
    with pytest.raises(NotImplementedError):
        H.anderson(x, method=sst.MonteCarloMethod())
    with pytest.raises(TypeError):  # SciPy 1.18 returns a complex statistic
        H.anderson(x + 1j, method="interpolate")
    with pytest.raises(ValueError, match="one-dimensional"):  # SciPy broadcasts into nonsense
        H.anderson(np.ones((3, 4)), method="interpolate")


def test_signature_as_scipy():
    assert inspect.signature(cst.anderson) == inspect.signature(sst.anderson)
