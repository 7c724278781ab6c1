"""sum, mean, max and min of sparse matrices, in all or along an axis.

Sums along an axis are products with a vector of ones (SpMV; integer matrices take the exact
integer path of `_matmul`). max/min along an axis scatter the stored values per row (column)
with `maximum.at`/`minimum.at` and then count the implicit zeros of rows that are not full, as
SciPy does. Results are dense cuarray arrays: 0-d for axis=None; (1, n)/(m, 1) for spmatrix and
1-D for sparray along an axis (SciPy returns a numpy.matrix, or a sparse result for max/min).
"""

from __future__ import annotations

import numpy

from .._creation.basic import full as full_, ones, zeros
from .._creation.from_data import asarray
from .._creation.ranges import arange
from .._indexing.inserting import take
from .._logic.comparison import equal, greater, less
from .._logic.ops import logical_and
from .._math.arithmetic import add, multiply, subtract, true_divide
from .._math.extrema import maximum, minimum
from .._math.sums import sum as sum_
from .._math.sums_scan import diff
from .._sorting.searching import where
from .._statistics.order import max as max_, min as min_
from . import _sputils

__all__ = ["sparse_sum", "sparse_mean", "sparse_minmax"]


def _axis(axis):
    if axis is None:
        return None
    if not _sputils.isintlike(axis):
        raise TypeError("axis must be an integer or None")
    axis = int(axis)
    if axis < -2 or axis > 1:
        raise ValueError("axis out of range")
    return axis + 2 if axis < 0 else axis


def _shape_result(a, v, axis):
    if a._is_array:
        return v
    return v.reshape(1, -1) if axis == 0 else v.reshape(-1, 1)


def _finish(res, out):
    if out is not None:
        out[...] = res.reshape(out.shape)
        return out
    return res


def sparse_sum(a, axis=None, dtype=None, out=None):
    axis = _axis(axis)
    if a.dtype.kind == "b":
        # a bool cell counts once however many entries store it: duplicates summed (OR) first, in
        # place, as SciPy does (other types' duplicates add up alike either way)
        a._deduped_data()
    res_dtype = _sputils.sum_dtype(a.dtype) if dtype is None else numpy.dtype(dtype)
    if axis is None:
        return _finish(sum_(a.data, dtype=res_dtype) if a.nnz else zeros((), res_dtype), out)
    m, n = a.shape
    if axis == 1:
        v = a @ ones((n,), res_dtype)
    else:
        v = a.transpose() @ ones((m,), res_dtype)
    return _finish(_shape_result(a, v.astype(res_dtype, copy=False), axis), out)


def sparse_mean(a, axis=None, dtype=None, out=None):
    axis = _axis(axis)
    if dtype is None:
        dt = numpy.dtype(numpy.float64) if a.dtype.kind in "biu" else a.dtype
    else:
        dt = numpy.dtype(dtype)
    m, n = a.shape
    count = m * n if axis is None else (n if axis == 1 else m)
    s = sparse_sum(a, axis, dtype=dt)
    return _finish(true_divide(s, count).astype(dt, copy=False), out)


def sparse_minmax(a, op, axis=None, explicit=False):
    """op is xp.maximum or xp.minimum."""
    axis = _axis(axis)
    if a.dtype.kind == "c":
        raise TypeError("max/min of complex sparse matrices is not supported")
    m, n = a.shape
    c = a.tocsr(copy=True)
    c.sum_duplicates()
    zero = zeros((), a.dtype)
    if axis is None:
        if m * n == 0:
            raise ValueError("zero-size array to reduction operation, which has no identity")
        if c.nnz == 0:
            return zero
        red = max_(c.data) if op is maximum else min_(c.data)
        if not explicit and c.nnz < m * n:
            red = op(red, zero)
        return red
    if (m, n)[axis] == 0:
        raise ValueError("zero-size array to reduction operation, which has no identity")
    length = n if axis == 0 else m
    info = numpy.finfo(a.dtype) if a.dtype.kind == "f" else (numpy.iinfo(a.dtype) if a.dtype.kind in "iu" else None)
    if a.dtype.kind == "b":
        ident = op is minimum
    else:
        ident = info.min if op is maximum else info.max
    res = full_((length,), ident, a.dtype)
    row, col = c._coo_parts()
    if c.nnz:
        op.at(res, col if axis == 0 else row, c.data)
    counts = c._getnnz_axis(axis)
    full = (m, n)[axis]
    if explicit:
        res = where(equal(counts, 0), zero, res)
    else:
        res = where(less(counts, full), op(res, zero), res)
    return _shape_result(a, res, axis)


