"""Every indexing kernel family compiles with NVRTC for sm_90 (no device needed)."""

import numpy as np
import pytest

from cuarray._core import index_kernels as ik
from cuarray.cuda import compiler


def _compile(d, layout="flat", ndim=1, index_t=np.int32):
    name, src = d.source(layout, ndim, index_t)
    compiler.compile_cubin(src, arch="sm_90", name=name)


I64 = np.dtype(np.int64)
I32 = np.dtype(np.int32)


@pytest.mark.parametrize("itemsize", [1, 2, 4, 8, 16])
@pytest.mark.parametrize("r", [0, 1, 3])
def test_gather_scatter_compile(itemsize, r):
    idx = (I64, np.dtype(np.uint8)) if r else ()
    _compile(ik.gather_def(itemsize, r, idx))
    for mode in ("plain", "claim", "write"):
        _compile(ik.scatter_def(itemsize, r, idx, mode, False))
    _compile(ik.scatter_def(itemsize, r, idx, "plain", True), index_t=np.int64)


@pytest.mark.parametrize("dt", ["bool", "int8", "uint16", "int32", "int64", "float16", "float32", "float64", "complex64"])
def test_at_compile(dt):
    import cuarray

    a = np.dtype(dt)
    for uf in (cuarray.add, cuarray.maximum, cuarray.multiply):
        loop = uf._resolve((a, a), None, "unsafe")
        native = None
        from cuarray._core import dtypes
        ct = dtypes.ctype(a)
        name = {"add": "add", "maximum": "max"}.get(uf.__name__)
        if name and (name, ct) in ik._NATIVE and loop.out_dtypes[0] == a:
            native = (name, ct)
        _compile(ik.at_def(a, a, loop.in_dtypes, loop.out_dtypes[0], uf._op_for(loop), native, 2, (I64,), False,
                           uf._preamble))


def test_mask_kernels_compile():
    for pt in (I32, I64):
        _compile(ik.compact_def(4, 2, pt))
        _compile(ik.masked_scatter_def(2, 3, pt))
        _compile(ik.nonzero_def(3, pt))
        _compile(ik.nonzero_def(1, pt))
    _compile(ik.check_def(np.dtype(np.int16)))
