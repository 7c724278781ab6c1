"""cuSPARSE generic API: one handle per (device, thread) bound to the current stream, cached
sparse-matrix descriptors, cached dense descriptors, SpMV and SpMM; the legacy BSR products
(bsrmv, bsrmm), which the generic API does not offer for BSR.

The only importer of `nvmath.bindings.cusparse` (imported on first use). Pointers are ints; alpha
and beta are host scalars (the handle's default HOST pointer mode), kept alive here per dtype.

Descriptors: `cusparseCreateCsr` and friends are host-only but cost a few microseconds each, and
the buffer-size query costs more; a solver calls SpMV with the same matrix every iteration, so
`SpMatDescr` objects are cached by the caller (the sparse matrix keeps one per (pointers, shape))
and the buffer size is cached on it per operation. Dense descriptors are cached by address
(`_DenseCache`).

SpGEMM is not here: nvmath 1.0's `sp_gemm_work_estimation` passes an uninitialised size to the
second (buffer-carrying) call, so `cuarray.sparse` multiplies sparse by sparse with its own
expand-sort-compress on the sort engine (all dtypes, no workspace negotiation).
"""

from __future__ import annotations

import contextlib
import threading

import numpy

from .. import caches as _caches
from .. import memory as _memory
from .. import stream as _stream
from ._handles import PerThreadHandle, nvmath_bindings

__all__ = ["bindings", "handle", "supports", "SpMatDescr", "spmv", "spmm", "bsrmv", "bsrmm", "spsv", "gtsv2",
           "gtsv2_fits",
           "GTSV_MIN_ROWS", "GTSV_MAX_COLUMNS", "clear_descriptor_cache",
           "get_descriptor_cache_size", "set_descriptor_cache_size"]

# cudaDataType values (library_types.h), ABI-stable: R_32F=0, R_64F=1, C_32F=4, C_64F=5.
_DATA_TYPE = {"f": 0, "d": 1, "F": 4, "D": 5}
# cusparseIndexType_t: 32I=2, 64I=3; cusparseIndexBase_t ZERO=0; cusparseOrder_t COL=1, ROW=2.
_INDEX_TYPE = {"i4": 2, "i8": 3}
_BASE_ZERO = 0
ORDER_COL, ORDER_ROW = 1, 2
OP_N, OP_T, OP_C = 0, 1, 2
_ALG_DEFAULT = 0

_ONE = {c: numpy.ones(1, numpy.dtype(c)) for c in _DATA_TYPE}
_ZERO = {c: numpy.zeros(1, numpy.dtype(c)) for c in _DATA_TYPE}

_lib = None


def bindings():
    """`nvmath.bindings.cusparse`, imported on first use."""
    global _lib
    if _lib is None:
        _lib = nvmath_bindings("cusparse")
    return _lib


_handles = PerThreadHandle(lambda: bindings().create(), lambda h: bindings().destroy(h), name="cuSPARSE handles")


def handle() -> int:
    """The calling thread's handle for the current device, bound to the current stream now
    (`cusparseSetStream` is an attribute store: cheap enough for every call)."""
    h = _handles.get()
    bindings().set_stream(h, _stream.get_current_stream().ptr)
    return h


def supports(dtype) -> bool:
    """Whether the generic SpMV/SpMM take this value dtype (float32/64, complex64/128)."""
    return numpy.dtype(dtype).char in _DATA_TYPE


def _index_type(dtype) -> int:
    return _INDEX_TYPE[numpy.dtype(dtype).str[1:]]


