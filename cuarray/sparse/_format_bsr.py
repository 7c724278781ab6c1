"""Block Sparse Row: bsr_matrix and bsr_array. See `scipy.sparse.bsr_array`.

`data` is (nnzb, R, C): block k covers rows `R*i .. R*i+R-1` of its block row i and columns
`C*indices[k] .. C*indices[k]+C-1`, and `indices`/`indptr` index blocks as CSR's index entries.
So canonical form, sorting and `eliminate_zeros` are `_cs_matrix`'s over the grid of
(M // R, N // C) blocks, whole blocks moving and summing together. Conversions to CSR/COO are
gathers (no sort); conversion from CSR sums each entry into its block (one sort of the block
keys). Products with dense operands use cuSPARSE's bsrmv/bsrmm for square blocks (`_matmul`);
everything else computes in CSR, as the other formats do.
"""

from __future__ import annotations

import numpy

from .._core.host_input import reject
from .._core.ndarray import ndarray
from .._creation.basic import empty, zeros
from .._creation.from_data import asarray
from .._creation.ranges import arange
from .._indexing.inserting import take
from .._logic.comparison import not_equal
from .._logic.truth import any as any_
from .._manipulation.dims import broadcast_to
from .._math.arithmetic import add, floor_divide, multiply, remainder, subtract
from .._math.sums_scan import diff
from .._sets.unique import unique
from .._sorting.searchsorted import searchsorted
from . import _canonical as canon
from . import _sputils
from ._base import _is_host_sparse, register, sparray, spmatrix
from ._compressed import _cs_matrix
from ._format_coo import coo_matrix
from ._sputils import issparse

__all__ = ["bsr_matrix", "bsr_array", "isspmatrix_bsr", "csr_to_bsr"]

_I64 = numpy.dtype(numpy.int64)


def _blocksize(blocksize) -> tuple:
    """(R, C) as Python ints; SciPy's ValueError for anything that is not two integers."""
    try:
        ok = len(blocksize) == 2 and all(_sputils.isintlike(b) for b in blocksize)
    except TypeError:
        ok = False
    if not ok:
        raise ValueError("invalid blocksize={}".format(blocksize))
    return int(blocksize[0]), int(blocksize[1])


