"""cuBLAS: one handle per (device, thread), bound to the current stream, workspace from our pool.

The only importer of `nvmath.bindings.cublas` (imported on first use). Routines call `gemm`,
`gemv` or, for other cuBLAS functions, `handle()` (the calling thread's handle, bound to the
current stream and its workspace) with `bindings()`.

Conventions (cuBLAS's): matrices are column-major, pointers are ints, `op` is 'N', 'T' or 'C'.
Pointer mode is HOST: alpha and beta are host scalars, kept alive here per dtype.

Host cost matters (CuPy spends ~140 us of host time per small matmul, more than the GPU's work): the hot path
is one thread-local look-up, a stream and generation comparison and one binding call.
`cublasSetStream` also resets the workspace to cuBLAS's own pool, so the two calls are made only
when this handle's stream (or its workspace) changes (same effect as setting both on every call).

Workspace (see `_workspace.py` for why per stream and why releasing needs no synchronisation):
- cuBLASLt (single GEMMs, most products): each call takes from the pool, on the current stream,
  exactly the bytes its plan's algorithm asks for (0 for small products) and drops them after the
  enqueue. Nothing is kept between calls.
- classic cuBLAS GEMMs (batched, very large or unaligned): the handle keeps a buffer per (device,
  stream) from `_workspaces`, bounded per device (`cuarray.cuda.libs.set_workspace_limit`),
  dropped by `free_all_blocks()` (all, or one stream's). GEMV and batched LU use none: their
  binding (`handle(False)`) keeps none.
"""

from __future__ import annotations

import contextlib
import threading

import numpy

from .. import caches as _caches
from .. import _observe
from .. import device as _device
from .. import memory as _memory
from .. import stream as _stream
from . import _workspace
from ._handles import PerThreadHandle, nvmath_bindings

__all__ = ["bindings", "handle", "gemm", "gemv", "gemm_epilogue", "supports", "compute_mode", "set_compute_mode",
           "get_compute_mode", "COMPUTE_MODES", "clear_plan_cache", "get_plan_cache_size", "set_plan_cache_size"]

# The most workspace a cuBLASLt algorithm may ask for (its heuristic is told so); taken per call.
WORKSPACE_BYTES = _workspace.STREAM_BYTES

_lib = None


def bindings():
    """`nvmath.bindings.cublas`, imported on first use."""
    global _lib
    if _lib is None:
        _lib = nvmath_bindings("cublas")
    return _lib


def _create():
    lib = bindings()
    h = lib.create()
    lib.set_pointer_mode(h, 0)  # CUBLAS_POINTER_MODE_HOST
    return h


def _destroy(h):
    bindings().destroy(h)


_handles = PerThreadHandle(_create, _destroy, name="cuBLAS handles")


class _State(threading.local):
    # device id -> [handle, stream ptr it is bound to (None: not yet), workspace generation, the
    # workspace memory it points at (held: a release elsewhere must not free it under this handle)]
    bound = None


_tls = _State()
_workspaces = _workspace.register(_workspace.Workspaces("cuBLAS"))
_ws_gen = _workspaces.generation


def _bind(dev: int, stream_ptr: int, workspace: bool):
    bound = _tls.bound
    if bound is None:
        bound = _tls.bound = {}
    ent = bound.get(dev)
    if ent is None:
        ent = bound[dev] = [_handles.get(), None, -1, None]
    h = ent[0]
    lib = bindings()
    gen = _ws_gen[0]
    ws = _workspaces.get(dev, stream_ptr) if workspace else None
    lib.set_stream(h, stream_ptr)
    if ws is None:
        lib.set_workspace(h, 0, 0)  # no workspace (limit 0, or a routine that needs none)
    else:
        lib.set_workspace(h, ws.ptr, _workspaces.size())
    # -1: bound without a workspace, which a GEMM rebinds (any generation is >= 0).
    ent[1], ent[2], ent[3] = stream_ptr, gen if workspace else -1, ws
    return h


def handle(workspace: bool = True) -> int:
    """The calling thread's cuBLAS handle for the current device, bound to the current stream
    and that stream's kept workspace. Valid until the thread changes stream or device.

    `workspace=False` for routines that use none (GEMV, batched LU): a stream bound without one
    keeps no 32 MiB buffer for it (a mat-vec on each of many streams would otherwise hold one per
    stream, up to the limit); cuBLAS runs them with workspace size 0."""
    dev = _device._tls.device_id
    sp = _stream.get_current_stream(dev).ptr
    bound = _tls.bound
    if bound is not None:
        ent = bound.get(dev)
        if ent is not None and ent[1] == sp:
            g = ent[2]
            if g == _ws_gen[0] or (g == -1 and not workspace):
                return ent[0]
    return _bind(dev, sp, workspace)