class SpMatDescr:
    """A cuSPARSE sparse-matrix descriptor over device arrays given by pointer (CSR or CSC).

    `fmt` is 'csr' or 'csc'; `offsets` has rows+1 (CSR) or cols+1 (CSC) entries. The owner keeps
    the arrays alive as long as the descriptor. Destroyed when collected."""

    __slots__ = ("ptr", "char", "key", "sizes", "__weakref__")

    def __init__(self, fmt, rows, cols, nnz, offsets, indices, values, index_dtype, value_dtype):
        lib = bindings()
        it = _index_type(index_dtype)
        self.char = numpy.dtype(value_dtype).char
        vt = _DATA_TYPE[self.char]
        create = lib.create_csr if fmt == "csr" else lib.create_csc
        self.ptr = 0
        self.ptr = create(rows, cols, nnz, offsets, indices, values, it, it, _BASE_ZERO, vt)
        self.key = (fmt, rows, cols, nnz, offsets, indices, values)
        self.sizes = {}  # (kind, op, ...) -> workspace bytes

    def __del__(self):
        if self.ptr:
            try:
                bindings().destroy_sp_mat(self.ptr)
            except Exception:  # interpreter shutdown
                pass
            self.ptr = 0


class _DenseCache(threading.local):
    """Dense descriptors of this thread by (pointer, sizes, type). A cuSPARSE dense descriptor
    is metadata only (pointer, sizes, type; it owns nothing), so one made for an address stays
    right for any later array at that address with the same sizes: the pool hands the same
    addresses back, and an iterative solver then makes no descriptor at all. Bounded; the oldest
    is destroyed first. Thread-local, so no other thread can destroy one in use."""

    def __init__(self):
        self.items = _DenseItems()


class _DenseItems(dict):
    """The descriptors themselves; destroyed with the thread's local storage (its end)."""

    def clear(self) -> None:
        items = list(self.items())
        super().clear()
        for key, d in items:
            _destroy_dense(key, d)

    def __del__(self):
        try:
            self.clear()
        except Exception:  # interpreter shutdown
            pass


def _destroy_dense(key, d) -> None:
    (bindings().destroy_dn_vec if key[0] == "v" else bindings().destroy_dn_mat)(d)


_dense = _DenseCache()
_dense_limit = [256]


def clear_descriptor_cache() -> None:
    """Destroy the calling thread's cached dense-vector/matrix descriptors (host objects only;
    sparse-matrix descriptors belong to their matrices and go with them)."""
    _dense.items.clear()


_caches.register("cuSPARSE dense descriptors (calling thread)", count=lambda: len(_dense.items),
                 clear=lambda: clear_descriptor_cache())


def get_descriptor_cache_size() -> int:
    """The most dense descriptors a thread keeps (the oldest is destroyed first past it)."""
    return _dense_limit[0]


def set_descriptor_cache_size(size: int) -> None:
    size = int(size)
    if size < 1:
        raise ValueError("the descriptor cache size must be >= 1, got {}".format(size))
    _dense_limit[0] = size
    items = _dense.items
    while len(items) > size:
        old_key = next(iter(items))
        _destroy_dense(old_key, items.pop(old_key))


def _dense_descr(key, make):
    items = _dense.items
    d = items.get(key)
    if d is None:
        if len(items) >= _dense_limit[0]:
            old_key = next(iter(items))
            _destroy_dense(old_key, items.pop(old_key))
        d = items[key] = make()
    return d


def _vec(ptr, n, vt):
    return _dense_descr(("v", ptr, n, vt), lambda: bindings().create_dn_vec(n, ptr, vt))


def _mat(ptr, rows, cols, vt):
    return _dense_descr(("m", ptr, rows, cols, vt),
                        lambda: bindings().create_dn_mat(rows, cols, cols, ptr, vt, ORDER_ROW))


def _workspace(nbytes: int):
    # Pool allocation; the pool is stream-ordered, so releasing it after the enqueue is safe.
    return _memory.alloc(max(int(nbytes), 1))


