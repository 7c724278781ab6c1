"""The listed differences of the GPU fuzz run of seed 21 (NumPy 2.5, 200 000 calls): each
condition (fuzz_allowances) lists the case the run printed, with cuarray's answer as the device
gave it (or as cuarray now gives it), and refuses a wrong value beside it."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import fuzz_allowances as fa
import fuzz_catalog as fc
import fuzzlib


def _case(key, index, seed=21):
    """(row, host inputs, NumPy's outcome) of a fuzz case."""
    row = fc.BY_KEY[key]
    args, kw = row.make(fuzzlib.case_rng(row.key, seed, index))
    host = ([fuzzlib._host_value(s) for s in args], {k: fuzzlib._host_value(s) for k, s in kw.items()})
    return row, host, fuzzlib.Side(np).outcome(row, args, kw)


def _ok(x):
    return ("ok", x, False)


def test_poly1d_power_lists_numpys_product_rounded_to_inf_only():
    """Seed 21 index 135: poly1d([inf, 2.68e154, -7.4e-309]) ** 3. Its square's middle coefficient
    is -inf + 7.19e308 + -inf: -inf with the product exact (the GPU's fused multiply-add), NaN in
    NumPy, whose product rounds to inf; the cube then has -inf at index 3 where NumPy has NaN."""
    row, host, ref = _case("poly1d**(a1 ppow){}", 135)
    e = ref[1]
    assert np.array_equal(e, [np.inf, np.inf, np.nan, np.nan, np.nan, 0, 0], equal_nan=True)
    gpu = np.array([np.inf, np.inf, np.nan, -np.inf, np.nan, 0.0, 0.0])  # the device's answer
    assert fa._fused_product_overflow(row, host, ref, _ok(gpu))
    assert fa.listed(row, host, ref, _ok(gpu)) == "fused-product-overflow"
    for i, v in ((3, np.inf), (5, 1.0), (0, 1.0)):  # another infinity, a wrong finite value
        wrong = gpu.copy()
        wrong[i] = v
        assert not fa._fused_product_overflow(row, host, ref, _ok(wrong)), (i, v)
    assert not fa._fused_product_overflow(row, host, ref, ref)  # nothing differs: nothing to list


@pytest.mark.parametrize("key", ["convolve(a1 a1)", "polymul(a1 a1)"])
def test_convolutions_list_an_exact_product_past_the_range_only(key):
    """A finite product past float64's range beside an infinite one: NaN in NumPy, the infinity
    with the product exact; a product past the range whose sum comes back in range: inf in NumPy,
    finite with it exact."""
    row = fc.BY_KEY[key]
    a = np.array([np.inf, 2.681561585988519e154, -7.41691286169067e-309])
    b = np.array([1e300, -1e300, 1.0])
    for x, y in ((a, a), (b, np.array([1e10, 1e10]))):
        with np.errstate(all="ignore"):
            e = row.call(np, [x, y], {})
        g = np.asarray(row.call(np, [x.astype(np.longdouble), y.astype(np.longdouble)], {})).astype(np.float64)
        assert not np.array_equal(e, g, equal_nan=True)
        assert fa._fused_product_overflow(row, ([x, y], {}), _ok(e), _ok(g))
        wrong = g.copy()
        wrong[(np.isfinite(wrong) & (wrong != 0)).argmax()] *= 3
        assert not fa._fused_product_overflow(row, ([x, y], {}), _ok(e), _ok(wrong))


def test_nanmean_lists_numpys_float16_sum_overflow_only():
    """Seed 21 index 254: float16 nanmean over axis -2 of a (7, 5, 5) array; a row [nan, -1.097,
    nan, -65504, -127.9] sums to -65633 (past float16) in NumPy's float16 sum: -inf; cuarray sums in
    float32, as NumPy's mean of float16 does: -2.188e4."""
    row, host, ref = _case("nanmean(a)", 254)
    e = ref[1]
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        g = np.nanmean(host[0][0].astype(np.float32), **host[1]).astype(np.float16)
        plain = np.mean(np.where(np.isnan(host[0][0]), 0, host[0][0])[2, [1, 3, 4], 0])
    assert np.isneginf(e[2, 0]) and g[2, 0] == np.float16(-2.187e4) and plain == g[2, 0]
    assert fa._nanmean_float16_sum(row, host, ref, _ok(g))
    assert fa.listed(row, host, ref, _ok(g)) == "nanmean-float16-sum"
    wrong = g.copy()
    wrong[2, 0] = -4.375e4  # finite, but not the mean (twice it: the row's float16 tolerance is 20%)
    assert not fa._nanmean_float16_sum(row, host, ref, _ok(wrong))
    beside = g.copy()
    beside[0, 2] *= 2  # a wrong value where NumPy's is finite
    assert not fa._nanmean_float16_sum(row, host, ref, _ok(beside))


@pytest.mark.parametrize("index", [273, 151])
def test_setdiff1d_lists_numpys_promoted_collisions_only(index):
    """Seed 21 indices 273, 151: setdiff1d(uint64, float16/float32): 2**63 - 1 and 2**63 are one
    float64, as are 2**64 - 2 and 2**64 - 1; NumPy's answer lacks the first of each pair, though
    neither is in the second array (cuarray's holds both)."""
    row, host, ref = _case("setdiff1d(a b)", index)
    a1, a2 = host[0][:2]
    e = ref[1]
    g = np.array(sorted(set(np.unique(a1).tolist()) - {int(v) for v in a2.reshape(-1) if np.isfinite(v) and v == int(v)}),
                 a1.dtype)
    assert sorted(set(g.tolist()) - set(e.tolist())) == [2**63 - 1, 2**64 - 2]
    assert fa._setdiff1d_promoted_collisions(row, host, ref, _ok(g))
    assert fa.listed(row, host, ref, _ok(g)) == "setdiff1d-promoted-collisions"
    more = np.append(g, np.uint64(2**62 + 1))  # a value that collides with nothing
    assert not fa._setdiff1d_promoted_collisions(row, host, ref, _ok(np.sort(more)))
    less = g[1:]  # a small value missing
    assert not fa._setdiff1d_promoted_collisions(row, host, ref, _ok(less))
    # a colliding pair one of whose values is in the second array: NumPy's own answer drops it
    b = np.array([1.8446744073709552e19], np.float64)
    x = np.array([2**64 - 2, 2**64 - 1, 5], np.uint64)
    e2 = np.setdiff1d(x, b)
    assert not fa._setdiff1d_promoted_collisions(row, ([x, b], {}), _ok(e2), _ok(x.copy()))


def _finite_edges_error(n, lo, hi, dt):
    return ("raise", ValueError("Too many bins for data range. Cannot create {} finite-sized bins: the range "
                                "[{}, {}] overflows {} edges".format(n, lo, hi, dt)))


def test_histogram_lists_a_range_past_the_edges_dtype_only():
    """Seed 21 index 157: histogram(float32 0.125, bins='stone', range=(-1e308, 1e308)): NumPy's
    float32 edges are -inf and inf, its bin index of (x + inf) * 0 an IndexError; cuarray's
    ValueError. A float64 range whose width overflows: NumPy counts over a NaN first edge."""
    row, host, ref = _case("histogram(euarr){bins,range}", 157)
    assert ref[0] == "raise" and type(ref[1]) is IndexError
    ours = _finite_edges_error(1, -1e308, 1e308, "float32")
    assert fa._histogram_infinite_edges(row, host, ref, ours)
    assert fa.listed(row, host, ref, ours) == "histogram-infinite-edges"
    assert not fa._histogram_infinite_edges(row, host, ref, ("raise", ValueError("Too many bins for data range.")))
    x = np.array([0.5, 1.5])
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        e = np.histogram(x, bins=1, range=(-1e308, 1e308))
        fine = np.histogram(x, bins=1, range=(-1.0, 2.0))
    assert np.isnan(e[1][0])
    assert fa._histogram_infinite_edges(fc.BY_KEY["histogram(a)"], ([x], {}), _ok(e), _finite_edges_error(1, -1e308, 1e308, "float64"))
    assert not fa._histogram_infinite_edges(fc.BY_KEY["histogram(a)"], ([x], {}), _ok(fine),
                                            _finite_edges_error(1, -1.0, 2.0, "float64"))