def sparse_argminmax(a, op, axis=None, explicit=False):
    """argmax (op = xp.maximum) or argmin of a sparse matrix with SciPy's rules: implicit zeros
    count unless `explicit`, ties go to the first position in row-major order. axis=None gives a
    Python int (one synchronisation); an axis gives a dense int64 array."""
    axis = _axis(axis)
    if a.dtype.kind == "c":
        raise TypeError("argmax/argmin of complex sparse matrices is not supported")
    m, n = a.shape
    name = "argmax" if op is maximum else "argmin"
    if axis is None and m * n == 0:
        raise ValueError("Cannot apply {} to an empty matrix.".format(name))
    if axis is not None and (m, n)[axis] == 0:
        raise ValueError("Cannot apply {} along a zero-sized dimension.".format(name))
    # (along an axis of a matrix with no rows or no columns on the other: an empty result)
    if axis == 0:
        t = a.transpose().tocsr(copy=True)
        t.sum_duplicates()
        res = _arg_rows(t, op, explicit)
    else:
        c = a.tocsr(copy=True)
        c.sum_duplicates()
        if axis == 1:
            res = _arg_rows(c, op, explicit)
        else:
            # Over everything: the matrix as one row of m * n cells.
            row, col = c._coo_parts()
            flat = add(multiply(row.astype(numpy.int64), n), col.astype(numpy.int64))
            one = c._container("csr")._from_parts(c.data, flat, asarray(numpy.array([0, c.nnz], numpy.int64)),
                                                  (1, m * n), True, True)
            return int(_arg_rows(one, op, explicit)[0])
    return _shape_result(a, res, axis)


def _arg_rows(c, op, explicit):
    """Per-row argmax/argmin of a canonical CSR matrix (int64 column positions)."""
    m, n = c.shape
    if c.nnz == 0:
        return zeros((m,), numpy.int64)
    row = c._majors().astype(numpy.int64)
    col = c.indices.astype(numpy.int64)
    info = numpy.iinfo(c.dtype) if c.dtype.kind in "iu" else None
    if c.dtype.kind == "b":
        ident = op is minimum
    elif info is not None:
        ident = info.min if op is maximum else info.max
    else:
        ident = -numpy.inf if op is maximum else numpy.inf
    best = full_((m,), ident, c.dtype)
    op.at(best, row, c.data)
    hit = equal(c.data, take(best, row))
    first = full_((m,), n, numpy.int64)
    minimum.at(first, row, where(hit, col, n))
    counts = diff(c.indptr).astype(numpy.int64)
    if explicit:
        return where(equal(counts, 0), 0, first)
    # The first implicit zero of each row: the first local position whose column is not it.
    local = subtract(arange(c.nnz, dtype=numpy.int64), take(c.indptr.astype(numpy.int64), row))
    gap = minimum(counts, n)
    minimum.at(gap, row, where(greater(col, local), local, n))
    zero = zeros((), c.dtype)
    worse = less(best, zero) if op is maximum else greater(best, zero)
    tie = equal(best, zero)
    has_gap = less(counts, n)
    res = where(logical_and(has_gap, worse), gap,
                   where(logical_and(has_gap, tie), minimum(gap, first), first))
    return where(equal(counts, 0), 0, res)
