"""`A[i, j]`, `A[rows]`, `A[:, cols]` of CSR and CSC matrices, SciPy's semantics for 2-D results.

Rows of CSR are selected by gathering their entries: the new offsets are a running sum of the
chosen rows' lengths (one synchronisation: the total), and each output entry finds its row by a
binary search in them. A contiguous row slice is a view-sized copy of one range. Columns are
rows of the transpose (a re-sort). CSC indexes as the CSR matrix of its transpose.

Assignment (`setitem`) updates stored entries in place and inserts new ones with one re-sort.
Not supported: results of one dimension (an integer index of a sparse *array*), reading
element-wise pairs of index arrays (`A[[0, 1], [2, 3]]`; assignment to them works).
"""

from __future__ import annotations

import numpy

from .._core.ndarray import ndarray
from .._creation.basic import empty, full, zeros
from .._creation.from_data import asarray
from .._creation.ranges import arange
from .._indexing.inserting import take
from .._logic.comparison import equal, less, not_equal
from .._logic.ops import logical_and, logical_not
from .._manipulation.dims import broadcast_to
from .._manipulation.joining import concatenate
from .._manipulation.shape import reshape
from .._manipulation.tiling import repeat
from .._math.arithmetic import add, multiply, subtract
from .._math.extrema import minimum
from .._math.sums import sum as sum_
from .._math.sums_scan import diff
from .._sorting.searching import where
from .._sorting.searching_nonzero import flatnonzero
from .._sorting.searchsorted import searchsorted
from . import _canonical as canon
from . import _sputils
from ._sputils import issparse

__all__ = ["getitem"]

_I64 = numpy.dtype(numpy.int64)
_FULL = slice(None)


def _split(key):
    if not isinstance(key, tuple):
        key = (key,)
    if any(k is None for k in key):
        raise IndexError("cuarray.sparse does not support None (newaxis) in indices")
    ell = [i for i, k in enumerate(key) if k is Ellipsis]
    if ell:
        i = ell[0]
        key = key[:i] + (_FULL,) * (2 - (len(key) - 1)) + key[i + 1:]
    if len(key) == 1:
        key = key + (_FULL,)
    if len(key) != 2:
        raise IndexError("too many indices for a 2-D sparse matrix")
    return key


def _normalize(k, n):
    """('int', i) | ('slice', start, stop, step) | ('array', device int64 array of rows)."""
    if _sputils.isintlike(k):
        return ("int", _sputils.normalize_index(k, n))
    if isinstance(k, slice):
        return ("slice",) + k.indices(n)
    if isinstance(k, ndarray):
        if k.ndim != 1:
            raise IndexError("index arrays must be 1-D here")
        if k.dtype.kind == "b":
            if k.size != n:
                raise IndexError("boolean index of length {} does not match dimension {}".format(k.size, n))
            return ("array", flatnonzero(k))
        if k.dtype.kind not in "iu":
            raise IndexError("arrays used as indices must be of integer (or boolean) type")
        idx = k.astype(_I64)
        if idx.size:
            lo, hi = int(idx.min()), int(idx.max())
            if lo < -n or hi >= n:
                raise IndexError("index ({}) out of range".format(lo if lo < -n else hi))
            if lo < 0:
                idx = where(less(idx, 0), add(idx, n), idx)
        return ("array", idx)
    if isinstance(k, (list, numpy.ndarray)):
        h = numpy.asarray(k)
        if h.dtype.kind == "b":
            if h.size != n:
                raise IndexError("boolean index of length {} does not match dimension {}".format(h.size, n))
            h = numpy.flatnonzero(h)
        if h.size and h.dtype.kind not in "iu":
            raise IndexError("arrays used as indices must be of integer (or boolean) type")
        h = h.astype(numpy.int64).reshape(-1)
        if h.size and (h.min() < -n or h.max() >= n):
            raise IndexError("index ({}) out of range".format(h.min() if h.min() < -n else h.max()))
        h = numpy.where(h < 0, h + n, h)
        return ("array", asarray(h))
    raise IndexError("unsupported index {!r}".format(k))


def _scalar(a, i, j):
    seg = a.indptr[i:i + 2].get()
    lo, hi = int(seg[0]), int(seg[1])
    if lo == hi:
        return zeros((), a.dtype)
    idx, vals = a.indices[lo:hi], a.data[lo:hi]
    return sum_(where(equal(idx, j), vals, zeros((), a.dtype)), dtype=a.dtype)


