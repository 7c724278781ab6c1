"""scipy.signal's linear filters on the GPU: `lfilter` (with `zi`, any axis), `lfilter_zi`,
`sosfilt`, `sosfilt_zi`, `filtfilt` and `sosfiltfilt` (the 'pad' method). The recursion is SciPy's
direct form II transposed in float64 (templates/iir.cuh), run as a blocked parallel scan: each line
is cut into chunks that run at once, their start states carried across by the filter's state
matrix raised to the chunk length, so one long signal fills the GPU as a batch of short ones does.
Filters of up to 16 delays run kernels compiled for their exact order (state and coefficients in
registers); along the last axis the chunks are staged through shared memory, so a warp's loads and
stores are coalesced, and a filter whose zero-input response decays below rounding within a few
hundred samples runs in one pass instead of the scan: each chunk starts that many samples early
from a zero state (the overlap plan). `SWEEPS` names the plans.

Differences from SciPy: complex signals run as two real passes, complex coefficients as
real-coefficient filters (_lfilter_complex.py: a complex denominator doubles the order); an IIR
filter has at most 512 delays (FIR filters of any length: past 512 taps they run as an FFT
convolution), and past 32 delays a line runs on one thread; `filtfilt(method='gust')` solves its
least squares with an SVD made on the host (_filtfilt_gust.py). float32 filters compute in
float64 (SciPy: in float32), and chunk boundaries round differently from SciPy's single sweep (relative ~1e-15 for
a stable filter in float64; the overlap plan's warmed-up states are the exact ones to under 2^-60).
"""

from __future__ import annotations

import functools
import math
import pathlib

import numpy

from ..._core import dtypes as _dtypes
from ..._core.copying import astype
from ..._core.ndarray import ndarray
from ..._core.transfer import from_host as _from_host
from ..._manipulation.dims import broadcast_to as _broadcast
from ..._manipulation.joining import concatenate as _concatenate
from ..._manipulation.joining import stack as _stack
from ...cuda import launch as _launch
from ...cuda.kernel_family import KernelFamily
from ..ndimage import _support as _s
from . import _args
from . import _filtfilt_gust
from . import _lfilter_complex
from ._convolve import fftconvolve as _fftconvolve

__all__ = ["lfilter", "lfilter_zi", "sosfilt", "sosfilt_zi", "filtfilt", "sosfiltfilt", "KMAXES", "SCAN_KMAX",
           "FIXED_KMAX", "SWEEPS", "chunk_kernel_name", "carry_kernel_name", "fixed_chunk_kernel_name",
           "fixed_carry_kernel_name", "rows_kernel_name", "sweep_for", "plan_chunks", "plan_overlap",
           "OVERLAP_LAYOUTS", "overlap_layout",
           "decay_length", "decay_of", "settling", "transition", "source"]

_DIR = pathlib.Path(__file__).parent / "templates"
KMAXES = (8, 32, 128, 512)
SCAN_KMAX = 32  # past this, the carry's K x K products per chunk cost more than the scan saves
_MIN_CHUNK = 64
_MIN_SCAN = 4096  # shorter lines: one sweep (~10 ns a step) beats the scan's five launches
_ENOUGH_LINES = 1 << 17  # lines that fill an H100/H200 on their own: no chunking
_BLOCK = 64  # few, long-running threads when lines are few: spread them over more SMs
_F8 = numpy.dtype(numpy.float64)
# The plans of the sweeps, the default first. "overlap": along the last axis, one pass of
# lfilter_rows where each chunk warms up over the samples before it (decay_length), when the filter
# decays fast enough (plan_overlap), else "staged"; "staged": the scan, exact-order kernels, chunks
# along the last axis staged through shared memory (lfilter_rows); "fixed": the scan, exact-order
# kernels, a thread sweeping its chunk in place (lfilter_chunks_k); "runtime": the scan, one kernel
# per KMAX with the order a runtime value (state in local memory: the first implementation, and
# every filter of more than FIXED_KMAX delays). Along other axes the first three are "fixed".
# scripts/perf/peaks_lfilter_variants.py times them.
SWEEPS = ("overlap", "staged", "fixed", "runtime")
FIXED_KMAX = 16  # registers: K = 16 uses ~150 in lfilter_rows, 168 in the carry, no spills
_ROWS = 64  # ROWS of iir.cu


def source() -> str:
    return "#define CUARRAY_DEVICE __device__\n" + (_DIR / "iir.cuh").read_text() + (_DIR / "iir.cu").read_text()


def _kmax(k: int) -> int:
    for m in KMAXES:
        if k <= m:
            return m
    raise NotImplementedError("IIR filters of more than {} delays are not supported on the GPU".format(KMAXES[-1]))


def chunk_kernel_name(in_dt, out_dt, k: int) -> str:
    return "cuarray_signal::lfilter_chunks<{}, {}, {}>".format(_dtypes.ctype(in_dt), _dtypes.ctype(out_dt), _kmax(k))


def carry_kernel_name(k: int) -> str:
    return "cuarray_signal::lfilter_carry<{}>".format(_kmax(k))