def spmv(mat: SpMatDescr, op: int, x_ptr: int, n_x: int, y_ptr: int, n_y: int, beta_zero=True) -> None:
    """y = op(A) @ x (+ y when not `beta_zero`) with cuSPARSE's default SpMV algorithm."""
    lib = bindings()
    c = mat.char
    vt = _DATA_TYPE[c]
    h = handle()
    vx, vy = _vec(x_ptr, n_x, vt), _vec(y_ptr, n_y, vt)
    alpha = _ONE[c].ctypes.data
    beta = (_ZERO if beta_zero else _ONE)[c].ctypes.data
    key = ("mv", op)
    size = mat.sizes.get(key)
    if size is None:
        size = mat.sizes[key] = lib.sp_mv_buffer_size(h, op, alpha, mat.ptr, vx, beta, vy, vt, _ALG_DEFAULT)
    ws = _workspace(size)
    lib.sp_mv(h, op, alpha, mat.ptr, vx, beta, vy, vt, _ALG_DEFAULT, ws.ptr)


def spmm(mat: SpMatDescr, op: int, b_ptr: int, b_rows: int, b_cols: int, c_ptr: int, c_rows: int,
         c_cols: int) -> None:
    """C = op(A) @ B for row-major (C-contiguous) dense B and C, cuSPARSE's default SpMM."""
    lib = bindings()
    c = mat.char
    vt = _DATA_TYPE[c]
    h = handle()
    db, dc = _mat(b_ptr, b_rows, b_cols, vt), _mat(c_ptr, c_rows, c_cols, vt)
    alpha, beta = _ONE[c].ctypes.data, _ZERO[c].ctypes.data
    key = ("mm", op, b_cols)
    size = mat.sizes.get(key)
    if size is None:
        size = mat.sizes[key] = lib.sp_mm_buffer_size(h, op, OP_N, alpha, mat.ptr, db, beta, dc, vt, _ALG_DEFAULT)
    ws = _workspace(size)
    lib.sp_mm(h, op, OP_N, alpha, mat.ptr, db, beta, dc, vt, _ALG_DEFAULT, ws.ptr)


# The legacy BSR routines: cusparseDirection_t ROW=0 (each block stored row-major, as SciPy's
# `data[k]` is); a general matrix descriptor (cusparseCreateMatDescr's defaults: GENERAL, base 0),
# made per call (host metadata, read when the call is enqueued).
_PREFIX = {"f": "s", "d": "d", "F": "c", "D": "z"}
_DIR_ROW = 0


@contextlib.contextmanager
def _general_descr():
    lib = bindings()
    descr = lib.create_mat_descr()
    try:
        yield descr
    finally:
        lib.destroy_mat_descr(descr)


def bsrmv(char: str, mb: int, nb: int, nnzb: int, values: int, offsets: int, indices: int, block_dim: int,
          x_ptr: int, y_ptr: int) -> None:
    """y = A @ x for the BSR A of mb x nb square blocks of side block_dim (> 1) with 32-bit
    offsets and indices (cusparse<t>bsrmv)."""
    alpha, beta = _ONE[char].ctypes.data, _ZERO[char].ctypes.data
    with _general_descr() as descr:
        getattr(bindings(), _PREFIX[char] + "bsrmv")(handle(), _DIR_ROW, OP_N, mb, nb, nnzb, alpha, descr, values,
                                                     offsets, indices, block_dim, x_ptr, beta, y_ptr)


def bsrmm(char: str, mb: int, n: int, kb: int, nnzb: int, values: int, offsets: int, indices: int,
          block_dim: int, b_ptr: int, c_ptr: int) -> None:
    """C = A @ B for the BSR A (as `bsrmv`, kb block columns) and a row-major B of kb*block_dim x n
    (cusparse<t>bsrmm reads B column-major: it is given B's transpose, ldb = n, with op(B) =
    transpose). C is written column-major, mb*block_dim x n, leading dimension mb*block_dim."""
    alpha, beta = _ONE[char].ctypes.data, _ZERO[char].ctypes.data
    with _general_descr() as descr:
        getattr(bindings(), _PREFIX[char] + "bsrmm")(handle(), _DIR_ROW, OP_N, OP_T, mb, n, kb, nnzb, alpha, descr,
                                                     values, offsets, indices, block_dim, b_ptr, n, beta, c_ptr,
                                                     mb * block_dim)


