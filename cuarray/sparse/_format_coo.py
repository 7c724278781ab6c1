"""COOrdinate format: coo_matrix and coo_array. See `scipy.sparse.coo_array`.

Entries are (row, col, value) triplets in any order, duplicates allowed. `tocsr`/`tocsc` sort
(the engine's radix sort on one key per entry) and sum duplicates, as SciPy does.
2-D only (SciPy's n-D coo_array is not supported).
"""

from __future__ import annotations

import numpy

from .._core.host_input import reject
from .._core.ndarray import ndarray
from .._creation.basic import empty, zeros
from .._creation.from_data import asarray
from .._indexing.inserting import take
from .._logic.comparison import not_equal
from .._math.arithmetic import add, multiply
from .._sorting.searching_nonzero import flatnonzero, nonzero
from . import _canonical as canon
from . import _sputils
from ._base import _is_host_sparse, _spbase, register, sparray, spmatrix
from ._index import coo_getitem
from ._sputils import issparse

__all__ = ["coo_matrix", "coo_array", "isspmatrix_coo"]

_I64 = numpy.dtype(numpy.int64)


class _coo_base(_spbase):
    _format = "coo"

    def __init__(self, arg1, shape=None, dtype=None, copy=False):
        self._canon = False
        self._dedup = False  # known free of duplicates (sorted or not)
        if issparse(arg1):
            src = arg1 if arg1._format == "coo" else arg1.tocoo()
            c = (lambda a: a.copy()) if (copy and src is arg1) else (lambda a: a)
            self._set(c(src.data), c(src.row), c(src.col), src.shape)
            self._canon, self._dedup = src._canon, src._dedup
        elif _is_host_sparse(arg1):
            h = arg1.tocoo()
            self._set(asarray(h.data), asarray(h.row), asarray(h.col), h.shape, index_cast=True)
        elif isinstance(arg1, tuple) and _sputils.isshape(arg1):
            m, n = _sputils.check_shape(arg1)
            idt = _sputils.get_index_dtype(maxval=max(m, n))
            self._set(empty((0,), numpy.float64 if dtype is None else dtype), empty((0,), idt),
                      empty((0,), idt), (m, n))
            self._canon = self._dedup = True
        elif isinstance(arg1, tuple) and len(arg1) == 2:
            data, ij = arg1
            if not isinstance(ij, (tuple, list)) and isinstance(ij, ndarray) and ij.ndim == 2:
                ij = (ij[0], ij[1])
            if len(ij) != 2:
                raise TypeError("invalid input format: (data, (row, col)) expected")
            row, col = ij
            for x in (data, row, col):
                if not isinstance(x, ndarray):
                    raise reject(x, "sparse matrix constructor")
            if not (data.ndim == row.ndim == col.ndim == 1) or not (data.size == row.size == col.size):
                raise ValueError("row, column, and data array must all be the same length")
            if shape is None:
                if data.size == 0:
                    raise ValueError("cannot infer dimensions from zero sized index arrays")
                shape = (int(row.max()) + 1, int(col.max()) + 1)
            shape = _sputils.check_shape(shape)
            self._set(data.copy() if copy else data, row.copy() if copy else row,
                      col.copy() if copy else col, shape, index_cast=True)
        elif isinstance(arg1, ndarray):
            a = arg1
            if a.ndim == 1:
                a = a.reshape(1, -1)
            if a.ndim != 2:
                raise TypeError("expected a 2-D array, got {} dimensions".format(a.ndim))
            row, col = nonzero(a)
            idt = _sputils.get_index_dtype(maxval=max(a.shape + (row.size,)))
            self._set(a[row, col], row.astype(idt), col.astype(idt), a.shape)
            self._canon = self._dedup = True
        else:
            raise reject(arg1, "sparse." + type(self).__name__) if isinstance(arg1, (numpy.ndarray, list)) \
                else TypeError("unrecognized {} constructor input: {!r}".format(type(self).__name__, type(arg1)))
        if shape is not None and tuple(shape) != self._shape:
            raise ValueError("shape {} does not match the input's shape {}".format(tuple(shape), self._shape))
        if dtype is not None and numpy.dtype(dtype) != self.data.dtype:
            self.data = self.data.astype(_sputils.check_dtype(dtype))
        _sputils.check_dtype(self.data.dtype)

    def _set(self, data, row, col, shape, index_cast=False):
        self._shape = tuple(int(s) for s in shape)
        if index_cast:
            if row.dtype.kind not in "iu" or col.dtype.kind not in "iu":
                raise ValueError("row and column indices must have an integer dtype")
            idt = _sputils.get_index_dtype(maxval=max(self._shape))
            row, col = row.astype(idt, copy=False), col.astype(idt, copy=False)
        self.data, self.row, self.col = data, row, col

    @classmethod
    def _from_parts(cls, data, row, col, shape):
        out = object.__new__(cls)
        out._shape = tuple(shape)
        out.data, out.row, out.col = data, row, col
        out._canon = out._dedup = False
        return out

    def _host_args(self):
        return (self.data.get(), (self.row.get(), self.col.get()))

    @property
    def nnz(self) -> int:
        return int(self.data.size)

    @property
    def coords(self) -> tuple:
        return (self.row, self.col)

    @property
    def has_canonical_format(self) -> bool:
        return self._canon

    @has_canonical_format.setter
    def has_canonical_format(self, v):
        self._canon = bool(v)

    def _with_data(self, data, copy=True):
        out = self._from_parts(data, self.row.copy() if copy else self.row, self.col.copy() if copy else self.col,
                               self._shape)
        out._canon, out._dedup = self._canon, self._dedup
        return out

    def _replace(self, other):
        self._set(other.data, other.row, other.col, other.shape)
        self._canon, self._dedup = other._canon, other._dedup

    def transpose(self, axes=None, copy=False):
        if axes is not None and tuple(axes) != (1, 0):
            raise ValueError("Sparse arrays/matrices do not support an 'axes' parameter because swapping "
                             "dimensions is the only logical permutation.")
        c = (lambda a: a.copy()) if copy else (lambda a: a)
        out = self._from_parts(c(self.data), c(self.col), c(self.row), self._shape[::-1])
        out._dedup = self._dedup
        return out

    # -- canonical form ------------------------------------------------------------------------
    def sum_duplicates(self):
        """Sort by (row, col) and sum duplicates, in place."""
        if self._canon:
            return
        m, n = self._shape
        indptr, col, data = canon.canonical(self.row, self.col, self.data, m, n, self.row.dtype)
        self.row = canon.expand(indptr, data.size, self.row.dtype)
        self.col, self.data = col, data
        self._canon = self._dedup = True

    def eliminate_zeros(self):
        if self.nnz == 0:
            return
        keep = flatnonzero(not_equal(self.data, 0))
        if keep.size != self.nnz:
            self.data, self.row, self.col = (take(a, keep) for a in (self.data, self.row, self.col))

    # -- conversions -----------------------------------------------------------------------------
    def tocoo(self, copy=False):
        return self.copy() if copy else self

    def _compressed(self, fmt):
        m, n = self._shape
        idt = _sputils.get_index_dtype(maxval=max(m, n, self.nnz))
        if fmt == "csr":
            indptr, indices, data = canon.canonical(self.row, self.col, self.data, m, n, idt)
        else:
            indptr, indices, data = canon.canonical(self.col, self.row, self.data, n, m, idt)
        return self._container(fmt)._from_parts(data, indices, indptr, self._shape, True, True)

    def tocsr(self, copy=False):
        """Sorted, duplicates summed (SciPy's result)."""
        return self._compressed("csr")

    def tocsc(self, copy=False):
        return self._compressed("csc")

    def todia(self, copy=False):
        from ._format_dia import coo_to_dia  # cycle: the format modules convert to each other

        return coo_to_dia(self)

    def toarray(self, order=None, out=None) -> ndarray:
        m, n = self._shape
        f = order is not None and order.upper() == "F"
        if out is None:
            dense = zeros((n, m) if f else (m, n), self.dtype)
        else:
            if tuple(out.shape) != self._shape:
                raise ValueError("out array has shape {}, expected {}".format(out.shape, self._shape))
            out[...] = 0
            dense = out.T if f else out
        if self.nnz:
            r, c = (self.col, self.row) if f else (self.row, self.col)
            flat_idx = add(multiply(r.astype(_I64), dense.shape[1]), c.astype(_I64))
            flat = dense.reshape(-1)
            if self._dedup:
                flat[flat_idx] = self.data
            else:
                canon.segment_sum(self.data, flat_idx, flat.size, out=flat)
        return dense.T if f else dense


@register
class coo_array(sparray, _coo_base):
    """See `scipy.sparse.coo_array` (2-D).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray import sparse
    >>> rows, cols = cuarray.array([0, 1]), cuarray.array([1, 0])
    >>> sparse.coo_array((cuarray.array([1., 2.]), (rows, cols)), shape=(2, 2)).toarray()
    array([[0., 1.],
           [2., 0.]])
    """

    def __getitem__(self, key):
        return coo_getitem(self, key)


@register
class coo_matrix(spmatrix, _coo_base):
    """See `scipy.sparse.coo_matrix`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray import sparse
    >>> rows, cols = cuarray.array([0, 1]), cuarray.array([1, 0])
    >>> sparse.coo_matrix((cuarray.array([1., 2.]), (rows, cols)), shape=(2, 2)).toarray()
    array([[0., 1.],
           [2., 0.]])
    """


def isspmatrix_coo(x) -> bool:
    """See `scipy.sparse.isspmatrix_coo`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray import sparse
    >>> sparse.isspmatrix_coo(sparse.coo_matrix(cuarray.eye(2)))
    True
    """
    return isinstance(x, coo_matrix)