def fixed_chunk_kernel_name(in_dt, out_dt, K: int) -> str:
    return "cuarray_signal::lfilter_chunks_k<{}, {}, {}>".format(_dtypes.ctype(in_dt), _dtypes.ctype(out_dt), K)


def fixed_carry_kernel_name(K: int) -> str:
    return "cuarray_signal::lfilter_carry_k<{}>".format(K)


def rows_kernel_name(in_dt, out_dt, K: int, win: int = 32) -> str:
    name = "cuarray_signal::lfilter_rows<{}, {}, {}".format(_dtypes.ctype(in_dt), _dtypes.ctype(out_dt), K)
    return name + (">" if win == 32 else ", {}>".format(win))


def sweep_for(plan: str, K: int, inner: int) -> str:
    """The kernel family `plan` (one of SWEEPS) comes to for a filter of K delays along lines whose
    samples are `inner` elements apart ("overlap" may still become "staged": see _run)."""
    if plan not in SWEEPS:
        raise ValueError("unknown sweep plan {!r}".format(plan))
    if plan == "runtime" or K > FIXED_KMAX:
        return "runtime"
    return plan if plan in ("overlap", "staged") and inner == 1 else "fixed"


IIR = KernelFamily("cuarray_signal_iir", source, namespace="cuarray_signal", kernels=(
    "lfilter_chunks<T, O, KMAX>(const double* ba, int K, const T* x, O* y, long long n, long long inner, "
    "long long L, long long C, long long total, const double* start, double* end)",
    "lfilter_carry<KMAX>(const double* M, int K, double* states, long long inner, long long C, "
    "long long lines, const double* zi, double* zf)",
    "lfilter_chunks_k<T, O, K>(const double* ba, const T* x, O* y, long long n, long long inner, "
    "long long L, long long C, long long total, const double* start, double* end)",
    "lfilter_carry_k<K>(const double* M, double* states, long long inner, long long C, long long lines, "
    "const double* zi, double* zf)",
    "lfilter_rows<T, O, K, WIN = 32>(const double* ba, const T* x, O* y, long long n, long long L, long long C, "
    "long long total, long long warm, const double* start, double* end)",
    "sos_rows<T, O, NS, WIN = 32>(const double* ba, const T* x, O* y, long long n, long long L, long long C, "
    "long long total, long long warm, const double* start, double* end)",
))


def _kernel(name):
    return IIR.kernel(name)


def transition(aa: numpy.ndarray, K: int) -> numpy.ndarray:
    """The K x K state matrix A of the direct form II transposed recursion (zero input):
    z'[k] = z[k + 1] - a[k + 1] z[0]."""
    A = numpy.zeros((K, K))
    A[:, 0] = -aa[1:K + 1]
    A[numpy.arange(K - 1), numpy.arange(1, K)] = 1.0
    return A


_SETTLE_BLOCK = 64
_MAX_SETTLE = 8192


@functools.lru_cache(maxsize=64)
def settling(a_bytes: bytes, K: int):
    """The number of steps J after which the zero-input response of the filter (a: float64 bytes,
    a[0] == 1) stays at most 1 in size (max |A^j| <= 1 for j >= J), or None when that is not seen
    within _MAX_SETTLE steps (an unstable filter, or a slow growth). Chunks of J samples or more
    carry their start states without amplifying rounding (see templates/iir.cuh). The powers are
    taken by stepping (A^1..A^64 once, then blocks of 64 steps), an estimate good to far better
    than the thresholds it is compared with."""
    A = transition(numpy.frombuffer(a_bytes), K)
    steps = numpy.empty((_SETTLE_BLOCK, K, K))
    Z = numpy.eye(K)
    for k in range(_SETTLE_BLOCK):
        Z = A @ Z
        steps[k] = Z
    last, Z = 0, numpy.eye(K)
    with numpy.errstate(over="ignore", invalid="ignore"):
        for j0 in range(0, _MAX_SETTLE, _SETTLE_BLOCK):
            block = steps @ Z
            size = numpy.abs(block).max(axis=(1, 2))
            above = numpy.nonzero(~(size <= 1.0))[0]
            if above.size:
                last = j0 + int(above[-1]) + 1
            if size[-1] < 1e-3:  # decayed: it does not come back
                return last + 1
            Z = block[-1]
    return last + 1 if last < _MAX_SETTLE // 2 else None


_DECAY_EPS = 2.0 ** -60
_MAX_DECAY = 8192
_OVERLAP_ROWS = 1 << 16  # chunks wanted from the overlap plan: ~8 blocks of 64 rows an SM


@functools.lru_cache(maxsize=64)
def decay_length(ba_bytes: bytes, K: int):
    """The warm-up W of the overlap plan for the filter ba = (b, a) (float64 bytes, a[0] == 1): the
    first j with ||A^j|| (max row sum) <= 2^-60 / (G S), G the largest ||A^i|| seen up to j and S
    the sum of |b| and |a|; None when not reached within _MAX_DECAY steps. A chunk that starts W
    samples early from a zero state instead of its true state z makes the error A^W z, which the
    recursion carries on grown at most G times; the state is at most S times the signal's size
    summed over the steps it remembers (at most W G). So the outputs differ from the exact
    recursion's by under 2^-60 W G of the signal: below the recursion's own rounding (the H100:
    1.3e-13 of the largest output on the bench's filter, as chunking the exact scan gives)."""
    ba = numpy.frombuffer(ba_bytes)
    return decay_of(transition(ba[K + 1:], K), float(numpy.abs(ba).sum()))


