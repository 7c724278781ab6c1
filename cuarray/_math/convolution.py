"""`convolve` (NumPy "Mathematical functions / Miscellaneous") and `correlate` (NumPy
"Statistics / Correlating"): discrete 1-D linear convolution and cross-correlation.

Both are one full correlation, sliced for the mode (`correlate_plan`, pure Python: NumPy's mode
arithmetic, including its swap when the second operand is the longer). The full correlation is
either a direct kernel (`templates/correlate_tiled.cu` for float32/float64: shared-memory tiles and
register windows; one output per thread in `templates/signal.cuh` for the other types), or, when both operands
are long and the dtype is inexact, a product of real or complex FFTs (`cuarray.fft`), which costs
O(n log n) instead of O(n*m) but rounds differently (errors relative to the largest term rather
than to each output). The switch point `FFT_MIN_SHORT` is the measured crossover (below).
float16 computes in float32 and bool in int32 (NumPy's OR of ANDs after the cast back).
"""

from __future__ import annotations

import pathlib

import numpy

from .._core import dtypes as _dtypes
from .._core.elementwise import Definition, KernelParam
from .._core.host_input import as_array
from .._core.ndarray import ndarray
from ..cuda.kernel_family import KernelFamily

__all__ = ["convolve", "correlate", "correlate_plan", "uses_fft", "FFT_MIN_SHORT", "FFT_MIN_SHORT_TILED"]

_TEMPLATES = pathlib.Path(__file__).parent / "templates"
_PREAMBLE = (_TEMPLATES / "signal.cuh").read_text()
_MODES = {"valid": 0, "same": 1, "full": 2}
_I64 = numpy.dtype(numpy.int64)

# Shorter operand length from which an inexact correlation goes through the FFT. Measured on an
# H100 (scripts/perf/linperf_losses.py, float32, n = 2**24, 'same'): the FFT path costs ~1.2 ms
# whatever k; the tiled direct kernel (float32/float64) ~1 us per kernel element (k=511: 0.54 ms,
# k=1023: 1.00, k=2047: 1.99), so equal near k ~ 1200; the per-output kernel (complex) ~4.4 us per
# element (k=255: 1.24 ms), equal near k ~ 256.
FFT_MIN_SHORT = 256
FFT_MIN_SHORT_TILED = 1024
# float32 where the FFT route is overlap-save blocks (a long operand of 2^21 samples or more) takes
# it from this many taps. Measured on an H100 (in one process, interleaved, 'same', µs tiled / FFT
# blocks): 2^22 samples k = 639 201 / 211, 767 231 / 181, 1023 302 / 228; 2^24 samples k = 383
# 420 / 307, 639 636 / 440, 1023 974 / 318. (An earlier switch at 640 was reverted on a 474 µs
# blocks measurement at k = 1023 from before `fast_len` and `block_len` were cached.)
FFT_MIN_SHORT_BLOCKS_F4 = 640
_F4 = numpy.dtype(numpy.float32)


def _mode(mode) -> int:
    """NumPy's mode argument: a name or 0/1/2, with its exception types."""
    if isinstance(mode, str):
        if mode not in _MODES:
            raise ValueError("mode must be one of 'valid', 'same', or 'full' (got {!r})".format(mode))
        return _MODES[mode]
    if isinstance(mode, (int, numpy.integer)) and not isinstance(mode, bool):
        if mode not in (0, 1, 2):
            raise ValueError("integer convolve/correlate mode must be 0, 1, or 2")
        return int(mode)
    raise TypeError("convolve/correlate mode not understood")


def correlate_plan(na: int, nv: int, mode) -> tuple[int, int]:
    """(start, length): `correlate(a, v, mode)` is full[start:start+length], where full[m] =
    sum_n a[m - (nv - 1) + n] * conj(v[n]) for m in range(na + nv - 1)."""
    m = _mode(mode)
    full = na + nv - 1
    short, long_ = min(na, nv), max(na, nv)
    if m == 0:
        length, n_left = long_ - short + 1, 0
    elif m == 1:
        length, n_left = long_, short // 2
    else:
        length, n_left = full, short - 1
    if na >= nv:
        start = nv - 1 - n_left
    else:  # NumPy correlates (conj(v), a) and reverses: the mirror image of the window
        start = full - (na - 1 - n_left) - length
    return start, length


_defs: dict = {}


def _definition(cdt, out_dt) -> Definition:
    key = (cdt, out_dt)
    d = _defs.get(key)
    if d is None:
        params = [KernelParam("a", "raw", cdt), KernelParam("w", "raw", cdt),
                  KernelParam("na", "scalar", _I64), KernelParam("nw", "scalar", _I64),
                  KernelParam("off", "scalar", _I64), KernelParam("out0", "out", out_dt, cdt)]
        d = _defs[key] = Definition(
            "cuarray_correlate_{}".format(cdt.name), params,
            "out0 = cuarray_signal::correlate_at(a, w, na, nw, (long long)i, off)", preamble=_PREAMBLE)
    return d


# Outputs per thread of the tiled kernel (its R): the window of R + 4 values stays in registers;
# 8 floats halve the shared loads per multiply-add against 4, doubles keep 4 (twice the bytes).
_TILED_R = {"f": 8, "d": 4}


def tiled_source() -> str:
    return _PREAMBLE + (_TEMPLATES / "correlate_tiled.cu").read_text()


TILED = KernelFamily("cuarray_correlate_tiled", tiled_source, kernels=(
    "cuarray_correlate_tiled<T, R>(const T* a, const T* w, T* out, const long long na, const int nw, "
    "const long long length, const long long off)",
))


