"""ansari without a GPU: the module (`_ansari`) run with NumPy in place of cuarray's routines
(stats_tests_host) against scipy.stats over a grid (dtypes, ties, sizes on both sides of the
exact/asymptotic switch, broadcasting, each axis and None, keepdims, alternatives, SciPy 1.18's
methods and a seeded PermutationMethod, NaNs propagated/omitted/raised, empty samples), the null
distribution's counts against exact integers, the errors and the signature."""

from __future__ import annotations

import inspect
import math

import numpy as np
import pytest

sst = pytest.importorskip("scipy.stats")

from cuarray.scipy import stats as cst  # noqa: E402

SCIPY_118 = tuple(int(v) for v in __import__("scipy").__version__.split(".")[:2]) >= (1, 18)
ALTERNATIVES = ("two-sided", "less", "greater")
METHODS = ("auto", "exact", "asymptotic") if SCIPY_118 else ("auto",)


@pytest.fixture(scope="module")
def H(stats_host):
    return stats_host["_ansari"]


def _same(got, want, rtol):
    for g, w in zip(got, want):
        g, w = np.asarray(g), np.asarray(w)
        assert g.shape == w.shape and (g.dtype == w.dtype or not SCIPY_118), (g.shape, w.shape, g.dtype, w.dtype)
        np.testing.assert_allclose(g, w, rtol=rtol, atol=1e-300, equal_nan=True)


def _rtol(n, m, dtype):
    # AB is a sum of (half-)integer scores, exact; the normal tail the same formula. SciPy's exact
    # table is AS 93's recursion in float32 (its counts ~1e-6 relative off once they pass 2**24,
    # N >= 32; ours exact to double rounding): its p-values are that far from ours. float32 results:
    # SciPy's p-value rounded to float32 (and its z in float32 for the asymptotic one)
    if dtype == "float32":
        return 1e-5
    return 2e-5 if n + m >= 32 else 1e-11


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64"])
@pytest.mark.parametrize("n,m", [(6, 9), (14, 12), (60, 40), (3, 70)])
@pytest.mark.parametrize("method", METHODS)
def test_1d_as_scipy(H, dtype, n, m, method):
    rng = np.random.default_rng()
    x, y = rng.standard_normal(n) * 2, rng.standard_normal(m)
    if dtype == "int64":  # ties
        x, y = np.round(x * 2), np.round(y * 2)
    x, y = x.astype(dtype), y.astype(dtype)
    for alternative in ALTERNATIVES:
        kw = {"alternative": alternative, **({"method": method} if SCIPY_118 else {})}
        _same(H.ansari(x, y, **kw), sst.ansari(x, y, **kw), _rtol(n, m, dtype))


@pytest.mark.parametrize("xs,ys,axis,keepdims", [((4, 9), (4, 7), 1, True), ((9, 3), (6, 1), 0, False),
                                                 ((3, 4), (2, 5), None, True), ((2, 3, 8), (3, 5), -1, False),
                                                 ((7, 2), (5, 2), -2, True), ((3, 30), (3, 30), 1, False)])
def test_batches_as_scipy(H, xs, ys, axis, keepdims):
    rng = np.random.default_rng()
    x, y = rng.standard_normal(xs), rng.standard_normal(ys) * 1.7
    for ties in (False, True):  # one tie anywhere makes SciPy's whole batch asymptotic
        if ties:
            x.flat[-1] = y.flat[-1]
        for alternative in ALTERNATIVES:
            kw = {"alternative": alternative, "axis": axis, "keepdims": keepdims}
            n = x.size if axis is None else x.shape[axis]
            m = y.size if axis is None else y.shape[axis]
            _same(H.ansari(x, y, **kw), sst.ansari(x, y, **kw), _rtol(n, m, "float64"))


@pytest.mark.skipif(not SCIPY_118, reason="SciPy 1.17's ansari has no `method`")
def test_permutation_method_is_scipys(H):
    # SciPy's permutations (every one of the C(13, 7) = 1716 when n_resamples allows, else its
    # draws from the seeded generator) of the same data: the same null statistics, exact sums of
    # half-integer scores, so the same counts and p-values
    rng = np.random.default_rng()
    x, y = rng.standard_normal((2, 7)), rng.standard_normal((2, 6)) * 2
    x[0, 0] = y[0, 0]  # a tie: half-integer scores
    for n_resamples in (9999, 300):
        for alternative in ALTERNATIVES:
            got, want = (f(x, y, alternative, axis=-1, method=sst.PermutationMethod(n_resamples=n_resamples, rng=7))
                         for f in (H.ansari, sst.ansari))
            _same(got, want, 1e-12)


