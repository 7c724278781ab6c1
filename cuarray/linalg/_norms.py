"""norm, vector_norm, matrix_norm, cond, matrix_rank, and numpy.linalg's trace and diagonal (the
array-API forms that work on the last two axes; outer and cross are in `_products`).

Norms are reductions on the device (no synchronisation); the 2-norm family, 'nuc' and cond use
the singular values. Results are 0-d arrays where NumPy returns a scalar.
"""

from __future__ import annotations

import numpy
from numpy.exceptions import AxisError

from .._creation.basic import zeros
from .._indexing.inserting import diagonal as diagonal_
from .._logic.content import isnan
from .._logic.truth import any as any_
from .._manipulation.dims import expand_dims
from .._manipulation.transpose import moveaxis
from .._math.complex import conj, real
from .._math.misc import abs as abs_, sqrt
from .._math.sums import sum as sum_, trace as trace_
from .._sorting.counting import count_nonzero
from .._sorting.searching import where
from .._statistics.order import max as max_, min as min_
from ._solve import _inverse
from ._svd import rank_svd
from ._svd import svdvals
from ._util import LinAlgError, as_array, assert_stacked_square, compute_char, real_char

__all__ = ["norm", "vector_norm", "matrix_norm", "cond", "matrix_rank", "trace", "diagonal"]

_INF = numpy.inf


def _normalize_axis(ax, nd):
    ax = int(ax)
    if not -nd <= ax < nd:
        raise AxisError(ax, nd)
    return ax % nd


def _abs2(x):
    return real(conj(x) * x) if x.dtype.kind == "c" else x * x


def _vector(x, ord, axis, keepdims):
    if ord == _INF:
        # initial=0, as NumPy's: the inf-norm of no elements is 0 (the -inf one still raises)
        return max_(abs_(x), axis=axis, keepdims=keepdims, initial=0)
    if ord == -_INF:
        return min_(abs_(x), axis=axis, keepdims=keepdims)
    if ord == 0:
        return sum_((x != 0).astype(real(x).dtype if x.dtype.kind == "c" else x.dtype),
                      axis=axis, keepdims=keepdims)
    if ord == 1:
        return sum_(abs_(x), axis=axis, keepdims=keepdims)
    if ord is None or ord == 2:
        return sqrt(sum_(_abs2(x), axis=axis, keepdims=keepdims))
    if isinstance(ord, str):
        raise ValueError("Invalid norm order '{}' for vectors".format(ord))
    absx = abs_(x)
    rdt = absx.dtype
    s = sum_(absx ** numpy.asarray(ord, rdt)[()], axis=axis, keepdims=keepdims)
    return (s ** numpy.reciprocal(numpy.asarray(ord, rdt))[()]).astype(rdt)


def _svd_norm(x, row, col, op, **kw):
    y = moveaxis(x, (row, col), (-2, -1))
    return op(svdvals(y), axis=-1, **kw)


def _max0(a, axis):
    return max_(a, axis=axis, initial=0)  # NumPy's: the norm of an empty matrix is 0 (min still raises)


def _matrix(x, ord, row, col, keepdims):
    if ord == 2:
        ret = _svd_norm(x, row, col, max_, initial=0)
    elif ord == -2:
        ret = _svd_norm(x, row, col, min_)
    elif ord in (1, -1):
        red = _max0 if ord == 1 else min_
        ret = red(sum_(abs_(x), axis=row), axis=col - 1 if col > row else col)
    elif ord in (_INF, -_INF):
        red = _max0 if ord == _INF else min_
        ret = red(sum_(abs_(x), axis=col), axis=row - 1 if row > col else row)
    elif ord is None or ord in ("fro", "f"):
        ret = sqrt(sum_(_abs2(x), axis=(row, col)))
    elif ord == "nuc":
        ret = _svd_norm(x, row, col, sum_)
    else:
        raise ValueError("Invalid norm order for matrices.")
    if keepdims:
        shape = list(x.shape)
        shape[row] = shape[col] = 1
        ret = ret.reshape(shape)
    return ret


