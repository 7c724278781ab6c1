"""The fused path of `_spectral._spectral_helper` for one real float32/float64 signal (welch, csd of
x with itself, periodogram, spectrogram, stft) with constant or no detrending and a one-sided
spectrum: a few passes over memory instead of SciPy's chain of whole-array steps.

1. `frames`: one kernel writes the FFT input (templates/spectral.cu's row kernel; an elementwise
   one for a strided signal), `(x[s * nstep + j] - mean_s) * w_j` for `j < nperseg` and 0 up to
   `nfft` (so the FFT needs no padding copy); the segment means (constant detrend only) are
   summed inside it (a strided signal: one reduction over the segment view before it).
2. one batched real FFT over the frames (a cached cuFFT recipe: no copy).
3. mode 'psd' averaged over the segments (welch/csd `average='mean'`): `mean_power`'s two
   launches (templates/spectral.cu) over the segment axis of `|X|^2` times each frequency's
   factor (SciPy's scale, doubled inside a one-sided spectrum), so the spectrogram of |X|^2 is
   never stored; not averaged (spectrogram): one elementwise kernel writes it. Mode 'stft': the
   scale is folded into the window, so the FFT's output is the result.

The generic path (`_spectral._fft_helper` and the steps after it) made ~10 whole-array passes for
welch: the detrended copy, the window product, the FFT, conj * X, the scale, the doubling, a cast
copy, the mean: each pass reads and writes the whole array, so fusing them is what makes welch fast."""

from __future__ import annotations

import functools
import math
import pathlib
import typing

import numpy

import cuarray.fft as _fft  # (the subsystem, by its full name: layers checked in tests/test_layers.py)
from ..._core.ndarray import _new_c
from ..._core.ndarray import ndarray as _ndarray
from ..._creation.basic import empty as _empty
from ...cuda import device as _device
from ...cuda import stream as _stream
from ...cuda.kernel_family import KernelFamily
from ...lib.stride_tricks import sliding_window_view as _sliding_window_view
from ..ndimage._tables import constant_table as _constant_table
from ._spectral_rows import frames_strided as _frames_strided
from ._spectral_rows import mean_power_reduce as _mean_power_reduce
from ._spectral_rows import power as _power
from ._spectral_rows import segment_times_into as _segment_times_into
from ._spectral_rows import window_scale as _window_scale
from ._spectral_rows import window_sum as _window_sum

__all__ = ["applicable", "run", "frames", "write_frames", "mean_power", "chunking", "device_window",
           "segment_times", "SPECTRAL", "StftPlan", "twiddles", "ONE_PASS_MIN", "ONE_PASS_MAX", "PAIRS_NFFT",
           "pairs_plan", "PairsPlan", "mean_power_pairs", "pass_twiddles", "regs_grid", "power_rows",
           "STFT_REGS_NFFT", "PairsLaunch", "RowsLaunch", "transposed_views"]

_DIR = pathlib.Path(__file__).parent / "templates"


def _source() -> str:
    return (_DIR / "segment_fft.cuh").read_text() + (_DIR / "spectral.cu").read_text()


# welch's mean of |X|^2 over the segments (templates/spectral.cu): partial sums of chunks of
# segments for all frequencies, then one block a frequency over the chunks.
SPECTRAL = KernelFamily("cuarray_signal_spectral", _source, namespace="cuarray_signal", kernels=(
    "power_partials<T>(const T* X, long long nseg, long long nf, long long rows, long long nchunks, double* part)",
    "power_mean<R, BLOCK>(const double* part, long long nchunks, long long nf, const double* c, double inv, R* out)",
    "frames<T>(const T* x, const T* m, const T* w, long long len, long long nstep, long long nper, long long nfft, "
    "long long nseg, long long rows, int detrend, long long pre, T* y, double* aux, long long nfreq, long long ntime, "
    "const double* tp)",
    "stft_rfft<T, M>(const T* x, const T* w, const T* tw, long long len, long long nstep, long long nper, long long nseg, "
    "long long rows, long long pre, T* y, double* aux, long long nfreq, long long ntime, const double* tp)",
    "stft_regs<T, M, BLOCK, MINB, POWER>(const T* x, const T* w, const T* tw, long long len, long long nstep, "
    "long long nper, long long nseg, long long rows, long long pre, T* y, double* aux, long long nfreq, "
    "long long ntime, const double* tp, const double* c, int detrend)",
    "welch_pairs<T, N, BLOCK, MINB, FULL>(const T* x, const T* w, const T* tw, long long len, long long nstep, "
    "long long nper, long long nseg, long long npairs, int detrend, double* part)",
))
# stft's one-pass route (templates/spectral.cu's stft_rfft: frames, window and real FFT in one kernel)
# for a power-of-two nfft from ONE_PASS_MIN to ONE_PASS_MAX points; other lengths frame and run cuFFT.
ONE_PASS_MIN, ONE_PASS_MAX = 64, 1024
STFT_REGS_NFFT = (64, 128, 256, 512)  # of those, stft_regs' (in-register DFTs); 1024 stays stft_rfft's
_MEAN_BLOCK = 128
_MEAN_INSIDE = 2  # frames' detrend mode: the segment means summed by the kernel (1: read from m)
_BATCH_MAX = 65535  # gridDim.z of power_partials (more rows: the generic reduction)

