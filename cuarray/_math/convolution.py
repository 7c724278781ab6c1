"""`convolve` (NumPy "Mathematical functions / Miscellaneous") and `correlate` (NumPy
"Statistics / Correlating"): discrete 1-D linear convolution and cross-correlation.

Both are one full correlation, sliced for the mode (`correlate_plan`, pure Python: NumPy's mode
arithmetic, including its swap when the second operand is the longer). The full correlation is
either a direct kernel (`templates/correlate_tiled.cu` for float32/float64: shared-memory tiles and
register windows; one output per thread in `templates/signal.cuh` for the other types), or, when both operands
are long and the dtype is inexact, a product of real or complex FFTs (`cuarray.fft`), which costs
O(n log n) instead of O(n*m) but rounds differently (errors relative to the largest term rather
than to each output). The switch point `FFT_MIN_SHORT` is the measured crossover (below). The
direct kernels read the short operand in place through its stride, convolve's reversal included
(a pointer to its last element and a negative step), so a direct call is one launch.
float16 computes in float32 and bool in int32 (NumPy's OR of ANDs after the cast back).
"""

from __future__ import annotations

import pathlib
from typing import NamedTuple

import numpy

from .._core import dtypes as _dtypes
from .._core.elementwise import Definition, KernelParam
from .._core.host_input import as_array
from .._core.ndarray import _new_c, ndarray
from ..cuda.kernel_family import KernelFamily
from ..cuda import caches as _caches

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
_caches.register("convolve definitions", _defs)


def _definition(cdt, out_dt) -> Definition:
    key = (cdt, out_dt)
    d = _defs.get(key)
    if d is None:
        params = [KernelParam("a", "raw", cdt), KernelParam("w", "raw", cdt),
                  KernelParam("na", "scalar", _I64), KernelParam("nw", "scalar", _I64),
                  KernelParam("off", "scalar", _I64), KernelParam("w0", "scalar", _I64),
                  KernelParam("ws", "scalar", _I64), KernelParam("out0", "out", out_dt, cdt)]
        d = _defs[key] = Definition(
            "cuarray_correlate_{}".format(cdt.name), params,
            "out0 = cuarray_signal::correlate_at(a, w + w0, ws, na, nw, (long long)i, off)", preamble=_PREAMBLE)
    return d


# Outputs per thread of the tiled kernel (its R): the window of R + 4 values stays in registers;
# 8 floats halve the shared loads per multiply-add against 4, doubles keep 4 (twice the bytes).
_TILED_R = {"f": 8, "d": 4}
_TILED_BLOCK = 256


def tiled_source() -> str:
    return _PREAMBLE + (_TEMPLATES / "correlate_tiled.cu").read_text()


TILED = KernelFamily("cuarray_correlate_tiled", tiled_source, kernels=(
    "cuarray_correlate_tiled<T, R>(const T* a, const T* w, T* out, const long long na, const int nw, "
    "const long long ws, const long long length, const long long off)",
))


def tiled_kernel_name(char: str) -> str:
    return "cuarray_correlate_tiled<{}, {}>".format("float" if char == "f" else "double", _TILED_R[char])


class DirectPlan(NamedTuple):
    """The direct correlation's launch: `length` outputs from full[start], `tiled` the kernel name
    (None: the per-output Definition) and its `grid`; `off` = nw - 1 - start, the kernels' offset."""
    start: int
    length: int
    off: int
    tiled: str | None
    grid: int