def decay_of(A: numpy.ndarray, S: float):
    """decay_length's W for the zero-input state map A (K x K) and the state's bound S."""
    K = A.shape[0]
    steps = numpy.empty((_SETTLE_BLOCK, K, K))
    Z = numpy.eye(K)
    for k in range(_SETTLE_BLOCK):
        Z = A @ Z
        steps[k] = Z
    growth, Z = 1.0, numpy.eye(K)
    with numpy.errstate(over="ignore", invalid="ignore"):
        for j0 in range(0, _MAX_DECAY, _SETTLE_BLOCK):
            block = steps @ Z
            norms = numpy.abs(block).sum(axis=2).max(axis=1)
            for j in range(_SETTLE_BLOCK):
                if not numpy.isfinite(norms[j]):
                    return None
                growth = max(growth, float(norms[j]))
                if norms[j] <= _DECAY_EPS / (growth * S):
                    return j0 + j + 1
            Z = block[-1]
    return None


# How the overlap plan cuts its lines, the default first: "aligned" (chunk length and warm-up
# rounded up to the kernel's 32-sample window, ceil(n / L) chunks, the last the shorter: where the
# lines start on a 256-byte boundary, every window a row loads or stores is two whole cache lines,
# and no block runs a last chunk of up to 2 L for its other 63 rows), "first" (n // L chunks, the
# last up to 2 L - 1 long, lengths as planned: the first implementation), "aligned64" (as
# "aligned" with 64-sample windows: 512 contiguous bytes a row a visit). The overlap kernel read
# and wrote at half the copy rate with 65,000 rows each moved 256 bytes a visit, unaligned
# (docs/perf-notes.md); scripts/perf/peaks_lfilter_variants.py times the three. H100: "aligned"
# 1.24 -> 0.79 ms (1000 x 1e5) and 1.07 -> 0.68 (1 x 1e8); "aligned64" 0.75 and 0.69: not taken.
OVERLAP_LAYOUTS = ("aligned", "first", "aligned64")


