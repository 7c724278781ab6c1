"""shapiro without a GPU: the module (`_shapiro`: Royston's coefficients and transformations, as
SciPy 1.18 computes them) run with NumPy in place of cuarray's routines (stats_tests_host)
against scipy.stats over a grid (every small size through the n <= 11 / n > 11 and n = 3 branches,
dtypes, 1-D/N-D, each axis, negative and None, keepdims, NaNs propagated/omitted/raised, samples
too small, constant and integer samples, lists), the errors and the signature."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

sst = pytest.importorskip("scipy.stats")

from cuarray.scipy import stats as cst  # noqa: E402

# SciPy 1.17 ran swilk.c (AS R94), whose W and p differ from 1.18's vectorized Royston formulas by
# ~1e-9 and ~1e-7 relative (measured to n = 200); 1.17's result dtypes were float64 throughout
SCIPY_118 = tuple(int(v) for v in __import__("scipy").__version__.split(".")[:2]) >= (1, 18)


@pytest.fixture(scope="module")
def H(stats_host):
    return stats_host["_shapiro"]




def _same(got, want, float32=False):
    # float64: the same formulas, sums in another order: W to a few ulps; the p-value is a function
    # of log(1 - W), which multiplies W's error by 1/(1 - W) (< 1e3 here), then the normal tail's
    # z phi(z)/Phi(-z) (< 10). float32: W to a few float32 ulps (~3e-7), the p-value the same way.
    rtols = (1e-12, 1e-10) if not float32 else (2e-6, 1e-3)
    if not SCIPY_118:
        rtols = (1e-8, 1e-6) if not float32 else rtols
    for g, w, rtol in zip(got, want, rtols):
        g, w = np.asarray(g), np.asarray(w)
        assert g.shape == w.shape and (g.dtype == w.dtype or not SCIPY_118), (g.shape, w.shape, g.dtype, w.dtype)
        np.testing.assert_allclose(g, w, rtol=rtol, atol=0, equal_nan=True)


@pytest.mark.parametrize("n", [3, 4, 5, 6, 7, 11, 12, 13, 40])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_sizes_as_scipy(H, n, dtype, warned):
    x = np.random.default_rng().standard_normal((4, n)).astype(dtype)
    _same(warned(H.shapiro, x, axis=1)[0], warned(sst.shapiro, x, axis=1)[0], dtype == "float32")


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64"])
@pytest.mark.parametrize("shape,axis,keepdims", [((30,), None, False), ((5, 12), 1, True), ((12, 3, 2), 0, False),
                                                 ((4, 9), None, True), ((3, 4, 7), -1, False), ((8, 3), -2, True)])
def test_values_as_scipy(H, dtype, shape, axis, keepdims, warned):
    rng = np.random.default_rng()
    a = rng.standard_normal(shape) * 1.2 + rng.exponential(size=shape)
    a = (np.round(a * 5) if dtype == "int64" else a).astype(dtype)
    kw = {"axis": axis, "keepdims": keepdims}
    _same(warned(H.shapiro, a, **kw)[0], warned(sst.shapiro, a, **kw)[0], dtype == "float32")


@pytest.mark.parametrize("policy", ["propagate", "omit", "raise"])
@pytest.mark.parametrize("shape,axis", [((25,), 0), ((6, 14), 1), ((14, 5), 0), ((3, 10), None)])
@pytest.mark.parametrize("first_clean", [False, True])
def test_nan_policy_as_scipy(H, policy, shape, axis, first_clean, warned, nan_sample):
    a = nan_sample(shape, axis, "float64", first_clean, left=2)
    kw = {"axis": axis, "nan_policy": policy}
    if policy == "raise":
        for f in (H.shapiro, sst.shapiro):
            with pytest.raises(ValueError, match="nan"):
                f(a, **kw)
        return
    (got, got_w), (want, want_w) = (warned(f, a, **kw) for f in (H.shapiro, sst.shapiro))
    _same(got, want)
    assert bool(got_w) == bool(want_w), (got_w, want_w)


@pytest.mark.parametrize("shape,axis", [((0,), 0), ((2,), 0), ((4, 0), 1), ((3,), 0)])
def test_small_samples_as_scipy(H, shape, axis, warned):
    a = np.random.default_rng().standard_normal(shape)
    (got, got_w), (want, want_w) = (warned(f, a, axis=axis) for f in (H.shapiro, sst.shapiro))
    _same(got, want)
    assert bool(got_w) == bool(want_w), (got_w, want_w)


def test_constant_lists_and_errors(H, warned):
    for x in (np.full(10, 3.0), [1, 2, 2, 3, 9, 4, 4], np.arange(12)):
        if SCIPY_118 or np.ptp(x):  # SciPy 1.17's swilk.c gave W = 1 for a constant sample, 1.18 NaN
            _same(warned(H.shapiro, x)[0], warned(sst.shapiro, x)[0])
    for f in (H.shapiro, sst.shapiro):
        if f is H.shapiro or SCIPY_118:  # SciPy 1.17 gave NaN with a warning
            with pytest.raises(ValueError, match="at least length 3"):
                f(np.ones((3, 2)), axis=1)
        with pytest.raises(np.exceptions.AxisError):
            f(np.ones(5), axis=1)
        if f is H.shapiro or SCIPY_118:  # SciPy 1.17 dropped the imaginary parts with a warning
            with pytest.raises(TypeError):
                f(np.arange(5) + 1j)


def test_signature_as_scipy():
    assert inspect.signature(cst.shapiro) == inspect.signature(sst.shapiro)