def _unbind_released(device_id: int, stream_ptr) -> None:
    """free_all_blocks hook: this thread's handles stop holding a released workspace now (other
    threads' let go at their next call), so the calling thread's release is complete."""
    bound = _tls.bound
    if bound:
        ent = bound.get(device_id)
        if ent is not None and (stream_ptr is None or ent[1] == stream_ptr):
            ent[1], ent[3] = None, None


_memory.add_release_hook(_unbind_released)


# -- types -------------------------------------------------------------------------------------
# cudaDataType values (library_types.h): R_16F=2, R_32F=0, R_64F=1, C_32F=4, C_64F=5.
# cublasComputeType_t: 32F=68, 64F=70, 32F_FAST_TF32=77, 32F_FAST_16BF=75, 32F_EMULATED_16BFX9=78.
_CHARS = "efdFD"
_DATA_TYPE = {"e": 2, "f": 0, "d": 1, "F": 4, "D": 5}
_COMPUTE = {"e": 68, "f": 68, "d": 70, "F": 68, "D": 70}
# The scalar type of alpha/beta for each compute type (float16 accumulates in float32).
_SCALAR = {"e": numpy.float32, "f": numpy.float32, "d": numpy.float64,
           "F": numpy.complex64, "D": numpy.complex128}
_OPS = {"N": 0, "T": 1, "C": 2}

# Host scalars 1 and 0 (and their addresses) per dtype, alive for the process.
_ONE = {c: numpy.ones(1, _SCALAR[c]) for c in _CHARS}
_ZERO = {c: numpy.zeros(1, _SCALAR[c]) for c in _CHARS}
_ONE_PTR = {c: a.ctypes.data for c, a in _ONE.items()}
_ZERO_PTR = {c: a.ctypes.data for c, a in _ZERO.items()}


def supports(dtype) -> bool:
    """Whether cuBLAS GEMM takes this dtype (float16/32/64, complex64/128)."""
    return dtype.char in _DATA_TYPE


# -- compute mode (TF32 is an explicit opt-in) ----------------------------------------------------
# Full float32 by default: NumPy's answer. "tf32" rounds the inputs of float32/complex64 products
# to TF32 (10-bit mantissa) on tensor cores; "bf16x9" emulates float32 with BF16 tensor cores
# (cuBLAS 12.9+, about float32 accuracy).
COMPUTE_MODES = {"highest": 68, "tf32": 77, "bf16x9": 78}


class _Mode(threading.local):
    f32 = 68


_mode = _Mode()


def get_compute_mode() -> str:
    """The calling thread's float32 GEMM compute mode: 'highest', 'tf32' or 'bf16x9'.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.linalg.get_matmul_precision()   # full float32, NumPy's answer
    'highest'
    """
    for k, v in COMPUTE_MODES.items():
        if v == _mode.f32:
            return k
    raise AssertionError(_mode.f32)


def set_compute_mode(mode: str) -> None:
    """Set the calling thread's float32/complex64 GEMM compute mode (see `compute_mode`).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.linalg.set_matmul_precision('tf32')   # TF32 tensor cores for float32 products
    >>> cuarray.linalg.get_matmul_precision()
    'tf32'
    >>> cuarray.linalg.set_matmul_precision('highest')
    """
    try:
        _mode.f32 = COMPUTE_MODES[mode]
    except (KeyError, TypeError):
        raise ValueError("compute mode must be one of {}, got {!r}".format(
            ", ".join(map(repr, COMPUTE_MODES)), mode)) from None


@contextlib.contextmanager
def compute_mode(mode: str):
    """Context manager: float32/complex64 matrix products in `mode` inside the block.

    Examples
    --------
    >>> import cuarray
    >>> with cuarray.linalg.matmul_precision('tf32'):
    ...     cuarray.linalg.get_matmul_precision()
    'tf32'
    >>> cuarray.linalg.get_matmul_precision()
    'highest'
    """
    old = _mode.f32
    set_compute_mode(mode)
    try:
        yield
    finally:
        _mode.f32 = old


# -- calls -------------------------------------------------------------------------------------
_BATCH_LIMIT = 65535  # batches per strided-batched call (the grid's z/y limit in some kernels)