def tiled_kernel_name(char: str) -> str:
    return "cuarray_correlate_tiled<{}, {}>".format("float" if char == "f" else "double", _TILED_R[char])


def _tiled_kernel(char: str):
    return TILED.kernel(tiled_kernel_name(char))


def _direct(a: ndarray, w: ndarray, start: int, length: int, out_dt) -> ndarray:
    """out[k] = full[start + k] of the correlation of a with w (both 1-D, compute dtype)."""
    na, nw = a.shape[0], w.shape[0]
    a = a.copy() if not a._c else a
    w = w.copy() if not w._c else w
    char = a.dtype.char
    if char in _TILED_R and out_dt == a.dtype and nw < 2**31:
        out = ndarray((length,), out_dt)
        tile = 256 * _TILED_R[char]
        _tiled_kernel(char).launch((length + tile - 1) // tile, 256, a.data.ptr, w.data.ptr, out.data.ptr, na, nw,
                                   length, nw - 1 - start)
        return out
    d = _definition(a.dtype, out_dt)
    out = ndarray((length,), out_dt)
    d.run((out,), (_I64.type(na), _I64.type(nw), _I64.type(nw - 1 - start)), (length,), raw=(a, w))
    return out


def _fft_full(a: ndarray, w: ndarray, start: int, length: int, out_dt) -> ndarray:
    """The same slice of the full convolution of a with reversed w, by FFT."""
    from . import fft_convolve  # import time: fft (34 ms measured) loads for the FFT path only

    na, nw = a.shape[0], w.shape[0]
    wr = w[::-1]
    if fft_convolve.use_blocks(max(na, nw), min(na, nw), a.dtype.kind == "f", a.dtype):
        long_, short = (a, wr) if na >= nw else (wr, a)  # (convolution commutes)
        return fft_convolve.convolve_blocks(long_, short, start, length).astype(out_dt, copy=False)
    full = fft_convolve.convolve_full(a, wr)
    return full[start:start + length].astype(out_dt, copy=False)


def _prepare(a, v, what):
    a, v = as_array(a, what), as_array(v, what)
    if a.ndim == 0:
        a = a.reshape((1,))
    if v.ndim == 0:
        v = v.reshape((1,))
    if a.ndim != 1 or v.ndim != 1:
        raise ValueError("object too deep for desired array")
    out_dt = numpy.result_type(a.dtype, v.dtype)
    if out_dt not in _dtypes.SUPPORTED_DTYPES:
        raise TypeError("{}: unsupported dtype {}".format(what, out_dt))
    cdt = (numpy.dtype(numpy.float32) if out_dt.char == "e" else
           numpy.dtype(numpy.int32) if out_dt.kind == "b" else out_dt)
    return a.astype(cdt, copy=False), v.astype(cdt, copy=False), out_dt


def uses_fft(na: int, nw: int, dtype) -> bool:
    """Whether the full correlation of operands of na and nw samples in the compute dtype `dtype`
    goes through the FFT (else the direct kernel): complex from FFT_MIN_SHORT taps of the shorter,
    real from FFT_MIN_SHORT_TILED, float32 in overlap-save blocks from FFT_MIN_SHORT_BLOCKS_F4."""
    short = min(na, nw)
    if dtype.kind == "c":
        return short >= FFT_MIN_SHORT
    if dtype == _F4 and FFT_MIN_SHORT_BLOCKS_F4 <= short < FFT_MIN_SHORT_TILED:
        from . import fft_convolve  # (import time: see _fft_full)

        return fft_convolve.use_blocks(max(na, nw), short, True, dtype)
    return dtype.kind == "f" and short >= FFT_MIN_SHORT_TILED


def _correlate_full_slice(a, w, start, length, out_dt):
    """Correlation of a with w (already conjugated) over full[start:start+length]."""
    if length <= 0:
        return ndarray((0,), out_dt)
    if uses_fft(a.shape[0], w.shape[0], a.dtype):
        return _fft_full(a, w, start, length, out_dt)
    return _direct(a, w, start, length, out_dt)


def correlate(a, v, mode="valid"):
    """See `numpy.correlate`: c[k] = sum_n a[n+k] * conj(v[n]).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.correlate(cuarray.array([1., 2., 3.]), cuarray.array([0., 1., 0.5]))
    array([3.5])
    """
    a, v, out_dt = _prepare(a, v, "correlate")
    if a.shape[0] == 0:
        raise ValueError("first array argument cannot be empty")
    if v.shape[0] == 0:
        raise ValueError("second array argument cannot be empty")
    start, length = correlate_plan(a.shape[0], v.shape[0], mode)
    if v.dtype.kind == "c":
        v = v.conj()
    return _correlate_full_slice(a, v, start, length, out_dt)


def convolve(a, v, mode="full"):
    """See `numpy.convolve`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.convolve(cuarray.array([1., 2., 3.]), cuarray.array([0., 1., 0.5]))
    array([0. , 1. , 2.5, 4. , 1.5])
    """
    a, v, out_dt = _prepare(a, v, "convolve")
    if v.shape[0] > a.shape[0]:
        a, v = v, a
    if a.shape[0] == 0:
        raise ValueError("a cannot be empty")
    if v.shape[0] == 0:
        raise ValueError("v cannot be empty")
    start, length = correlate_plan(a.shape[0], v.shape[0], mode)
    return _correlate_full_slice(a, v[::-1], start, length, out_dt)