def overlap_layout(layout: str, n: int, L: int, W: int):
    """(L, C, warm, window) of the overlap plan for chunks of about L samples (W <= L < n) and a
    warm-up of W samples, laid out as `layout` (one of OVERLAP_LAYOUTS) says."""
    if layout not in OVERLAP_LAYOUTS:
        raise ValueError("unknown overlap layout {!r}".format(layout))
    if layout != "first":
        win = 64 if layout == "aligned64" else 32
        La, Wa = -(-L // win) * win, -(-W // win) * win
        if La < n:
            return La, -(-n // La), Wa, win
    return L, n // L, W, 32


def plan_overlap(n: int, lines: int, W: int) -> int:
    """The chunk length L of the overlap plan (L >= n: one sweep a line): at least 4 W and 64 (the
    warm-up at most a quarter of a chunk's work), at most max(16 W, 1024), shorter within that
    while there are fewer than _OVERLAP_ROWS chunks; no chunks when the lines fill the GPU alone."""
    if lines >= _ENOUGH_LINES:
        return n
    L = max(4 * W, _MIN_CHUNK, min(max(16 * W, 1024), n * lines // _OVERLAP_ROWS))
    return L if 2 * L <= n else n


# Latency of one line's recursion, in cycles: a sample of the two chunk sweeps (passes 1 and 3:
# a load and a chain of two dependent fma per sample), and a chunk of the carry (K rows of K
# dependent fma, rows interleaved). Estimates for an H100/H200 from instruction latencies, to be
# replaced by measurements (bench rows lfilter[...] of `python -m cuarray.bench --group ndimage-signal`).
_SWEEP_CYCLES = 80
_CARRY_CYCLES_PER_DELAY = 8


def plan_chunks(n: int, lines: int, aa: numpy.ndarray, K: int) -> int:
    """The chunk length L of the scan for `lines` lines of n samples (L >= n: one sweep, SciPy's).
    A line's critical path is L sweep steps plus n / L carry steps, so L = sqrt(n * carry / sweep)
    minimises it; and L is at least the filter's settling length (accuracy, see `settling`)."""
    if K == 0 or K > SCAN_KMAX or lines >= _ENOUGH_LINES or n < _MIN_SCAN:
        return n
    J = settling(numpy.ascontiguousarray(aa[:K + 1], _F8).tobytes(), K)
    if J is None:
        return n
    carry = max(_CARRY_CYCLES_PER_DELAY * K, K * K // 2)
    L = max(_MIN_CHUNK, 4 * K, math.isqrt(n * carry // _SWEEP_CYCLES), J)
    return L if 2 * L <= n else n


def _launch_chunks(ba, K, x, y, out_dt, lines, n, inner, L, C, start, end, sweep):
    """Passes 1 (y None) and 3 of the scan, the whole recursion (C == 1), or the powers of A
    (x and y None, start the unit states), with the kernels of `sweep` (sweep_for's answer;
    "staged" needs inner == 1 and x)."""
    total = lines * C
    in_dt = _F8 if x is None else x.dtype
    ptrs = (0 if x is None else x.data.ptr, 0 if y is None else y.data.ptr)
    states = (0 if start is None else start.data.ptr, 0 if end is None else end.data.ptr)
    if sweep == "staged":
        _kernel(rows_kernel_name(in_dt, out_dt, K)).launch(-(-total // _ROWS), _ROWS, ba.data.ptr, *ptrs, n, L, C,
                                                           total, 0, *states)
    elif sweep == "fixed":
        _kernel(fixed_chunk_kernel_name(in_dt, out_dt, K)).launch(_launch.grid_one_pass(total, _BLOCK), _BLOCK,
                                                                  ba.data.ptr, *ptrs, n, inner, L, C, total, *states)
    else:
        _kernel(chunk_kernel_name(in_dt, out_dt, K)).launch(_launch.grid_one_pass(total, _BLOCK), _BLOCK, ba.data.ptr,
                                                            K, *ptrs, n, inner, L, C, total, *states)


def _launch_overlap(ba, K, x, y, out_dt, lines, n, L, C, warm, win, zi, zf):
    """The overlap plan: one pass of lfilter_rows (windows of `win` samples) over C-contiguous
    lines, chunk c > 0 starting `warm` samples early from a zero state; zi, zf laid out (lines, K)
    (or None)."""
    total = lines * C
    _kernel(rows_kernel_name(x.dtype, out_dt, K, win)).launch(
        -(-total // _ROWS), _ROWS, ba.data.ptr, x.data.ptr, y.data.ptr, n, L, C, total, warm,
        0 if zi is None else zi.data.ptr, 0 if zf is None else zf.data.ptr)


def _launch_carry(M, K, states, inner, C, lines, zi, zf, sweep):
    args = (states.data.ptr, inner, C, lines, 0 if zi is None else zi.data.ptr, 0 if zf is None else zf.data.ptr)
    if sweep == "runtime":
        _kernel(carry_kernel_name(K)).launch(_launch.grid_one_pass(lines, _BLOCK), _BLOCK, M.data.ptr, K, *args)
    else:
        _kernel(fixed_carry_kernel_name(K)).launch(_launch.grid_one_pass(lines, _BLOCK), _BLOCK, M.data.ptr, *args)


def _run(ba: numpy.ndarray, K: int, x: ndarray, out_dt, axis: int, zi, plan=SWEEPS[0], chunk=None,
         layout=OVERLAP_LAYOUTS[0]):
    """(y, zf or None): the recursion along `axis` of the real C-contiguous x; zi: float64 array of
    x's shape with K along axis, or None; plan: one of SWEEPS; chunk: the chunk length instead of
    plan_chunks' (for measuring; shorter than the filter's settling length loses accuracy); layout:
    the overlap plan's (OVERLAP_LAYOUTS)."""
    y = ndarray(x.shape, out_dt)
    zf = ndarray(x.shape[:axis] + (K,) + x.shape[axis + 1:], _F8) if zi is not None else None
    n = x.shape[axis]
    if x.size == 0 or n == 0:
        if zf is not None and zf.size:
            zf[...] = zi
        return y, zf
    _kmax(K)
    inner = 1
    for s in x.shape[axis + 1:]:
        inner *= s
    lines = x.size // n
    sweep = sweep_for(plan, K, inner)
    ba = numpy.ascontiguousarray(ba, _F8)
    d_ba = _from_host(ba)
    if sweep == "overlap":
        W = 0 if K == 0 else decay_length(ba.tobytes(), K)
        L = None if W is None else (plan_overlap(n, lines, W) if chunk is None else chunk)
        if L is not None and W <= L < n:
            L, C, warm, win = overlap_layout(layout, n, L, W)
            _launch_overlap(d_ba, K, x, y, out_dt, lines, n, L, C, warm, win, zi if K else None, zf if K else None)
            return y, zf
        sweep = "staged"
    L = plan_chunks(n, lines, ba[K + 1:], K) if chunk is None else chunk
    if L >= n:
        _launch_chunks(d_ba, K, x, y, out_dt, lines, n, inner, n, 1, zi, zf, sweep)
        return y, zf
    C = n // L
    M = ndarray((2, K, K), _F8)  # A^L, A^{L_last}: the recursion from each unit state, no input
    unit = _from_host(numpy.eye(K))
    for m, steps in enumerate((L, n - (C - 1) * L)):
        _launch_chunks(d_ba, K, None, None, _F8, K, steps, 1, steps, 1, unit, M[m],
                       "runtime" if sweep == "runtime" else "fixed")
    states = ndarray((lines * C * K,), _F8)
    _launch_chunks(d_ba, K, x, None, out_dt, lines, n, inner, L, C, None, states, sweep)
    _launch_carry(M, K, states, inner, C, lines, zi, zf, sweep)
    _launch_chunks(d_ba, K, x, y, out_dt, lines, n, inner, L, C, states, None, sweep)
    return y, zf


def _host_1d(v, name):
    v = numpy.atleast_1d(_args.host_param(v))
    if not (v.ndim == 1 and v.size > 0):
        raise ValueError("Parameter {} is not a non-empty 1d array, since {}.shape={!r}!".format(name, name, v.shape))
    return v


def lfilter(b, a, x, axis=-1, zi=None):
    """See `scipy.signal.lfilter`. `b` and `a` may be host or cuarray arrays; `x` a cuarray array
    or a Python list. `zi` is SciPy's: the max(len(a), len(b)) - 1 delay states (lfiltic,
    lfilter_zi), not cupyx's len(b) + len(a) - 2 past inputs and outputs, which raises SciPy's
    ValueError naming both (docs/scipy-ndimage-signal.md, "zi").

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.lfilter(cuarray.array([1.]), cuarray.array([1., -0.5]), cuarray.array([1., 1., 1., 1.]))
    array([1.   , 1.5  , 1.75 , 1.875])
    """
    return _lfilter(b, a, x, axis, zi, SWEEPS[0])


def _lfilter(b, a, x, axis=-1, zi=None, sweep=SWEEPS[0], chunk=None, layout=OVERLAP_LAYOUTS[0]):
    """lfilter with the sweep kernels' family named (`SWEEPS`) and, for measuring, the chunk length
    (None: plan_chunks' choice) and the overlap plan's layout (`OVERLAP_LAYOUTS`)."""
    b = _host_1d(b, "b")
    a = _host_1d(a, "a")
    x = _args.data(x, "lfilter")
    axis = _s.normalize_axis(axis, x.ndim)
    if zi is not None:
        zi = _state(zi, "lfilter")
    dts = [b.dtype, a.dtype, x.dtype] + ([zi.dtype] if zi is not None else [])
    dtype = numpy.result_type(*dts)
    if dtype.char not in "fdFD":
        raise NotImplementedError("Parameter's dtypes produced result type '{}', which is not supported!"
                                  .format(dtype))
    if a[0] == 0:
        raise ValueError("BUG: filter coefficient a[0] == 0 not supported yet")
    # the coefficients in double precision before a[0] divides them (and complex ones are reduced
    # to real denominators): SciPy takes them in the result's type, float32 ones rounded otherwise
    b = b.astype(numpy.result_type(b.dtype, numpy.float64), copy=False)
    a = a.astype(numpy.result_type(a.dtype, numpy.float64), copy=False)
    if b.dtype.kind == "c" or a.dtype.kind == "c":  # as real-coefficient filters (_lfilter_complex.py)
        _check_zi(zi, x, axis, len(b), len(a))
        return _lfilter_complex.lfilter_complex(
            b, a, x, axis, zi, lambda bb, aa, xx, ax, z: _lfilter(bb, aa, xx, ax, z, sweep, chunk, layout), dtype)
    K = max(len(a), len(b)) - 1
    bb = numpy.zeros(K + 1)
    aa = numpy.zeros(K + 1)
    bb[:len(b)] = b / a[0]
    aa[:len(a)] = a / a[0]
    _check_zi(zi, x, axis, len(b), len(a))
    if x.dtype.kind == "c" or (zi is not None and zi.dtype.kind == "c"):
        # real coefficients: the filter is linear, so the real and imaginary parts run apart
        xr = x.real if x.dtype.kind == "c" else x
        xi = x.imag if x.dtype.kind == "c" else None
        zr = None if zi is None else (zi.real if zi.dtype.kind == "c" else zi)
        zim = None if zi is None else (zi.imag if zi.dtype.kind == "c" else 0 * zi)
        rdt = numpy.dtype(dtype.char.lower())
        yr, zfr = _lfilter_real(bb, aa, K, xr, rdt, axis, zr, x.shape, sweep, chunk, layout)
        if xi is None:
            xi = 0 * xr
        yi, zfi = _lfilter_real(bb, aa, K, xi, rdt, axis, zim, x.shape, sweep, chunk, layout)
        y = ndarray(x.shape, dtype)
        y.real[...] = yr
        y.imag[...] = yi
        if zi is None:
            return y
        zf = ndarray(zfr.shape, dtype)
        zf.real[...] = zfr
        zf.imag[...] = zfi
        return y, zf
    y, zf = _lfilter_real(bb, aa, K, x, dtype, axis, zi, x.shape, sweep, chunk, layout)
    return y if zi is None else (y, zf.astype(dtype, copy=False))


def _state(zi, fn):
    """A filter state: a cuarray array as it is, a list or NumPy array (a small parameter, as SciPy
    takes it) copied to the device."""
    return _args.device_param(zi, fn)


def _check_zi(zi, x, axis, nb, na):
    """SciPy's check of zi's shape for a filter of nb numerator and na denominator taps: x's shape
    with the K = max(nb, na) - 1 delay states along `axis`, any other axis of length 1 broadcast."""
    if zi is None:
        return
    if zi.ndim != x.ndim:
        raise ValueError("Dimensions of parameters x and zi must match, but x.ndim={!r}, zi.ndim={!r}!"
                         .format(x.ndim, zi.ndim))
    K = max(nb, na) - 1
    expected = x.shape[:axis] + (K,) + x.shape[axis + 1:]
    for k in range(zi.ndim):
        if zi.shape[k] != expected[k] and not (k != axis and zi.shape[k] == 1):
            others = all(zi.shape[j] in (expected[j], 1) for j in range(zi.ndim) if j != axis)
            raise ValueError("Unexpected shape for parameter zi: expected {}, found {}.".format(expected, zi.shape)
                             + _cupyx_zi_hint(zi.shape[axis] if others else None, nb + na - 2, K, "lfilter"))


def _sos_zi_axis_length(shape, expected, axis):
    """sosfilt's zi length along the axis where zi has the expected shape elsewhere, else None."""
    if len(shape) != len(expected) or shape[:axis + 1] + shape[axis + 2:] != expected[:axis + 1] + expected[axis + 2:]:
        return None
    return shape[axis + 1]


def _cupyx_zi_hint(found, cupyx_len, K, fn):
    """What to say when zi has cupyx.scipy.signal's length along the axis (`found`; None when zi
    is wrong elsewhere too): cupyx's `lfilter` and `sosfilt` take past inputs then past outputs,
    len(b) + len(a) - 2 values (4 a section), not SciPy's delay states. Which convention cuarray
    takes, and how to convert; nothing where the lengths do not tell the two apart."""
    if found != cupyx_len or cupyx_len == K:
        return ""
    return (" A zi of {} values along the axis is cupyx.scipy.signal.{}'s convention (past inputs, then past "
            "outputs); cuarray takes SciPy's, the filter's {} delay states: convert past outputs y and inputs x "
            "with lfiltic(b, a, y, x) (per section for sosfilt).".format(found, fn, K))


def _lfilter_real(bb, aa, K, x, dtype, axis, zi, shape, sweep, chunk=None, layout=OVERLAP_LAYOUTS[0]):
    x = astype(x, x.dtype, order="C", copy=False)
    z = None
    if zi is not None:
        zshape = shape[:axis] + (K,) + shape[axis + 1:]
        z = astype(zi, _F8, order="C", copy=True) if zi.shape == zshape else \
            astype(_broadcast(zi, zshape), _F8, order="C", copy=True)
    if K > KMAXES[-1] and not aa[1:].any():  # a long FIR filter: a convolution along the axis
        return _long_fir(bb, x, dtype, axis, z)
    return _run(numpy.concatenate([bb, aa]), K, x, dtype, axis, z, sweep, chunk, layout)


def _long_fir(bb, x, dtype, axis, z):
    shape = [1] * x.ndim
    shape[axis] = len(bb)
    full = _fftconvolve(astype(x, _F8, copy=False), _from_host(bb.reshape(shape)), "full", axes=axis)
    K = len(bb) - 1
    n = x.shape[axis]
    idx = [slice(None)] * x.ndim
    if z is not None:
        idx[axis] = slice(0, K)
        full[tuple(idx)] = full[tuple(idx)] + z
    idx[axis] = slice(0, n)
    y = full[tuple(idx)].astype(dtype)
    idx[axis] = slice(n, None)
    return y, (full[tuple(idx)].copy() if z is not None else None)


def _floating_pair(b, a):
    """b and a as host arrays of SciPy's xp_promote(b, a, force_floating=True) dtype: NumPy's
    promotion (Python scalars weak), float64 for integers and booleans."""
    hb, ha = _args.host_param(b), _args.host_param(a)
    dt = numpy.result_type(*(v if isinstance(v, (int, float, complex)) else h for v, h in ((b, hb), (a, ha))))
    if dt.kind in "biu":
        dt = numpy.dtype(numpy.float64)
    return hb.astype(dt, copy=False), ha.astype(dt, copy=False)


def lfilter_zi(b, a):
    """See `scipy.signal.lfilter_zi` (SciPy 1.18's: `a[0] == 0` and `sum(a) == 0` raise
    ValueError, SciPy 1.17 dropped leading zeros of `a` and solved a singular system): a few host
    operations; the result is a cuarray array when b or a is one, else a NumPy array.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.lfilter_zi(cuarray.array([1.]), cuarray.array([1., -0.5]))
    array([1.])
    """
    on_device = _s.is_array(b) or _s.is_array(a)
    b, a = _floating_pair(b, a)
    b, a = numpy.atleast_1d(b), numpy.atleast_1d(a)
    if not (b.ndim == a.ndim == 1):
        raise ValueError("Numerator `b` and Denominator `a` must be 1-D arrays, but b.shape = {}, a.shape = {}!"
                         .format(b.shape, a.shape))
    if a[0] == 0:
        raise ValueError("First coefficient of parameter `a` must be non-zero!")
    if a[0] != 1:
        b, a = b / a[0], a / a[0]
    sum_a = a.sum()
    if sum_a == 0:
        raise ValueError("Filter not stable due to sum(a) == 0, i.e., having a pole at z = 1!")
    y_inf = b.sum() / sum_a  # the steady state of the unit step's response
    n = max(a.shape[0], b.shape[0])
    b = numpy.concatenate((b, numpy.zeros(n - b.shape[0], b.dtype)))
    a = numpy.concatenate((a, numpy.zeros(n - a.shape[0], a.dtype)))
    zi = numpy.cumsum((b - y_inf * a)[::-1])[::-1][1:].copy()  # zi[k] = zi[k + 1] + b[k + 1] - y_inf a[k + 1]
    return _from_host(zi) if on_device else zi


def _sos(sos):
    sos = numpy.atleast_2d(_args.host_param(sos))
    if sos.ndim != 2:
        raise ValueError("sos array must be 2D")
    n_sections, m = sos.shape
    if m != 6:
        raise ValueError("sos array must be shape (n_sections, 6)")
    if not (sos[:, 3] == 1).all():
        raise ValueError("sos[:, 3] should be all ones")
    return sos


def sosfilt_zi(sos):
    """See `scipy.signal.sosfilt_zi` (host arithmetic; a cuarray array when sos is one).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> sos = cuarray.array([[1., 0., 0., 1., -0.5, 0.]])   # 1 / (1 - 0.5 z^-1)
    >>> signal.sosfilt_zi(sos)
    array([[1., 0.]])
    """
    on_device = _s.is_array(sos)
    sos = _args.host_param(sos)
    if sos.ndim != 2 or sos.shape[1] != 6:
        raise ValueError("sos must be shape (n_sections, 6)")
    if sos.dtype.kind in "iub":
        sos = sos.astype(numpy.float64)
    zi = numpy.empty((sos.shape[0], 2), dtype=sos.dtype)
    scale = 1.0
    for section in range(sos.shape[0]):
        b, a = sos[section, :3], sos[section, 3:]
        zi[section] = scale * lfilter_zi(b, a)
        scale *= b.sum() / a.sum()
    return _from_host(zi) if on_device else zi


def sosfilt(sos, x, axis=-1, zi=None):
    """See `scipy.signal.sosfilt`: the sections chained in one pass (_sosfilt.py) for real data
    whose cascade decays; else one lfilter pass per section. `zi` is SciPy's (n_sections, ..., 2,
    ...) delay states, not cupyx's 4 past inputs and outputs a section, which raises SciPy's
    ValueError naming both (docs/scipy-ndimage-signal.md, "zi").

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> sos = cuarray.array([[1., 0., 0., 1., -0.5, 0.]])   # 1 / (1 - 0.5 z^-1)
    >>> signal.sosfilt(sos, cuarray.array([1., 1., 1., 1.]))
    array([1.   , 1.5  , 1.75 , 1.875])
    """
    sos = _sos(sos)
    x = _args.data(x, "sosfilt")
    axis = _s.normalize_axis(axis, x.ndim)
    n_sections = sos.shape[0]
    dtype = numpy.result_type(sos.dtype, x.dtype, numpy.float32)
    if zi is not None:
        zi = _state(zi, "sosfilt")
        expected = (n_sections,) + x.shape[:axis] + (2,) + x.shape[axis + 1:]
        if zi.shape != expected:
            raise ValueError("Invalid zi shape. With axis={!r}, an input with shape {!r}, and an sos array with "
                             "{} sections, zi must have shape {!r}, got {!r}.".format(axis, x.shape, n_sections,
                                                                                   expected, zi.shape)
                             + _cupyx_zi_hint(_sos_zi_axis_length(zi.shape, expected, axis), 4, 2, "sosfilt"))
        dtype = numpy.result_type(dtype, zi.dtype)
    from ._sosfilt import sosfilt_one_pass  # cycle: _sosfilt builds on this module's plans and kernels

    res = sosfilt_one_pass(sos, x, axis, zi, dtype)
    if res is not None:
        return res[0] if zi is None else res
    # between sections in double precision (the sections compute in it): one rounding to dtype at the end
    y = x.astype(numpy.result_type(dtype, numpy.float64))
    zfs = []
    for s in range(n_sections):
        if zi is None:
            y = lfilter(sos[s, :3], sos[s, 3:], y, axis)
        else:
            y, zf = lfilter(sos[s, :3], sos[s, 3:], y, axis, zi[s])
            zfs.append(zf)
    y = y.astype(dtype, copy=False)
    if zi is None:
        return y
    return y, _stack(zfs).astype(dtype, copy=False)


def _axis_slice(a, start=None, stop=None, step=None, axis=-1):
    idx = [slice(None)] * a.ndim
    idx[axis] = slice(start, stop, step)
    return a[tuple(idx)]


def _ext(x, n, axis, kind):
    """SciPy's odd_ext / even_ext / const_ext of n values at each end along axis."""
    if n < 1:
        return x
    if n > x.shape[axis] - 1 and kind != "constant":
        raise ValueError("The extension length n ({}) is too big. It must not exceed x.shape[axis]-1, which is {}."
                         .format(n, x.shape[axis] - 1))
    left_end = _axis_slice(x, 0, 1, axis=axis)
    right_end = _axis_slice(x, -1, None, axis=axis)
    if kind == "constant":
        ones = [1] * x.ndim
        ones[axis] = n
        one = _from_host(numpy.ones(ones)) if _s.is_array(x) else numpy.ones(ones)
        left, right = one * left_end, one * right_end
    else:
        left = _axis_slice(x, n, 0, -1, axis=axis)
        right = _axis_slice(x, -2, -(n + 2), -1, axis=axis)
        if kind == "odd":
            left, right = 2 * left_end - left, 2 * right_end - right
    return _concatenate((left.astype(x.dtype, copy=False), x, right.astype(x.dtype, copy=False)), axis=axis)


def _validate_pad(padtype, padlen, x, axis, ntaps):
    if padtype not in ("even", "odd", "constant", None):
        raise ValueError("Unknown value '{}' given to padtype. padtype must be 'even', 'odd', 'constant', or None."
                         .format(padtype))
    edge = 0 if padtype is None else (ntaps * 3 if padlen is None else padlen)
    if x.shape[axis] <= edge:
        raise ValueError("The length of the input vector x must be greater than padlen, which is {}.".format(edge))
    ext = _ext(x, edge, axis, padtype) if padtype is not None and edge > 0 else x
    return edge, ext


def filtfilt(b, a, x, axis=-1, padtype="odd", padlen=None, method="pad", irlen=None):
    """See `scipy.signal.filtfilt` (methods 'pad' and 'gust').

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> b, a = cuarray.array([0.5, 0.5]), cuarray.array([1.])
    >>> signal.filtfilt(b, a, cuarray.array([1., 2., 4., 8., 16., 32., 64., 128.]))
    array([  1.  ,   2.25,   4.5 ,   9.  ,  18.  ,  36.  ,  72.  , 128.  ])
    """
    b = numpy.atleast_1d(_args.host_param(b))
    a = numpy.atleast_1d(_args.host_param(a))
    x = _args.data(x, "filtfilt")
    if method not in ("pad", "gust"):
        raise ValueError("method must be 'pad' or 'gust'.")
    if method == "gust":  # Gustafsson's initial conditions (_filtfilt_gust.py)
        return _filtfilt_gust.filtfilt_gust(b, a, x, _s.normalize_axis(axis, x.ndim), irlen, lfilter)
    axis = _s.normalize_axis(axis, x.ndim)
    edge, ext = _validate_pad(padtype, padlen, x, axis, max(len(a), len(b)))
    zi = numpy.asarray(lfilter_zi(b, a))
    shape = [1] * x.ndim
    shape[axis] = zi.size
    zi = zi.reshape(shape)
    dzi = _from_host(zi) if _s.is_array(x) else zi
    x0 = _axis_slice(ext, stop=1, axis=axis)
    y, _ = lfilter(b, a, ext, axis=axis, zi=dzi * x0)
    y0 = _axis_slice(y, start=-1, axis=axis)
    y, _ = lfilter(b, a, _axis_slice(y, step=-1, axis=axis), axis=axis, zi=dzi * y0)
    y = _axis_slice(y, step=-1, axis=axis)
    if edge > 0:
        y = _axis_slice(y, start=edge, stop=-edge, axis=axis)
    return y.copy()


def sosfiltfilt(sos, x, axis=-1, padtype="odd", padlen=None):
    """See `scipy.signal.sosfiltfilt`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> sos = cuarray.array([[1., 0., 0., 1., -0.5, 0.]])   # 1 / (1 - 0.5 z^-1)
    >>> signal.sosfiltfilt(sos, cuarray.array([1., 2., 4., 8., 16., 32., 64., 128.]))
    array([  6.22092009,  20.44184017,  40.88368034,  73.76736069,
           127.53472137, 213.06944275, 341.1388855 , 511.777771  ])
    """
    sos = _sos(sos)
    x = _args.data(x, "sosfiltfilt")
    axis = _s.normalize_axis(axis, x.ndim)
    ntaps = 2 * len(sos) + 1
    ntaps -= min((sos[:, 2] == 0).sum(), (sos[:, 5] == 0).sum())
    edge, ext = _validate_pad(padtype, padlen, x, axis, ntaps)
    zi = sosfilt_zi(sos)
    shape = [1] * x.ndim
    shape[axis] = 2
    zi = zi.reshape([sos.shape[0]] + shape)
    dzi = _from_host(zi) if _s.is_array(x) else zi
    x0 = _axis_slice(ext, stop=1, axis=axis)
    y, _ = sosfilt(sos, ext, axis=axis, zi=_bcast_zi(dzi * x0, sos.shape[0], ext.shape, axis))
    y0 = _axis_slice(y, start=-1, axis=axis)
    y, _ = sosfilt(sos, _axis_slice(y, step=-1, axis=axis), axis=axis,
                   zi=_bcast_zi(dzi * y0, sos.shape[0], ext.shape, axis))
    y = _axis_slice(y, step=-1, axis=axis)
    if edge > 0:
        y = _axis_slice(y, start=edge, stop=-edge, axis=axis)
    return y.copy()


def _bcast_zi(z, n_sections, shape, axis):
    full = (n_sections,) + tuple(shape[:axis]) + (2,) + tuple(shape[axis + 1:])
    if tuple(z.shape) == full:
        return z
    return _broadcast(z, full).copy()
