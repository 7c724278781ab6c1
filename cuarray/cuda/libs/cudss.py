"""cuDSS, the sparse direct solver, through `nvmath.bindings.cudss`: one handle per (device,
thread) bound to the current stream, and `Factorization`, one CSR matrix analysed and factorised
(reordering, symbolic and numeric LU) with solves against dense right-hand sides.

The analysis's reordering runs on the host. Where the wheel's GNU OpenMP threading layer
(libcudss_mtlayer_gomp.so.0, beside libcudss.so.0) loads, each handle uses it with a thread a
usable core (`host_threads`): the 2-D Poisson matrix of 1e6 unknowns took 5.2 s to analyse on one
thread, 1.35 s on 16 (H200 host, scripts/perf/cudss_phases.py). Without it (no libgomp, say) the
reordering stays on one thread.

cuDSS is optional (`pip install 'cuarray[cudss]'`, the wheel `nvidia-cudss-cu13`); where its
library is absent every entry point raises ImportError naming that extra. The only importer of
`nvmath.bindings.cudss`. Pointers are ints; the host buffers of the data queries are NumPy arrays
held for the call.
"""

from __future__ import annotations

import os

import numpy

from .. import stream as _stream
from ..memory import alloc
from ._handles import PerThreadHandle, nvmath_bindings

__all__ = ["bindings", "available", "unavailable_reason", "handle", "Factorization", "INSTALL_HINT", "host_threads"]

INSTALL_HINT = ("this operation needs NVIDIA cuDSS: pip install 'cuarray[cudss]' (the nvidia-cudss-cu13 wheel; "
                "python -m cuarray info lists what is found)")

# cudaDataType values (library_types.h), ABI-stable
_VALUE_TYPE = {"f": 0, "d": 1, "F": 4, "D": 5}
_R_32I = 10

_lib = None


def bindings():
    """`nvmath.bindings.cudss`, imported on first use; ImportError naming the extra without it."""
    global _lib
    if _lib is None:
        try:
            _lib = nvmath_bindings("cudss")
        except ImportError as e:
            raise ImportError("{}: {}".format(INSTALL_HINT, e)) from e
    return _lib


def _not_found(exc: BaseException) -> bool:
    # libcudss.so.0 is absent (cuda.pathfinder's DynamicLibNotFoundError). A library that is found but
    # lacks a symbol nvmath binds (FunctionNotFoundError: a cuDSS older than the binding) or fails in
    # cudssCreate is installed but broken: that error propagates, it is not "not installed".
    return type(exc).__name__ == "DynamicLibNotFoundError" or "Failure finding" in str(exc)


# nvmath-python 1.0 binds the cuDSS 0.8 API (cudssMatrixCreateCsr with offsetType); an older 0.x
# libcudss.so.0 would take the arguments shifted, so it is refused before any call but these.
_MIN_VERSION = (0, 8)


def _create():
    lib = bindings()
    try:
        version = (lib.get_property(0), lib.get_property(1))  # MAJOR_VERSION, MINOR_VERSION
    except Exception as e:  # the library itself is missing: nvmath finds it only when first called
        if _not_found(e):
            raise ImportError("{}: {}".format(INSTALL_HINT, e)) from e
        raise
    if version < _MIN_VERSION:
        raise RuntimeError("cuDSS {}.{} is installed, but nvmath-python's binding needs cuDSS >= {}.{} and < 1 "
                           "(pip install -U 'cuarray[cudss]')".format(*version, *_MIN_VERSION))
    h = lib.create()
    layer = _threading_layer()
    if layer is not None:
        try:
            lib.set_threading_layer(h, layer)
            _threaded[0] = True
        except Exception:  # noqa: BLE001 (cuDSSError: the layer or libgomp does not load: one thread)
            pass
    return h


_MT_LAYER = "libcudss_mtlayer_gomp.so.0"
_threaded = [False]  # a handle of this process uses the threading layer


