"""ravel_multi_index / unravel_index kernels compile with NVRTC for sm_90 in every layout the
launcher picks (no device needed): strided coordinate arrays take the nd layout."""

import numpy as np
import pytest

from cuarray._indexing import generating as g
from cuarray.cuda import compiler

I64, I16, U8 = np.dtype(np.int64), np.dtype(np.int16), np.dtype(np.uint8)


def _compile(d, layout, ndim, index_t=np.int32):
    name, src = d.source(layout, ndim, index_t)
    compiler.compile_cubin(src, arch="sm_90", name=name)


@pytest.mark.parametrize("layout,ndim", [("flat", 1), ("nd", 1), ("nd", 2), ("nd", 3), ("nd", 4)])
@pytest.mark.parametrize("modes", [("raise", "raise"), ("wrap", "clip"), ("clip", "raise", "wrap")], ids="_".join)
def test_ravel_multi_index_compiles(layout, ndim, modes):
    # the GPU fuzzer's case: 2 transposed int64 coordinate arrays, dims (3, 2): the nd layout's
    # shape parameters `_d0`, `_d1` were declared twice
    dts = [I64, I16, U8][:len(modes)]
    for order in ("C", "F"):
        _compile(g._ravel_def(len(modes), dts, modes, order), layout, ndim)
    _compile(g._ravel_def(len(modes), dts, modes, "C"), layout, ndim, np.int64)


@pytest.mark.parametrize("layout,ndim", [("flat", 1), ("nd", 2), ("nd", 3)])
@pytest.mark.parametrize("nd_dims", [1, 2, 3])
def test_unravel_index_compiles(layout, ndim, nd_dims):
    for order in ("C", "F"):
        _compile(g._unravel_def(nd_dims, I64, order), layout, ndim)
