"""Building matrices: eye, identity, diag, diagflat, tri, tril, triu, vander. See NumPy's
"Array creation / Building matrices".

eye, tri, tril, triu and vander are one kernel each over the flat index `i` of a new C-contiguous
result (row = i / ncols, column = i % ncols), so every element is written once: no memset first.
diag of a 1-D array is a memset plus a strided copy onto the diagonal view; diag of a 2-D array
is a (read-only, as in NumPy) view.
"""

from __future__ import annotations

import operator

import numpy

from .._core import copying as _copying
from .._core import dtypes as _dtypes
from .._core import shapes as _shapes
from .._core.elementwise import Definition, KernelParam
from .._core.host_input import as_array, as_parameter
from .._core.ndarray import ndarray, _new_c
from .._manipulation.dims import broadcast_to
from .._manipulation.shape import ravel
from ..cuda import caches as _caches

__all__ = ["eye", "identity", "diag", "diagflat", "tri", "tril", "triu", "vander"]

_I64 = numpy.dtype(numpy.int64)
_BOOL = numpy.dtype(bool)


_mask_defs: dict = {}
_caches.register("eye/mask definitions", _mask_defs)


def _mask_def(kind: str, dt: numpy.dtype) -> Definition:
    """kind 'eye': out = (col - row == k); 'tri': out = (col <= row + k)."""
    key = (kind, dt.char)
    d = _mask_defs.get(key)
    if d is None:
        cond = "mat_col - mat_row == k" if kind == "eye" else "mat_col <= mat_row + k"
        params = (KernelParam("ncols", "scalar", _I64), KernelParam("k", "scalar", _I64),
                  KernelParam("out0", "out", dt, _BOOL))
        op = ("const long long mat_row = (long long)i / ncols; const long long mat_col = (long long)i - mat_row * ncols; "
              "out0 = ({})".format(cond))
        d = _mask_defs[key] = Definition("cuarray_{}_{}".format(kind, dt.name), params, op)
    return d


def _checked_dims(N, M):
    N = operator.index(N)
    M = N if M is None else operator.index(M)
    if N < 0 or M < 0:
        raise ValueError("negative dimensions are not allowed")
    return N, M


def eye(N, M=None, k=0, dtype=float, order="C", *, device=None, like=None) -> ndarray:
    """See `numpy.eye` (one kernel).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.eye(3)
    array([[1., 0., 0.],
           [0., 1., 0.],
           [0., 0., 1.]])
    >>> cuarray.eye(2, 3, k=1, dtype=int)
    array([[0, 1, 0],
           [0, 0, 1]])
    """
    N, M = _checked_dims(N, M)
    k = operator.index(k)
    dt = _dtypes.normalize_dtype(dtype)
    if order not in ("C", "F"):
        raise ValueError("order must be one of 'C', 'F' (got {!r})".format(order))
    if order == "C":
        out = _new_c((N, M), dt)
        target, ncols, kk = out, M, k
    else:
        # The F array is the C array of the transpose: swap rows and columns, negate k.
        out = ndarray((N, M), dt, order="F")
        target, ncols, kk = out.T, N, -k
    if out._size:
        _mask_def("eye", dt).run((target,), (numpy.int64(ncols), numpy.int64(kk)), target._shape)
    return out


def identity(n, dtype=None, *, like=None) -> ndarray:
    """See `numpy.identity`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.identity(3, dtype=cuarray.int32)
    array([[1, 0, 0],
           [0, 1, 0],
           [0, 0, 1]], dtype=int32)
    """
    return eye(n, dtype=float if dtype is None else dtype)


def tri(N, M=None, k=0, dtype=float, *, like=None) -> ndarray:
    """See `numpy.tri` (one kernel).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.tri(3, 4, k=1, dtype=int)
    array([[1, 1, 0, 0],
           [1, 1, 1, 0],
           [1, 1, 1, 1]])
    """
    # NumPy's tri is an outer comparison of two aranges: a negative N or M is an empty axis
    N = max(operator.index(N), 0)
    M = N if M is None else max(operator.index(M), 0)
    k = operator.index(k)
    dt = _dtypes.normalize_dtype(dtype)
    out = _new_c((N, M), dt)
    if out._size:
        _mask_def("tri", dt).run((out,), (numpy.int64(M), numpy.int64(k)), out._shape)
    return out


_tri_defs: dict = {}
_caches.register("tril/triu definitions", _tri_defs)


def _triangle(m, k, lower: bool) -> ndarray:
    name = "tril" if lower else "triu"
    # Python sequences too, as CuPy's take them; a NumPy array stays the host-input policy's TypeError
    m = as_parameter(m, name) if isinstance(m, (list, tuple)) else as_array(m, name)
    k = operator.index(k)
    if m.ndim == 0:
        raise TypeError("tril/triu need an array of at least one dimension")
    if m.ndim == 1:
        # NumPy broadcasts a 1-D input against the mask: rows are repeats of it.

        m = broadcast_to(m, (m.shape[0], m.shape[0]))
    src = m if m._c else m.copy(order="C")  # the kernel reads by the flat C index
    dt = m._dtype
    key = (lower, dt.char)
    d = _tri_defs.get(key)
    if d is None:
        cond = "mat_col <= mat_row + k" if lower else "mat_col >= mat_row + k"
        params = (KernelParam("ncols", "scalar", _I64), KernelParam("nrows", "scalar", _I64),
                  KernelParam("k", "scalar", _I64), KernelParam("in0", "in", dt),
                  KernelParam("out0", "out", dt))
        op = ("const long long mat_q = (long long)i / ncols; const long long mat_col = (long long)i - mat_q * ncols; "
              "const long long mat_row = mat_q % nrows; "
              "out0 = ({}) ? in0 : decltype(in0)(0)".format(cond))
        d = _tri_defs[key] = Definition("cuarray_{}_{}".format("tril" if lower else "triu", dt.name), params, op)
    out = _new_c(m._shape, dt)
    if out._size:
        d.run((src, out), (numpy.int64(m._shape[-1]), numpy.int64(m._shape[-2]), numpy.int64(k)), out._shape)
    return out