def _threading_layer():
    """The path of cuDSS's GNU OpenMP threading layer beside the loaded libcudss.so.0, or None."""
    try:
        from cuda.pathfinder import load_nvidia_dynamic_lib  # (cached: nvmath loaded libcudss through it)

        path = os.path.join(os.path.dirname(load_nvidia_dynamic_lib("cudss").abs_path), _MT_LAYER)
    except Exception:  # noqa: BLE001 (no path to look beside: one thread)
        return None
    return path if os.path.isfile(path) else None


def host_threads() -> int:
    """The host threads cuDSS's reordering uses: a usable core each where the threading layer
    loaded (OMP_NUM_THREADS, where set, caps them), else 1."""
    if not _threaded[0]:
        return 1
    n = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    cap = os.environ.get("OMP_NUM_THREADS", "")
    return max(1, min(n, int(cap))) if cap.isdigit() and int(cap) > 0 else max(1, n)


_handles = PerThreadHandle(_create, lambda h: bindings().destroy(h), name="cuDSS handles")


def unavailable_reason():
    """None where cuDSS loads here (its bindings and its library), else why not (the ImportError's
    text). An installed library that fails to load or to create a handle raises, not a reason."""
    try:
        handle()
        return None
    except ImportError as e:
        return str(e)


def available() -> bool:
    """Whether cuDSS loads here (its bindings and its library); raises where it is installed but broken."""
    return unavailable_reason() is None


def handle() -> int:
    """The calling thread's cuDSS handle for the current device, bound to the current stream."""
    h = _handles.get()
    bindings().set_stream(h, _stream.get_current_stream().ptr)
    return h


def supports(dtype) -> bool:
    return numpy.dtype(dtype).char in _VALUE_TYPE


