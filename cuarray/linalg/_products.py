"""Matrix and vector products built on `matmul`: dot, vdot, inner, outer, tensordot, kron, cross,
vecdot, matvec, vecmat, multi_dot, matrix_power.

Every contraction becomes one (batched) GEMM through `matmul`: the operands are viewed as matrices
without a copy whenever their strides allow it (`_as_matrix` tries both groupings of the axes).
"""

from __future__ import annotations

import operator
import warnings

import numpy

from .._core import copying as _copying
from .._core import dtypes as _dtypes
from .._core import shapes as _shapes
from .._core import tracing as _tracing
from .._core.host_input import as_array
from .._core.ndarray import ndarray
from .._creation.matrices import eye
from .._manipulation import shape as _shape
from .._manipulation import transpose as _transpose
from .._manipulation.dims import broadcast_to
from .._manipulation.joining import stack
from .._math import arithmetic as _arith
from .._math import complex as _complex
from ._matmul import matmul, matmul_into
from ._solve import inv

__all__ = ["dot", "vdot", "inner", "outer", "tensordot", "kron", "cross", "vecdot", "matvec",
           "vecmat", "multi_dot", "matrix_power"]


def _conj(x: ndarray) -> ndarray:
    return _complex.conj(x) if _dtypes.is_complex(x._dtype) else x


def _as_matrix(x: ndarray, rows: list, cols: list) -> ndarray:
    """`x` seen as a (prod rows, prod cols) matrix: a view when some layout allows, else a copy."""
    r = int(numpy.prod([x._shape[i] for i in rows], dtype=numpy.int64))
    c = int(numpy.prod([x._shape[i] for i in cols], dtype=numpy.int64))
    t = x.transpose(rows + cols)
    if _shapes.reshape_strides(t._shape, t._strides, t.itemsize, (r, c), "C") is not None:
        return _shape.reshape(t, (r, c))
    t2 = x.transpose(cols + rows)
    if _shapes.reshape_strides(t2._shape, t2._strides, t2.itemsize, (c, r), "C") is not None:
        return _shape.reshape(t2, (c, r)).T  # a column-major matrix: passed to cuBLAS transposed
    return _shape.reshape(t, (r, c))


def tensordot(a, b, axes=2):
    """See `numpy.tensordot`. One GEMM over the flattened free and summed axes.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.arange(24).reshape(2, 3, 4)
    >>> cuarray.tensordot(a, cuarray.ones((3, 4), dtype=int), axes=2)
    array([ 66, 210])
    >>> cuarray.tensordot(a, cuarray.ones((4, 5)), axes=([2], [0])).shape
    (2, 3, 5)
    """
    if _tracing.active:  # the dispatch point for a tracer (`_core/tracing.py`)
        t = _tracing.state.tracer
        if t is not None:
            return t.call("tensordot", tensordot, (a, b), {"axes": axes})
    a = as_array(a, "tensordot")
    b = as_array(b, "tensordot")
    try:
        na = operator.index(axes)
        axes_a, axes_b = list(range(-na, 0)), list(range(na))
    except TypeError:
        axes_a, axes_b = axes
        axes_a = [axes_a] if isinstance(axes_a, int) else list(axes_a)
        axes_b = [axes_b] if isinstance(axes_b, int) else list(axes_b)
    if len(axes_a) != len(axes_b):
        raise ValueError("shape-mismatch for sum")
    axes_a = [ax + a.ndim if ax < 0 else ax for ax in axes_a]
    axes_b = [ax + b.ndim if ax < 0 else ax for ax in axes_b]
    for i, j in zip(axes_a, axes_b):
        if not (0 <= i < a.ndim and 0 <= j < b.ndim):
            raise IndexError("tuple index out of range")  # NumPy's: it indexes the shape tuples
        if a._shape[i] != b._shape[j]:
            raise ValueError("shape-mismatch for sum")
    free_a = [i for i in range(a.ndim) if i not in axes_a]
    free_b = [j for j in range(b.ndim) if j not in axes_b]
    _shapes.check_ndim(len(free_a) + len(free_b))  # (before the product: NumPy's error for the result)
    am = _as_matrix(a, free_a, axes_a)
    bm = _as_matrix(b, axes_b, free_b)
    res = matmul_into(am, bm)
    return _shape.reshape(res, tuple(a._shape[i] for i in free_a) + tuple(b._shape[j] for j in free_b))


def _not_aligned(a, b, ia, ib):
    return ValueError("shapes {} and {} not aligned: {} (dim {}) != {} (dim {})".format(
        _fmt(a._shape), _fmt(b._shape), a._shape[ia], ia, b._shape[ib], ib))


