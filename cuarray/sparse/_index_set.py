"""`A[key] = x` of CSR and CSC matrices in place, SciPy's semantics.

The key becomes two broadcast grids of (row, column) targets as SciPy forms them: a slice is a
range along its axis (a column of rows, a row of columns), an integer one position, index arrays
broadcast together. A dense `x` broadcasts to the grid; every target takes its value, absent
cells are inserted even where the value is zero (SciPy's explicit zeros), the last of repeated
targets wins. A sparse `x` first zeroes the stored targets (structure kept), then sets its own
stored entries. Stored targets are found by a binary search of their (major, minor) keys in the
entries' keys; the insertions cost one re-sort.
"""

from __future__ import annotations

import numpy

from .._core.host_input import as_parameter
from .._core.ndarray import ndarray
from .._creation.basic import full
from .._creation.from_data import asarray
from .._creation.ranges import arange
from .._indexing.inserting import take
from .._logic.comparison import not_equal
from .._logic.ops import logical_not
from .._manipulation.dims import broadcast_to
from .._manipulation.joining import concatenate
from .._manipulation.shape import reshape
from .._math.arithmetic import add, multiply
from .._sorting.searching_nonzero import flatnonzero
from .._sorting.sorting import argsort
from . import _canonical as canon
from . import _sputils
from ._index import _normalize, _split, entry_keys, find_keys
from ._sputils import issparse

__all__ = ["setitem"]

_I64 = numpy.dtype(numpy.int64)


def _axis(sel, slice_shape):
    """Device int64 positions of a normalized index: a slice as `slice_shape`, an integer 1-D."""
    if sel[0] == "int":
        return asarray(numpy.array([sel[1]], numpy.int64))
    if sel[0] == "slice":
        return reshape(arange(*sel[1:], dtype=_I64), slice_shape)
    return sel[1]


def _grid(a, key):
    """The broadcast (row, column) target grids of `key`, as SciPy's __setitem__ forms them."""
    r, c = _split(key, a.shape)
    m, n = a.shape
    rs, cs = _normalize(r, m), _normalize(c, n)
    R = _axis(rs, (-1, 1))
    C = _axis(cs, (1, -1))
    if cs[0] == "slice" and R.ndim == 1:
        R = reshape(R, (-1, 1))
    try:
        shape = numpy.broadcast_shapes(R.shape, C.shape)
    except ValueError:
        raise IndexError("shape mismatch: indexing arrays could not be broadcast together with shapes "
                         "{} {}".format(R.shape, C.shape)) from None
    return broadcast_to(R, shape), broadcast_to(C, shape), rs[0] == cs[0] == "int"


def _dense_value(value, dtype):
    if issparse(value):
        value = value.toarray()
    if isinstance(value, ndarray):
        return value.astype(dtype, copy=False)
    # A scalar, a host list or a NumPy array: converted as SciPy converts it (numpy.asarray with
    # the matrix's dtype, its errors), then copied: a small literal of the program (cuarray's
    # host-input rule).
    host = numpy.asarray(value, dtype=dtype)
    if host.ndim == 0:
        return full((), host[()], dtype)
    return as_parameter(host, "sparse.__setitem__")


def setitem(a, key, value):
    """`A[key] = value` in place for CSR/CSC (see the module docstring)."""
    R, C, single = _grid(a, key)
    if single:
        x = _dense_value(value, a.dtype)
        if x.size != 1:
            raise ValueError("Trying to assign a sequence to an item")
        _set_many(a, reshape(R, (-1,)), reshape(C, (-1,)), reshape(x, (-1,)))
        return
    if issparse(value):
        _set_sparse(a, R, C, value)
        return
    x = _dense_value(value, a.dtype)
    if x.squeeze().shape != R.squeeze().shape:
        try:
            x = broadcast_to(x, R.shape)
        except ValueError:
            raise ValueError("cannot broadcast shape {} to {}".format(x.shape, R.shape)) from None
    if x.size == 0:
        return
    _set_many(a, reshape(R, (-1,)), reshape(C, (-1,)), reshape(x, (-1,)))


