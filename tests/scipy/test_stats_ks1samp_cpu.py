"""ks_1samp and kstest without a GPU: the module (`_ks1samp`) run with NumPy in place of cuarray's
routines (stats_tests_host) against scipy.stats over a grid (dtypes, 1-D/N-D, each axis, negative
and None, keepdims, alternatives, methods, NaNs propagated/omitted/raised, empty samples, lists),
its argument errors and the signatures."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

sst = pytest.importorskip("scipy.stats")
sc = pytest.importorskip("scipy.special")

from cuarray.scipy import stats as cst  # noqa: E402

NAMES = ("ks_1samp", "kstest")
# SciPy 1.17 returned a float64 sign (and float64 results) for some batches: 1.18's dtypes are the contract
SCIPY_118 = tuple(int(v) for v in __import__("scipy").__version__.split(".")[:2]) >= (1, 18)


@pytest.fixture(scope="module")
def H(stats_host):
    return stats_host["_ks1samp"]




def _same(got, want, rtol):
    got = (got.statistic, got.pvalue, got.statistic_location, got.statistic_sign)
    want = (want.statistic, want.pvalue, want.statistic_location, want.statistic_sign)
    for g, w in zip(got, want):
        g, w = np.asarray(g), np.asarray(w)
        assert g.shape == w.shape and (g.dtype == w.dtype or not SCIPY_118), (g.shape, w.shape, g.dtype, w.dtype)
        np.testing.assert_allclose(g, w, rtol=rtol, atol=0, equal_nan=True)


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64"])
@pytest.mark.parametrize("shape,axis,keepdims", [((30,), 0, False), ((5, 12), 1, True), ((12, 3, 2), 0, False),
                                                 ((4, 9), None, True), ((3, 4, 7), -1, False), ((8, 3), -2, True)])
def test_values_as_scipy(H, dtype, shape, axis, keepdims, warned):
    rng = np.random.default_rng()
    a = (rng.standard_normal(shape) * 1.3 + 0.2)
    a = np.round(a * 3) if dtype == "int64" else a  # integers: ties, as SciPy meets them
    a = a.astype(dtype)
    # float64: the same formulas in the same order, equal to the last bits. float32: SciPy 1.17
    # takes D in float64 where we (and 1.18) take it in float32, ~1e-7 relative apart; the p-value's
    # relative condition |D p'(D) / p| is about 4 n D^2 (the tail exp(-2 n D^2)), under 100 for these
    # n <= 36 and D <= 1, so 1e-7 becomes at most 1e-5
    rtol = 1e-12 if dtype != "float32" else 1e-4
    for alternative in ("two-sided", "less", "greater"):
        for method in ("auto", "exact", "asymp", "approx"):
            kw = {"alternative": alternative, "method": method, "axis": axis, "keepdims": keepdims}
            _same(warned(H.ks_1samp, a, sst.norm.cdf, **kw)[0], warned(sst.ks_1samp, a, sst.norm.cdf, **kw)[0], rtol)
            if method == "auto" and alternative == "two-sided":
                _same(warned(H.kstest, a, "norm", **kw)[0], warned(sst.kstest, a, "norm", **kw)[0], rtol)


def test_args_and_lists(H):
    x = [0.3, 1.2, -0.4, 2.5, 0.9, 1.7]
    for name in NAMES:
        _same(getattr(H, name)(x, sst.norm.cdf, args=(1.0, 2.0)), getattr(sst, name)(x, sst.norm.cdf, args=(1.0, 2.0)),
              1e-12)
    _same(H.ks_1samp(x, sc.ndtr, alternative="g"), sst.ks_1samp(x, sc.ndtr, alternative="g"), 1e-12)


@pytest.mark.parametrize("policy", ["propagate", "omit", "raise"])
@pytest.mark.parametrize("shape,axis", [((25,), 0), ((6, 14), 1), ((14, 5), 0), ((3, 10), None)])
@pytest.mark.parametrize("dtype,first_clean", [("float64", False), ("float32", False), ("float32", True)])
def test_nan_policy_as_scipy(H, policy, shape, axis, dtype, first_clean, warned, nan_sample):
    """With NaNs SciPy's result dtypes change (propagate: the sample's; omit N-D: the common one)."""
    a = nan_sample(shape, axis, dtype, first_clean, left=0)
    kw = {"axis": axis, "nan_policy": policy}
    if policy == "raise":
        for f in (H.ks_1samp, sst.ks_1samp):
            with pytest.raises(ValueError, match="nan"):
                f(a, sc.ndtr, **kw)
        return
    for alternative, cdf in (("two-sided", sc.ndtr), ("less", sst.norm.cdf)):
        (got, got_w), (want, want_w) = (warned(f, a, cdf, alternative=alternative, **kw)
                                        for f in (H.ks_1samp, sst.ks_1samp))
        _same(got, want, 1e-12 if dtype == "float64" else 1e-4)  # float32: see test_values_as_scipy
        assert bool(got_w) == bool(want_w), (got_w, want_w)


@pytest.mark.parametrize("shape,axis", [((0,), 0), ((3, 0), 1), ((0, 4), 0), ((1,), 0), ((5, 1), -1)])
def test_small_samples_as_scipy(H, shape, axis, warned):
    a = np.random.default_rng().standard_normal(shape)
    (got, got_w), (want, want_w) = warned(H.ks_1samp, a, sc.ndtr, axis=axis), warned(sst.ks_1samp, a, sc.ndtr, axis=axis)
    _same(got, want, 1e-12)
    assert bool(got_w) == bool(want_w), (got_w, want_w)


def test_errors_as_scipy(H):
    x = np.arange(5.0)
    for f in (H.ks_1samp, sst.ks_1samp):
        if f is H.ks_1samp or SCIPY_118:  # SciPy 1.17 took an unknown method for 'approx'
            with pytest.raises(ValueError, match="method"):
                f(x, sc.ndtr, method="bogus")
        with pytest.raises(ValueError, match="alternative"):
            f(x, sc.ndtr, alternative="sideways")
        with pytest.raises(np.exceptions.AxisError):
            f(x, sc.ndtr, axis=1)
        with pytest.raises(np.exceptions.AxisError):
            f(x, sc.ndtr, axis=-2)
        with pytest.raises(TypeError):
            f(x + 1j, sc.ndtr)
    for f in (H.kstest, sst.kstest):
        with pytest.raises(ValueError, match="alternative"):
            f(x, "norm", alternative="sideways")
        with pytest.raises(AttributeError):
            f(x, "no_such_distribution")


@pytest.mark.parametrize("name", NAMES)
def test_signature_as_scipy(name):
    assert inspect.signature(getattr(cst, name)) == inspect.signature(getattr(sst, name))
