"""Products: sparse @ dense vector (SpMV), sparse @ dense matrix (SpMM), sparse @ sparse (SpGEMM),
dense @ sparse, and the matrix power of spmatrix `**`.

SpMV and SpMM use cuSPARSE's generic API (`cuda/libs/cusparse.py`) for float32/64 and
complex64/128, on CSR or CSC directly (COO and DIA convert to CSR); BSR with square blocks uses
the legacy bsrmv/bsrmm (the generic API has no BSR SpMV), other BSR converts to CSR. The matrix's cuSPARSE
descriptor is cached on it (keyed by its arrays' addresses, so replacing an array invalidates
it): an iterative solver pays for descriptor creation and the workspace query once.
Integer and bool values, which the generic API does not take, use gathered products and a
running sum per row (exact in integer arithmetic).

SpGEMM is row-wise (`_spgemm_rowwise`: a hash table per row of C in shared memory, rows binned by
their product counts, the longest rows through the expand-sort path). The expand-sort path
(SPGEMM_METHOD = "expand-sort") makes every product a_ik * b_kj with its key (i, j), sorts the
keys and sums equal ones (`_canonical`). Both: any dtype, canonical CSR, zeros dropped as SciPy
does; synchronisations for the sizes (three row-wise, two expand-sort).
"""

from __future__ import annotations

import numpy

from .._core import device_check as _device_check
from .._core.host_input import reject
from .._core.ndarray import ndarray
from .._creation.basic import empty, zeros
from .._creation.ranges import arange
from .._indexing.inserting import take
from .._logic.comparison import not_equal
from .._math.arithmetic import add, multiply, subtract
from .._math.sums_scan import cumsum, diff
from .._sorting.searchsorted import searchsorted
from ..cuda.libs import cusparse
from . import _canonical as canon
from . import _spgemm_plan, _spgemm_rowwise, _sputils
from ._sputils import issparse
from ._construct import eye

__all__ = ["matmul", "rmatmul", "spmv", "spmm", "spgemm", "matrix_power"]

_I64 = numpy.dtype(numpy.int64)


def _cusparse():
    return cusparse


def _compressed(a):
    return a if a._format in ("csr", "csc") else a.tocsr()


def _descr(a, dt):
    """(descriptor, kept-alive arrays) for the CSR/CSC `a` with values of dtype `dt`. Cached on
    `a` when no cast is needed (a cast copy would go stale if `a.data` changed in place)."""
    key = (a.data.data.ptr, a.indices.data.ptr, a.indptr.data.ptr, a.nnz, a.shape)
    cache = a._descr
    if cache is not None and cache[0] == key and a.data.dtype == dt:
        return cache[1]
    data = a.data if a.data.dtype == dt else a.data.astype(dt)
    arrays = [x if x.flags.c_contiguous else x.copy() for x in (data, a.indices, a.indptr)]
    m, n = a.shape
    d = _cusparse().SpMatDescr(a._format, m, n, a.nnz, arrays[2].data.ptr, arrays[1].data.ptr,
                               arrays[0].data.ptr, a.indices.dtype, dt)
    if a.data.dtype == dt and arrays[0] is a.data and arrays[1] is a.indices and arrays[2] is a.indptr:
        a._descr = (key, (d, arrays))
    return d, arrays


def _with_csc_fallback(a, dt, call):
    """call(descriptor of a); a CSC matrix the library refuses (status NOT_SUPPORTED for an
    algorithm/format pair) is converted to CSR once and cached on it for the next calls."""
    d, keep = _descr(a, dt)
    try:
        call(d)
    except Exception:
        if a._format != "csc":
            raise
        if getattr(a, "_as_csr_cache", None) is None:
            a._as_csr_cache = a.tocsr()
        d, keep = _descr(a._as_csr_cache, dt)
        call(d)


def _segment_rows(prod: ndarray, indptr: ndarray, dt) -> ndarray:
    """Per-row sums of `prod` (rows given by offsets `indptr`) along axis 0, exact for integers:
    differences of one running sum."""
    acc = _I64 if dt.kind == "b" else dt
    run = zeros((prod.shape[0] + 1,) + prod.shape[1:], acc)
    if prod.shape[0]:
        run[1:] = cumsum(prod.astype(acc, copy=False), axis=0, dtype=acc)
    ip = indptr.astype(_I64)
    out = subtract(run[ip[1:]], run[ip[:-1]])
    return not_equal(out, 0) if dt.kind == "b" else out


def _check_devices(a, dense) -> None:
    """cuSPARSE takes raw pointers: refuse a matrix or operand of another device first."""
    if _device_check.active[0]:
        _device_check.check((a.data, a.indices, a.indptr, dense))


_I32 = numpy.dtype(numpy.int32)


def _bsr_on_cusparse(a, dt) -> bool:
    """Whether cuSPARSE's bsrmv/bsrmm take the BSR matrix `a` with values of `dt`. They have no
    rectangular-block form (gebsr has no product), want blocks larger than 1x1 (a 1x1-block BSR
    is its CSR, served by SpMV/SpMM), 32-bit indices, and sorted block columns (their contract;
    `has_sorted_indices` reads the device once and is then remembered)."""
    r, c = a.blocksize
    return (_cusparse().supports(dt) and r == c and r > 1 and a.indices.dtype == _I32
            and a.indptr.dtype == _I32 and a.has_sorted_indices)