def _set_sparse(a, R, C, value):
    """SciPy's sparse right-hand side: stored targets zeroed, then `value`'s stored entries set
    at the targets they map to (a 1-D grid counts as one row; a length-1 axis of `value`
    broadcasts)."""
    if 0 in value.shape:
        return
    if R.ndim == 1:
        R, C = reshape(R, (1, -1)), reshape(C, (1, -1))
    M, N = R.shape
    xm, xn = value.shape
    if not ((xm == M or (xm == 1 and M != 1)) and (xn == N or (xn == 1 and N != 1))):
        raise ValueError("shape mismatch in assignment")
    x = value.tocoo(copy=True)
    x.sum_duplicates()
    Rf, Cf = reshape(R, (-1,)), reshape(C, (-1,))
    _zero_stored(a, Rf, Cf)
    if x.nnz == 0:
        return
    r, c, v = x.row.astype(_I64), x.col.astype(_I64), x.data.astype(a.dtype)
    if xm == 1 and M != 1:  # the one row of `value` for every row of the grid
        r = reshape(broadcast_to(reshape(arange(M, dtype=_I64), (-1, 1)), (M, r.size)), (-1,))
        c = reshape(broadcast_to(c, (M, c.size)), (-1,))
        v = reshape(broadcast_to(v, (M, v.size)), (-1,))
    if xn == 1 and N != 1:
        r = reshape(broadcast_to(reshape(r, (-1, 1)), (r.size, N)), (-1,))
        c = reshape(broadcast_to(arange(N, dtype=_I64), (c.size, N)), (-1,))
        v = reshape(broadcast_to(reshape(v, (-1, 1)), (v.size, N)), (-1,))
    flat = add(multiply(r, N), c)
    _set_many(a, take(Rf, flat), take(Cf, flat), v)


def _zero_stored(a, R, C):
    a.sum_duplicates()
    if a.nnz == 0 or R.size == 0:
        return
    pos, found = find_keys(*entry_keys(a, R, C))
    hit = flatnonzero(found)
    if hit.size:
        a.data[take(pos, hit)] = a.dtype.type(0)


def _set_many(a, R, C, vals):
    """Target (R[i], C[i]) takes vals[i], the last of repeated targets winning: stored entries in
    place, the others inserted (one re-sort)."""
    if R.size == 0:
        return
    a.sum_duplicates()
    keys, tk = entry_keys(a, R, C)
    order = argsort(tk, kind="stable")
    tk, R, C, vals = take(tk, order), take(R, order), take(C, order), take(vals, order)
    if tk.size > 1:  # the last of each run of equal keys
        last = flatnonzero(concatenate([not_equal(tk[1:], tk[:-1]), full((1,), True, numpy.bool_)]))
        tk, R, C, vals = take(tk, last), take(R, last), take(C, last), take(vals, last)
    if a.nnz:
        pos, found = find_keys(keys, tk)
        hit = flatnonzero(found)
        if hit.size:
            a.data[take(pos, hit)] = take(vals, hit)
        new = flatnonzero(logical_not(found))
    else:
        new = arange(tk.size, dtype=_I64)
    if new.size == 0:
        return
    m, n = a.shape
    row, col = a._coo_parts()
    idt = _sputils.get_index_dtype(maxval=max(m, n, a.nnz + new.size))
    major, minor = a._swap((concatenate([row.astype(idt), take(R, new).astype(idt)]),
                            concatenate([col.astype(idt), take(C, new).astype(idt)])))
    nmaj, nmin = a._swap((m, n))
    indptr, indices, data = canon.canonical(major, minor, concatenate([a.data, take(vals, new)]), nmaj, nmin, idt)
    a._set(data, indices, indptr, (m, n))
    a._sorted = a._canon = True
