"""anderson on the GPU against SciPy: every family name, float64/float32/integer samples, the
critical values and levels, the fitted parameters, `method='interpolate'`, the errors."""

from __future__ import annotations

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


def _quiet(f, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        return f(*args, **kw)


def _a2(x, dist, loc, scale):
    """SciPy's A^2 of the sorted sample for the given fitted parameters."""
    family = getattr(sst, {"gumbel": "gumbel_l", "extreme1": "gumbel_l"}.get(dist, dist))
    w = (np.sort(x) - loc) / scale
    n = len(x)
    i = np.arange(1, n + 1)
    return -n - np.sum((2 * i - 1.0) / n * (family.logcdf(w) + family.logsf(w)[::-1]))


@pytest.mark.parametrize("dist", ["norm", "expon", "logistic", "gumbel", "gumbel_r", "gumbel_l"])
@pytest.mark.parametrize("dtype", ["float64", "float32", "int64"])
def test_as_scipy(dist, dtype):
    rng = np.random.default_rng()
    n = int(rng.integers(10, 60))
    x = np.abs(rng.standard_normal(n) * 2 + 3) if dtype != "int64" else rng.integers(1, 30, n)
    x = x.astype(dtype)
    got, want = _quiet(cst.anderson, cuarray.asarray(x), dist), _quiet(sst.anderson, x, dist)
    params = [float(cuarray.asnumpy(p)) for p in got.fit_result.params]
    for g, w in zip(got.fit_result.params, want.fit_result.params):
        assert cuarray.asnumpy(g).dtype == np.asarray(w).dtype
    # float32 samples: the mean and standard deviation (or the fit) in float32 by another summation
    # order, a few float32 ulps apart; a 2-ulp change of both moves A^2 by < 4e-6 relative (2,000
    # draws of these samples, n < 60)
    rtol = 1e-9 if dtype != "float32" else 5e-5
    if dist == "logistic":
        # both fits are SciPy's fsolve stopped at a relative step below xtol = 1e-5 on function
        # values that differ by rounding: the parameters agree to that; A^2 is checked as SciPy's
        # formula at our parameters
        np.testing.assert_allclose(params, want.fit_result.params, rtol=2e-5)
        want_a2 = _a2(x, dist, *params)
    else:
        np.testing.assert_allclose(params, want.fit_result.params, rtol=rtol)
        want_a2 = want.statistic
    np.testing.assert_allclose(float(got.statistic), want_a2, rtol=rtol)
    np.testing.assert_array_equal(got.critical_values, want.critical_values)
    np.testing.assert_array_equal(got.significance_level, want.significance_level)
    res = cst.anderson(cuarray.asarray(x), dist, method="interpolate")
    a2 = float(cuarray.asnumpy(res.statistic))
    np.testing.assert_allclose(a2, float(cuarray.asnumpy(got.statistic)), rtol=rtol)  # the same computation
    # the table interpolation itself, at our A^2: exact
    np.testing.assert_allclose(float(cuarray.asnumpy(res.pvalue)),
                               np.interp(a2, want.critical_values, want.significance_level / 100), rtol=1e-12)


def test_lists_and_errors():
    x = [0.3, 1.2, -0.4, 2.5, 0.9, 1.7, 0.1, 1.1]
    with pytest.warns(FutureWarning, match="method"):
        got = cst.anderson(x)
    np.testing.assert_allclose(float(got.statistic), _quiet(sst.anderson, x).statistic, rtol=1e-9)
    with pytest.raises(ValueError, match="Invalid distribution"):
        cst.anderson(cuarray.asarray(x), "cauchy", method="interpolate")
    with pytest.raises(NotImplementedError):
        cst.anderson(cuarray.asarray(x), "weibull_min", method="interpolate")
    with pytest.raises(TypeError):
        cst.anderson(cuarray.asarray(x) + 1j, method="interpolate")
