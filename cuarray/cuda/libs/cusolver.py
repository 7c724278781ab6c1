"""cuSOLVER (dense): one handle and one X-API params object per (device, thread), bound to the
current stream on every call, workspace from our memory pool.

The only importer of `nvmath.bindings.cusolverDn` (imported on first use). Conventions are
cuSOLVER's: matrices are column-major, pointers are ints, `char` is the dtype's NumPy character
('f', 'd', 'F', 'D'). Each routine enqueues its work and returns; `info` is a device int32 the
caller reads (once for a whole stack: `cuarray.linalg` batches every info of a call into one
device-to-host copy). The 64-bit X API is used where it exists (getrf/getrs, potrf/potrs, geqrf,
syevd, gesvd, gesvdp, geev); orgqr/ungqr, gesvdj and the batched routines exist only in the
legacy typed API.
"""

from __future__ import annotations

import threading

import numpy

from .. import memory as _memory
from .. import stream as _stream
from ._handles import PerThreadHandle, nvmath_bindings

__all__ = ["bindings", "handle", "params", "getrf", "getrs", "potrf", "potrs", "geqrf", "orgqr",
           "syevd", "syevj", "gesvd", "gesvdj", "gesvdp", "geev", "potrf_batched",
           "syevj_batched", "gesvdj_batched", "BATCHED_MAX_N"]

# Enum values of the C headers (ABI-stable), so nvmath's enum modules need not be imported.
# cudaDataType: R_32F=0, R_64F=1, C_32F=4, C_64F=5.
_DATA_TYPE = {"f": 0, "d": 1, "F": 4, "D": 5}
_REAL_CHAR = {"f": "f", "d": "d", "F": "f", "D": "d"}
_PREFIX = {"f": "s", "d": "d", "F": "c", "D": "z"}
_ITEMSIZE = {"f": 4, "d": 8, "F": 8, "D": 16}
LOWER, UPPER = 0, 1                      # cublasFillMode_t
OP_N, OP_T, OP_C = 0, 1, 2               # cublasOperation_t
NOVECTOR, VECTOR = 0, 1                  # cusolverEigMode_t

# syevjBatched and gesvdjBatched accept matrices up to 32 x 32 (cuSOLVER documentation).
BATCHED_MAX_N = 32

_lib = None


def bindings():
    """`nvmath.bindings.cusolverDn`, imported on first use."""
    global _lib
    if _lib is None:
        _lib = nvmath_bindings("cusolverDn")
    return _lib


_handles = PerThreadHandle(lambda: bindings().create(), lambda h: bindings().destroy(h), name="cuSOLVER handles")
_params = PerThreadHandle(lambda: bindings().create_params(), lambda p: bindings().destroy_params(p),
                          name="cuSOLVER params")
# Jacobi settings objects (tolerance / sweeps / sorting) of the legacy API, default settings.
_syevj_info = PerThreadHandle(lambda: bindings().create_syevj_info(),
                              lambda p: bindings().destroy_syevj_info(p), name="cuSOLVER syevj settings")
_gesvdj_info = PerThreadHandle(lambda: bindings().create_gesvdj_info(),
                               lambda p: bindings().destroy_gesvdj_info(p), name="cuSOLVER gesvdj settings")


def handle() -> int:
    """The calling thread's handle for the current device, bound to the current stream now.

    `cusolverDnSetStream` is a cheap attribute store; doing it on every call keeps a handle
    correct when the thread switches streams."""
    h = _handles.get()
    bindings().set_stream(h, _stream.get_current_stream().ptr)
    return h


def params() -> int:
    """The calling thread's `cusolverDnParams_t` (default algorithms) for the current device."""
    return _params.get()


class _HostWork(threading.local):
    buf = None


_host = _HostWork()


def _host_buffer(nbytes: int):
    """(pointer, nbytes) of a grow-only host workspace of this thread. It outlives the call: the
    X routines that use host workspace are synchronous, but keeping it costs nothing."""
    if nbytes <= 0:
        return 0, 0
    buf = _host.buf
    if buf is None or buf.nbytes < nbytes:
        buf = _host.buf = numpy.empty(nbytes, numpy.uint8)
    return buf.ctypes.data, nbytes


def _device_buffer(nbytes: int):
    """A pool allocation (kept alive by the caller until the routine is enqueued; the pool's free
    lists are stream-ordered, so releasing it afterwards is safe)."""
    return _memory.alloc(max(int(nbytes), 1))


