"""DIAgonal format: dia_matrix and dia_array. See `scipy.sparse.dia_array`.

`data[i, j]` holds the element at column j of diagonal `offsets[i]` (row j - offsets[i]), SciPy's
layout. Arithmetic and products go through CSR.
"""

from __future__ import annotations

import numpy

from .._core.host_input import reject
from .._core.ndarray import ndarray
from .._creation.basic import zeros
from .._creation.from_data import asarray
from .._creation.ranges import arange
from .._indexing.inserting import take
from .._logic.comparison import greater_equal, less, not_equal
from .._logic.ops import logical_and
from .._manipulation.dims import broadcast_to
from .._math.arithmetic import add, multiply, remainder, subtract
from .._sets.unique import unique
from .._sorting.searching_nonzero import flatnonzero
from .._sorting.searchsorted import searchsorted
from . import _sputils
from ._base import _is_host_sparse, _spbase, register, sparray, spmatrix
from ._sputils import issparse
from ._canonical import segment_sum
from ._format_coo import coo_array

__all__ = ["dia_matrix", "dia_array", "isspmatrix_dia", "coo_to_dia"]


class _dia_base(_spbase):
    _format = "dia"

    def __init__(self, arg1, shape=None, dtype=None, copy=False):
        if issparse(arg1):
            src = arg1.todia() if arg1._format != "dia" else arg1
            self._set(src.data.copy() if copy or src is not arg1 else src.data,
                      src.offsets.copy() if copy or src is not arg1 else src.offsets, src.shape)
        elif _is_host_sparse(arg1):
            h = arg1.todia()
            self._set(asarray(h.data), asarray(h.offsets), h.shape)
        elif isinstance(arg1, tuple) and _sputils.isshape(arg1):
            m, n = _sputils.check_shape(arg1)
            self._set(zeros((0, 0), numpy.float64 if dtype is None else dtype),
                      zeros((0,), _sputils.get_index_dtype(maxval=max(m, n))), (m, n))
        elif isinstance(arg1, tuple) and len(arg1) == 2:
            data, offsets = arg1
            if shape is None:
                raise ValueError("expected a shape argument")
            if not isinstance(data, ndarray):
                raise reject(data, "sparse.dia_matrix")
            if _sputils.isintlike(offsets):
                offsets = asarray(numpy.array([offsets]))
            elif not isinstance(offsets, ndarray):
                raise reject(offsets, "sparse.dia_matrix")
            data = data.reshape(1, -1) if data.ndim == 1 else data
            if data.ndim != 2:
                raise ValueError("DIA data array must have two dimensions")
            if offsets.ndim != 1:
                raise ValueError("offsets array must have rank 1")
            if data.shape[0] != offsets.size:
                raise ValueError("number of diagonals ({}) does not match the number of offsets ({})".format(
                    data.shape[0], offsets.size))
            shape = _sputils.check_shape(shape)
            idt = _sputils.get_index_dtype(maxval=max(shape))
            self._set(data.copy() if copy else data, offsets.astype(idt, copy=copy), shape)
            if offsets.size > 1 and unique(offsets).size != offsets.size:
                raise ValueError("offset array contains duplicate values")
        elif isinstance(arg1, ndarray):
            src = coo_to_dia(coo_array(arg1))
            self._set(src.data, src.offsets, src.shape)
        else:
            raise TypeError("unrecognized {} constructor input: {!r}".format(type(self).__name__, type(arg1)))
        if dtype is not None and numpy.dtype(dtype) != self.data.dtype:
            self.data = self.data.astype(_sputils.check_dtype(dtype))
        _sputils.check_dtype(self.data.dtype)

    def _set(self, data, offsets, shape):
        self._shape = tuple(int(s) for s in shape)
        self.data, self.offsets = data, offsets

    @classmethod
    def _from_parts(cls, data, offsets, shape):
        out = object.__new__(cls)
        out._set(data, offsets, shape)
        return out

    def _host_args(self):
        return (self.data.get(), self.offsets.get())

    @property
    def nnz(self) -> int:
        """Stored values inside the matrix (explicit zeros included), as SciPy counts them."""
        m, n = self._shape
        width = self.data.shape[1] if self.data.ndim == 2 else 0
        total = 0
        for k in self.offsets.get().tolist():
            lo, hi = max(0, k), min(n, width, m + k)
            total += max(0, hi - lo)
        return total

    def _with_data(self, data, copy=True):
        return self._from_parts(data, self.offsets.copy() if copy else self.offsets, self._shape)

    def _replace(self, other):
        self._set(other.data, other.offsets, other.shape)

    def tocoo(self, copy=False):
        m, n = self._shape
        coo_cls = self._container("coo")
        if self.data.size == 0:
            return coo_cls(self._shape, dtype=self.dtype)
        ndiag, width = self.data.shape
        idt = _sputils.get_index_dtype(maxval=max(m, n))
        cols = broadcast_to(arange(width, dtype=numpy.int64).reshape(1, -1), (ndiag, width))
        rows = subtract(cols, self.offsets.astype(numpy.int64).reshape(-1, 1))
        mask = logical_and(logical_and(greater_equal(rows, 0), less(rows, m)),
                              logical_and(less(cols, n), not_equal(self.data, 0)))
        keep = flatnonzero(mask)
        data = take(self.data.reshape(-1), keep)
        row = take(rows.reshape(-1), keep).astype(idt)
        col = remainder(keep, width).astype(idt)
        return coo_cls._from_parts(data, row, col, self._shape)

    def tocsr(self, copy=False):
        return self.tocoo().tocsr()

    def tocsc(self, copy=False):
        return self.tocoo().tocsc()

    def todia(self, copy=False):
        return self.copy() if copy else self

    def transpose(self, axes=None, copy=False):
        if axes is not None and tuple(axes) != (1, 0):
            raise ValueError("Sparse arrays/matrices do not support an 'axes' parameter because swapping "
                             "dimensions is the only logical permutation.")
        return coo_to_dia(self.tocoo().transpose())

    def sum_duplicates(self):
        """DIA has no duplicates."""

    def eliminate_zeros(self):
        """Stored zeros of DIA are kept (SciPy's dia has no eliminate_zeros either)."""


