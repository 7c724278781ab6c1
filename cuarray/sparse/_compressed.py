"""What CSR and CSC share: storage (data, indices, indptr), construction, canonical form.

See `scipy.sparse.csr_array`. Both are compressed along a *major* axis (rows for CSR, columns for
CSC) and index the *minor* one; the code here speaks major/minor so one implementation serves
both, and a CSC matrix is the CSR matrix of its transpose over the same three arrays.

Flags: `has_sorted_indices` and `has_canonical_format` are remembered once known (set by the
operations that produce sorted or canonical data); asking when unknown reads the device once.
"""

from __future__ import annotations

import numpy

from .._core.host_input import reject
from .._core.ndarray import ndarray
from .._creation.basic import empty, zeros
from .._creation.from_data import asarray
from .._indexing.inserting import take
from .._logic.comparison import equal, less, less_equal, not_equal
from .._logic.truth import all as all_
from .._math.arithmetic import subtract
from .._math.sums_scan import cumsum, diff
from .._sorting.searching import where
from .._sorting.searching_nonzero import flatnonzero
from .._statistics.histograms import bincount
from . import _canonical as canon
from . import _sputils
from ._base import _is_host_sparse, _spbase
from ._sputils import issparse
from ._format_coo import coo_matrix
from ._index import getitem
from ._index_set import setitem

__all__ = ["_cs_matrix"]