@pytest.mark.parametrize("policy", ["propagate", "omit", "raise"])
@pytest.mark.parametrize("xs,ys,axis", [((20,), (12,), 0), ((4, 12), (4, 9), 1), ((3, 10), (2, 6), None)])
def test_nan_policy_as_scipy(H, policy, xs, ys, axis, warned):
    rng = np.random.default_rng()
    x, y = rng.standard_normal(xs), rng.standard_normal(ys)
    x[rng.random(xs) < 0.15] = np.nan
    x.flat[0] = np.nan
    if len(xs) == 2 and axis == 1:
        y[1] = np.nan  # a slice left empty after omitting
    kw = {"axis": axis, "nan_policy": policy}
    fs = (H.ansari, sst.ansari)
    if policy == "raise":
        for f in fs:
            with pytest.raises(ValueError, match="nan"):
                f(x, y, **kw)
        return
    (got, got_w), (want, want_w) = (warned(f, x, y, **kw) for f in fs)
    _same(got, want, _rtol(xs[-1], ys[-1], "float64") if axis is not None else _rtol(x.size, y.size, "float64"))
    assert bool(got_w) == bool(want_w), (got_w, want_w)


@pytest.mark.parametrize("xs,ys", [((0,), (3,)), ((1,), (1,)), ((2,), (0,)), ((2, 0), (2, 3))])
def test_small_samples_as_scipy(H, xs, ys, warned):
    x, y = np.random.default_rng().standard_normal(xs), np.random.default_rng().standard_normal(ys)
    (got, got_w), (want, want_w) = (warned(f, x, y, axis=-1) for f in (H.ansari, sst.ansari))
    _same(got, want, 1e-11)
    assert bool(got_w) == bool(want_w), (got_w, want_w)


@pytest.mark.parametrize("n,m", [(1, 1), (3, 4), (7, 5), (25, 30)])
def test_null_counts_are_exact(H, n, m):
    big_n = n + m
    scores = [min(i, big_n + 1 - i) for i in range(1, big_n + 1)]
    # every n-subset's sum counted by exact integer polynomial products, against ours
    poly = [[1]]  # poly[j][s]: subsets of j scores summing to s
    for a in scores:
        new = [row[:] for row in poly] + [[0]]
        for j in range(len(poly) - 1, -1, -1):
            row = new[j + 1]
            row.extend([0] * (len(poly[j]) + a - len(row)))
            for s, c in enumerate(poly[j]):
                row[s + a] += c
        poly = new[:n + 1]
    start, counts = H.null_counts(n, m)
    assert sum(poly[n][:start]) == 0 and poly[n][start] > 0 and sum(poly[n]) == math.comb(big_n, n)
    # each count a sum of at most N double additions of exact integers
    np.testing.assert_allclose(counts, np.array(poly[n][start:], dtype=float), rtol=4e-16 * big_n)


def test_lists_and_errors(H):
    _same(H.ansari([1, 5, 2, 8], [3, 3, 9]), sst.ansari([1, 5, 2, 8], [3, 3, 9]), 1e-11)
    x = np.arange(5.0)
    for f in (H.ansari, sst.ansari):
        with pytest.raises(np.exceptions.AxisError):
            f(x, x, axis=1)
        with pytest.raises(ValueError, match="alternative"):
            f(x, x, alternative="sideways")
    if SCIPY_118:
        for f in (H.ansari, sst.ansari):
            with pytest.raises(ValueError, match="`method` must be one of"):
                f(x, x, method="permutation")
            with pytest.raises(ValueError, match="`method` must be one of"):
                f(x, x, method=sst.MonteCarloMethod())
    with pytest.raises(TypeError):
        H.ansari(x + 1j, x)


@pytest.mark.skipif(not SCIPY_118, reason="SciPy 1.17's ansari has no `method`")
def test_signature_as_scipy():
    assert inspect.signature(cst.ansari) == inspect.signature(sst.ansari)
