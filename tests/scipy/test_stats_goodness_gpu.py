"""power_divergence, chisquare and f_oneway on the GPU against SciPy: lambdas, f_exp, ddof, axes,
keepdims, float32/int input, NaNs omitted; f_oneway with samples of different lengths broadcast
along the other axes, equal_var both ways, constant samples."""

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

G = cuarray.asarray


def _quiet(f, *a, **k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return f(*a, **k)


def _cmp(got, want, rtol=1e-9):
    for g, w in zip(got, want):
        g = cuarray.asnumpy(g)
        assert g.shape == np.shape(w) and g.dtype == np.asarray(w).dtype, (g.shape, g.dtype, np.shape(w), np.asarray(w).dtype)
        np.testing.assert_allclose(g, w, rtol=rtol, atol=1e-300, equal_nan=True)


@pytest.mark.parametrize("lambda_", [None, "log-likelihood", "freeman-tukey", "neyman", 0.3])
@pytest.mark.parametrize("dtype", ["float64", "float32", "int64"])
def test_power_divergence_as_scipy(lambda_, dtype):
    rng = np.random.default_rng()
    obs = rng.integers(1, 40, (12, 5)).astype(dtype)
    e = rng.uniform(1, 40, obs.shape)
    e = (e * obs.sum(axis=0) / e.sum(axis=0)).astype(dtype if dtype != "int64" else "float64")
    # float32: sums of 12 terms in another order, ~1e-6 relative; chi-square tails keep that
    rtol = 1e-4 if dtype == "float32" else 1e-9
    for args, kw in (((obs,), {}), ((obs, e), {"ddof": 1}), ((obs,), {"axis": 1, "keepdims": True}),
                     ((obs, e), {"axis": None})):
        _cmp(_quiet(cst.power_divergence, *(G(a) for a in args), lambda_=lambda_, **kw),
             _quiet(sst.power_divergence, *args, lambda_=lambda_, **kw), rtol)


def test_chisquare_omit_and_sum_check():
    rng = np.random.default_rng()
    obs = rng.integers(1, 30, (9, 4)).astype(float)
    obs[rng.random(obs.shape) < 0.2] = np.nan
    _cmp(_quiet(cst.chisquare, G(obs), nan_policy="omit"), _quiet(sst.chisquare, obs, nan_policy="omit"))
    good = np.arange(1.0, 7.0)
    with pytest.raises(ValueError, match="sum of the observed frequencies"):
        cst.chisquare(G(good), G(good + 1))


@pytest.mark.parametrize("equal_var", [True, False])
def test_f_oneway_as_scipy(equal_var):
    rng = np.random.default_rng()
    a, b, c = rng.standard_normal((3, 7, 4)), rng.standard_normal((1, 5, 4)) + 0.3, rng.standard_normal((3, 9, 1))
    _cmp(_quiet(cst.f_oneway, G(a), G(b), G(c), axis=1, equal_var=equal_var),
         _quiet(sst.f_oneway, a, b, c, axis=1, equal_var=equal_var))
    x, y = rng.standard_normal(30), rng.standard_normal(45) + 0.2
    _cmp(_quiet(cst.f_oneway, G(x), G(y), equal_var=equal_var), _quiet(sst.f_oneway, x, y, equal_var=equal_var))
    a[rng.random(a.shape) < 0.2] = np.nan
    _cmp(_quiet(cst.f_oneway, G(a), G(b), G(c), axis=1, nan_policy="omit", equal_var=equal_var),
         _quiet(sst.f_oneway, a, b, c, axis=1, nan_policy="omit", equal_var=equal_var))
    const = (np.full(5, 2.0), np.full(4, 3.0))
    _cmp(_quiet(cst.f_oneway, *(G(s) for s in const)), _quiet(sst.f_oneway, *const))


@pytest.mark.parametrize("method", ["bh", "by"])
def test_false_discovery_control_as_scipy(method):
    rng = np.random.default_rng()
    ps = rng.uniform(0, 1, (6, 200)) ** 3
    ps[:, ::9] = np.round(ps[:, ::9], 1)  # ties
    for axis in (1, 0, None):
        got = cuarray.asnumpy(cst.false_discovery_control(G(ps), axis=axis, method=method))
        want = sst.false_discovery_control(ps, axis=axis, method=method)
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-13, atol=0)
    with pytest.raises(ValueError):
        cst.false_discovery_control(G(np.array([0.5, 1.5])))


@pytest.mark.parametrize("shape", [(2, 2), (3, 4), (2, 3, 4)])
def test_chi2_contingency_as_scipy(shape):
    rng = np.random.default_rng()
    observed = rng.integers(1, 60, shape)
    for correction in (True, False):
        got, want = cst.chi2_contingency(G(observed), correction), sst.chi2_contingency(observed, correction)
        assert got.dof == want.dof
        for g, w in zip((got.statistic, got.pvalue, got.expected_freq), (want.statistic, want.pvalue, want.expected_freq)):
            np.testing.assert_allclose(cuarray.asnumpy(g), w, rtol=1e-10, atol=0)
    with pytest.raises(ValueError, match="nonnegative"):
        cst.chi2_contingency(G(np.array([[1, -1], [2, 3]])))