def gemm(char, opa, opb, m, n, k, a, lda, b, ldb, c, ldc, batch=1, stride_a=0, stride_b=0,
         stride_c=0, alpha=None, beta=None, _observed=False):
    """C = alpha op(A) op(B) + beta C, column-major, `batch` matrices at the given element strides
    (stride 0 repeats a matrix: a broadcast operand). `char` is the dtype's type char; alpha/beta
    default to 1/0 (host scalars). m, n, k > 0. The observer (`_observe`: the profiler) sees
    each call."""
    if not _observed and _observe.observer is not None:
        return _observe.observer.library("gemm", char, gemm, (char, opa, opb, m, n, k, a, lda, b, ldb, c, ldc, batch,
                                                              stride_a, stride_b, stride_c, alpha, beta),
                                         {"_observed": True})
    ct = _COMPUTE[char]
    if ct == 68 and char != "e":
        ct = _mode.f32
    pa = _ONE_PTR[char] if alpha is None else alpha.ctypes.data
    pb = _ZERO_PTR[char] if beta is None else beta.ctypes.data
    ta, tb = _OPS[opa], _OPS[opb]
    if batch == 1 and USE_LT and m * n * k <= LT_MAX_WORK and not (a | b | c) & 255:
        if _lt_gemm(char, ct, ta, tb, m, n, k, a, lda, b, ldb, c, ldc, pa, pb):
            return
    h = handle()
    lib = _lib
    dt = _DATA_TYPE[char]
    if batch == 1:
        lib.gemm_ex(h, ta, tb, m, n, k, pa, a, dt, lda, b, dt, ldb, pb, c, dt, ldc, ct, -1)
        return
    isz = _ITEMSIZE[char]
    done = 0
    while done < batch:
        cnt = min(batch - done, _BATCH_LIMIT)
        lib.gemm_strided_batched_ex(
            h, ta, tb, m, n, k, pa, a + done * stride_a * isz, dt, lda, stride_a,
            b + done * stride_b * isz, dt, ldb, stride_b, pb, c + done * stride_c * isz, dt, ldc,
            stride_c, cnt, ct, -1)
        done += cnt


_ITEMSIZE = {"e": 2, "f": 4, "d": 8, "F": 8, "D": 16}
_GEMV = {"f": "sgemv", "d": "dgemv", "F": "cgemv", "D": "zgemv"}


def gemv(char, op, m, n, a, lda, x, incx, y, incy, alpha=None, beta=None, _observed=False) -> bool:
    """y = alpha op(A) x + beta y for A m x n column-major. Returns False (nothing done) for a
    dtype without GEMV (float16) or a float32 compute mode other than 'highest'."""
    if not _observed and _observe.observer is not None:
        return _observe.observer.library("gemv", char, gemv, (char, op, m, n, a, lda, x, incx, y, incy, alpha, beta),
                                         {"_observed": True})
    name = _GEMV.get(char)
    if name is None or (char in "fF" and _mode.f32 != 68):
        return False
    h = handle(False)
    pa = _ONE_PTR[char] if alpha is None else alpha.ctypes.data
    pb = _ZERO_PTR[char] if beta is None else beta.ctypes.data
    getattr(_lib, name)(h, _OPS[op], m, n, pa, a, lda, x, incx, pb, y, incy)
    return True


# -- cublasLt for single GEMMs: a plan per shape, no per-call heuristics ------------------------------
# cublasGemmEx runs its algorithm heuristics on every call; for small products that host work is
# most of the call. cublasLtMatmul with a descriptor set and an algorithm chosen
# once per (dtype, compute type, flags, m, n, k, leading dims, device) does only the launch. Plans
# assume 256-byte aligned pointers (Lt's default preference); other pointers, batches (stride-0
# broadcasting is GemmStridedBatchedEx's) and shapes Lt declines go to cublasGemmEx.
USE_LT = True
# Above this m*n*k the host work is noise next to the kernel; GemmEx there gives the same kernels
# CuPy and PyTorch run (the 8192^3 bench case measured 1.00x both with GemmEx).
LT_MAX_WORK = 2**30
_SCALE_TYPE = {"e": 0, "f": 0, "d": 1, "F": 4, "D": 5}
# Plans kept per process (plain and epilogue plans each); past it the cache is emptied (a plan is
# a few host descriptors, ~1 KiB; 1024 distinct shapes are more than a model uses).
_plan_limit = [1024]
_plans: dict = {}
_ltlib = None


