"""SciPy's sparse rules that need no GPU: supported dtypes, index dtypes, shapes, result dtypes.

Pure Python and NumPy (tested on the CPU against scipy.sparse where it is installed).
"""

from __future__ import annotations

import operator

import numpy

__all__ = ["SUPPORTED", "check_dtype", "get_index_dtype", "check_shape", "upcast", "sum_dtype",
           "isscalarlike", "isintlike", "isshape", "normalize_index"]

# scipy.sparse's value dtypes (no float16; long double has no GPU type).
SUPPORTED = tuple(numpy.dtype(c) for c in "?bBhHiIlLqQfdFD")
_SUPPORTED_SET = frozenset(SUPPORTED)
_I32, _I64 = numpy.dtype(numpy.int32), numpy.dtype(numpy.int64)
_I32_MAX = numpy.iinfo(numpy.int32).max


class SparseRoot:
    """The root of cuarray's sparse classes (`_base._spbase`): here, so that `issparse` is known to
    the modules `_base` calls (they need not import `_base`, which imports them)."""

    __slots__ = ()


def issparse(x) -> bool:
    """See `scipy.sparse.issparse` (cuarray sparse matrices and arrays).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray import sparse
    >>> sparse.issparse(sparse.eye(2)), sparse.issparse(cuarray.eye(2))
    (True, False)
    """
    return isinstance(x, SparseRoot)


def check_dtype(dtype) -> numpy.dtype:
    """`dtype` as a NumPy dtype when scipy.sparse supports it; ValueError (SciPy's) otherwise."""
    dt = numpy.dtype(dtype)
    if dt not in _SUPPORTED_SET:
        names = ", ".join(sorted({d.name for d in SUPPORTED}))
        raise ValueError("cuarray.sparse does not support dtype {} (the supported types are: {})".format(
            dt.name, names))
    return dt


def get_index_dtype(dtypes=(), maxval=None) -> numpy.dtype:
    """int32 unless an index value may exceed its range: `maxval` (the largest index or count the
    matrix can hold) above 2^31 - 1, or an input index array already wider than int32 and
    `maxval` unknown. SciPy checks array contents when asked to (a device read here); a valid
    matrix's indices are below its shape and its offsets at most nnz, so `maxval` from the shape
    and nnz gives SciPy's answer without reading the device."""
    if maxval is not None:
        return _I64 if maxval > _I32_MAX else _I32
    for dt in dtypes:
        if numpy.dtype(dt).itemsize > 4:
            return _I64
    return _I32


def isintlike(x) -> bool:
    """A Python or NumPy integer (not a bool, not an array)."""
    if isinstance(x, (bool, numpy.bool_)):
        return False
    try:
        operator.index(x)
    except TypeError:
        return False
    return True


def isscalarlike(x) -> bool:
    """A Python or NumPy scalar, or a 0-d array."""
    return numpy.isscalar(x) or (getattr(x, "ndim", None) == 0 and hasattr(x, "dtype"))


def isshape(x) -> bool:
    """A tuple of two integers (`check_shape` refuses negative ones with SciPy's ValueError)."""
    return isinstance(x, tuple) and len(x) == 2 and all(isintlike(v) for v in x)


def check_shape(shape) -> tuple:
    """`shape` as a tuple of two Python ints; ValueError for anything else (2-D only here)."""
    try:
        shape = tuple(operator.index(s) for s in shape)
    except TypeError:
        raise TypeError("shape must be a tuple of integers, got {!r}".format(shape)) from None
    if len(shape) != 2:
        raise ValueError("cuarray.sparse matrices and arrays are 2-D; got shape {}".format(shape))
    if any(s < 0 for s in shape):
        raise ValueError("'shape' elements cannot be negative")
    return shape


def upcast(*dtypes) -> numpy.dtype:
    """The result dtype of combining `dtypes` (NumPy's promotion), checked against SciPy's list."""
    return check_dtype(numpy.result_type(*dtypes))


def sum_dtype(dtype) -> numpy.dtype:
    """NumPy's `sum` accumulator dtype: small integers and bool widen to int64 (uint64)."""
    dt = numpy.dtype(dtype)
    if dt.kind == "b" or (dt.kind == "i" and dt.itemsize < 8):
        return _I64
    if dt.kind == "u" and dt.itemsize < 8:
        return numpy.dtype(numpy.uint64)
    return dt


def normalize_index(i: int, n: int, what: str = "index") -> int:
    """A Python int index into a length-`n` axis, negatives from the end; IndexError when out."""
    i = operator.index(i)
    if i < -n or i >= n:
        raise IndexError("{} ({}) out of range".format(what, i))
    return i + n if i < 0 else i
