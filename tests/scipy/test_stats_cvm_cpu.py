"""cramervonmises without a GPU: the module (`_cvm`: statistic and Csörgő-Faraway series) run with
NumPy in place of cuarray's routines (stats_tests_host) against scipy.stats over a grid (dtypes,
1-D/N-D, each axis, negative and None, keepdims, a cdf with args, NaNs propagated/omitted/raised,
samples too small, lists), its errors and the signature."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

sst = pytest.importorskip("scipy.stats")
sc = pytest.importorskip("scipy.special")

from cuarray.scipy import stats as cst  # noqa: E402

SCIPY_118 = tuple(int(v) for v in __import__("scipy").__version__.split(".")[:2]) >= (1, 18)


@pytest.fixture(scope="module")
def H(stats_host):
    return stats_host["_cvm"]




def _same(got, want, rtol):
    # the p-value is 1 - cdf with the cdf near 1 for small p: its error is absolute, a few ulps of 1
    # in the statistic's dtype (float32: 1.2e-7 each)
    atol = 1e-13 if np.asarray(want.pvalue).dtype != np.float32 else 1e-6
    for g, w in ((got.statistic, want.statistic), (got.pvalue, want.pvalue)):
        g, w = np.asarray(g), np.asarray(w)
        assert g.shape == w.shape and (g.dtype == w.dtype or not SCIPY_118), (g.shape, w.shape, g.dtype, w.dtype)
        np.testing.assert_allclose(g, w, rtol=rtol, atol=atol, equal_nan=True)


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64"])
@pytest.mark.parametrize("shape,axis,keepdims", [((30,), 0, False), ((5, 12), 1, True), ((12, 3, 2), 0, False),
                                                 ((4, 9), None, True), ((3, 4, 7), -1, False), ((8, 3), -2, True)])
def test_values_as_scipy(H, dtype, shape, axis, keepdims, warned):
    rng = np.random.default_rng()
    a = rng.standard_normal(shape) * 1.2 + 0.2
    a = (np.round(a * 3) if dtype == "int64" else a).astype(dtype)
    kw = {"axis": axis, "keepdims": keepdims}
    # the same formulas in the same order; the series' Bessel terms agree to a few ulps, so the
    # statistic and p-value to ~1e-14 (float32 samples: the same, in float32 where SciPy is)
    for cdf in (sst.norm.cdf, sc.ndtr):
        _same(warned(H.cramervonmises, a, cdf, **kw)[0], warned(sst.cramervonmises, a, cdf, **kw)[0],
              1e-10 if dtype != "float32" or cdf is sst.norm.cdf else 1e-5)


def test_args_and_lists(H):
    x = [0.3, 1.2, -0.4, 2.5, 0.9, 1.7, 0.1]
    _same(H.cramervonmises(x, sst.norm.cdf, args=(1.0, 2.0)), sst.cramervonmises(x, sst.norm.cdf, args=(1.0, 2.0)),
          1e-10)
    far = np.linspace(3, 9, 40)  # far from the null: p-value clipped at 0 where the series passes 1
    _same(H.cramervonmises(far, sc.ndtr), sst.cramervonmises(far, sc.ndtr), 1e-10)


@pytest.mark.parametrize("policy", ["propagate", "omit", "raise"])
@pytest.mark.parametrize("shape,axis", [((25,), 0), ((6, 14), 1), ((14, 5), 0), ((3, 10), None)])
@pytest.mark.parametrize("dtype,first_clean", [("float64", False), ("float32", False), ("float32", True)])
def test_nan_policy_as_scipy(H, policy, shape, axis, dtype, first_clean, warned, nan_sample):
    """With NaNs SciPy's result dtypes follow its slice-by-slice path (the first slice's)."""
    a = nan_sample(shape, axis, dtype, first_clean, left=1)
    kw = {"axis": axis, "nan_policy": policy}
    if policy == "raise":
        for f in (H.cramervonmises, sst.cramervonmises):
            with pytest.raises(ValueError, match="nan"):
                f(a, sc.ndtr, **kw)
        return
    for cdf in (sc.ndtr, sst.norm.cdf):
        (got, got_w), (want, want_w) = (warned(f, a, cdf, **kw) for f in (H.cramervonmises, sst.cramervonmises))
        _same(got, want, 1e-10 if dtype == "float64" or cdf is sst.norm.cdf else 1e-5)
        assert bool(got_w) == bool(want_w), (got_w, want_w)


@pytest.mark.parametrize("shape,axis", [((0,), 0), ((1,), 0), ((2,), 0), ((3, 0), 1), ((0, 4), 0)])
def test_small_samples_as_scipy(H, shape, axis, warned):
    a = np.random.default_rng().standard_normal(shape)
    (got, got_w), (want, want_w) = (warned(f, a, sc.ndtr, axis=axis) for f in (H.cramervonmises, sst.cramervonmises))
    _same(got, want, 1e-10)
    assert bool(got_w) == bool(want_w), (got_w, want_w)


def test_errors_as_scipy(H):
    x = np.arange(5.0)
    for f in (H.cramervonmises, sst.cramervonmises):
        with pytest.raises(np.exceptions.AxisError):
            f(x, sc.ndtr, axis=1)
        with pytest.raises(ValueError, match="two observations"):  # a batch of one-value slices
            f(np.ones((3, 1)), sc.ndtr, axis=1)
    with pytest.raises(TypeError):  # SciPy 1.18 returns a complex statistic and p-value 0j (1.17 raises ValueError)
        H.cramervonmises(x + 1j, sc.ndtr)
        with pytest.raises(ValueError, match="nan_policy"):
            f(x, sc.ndtr, nan_policy="bogus")


def test_signature_as_scipy():
    assert inspect.signature(cst.cramervonmises) == inspect.signature(sst.cramervonmises)