class _LtPlan:
    """A cuBLASLt plan: descriptors, the chosen algorithm and the workspace it needs. Destroyed
    when the last reference goes, so a thread still enqueueing with it when another clears the
    cache keeps it alive until it is done."""

    __slots__ = ("desc", "la", "lb", "lc", "res", "algo", "ws", "__weakref__")

    def __del__(self):
        L = _ltlib  # plans exist only once the bindings are imported
        if L is None:
            return
        try:
            L.matmul_desc_destroy(self.desc)
            for lay in (self.la, self.lb, self.lc):
                L.matrix_layout_destroy(lay)
        except Exception:  # interpreter shutdown
            pass


def lt_bindings():
    """`nvmath.bindings.cublasLt`, imported on first use."""
    global _ltlib
    if _ltlib is None:
        _ltlib = nvmath_bindings("cublasLt")
    return _ltlib


_lt_handles = PerThreadHandle(lambda: lt_bindings().create(), lambda h: lt_bindings().destroy(h),
                              name="cuBLASLt handles")


class _LtState(threading.local):
    handles = None  # device id -> cublasLt handle of this thread


_lt_tls = _LtState()


def _i(value, dtype):
    return numpy.array([value], dtype)


def _lt_plan(lth, char, ct, ta, tb, m, n, k, lda, ldb, ldc, epilogue=0, bias=0):
    """(desc, A, B, C layouts, heuristic result holder, algo pointer) or None when Lt declines.
    `epilogue`: a cublasLtEpilogue_t value (0: none); `bias`: a bias pointer of the alignment
    later calls will pass (the heuristic reads its alignment from it)."""
    L = lt_bindings()
    dt = _DATA_TYPE[char]
    made = []
    try:
        desc = L.matmul_desc_create(ct, _SCALE_TYPE[char])
        made.append((L.matmul_desc_destroy, desc))
        for attr, v in ((3, ta), (4, tb)):  # CUBLASLT_MATMUL_DESC_TRANSA / TRANSB (int32)
            buf = _i(v, numpy.int32)
            L.matmul_desc_set_attribute(desc, attr, buf.ctypes.data, 4)
        if epilogue:
            buf = _i(epilogue, numpy.uint32)
            L.matmul_desc_set_attribute(desc, _DESC_EPILOGUE, buf.ctypes.data, 4)
            if bias:
                ptr = _i(bias, numpy.uint64)
                L.matmul_desc_set_attribute(desc, _DESC_BIAS_POINTER, ptr.ctypes.data, 8)
        lays = []
        for rows, cols, ld in ((m if ta == 0 else k, k if ta == 0 else m, lda),
                               (k if tb == 0 else n, n if tb == 0 else k, ldb), (m, n, ldc)):
            lay = L.matrix_layout_create(dt, rows, cols, ld)
            made.append((L.matrix_layout_destroy, lay))
            lays.append(lay)
        pref = L.matmul_preference_create()
        try:
            ws = _i(WORKSPACE_BYTES, numpy.uint64)
            L.matmul_preference_set_attribute(pref, 1, ws.ctypes.data, 8)  # MAX_WORKSPACE_BYTES
            res = L.MatmulHeuristicResult(1)
            count = numpy.zeros(1, numpy.int32)
            L.matmul_algo_get_heuristic(lth, desc, lays[0], lays[1], lays[2], lays[2], pref, 1,
                                        res.ptr, count.ctypes.data)
        finally:
            L.matmul_preference_destroy(pref)
        if count[0] < 1 or int(res.workspace_size) > WORKSPACE_BYTES:
            raise RuntimeError("no cublasLt algorithm")
    except Exception:  # noqa: BLE001 - Lt declined (type, shape): GemmEx does this shape
        for destroy, obj in reversed(made):
            destroy(obj)
        return None
    p = _LtPlan()
    p.desc, p.la, p.lb, p.lc, p.res, p.algo = desc, lays[0], lays[1], lays[2], res, res.ptr
    p.ws = int(res.workspace_size)
    return p


def _lt_handle(dev: int):
    """This thread's cublasLt handle for device `dev`."""
    handles = _lt_tls.handles
    if handles is None:
        handles = _lt_tls.handles = {}
    lth = handles.get(dev)
    if lth is None:
        lth = handles[dev] = _lt_handles.get()
    return lth