def _bsrmm_fits(mb: int, n: int, block_dim: int) -> bool:
    """Within bsrmm's documented limits: at most 524,272 block rows, and right-hand sides
    (524,272 for blocks up to 4x4, 262,136 beyond); fewer than 65,535 rows for blocks over 8x8."""
    return (mb <= 524_272 and n <= (524_272 if block_dim <= 4 else 262_136)
            and (block_dim <= 8 or mb * block_dim < 65_535))


def _bsr_arrays(a, dt, dense):
    _check_devices(a, dense)
    return [x if x.flags.c_contiguous else x.copy()
            for x in (a.data.astype(dt, copy=False), a.indptr, a.indices, dense.astype(dt, copy=False))]


def _bsr_mv(a, x, dt):
    m, n = a.shape
    r = a.blocksize[0]
    data, indptr, indices, xc = _bsr_arrays(a, dt, x)
    y = empty((m,), dt)
    _cusparse().bsrmv(dt.char, m // r, n // r, indices.size, data.data.ptr, indptr.data.ptr, indices.data.ptr, r,
                      xc.data.ptr, y.data.ptr)
    return y


def _bsr_mm(a, b, dt):
    m, n = a.shape
    k = b.shape[1]
    r = a.blocksize[0]
    data, indptr, indices, bc = _bsr_arrays(a, dt, b)
    ct = empty((k, m), dt)   # C column-major: its transpose row-major
    _cusparse().bsrmm(dt.char, m // r, k, n // r, indices.size, data.data.ptr, indptr.data.ptr,
                      indices.data.ptr, r, bc.data.ptr, ct.data.ptr)
    return ct.T


def spmv(a, x: ndarray) -> ndarray:
    """a @ x for a 1-D dense x of length a.shape[1]."""
    m, n = a.shape
    dt = _sputils.upcast(a.dtype, x.dtype)
    if a.nnz == 0 or m == 0 or n == 0:
        return zeros((m,), dt)
    if a._format == "bsr" and _bsr_on_cusparse(a, dt):
        return _bsr_mv(a, x, dt)
    a = _compressed(a)
    cs = _cusparse()
    if cs.supports(dt):
        _check_devices(a, x)
        xc = x.astype(dt, copy=False)
        if not xc.flags.c_contiguous:
            xc = xc.copy()
        y = empty((m,), dt)
        _with_csc_fallback(a, dt, lambda d: cs.spmv(d, cs.OP_N, xc.data.ptr, n, y.data.ptr, m))
        return y
    a = a.tocsr()
    row_vals = multiply(a.data.astype(dt), take(x.astype(dt), a.indices))
    return _segment_rows(row_vals, a.indptr, dt)