class Factorization:
    """The LU factorisation of an n x n CSR matrix (int32 `indptr`/`indices`, `data` of a
    float32/64 or complex64/128 dtype, device arrays kept alive by the caller), made at
    construction; `singular()` says whether a pivot was (numerically) zero.

    cuDSS does not stop at a zero pivot: it replaces every pivot smaller in magnitude than its
    pivot epsilon by that epsilon ("perturbed pivots", counted by CUDSS_DATA_NPIVOTS) and leaves
    CUDSS_DATA_INFO at 0. Its default epsilon (1e-13 in double) would also perturb the legitimate
    pivots of a small-scaled matrix, so the epsilon is set to the smallest normal number of the
    dtype: only zero (and subnormal) pivots are perturbed, which is SuperLU's "exactly singular".
    """

    def __init__(self, n, indptr, indices, data):
        lib = bindings()
        self.n = n
        self.char = numpy.dtype(data.dtype).char
        self._keep = (indptr, indices, data)
        h = handle()
        self.config = lib.config_create()
        self.data = lib.data_create(h)
        self.eps = float(numpy.finfo(self.char).tiny)
        eps = numpy.array([self.eps], numpy.float64)  # cuDSS takes the epsilon as a double for every dtype
        lib.config_set(self.config, int(lib.ConfigParam.PIVOT_EPSILON), eps.ctypes.data, eps.nbytes)
        if _threaded[0]:
            threads = numpy.array([host_threads()], numpy.int32)
            lib.config_set(self.config, int(lib.ConfigParam.HOST_NTHREADS), threads.ctypes.data, threads.nbytes)
        vt = _VALUE_TYPE[self.char]
        self.matrix = lib.matrix_create_csr(n, n, int(indices.shape[0]), indptr.data.ptr, 0, indices.data.ptr,
                                            data.data.ptr, _R_32I, _R_32I, vt, int(lib.MatrixType.GENERAL),
                                            int(lib.MatrixViewType.FULL), int(lib.IndexBase.ZERO))
        # analysis and factorisation need dense descriptors; a 1-column placeholder does
        self._scratch = alloc(max(n, 1) * numpy.dtype(self.char).itemsize * 2)
        x = self._dense(self._scratch.ptr, 1)
        b = self._dense(self._scratch.ptr + max(n, 1) * numpy.dtype(self.char).itemsize, 1)
        try:
            lib.execute(h, int(lib.Phase.ANALYSIS), self.config, self.data, self.matrix, x, b)
            lib.execute(h, int(lib.Phase.FACTORIZATION), self.config, self.data, self.matrix, x, b)
        finally:
            lib.matrix_destroy(x)
            lib.matrix_destroy(b)

    def _dense(self, ptr, ncols):
        lib = bindings()
        return lib.matrix_create_dn(self.n, ncols, self.n, ptr, _VALUE_TYPE[self.char], int(lib.Layout.COL_MAJOR))

    def solve_into(self, b_ptr, x_ptr, ncols):
        """x = A^-1 b for `ncols` column-major right-hand sides (n x ncols, leading dimension n)."""
        lib = bindings()
        h = handle()
        b, x = self._dense(b_ptr, ncols), self._dense(x_ptr, ncols)
        try:
            lib.execute(h, int(lib.Phase.SOLVE), self.config, self.data, self.matrix, x, b)
        finally:
            lib.matrix_destroy(x)
            lib.matrix_destroy(b)

    def _get(self, param, buf):
        lib = bindings()
        written = numpy.zeros(1, numpy.uint64)
        lib.data_get(handle(), self.data, int(param), buf.ctypes.data, buf.nbytes, written.ctypes.data)
        return buf

    def _int(self, param) -> int:
        """One integer data parameter, in the width nvmath's binding declares (int32 where it has none)."""
        lib = bindings()
        try:
            dt = numpy.dtype(lib.get_data_param_dtype(int(param)))
        except Exception:  # the binding's table lacks it (NPIVOTS in some releases): cuDSS's type is int
            dt = numpy.dtype(numpy.int32)
        return int(self._get(param, numpy.zeros(1, dt))[0])

    def info(self) -> int:
        """cuDSS's status after the factorisation (reads the device; synchronises)."""
        _stream.get_current_stream().synchronize()
        return self._int(bindings().DataParam.INFO)

    def npivots(self) -> int:
        """The number of perturbed (zero) pivots of the factorisation (synchronises)."""
        _stream.get_current_stream().synchronize()
        return self._int(bindings().DataParam.NPIVOTS)

    def diag(self):
        """The diagonal of the factorised matrix, U's pivots (host array; synchronises)."""
        _stream.get_current_stream().synchronize()
        return self._get(bindings().DataParam.DIAG, numpy.zeros(self.n, numpy.dtype(self.char)))

    def singular(self):
        """Whether a pivot was zero: True on cuDSS's INFO or a perturbed pivot (NPIVOTS > 0) whose
        diagonal entry is at most the epsilon it was replaced by (or NaN); False without perturbed
        pivots; None where pivots were counted but the diagonal does not show one (or cannot be
        read): the caller decides by a probe solve (`SuperLU`)."""
        if self.n == 0:
            return False
        if self.info() != 0:
            return True
        if self.npivots() == 0:
            return False
        try:
            d = numpy.abs(self.diag())
        except Exception:  # cuDSS without the diagonal query
            return None
        return True if not bool((d > self.eps).all()) else None

    def status(self) -> dict:
        """INFO, NPIVOTS and the smallest |pivot| (or the DIAG query's error), for diagnostics."""
        out = {"info": self.info(), "npivots": self.npivots(), "eps": self.eps}
        try:
            d = numpy.abs(self.diag())
            out["min_abs_diag"] = float(d.min()) if d.size else None
        except Exception as e:
            out["min_abs_diag"] = "DIAG query failed: {}".format(e)
        return out

    def lu_nnz(self) -> int:
        return int(self._get(bindings().DataParam.LU_NNZ, numpy.zeros(1, numpy.int64))[0])

    def __del__(self):
        lib = _lib
        if lib is None:
            return
        try:
            lib.matrix_destroy(self.matrix)
            lib.data_destroy(handle(), self.data)
            lib.config_destroy(self.config)
        except Exception:  # interpreter shutdown or a lost context: nothing left to free
            pass