def _x_call(name: str, size_args: tuple, args_before_ws: tuple, info: int, *, extra_after=()):
    """Query an X routine's workspace, allocate it, run it. Returns the routine's result."""
    lib = bindings()
    dev_bytes, host_bytes = getattr(lib, name + "_buffer_size")(*size_args)
    dws = _device_buffer(dev_bytes)
    hptr, hbytes = _host_buffer(host_bytes)
    return getattr(lib, name)(*args_before_ws, dws.ptr, dev_bytes, hptr, hbytes, info, *extra_after)


# -- LU ----------------------------------------------------------------------------------------
def getrf(char, m, n, a, lda, ipiv, info) -> None:
    """LU with partial pivoting of the column-major m x n `a` in place; `ipiv` int64[min(m, n)]."""
    h, p, dt = handle(), params(), _DATA_TYPE[char]
    _x_call("xgetrf", (h, p, m, n, dt, a, lda, dt), (h, p, m, n, dt, a, lda, ipiv, dt), info)


def getrs(char, trans, n, nrhs, a, lda, ipiv, b, ldb, info) -> None:
    """Solve op(A) X = B with `getrf`'s factors; B (n x nrhs, column-major) is overwritten."""
    dt = _DATA_TYPE[char]
    bindings().xgetrs(handle(), params(), trans, n, nrhs, dt, a, lda, ipiv, dt, b, ldb, info)


# -- Cholesky ----------------------------------------------------------------------------------
def potrf(char, uplo, n, a, lda, info) -> None:
    """Cholesky factor of the `uplo` triangle of the column-major n x n `a`, in place."""
    h, p, dt = handle(), params(), _DATA_TYPE[char]
    _x_call("xpotrf", (h, p, uplo, n, dt, a, lda, dt), (h, p, uplo, n, dt, a, lda, dt), info)


def potrs(char, uplo, n, nrhs, a, lda, b, ldb, info) -> None:
    dt = _DATA_TYPE[char]
    bindings().xpotrs(handle(), params(), uplo, n, nrhs, dt, a, lda, dt, b, ldb, info)


def potrf_batched(char, uplo, n, ptrs, lda, infos, batch) -> None:
    """Cholesky of `batch` matrices; `ptrs` is a device array of their addresses."""
    getattr(bindings(), _PREFIX[char] + "potrf_batched")(handle(), uplo, n, ptrs, lda, infos, batch)


# -- QR ----------------------------------------------------------------------------------------
def geqrf(char, m, n, a, lda, tau, info) -> None:
    """Householder QR of the column-major m x n `a` in place; `tau` holds min(m, n) scalars."""
    h, p, dt = handle(), params(), _DATA_TYPE[char]
    _x_call("xgeqrf", (h, p, m, n, dt, a, lda, dt, tau, dt),
            (h, p, m, n, dt, a, lda, dt, tau, dt), info)


def orgqr(char, m, n, k, a, lda, tau, info) -> None:
    """The m x n Q (orthonormal columns) from `geqrf`'s k reflectors, in place (orgqr / ungqr)."""
    lib, h = bindings(), handle()
    name = _PREFIX[char] + ("ungqr" if char in "FD" else "orgqr")
    lwork = getattr(lib, name + "_buffer_size")(h, m, n, k, a, lda, tau)
    ws = _device_buffer(lwork * _ITEMSIZE[char])
    getattr(lib, name)(h, m, n, k, a, lda, tau, ws.ptr, lwork, info)


# -- symmetric / Hermitian eigenproblems -------------------------------------------------------
def syevd(char, jobz, uplo, n, a, lda, w, info) -> None:
    """Eigenvalues (ascending, real `w`) and, with jobz=VECTOR, eigenvectors (into `a`)."""
    h, p, dt, rt = handle(), params(), _DATA_TYPE[char], _DATA_TYPE[_REAL_CHAR[char]]
    _x_call("xsyevd", (h, p, jobz, uplo, n, dt, a, lda, rt, w, dt),
            (h, p, jobz, uplo, n, dt, a, lda, rt, w, dt), info)


def syevj(char, jobz, uplo, n, a, lda, w, info) -> None:
    """Jacobi variant of `syevd` (legacy API, default tolerance and sweeps)."""
    lib, h, prm = bindings(), handle(), _syevj_info.get()
    name = _PREFIX[char] + ("heevj" if char in "FD" else "syevj")
    lwork = getattr(lib, name + "_buffer_size")(h, jobz, uplo, n, a, lda, w, prm)
    ws = _device_buffer(lwork * _ITEMSIZE[char])
    getattr(lib, name)(h, jobz, uplo, n, a, lda, w, ws.ptr, lwork, info, prm)