def spmm(a, b: ndarray) -> ndarray:
    """a @ b for a 2-D dense b with a.shape[1] rows (row-major for cuSPARSE)."""
    m, n = a.shape
    k = b.shape[1]
    dt = _sputils.upcast(a.dtype, b.dtype)
    if a.nnz == 0 or m == 0 or n == 0 or k == 0:
        return zeros((m, k), dt)
    if a._format == "bsr" and _bsr_on_cusparse(a, dt) and _bsrmm_fits(m // a.blocksize[0], k, a.blocksize[0]):
        return _bsr_mm(a, b, dt)
    a = _compressed(a)
    cs = _cusparse()
    if cs.supports(dt):
        _check_devices(a, b)
        bc = b.astype(dt, copy=False)
        if not bc.flags.c_contiguous:
            bc = bc.copy()
        c = empty((m, k), dt)
        _with_csc_fallback(a, dt, lambda d: cs.spmm(d, cs.OP_N, bc.data.ptr, n, k, c.data.ptr, m, k))
        return c
    a = a.tocsr()
    prod = multiply(a.data.astype(dt).reshape(-1, 1), b.astype(dt)[a.indices])
    return _segment_rows(prod, a.indptr, dt)


# The SpGEMM algorithm: "rowwise" (hash tables per row, _spgemm_rowwise.py; rows too long for them
# through expand-sort), "rowwise-dense" (the same, long rows in dense accumulators) or
# "expand-sort" (every product keyed and radix-sorted). scripts/perf/spgemm_variants.py times all
# three in one process.
SPGEMM_METHOD = "rowwise"
_METHODS = ("rowwise", "rowwise-dense", "expand-sort")


def _expand_sort_parts(a, b, dt):
    """(indptr, indices, data) of a @ b for CSR a, b (neither empty) by expand-sort-compress:
    every product a_ik * b_kj with its key (i, j), the keys sorted and equal keys summed; zeros
    kept. None when there are no products. One synchronisation (the product count)."""
    m, p = a.shape[0], b.shape[1]
    acol = a.indices
    cnt = take(diff(b.indptr).astype(_I64), acol)
    ends = cumsum(cnt)
    total = int(ends[-1])
    if total == 0:
        return None
    pos = arange(total, dtype=_I64)
    which = searchsorted(ends, pos, side="right")       # the a-entry of each product
    bpos = add(take(b.indptr.astype(_I64), take(acol, which)),
                  subtract(pos, take(subtract(ends, cnt), which)))
    del pos
    rows = take(canon.expand(a.indptr, a.nnz, a.indices.dtype), which)
    cols = take(b.indices, bpos)
    vals = multiply(take(a.data.astype(dt, copy=False), which), take(b.data.astype(dt, copy=False), bpos))
    del which, bpos
    idt = _sputils.get_index_dtype(maxval=max(m, p, total))
    return canon.canonical(rows, cols, vals, m, p, idt)


def _expand_sort_rows(a, b, dt):
    """_expand_sort_parts for the row-wise path's long rows (`a` has at least one entry per row)."""
    if a.nnz == 0:
        return (zeros((a.shape[0] + 1,), _I64), empty((0,), _I64), empty((0,), dt))
    parts = _expand_sort_parts(a, b, dt)
    return parts if parts is not None else (zeros((a.shape[0] + 1,), _I64), empty((0,), _I64), empty((0,), dt))


def spgemm(a, b, method=None):
    """a @ b for two sparse matrices: canonical CSR (CSC when both are CSC), zeros dropped (SciPy
    drops sums that are zero). `method`: SPGEMM_METHOD when None."""
    if a.shape[1] != b.shape[0]:
        raise ValueError("dimension mismatch")
    if a._format == "csc" and b._format == "csc":
        return spgemm(b.transpose(), a.transpose(), method).transpose()
    a, b = a.tocsr(), b.tocsr()
    m, p = a.shape[0], b.shape[1]
    dt = _sputils.upcast(a.dtype, b.dtype)
    cls = a._container("csr")
    if a.nnz == 0 or b.nnz == 0:
        return cls((m, p), dtype=dt)
    method = SPGEMM_METHOD if method is None else method
    if method not in _METHODS:
        raise ValueError("unknown SpGEMM method {!r}".format(method))
    if method != "expand-sort" and _spgemm_plan.supports(m, p):
        parts = _spgemm_rowwise.multiply_parts(a, b, dt, _expand_sort_rows, method == "rowwise-dense")
        if parts is None:
            return cls((m, p), dtype=dt)
        indptr, indices, data, _, nzero = parts
        out = cls._from_parts(data, indices, indptr, (m, p), True, True)
        if nzero:
            out.eliminate_zeros()
        return out
    parts = _expand_sort_parts(a, b, dt)
    if parts is None:
        return cls((m, p), dtype=dt)
    indptr, indices, data = parts
    out = cls._from_parts(data, indices, indptr, (m, p), True, True)
    out.eliminate_zeros()
    return out


def matmul(a, other):
    """a @ other (a sparse)."""
    if issparse(other):
        out = spgemm(a, other)
        if a._format == "bsr":  # SciPy's BSR product is BSR: this row blocking, the other's columns
            out = out.tobsr(blocksize=(a.blocksize[0], other.blocksize[1] if other._format == "bsr" else 1))
        return out
    if isinstance(other, ndarray):
        if other.ndim == 0:
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        if other.shape[0] != a.shape[1]:
            raise ValueError("dimension mismatch: {} @ {}".format(a.shape, other.shape))
        if other.ndim == 1:
            return spmv(a, other)
        if other.ndim == 2:
            return spmm(a, other)
        raise ValueError("sparse @ dense takes a 1-D or 2-D dense operand, got {}-D".format(other.ndim))
    if isinstance(other, (numpy.ndarray, list, tuple)):
        raise reject(other, "sparse matmul")
    return NotImplemented


def rmatmul(a, other):
    """other @ a (a sparse, other dense): (a.T @ other.T).T."""
    if isinstance(other, ndarray):
        if other.ndim == 0:
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        if other.shape[-1] != a.shape[0]:
            raise ValueError("dimension mismatch: {} @ {}".format(other.shape, a.shape))
        if other.ndim == 1:
            return spmv(a.transpose(), other)
        if other.ndim == 2:
            return spmm(a.transpose(), other.T).T
        raise ValueError("dense @ sparse takes a 1-D or 2-D dense operand, got {}-D".format(other.ndim))
    if isinstance(other, (numpy.ndarray, list, tuple)):
        raise reject(other, "sparse matmul")
    return NotImplemented


def matrix_power(a, n):
    """a ** n for a square sparse matrix (repeated squaring)."""
    m, k = a.shape
    if m != k:
        raise TypeError("sparse matrix is not square")
    if not _sputils.isintlike(n):
        raise ValueError("exponent must be an integer")
    n = int(n)
    if n < 0:
        raise ValueError("exponent must be >= 0")
    if n == 0:
        return eye(m, dtype=a.dtype, format="csr")
    result, base = None, a.tocsr()
    while True:
        if n & 1:
            result = base if result is None else spgemm(result, base)
        n >>= 1
        if not n:
            return result
        base = spgemm(base, base)