def _lt_gemm(char, ct, ta, tb, m, n, k, a, lda, b, ldb, c, ldc, pa, pb) -> bool:
    dev = _device._tls.device_id
    handles = _lt_tls.handles  # `_lt_handle` inlined: one frame less on every small product
    lth = handles.get(dev) if handles is not None else None
    if lth is None:
        lth = _lt_handle(dev)
    key = (dev, char, ct, ta, tb, m, n, k, lda, ldb, ldc)
    p = _plans.get(key, False)
    if p is False:
        if len(_plans) >= _plan_limit[0]:
            _plans.clear()
        p = _plans[key] = _lt_plan(lth, char, ct, ta, tb, m, n, k, lda, ldb, ldc)
    if p is None:
        return False
    sp = _stream.get_current_stream(dev).ptr
    wsz = p.ws
    # Held until the enqueue returns; the pool reuses the block only on this stream (stream order).
    ws = _memory.alloc(wsz) if wsz else None
    _ltlib.matmul(lth, p.desc, pa, a, p.la, b, p.lb, pb, c, p.lc, c, p.lc, p.algo,
                  ws.ptr if wsz else 0, wsz, sp)
    return True


def clear_plan_cache() -> None:
    """Forget every cuBLASLt plan (descriptors and chosen algorithms) of this process; each is
    destroyed once no call is using it. The next product of each shape plans again."""
    _plans.clear()
    _epi_plans.clear()
    _epi_bias.clear()


def get_plan_cache_size() -> int:
    """The most cuBLASLt plans kept (plain and epilogue products each); the cache empties past it."""
    return _plan_limit[0]


def set_plan_cache_size(size: int) -> None:
    """Set the cuBLASLt plan limit (0: plan every call, keep none); clears the cache."""
    size = int(size)
    if size < 0:
        raise ValueError("the plan cache size must be >= 0, got {}".format(size))
    _plan_limit[0] = size
    clear_plan_cache()


_caches.register("cuBLASLt plans", count=lambda: len(_plans) + len(_epi_plans), clear=clear_plan_cache)


def plan_cache_info() -> dict:
    """Plans kept now and the limit."""
    return {"plans": len(_plans), "epilogue_plans": len(_epi_plans), "limit": _plan_limit[0]}


# -- cublasLt epilogues: bias and ReLU applied in the GEMM's store --------------------------------
# cublasLtEpilogue_t values and the descriptor attributes (cublasLt.h).
EPILOGUES = {"default": 1, "relu": 2, "bias": 4, "relu_bias": 6}
_DESC_EPILOGUE, _DESC_BIAS_POINTER = 7, 8
_epi_plans: dict = {}
_epi_bias: dict = {}  # plan key -> the bias pointer its descriptor holds


def gemm_epilogue(char, ta, tb, m, n, k, a, lda, b, ldb, c, ldc, epilogue, bias=0, alpha=None) -> bool:
    """C = epilogue(alpha op(A) op(B) + bias) in one cublasLtMatmul, column-major; `bias` (a
    device pointer, length m, broadcast over the columns) for 'bias'/'relu_bias'; `alpha` a host
    scalar of the scale type (None: 1). Returns False, having done nothing, where Lt declines:
    a dtype or shape without such a kernel, pointers not 256-byte aligned, the plain-GEMM
    dispatch turned off (`USE_LT`)."""
    if not USE_LT or char not in "efd" or (a | b | c | bias) & 255:
        return False
    ct = _COMPUTE[char]
    if ct == 68 and char != "e":
        ct = _mode.f32
    dev = _device._tls.device_id
    lth = _lt_handle(dev)
    epi = EPILOGUES[epilogue]
    # Per handle (so per thread): the descriptor holds the bias pointer, set before each call.
    key = (lth, char, ct, ta, tb, m, n, k, lda, ldb, ldc, epi)
    p = _epi_plans.get(key, False)
    if p is False:
        if len(_epi_plans) >= _plan_limit[0]:
            _epi_plans.clear()
            _epi_bias.clear()
        p = _epi_plans[key] = _lt_plan(lth, char, ct, ta, tb, m, n, k, lda, ldb, ldc, epi, bias)
        _epi_bias[key] = bias
    if p is None:
        return False
    L = _ltlib
    if bias and _epi_bias.get(key) != bias:  # the pointer lives in the descriptor (read per call)
        ptr = numpy.array([bias], numpy.uint64)
        L.matmul_desc_set_attribute(p.desc, _DESC_BIAS_POINTER, ptr.ctypes.data, 8)
        _epi_bias[key] = bias
    sp = _stream.get_current_stream(dev).ptr
    wsz = p.ws
    ws = _memory.alloc(wsz) if wsz else None  # per call, as in _lt_gemm
    pa = _ONE_PTR[char] if alpha is None else alpha.ctypes.data
    L.matmul(lth, p.desc, pa, a, p.la, b, p.lb, _ZERO_PTR[char], c, p.lc, c, p.lc, p.algo,
             ws.ptr if wsz else 0, wsz, sp)
    return True