# cusparseSpMatAttribute_t: FILL_MODE=0, DIAG_TYPE=1; cusparseFillMode_t LOWER=0, UPPER=1;
# cusparseDiagType_t NON_UNIT=0, UNIT=1; cusparseSpSVAlg_t DEFAULT=0.
_ATTR_FILL, _ATTR_DIAG = 0, 1


def spsv(mat: SpMatDescr, lower: bool, unit_diagonal: bool, x_ptr: int, y_ptr: int, n: int) -> None:
    """Solve A y = x for triangular A (the `lower` or upper triangle of `mat`, CSR) with
    cusparseSpSV: analysis, then solve; one SpSV descriptor per call."""
    lib = bindings()
    c = mat.char
    vt = _DATA_TYPE[c]
    h = handle()
    fill = numpy.array([0 if lower else 1], numpy.int32)
    diag = numpy.array([1 if unit_diagonal else 0], numpy.int32)
    lib.sp_mat_set_attribute(mat.ptr, _ATTR_FILL, fill.ctypes.data, 4)
    lib.sp_mat_set_attribute(mat.ptr, _ATTR_DIAG, diag.ctypes.data, 4)
    vx, vy = _vec(x_ptr, n, vt), _vec(y_ptr, n, vt)
    alpha = _ONE[c].ctypes.data
    d = lib.sp_sv_create_descr()
    try:
        size = lib.sp_sv_buffer_size(h, OP_N, alpha, mat.ptr, vx, vy, vt, _ALG_DEFAULT, d)
        ws = _workspace(size)
        lib.sp_sv_analysis(h, OP_N, alpha, mat.ptr, vx, vy, vt, _ALG_DEFAULT, d, ws.ptr)
        lib.sp_sv_solve(h, OP_N, alpha, mat.ptr, vx, vy, vt, _ALG_DEFAULT, d)
    finally:
        # The descriptor may be destroyed once the solve is enqueued (cuSPARSE keeps what the
        # kernels need in the workspace); the workspace goes back to the pool in stream order.
        lib.sp_sv_destroy_descr(d)


GTSV_MIN_ROWS = 3  # gtsv2's smallest system
# gtsv2 takes ~7.5 us a right-hand-side column (H100): past this many, the callers' other solvers
# (cyclic reduction over every column at once, a dense LU's one factorisation) win.
GTSV_MAX_COLUMNS = 64


def gtsv2_fits(m: int, columns: int) -> bool:
    """Whether gtsv2's 32-bit sizes hold a system of m rows (at least GTSV_MIN_ROWS, padded) and
    `columns` right-hand sides: fewer than 2**31 - 1 entries."""
    return max(m, GTSV_MIN_ROWS) * max(columns, 1) < 2**31 - 1


def gtsv2(char: str, m: int, n: int, dl: int, d: int, du: int, b: int, ldb: int) -> None:
    """Solve A X = B in place for the m x m tridiagonal A (diagonals dl, d, du of m entries each,
    dl[0] = du[m - 1] = 0; m >= 3) and the n columns of B (column-major, leading dimension ldb),
    by Gaussian elimination with partial pivoting (cusparse<t>gtsv2), on the current stream."""
    lib = bindings()
    p = _PREFIX[char]
    h = handle()
    size = getattr(lib, p + "gtsv2_buffer_size_ext")(h, m, n, dl, d, du, b, ldb)
    ws = _workspace(size + 128)  # gtsv2 takes a buffer address that is a multiple of 128 bytes
    getattr(lib, p + "gtsv2")(h, m, n, dl, d, du, b, ldb, (ws.ptr + 127) & -128)
