"""Row-wise (Gustavson) SpGEMM of CSR matrices with per-row hash tables in shared memory
(kernels in templates/spgemm.cu, plan in _spgemm_plan.py).

Why: the expand-sort path gives each of the products a 64-bit key and radix-sorts them with
their values (for the bench's 1e6 x 1e6 matrices of 1e7 nonzeros, 1e8 products: many passes over
1.6 GB); here each product is read once per phase and summed in shared memory, and only C is
written. Steps: bin the rows by their product counts (one synchronisation: the bin sizes), count
each row's distinct columns per bin, scan the counts into C's indptr (one synchronisation: nnz),
accumulate and write each row sorted, read the zero count (one synchronisation) and drop the
explicit zeros as SciPy does. Rows too long for a shared-memory table go through the expand-sort
path as a sub-matrix of A and are copied into place, or (method "rowwise-dense") are summed in a
dense accumulator of p values per block and written in the column order of a bitmap of their
columns.
"""

from __future__ import annotations

import functools
import pathlib

import numpy

from .._creation.basic import empty, zeros
from .._math.sums_scan import cumsum, diff
from ..cuda.kernel_family import KernelFamily
from . import _index
from . import _spgemm_plan as plan
from . import _sputils

__all__ = ["source", "multiply_parts"]

_DIR = pathlib.Path(__file__).parent / "templates"
_I32, _I64, _U64 = numpy.dtype(numpy.int32), numpy.dtype(numpy.int64), numpy.dtype(numpy.uint64)


def source() -> str:
    return (_DIR / "spgemm_bins.cuh").read_text() + (_DIR / "spgemm.cu").read_text()


SPGEMM = KernelFamily("cuarray_spgemm", source, kernels=(
    "cuarray_spgemm_bin_rows<I>(const I* a_ptr, const I* a_idx, const I* b_ptr, const long long m, "
    "const long long p, const int max_bin, unsigned char* bins, unsigned long long* counts)",
    "cuarray_spgemm_scatter_rows(const unsigned char* bins, const long long m, "
    "const unsigned long long* counts, unsigned long long* fill, int* rows)",
    "cuarray_spgemm_symbolic<I, TABLE, WG>(const I* a_ptr, const I* a_idx, const I* b_ptr, const I* b_idx, "
    "const int* rows, const int nrows, long long* row_nnz)",
    "cuarray_spgemm_numeric<T, I, O, TABLE, WG>(const I* a_ptr, const I* a_idx, const T* a_val, "
    "const I* b_ptr, const I* b_idx, const T* b_val, const int* rows, const int nrows, const O* c_ptr, "
    "O* c_idx, T* c_val, unsigned long long* zeros)",
    "cuarray_spgemm_copy_rows<T, O>(const O* p_ptr, const O* p_idx, const T* p_val, const int* rows, "
    "const O* c_ptr, O* c_idx, T* c_val, unsigned long long* zeros)",
    "cuarray_spgemm_dense_symbolic<I>(const I* a_ptr, const I* a_idx, const I* b_ptr, const I* b_idx, "
    "const int* rows, const long long words, unsigned* bitmap, long long* row_nnz)",
    "cuarray_spgemm_dense_numeric<T, I, O>(const I* a_ptr, const I* a_idx, const T* a_val, const I* b_ptr, "
    "const I* b_idx, const T* b_val, const int* rows, const int nrows, const long long words, "
    "const unsigned* bitmap, const long long p, typename cuarray::spgemm::Acc<T>::type* dense, "
    "const O* c_ptr, O* c_idx, T* c_val, unsigned long long* zeros)",
))


@functools.lru_cache(maxsize=None)
def _roles(dt, idx_in, idx_out) -> tuple:
    """(roles, name expressions) of one instantiation (`plan.kernel_names`, formatted once)."""
    names = plan.kernel_names(dt, idx_in, idx_out)
    return tuple(names), tuple(names.values())


def _kernels(dt, idx_in, idx_out) -> dict:
    """{role: Kernel} of one instantiation, compiled together."""
    roles, specs = _roles(dt, idx_in, idx_out)
    return dict(zip(roles, SPGEMM.get(*specs)))


def _c(x, dtype):
    """`x` as a C-contiguous array of `dtype` (itself when it already is)."""
    x = x.astype(dtype, copy=False)
    return x if x.flags.c_contiguous else x.copy()


