"""`A[i, j]`, `A[rows]`, `A[:, cols]`, `A[rows, cols]` of CSR and CSC matrices, SciPy's semantics.

Rows of CSR are selected by gathering their entries: the new offsets are a running sum of the
chosen rows' lengths (one synchronisation: the total), and each output entry finds its row by a
binary search in them. A contiguous row slice is a view-sized copy of one range. Columns are
rows of the transpose (a re-sort). CSC indexes as the CSR matrix of its transpose. Index arrays
taken together (`A[[0, 1], [2, 3]]`) pick elements by a binary search of each (row, column) key
in the stored entries' keys.

Assignment (`setitem`) updates stored entries in place and inserts new ones with one re-sort.
Not supported: results of one dimension that SciPy gives as sparse (an integer index of a sparse
*array*).
"""

from __future__ import annotations

import numpy

from .._core.ndarray import ndarray
from .._creation.basic import empty, zeros
from .._creation.from_data import asarray
from .._creation.ranges import arange
from .._indexing.inserting import take
from .._logic.comparison import equal, less
from .._manipulation.dims import broadcast_to
from .._manipulation.shape import reshape
from .._math.arithmetic import add, subtract
from .._math.extrema import minimum
from .._math.sums import sum as sum_
from .._math.sums_scan import diff
from .._sorting.searching import where
from .._sorting.searching_nonzero import flatnonzero, nonzero
from .._sorting.searchsorted import searchsorted
from .._statistics.histograms import minmax
from . import _canonical as canon
from . import _sputils

__all__ = ["getitem", "coo_getitem"]

_I64 = numpy.dtype(numpy.int64)
_FULL = slice(None)


def _mask_pairs(key, shape):
    """A 2-D boolean mask of the matrix's shape as SciPy reads it: the (row, column) pairs of its
    True cells; other keys unchanged."""
    k = key[0] if isinstance(key, tuple) and len(key) == 1 else key
    if isinstance(k, ndarray):
        if k.dtype.kind != "b" or k.ndim != 2:
            return key
        pairs = nonzero
    elif isinstance(k, (list, numpy.ndarray)):
        try:
            k = numpy.asarray(k)
        except ValueError:  # ragged: not a mask
            return key
        if k.dtype.kind != "b" or k.ndim != 2:
            return key
        pairs = numpy.nonzero
    else:
        return key
    if k.shape != tuple(shape):
        raise IndexError("bool index has shape {} instead of {}".format(k.shape, tuple(shape)))
    return tuple(pairs(k))


def _split(key, shape):
    key = _mask_pairs(key, shape)
    if not isinstance(key, tuple):
        key = (key,)
    if any(k is None for k in key):
        raise IndexError("cuarray.sparse does not support None (newaxis) in indices")
    ell = [i for i, k in enumerate(key) if k is Ellipsis]
    if ell:
        i = ell[0]
        key = key[:i] + (_FULL,) * (2 - (len(key) - 1)) + key[i + 1:]
    key = key + (_FULL,) * (2 - len(key))  # A[()] and A[i] as SciPy: the missing axes whole
    if len(key) != 2:
        raise IndexError("too many indices for a 2-D sparse matrix")
    return key


def _in_range(lo, hi, n):
    if lo < -n or hi >= n:
        raise IndexError("index ({}) out of range".format(hi if hi >= n else lo))


def _normalize(k, n):
    """('int', i) | ('slice', start, stop, step) | ('array', device int64 array of positions, 1-D
    or 2-D as SciPy takes them)."""
    if _sputils.isintlike(k):
        return ("int", _sputils.normalize_index(k, n))
    if isinstance(k, slice):
        return ("slice",) + k.indices(n)
    if isinstance(k, ndarray):
        if k.ndim == 0 and k.dtype.kind in "iu":  # a 0-d integer array is an integer, as in SciPy
            return ("int", _sputils.normalize_index(int(k), n))
        if k.dtype.kind == "b":
            if k.shape != (n,):
                raise IndexError("bool index has shape {} instead of ({},)".format(k.shape, n))
            return ("array", flatnonzero(k))
        if k.size and k.dtype.kind not in "iu":
            raise IndexError("arrays used as indices must be of integer (or boolean) type")
        if k.ndim not in (1, 2):
            raise IndexError("Index dimension must be 1 or 2. Got {}".format(k.ndim))
        idx = k.astype(_I64)
        if idx.size:
            lo, hi = (int(v) for v in minmax(idx))  # one pass, one read
            _in_range(lo, hi, n)
            if lo < 0:
                idx = where(less(idx, 0), add(idx, n), idx)
        return ("array", idx)
    if isinstance(k, (list, numpy.ndarray)):
        h = numpy.asarray(k)
        if h.dtype.kind == "b":
            if h.shape != (n,):
                raise IndexError("bool index has shape {} instead of ({},)".format(h.shape, n))
            h = numpy.flatnonzero(h)
        if h.ndim == 0 and h.dtype.kind in "iu":
            return ("int", _sputils.normalize_index(int(h), n))
        if h.size and h.dtype.kind not in "iu":
            raise IndexError("arrays used as indices must be of integer (or boolean) type")
        if h.ndim not in (1, 2):
            raise IndexError("Index dimension must be 1 or 2. Got {}".format(h.ndim))
        h = h.astype(numpy.int64)
        if h.size:
            _in_range(int(h.min()), int(h.max()), n)
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
    r, c = _split(key, a.shape)
    m, n = a.shape
    rs, cs = _normalize(r, m), _normalize(c, n)
    if rs[0] == "int" and cs[0] == "int":
        return _scalar(a, *a._swap((rs[1], cs[1])))
    if (rs[0] == cs[0] == "array") or any(s[0] == "array" and s[1].ndim == 2 for s in (rs, cs)):
        return _pairs(a, rs, cs)
    if a._is_array and (rs[0] == "int" or cs[0] == "int"):
        raise NotImplementedError("an integer index of a sparse array gives a 1-D result, which "
                                  "cuarray.sparse does not support; use A[[i]] or A[i:i+1]")
    return _outer(a, rs, cs)