class _bsr_base(_cs_matrix):
    _format = "bsr"

    def __init__(self, arg1, shape=None, dtype=None, copy=False, blocksize=None, *, maxprint=None):
        self._sorted = self._canon = None
        if issparse(arg1):
            src = arg1.tobsr(blocksize=blocksize, copy=copy)
            self._set(src.data, src.indices, src.indptr, src.shape)
            self._sorted, self._canon = src._sorted, src._canon
        elif _is_host_sparse(arg1):
            h = arg1.tobsr(blocksize=blocksize)
            self._set(asarray(h.data), asarray(h.indices), asarray(h.indptr), h.shape, index_cast=True)
            self._sorted = bool(h.has_sorted_indices)
        elif isinstance(arg1, tuple) and _sputils.isshape(arg1):
            m, n = _sputils.check_shape(arg1)
            r, c = (1, 1) if blocksize is None else _blocksize(blocksize)
            if r < 1 or c < 1 or m % r or n % c:
                raise ValueError("shape must be multiple of blocksize")
            idt = _sputils.get_index_dtype(maxval=max(m // r, n // c, r, c))
            self._set(zeros((0, r, c), numpy.float64 if dtype is None else dtype), empty((0,), idt),
                      zeros((m // r + 1,), idt), (m, n))
            self._sorted = self._canon = True
        elif isinstance(arg1, tuple) and len(arg1) == 2:
            src = coo_matrix(arg1, shape=shape, dtype=dtype).tobsr(blocksize=blocksize)
            self._set(src.data, src.indices, src.indptr, src.shape)
            self._sorted, self._canon = src._sorted, src._canon
        elif isinstance(arg1, tuple) and len(arg1) == 3:
            self._from_triplet(arg1, shape, copy, blocksize)
        elif isinstance(arg1, ndarray):
            if self._is_array and arg1.ndim != 2:
                raise ValueError("BSR arrays don't support {}D input. Use 2D".format(arg1.ndim))
            src = coo_matrix(arg1, dtype=dtype).tobsr(blocksize=blocksize)
            self._set(src.data, src.indices, src.indptr, src.shape)
            self._sorted = self._canon = True
        elif isinstance(arg1, tuple):
            raise ValueError("unrecognized bsr_array constructor usage")
        else:
            raise reject(arg1, "sparse." + type(self).__name__) if isinstance(arg1, (numpy.ndarray, list)) \
                else TypeError("unrecognized {} constructor input: {!r}".format(type(self).__name__, type(arg1)))
        if shape is not None and _sputils.check_shape(shape) != self._shape:
            raise ValueError("shape {} does not match the input's shape {}".format(tuple(shape), self._shape))
        if dtype is not None and numpy.dtype(dtype) != self.data.dtype:
            self.data = self.data.astype(_sputils.check_dtype(dtype))
        _sputils.check_dtype(self.data.dtype)
        self._check()

    def _from_triplet(self, arg1, shape, copy, blocksize):
        data, indices, indptr = arg1
        for x in arg1:
            if not isinstance(x, ndarray):
                raise reject(x, "sparse." + type(self).__name__)
        if data.ndim != 3:
            raise ValueError("BSR data must be 3-dimensional, got shape={}".format(data.shape))
        if blocksize is not None and _blocksize(blocksize) != data.shape[1:]:
            raise ValueError("mismatching blocksize={} vs {}".format(blocksize, data.shape[1:]))
        if indices.ndim != 1 or indptr.ndim != 1:
            raise ValueError("indices, and indptr should be 1-D")
        r, c = data.shape[1:]
        if shape is None:
            if indices.size == 0:
                raise ValueError("unable to infer matrix dimensions")
            shape = ((indptr.size - 1) * r, (int(indices.max()) + 1) * c)
        m, n = _sputils.check_shape(shape)
        if r < 1 or c < 1 or m % r or n % c:
            # SciPy leaves this unchecked (its results are then wrong); refusing it is safer.
            raise ValueError("shape must be multiple of blocksize")
        cp = (lambda a: a.copy()) if copy else (lambda a: a)
        self._set(cp(data), cp(indices), cp(indptr), (m, n), index_cast=True)

    def _check(self):
        if self.data.ndim != 3:
            raise ValueError("data should be 3-D")
        nbr = self._grid()[0]
        if self.indptr.size != nbr + 1:
            raise ValueError("index pointer size ({}) should be ({})".format(self.indptr.size, nbr + 1))
        if self.indices.size != self.data.shape[0]:
            raise ValueError("indices and data should have the same size")

    def _grid(self):
        r, c = self.blocksize
        return self._shape[0] // r, self._shape[1] // c

    def _swap(self, x):
        return x

    @property
    def blocksize(self) -> tuple:
        """(R, C), the shape of each block."""
        return tuple(int(b) for b in self.data.shape[1:])

    def _stored_nonzero(self):
        # SciPy drops whole blocks, and only those holding no nonzero.
        nnzb = self.data.shape[0]
        return any_(not_equal(self.data.reshape(nnzb, -1), 0), axis=1)

    # -- conversions ---------------------------------------------------------------------------
    def tobsr(self, blocksize=None, copy=False):
        if blocksize is not None and _blocksize(blocksize) != self.blocksize:
            return self.tocsr(copy=False).tobsr(blocksize=blocksize)
        return self.copy() if copy else self

    def _coo_parts(self):
        """(row, col) of every stored element, block by block, each block row-major (SciPy's
        `tocoo` order)."""
        nnzb = self.indices.size
        r, c = self.blocksize
        idt = _sputils.get_index_dtype(maxval=max(self._shape))
        brow = multiply(self._majors().astype(_I64), r).reshape(-1, 1, 1)
        bcol = multiply(self.indices.astype(_I64), c).reshape(-1, 1, 1)
        row = broadcast_to(add(brow, arange(r, dtype=_I64).reshape(1, -1, 1)), (nnzb, r, c))
        col = broadcast_to(add(bcol, arange(c, dtype=_I64).reshape(1, 1, -1)), (nnzb, r, c))
        return row.reshape(-1).astype(idt), col.reshape(-1).astype(idt)

    def tocoo(self, copy=True):
        row, col = self._coo_parts()
        data = self.data.reshape(-1)
        coo = self._container("coo")._from_parts(data.copy() if copy else data, row, col, self._shape)
        coo._dedup = bool(self._canon)
        return coo

    def tocsr(self, copy=False):
        """CSR with every element of every block (explicit zeros and duplicates kept, as SciPy's
        `bsr_tocsr`): each output position's block and element computed, then one gather."""
        m, n = self._shape
        r, c = self.blocksize
        nnz = self.nnz
        cls = self._container("csr")
        if nnz == 0:
            return cls((m, n), dtype=self.dtype)
        idt = _sputils.get_index_dtype(maxval=max(nnz, m, n))
        bptr = self.indptr.astype(_I64)
        rows = arange(m, dtype=_I64)
        brow = floor_divide(rows, r)
        start = take(bptr, brow)
        width = multiply(take(diff(bptr), brow), c)    # entries in each row
        indptr = zeros((m + 1,), _I64)
        indptr[:-1] = add(multiply(start, r * c), multiply(remainder(rows, r), width))
        indptr[-1] = nnz
        row = canon.expand(indptr, nnz, _I64)
        q = subtract(arange(nnz, dtype=_I64), take(indptr, row))
        blk = add(take(start, row), floor_divide(q, c))
        cin = remainder(q, c)
        src = add(multiply(add(multiply(blk, r), remainder(row, r)), c), cin)
        data = take(self.data.reshape(-1), src)
        cols = add(multiply(take(self.indices, blk).astype(_I64), c), cin)
        # Blocks in column order give rows in column order; no duplicate blocks, no duplicates.
        return cls._from_parts(data, cols.astype(idt), indptr.astype(idt), (m, n), self._sorted, self._canon)

    def tocsc(self, copy=False):
        return self.tocsr(copy=False).tocsc(copy=copy)

    def transpose(self, axes=None, copy=False):
        if axes is not None and tuple(axes) != (1, 0):
            raise ValueError("Sparse arrays/matrices do not support an 'axes' parameter because swapping "
                             "dimensions is the only logical permutation.")
        m, n = self._shape
        r, c = self.blocksize
        cls = type(self)
        if self.indices.size == 0:
            return cls((n, m), blocksize=(c, r), dtype=self.dtype)
        nbr, nbc = self._grid()
        # Blocks re-sorted by (block column, block row), stably: SciPy's bsr_transpose order.
        keys = canon.keys_of(self.indices, self._majors(), nbc, nbr)
        skeys, perm = canon.sort_keys(keys)
        data = take(self.data, perm, axis=0).transpose(0, 2, 1).copy()
        indices = remainder(skeys, skeys.dtype.type(nbr)).astype(self.indices.dtype)
        indptr = canon.compress(skeys, nbc, nbr, self.indptr.dtype)
        return cls._from_parts(data, indices, indptr, (n, m), True, self._canon)

    # -- arithmetic in SciPy's result format --------------------------------------------------
    def _binop_sparse(self, other, op, drop_zeros=True):
        # SciPy converts the other operand to this blocksize and answers in BSR.
        return super()._binop_sparse(other, op, drop_zeros).tobsr(blocksize=self.blocksize)

    def __getitem__(self, key):
        raise NotImplementedError

    def __setitem__(self, key, value):
        raise NotImplementedError


@register
class bsr_array(sparray, _bsr_base):
    """See `scipy.sparse.bsr_array`.

    Products with dense vectors and matrices run on cuSPARSE's bsrmv/bsrmm for square blocks
    larger than 1x1 with 32-bit indices; other blocks go through CSR. `tobsr` gives blocks in
    sorted column order within each block row (SciPy keeps the order of first appearance).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray import sparse
    >>> a = sparse.bsr_array(cuarray.eye(4), blocksize=(2, 2))
    >>> a.blocksize, a.indptr
    ((2, 2), array([0, 1, 2], dtype=int32))
    >>> a @ cuarray.array([1., 2., 3., 4.])
    array([1., 2., 3., 4.])
    """


@register
class bsr_matrix(spmatrix, _bsr_base):
    """See `scipy.sparse.bsr_matrix`.

    Products with dense vectors and matrices run on cuSPARSE's bsrmv/bsrmm for square blocks
    larger than 1x1 with 32-bit indices; other blocks go through CSR.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray import sparse
    >>> data = cuarray.arange(8.).reshape(2, 2, 2)
    >>> indices, indptr = cuarray.array([1, 0]), cuarray.array([0, 1, 2])
    >>> sparse.bsr_matrix((data, indices, indptr), shape=(4, 4)).toarray()
    array([[0., 0., 0., 1.],
           [0., 0., 2., 3.],
           [4., 5., 0., 0.],
           [6., 7., 0., 0.]])
    """


def isspmatrix_bsr(x) -> bool:
    """See `scipy.sparse.isspmatrix_bsr`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray import sparse
    >>> sparse.isspmatrix_bsr(sparse.bsr_matrix(cuarray.eye(2))), sparse.isspmatrix_bsr(sparse.bsr_array(cuarray.eye(2)))
    (True, False)
    """
    return isinstance(x, bsr_matrix)


# -- CSR to BSR ----------------------------------------------------------------------------------
def _block_keys(csr, r, c):
    """(block key `(i // R) * (N // C) + j // C` of each stored entry, block rows, block columns)."""
    nbr, nbc = csr.shape[0] // r, csr.shape[1] // c
    rows = csr._majors().astype(_I64)
    cols = csr.indices.astype(_I64)
    return canon.keys_of(floor_divide(rows, r), floor_divide(cols, c), nbr, nbc), rows, cols


def _count_blocks(csr, r, c) -> int:
    """Occupied (R, C) blocks of `csr` (SciPy's `count_blocks`; one synchronisation)."""
    return int(unique(_block_keys(csr, r, c)[0]).size)


def estimate_blocksize(csr, efficiency=0.7) -> tuple:
    """SciPy's `scipy.sparse._spfuncs.estimate_blocksize` heuristic: the largest of (6, 6),
    (4, 4), (3, 3), (2, 2) whose blocks would be filled above `efficiency` (one synchronisation
    per size tried)."""
    if csr.nnz == 0:
        return (1, 1)
    high = (1.0 + efficiency) / 2.0
    nnz = float(csr.nnz)
    m, n = csr.shape

    def fill(b):
        return nnz / (b * b * _count_blocks(csr, b, b)) if m % b == 0 and n % b == 0 else 0.0

    e22, e33 = fill(2), fill(3)
    if e22 > high and e33 > high:
        return (6, 6) if fill(6) > efficiency else (3, 3)
    e44 = fill(4)
    if e44 > efficiency:
        return (4, 4)
    if e33 > efficiency:
        return (3, 3)
    return (2, 2) if e22 > efficiency else (1, 1)


def csr_to_bsr(csr, blocksize=None, copy=False):
    """BSR of the CSR matrix `csr` (same kind: array or matrix). (1, 1) blocks share the CSR's
    arrays (copied when `copy`); other blocks sum each stored entry into its block: the
    occupied blocks sorted by (block row, block column), explicit zeros kept, duplicates summed
    (SciPy's `csr_tobsr`). One synchronisation (the block count)."""
    cls = csr._container("bsr")
    m, n = csr.shape
    if blocksize is None:
        blocksize = estimate_blocksize(csr)
    r, c = _blocksize(blocksize)
    if (r, c) == (1, 1):
        cp = (lambda a: a.copy()) if copy else (lambda a: a)
        return cls._from_parts(cp(csr.data).reshape(-1, 1, 1), cp(csr.indices), cp(csr.indptr), (m, n),
                               csr._sorted, csr._canon)
    if r < 1 or c < 1 or m % r or n % c:
        raise ValueError("invalid blocksize {}".format(blocksize))
    nbr, nbc = m // r, n // c
    if csr.nnz == 0:
        return cls((m, n), blocksize=(r, c), dtype=csr.dtype)
    keys, rows, cols = _block_keys(csr, r, c)
    ukeys = unique(keys)
    nnzb = int(ukeys.size)
    slot = add(multiply(searchsorted(ukeys, keys).astype(_I64), r * c),
               add(multiply(remainder(rows, r), c), remainder(cols, c)))
    data = canon.segment_sum(csr.data, slot, nnzb * r * c).reshape(nnzb, r, c)
    idt = _sputils.get_index_dtype(maxval=max(nbc, nnzb, m, n))
    indices = remainder(ukeys, ukeys.dtype.type(nbc)).astype(idt)
    indptr = canon.compress(ukeys, nbr, nbc, idt)
    return cls._from_parts(data, indices, indptr, (m, n), True, True)