def _fmt(s):
    return "({})".format(",".join(map(str, s))) if len(s) != 1 else "({},)".format(s[0])


def _dot_out(res, out):
    if out is None:
        return res
    if (not isinstance(out, ndarray) or out._dtype != res._dtype or out._shape != res._shape
            or not out._c):
        raise ValueError("output array is not acceptable (must have the right datatype, number of "
                         "dimensions, and be a C-Array)")
    _copying.copyto_unchecked(out, res)
    return out


def dot(a, b, out=None):
    """See `numpy.dot`. `out` must be C-contiguous with the exact result dtype, as in NumPy.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([[1, 2], [3, 4]])
    >>> cuarray.dot(a, a)
    array([[ 7, 10],
           [15, 22]])
    >>> int(cuarray.dot(cuarray.array([1, 2, 3]), cuarray.array([4, 5, 6])))
    32
    """
    if _tracing.active:  # the dispatch point for a tracer (`_core/tracing.py`)
        t = _tracing.state.tracer
        if t is not None:
            return t.call("dot", dot, (a, b), {"out": out})
    a = as_array(a, "dot")
    b = as_array(b, "dot")
    if a.ndim == 0 or b.ndim == 0:
        return _dot_out(_arith.multiply(a, b), out)
    ib = 0 if b.ndim == 1 else b.ndim - 2
    if a._shape[-1] != b._shape[ib]:
        raise _not_aligned(a, b, a.ndim - 1, ib)
    if out is not None:
        ct = _dtypes.result_type(a._dtype, b._dtype)
        shape = a._shape[:-1] + b._shape[:ib] + b._shape[ib + 1:]
        if (not isinstance(out, ndarray) or out._dtype != ct or out._shape != shape or not out._c):
            raise ValueError("output array is not acceptable (must have the right datatype, number "
                             "of dimensions, and be a C-Array)")
        if a.ndim <= 2 and b.ndim <= 2:
            return matmul_into(a, b, out)
    if b.ndim == 1 or a.ndim == 1 or (a.ndim == 2 and b.ndim == 2):
        return _dot_out(matmul_into(a, b), out)
    return _dot_out(tensordot(a, b, axes=([a.ndim - 1], [b.ndim - 2])), out)


def vdot(a, b, /):
    """See `numpy.vdot`: conj(a).ravel() @ b.ravel(), a 0-d array.

    Examples
    --------
    >>> import cuarray
    >>> int(cuarray.vdot(cuarray.array([[1, 2], [3, 4]]), cuarray.array([[1, 1], [1, 1]])))
    10
    >>> complex(cuarray.vdot(cuarray.array([1j, 2]), cuarray.array([1j, 3])))
    (7+0j)
    """
    a = as_array(a, "vdot")
    b = as_array(b, "vdot")
    ra = _shape.ravel(a)
    rb = _shape.ravel(b)
    if ra._size != rb._size:
        raise ValueError("cannot reshape array of size {} into shape ({},)".format(rb._size, ra._size))
    return matmul_into(_conj(ra), rb)


def inner(a, b, /):
    """See `numpy.inner`: a sum product over the last axes.

    Examples
    --------
    >>> import cuarray
    >>> int(cuarray.inner(cuarray.array([1, 2, 3]), cuarray.array([0, 1, 0])))
    2
    >>> cuarray.inner(cuarray.arange(6).reshape(2, 3), cuarray.array([1, 0, 1]))
    array([2, 8])
    """
    a = as_array(a, "inner")
    b = as_array(b, "inner")
    if a.ndim == 0 or b.ndim == 0:
        return _arith.multiply(a, b)
    if a._shape[-1] != b._shape[-1]:
        bt = b.transpose(tuple(range(b.ndim - 1, -1, -1))) if b.ndim > 1 else b
        raise _not_aligned(a, bt, a.ndim - 1, 0)
    if a.ndim == 1 and b.ndim == 1:
        return matmul_into(a, b)
    return tensordot(a, b, axes=([a.ndim - 1], [b.ndim - 1]))


def outer(a, b, out=None):
    """See `numpy.outer`: the inputs are flattened.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.outer(cuarray.array([1, 2, 3]), cuarray.array([1, 10]))
    array([[ 1, 10],
           [ 2, 20],
           [ 3, 30]])
    """
    a = _shape.ravel(as_array(a, "outer"))
    b = _shape.ravel(as_array(b, "outer"))
    return _arith.multiply(_shape.reshape(a, (a._size, 1)), _shape.reshape(b, (1, b._size)), out=out)


