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
