"""`ufunc.reduceat`: reductions over slices of one axis. See `numpy.ufunc.reduceat`.

For output index i along the axis, the slice is [indices[i], indices[i + 1]) where indices[i + 1] is
larger, the one element indices[i] where it is not, and [indices[i], n) for the last index; every
index must lie in [0, n) (IndexError, as NumPy's). Any binary ufunc with one output: associative or
not (`subtract.reduceat` folds in NumPy's order), NumPy's result dtype (`dtype=`, or `out`'s dtype
when only `out` is given, as NumPy's loop takes it), `out=` of any layout.

Planner (`plan`, pure: no device) and launch: the input is brought to C order and seen as
(outer, n, inner) around the axis; one kernel of the scan family (`scan.ScanOp`; the CUDA is
`segment_reduce` and `segment_reduce_blocks` in templates/cuarray/scan.cuh):
- "segments": a thread per output element folds its slice in order (NumPy's order). Every binary
  ufunc; parallel over the outputs (outer x len(indices) x inner).
- "segment_blocks": a block per output, its threads folding strided parts of the slice, then the
  partials pairwise. Associative operators only (scan.ASSOCIATIVE: add, maximum, ...), where the
  slices are long (>= BLOCK_MIN_LENGTH on average) and the outputs few: a 1-D array of 1e7 float32
  in 10 slices took 126 ms with a thread per slice (CuPy 0.34 ms, H100).
  Float results may differ from NumPy's in-order fold in the last bits (a fixed order: the same
  bits on every run).
float16 folds in float32 and rounds once per output, as NumPy's float16 reduction loop does.

The indices are read on the host (a device array of indices is copied back first) and checked
there, then uploaded: what NumPy's conversion of them accepts (integers, bools, floats truncated) and
raises (ValueError for a 0-d or 2-d index array, the conversion's own errors) is NumPy's own, by
converting with it.
"""

from __future__ import annotations

import math

import numpy

from ..cuda import launch as _launch
from . import copying as _copying
from . import device_check as _device_check
from . import dtypes as _dtypes
from . import scan as _scan
from .host_input import as_array
from .ndarray import ndarray
from .transfer import from_host

__all__ = ["ufunc_reduceat", "plan", "host_indices"]


def host_indices(indices, name: str, n: int) -> numpy.ndarray:
    """The indices as a 1-D int64 host array, converted and checked as NumPy does (`name`: the
    ufunc's, for the message of an index out of [0, n))."""
    if isinstance(indices, ndarray):
        indices = indices.get()
    idx = numpy.array(indices, dtype=numpy.intp)  # (NumPy's conversion: its errors for what it refuses)
    if idx.ndim == 0:
        raise ValueError("object of too small depth for desired array")
    if idx.ndim > 1:
        raise ValueError("object too deep for desired array")
    idx = idx.astype(numpy.int64, copy=False)
    bad = (idx < 0) | (idx >= n)
    if bad.any():
        raise IndexError("index {} out-of-bounds in {}.reduceat [0, {})".format(int(idx[bad][0]), name, n))
    return idx


# A block per output (`segment_blocks`) where the operator allows any order, the slices are this
# long on average and the outputs too few to fill the GPU with a thread each (with many outputs a
# thread each won: a (4096, 4096) float32 along its rows in 64 slices, 79 us against 427, H100);
# blocks of 1024 threads where the outputs are fewer still.
BLOCK_MIN_LENGTH = 32
BLOCK_MAX_OUTPUTS = 1 << 14
WIDE_BLOCK_MAX_OUTPUTS = 512


def plan(shape: tuple, axis: int, nidx: int, associative: bool) -> tuple:
    """(layout, threads a block, outer, n, inner, output shape) of a reduceat of a C-ordered `shape`
    along `axis` with `nidx` indices: layout "segments" (a thread per output, NumPy's order, blocks
    of 256) or "segment_blocks" (a block of 128 or 1024 threads per output: `associative`
    operators only). Pure."""
    outer = math.prod(shape[:axis])
    inner = math.prod(shape[axis + 1:])
    n = shape[axis]
    total = outer * nidx * inner
    oshape = shape[:axis] + (nidx,) + shape[axis + 1:]
    if associative and nidx > 0 and n >= BLOCK_MIN_LENGTH * nidx and total <= BLOCK_MAX_OUTPUTS:
        return "segment_blocks", 1024 if total <= WIDE_BLOCK_MAX_OUTPUTS else 128, outer, n, inner, oshape
    return "segments", _scan._BLOCK, outer, n, inner, oshape


def ufunc_reduceat(uf, array, indices, axis=0, dtype=None, out=None) -> ndarray:
    """`uf.reduceat(array, indices, axis=0, dtype=None, out=None)`. See `numpy.ufunc.reduceat`."""
    if uf.nin != 2:
        raise ValueError("reduceat only supported for binary functions")
    if uf.nout != 1:
        raise ValueError("reduceat only supported for functions returning a single value")
    a = as_array(array, uf.__name__ + ".reduceat")
    if a.ndim == 0:
        raise TypeError("cannot reduceat on a scalar")
    axis = _scan.single_axis(axis, a.ndim, "reduceat")
    if isinstance(out, tuple):
        if len(out) != 1:
            raise ValueError("The 'out' tuple must have exactly one entry")
        out = out[0]
    if out is not None and not isinstance(out, ndarray):
        raise TypeError("out must be a cuarray.ndarray, got {}".format(type(out).__name__))
    if _device_check.active[0]:
        _device_check.check((a, out))
    if dtype is not None:
        dtype = _dtypes.normalize_dtype(dtype)
    elif out is not None:
        dtype = out._dtype  # (NumPy's loop then runs in out's dtype)
    rd = _scan.result_dtype(uf, a._dtype, dtype, method="reduceat")
    idx = host_indices(indices, uf.__name__, a._shape[axis])
    # (computed on a C-ordered source; an F-ordered one is not a C transpose here: the axis moves)
    src = a if a._c else _copying.copy(a, "C")
    layout, block, outer, n, inner, oshape = plan(src._shape, axis, len(idx), uf.__name__ in _scan.ASSOCIATIVE)
    if out is not None:
        if out._shape != oshape:
            raise ValueError("provided out is the wrong size for the reduction: {} for a result of {}".format(
                out._shape, oshape))
        if not out._writeable:
            raise ValueError("output array is read-only")
    total = outer * len(idx) * inner
    direct = out is not None and out._c and not out._overlaps(a)
    target = out if direct else ndarray(oshape, rd if out is None else out._dtype)
    if total:
        op = _scan.op_for(uf, src._dtype, target._dtype, rd)
        d_idx = from_host(idx)
        blocks = layout == "segment_blocks"
        threads = total * block if blocks else total  # (a block per output, or a thread)
        op.kernel(layout, block if blocks else 0).launch(_launch.grid_for(threads, block), block, src.data.ptr,
                                                         target.data.ptr, d_idx.data.ptr, len(idx), n, inner, total)
        del d_idx  # (freed in stream order: the kernel has read it by the time the block is reused)
    if out is None or direct:
        return target
    _copying.copyto_unchecked(out, target)
    return out