def norm(x, ord=None, axis=None, keepdims=False):
    """See `numpy.linalg.norm`.

    Examples
    --------
    >>> import cuarray
    >>> x = cuarray.array([3.0, 4.0])
    >>> round(float(cuarray.linalg.norm(x)), 6)
    5.0
    >>> round(float(cuarray.linalg.norm(x, ord=1)), 6)
    7.0
    >>> cuarray.round(cuarray.linalg.norm(cuarray.array([[3.0, 4.0], [6.0, 8.0]]), axis=1), 6)
    array([ 5., 10.])
    """
    x = as_array(x, "linalg.norm")
    if x.dtype.kind not in "fc":
        x = x.astype(numpy.float64)
    nd = x.ndim
    if axis is None:
        if ord is None or (ord in ("f", "fro") and nd == 2) or (ord == 2 and nd == 1):
            ret = sqrt(sum_(_abs2(x)))
            return ret.reshape((1,) * nd) if keepdims else ret
        axis = tuple(range(nd))
    elif not isinstance(axis, tuple):
        try:
            axis = (int(axis),)
        except Exception as e:
            raise TypeError("'axis' must be None, an integer or a tuple of integers") from e
    if len(axis) == 1:
        return _vector(x, ord, _normalize_axis(axis[0], nd), keepdims)
    if len(axis) == 2:
        row, col = _normalize_axis(axis[0], nd), _normalize_axis(axis[1], nd)
        if row == col:
            raise ValueError("Duplicate axes given.")
        return _matrix(x, ord, row, col, keepdims)
    raise ValueError("Improper number of dimensions to norm.")


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    """See `numpy.linalg.vector_norm`.

    Examples
    --------
    >>> import cuarray
    >>> round(float(cuarray.linalg.vector_norm(cuarray.array([3.0, -4.0]))), 6)
    5.0
    >>> round(float(cuarray.linalg.vector_norm(cuarray.array([3.0, -4.0]), ord=cuarray.inf)), 6)
    4.0
    """
    x = as_array(x, "linalg.vector_norm")
    shape = list(x.shape)
    if axis is None:
        y, ax = x.reshape(-1), 0
    elif isinstance(axis, tuple):
        axes = tuple(_normalize_axis(a, x.ndim) for a in axis)
        if len(set(axes)) != len(axes):
            raise ValueError("repeated axis")
        rest = tuple(i for i in range(x.ndim) if i not in axes)
        y = x.transpose(axes + rest).reshape(
            (int(numpy.prod([x.shape[i] for i in axes])),) + tuple(x.shape[i] for i in rest))
        ax = 0
    else:
        y, ax = x, axis
    res = norm(y, ord=ord, axis=ax)
    if keepdims:
        axes = range(len(shape)) if axis is None else (axis if isinstance(axis, tuple) else (axis,))
        for i in axes:
            shape[_normalize_axis(i, len(shape))] = 1
        res = res.reshape(tuple(shape))
    return res


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    """See `numpy.linalg.matrix_norm`.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([[3.0, 0.0], [0.0, 4.0]])
    >>> round(float(cuarray.linalg.matrix_norm(a)), 6)
    5.0
    >>> round(float(cuarray.linalg.matrix_norm(a, ord=1)), 6)
    4.0
    """
    x = as_array(x, "linalg.matrix_norm")
    return norm(x, axis=(-2, -1), keepdims=keepdims, ord=ord)


def cond(x, p=None):
    """See `numpy.linalg.cond`. Singular input gives inf (NaN input stays NaN), as in NumPy.

    Examples
    --------
    >>> import cuarray
    >>> round(float(cuarray.linalg.cond(cuarray.array([[1.0, 0.0], [0.0, 4.0]]))), 6)
    4.0
    """
    x = as_array(x, "linalg.cond")
    if x.ndim >= 2 and (x.shape[-1] == 0 or x.shape[-2] == 0):
        raise LinAlgError("cond is not defined on empty arrays")
    if p is None or p == 2 or p == -2:
        s = svdvals(x)
        r = s[..., -1] / s[..., 0] if p == -2 else s[..., 0] / s[..., -1]
    else:
        assert_stacked_square(x)
        char = compute_char(x)
        # NumPy inverts in double (its 'd->d' and 'D->D' signatures) and casts the product back: a
        # float32 matrix of 1e-20 entries has an inverse of 1e19 whose norm's squares overflow single.
        invx = _inverse(x, "D" if char in "FD" else "d", False)
        r = (norm(x, p, axis=(-2, -1)) * norm(invx, p, axis=(-2, -1))).astype(real_char(char))  # (always real)
    # NaN from a singular matrix becomes inf, unless the input itself had NaN (NumPy's rule).
    had_nan = any_(isnan(x), axis=(-2, -1))
    return where(isnan(r) & ~had_nan, _INF, r).astype(r.dtype)


def matrix_rank(A, tol=None, hermitian=False, *, rtol=None):
    """See `numpy.linalg.matrix_rank`. For a 0-d/1-d input the Python int NumPy returns needs a
    device-to-host read.

    Examples
    --------
    >>> import cuarray
    >>> int(cuarray.linalg.matrix_rank(cuarray.eye(3)))
    3
    >>> int(cuarray.linalg.matrix_rank(cuarray.array([[1.0, 2.0], [2.0, 4.0]])))
    1
    """
    A = as_array(A, "linalg.matrix_rank")
    if A.ndim < 2:
        return int(bool(any_(A != 0).get()))
    S = rank_svd(A, compute_uv=False, hermitian=hermitian)
    if tol is None:
        if rtol is None:
            rtol = max(A.shape[-2:]) * numpy.finfo(S.dtype).eps
        elif not numpy.isscalar(rtol):
            rtol = expand_dims(as_array(rtol, "linalg.matrix_rank"), -1)
        tol = max_(S, axis=-1, keepdims=True) * rtol if S.shape[-1] else zeros(S.shape[:-1] + (1,), S.dtype)
    elif not numpy.isscalar(tol):
        tol = expand_dims(as_array(tol, "linalg.matrix_rank"), -1)
    return count_nonzero(S > tol, axis=-1)


def trace(x, /, *, offset=0, dtype=None):
    """See `numpy.linalg.trace` (over the last two axes).

    Examples
    --------
    >>> import cuarray
    >>> int(cuarray.linalg.trace(cuarray.arange(9).reshape(3, 3)))
    12
    >>> cuarray.linalg.trace(cuarray.arange(8).reshape(2, 2, 2))
    array([ 3, 11])
    """
    x = as_array(x, "linalg.trace")
    return trace_(x, offset=offset, axis1=-2, axis2=-1, dtype=dtype)


def diagonal(x, /, *, offset=0):
    """See `numpy.linalg.diagonal` (of the last two axes).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.linalg.diagonal(cuarray.arange(9).reshape(3, 3))
    array([0, 4, 8])
    >>> cuarray.linalg.diagonal(cuarray.arange(9).reshape(3, 3), offset=1)
    array([1, 5])
    """
    x = as_array(x, "linalg.diagonal")
    return diagonal_(x, offset=offset, axis1=-2, axis2=-1)