def _outer(a, rs, cs):
    """Rows x columns of normalized indices (no integer pair), a new matrix as SciPy's."""
    if a._format == "csc":
        return _outer(a.transpose(), cs, rs).transpose()
    m, n = a.shape
    if rs[0] == "int":
        rs = ("slice", rs[1], rs[1] + 1, 1)
    if cs[0] == "int":
        cs = ("slice", cs[1], cs[1] + 1, 1)
    if _is_full(rs, m) and _is_full(cs, n):
        return a.copy()
    out = a if _is_full(rs, m) else _select_rows(a, rs)
    if _is_full(cs, n):
        return out
    # Columns: rows of the transpose (CSC of `out` read as CSR), then back to CSR.
    t = out.tocsc().transpose()
    return _select_rows(t, cs).transpose().tocsr()


def _pairs(a, rs, cs):
    """Index arrays taken together, as SciPy: a column (k, 1) with a row (m,) or (1, m) selects
    rows x columns; otherwise the arrays (and an integer) broadcast to one shape and pick the
    elements (A[R[i], C[i]]): a dense 1 x N matrix (N for a sparse array) for a 1-D shape, a
    sparse matrix of the shape for a 2-D one."""
    if "slice" in (rs[0], cs[0]):
        raise IndexError("Indexing that leads to >2D is not supported by {} format".format(a._format))
    R, C = rs[1], cs[1]
    if (rs[0] == "array" and R.ndim == 2 and R.shape[1] == 1
            and cs[0] == "array" and (C.ndim == 1 or C.shape[0] == 1)):
        return _outer(a, ("array", reshape(R, (-1,))), ("array", reshape(C, (-1,))))
    shapes = [x.shape if s[0] == "array" else () for s, x in ((rs, R), (cs, C))]
    try:
        shape = numpy.broadcast_shapes(*shapes)
    except ValueError:
        raise IndexError("shape mismatch: indexing arrays could not be broadcast together with shapes "
                         "{} {}".format(*shapes)) from None
    size = int(numpy.prod(shape))
    if len(shape) == 1 and size == 0:
        if a._is_array:
            raise NotImplementedError("indexing a sparse array with empty index arrays gives a 1-D "
                                      "result, which cuarray.sparse does not support")
        return a._container(a._format)((1, 0), dtype=a.dtype)
    R = reshape(broadcast_to(asarray(R), shape), (-1,))
    C = reshape(broadcast_to(asarray(C), shape), (-1,))
    vals = _sample(a, R, C)
    if len(shape) == 2:
        # SciPy reshapes the row (column) an integer picks to the shape of a 2-D index array, and
        # a reshape gives COO
        natural = {"int": (1, size)}.get(rs[0], (size, 1)) if "int" in (rs[0], cs[0]) else shape
        return a._container(a._format if natural == shape else "coo")(reshape(vals, shape))
    return vals if a._is_array else reshape(vals, (1, size))


def _sample(a, R, C):
    """A[R[i], C[i]] for device int64 positions, zero where nothing is stored (duplicates summed):
    a binary search of each (major, minor) key in the sorted keys of the stored entries."""
    if R.size == 0 or a.nnz == 0:
        return zeros((R.size,), a.dtype)
    if not a.has_canonical_format:
        a = a.copy()
        a.sum_duplicates()
    pos, found = find_keys(*entry_keys(a, R, C))
    return where(found, take(a.data, pos), zeros((), a.dtype))


def entry_keys(a, R, C):
    """(the stored entries' keys, the targets' keys) in storage order, major * n_minor + minor:
    sorted when `a` is canonical."""
    nmaj, nmin = a._swap(a.shape)
    maj, mnr = a._swap((R, C))
    return canon.keys_of(a._majors(), a.indices, nmaj, nmin), canon.keys_of(maj, mnr, nmaj, nmin)


def find_keys(keys, tk):
    """(positions, found mask) of the target keys `tk` among the sorted, non-empty `keys`."""
    pos = minimum(searchsorted(keys, tk), keys.size - 1)
    return pos, equal(take(keys, pos), tk)


def coo_getitem(a, key):
    """`coo_array[key]` for SciPy's 2-D results, read from the CSR form (SciPy's COO gives n-D and
    1-D sparse results where CSR gives dense or raises: those raise NotImplementedError here)."""
    try:
        res = getitem(a.tocsr(), key)
    except IndexError as exc:
        if str(exc).startswith("Indexing that leads to >2D"):
            raise NotImplementedError("SciPy's result is an n-D coo_array, which cuarray.sparse does not "
                                      "support") from None
        raise
    if hasattr(res, "tocoo"):
        return res.tocoo()
    if res.ndim == 1:
        raise NotImplementedError("SciPy's result is a 1-D coo_array, which cuarray.sparse does not support")
    return res