def linalg_outer(x1, x2, /):
    """See `numpy.linalg.outer`: 1-D inputs only.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.linalg.outer(cuarray.array([1, 2]), cuarray.array([1, 10, 100]))
    array([[  1,  10, 100],
           [  2,  20, 200]])
    """
    x1 = as_array(x1, "linalg.outer")
    x2 = as_array(x2, "linalg.outer")
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError("Input arrays must be one-dimensional, but they are x1.ndim={} and "
                         "x2.ndim={}.".format(x1.ndim, x2.ndim))
    return outer(x1, x2)


def kron(a, b):
    """See `numpy.kron`: one broadcast multiply into the result's blocks.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.kron(cuarray.eye(2, dtype=int), cuarray.array([[1, 2], [3, 4]]))
    array([[1, 2, 0, 0],
           [3, 4, 0, 0],
           [0, 0, 1, 2],
           [0, 0, 3, 4]])
    """
    a = as_array(a, "kron")
    b = as_array(b, "kron")
    nd = max(a.ndim, b.ndim)
    sa = (1,) * (nd - a.ndim) + a._shape
    sb = (1,) * (nd - b.ndim) + b._shape
    ea = _shape.reshape(a, tuple(v for d in sa for v in (d, 1)))
    eb = _shape.reshape(b, tuple(v for d in sb for v in (1, d)))
    prod = _arith.multiply(ea, eb)
    return _shape.reshape(prod, tuple(x * y for x, y in zip(sa, sb)))


# NumPy 2.0 deprecated 2-element vectors in cross; NumPy 2.5 refuses them. Follow the NumPy installed.
_TWO_D_REMOVED = numpy.lib.NumpyVersion(numpy.__version__) >= "2.5.0"


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """See `numpy.cross` (2-element vectors: a DeprecationWarning before NumPy 2.5, an error from
    2.5 on, as the installed NumPy does).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.cross(cuarray.array([1, 0, 0]), cuarray.array([0, 1, 0]))
    array([0, 0, 1])
    >>> cuarray.cross(cuarray.array([[1, 0, 0], [0, 0, 1]]), cuarray.array([0, 1, 0]))
    array([[ 0,  0,  1],
           [-1,  0,  0]])
    """
    a = as_array(a, "cross")
    b = as_array(b, "cross")
    if axis is not None:
        axisa = axisb = axisc = axis
    a = _transpose.moveaxis(a, _shapes.normalize_axis_index(axisa, a.ndim, "axisa"), -1)
    b = _transpose.moveaxis(b, _shapes.normalize_axis_index(axisb, b.ndim, "axisb"), -1)
    na, nb = a._shape[-1], b._shape[-1]
    if na not in (2, 3) or nb not in (2, 3):
        raise ValueError("incompatible dimensions for cross product\n(dimension must be 2 or 3)")
    if (na == 2 or nb == 2) and _TWO_D_REMOVED:
        raise ValueError("Both input arrays must be (arrays of) 3-dimensional vectors, but they "
                         "are {} and {} dimensional instead.".format(na, nb))
    if na == 2 or nb == 2:
        warnings.warn("Arrays of 2-dimensional vectors are deprecated. Use arrays of "
                      "3-dimensional vectors instead. (deprecated in NumPy 2.0)",
                      DeprecationWarning, stacklevel=2)
    shape = _shapes.broadcast_shapes(a._shape[:-1], b._shape[:-1])
    if na == 3 or nb == 3:
        shape += (3,)
        # (NumPy checks axisc only then: two 2-vectors give no vector axis)
        axisc = _shapes.normalize_axis_index(axisc, len(shape), "axisc")
    mul, sub = _arith.multiply, _arith.subtract
    a0, a1, b0, b1 = a[..., 0], a[..., 1], b[..., 0], b[..., 1]
    c2 = sub(mul(a0, b1), mul(a1, b0))
    if na == 2 and nb == 2:
        return c2

    if na == 3 and nb == 3:
        a2, b2 = a[..., 2], b[..., 2]
        c0 = sub(mul(a1, b2), mul(a2, b1))
        c1 = sub(mul(a2, b0), mul(a0, b2))
    elif na == 2:
        b2 = b[..., 2]
        c0 = mul(a1, b2)
        c1 = _arith.negative(mul(a0, b2))
    else:
        a2 = a[..., 2]
        c0 = _arith.negative(mul(a2, b1))
        c1 = mul(a2, b0)
    c = stack(_broadcast_all((c0, c1, c2), shape[:-1]), axis=-1)
    return _transpose.moveaxis(c, -1, axisc)