def multiply_parts(a, b, dt, expand_sort, dense_long_rows=False):
    """(indptr, indices, data, index dtype, zeros) of C = a @ b for CSR `a`, `b` (neither empty)
    with values of `dt`: rows sorted, no duplicates, explicit zeros kept and counted. None when
    there are no products. Rows too long for shared memory: dense accumulators when
    `dense_long_rows` and they fit (_spgemm_plan.dense_plan), else `expand_sort(sub_a, b, dt)`,
    (indptr, indices, data) of the canonical product of those rows, zeros kept."""
    m, p = a.shape[0], b.shape[1]
    idx_in = _I64 if max(x.dtype.itemsize for x in (a.indptr, a.indices, b.indptr, b.indices)) > 4 else _I32
    a_ptr, a_idx, b_ptr, b_idx = (_c(x, idx_in) for x in (a.indptr, a.indices, b.indptr, b.indices))
    mb = plan.table_bin_limit(dt)
    # Kernels for int32 output first: bin_rows, scatter_rows and the symbolic ones do not use it.
    ks = _kernels(dt, idx_in, _I32)
    bins = empty((m,), numpy.uint8)
    counts = zeros((plan.NBINS + 1,), _U64)
    ks["bin"].launch(-(-m // 8), 256, a_ptr.data.ptr, a_idx.data.ptr, b_ptr.data.ptr, m, p, mb, bins.data.ptr,
                     counts.data.ptr)
    rows = empty((m,), _I32)
    fill = zeros((plan.NBINS,), _U64)
    ks["scatter"].launch(-(-m // 256), 256, bins.data.ptr, m, counts.data.ptr, fill.data.ptr, rows.data.ptr)
    host = counts.get().astype(numpy.int64)  # synchronises: the bin sizes and the product count
    del bins, fill
    total = int(host[plan.NBINS])
    if total == 0:
        return None
    idt = _sputils.get_index_dtype(maxval=max(m, p, total))  # as the expand-sort path chooses it
    starts = numpy.concatenate(([0], numpy.cumsum(host[:plan.NBINS])))
    row_nnz = zeros((m,), _I64)
    for bn in range(1, mb + 1):
        nrows = int(host[bn])
        if nrows:
            threads, rb, shared = plan.launch_shape(bn, plan.symbolic_row_bytes(bn))
            ks[("symbolic", bn)].launch(-(-nrows // rb), threads, a_ptr.data.ptr, a_idx.data.ptr, b_ptr.data.ptr,
                                        b_idx.data.ptr, rows.data.ptr + 4 * int(starts[bn]), nrows,
                                        row_nnz.data.ptr, shared_mem=shared)
    nbig = int(host[plan.BIG])
    big_rows = rows[int(starts[plan.BIG]):int(starts[plan.BIG]) + nbig]
    dense = plan.dense_plan(nbig, p, dt) if nbig and dense_long_rows else None
    part = None
    if dense is not None:
        words, nblocks = dense
        bitmap = zeros((nbig * words,), numpy.uint32)
        ks["dense_symbolic"].launch(nbig, 256, a_ptr.data.ptr, a_idx.data.ptr, b_ptr.data.ptr, b_idx.data.ptr,
                                    big_rows.data.ptr, words, bitmap.data.ptr, row_nnz.data.ptr)
    elif nbig:
        sub = _index._select_rows(a, ("array", big_rows.astype(_I64)))
        p_ptr, p_idx, p_val = expand_sort(sub, b, dt)
        row_nnz[big_rows] = diff(p_ptr).astype(_I64)
        part = (_c(p_ptr, idt), _c(p_idx, idt), _c(p_val, dt))
    indptr = zeros((m + 1,), idt)
    indptr[1:] = cumsum(row_nnz, dtype=idt)
    del row_nnz
    nnz = int(indptr[-1])  # synchronises
    if idt != _I32:
        ks = _kernels(dt, idx_in, idt)
    indices = empty((nnz,), idt)
    data = empty((nnz,), dt)
    zero_count = zeros((1,), _U64)
    a_val, b_val = _c(a.data, dt), _c(b.data, dt)
    for bn in range(1, mb + 1):
        nrows = int(host[bn])
        if nrows:
            threads, rb, shared = plan.launch_shape(bn, plan.numeric_row_bytes(bn, dt))
            ks[("numeric", bn)].launch(-(-nrows // rb), threads, a_ptr.data.ptr, a_idx.data.ptr, a_val.data.ptr,
                                       b_ptr.data.ptr, b_idx.data.ptr, b_val.data.ptr,
                                       rows.data.ptr + 4 * int(starts[bn]), nrows, indptr.data.ptr,
                                       indices.data.ptr, data.data.ptr, zero_count.data.ptr, shared_mem=shared)
    if dense is not None:
        words, nblocks = dense
        acc = zeros((nblocks * p * plan.acc_bytes(dt),), numpy.uint8)  # zero bits: 0 in every type
        ks["dense_numeric"].launch(nblocks, 256, a_ptr.data.ptr, a_idx.data.ptr, a_val.data.ptr, b_ptr.data.ptr,
                                   b_idx.data.ptr, b_val.data.ptr, big_rows.data.ptr, nbig, words, bitmap.data.ptr,
                                   p, acc.data.ptr, indptr.data.ptr, indices.data.ptr, data.data.ptr,
                                   zero_count.data.ptr)
    elif part is not None:
        p_ptr, p_idx, p_val = part
        ks["copy"].launch(nbig, 256, p_ptr.data.ptr, p_idx.data.ptr, p_val.data.ptr, big_rows.data.ptr,
                          indptr.data.ptr, indices.data.ptr, data.data.ptr, zero_count.data.ptr)
    nzero = int(zero_count.get()[0])  # synchronises
    return indptr, indices, data, idt, nzero