class _cs_matrix(_spbase):
    """Compressed sparse storage; subclasses set `_format` ('csr' or 'csc')."""

    def __init__(self, arg1, shape=None, dtype=None, copy=False):
        self._sorted = None   # has_sorted_indices, None: not known yet
        self._canon = None    # has_canonical_format
        if issparse(arg1):
            src = arg1.asformat(self._format)
            if src is arg1 and copy:
                src = src.copy()
            self._set(src.data, src.indices, src.indptr, src.shape)
            self._sorted, self._canon = src._sorted, src._canon
        elif _is_host_sparse(arg1):
            h = arg1.asformat(self._format)
            self._set(asarray(h.data), asarray(h.indices), asarray(h.indptr), h.shape,
                      index_cast=True)
            self._sorted = bool(h.has_sorted_indices)
        elif isinstance(arg1, tuple) and _sputils.isshape(arg1):
            m, n = _sputils.check_shape(arg1)
            idt = _sputils.get_index_dtype(maxval=max(m, n))
            nmaj = m if self._format == "csr" else n
            self._set(empty((0,), numpy.float64 if dtype is None else dtype), empty((0,), idt),
                      zeros((nmaj + 1,), idt), (m, n))
            self._sorted = self._canon = True
        elif isinstance(arg1, tuple) and len(arg1) == 2:
            src = coo_matrix(arg1, shape=shape, dtype=dtype).asformat(self._format)
            self._set(src.data, src.indices, src.indptr, src.shape)
            self._sorted, self._canon = src._sorted, src._canon
        elif isinstance(arg1, tuple) and len(arg1) == 3:
            data, indices, indptr = (x if isinstance(x, ndarray) else _device_input(x) for x in arg1)
            if indices.ndim != 1 or indptr.ndim != 1 or data.ndim != 1:
                raise ValueError("data, indices and indptr should be 1-D")
            if shape is None:
                nmaj = indptr.size - 1
                nmin = int(indices.max()) + 1 if indices.size else 0
                shape = (nmaj, nmin) if self._format == "csr" else (nmin, nmaj)
            self._set(data.copy() if copy else data, indices.copy() if copy else indices,
                      indptr.copy() if copy else indptr, _sputils.check_shape(shape), index_cast=True)
        elif isinstance(arg1, ndarray):
            src = coo_matrix(arg1, shape=shape, dtype=dtype).asformat(self._format)
            self._set(src.data, src.indices, src.indptr, src.shape)
            self._sorted = self._canon = True
        else:
            raise reject(arg1, "sparse." + type(self).__name__) if isinstance(arg1, (numpy.ndarray, list)) \
                else TypeError("unrecognized {} constructor input: {!r}".format(type(self).__name__, type(arg1)))
        if shape is not None and tuple(shape) != self._shape:
            raise ValueError("shape {} does not match the input's shape {}".format(tuple(shape), self._shape))
        if dtype is not None and numpy.dtype(dtype) != self.data.dtype:
            self.data = self.data.astype(_sputils.check_dtype(dtype))
        _sputils.check_dtype(self.data.dtype)
        self._check()

    def _set(self, data, indices, indptr, shape, index_cast=False):
        self._shape = tuple(int(s) for s in shape)
        if index_cast:
            idt = _sputils.get_index_dtype(maxval=max(self._shape + (data.size,)))
            if indices.dtype.kind not in "iu" or indptr.dtype.kind not in "iu":
                raise ValueError("index arrays must have an integer dtype")
            indices = indices.astype(idt, copy=False)
            indptr = indptr.astype(idt, copy=False)
        self.data, self.indices, self.indptr = data, indices, indptr
        self._descr = None

    def _check(self):
        nmaj = self._swap(self._shape)[0]
        if self.indptr.size != nmaj + 1:
            raise ValueError("index pointer size {} should be {}".format(self.indptr.size, nmaj + 1))
        if self.indices.size != self.data.size:
            raise ValueError("indices and data should have the same size")

    def _swap(self, x):
        return x if self._format == "csr" else (x[1], x[0])

    def _grid(self):
        """(major, minor) extents of what `indptr`/`indices` index: rows and columns here,
        block rows and block columns for BSR."""
        return self._swap(self._shape)

    def _host_args(self):
        return (self.data.get(), self.indices.get(), self.indptr.get())

    @property
    def nnz(self) -> int:
        """Stored entries: the length of `data` (SciPy reads `indptr[-1]`; equal for valid input)."""
        return int(self.data.size)

    def _with_data(self, data, copy=True):
        out = object.__new__(type(self))
        out._shape = self._shape
        out.data = data
        out.indices = self.indices.copy() if copy else self.indices
        out.indptr = self.indptr.copy() if copy else self.indptr
        out._sorted, out._canon, out._descr = self._sorted, self._canon, None
        return out

    def _replace(self, other):
        self._set(other.data, other.indices, other.indptr, other.shape)
        self._sorted, self._canon = other._sorted, other._canon

    @classmethod
    def _from_parts(cls, data, indices, indptr, shape, sorted_=None, canonical=None):
        out = object.__new__(cls)
        out._shape = tuple(shape)
        out.data, out.indices, out.indptr, out._descr = data, indices, indptr, None
        out._sorted, out._canon = sorted_, canonical
        return out

    # -- canonical form ----------------------------------------------------------------------
    def _majors(self):
        return canon.expand(self.indptr, self.indices.size, self.indices.dtype)

    def _check_sorted(self, strict: bool) -> bool:
        if self.indices.size < 2:
            return True
        maj = self._majors()
        nmaj, nmin = self._grid()
        k = canon.keys_of(maj, self.indices, nmaj, nmin)
        cmp = less if strict else less_equal
        return bool(all_(cmp(k[:-1], k[1:])))

    @property
    def has_sorted_indices(self) -> bool:
        if self._sorted is None:
            self._sorted = self._check_sorted(strict=False)
        return self._sorted

    @has_sorted_indices.setter
    def has_sorted_indices(self, v):
        self._sorted = bool(v)

    @property
    def has_canonical_format(self) -> bool:
        if self._canon is None:
            self._canon = self._check_sorted(strict=True)
            if self._canon:
                self._sorted = True
        return self._canon

    @has_canonical_format.setter
    def has_canonical_format(self, v):
        self._canon = bool(v)
        if v:
            self._sorted = True

    def _rebuild(self, sum_duplicates: bool):
        nmaj, nmin = self._grid()
        indptr, indices, data = canon.canonical(self._majors(), self.indices, self.data, nmaj, nmin,
                                                self.indices.dtype, sum_duplicates)
        self.data, self.indices, self.indptr, self._descr = data, indices, indptr, None
        self._sorted = True
        if sum_duplicates:
            self._canon = True

    def sum_duplicates(self):
        """Sort indices and sum duplicates in place (SciPy's canonical form)."""
        if self._canon:
            return
        self._rebuild(True)

    def sort_indices(self):
        """Sort the indices of each row (column) in place; duplicates stay."""
        if self._sorted:
            return
        self._rebuild(False)

    def sorted_indices(self):
        c = self.copy()
        c.sort_indices()
        return c

    def _stored_nonzero(self):
        """Per stored entry (a block for BSR): whether it holds a nonzero."""
        return not_equal(self.data, 0)

    def eliminate_zeros(self):
        """Drop explicitly stored zeros in place (one synchronisation: the count kept)."""
        if self.nnz == 0:
            return
        mask = self._stored_nonzero()
        keep = flatnonzero(mask)
        if keep.size == mask.size:
            return
        run = zeros((mask.size + 1,), self.indptr.dtype)
        run[1:] = cumsum(mask, dtype=self.indptr.dtype)
        self.indptr = take(run, self.indptr)
        self.data = take(self.data, keep, axis=0)
        self.indices = take(self.indices, keep)
        self._descr = None

    def prune(self):
        """Nothing to trim: `data`/`indices` always have exactly nnz entries here."""

    # -- conversions ---------------------------------------------------------------------------
    def _coo_parts(self):
        maj = self._majors()
        return (maj, self.indices) if self._format == "csr" else (self.indices, maj)

    def tocoo(self, copy=False):
        row, col = self._coo_parts()
        coo = self._container("coo")._from_parts(self.data.copy() if copy else self.data, row, col, self._shape)
        coo._dedup = bool(self._canon)
        coo._canon = bool(self._canon) and self._format == "csr"
        return coo

    def _to_other_compressed(self):
        # Re-sort by the other axis; duplicates stay (as SciPy's tocsc/tocsr).
        nmaj, nmin = self._swap(self._shape)
        maj = self._majors()
        indptr, indices, data = canon.canonical(self.indices, maj, self.data, nmin, nmaj, self.indices.dtype,
                                                sum_duplicates=False)
        other = "csc" if self._format == "csr" else "csr"
        return self._container(other)._from_parts(data, indices, indptr, self._shape, True, self._canon)

    def transpose(self, axes=None, copy=False):
        if axes is not None and tuple(axes) != (1, 0):
            raise ValueError("Sparse arrays/matrices do not support an 'axes' parameter because swapping "
                             "dimensions is the only logical permutation.")
        other = "csc" if self._format == "csr" else "csr"
        c = (lambda a: a.copy()) if copy else (lambda a: a)
        return self._container(other)._from_parts(c(self.data), c(self.indices), c(self.indptr),
                                                  self._shape[::-1], self._sorted, self._canon)

    def toarray(self, order=None, out=None) -> ndarray:
        return self.tocoo(copy=False).toarray(order=order, out=out)

    def _getnnz_axis(self, axis):
        axis = axis + 2 if axis < 0 else axis
        if axis not in (0, 1):
            raise ValueError("axis out of bounds")
        # Counting over columns (axis 1) of CSR is a difference of row offsets.
        if axis == (1 if self._format == "csr" else 0):
            return diff(self.indptr)
        n = self._shape[axis ^ 1]
        return bincount(self.indices, minlength=n)[:n] if self.nnz else zeros((n,), numpy.int64)

    def _diagonal(self, k):
        m, n = self._shape
        if k <= -m or k >= n:
            return empty((0,), self.dtype)
        length = min(m + min(k, 0), n - max(k, 0))
        row, col = self._coo_parts()
        on = equal(subtract(col.astype(numpy.int64), row.astype(numpy.int64)), k)
        pos = where(on, row if k >= 0 else col, 0)
        vals = where(on, self.data, zeros((), self.dtype))
        return canon.segment_sum(vals, pos, length)

    # -- indexing ------------------------------------------------------------------------------
    def __getitem__(self, key):
        return getitem(self, key)

    def __setitem__(self, key, value):
        setitem(self, key, value)


def _device_input(x):
    if isinstance(x, ndarray):
        return x
    raise reject(x, "sparse matrix constructor")