@register
class dia_array(sparray, _dia_base):
    """See `scipy.sparse.dia_array`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray import sparse
    >>> data, offsets = cuarray.array([[1., 2., 3.]]), cuarray.array([0])
    >>> sparse.dia_array((data, offsets), shape=(3, 3)).toarray()
    array([[1., 0., 0.],
           [0., 2., 0.],
           [0., 0., 3.]])
    """


@register
class dia_matrix(spmatrix, _dia_base):
    """See `scipy.sparse.dia_matrix`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray import sparse
    >>> data, offsets = cuarray.array([[1., 2., 3.]]), cuarray.array([1])
    >>> sparse.dia_matrix((data, offsets), shape=(3, 3)).toarray()
    array([[0., 2., 0.],
           [0., 0., 3.],
           [0., 0., 0.]])
    """


def isspmatrix_dia(x) -> bool:
    """See `scipy.sparse.isspmatrix_dia`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray import sparse
    >>> sparse.isspmatrix_dia(sparse.dia_matrix(cuarray.eye(2)))
    True
    """
    return isinstance(x, dia_matrix)


def coo_to_dia(coo):
    """DIA of a COO matrix (one synchronisation: the distinct diagonals). SciPy's layout: data
    is (number of diagonals, last used column + 1)."""
    cls = coo._container("dia")
    m, n = coo.shape
    idt = _sputils.get_index_dtype(maxval=max(m, n))
    if coo.nnz == 0:
        return cls._from_parts(zeros((0, 0), coo.dtype), zeros((0,), idt), coo.shape)
    ks = subtract(coo.col.astype(numpy.int64), coo.row.astype(numpy.int64))
    offsets = unique(ks)
    width = int(coo.col.max()) + 1
    data = zeros((offsets.size, width), coo.dtype)
    which = searchsorted(offsets, ks)
    flat = add(multiply(which, width), coo.col.astype(numpy.int64))

    segment_sum(coo.data, flat, data.size, out=data.reshape(-1))
    return cls._from_parts(data, offsets.astype(idt), coo.shape)
