"""softmax, log_softmax (SciPy "Convenience functions"), with SciPy's handling of infinities.
Of a C- or F-contiguous float32/float64 array along an axis of at most `ROW_MAX` elements
(softmax over 10 classes) they run one kernel (templates/softmax_rows.cu) that reads and writes
the data once; other layouts and longer axes compose cuarray's own max/exp/sum (five passes).
logsumexp is SciPy's algorithm in _logsumexp.py."""

from __future__ import annotations

import operator
import pathlib

import numpy
from numpy.lib.array_utils import normalize_axis_index

from ..._core.host_input import as_array
from ..._core.ndarray import ndarray
from ..._logic.content import isfinite
from ..._math.explog import exp, log
from ..._math.sums import sum as _sum
from ..._sorting.searching import where
from ..._statistics.order import amax
from ...cuda.kernel_family import KernelFamily


__all__ = ["softmax", "log_softmax", "source", "kernel_name", "row_tile", "line_layout", "ROW_MAX"]

_DIR = pathlib.Path(__file__).parent / "templates"
# Lines up to this long take one kernel: packed rows the row-tile kernel (a thread per row, the
# block's rows staged in shared memory, at most _TILE_BYTES), lines along a slower axis a thread
# each (its three reads of a line hit cache: a wave's lines, 2048 threads x 132 SMs x 32 x 4
# bytes, fit an H100's 50 MB L2). Longer rows would want a warp per row (not built: the composed
# path is what they get).
ROW_MAX = 32
_BLOCK = 256
_TILE_BYTES = 32768  # 7 blocks of 256 threads per SM fit in an H100's 228 KiB


def source() -> str:
    return ("#define CUARRAY_DEVICE __device__\n" + (_DIR / "softmax_rows.cuh").read_text()
            + (_DIR / "softmax_rows.cu").read_text())


SOFTMAX = KernelFamily("cuarray_special_softmax", source, namespace="cuarray_special", kernels=(
    "softmax_rows<T, LOG>(const T* x, T* y, long long rows, int n, int p, int tr)",
    "softmax_cols<T, LOG>(const T* x, T* y, long long outer, int n, long long inner)",
))


def kernel_name(dtype, log: bool, cols: bool = False) -> str:
    return "cuarray_special::softmax_{}<{}, {}>".format("cols" if cols else "rows",
                                                        "float" if dtype == numpy.float32 else "double",
                                                        "true" if log else "false")


def row_tile(n: int, itemsize: int) -> tuple:
    """(p, tr): the shared-memory row pitch (odd for even n: a thread per row, no bank conflicts)
    and the rows per block (a multiple of 32, at most the block, the tile within _TILE_BYTES)."""
    p = n + 1 if n % 2 == 0 else n
    tr = min(_BLOCK, _TILE_BYTES // (p * itemsize)) // 32 * 32
    return p, tr


def line_layout(x, axis):
    """(outer, n, inner) when `x` is a C- or F-contiguous float32/float64 array and its softmax
    along `axis` (None: all of it) is over lines of n <= ROW_MAX elements: memory holds `outer`
    blocks of n lines' worth, each line `inner` elements apart (inner == 1: packed rows, the
    row-tile kernel; otherwise a thread per line); None otherwise."""
    if x.dtype not in (numpy.float32, numpy.float64) or x.size == 0 or not (x._c or x._f):
        return None
    if isinstance(axis, tuple):
        return None  # several axes: the composed path
    if axis is None:
        outer, n, inner = 1, x.size, 1
    else:
        shape = x.shape
        n = shape[axis]
        before, after = 1, 1
        for d in shape[:axis]:
            before *= d
        for d in shape[axis + 1:]:
            after *= d
        # the memory order's outer and inner parts (a C and F array at once is a vector: either)
        outer, inner = (before, after) if x._c and (after == 1 or not x._f) else (after, before)
    if n > ROW_MAX:
        return None
    return outer, n, inner


def _rows_kernel(x, layout, log):
    """softmax (log_softmax) of `x` along the lines of `layout` into a new array of its layout."""
    outer, n, inner = layout
    cols = inner > 1
    name = kernel_name(x.dtype, log, cols)
    k = SOFTMAX.kernel(name)
    y = ndarray(x.shape, x.dtype, order="C" if x._c else "F")
    if cols:
        lines = outer * inner
        k.launch(-(-lines // _BLOCK), _BLOCK, x.data.ptr, y.data.ptr, outer, n, inner)
        return y
    p, tr = row_tile(n, x.dtype.itemsize)
    k.launch(-(-outer // tr), _BLOCK, x.data.ptr, y.data.ptr, outer, n, p, tr, shared_mem=tr * p * x.dtype.itemsize)
    return y


def _shift(a, axis):
    """The max along `axis` (keepdims), 0 where it is not finite (so inf - inf makes no NaN)."""
    m = amax(a, axis=axis, keepdims=True)
    return where(isfinite(m), m, 0)


def _axis(x, axis):
    """`axis` as a non-negative int (None stays None); NumPy's AxisError out of range. A tuple
    goes through unchanged (the composed path handles it)."""
    if axis is None or isinstance(axis, tuple):
        return axis
    return normalize_axis_index(operator.index(axis), x.ndim)


def softmax(x, axis=None):
    """See `scipy.special.softmax`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.softmax(cuarray.array([1., 2., 3.]))
    array([0.09003057, 0.24472847, 0.66524096])
    """
    x = as_array(x, "scipy.special.softmax")
    if x.dtype.kind in "biu":
        x = x.astype(numpy.float64)
    axis = _axis(x, axis)
    lay = line_layout(x, axis)
    if lay is not None:
        return _rows_kernel(x, lay, False)
    # SciPy shifts by the max as it is: a row holding +inf (or NaN) is all NaN.
    e = exp(x - amax(x, axis=axis, keepdims=True))
    return e / _sum(e, axis=axis, keepdims=True)


def log_softmax(x, axis=None):
    """See `scipy.special.log_softmax`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.log_softmax(cuarray.array([1., 2., 3.]))
    array([-2.40760596, -1.40760596, -0.40760596])
    """
    x = as_array(x, "scipy.special.log_softmax")
    if x.dtype.kind in "biu":
        x = x.astype(numpy.float64)
    axis = _axis(x, axis)
    lay = line_layout(x, axis)
    if lay is not None:
        return _rows_kernel(x, lay, True)
    t = x - _shift(x, axis)
    return t - log(_sum(exp(t), axis=axis, keepdims=True))