def syevj_batched(char, jobz, uplo, n, a, lda, w, infos, batch) -> None:
    """Jacobi eigensolver of `batch` contiguous n x n matrices (n <= 32), `infos` int32[batch]."""
    lib, h, prm = bindings(), handle(), _syevj_info.get()
    name = _PREFIX[char] + ("heevj_batched" if char in "FD" else "syevj_batched")
    lwork = getattr(lib, name + "_buffer_size")(h, jobz, uplo, n, a, lda, w, prm, batch)
    ws = _device_buffer(lwork * _ITEMSIZE[char])
    getattr(lib, name)(h, jobz, uplo, n, a, lda, w, ws.ptr, lwork, infos, prm, batch)


# -- SVD ---------------------------------------------------------------------------------------
def gesvd(char, jobu, jobvt, m, n, a, lda, s, u, ldu, vt, ldvt, info) -> None:
    """QR-iteration SVD (m >= n); jobu/jobvt are 'A', 'S' or 'N'; `a` is destroyed."""
    h, p, dt, rt = handle(), params(), _DATA_TYPE[char], _DATA_TYPE[_REAL_CHAR[char]]
    ju, jv = ord(jobu), ord(jobvt)
    _x_call("xgesvd", (h, p, ju, jv, m, n, dt, a, lda, rt, s, dt, u, ldu, dt, vt, ldvt, dt),
            (h, p, ju, jv, m, n, dt, a, lda, rt, s, dt, u, ldu, dt, vt, ldvt, dt), info)


def gesvdj(char, jobz, econ, m, n, a, lda, s, u, ldu, v, ldv, info) -> None:
    """Jacobi SVD (any m, n; returns V, not V^H); `a` is destroyed."""
    lib, h, prm = bindings(), handle(), _gesvdj_info.get()
    name = _PREFIX[char] + "gesvdj"
    lwork = getattr(lib, name + "_buffer_size")(h, jobz, econ, m, n, a, lda, s, u, ldu, v, ldv, prm)
    ws = _device_buffer(lwork * _ITEMSIZE[char])
    getattr(lib, name)(h, jobz, econ, m, n, a, lda, s, u, ldu, v, ldv, ws.ptr, lwork, info, prm)


def gesvdp(char, jobz, econ, m, n, a, lda, s, u, ldu, v, ldv, info) -> float:
    """Polar-decomposition SVD (returns V, not V^H); `a` is destroyed. Returns the error bound."""
    h, p, dt, rt = handle(), params(), _DATA_TYPE[char], _DATA_TYPE[_REAL_CHAR[char]]
    return _x_call("xgesvdp", (h, p, jobz, econ, m, n, dt, a, lda, rt, s, dt, u, ldu, dt, v, ldv, dt),
                   (h, p, jobz, econ, m, n, dt, a, lda, rt, s, dt, u, ldu, dt, v, ldv, dt), info)


def gesvdj_batched(char, jobz, m, n, a, lda, s, u, ldu, v, ldv, infos, batch) -> None:
    """Jacobi SVD of `batch` contiguous m x n matrices (m, n <= 32); full U (m x m), V (n x n)."""
    lib, h, prm = bindings(), handle(), _gesvdj_info.get()
    name = _PREFIX[char] + "gesvdj_batched"
    lwork = getattr(lib, name + "_buffer_size")(h, jobz, m, n, a, lda, s, u, ldu, v, ldv, prm, batch)
    ws = _device_buffer(lwork * _ITEMSIZE[char])
    getattr(lib, name)(h, jobz, m, n, a, lda, s, u, ldu, v, ldv, ws.ptr, lwork, infos, prm, batch)


# -- general eigenproblem ----------------------------------------------------------------------
def geev(char, jobvr, n, a, lda, w, vr, ldvr, info) -> None:
    """Eigenvalues and right eigenvectors of a general n x n matrix; `a` is destroyed.

    Real input uses cuSOLVER's all-real option: `w` holds 2n reals (real parts, then imaginary
    parts) and `vr` LAPACK's packing (a complex pair's vectors as re, im columns)."""
    h, p, dt = handle(), params(), _DATA_TYPE[char]
    # jobvl = NOVECTOR: left eigenvectors are not offered by cuSOLVER's geev.
    _x_call("xgeev", (h, p, NOVECTOR, jobvr, n, dt, a, lda, dt, w, dt, 0, 1, dt, vr, ldvr, dt),
            (h, p, NOVECTOR, jobvr, n, dt, a, lda, dt, w, dt, 0, 1, dt, vr, ldvr, dt), info)
