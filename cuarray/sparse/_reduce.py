"""sum, mean, max and min of sparse matrices, in all or along an axis.

Sums along an axis are products with a vector of ones (SpMV; integer matrices take the exact
integer path of `_matmul`). max/min along an axis scatter the stored values per row (column)
with `maximum.at`/`minimum.at` and then count the implicit zeros of rows that are not full, as
SciPy does. Results are dense cuarray arrays: 0-d for axis=None; (1, n)/(m, 1) for spmatrix and
1-D for sparray along an axis (SciPy returns a numpy.matrix, or a sparse result for max/min).
"""

from __future__ import annotations

import numpy

from . import _sputils
from . import _xp as xp

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
    res_dtype = _sputils.sum_dtype(a.dtype) if dtype is None else numpy.dtype(dtype)
    if axis is None:
        return _finish(xp.sum(a.data, dtype=res_dtype) if a.nnz else xp.zeros((), res_dtype), out)
    m, n = a.shape
    if axis == 1:
        v = a @ xp.ones((n,), res_dtype)
    else:
        v = a.transpose() @ xp.ones((m,), res_dtype)
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
    return _finish(xp.true_divide(s, count).astype(dt, copy=False), out)


def sparse_minmax(a, op, axis=None, explicit=False):
    """op is xp.maximum or xp.minimum."""
    axis = _axis(axis)
    if a.dtype.kind == "c":
        raise TypeError("max/min of complex sparse matrices is not supported")
    m, n = a.shape
    c = a.tocsr(copy=True)
    c.sum_duplicates()
    zero = xp.zeros((), a.dtype)
    if axis is None:
        if m * n == 0:
            raise ValueError("zero-size array to reduction operation, which has no identity")
        if c.nnz == 0:
            return zero
        red = xp.max(c.data) if op is xp.maximum else xp.min(c.data)
        if not explicit and c.nnz < m * n:
            red = op(red, zero)
        return red
    if (m, n)[axis] == 0:
        raise ValueError("zero-size array to reduction operation, which has no identity")
    length = n if axis == 0 else m
    info = numpy.finfo(a.dtype) if a.dtype.kind == "f" else (numpy.iinfo(a.dtype) if a.dtype.kind in "iu" else None)
    if a.dtype.kind == "b":
        ident = op is xp.minimum
    else:
        ident = info.min if op is xp.maximum else info.max
    res = xp.full((length,), ident, a.dtype)
    row, col = c._coo_parts()
    if c.nnz:
        op.at(res, col if axis == 0 else row, c.data)
    counts = c._getnnz_axis(axis)
    full = (m, n)[axis]
    if explicit:
        res = xp.where(xp.equal(counts, 0), zero, res)
    else:
        res = xp.where(xp.less(counts, full), op(res, zero), res)
    return _shape_result(a, res, axis)


def sparse_argminmax(a, op, axis=None, explicit=False):
    """argmax (op = xp.maximum) or argmin of a sparse matrix with SciPy's rules: implicit zeros
    count unless `explicit`, ties go to the first position in row-major order. axis=None gives a
    Python int (one synchronisation); an axis gives a dense int64 array."""
    axis = _axis(axis)
    if a.dtype.kind == "c":
        raise TypeError("argmax/argmin of complex sparse matrices is not supported")
    m, n = a.shape
    if m * n == 0:
        raise ValueError("cannot apply argmax/argmin to an empty sparse matrix")
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
            flat = xp.add(xp.multiply(row.astype(numpy.int64), n), col.astype(numpy.int64))
            one = c._container("csr")._from_parts(c.data, flat, xp.asarray(numpy.array([0, c.nnz], numpy.int64)),
                                                  (1, m * n), True, True)
            return int(_arg_rows(one, op, explicit)[0])
    return _shape_result(a, res, axis)


def _arg_rows(c, op, explicit):
    """Per-row argmax/argmin of a canonical CSR matrix (int64 column positions)."""
    m, n = c.shape
    if c.nnz == 0:
        return xp.zeros((m,), numpy.int64)
    row = c._majors().astype(numpy.int64)
    col = c.indices.astype(numpy.int64)
    info = numpy.iinfo(c.dtype) if c.dtype.kind in "iu" else None
    if c.dtype.kind == "b":
        ident = op is xp.minimum
    elif info is not None:
        ident = info.min if op is xp.maximum else info.max
    else:
        ident = -numpy.inf if op is xp.maximum else numpy.inf
    best = xp.full((m,), ident, c.dtype)
    op.at(best, row, c.data)
    hit = xp.equal(c.data, xp.take(best, row))
    first = xp.full((m,), n, numpy.int64)
    xp.minimum.at(first, row, xp.where(hit, col, n))
    counts = xp.diff(c.indptr).astype(numpy.int64)
    if explicit:
        return xp.where(xp.equal(counts, 0), 0, first)
    # The first implicit zero of each row: the first local position whose column is not it.
    local = xp.subtract(xp.arange(c.nnz, dtype=numpy.int64), xp.take(c.indptr.astype(numpy.int64), row))
    gap = xp.minimum(counts, n)
    xp.minimum.at(gap, row, xp.where(xp.greater(col, local), local, n))
    zero = xp.zeros((), c.dtype)
    worse = xp.less(best, zero) if op is xp.maximum else xp.greater(best, zero)
    tie = xp.equal(best, zero)
    has_gap = xp.less(counts, n)
    res = xp.where(xp.logical_and(has_gap, worse), gap,
                   xp.where(xp.logical_and(has_gap, tie), xp.minimum(gap, first), first))
    return xp.where(xp.equal(counts, 0), 0, res)