def direct_plan(na: int, nw: int, start: int, length: int, cdt, out_dt) -> DirectPlan:
    """Pure: the plan of `_direct` for operands of na and nw samples of compute dtype `cdt`."""
    char = cdt.char
    if char in _TILED_R and out_dt == cdt and nw < 2**31:
        tile = _TILED_BLOCK * _TILED_R[char]
        return DirectPlan(start, length, nw - 1 - start, tiled_kernel_name(char), (length + tile - 1) // tile)
    return DirectPlan(start, length, nw - 1 - start, None, 0)


def _run_direct(a: ndarray, v: ndarray, flip: bool, plan: DirectPlan, out_dt) -> ndarray:
    """plan's slice of the correlation of a with w, where w is v (flip False) or v reversed (flip
    True: convolve's), read in place through its stride (no reversed or contiguous copy of v)."""
    if not a._c:
        a = a.copy()
    nv, itemsize, step = v._shape[0], v._dtype.itemsize, v._strides[0]
    if step % itemsize:  # (a byte stride no element stride gives: as_strided)
        v, step = v.copy(), itemsize
    ws = step // itemsize
    w0 = 0
    if flip:
        w0, ws = (nv - 1) * ws, -ws
    length = plan.length
    out = _new_c((length,), out_dt)
    if plan.tiled is not None:
        TILED.get(plan.tiled)[0].launch(plan.grid, _TILED_BLOCK, a.data.ptr, v.data.ptr + w0 * itemsize,
                                        out.data.ptr, a._shape[0], nv, ws, length, plan.off)
        return out
    i64 = _I64.type
    _definition(a._dtype, out_dt).run((out,), (i64(a._shape[0]), i64(nv), i64(plan.off), i64(w0), i64(ws)),
                                       (length,), raw=(a, v))
    return out


def _direct(a: ndarray, w: ndarray, start: int, length: int, out_dt) -> ndarray:
    """out[k] = full[start + k] of the correlation of a with w (both 1-D, compute dtype)."""
    return _run_direct(a, w, False, direct_plan(a.shape[0], w.shape[0], start, length, a.dtype, out_dt), out_dt)


def _fft_convolve():
    """The FFT path's module (`fft_convolve`)."""
    from . import fft_convolve  # import time: fft (34 ms measured) loads for the FFT path only

    return fft_convolve


def _fft_full(a: ndarray, w: ndarray, start: int, length: int, out_dt) -> ndarray:
    """The same slice of the full convolution of a with reversed w, by FFT."""
    fft_convolve = _fft_convolve()
    na, nw = a.shape[0], w.shape[0]
    wr = w[::-1]
    if fft_convolve.use_blocks(max(na, nw), min(na, nw), a.dtype.kind == "f", a.dtype):
        long_, short = (a, wr) if na >= nw else (wr, a)  # (convolution commutes)
        return fft_convolve.convolve_blocks(long_, short, start, length).astype(out_dt, copy=False)
    full = fft_convolve.convolve_full(a, wr)
    return full[start:start + length].astype(out_dt, copy=False)


# (dtype of a, dtype of v) -> (result dtype, compute dtype): numpy.result_type and the checks once
# a pair, not each call (the host path of a short convolve is what its time is).
_dtype_pairs: dict = {}


def _dtypes_of(adt, vdt, what):
    r = _dtype_pairs.get((adt, vdt))
    if r is None:
        out_dt = numpy.result_type(adt, vdt)
        if out_dt not in _dtypes.SUPPORTED_DTYPES:
            raise TypeError("{}: unsupported dtype {}".format(what, out_dt))
        cdt = (numpy.dtype(numpy.float32) if out_dt.char == "e" else
               numpy.dtype(numpy.int32) if out_dt.kind == "b" else out_dt)
        r = _dtype_pairs[(adt, vdt)] = (out_dt, cdt)
    return r


def _prepare(a, v, what):
    a, v = as_array(a, what), as_array(v, what)
    if len(a._shape) != 1:
        if a.ndim != 0:
            raise ValueError("object too deep for desired array")
        a = a.reshape((1,))
    if len(v._shape) != 1:
        if v.ndim != 0:
            raise ValueError("object too deep for desired array")
        v = v.reshape((1,))
    out_dt, cdt = _dtypes_of(a._dtype, v._dtype, what)
    if a._dtype != cdt:
        a = a.astype(cdt, copy=False)
    if v._dtype != cdt:
        v = v.astype(cdt, copy=False)
    return a, v, out_dt


def uses_fft(na: int, nw: int, dtype) -> bool:
    """Whether the full correlation of operands of na and nw samples in the compute dtype `dtype`
    goes through the FFT (else the direct kernel): complex from FFT_MIN_SHORT taps of the shorter,
    real from FFT_MIN_SHORT_TILED, float32 in overlap-save blocks from FFT_MIN_SHORT_BLOCKS_F4."""
    short = min(na, nw)
    if dtype.kind == "c":
        return short >= FFT_MIN_SHORT
    if dtype == _F4 and FFT_MIN_SHORT_BLOCKS_F4 <= short < FFT_MIN_SHORT_TILED:
        return _fft_convolve().use_blocks(max(na, nw), short, True, dtype)
    return dtype.kind == "f" and short >= FFT_MIN_SHORT_TILED


def _correlate_full_slice(a, w, start, length, out_dt):
    """Correlation of a with w (already conjugated) over full[start:start+length]."""
    if length <= 0:
        return ndarray((0,), out_dt)
    if uses_fft(a.shape[0], w.shape[0], a.dtype):
        return _fft_full(a, w, start, length, out_dt)
    return _direct(a, w, start, length, out_dt)


# (na, nv, mode, compute dtype, result dtype) -> DirectPlan, for operands whose shorter has fewer
# than FFT_MIN_SHORT samples: the direct route whatever the dtype, decided by constants alone (the
# FFT routes ask `fft_convolve.use_blocks`, whose threshold tests change, so they are decided each
# call). The convolve[k=15] bench row was host-bound; on the fake device (scripts/perf/
# convolve_host.py) reading the kernel in place (no reversed copy: one launch, not two) and this
# memo took convolve(x, w, 'same') from 152 Python calls and ~20 us to 41 and ~5 us.
_plans: dict = {}
_caches.register("convolve plans", _plans)


def _correlate_mode(a, v, flip, mode, out_dt):
    """`mode`'s slice of the full correlation of a with w: w is v, or v reversed (flip: convolve's)."""
    na, nv = a._shape[0], v._shape[0]
    key = (na, nv, mode, a._dtype, out_dt)
    plan = _plans.get(key) if type(mode) is str else None  # (1 and True hash alike: ints are not memoised)
    if plan is None:
        start, length = correlate_plan(na, nv, mode)
        if length <= 0:
            return ndarray((0,), out_dt)
        if uses_fft(na, nv, a._dtype):
            return _fft_full(a, v[::-1] if flip else v, start, length, out_dt)
        plan = direct_plan(na, nv, start, length, a._dtype, out_dt)
        if type(mode) is str and min(na, nv) < FFT_MIN_SHORT:
            if len(_plans) > 1024:
                _plans.clear()
            _plans[key] = plan
    return _run_direct(a, v, flip, plan, out_dt)


def correlate(a, v, mode="valid"):
    """See `numpy.correlate`: c[k] = sum_n a[n+k] * conj(v[n]).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.correlate(cuarray.array([1., 2., 3.]), cuarray.array([0., 1., 0.5]))
    array([3.5])
    """
    a, v, out_dt = _prepare(a, v, "correlate")
    if a._shape[0] == 0:
        raise ValueError("first array argument cannot be empty")
    if v._shape[0] == 0:
        raise ValueError("second array argument cannot be empty")
    if v._dtype.kind == "c":
        v = v.conj()
    return _correlate_mode(a, v, False, mode, out_dt)


def convolve(a, v, mode="full"):
    """See `numpy.convolve`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.convolve(cuarray.array([1., 2., 3.]), cuarray.array([0., 1., 0.5]))
    array([0. , 1. , 2.5, 4. , 1.5])
    """
    a, v, out_dt = _prepare(a, v, "convolve")
    if v._shape[0] > a._shape[0]:
        a, v = v, a
    if a._shape[0] == 0:
        raise ValueError("a cannot be empty")
    if v._shape[0] == 0:
        raise ValueError("v cannot be empty")
    return _correlate_mode(a, v, True, mode, out_dt)