def _broadcast_all(xs, shape):
    return [x if x._shape == shape else broadcast_to(x, shape) for x in xs]


def linalg_cross(x1, x2, /, *, axis=-1):
    """See `numpy.linalg.cross`: 3-element vectors only.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.linalg.cross(cuarray.array([1, 0, 0]), cuarray.array([0, 1, 0]))
    array([0, 0, 1])
    """
    x1 = as_array(x1, "linalg.cross")
    x2 = as_array(x2, "linalg.cross")
    n1 = x1._shape[axis] if x1.ndim else 0
    n2 = x2._shape[axis] if x2.ndim else 0
    if n1 != 3 or n2 != 3:
        raise ValueError("Both input arrays must be (arrays of) 3-dimensional vectors, but they are "
                         "{} and {} dimensional instead.".format(n1, n2))
    return cross(x1, x2, axis=axis)


def _gufunc_error(name, sig, i, got=None, want=None):
    if got is None:
        return ValueError("{}: Input operand {} does not have enough dimensions (has {}, gufunc core "
                          "with signature {} requires {})".format(name, i, want[0], sig, want[1]))
    return ValueError("{}: Input operand {} has a mismatch in its core dimension 0, with gufunc "
                      "signature {} (size {} is different from {})".format(name, i, sig, got, want))


def _newaxis(x, where):
    """A view of `x` with a length-1 axis inserted at `where` (negative: from the end)."""
    shape = list(x._shape)
    strides = list(x._strides)
    pos = where if where >= 0 else len(shape) + 1 + where
    shape.insert(pos, 1)
    strides.insert(pos, 0)
    return ndarray._view(tuple(shape), tuple(strides), x._dtype, x.data, x)


def vecdot(x1, x2, /, out=None, *, axis=-1, dtype=None, casting="same_kind", **kwargs):
    """See `numpy.vecdot`: sum(conj(x1) * x2) over `axis`, as a batched (1, n) @ (n, 1) GEMM.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.vecdot(cuarray.array([[1, 2], [3, 4]]), cuarray.array([1, 1]))
    array([3, 7])
    """
    x1 = as_array(x1, "vecdot")
    x2 = as_array(x2, "vecdot")
    sig = "(n),(n)->()"
    for i, x in enumerate((x1, x2)):
        if x.ndim == 0:
            raise _gufunc_error("vecdot", sig, i, want=(0, 1))
    x1 = _transpose.moveaxis(x1, _shapes.normalize_axis_index(axis, x1.ndim), -1)
    x2 = _transpose.moveaxis(x2, _shapes.normalize_axis_index(axis, x2.ndim), -1)
    if x1._shape[-1] != x2._shape[-1]:
        raise _gufunc_error("vecdot", sig, 1, x2._shape[-1], x1._shape[-1])
    o = None if out is None else _newaxis(_newaxis(out[0] if type(out) is tuple else out, -1), -1)
    res = matmul_into(_newaxis(_conj(x1), -2), _newaxis(x2, -1), o, dtype, casting)
    return out if out is not None else res[..., 0, 0]


def matvec(x1, x2, /, out=None, *, dtype=None, casting="same_kind", **kwargs):
    """See `numpy.matvec`: (..., m, n) @ (..., n) -> (..., m).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.matvec(cuarray.array([[1, 2], [3, 4]]), cuarray.array([1, 1]))
    array([3, 7])
    """
    x1 = as_array(x1, "matvec")
    x2 = as_array(x2, "matvec")
    sig = "(m,n),(n)->(m)"
    if x1.ndim < 2:
        raise _gufunc_error("matvec", sig, 0, want=(x1.ndim, 2))
    if x2.ndim < 1:
        raise _gufunc_error("matvec", sig, 1, want=(0, 1))
    if x1._shape[-1] != x2._shape[-1]:
        raise _gufunc_error("matvec", sig, 1, x2._shape[-1], x1._shape[-1])
    o = None if out is None else _newaxis(out[0] if type(out) is tuple else out, -1)
    res = matmul_into(x1, _newaxis(x2, -1), o, dtype, casting)
    return out if out is not None else res[..., 0]