_FLOATS = (numpy.dtype(numpy.float32), numpy.dtype(numpy.float64))
# welch's one-pass route (templates/spectral.cu's welch_pairs: two segments a complex FFT in
# registers, the power summed there) for these nfft; others frame, run cuFFT and reduce.
PAIRS_NFFT = (16, 32, 64, 128, 256)
PAIRS_MAX = 64  # pairs a thread sums at most (its running sums are in the signal's precision)
PAIRS_PER_SM = 8  # blocks an SM the grid aims at
# (block, __launch_bounds__ minimum) of welch_pairs for float32 and float64 (docs/perf-notes.md)
PAIRS_SHAPE = {4: (128, 4), 8: (64, 1)}

def chunking(nseg: int, nf: int, batch: int, sm_count: int):
    """(rows, nchunks): segments a chunk of power_partials and the chunks, about 16 blocks of 256
    threads an SM (two waves at 8 resident blocks), at least 32 segments a chunk (4 loads a thread)."""
    cols = -(-nf // 32)
    want = max(1, -(-16 * sm_count // (cols * batch)))
    nchunks = max(1, min(want, nseg // 32, 65535))
    rows = -(-nseg // nchunks)
    return rows, -(-nseg // rows)


class PairsPlan(typing.NamedTuple):
    """welch_pairs' launch: its specialisation (`kernel`, a name expression of SPECTRAL) and grid."""
    kernel: str
    block: int
    grid_x: int


def pairs_plan(nseg: int, batch: int, nfft: int, dtype, sm_count: int, full: bool = True,
               per_sm: int = PAIRS_PER_SM, block: int = 0, minb: int = 0) -> PairsPlan:
    """welch_pairs' launch for `batch` rows of `nseg` segments: PAIRS_SHAPE's block and register
    bound for the dtype unless given; about `per_sm` blocks an SM over all rows, more where a
    thread would otherwise sum over PAIRS_MAX pairs, never more than the row's groups of pairs.
    `full`: nperseg = nfft (the kernel's loads without a test an element)."""
    dtype = numpy.dtype(dtype)
    block, minb = block or PAIRS_SHAPE[dtype.itemsize][0], minb or PAIRS_SHAPE[dtype.itemsize][1]
    slots = block // (nfft // (16 if nfft >= 128 else 8 if nfft >= 32 else 4))
    groups = -(-((nseg + 1) // 2) // slots)
    gx = max(1, min(groups, max(-(-per_sm * sm_count // batch), -(-groups // PAIRS_MAX))))
    ct = "float" if dtype == _FLOATS[0] else "double"
    return PairsPlan("welch_pairs<{}, {}, {}, {}, {}>".format(ct, nfft, block, minb, int(full)), block, gx)


@functools.lru_cache(maxsize=None)
def pass_twiddles(nfft: int, dtype) -> numpy.ndarray:
    """welch_pairs' table for its second pass (nfft = R1 R2, R1 the first pass's radix):
    exp(-2 pi i r j / nfft) at [r R1 + j] for r < R2, j < R1, (re, im) pairs of `dtype` (computed
    in double, rounded once)."""
    r1 = 16 if nfft >= 128 else 8 if nfft >= 32 else 4
    r, j = numpy.divmod(numpy.arange(nfft), r1)
    ang = -2.0 * numpy.pi * (r * j) / nfft
    return numpy.stack([numpy.cos(ang), numpy.sin(ang)], axis=-1).astype(dtype).reshape(-1)


class PairsLaunch:
    """`mean_power_pairs` prepared for a signal layout and its segment arguments (welch's cached
    plan keeps one): the planner's grid, the twiddle table, both kernels; a call allocates the
    partial sums and the result and makes the two launches."""

    __slots__ = ("pairs", "finish", "grid", "block", "tw", "n", "nstep", "nperseg", "nseg", "detrend", "batch", "nf",
                 "pshape", "oshape", "dtype")

    def __init__(self, shape, dtype, nperseg: int, noverlap: int, nfft: int, detrend: bool, plan=None):
        self.dtype = numpy.dtype(dtype)
        self.batch, self.n = math.prod(shape[:-1]), shape[-1]
        self.nstep, self.nperseg, self.detrend = nperseg - noverlap, nperseg, int(detrend)
        self.nseg = (self.n - nperseg) // self.nstep + 1
        self.nf = nfft // 2 + 1
        if plan is None:
            plan = pairs_plan(self.nseg, self.batch, nfft, self.dtype, _device._sm_count(_device.get_device_id()),
                              nperseg == nfft)
        self.grid, self.block = (plan.grid_x, self.batch), plan.block
        self.pshape, self.oshape = (self.batch, plan.grid_x, self.nf), tuple(shape[:-1]) + (self.nf,)
        self.tw = _constant_table(pass_twiddles(nfft, self.dtype))
        self.pairs, self.finish = SPECTRAL.get(plan.kernel, "power_mean<{}, {}>".format(
            "float" if self.dtype == _FLOATS[0] else "double", _MEAN_BLOCK))

    def __call__(self, x, w, c):
        part, out = _new_c(self.pshape, _F8), _new_c(self.oshape, self.dtype)
        self.pairs.launch(self.grid, self.block, x.data.ptr, w.data.ptr, self.tw.data.ptr, self.n, self.nstep,
                          self.nperseg, self.nseg, (self.nseg + 1) // 2, self.detrend, part.data.ptr)
        self.finish.launch(self.batch * self.nf, _MEAN_BLOCK, part.data.ptr, self.grid[0], self.nf, c.data.ptr,
                           1.0 / self.nseg, out.data.ptr)
        return out


def mean_power_pairs(x, w, nperseg: int, noverlap: int, nfft: int, detrend: bool, c, plan=None):
    """The mean over the segments of |FFT(w (x_s - mean))|^2 * c for a C-contiguous real signal x
    (..., n), nfft in PAIRS_NFFT: welch_pairs, then power_mean (two launches; the frames and the
    spectrum never stored). `w` a contiguous device window of x's dtype, `c` a device float64
    table of nfft / 2 + 1 factors; `plan` pairs_plan's (the default: its defaults)."""
    return PairsLaunch(x.shape, x.dtype, nperseg, noverlap, nfft, detrend, plan)(x, w, c)


def regs_grid(rows: int, nfft: int, itemsize: int, sm_count: int) -> tuple:
    """stft_regs' (block, grid): PAIRS_SHAPE's block, a segment a slot of nfft / 2 / R1 threads
    (R1 = 16 from nfft 256, else 8), about PAIRS_PER_SM blocks an SM, no block without a row."""
    block = PAIRS_SHAPE[itemsize][0]
    seg = block // (nfft // 2 // (16 if nfft >= 256 else 8))
    return block, max(1, min(-(-rows // seg), PAIRS_PER_SM * sm_count))


@functools.lru_cache(maxsize=None)
def _regs_twiddles(nfft: int, dtype) -> numpy.ndarray:
    """stft_regs' table: `twiddles` (the real spectrum's), then `pass_twiddles` of nfft / 2."""
    return numpy.concatenate([twiddles(nfft, dtype), pass_twiddles(nfft // 2, dtype)])


class RowsLaunch:
    """`power_rows` prepared for a signal layout and its segment arguments (spectrogram's cached
    plan keeps one); with `fs`, the launch also writes the frequencies and the segment times
    (NumPy's rfftfreq and SciPy's times, as stft's plan: `_spectral._stft_layout`'s constants)."""

    __slots__ = ("kernel", "grid", "block", "tw", "n", "nstep", "nperseg", "nseg", "rows", "detrend", "oshape", "dtype",
                 "nf", "tp")

    def __init__(self, shape, dtype, nperseg: int, noverlap: int, nfft: int, detrend: bool, fs=None):
        self.dtype = numpy.dtype(dtype)
        self.n, self.nstep, self.nperseg, self.detrend = shape[-1], nperseg - noverlap, nperseg, int(detrend)
        self.nseg = (self.n - nperseg) // self.nstep + 1
        self.rows, self.nf = math.prod(shape[:-1]) * self.nseg, nfft // 2 + 1
        self.oshape = tuple(shape[:-1]) + (self.nseg, self.nf)
        self.block, self.grid = regs_grid(self.rows, nfft, self.dtype.itemsize,
                                          _device._sm_count(_device.get_device_id()))
        self.tw = _constant_table(_regs_twiddles(nfft, self.dtype))
        self.tp = None if fs is None else _constant_table(numpy.array(
            [1.0 / (nfft * (1 / fs)), nperseg / 2, float(self.nstep), float(fs), 0.0]))
        (self.kernel,) = SPECTRAL.get("stft_regs<{}, {}, {}, {}, 1>".format(
            "float" if self.dtype == _FLOATS[0] else "double", nfft // 2, self.block, PAIRS_SHAPE[self.dtype.itemsize][1]))

    def __call__(self, x, w, c):
        """The rows (..., nseg, nf); with the plan's fs also (f, t, the rows' transposed view)."""
        out = _new_c(self.oshape, self.dtype)
        aux = None if self.tp is None else _new_c((self.nf + self.nseg,), _F8)
        if self.rows:
            self.kernel.launch(self.grid, self.block, x.data.ptr, w.data.ptr, self.tw.data.ptr, self.n, self.nstep,
                               self.nperseg, self.nseg, self.rows, 0, out.data.ptr, 0 if aux is None else aux.data.ptr,
                               0 if aux is None else self.nf, 0 if aux is None else self.nseg,
                               0 if aux is None else self.tp.data.ptr, c.data.ptr, self.detrend)
        return out if aux is None else transposed_views(out, aux, self.nf, self.nseg)


def power_rows(x, w, nperseg: int, noverlap: int, nfft: int, detrend: bool, c):
    """spectrogram's psd of a C-contiguous real signal x (..., n), nfft in STFT_REGS_NFFT, no
    boundary: (..., nseg, nfft / 2 + 1) of x's dtype, |FFT(w (x_s - mean))|^2 * c, one launch of
    stft_regs in its POWER form (the frames and the spectrum never stored). `w` a contiguous device
    window of x's dtype, `c` a device float64 table of the factors."""
    return RowsLaunch(x.shape, x.dtype, nperseg, noverlap, nfft, detrend)(x, w, c)


def transposed_views(spec, aux, nf: int, nt: int):
    """(f, t, S): f and t views of the one buffer `aux` (nf frequencies, then nt times), S the
    (..., nseg, nf) rows' view with frequencies before segments, as SciPy returns them."""
    shape, strides = spec._shape, spec._strides
    z = _ndarray._view(shape[:-2] + (shape[-1], shape[-2]), strides[:-2] + (strides[-1], strides[-2]),
                       spec._dtype, spec.data, spec)
    f = _ndarray._view((nf,), (8,), _F8, aux.data, aux, True, True)
    t = _ndarray._view((nt,), (8,), _F8, aux.data + 8 * nf, aux, True, True)
    return f, t, z


def mean_power(spec, c, real):
    """The mean over the segments of |spec|^2 * c: spec (..., nseg, nf) C-contiguous complex, c a
    device float64 table of nf factors, the result (..., nf) of dtype `real`. Two launches
    (templates/spectral.cu), a fixed summation order."""
    *outer, nseg, nf = spec.shape
    batch = math.prod(outer)
    rows, nchunks = chunking(nseg, nf, batch, _device._sm_count(_device.get_device_id()))
    part = _empty((batch, nchunks, nf), dtype=numpy.float64)
    out = _empty(tuple(outer) + (nf,), dtype=real)
    ct = "float" if real == _FLOATS[0] else "double"
    partials, finish = SPECTRAL.get("power_partials<{}>".format(ct), "power_mean<{}, {}>".format(ct, _MEAN_BLOCK))
    partials.launch((-(-nf // 32), nchunks, batch), (32, 8), spec.data.ptr, nseg, nf, rows, nchunks, part.data.ptr)
    finish.launch(batch * nf, _MEAN_BLOCK, part.data.ptr, nchunks, nf, c.data.ptr, 1.0 / nseg, out.data.ptr)
    return out


def segment_times(start: float, stop: float, step: int, fs: float, off):
    """`numpy.arange(start, stop, step) / fs` (minus `off` unless None) on the device: one launch,
    NumPy's length and values (not an arange, a divide and a subtract)."""
    n = max(0, math.ceil((stop - start) / step))
    out = _empty((n,), dtype=numpy.float64)
    if n:
        _segment_times_into(float(start), float(step), float(fs), float(off or 0.0), off is not None, out)
    return out


def device_window(win, dtype, fs, density: bool):
    """A device window times the square root of SciPy's scale, in `dtype`, contiguous: two launches
    (its sum or sum of squares in double, then the product), so the scale never reaches the host
    (a device window was downloaded each call: a sync and a pageable copy). The power |X|^2 of
    its frames carries the scale, and 'stft' frames the square root SciPy takes."""
    s = _window_sum(win, density)
    out = _empty(win.shape, dtype=dtype)
    _window_scale(win, s, float(fs), density, out)
    return out


def applicable(x, same: bool, win, detrend, sides: str) -> bool:
    """Whether the fused path computes this call: a non-empty real float32/float64 cuarray signal
    with itself, a real window, constant or no detrending, a one-sided spectrum."""
    if not same or sides != "onesided" or not isinstance(x, _ndarray) or x.dtype not in _FLOATS or x.size == 0:
        return False
    if numpy.iscomplexobj(win) and numpy.any(numpy.imag(win)):
        return False
    if isinstance(detrend, str):
        if detrend not in ("constant", "c"):
            return False
    elif detrend is not False and detrend is not None:
        return False
    return True


def frames(x, win, nperseg: int, noverlap: int, nfft: int, detrend: bool, pre: int = 0, length=None,
           on_device=False):
    """The FFT input of the segments of `x` (..., n): (..., nseg, nfft) in x's dtype. `pre` zeros
    before the signal and zeros after it up to `length` samples in all (stft's boundary and
    padding) are read as such, not stored (no detrend then). `win`: a host array, or with
    `on_device` a contiguous device array of x's dtype."""
    nstep = nperseg - noverlap
    n = x.shape[-1]
    length = n if length is None else length
    nseg = (length - nperseg) // nstep + 1
    # a host window is kept on the device (no upload a call)
    w = win if on_device else _constant_table(numpy.ascontiguousarray(win, dtype=x.dtype))
    out = _empty(x.shape[:-1] + (nseg, nfft), dtype=x.dtype)
    write_frames(x, w, n, nstep, nperseg, nfft, nseg, detrend, pre, out)
    return out


def write_frames(x, w, n, nstep, nperseg, nfft, nseg, detrend: bool, pre, out) -> None:
    """`frames`' kernel: templates/spectral.cu's row kernel for a C-contiguous signal (the segment
    means, when detrending, summed inside it: a warp a segment), else the elementwise form (any
    strides) after a reduction for the means."""
    if not x.flags.c_contiguous:
        means = _sliding_window_view(x, nperseg, axis=-1)[..., ::nstep, :].mean(-1) if detrend else w
        _frames_strided(x, means, w, n, nstep, nperseg, nfft, nseg, detrend, pre, out)
        return
    rows = out.size // nfft
    grid = max(1, min(-(-rows // 8), 64 * _device._sm_count(_device.get_device_id())))
    (k,) = SPECTRAL.get("frames<{}>".format("float" if x.dtype == _FLOATS[0] else "double"))
    k.launch(grid, (32, 8), x.data.ptr, w.data.ptr, w.data.ptr, n, nstep, nperseg, nfft, nseg, rows,
             _MEAN_INSIDE if detrend else 0, pre, out.data.ptr, 0, 0, 0, 0)


def run(x, win, nperseg: int, noverlap: int, nfft: int, detrend, scale: float, mode: str, mean: bool, pre: int = 0,
        length=None, on_device=False):
    """The result of `_spectral_helper` before its axis move: (..., nseg, nf) (mode 'stft': complex;
    'psd': real), or with `mean` (mode 'psd' only) the average over the segments, (..., nf).
    `pre`, `length`: `frames`' virtual zero boundary and padding. `on_device`: `win` is
    `device_window`'s (the scale folded in, `scale` 1)."""
    detrend = detrend is not False and detrend is not None
    if not on_device:
        win = numpy.asarray(win).real
        if mode == "stft":
            win = win * scale  # (the helper's scale is already its square root for 'stft')
    if (mean and mode == "psd" and nfft in PAIRS_NFFT and pre == 0 and length in (None, x.shape[-1])
            and x.flags.c_contiguous and math.prod(x.shape[:-1]) <= _BATCH_MAX):
        w = win if on_device else _constant_table(numpy.ascontiguousarray(win, dtype=x.dtype))
        return mean_power_pairs(x, w, nperseg, noverlap, nfft, detrend, _constant_table(_factors(nfft, scale)))
    if (not mean and mode == "psd" and nfft in STFT_REGS_NFFT and pre == 0 and length in (None, x.shape[-1])
            and x.flags.c_contiguous):
        w = win if on_device else _constant_table(numpy.ascontiguousarray(win, dtype=x.dtype))
        return power_rows(x, w, nperseg, noverlap, nfft, detrend, _constant_table(_factors(nfft, scale)))
    spec = _fft.rfft(frames(x, win, nperseg, noverlap, nfft, detrend, pre, length, on_device), axis=-1)
    if mode == "stft":
        return spec
    nf = spec.shape[-1]
    hi = nf - 1 if nfft % 2 == 0 else nf  # SciPy's result[..., 1:-1] (even nfft) or [..., 1:] (odd)
    if mean:
        c = _factors(nfft, scale)
        if spec.flags.c_contiguous and math.prod(spec.shape[:-2]) <= _BATCH_MAX:
            return mean_power(spec, _constant_table(c), x.dtype)
        c = _constant_table(c.astype(x.dtype))
        return _mean_power_reduce(spec, c, 1.0 / spec.shape[-2])
    out = _empty(spec.shape, dtype=x.dtype)
    _power(spec, float(scale), nf, hi, out)
    return out


def _factors(nfft: int, scale: float) -> numpy.ndarray:
    """Each frequency's factor of a one-sided mean power: SciPy's scale, doubled inside (its
    result[..., 1:-1] for an even nfft, [..., 1:] for an odd one)."""
    nf = nfft // 2 + 1
    c = numpy.full(nf, scale, dtype=numpy.float64)
    c[1:nf - 1 if nfft % 2 == 0 else nf] *= 2
    return c


_F8 = numpy.dtype(numpy.float64)


class StftPlan:
    """One stft call's whole device work, kept per argument key by `_spectral.stft` (a C-contiguous
    real signal framed along its last axis, a named window): the scaled window, the times constants
    (and the one-pass route's twiddles) as kept device tables, the kernel and its launch arguments.
    A call allocates the output and one buffer for the frequencies and times and makes one launch:
    for a power-of-two nfft in [ONE_PASS_MIN, ONE_PASS_MAX] `stft_regs` (STFT_REGS_NFFT: in-register
    DFTs) or `stft_rfft` (the frames, the window, the real FFT, the frequencies and the times: the
    frames never stored); else `frames` with
    `aux` and one cuFFT R2C (its cached recipe). It returns SciPy's (f, t, Zxx): f and t views of
    the one buffer, Zxx the spectrum's transposed view (frequencies before segments). No
    validation, transfer or sync a call: the key holds everything the arguments decide."""

    __slots__ = ("launch", "grid", "block", "regs", "w", "tp", "tw", "n", "nstep", "nperseg", "nfft", "nseg", "rows", "pre",
                 "fshape", "dtype", "nf", "nt", "consts", "one_pass", "cdtype")

    def __init__(self, x, win, nperseg: int, noverlap: int, nfft: int, pre: int, length: int, tp, nt: int):
        self.dtype = x.dtype
        self.cdtype = numpy.result_type(x.dtype, numpy.complex64)
        self.nstep = nperseg - noverlap
        self.n = x.shape[-1]
        self.nperseg, self.nfft, self.pre, self.nt = nperseg, nfft, pre, nt
        self.nseg = (length - nperseg) // self.nstep + 1
        self.nf = nfft // 2 + 1
        self.one_pass = ONE_PASS_MIN <= nfft <= ONE_PASS_MAX and nfft & (nfft - 1) == 0
        self.fshape = x.shape[:-1] + (self.nseg, self.nf if self.one_pass else nfft)
        self.rows = math.prod(x.shape[:-1]) * self.nseg
        self.w = _constant_table(numpy.ascontiguousarray(win, dtype=x.dtype))
        self.consts = tuple(float(v) for v in tp)  # (rfftfreq's step; the times' start, step, fs, offset)
        self.tp = _constant_table(numpy.asarray(self.consts, dtype=numpy.float64))
        ctype = "float" if x.dtype == _FLOATS[0] else "double"
        sms = _device._sm_count(_device.get_device_id())
        self.block, self.regs = 256, self.one_pass and nfft in STFT_REGS_NFFT
        if self.regs:  # (register DFTs: templates/spectral.cu's stft_regs)
            self.tw = _constant_table(_regs_twiddles(nfft, x.dtype))
            self.block, self.grid = regs_grid(self.rows, nfft, x.dtype.itemsize, sms)
            minb = PAIRS_SHAPE[x.dtype.itemsize][1]
            (k,) = SPECTRAL.get("stft_regs<{}, {}, {}, {}, 0>".format(ctype, nfft // 2, self.block, minb))
        elif self.one_pass:
            self.tw = _constant_table(twiddles(nfft, x.dtype))
            seg = 1024 // nfft  # (segments a block: 256 threads, nfft / 4 a segment)
            self.grid = max(1, min(-(-self.rows // seg), 64 * sms))
            (k,) = SPECTRAL.get("stft_rfft<{}, {}>".format(ctype, nfft // 2))
        else:
            self.tw = None
            self.grid = max(1, min(-(-self.rows // 8), 64 * sms))
            (k,) = SPECTRAL.get("frames<{}>".format(ctype))
        self.launch = k.launch
        # a window past constant_table's size is uploaded, not kept there: complete before any
        # stream's call reads it (once a plan, as constant_table waits for a new table)
        _stream.get_current_stream().synchronize()

    def __call__(self, x):
        """(f, t, Zxx) of the signal `x` (its shape, strides and dtype those of the plan's key)."""
        nf, nt = self.nf, self.nt
        aux = _new_c((nf + nt,), _F8)
        w = self.w.data.ptr
        if self.regs:  # (stft_regs: no power factors, no detrending)
            spec = _new_c(self.fshape, self.cdtype)
            self.launch(self.grid, self.block, x.data.ptr, w, self.tw.data.ptr, self.n, self.nstep, self.nperseg,
                        self.nseg, self.rows, self.pre, spec.data.ptr, aux.data.ptr, nf, nt, self.tp.data.ptr, 0, 0)
        elif self.one_pass:
            spec = _new_c(self.fshape, self.cdtype)
            self.launch(self.grid, self.block, x.data.ptr, w, self.tw.data.ptr, self.n, self.nstep, self.nperseg, self.nseg,
                        self.rows, self.pre, spec.data.ptr, aux.data.ptr, nf, nt, self.tp.data.ptr)
        else:
            frames = _new_c(self.fshape, self.dtype)
            self.launch(self.grid, (32, 8), x.data.ptr, w, w, self.n, self.nstep, self.nperseg, self.nfft, self.nseg,
                        self.rows, 0, self.pre, frames.data.ptr, aux.data.ptr, nf, nt, self.tp.data.ptr)
            spec = _fft.rfft(frames, axis=-1)  # (a cached recipe: no copy)
        return transposed_views(spec, aux, nf, nt)


def twiddles(nfft: int, dtype):
    """stft_rfft's table: exp(-2 pi i m / nfft) for m < nfft / 2, as (re, im) pairs of `dtype`
    (computed in double, rounded once)."""
    ang = -2.0 * numpy.pi * numpy.arange(nfft // 2) / nfft
    return numpy.stack([numpy.cos(ang), numpy.sin(ang)], axis=-1).astype(dtype).reshape(-1)