def tril(m, k=0) -> ndarray:
    """See `numpy.tril`: zeros above the k-th diagonal of the last two axes (one kernel).
    The result is always C-contiguous.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.tril(cuarray.arange(1, 10).reshape(3, 3))
    array([[1, 0, 0],
           [4, 5, 0],
           [7, 8, 9]])
    """
    return _triangle(m, k, True)


def triu(m, k=0) -> ndarray:
    """See `numpy.triu`: zeros below the k-th diagonal of the last two axes (one kernel).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.triu(cuarray.arange(1, 10).reshape(3, 3), k=1)
    array([[0, 2, 3],
           [0, 0, 6],
           [0, 0, 0]])
    """
    return _triangle(m, k, False)


def _diagonal_view(a: ndarray, k: int) -> ndarray:
    shape, strides, start = _shapes.diagonal(a._shape, a._strides, k)
    return ndarray._view(shape, strides, a._dtype, a.data + start if start else a.data, a)


def diag(v, k=0) -> ndarray:
    """See `numpy.diag`. 1-D input: a new square array (memset + one copy onto its diagonal);
    2-D input: the k-th diagonal as a read-only view, as in NumPy.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.diag(cuarray.array([1, 2, 3]))
    array([[1, 0, 0],
           [0, 2, 0],
           [0, 0, 3]])
    >>> cuarray.diag(cuarray.arange(9).reshape(3, 3), k=1)
    array([1, 5])
    """
    v = as_parameter(v, "diag")  # a host sequence too, as CuPy's diag takes
    k = operator.index(k)
    if v.ndim == 1:
        n = v._shape[0] + abs(k)
        out = _new_c((n, n), v._dtype)
        if out._size:
            out.data.memset_async(0, out.nbytes)
            if v._size:
                _copying.copyto_unchecked(_diagonal_view(out, k), v)
        return out
    if v.ndim == 2:
        out = _diagonal_view(v, k)
        out._writeable = False
        return out
    raise ValueError("Input must be 1- or 2-d.")


def diagflat(v, k=0) -> ndarray:
    """See `numpy.diagflat`: `diag` of the flattened input.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.diagflat(cuarray.array([[1, 2], [3, 4]]))
    array([[1, 0, 0, 0],
           [0, 2, 0, 0],
           [0, 0, 3, 0],
           [0, 0, 0, 4]])
    """
    return diag(ravel(as_array(v, "diagflat")), k)


_vander_defs: dict = {}
_caches.register("vander definitions", _vander_defs)


def vander(x, N=None, increasing=False) -> ndarray:
    """See `numpy.vander` (one kernel; powers by repeated multiplication in NumPy's order, so
    integer results wrap and float results round exactly as NumPy's).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.vander(cuarray.array([1, 2, 3]), 3)
    array([[1, 1, 1],
           [4, 2, 1],
           [9, 3, 1]])
    >>> cuarray.vander(cuarray.array([1, 2, 3]), 3, increasing=True)
    array([[1, 1, 1],
           [1, 2, 4],
           [1, 3, 9]])
    """
    x = as_array(x, "vander")
    if x.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    n = x._shape[0]
    N = n if N is None else operator.index(N)
    if N < 0:
        raise ValueError("negative dimensions are not allowed")
    dt = _dtypes.normalize_dtype(numpy.promote_types(x._dtype, int))
    src = x if x._c else x.copy()
    key = (x._dtype.char, dt.char, bool(increasing))
    d = _vander_defs.get(key)
    if d is None:
        power = "mat_col" if increasing else "ncols - 1 - mat_col"
        ct = _dtypes.ctype(dt)
        params = (KernelParam("x", "raw", x._dtype), KernelParam("ncols", "scalar", _I64),
                  KernelParam("out0", "out", dt))
        op = ("const long long mat_row = (long long)i / ncols; const long long mat_col = (long long)i - mat_row * ncols; "
              "const long long mat_p = {p}; const {t} mat_x = cuarray::cast<{t}>(x[mat_row]); {t} mat_acc = ({t})1; "
              "for (long long mat_j = 0; mat_j < mat_p; ++mat_j) mat_acc = mat_acc * mat_x; "
              "out0 = mat_acc").format(p=power, t=ct)
        d = _vander_defs[key] = Definition("cuarray_vander_{}_{}".format(x._dtype.name, dt.name), params, op)
    out = _new_c((n, N), dt)
    if out._size:
        d.run((out,), (numpy.int64(N),), out._shape, raw=(src,))
    return out