def vecmat(x1, x2, /, out=None, *, dtype=None, casting="same_kind", **kwargs):
    """See `numpy.vecmat`: conj(x1) (..., n) @ (..., n, m) -> (..., m).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.vecmat(cuarray.array([1, 1]), cuarray.array([[1, 2], [3, 4]]))
    array([4, 6])
    """
    x1 = as_array(x1, "vecmat")
    x2 = as_array(x2, "vecmat")
    sig = "(n),(n,m)->(m)"
    if x1.ndim < 1:
        raise _gufunc_error("vecmat", sig, 0, want=(0, 1))
    if x2.ndim < 2:
        raise _gufunc_error("vecmat", sig, 1, want=(x2.ndim, 2))
    if x1._shape[-1] != x2._shape[-2]:
        raise _gufunc_error("vecmat", sig, 1, x2._shape[-2], x1._shape[-1])
    o = None if out is None else _newaxis(out[0] if type(out) is tuple else out, -2)
    res = matmul_into(_newaxis(_conj(x1), -2), x2, o, dtype, casting)
    return out if out is not None else res[..., 0, :]


# -- numpy.linalg: multi_dot, matrix_power ------------------------------------------------------

def _linalg_error(msg):
    return numpy.linalg.LinAlgError(msg)


def chain_order(dims: list) -> list:
    """The cheapest parenthesisation of a matrix chain with shapes dims[i] x dims[i+1]:
    split[i][j] is where A_i..A_j is cut (the classic O(n^3) dynamic program)."""
    n = len(dims) - 1
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            best = None
            for s in range(i, j):
                c = cost[i][s] + cost[s + 1][j] + dims[i] * dims[s + 1] * dims[j + 1]
                if best is None or c < best:
                    best, split[i][j] = c, s
            cost[i][j] = best
    return split


def multi_dot(arrays, *, out=None):
    """See `numpy.linalg.multi_dot`: the cheapest multiplication order, each product a GEMM.

    Examples
    --------
    >>> import cuarray
    >>> a, b, c = (cuarray.ones(s, dtype=int) for s in [(2, 30), (30, 40), (40, 3)])
    >>> cuarray.linalg.multi_dot([a, b, c])   # (a @ b) @ c: the cheaper order
    array([[1200, 1200, 1200],
           [1200, 1200, 1200]])
    """
    arrays = [as_array(x, "multi_dot") for x in arrays]
    n = len(arrays)
    if n < 2:
        raise ValueError("Expecting at least two arrays.")
    if n == 2:
        return dot(arrays[0], arrays[1], out=out)
    first, last = arrays[0].ndim, arrays[-1].ndim
    if first == 1:
        arrays[0] = _shape.reshape(arrays[0], (1, arrays[0]._size))
    if last == 1:
        arrays[-1] = _shape.reshape(arrays[-1], (arrays[-1]._size, 1))
    for x in arrays:
        if x.ndim != 2:
            raise _linalg_error("{}-dimensional array given. Array must be two-dimensional".format(x.ndim))
    for i in range(n - 1):
        if arrays[i]._shape[1] != arrays[i + 1]._shape[0]:
            raise _not_aligned(arrays[i], arrays[i + 1], 1, 0)
    split = chain_order([arrays[0]._shape[0]] + [x._shape[1] for x in arrays])

    def prod(i, j):
        if i == j:
            return arrays[i]
        s = split[i][j]
        return matmul_into(prod(i, s), prod(s + 1, j))

    res = prod(0, n - 1)
    if first == 1 and last == 1:
        res = _shape.reshape(res, ())
    elif first == 1:
        res = _shape.reshape(res, (res._shape[1],))
    elif last == 1:
        res = _shape.reshape(res, (res._shape[0],))
    return _dot_out(res, out)


def matrix_power(a, n):
    """See `numpy.linalg.matrix_power` (binary powering; negative `n` needs `linalg.inv`).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.linalg.matrix_power(cuarray.array([[1, 1], [1, 0]]), 5)
    array([[8, 5],
           [5, 3]])
    >>> cuarray.linalg.matrix_power(cuarray.array([[1, 1], [1, 0]]), 0)
    array([[1, 0],
           [0, 1]])
    """
    a = as_array(a, "matrix_power")
    if a.ndim < 2:
        raise _linalg_error("{}-dimensional array given. Array must be at least two-dimensional"
                            .format(a.ndim))
    if a._shape[-1] != a._shape[-2]:
        raise _linalg_error("Last 2 dimensions of the array must be square")
    try:
        n = operator.index(n)
    except TypeError as e:
        raise TypeError("exponent must be an integer") from e
    if n == 0:
        res = ndarray(a._shape, a._dtype)
        _copying.copyto_unchecked(res, eye(a._shape[-1], dtype=a._dtype))
        return res
    if n < 0:
        a = inv(a)
        n = -n
    if n == 1:
        return a
    result = None
    z = a
    while True:
        if n & 1:
            result = z if result is None else matmul_into(result, z)
        n >>= 1
        if not n:
            return result
        z = matmul_into(z, z)
