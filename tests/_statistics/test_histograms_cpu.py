"""Histogram kernels compile for sm_90 with NVRTC; NumPy's equal-bin dtype steps and host edge
rules, checked without a device."""

import numpy as np
import pytest

from cuarray._statistics import histograms as h
from cuarray._statistics.histogram_bins import unsigned_subtract
from cuarray.cuda import compiler

F4, F8, I8 = np.dtype("f4"), np.dtype("f8"), np.dtype("q")


def test_every_instantiation_compiles():
    ds = [np.dtype(c) for c in "?bhiqBHIQfd"]
    names = [h.minmax_name(d) for d in ds]
    names += [h.bincount_name(d, w, s) for d in ds if d.kind in "biu" for w in (0, 1) for s in (0, 1)]
    names += [h.uniform_name((np.dtype(t),) + ty, w, s) for t in "fdiqB"
              for ty in [(F4, F4, F4, F4), (F4, F4, F4, F8), (F8, F8, F8, F8), (I8, F8, F8, F8)]
              for w in (0, 1) for s in (0, 1)]
    names += [h.edges_name(d, c, w, s) for d in ds for c in (F4, F8) for w in (0, 1) for s in (0, 1)]
    names = sorted(set(names))
    cubin, mapping = compiler.compile_cubin(h._TEMPLATE.read_text(), arch="sm_90", name_expressions=names)
    assert cubin and set(mapping) == set(names)


@pytest.mark.parametrize("a, b, want", [(np.int8(100), np.int8(-100), np.uint8(200)),
                                        (np.int64(5), np.int64(-3), np.uint64(8)), (2.5, 0.5, 2.0)])
def test_unsigned_subtract(a, b, want):
    r = unsigned_subtract(a, b)
    assert r == want and np.asarray(r).dtype == np.asarray(want).dtype


def _key(v):
    """The minmax kernel's order-preserving uint64 key of one value (templates: cuarray_minmax)."""
    b = np.float64(v).view(np.uint64)
    return b ^ np.uint64(1 << 63) if v >= 0 else ~b


@pytest.mark.parametrize("dt", [np.float16, np.float32, np.float64], ids=str)
def test_minmax_values_are_of_the_data_dtype(dt):
    # float16 data is scanned as float32; its (min, max) are float16 scalars, as NumPy's a.min(),
    # so histogram/histogramdd edges from them are float16 as NumPy's (they were float32)
    lo, hi = dt(-0.80126953125), dt(3.390625)
    got = h.minmax_values(np.array([_key(lo), _key(hi)], np.uint64), np.dtype(dt))
    assert [type(v) for v in got] == [dt, dt] and got == (lo, hi)
    nan = h.minmax_values(np.array([_key(lo), 2**64 - 1], np.uint64), np.dtype(dt))
    assert type(nan[1]) is dt and np.isnan(nan[1])


@pytest.mark.parametrize("weights", [np.array([1j, 2j, 3j]), np.ones(2)])
def test_bincount_looks_at_negative_values_before_the_weights(recorded_launches, monkeypatch, weights):
    """NumPy's bincount raises for a negative value before it converts the weights or compares
    their length (the fuzzer, seed 271: complex weights gave the weights' TypeError here). The
    values' minimum comes from the device: stood in for by -1."""
    import cuarray as cp

    with pytest.raises(ValueError, match="no negative elements"):
        np.bincount(np.array([1, -1, 2]), weights)
    monkeypatch.setattr(h, "minmax", lambda x: (-1, 2))
    with pytest.raises(ValueError, match="no negative elements"):
        h.bincount(cp.ndarray((3,), np.int64), cp.ndarray(weights.shape, weights.dtype))