def _select_rows(a, sel):
    """CSR rows of `a` chosen by a normalized index (not 'int')."""
    m, n = a.shape
    if sel[0] == "slice":
        start, stop, step = sel[1:]
        if step == 1:
            stop = max(start, stop)
            seg = a.indptr[start:stop + 1:max(stop - start, 1)].get() if stop > start else None
            if seg is None:
                return a._container("csr")((0, n), dtype=a.dtype)
            lo, hi = int(seg[0]), int(seg[-1])
            indptr = subtract(a.indptr[start:stop + 1], a.indptr.dtype.type(lo))
            return a._from_parts(a.data[lo:hi].copy(), a.indices[lo:hi].copy(), indptr, (stop - start, n),
                                 a._sorted, a._canon)
        idx = arange(start, stop, step, dtype=_I64)
    else:
        idx = sel[1]
    k = idx.size
    lens = take(diff(a.indptr), idx).astype(_I64) if k else zeros((0,), _I64)
    indptr = canon.offsets_from_counts(lens, _I64)
    total = int(indptr[-1])
    out_idt = _sputils.get_index_dtype(maxval=max(k, n, total))
    if total == 0:
        return a._from_parts(empty((0,), a.dtype), empty((0,), out_idt), indptr.astype(out_idt), (k, n),
                             True, True)
    pos = arange(total, dtype=_I64)
    which = subtract(searchsorted(indptr, pos, side="right"), 1)
    src = add(take(a.indptr.astype(_I64), take(idx, which)), subtract(pos, take(indptr, which)))
    return a._from_parts(take(a.data, src), take(a.indices, src).astype(out_idt), indptr.astype(out_idt),
                         (k, n), a._sorted, a._canon)


def _is_full(sel, n) -> bool:
    return sel[0] == "slice" and tuple(sel[1:]) == (0, n, 1)


def getitem(a, key):
    r, c = _split(key)
    if a._format == "csc":
        res = getitem(a.transpose(), (c, r))
        return res.transpose() if hasattr(res, "tocoo") else res
    m, n = a.shape
    rs, cs = _normalize(r, m), _normalize(c, n)
    if rs[0] == "int" and cs[0] == "int":
        return _scalar(a, rs[1], cs[1])
    if a._is_array and (rs[0] == "int" or cs[0] == "int"):
        raise NotImplementedError("an integer index of a sparse array gives a 1-D result, which "
                                  "cuarray.sparse does not support; use A[[i]] or A[i:i+1]")
    if rs[0] == "array" and cs[0] == "array":
        raise NotImplementedError("indexing with two index arrays (element pairs) is not supported")
    if rs[0] == "int":
        rs = ("slice", rs[1], rs[1] + 1, 1)
    if cs[0] == "int":
        cs = ("slice", cs[1], cs[1] + 1, 1)
    out = a if _is_full(rs, m) else _select_rows(a, rs)
    if _is_full(cs, n):
        return out
    # Columns: rows of the transpose (CSC of `out` read as CSR), then back to CSR.
    t = out.tocsc().transpose()
    return _select_rows(t, cs).transpose().tocsr()


def _positions(sel, n):
    """Device int64 positions of a normalized index."""
    if sel[0] == "int":
        return asarray(numpy.array([sel[1]], numpy.int64))
    if sel[0] == "slice":
        return arange(*sel[1:], dtype=_I64)
    return sel[1]


def setitem(a, key, value):
    """`A[key] = value` for CSR/CSC in place: stored entries take the new values (zeros stay as
    explicit zeros); absent cells with nonzero values are inserted (a re-sort, as SciPy warns).
    Rows x columns for at most one index array; element pairs for two of one length."""
    if a._format == "csc":
        c = a.tocsr()
        setitem(c, key, value)
        a._replace(c.tocsc())
        return
    r, c = _split(key)
    m, n = a.shape
    rs, cs = _normalize(r, m), _normalize(c, n)
    rows, cols = _positions(rs, m), _positions(cs, n)
    if rs[0] == "array" and cs[0] == "array":
        if rows.size != cols.size:
            raise IndexError("shape mismatch: indexing arrays could not be broadcast together with shapes "
                             "({},) ({},)".format(rows.size, cols.size))
        grid = (rows.size,)
        R, C = rows, cols
    else:
        grid = (rows.size, cols.size)
        R = repeat(rows, cols.size)
        C = reshape(broadcast_to(cols.reshape(1, -1), grid), (-1,))
    if issparse(value):
        value = value.toarray()
    if isinstance(value, ndarray):
        try:
            vals = broadcast_to(value.astype(a.dtype), grid)
        except ValueError:
            raise ValueError("cannot broadcast shape {} to {}".format(value.shape, grid)) from None
        vals = reshape(vals, (-1,)).copy()
    elif _sputils.isscalarlike(value):
        vals = full((R.size,), value, a.dtype)
    else:
        raise TypeError("cuarray sparse assignment takes a scalar, a cuarray array or a sparse matrix")
    if R.size == 0:
        return
    a.sum_duplicates()
    tk = add(multiply(R, n), C)
    if a.nnz:
        row, col = a._coo_parts()
        keys = add(multiply(row.astype(_I64), n), col.astype(_I64))
        pos = minimum(searchsorted(keys, tk), a.nnz - 1)
        found = equal(take(keys, pos), tk)
        hit = flatnonzero(found)
        if hit.size:
            a.data[take(pos, hit)] = take(vals, hit)
        new = flatnonzero(logical_and(logical_not(found), not_equal(vals, 0)))
    else:
        new = flatnonzero(not_equal(vals, 0))
    if new.size == 0:
        return
    coo = a.tocoo()
    idt = _sputils.get_index_dtype(maxval=max(m, n, a.nnz + new.size))
    row = concatenate([coo.row.astype(idt), take(R, new).astype(idt)])
    col = concatenate([coo.col.astype(idt), take(C, new).astype(idt)])
    data = concatenate([coo.data, take(vals, new)])
    indptr, indices, data = canon.canonical(row, col, data, m, n, idt)
    a._set(data, indices, indptr, (m, n))
    a._sorted = a._canon = True
