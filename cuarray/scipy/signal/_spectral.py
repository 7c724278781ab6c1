"""scipy.signal's spectral analysis on the GPU: `periodogram`, `welch`, `csd`, `coherence`,
`spectrogram`, `stft` (SciPy's _spectral_helper: overlapping segments gathered in one indexing
step, detrended, windowed, one batched FFT, scaled and averaged on the device), and `istft` (one
batched inverse FFT, then an overlap-add in a few strided passes).

Windows named by a string or tuple come from `scipy.signal.get_window` on the host (SciPy is
needed for those, imported when used: the `cuarray[scipy]` extra); an array window needs nothing.
Frequencies and times are cuarray arrays."""

from __future__ import annotations

import functools
import math
import warnings

import numpy

import cuarray.fft as _fft  # (the subsystem, by its full name: layers checked in tests/test_layers.py)
from ..._core.ndarray import ndarray as _ndarray
from ..._core.transfer import from_host as _from_host
from ..._manipulation.dims import broadcast_to as _broadcast_to
from ..._manipulation.joining import concatenate as _concatenate
from ..._manipulation.transpose import moveaxis as _moveaxis
from ...lib.stride_tricks import sliding_window_view as _sliding_window_view
from ..._math.complex import angle as _angle
from ..._math.unwrap import unwrap as _unwrap
from ..._statistics.median import median as _median
from ...cuda import device as _device
from ..ndimage import _support as _s
from . import _args
from . import _filtering
from . import _lfilter
from . import _psd_plan
from . import _spectral_fused as _fused
from ...cuda import caches as _caches

__all__ = ["periodogram", "welch", "csd", "coherence", "spectrogram", "stft", "istft"]

_FLOATS = (numpy.dtype(numpy.float32), numpy.dtype(numpy.float64))


def _get_window(window, n):
    from scipy.signal import get_window  # host-side window design (optional dependency)

    return get_window(window, n)


@functools.lru_cache(maxsize=64)
def _kept_window(window, n):
    w = numpy.asarray(_get_window(window, n))
    w.flags.writeable = False  # (shared between calls: nothing here writes a window in place)
    return w


def _named_window(window, n):
    """`get_window`'s array for a window named by a string or tuple, kept per (name, n): SciPy's
    design costs ~15 us of host time a call (stft's whole GPU time at 2^22 samples is ~60 us)."""
    try:
        return _kept_window(window, n)
    except TypeError:  # an unhashable tuple
        return numpy.asarray(_get_window(window, n))


def _triage_segments(window, nperseg, input_length):
    if isinstance(window, (str, tuple)):
        if nperseg is None:
            nperseg = 256
        if nperseg > input_length:
            warnings.warn("nperseg = {:d} is greater than input length  = {:d}, using nperseg = {:d}"
                          .format(nperseg, input_length, input_length), stacklevel=3)
            nperseg = input_length
        win = _named_window(window, nperseg)
    else:
        # a device window stays there (`_spectral_helper` takes it down where the fused path cannot use it)
        win = window if _device_window(window) else _args.host_param(window)
        if len(win.shape) != 1:
            raise ValueError("window must be 1-D")
        if input_length < win.shape[-1]:
            raise ValueError("window is longer than input signal")
        if nperseg is None:
            nperseg = win.shape[0]
        elif nperseg != win.shape[0]:
            raise ValueError("value specified for nperseg is different from length of window")
    return win, nperseg


def _device_window(window) -> bool:
    """A real floating device window: the fused path uses it where it is (no download, no sync)."""
    return _s.is_array(window) and window.dtype in _FLOATS


def _scaled_window(win, on_device, x, outdtype, fs, scaling, mode):
    """(window, scale) as SciPy scales: 1 / (fs sum w^2) ('density') or 1 / (sum w)^2, its square
    root for 'stft'. A device window is returned times the square root of its scale, computed on
    the device (`_fused.device_window`), with scale 1."""
    if scaling not in ("density", "spectrum"):
        raise ValueError("Unknown scaling: {!r}".format(scaling))
    if on_device:
        return _fused.device_window(win, x.dtype, fs, scaling == "density"), 1.0
    if numpy.result_type(win, numpy.complex64) != outdtype:
        win = win.astype(outdtype)
    scale = 1.0 / (fs * (win * win).sum()) if scaling == "density" else 1.0 / win.sum() ** 2
    return win, (numpy.sqrt(scale) if mode == "stft" else scale)


def _segment_params(nperseg, nfft, noverlap, default_nfft):
    """SciPy's checks of `nfft` and `noverlap` against `nperseg`: (nfft, noverlap) as ints."""
    if nfft is None:
        nfft = default_nfft
    elif nfft < nperseg:
        raise ValueError("nfft must be greater than or equal to nperseg.")
    else:
        nfft = int(nfft)
    noverlap = nperseg // 2 if noverlap is None else int(noverlap)
    if noverlap >= nperseg:
        raise ValueError("noverlap must be less than nperseg.")
    return nfft, noverlap


# welch's and spectrogram's plans are made from these (`_psd_plan.make`): the general path's window and scale
_PLAN_HELPERS = (_named_window, _segment_params, _scaled_window)


def _zeros_like_tail(x, n):
    shape = list(x.shape)
    shape[-1] = n
    return _from_host(numpy.zeros(shape, x.dtype)) if _s.is_array(x) else numpy.zeros(shape, x.dtype)


def _fft_helper(x, win, detrend, nperseg, noverlap, nfft, sides):
    # The segments as a strided view (no copy): a gather by an index array made on the host was
    # 1.6 GB of host arrays and their copy for welch of 1e8 samples (~0.5 s).
    seg = _sliding_window_view(x, nperseg, axis=-1, writeable=True)[..., ::nperseg - noverlap, :]  # (as SciPy's)
    if detrend is not False and detrend is not None:
        if callable(detrend):
            seg = detrend(seg)
        elif detrend in ("constant", "c"):
            seg = seg - seg.mean(-1, keepdims=True)
        else:
            seg = _filtering.detrend(seg, type=detrend, axis=-1)
    seg = seg * (_from_host(win) if _s.is_array(x) else win)
    if sides == "twosided":
        return _fft.fft(seg, n=nfft)
    return _fft.rfft(seg.real if seg.dtype.kind == "c" else seg, n=nfft)


def _freqs_times(x, nfft, fs, sides, nperseg, nstep, length, shift, want_time):
    """SciPy's frequencies and segment times (None without `want_time`: csd and welch drop them).
    For a device signal both are written on the device from their index (`fft.rfftfreq`,
    `_fused.segment_times`: NumPy's values, one launch each), not uploaded: a stft of 2^22 samples
    uploaded 256 KiB of times each call (~190 us of host time an upload)."""
    dev = _s.is_array(x)
    fft = _fft if dev else numpy.fft
    freqs = fft.fftfreq(nfft, 1 / fs) if sides == "twosided" else fft.rfftfreq(nfft, 1 / fs)
    if not dev:
        freqs = numpy.asarray(freqs)
    if not want_time:
        return freqs, None
    if dev:
        return freqs, _fused.segment_times(nperseg / 2, length - nperseg / 2 + 1, nstep, float(fs),
                                           nperseg / 2 / fs if shift else None)
    time = numpy.arange(nperseg / 2, length - nperseg / 2 + 1, nstep) / float(fs)
    if shift:
        time -= nperseg / 2 / fs
    return freqs, time


def _spectral_helper(x, y, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, scaling, axis, mode,
                     boundary=None, padded=False, mean=False, want_time=True):
    if mode not in ("psd", "stft"):
        raise ValueError("Unknown value for mode {}, must be one of: {{'psd', 'stft'}}".format(mode))
    exts = {"even": "even", "odd": "odd", "constant": "constant", "zeros": "zeros", None: None}
    if boundary not in exts:
        raise ValueError("Unknown boundary option '{}', must be one of: {}".format(boundary, list(exts)))
    same = y is x
    if not same and mode != "psd":
        raise ValueError("x and y must be equal if mode is 'stft'")
    axis = int(axis)
    x = _args.data(x, "spectral")
    outdtype = numpy.result_type(x.dtype, numpy.complex64)
    if not same:
        y = _args.data(y, "spectral")
        outdtype = numpy.result_type(x.dtype, y.dtype, numpy.complex64)
        xo, yo = list(x.shape), list(y.shape)
        xo.pop(axis)
        yo.pop(axis)
        try:
            outer = numpy.broadcast_shapes(tuple(xo), tuple(yo))
        except ValueError as e:
            raise ValueError("x and y cannot be broadcast together.") from e
    if x.size == 0 or (not same and y.size == 0):  # SciPy's empty float64 results, the input's shape
        shape = x.shape if same else numpy.moveaxis(numpy.empty(outer + (min(x.shape[axis], y.shape[axis]),)), -1,
                                                    axis).shape
        wrap = _from_host if _s.is_array(x) else numpy.asarray
        return tuple(wrap(numpy.empty(shape)) for _ in range(3))
    if x.ndim > 1 and axis != -1:
        x = _moveaxis(x, axis, -1)
        if not same and y.ndim > 1:
            y = _moveaxis(y, axis, -1)
    if not same and x.shape[-1] != y.shape[-1]:
        if x.shape[-1] < y.shape[-1]:
            x = _concatenate((x, _zeros_like_tail(x, y.shape[-1] - x.shape[-1])), -1)
        else:
            y = _concatenate((y, _zeros_like_tail(y, x.shape[-1] - y.shape[-1])), -1)
    if nperseg is not None:
        nperseg = int(nperseg)
        if nperseg < 1:
            raise ValueError("nperseg must be a positive integer")
    win, nperseg = _triage_segments(window, nperseg, x.shape[-1])
    dev_win = _device_window(window)
    if dev_win and not (return_onesided and _fused.applicable(x, same, win, detrend, "onesided")):
        win, dev_win = _args.host_param(win), False  # (the generic path's window is a host array)
    nfft, noverlap = _segment_params(nperseg, nfft, noverlap, nperseg)
    nstep = nperseg - noverlap
    shift = boundary is not None  # (the times start at 0 with a boundary)
    # stft's zero boundary and padding read as zeros by the fused frames, never stored
    virtual = ((boundary == "zeros" or (boundary is None and padded)) and (detrend is False or detrend is None)
               and return_onesided and _fused.applicable(x, same, win, False, "onesided"))
    pre, length = 0, x.shape[-1]
    if virtual:
        pre = nperseg // 2 if boundary == "zeros" else 0
        length += 2 * pre
        if padded:
            length += -(length - nperseg) % nstep % nperseg
        boundary, padded = None, False  # (done: pre and length)
    if boundary is not None:
        kind = boundary if boundary != "zeros" else None
        n2 = nperseg // 2
        if kind is None:
            x = _concatenate((_zeros_like_tail(x, n2), x, _zeros_like_tail(x, n2)), -1)
            if not same:
                y = _concatenate((_zeros_like_tail(y, n2), y, _zeros_like_tail(y, n2)), -1)
        else:
            x = _lfilter._ext(x, n2, x.ndim - 1, kind)
            if not same:
                y = _lfilter._ext(y, n2, y.ndim - 1, kind)
    if padded:
        nadd = -(x.shape[-1] - nperseg) % nstep % nperseg
        x = _concatenate((x, _zeros_like_tail(x, nadd)), -1)
        if not same:
            y = _concatenate((y, _zeros_like_tail(y, nadd)), -1)
    win, scale = _scaled_window(win, dev_win, x, outdtype, fs, scaling, mode)
    sides = "twosided"
    if return_onesided:
        if x.dtype.kind == "c" or (not same and y.dtype.kind == "c"):
            warnings.warn("Input data is complex, switching to return_onesided=False", stacklevel=3)
        else:
            sides = "onesided"
    if not virtual:
        length = x.shape[-1]
    freqs, time = _freqs_times(x, nfft, fs, sides, nperseg, nstep, length, shift, want_time)
    if _fused.applicable(x, same, win, detrend, sides):
        fused_mean = mean and mode == "psd"
        result = _fused.run(x, win, nperseg, noverlap, nfft, detrend, float(numpy.real(scale)), mode, fused_mean,
                            pre, length, dev_win)
        if fused_mean:  # (..., nf): the frequencies at `axis`
            return freqs, time, _moveaxis(result, -1, axis) if result.ndim > 1 else result
    else:
        result = _generic_result(x, y, same, win, detrend, nperseg, noverlap, nfft, sides, mode, scale, outdtype)
    ax = axis - 1 if axis < 0 else axis
    result = _moveaxis(result, -1, ax)  # frequencies at `axis`, segments last
    if mean and result.ndim >= 2 and result.size > 0:  # csd's average='mean'
        result = result.mean(axis=-1) if result.shape[-1] > 1 else result.reshape(result.shape[:-1])
    return freqs, time, result


def _generic_result(x, y, same, win, detrend, nperseg, noverlap, nfft, sides, mode, scale, outdtype):
    """SciPy's steps after the segments' FFT: the cross spectrum, scaled and doubled."""
    result = _fft_helper(x, win, detrend, nperseg, noverlap, nfft, sides)
    if not same:
        result = result.conj() * _fft_helper(y, win, detrend, nperseg, noverlap, nfft, sides)
    elif mode == "psd":
        result = result.conj() * result
    result = result * scale
    if sides == "onesided" and mode == "psd":
        last = None if nfft % 2 else -1
        result[..., 1:last] *= 2
    result = result.astype(outdtype)
    if same and mode != "stft":
        result = result.real
    return result


def _median_bias(n):
    ii_2 = 2 * numpy.arange(1.0, (n - 1) // 2 + 1)
    return 1 + numpy.sum(1.0 / (ii_2 + 1) - 1.0 / ii_2)


def csd(x, y, fs=1.0, window="hann_periodic", nperseg=None, noverlap=None, nfft=None, detrend="constant",
        return_onesided=True, scaling="density", axis=-1, average="mean"):
    """See `scipy.signal.csd`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> x = cuarray.array([1., 2., 5., 3., 1., 4., 2., 6.])
    >>> f, pxy = signal.csd(x, 2 * x, nperseg=4)
    >>> cuarray.round(cuarray.abs(pxy), 6)
    array([ 3.666667, 11.722222,  9.555556])
    """
    if scaling not in ("spectrum", "density"):
        raise ValueError("Parameter scaling={!r} not in {}!".format(scaling, {"spectrum": "magnitude",
                                                                              "density": "psd"}))
    same = y is x
    x = _args.data(x, "csd")
    y = x if same else _args.data(y, "csd")
    if return_onesided and x.dtype.kind == "c":
        return_onesided = False  # SciPy's csd switches silently (its _spectral_helper warns)
    freqs, _, pxy = _spectral_helper(x, y, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, scaling,
                                     axis, mode="psd", mean=average == "mean", want_time=False)
    if average != "mean" and pxy.ndim >= 2 and pxy.size > 0:
        if pxy.shape[-1] > 1:
            if average == "median":
                bias = _median_bias(pxy.shape[-1])
                if pxy.dtype.kind == "c":
                    pxy = _median(pxy.real, axis=-1) + 1j * _median(pxy.imag, axis=-1)
                else:
                    pxy = _median(pxy, axis=-1)
                pxy = pxy / float(bias)  # a weak scalar: float32 stays float32, as SciPy's in-place divide
            else:
                raise ValueError("Parameter average={!r} must be 'median' or 'mean'!".format(average))
        else:
            pxy = pxy.reshape(pxy.shape[:-1])
    return freqs, pxy


def welch(x, fs=1.0, window="hann_periodic", nperseg=None, noverlap=None, nfft=None, detrend="constant",
          return_onesided=True, scaling="density", axis=-1, average="mean"):
    """See `scipy.signal.welch`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> x = cuarray.array([1., 2., 5., 3., 1., 4., 2., 6.])
    >>> f, p = signal.welch(x, nperseg=4)
    >>> f
    array([0.  , 0.25, 0.5 ])
    >>> cuarray.round(p, 6)
    array([1.833333, 5.861111, 4.777778])
    """
    k = (_psd_plan.key("welch", x, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, scaling, axis)
         if average == "mean" else None)
    if k is not None:  # (a repeated call: its cached plan's launches only)
        plan = _psd_plan.plan_for(k, lambda: _psd_plan.make("welch", x, fs, window, nperseg, noverlap, nfft, detrend,
                                                            return_onesided, scaling, axis, _PLAN_HELPERS))
        if plan is not None:
            return plan(x, window if type(window) is _ndarray else None)
    freqs, pxx = csd(x, x, fs=fs, window=window, nperseg=nperseg, noverlap=noverlap, nfft=nfft, detrend=detrend,
                     return_onesided=return_onesided, scaling=scaling, axis=axis, average=average)
    return freqs, pxx.real


def periodogram(x, fs=1.0, window="boxcar", nfft=None, detrend="constant", return_onesided=True,
                scaling="density", axis=-1):
    """See `scipy.signal.periodogram`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> x = cuarray.array([1., 2., 5., 3., 1., 4., 2., 6.])
    >>> f, p = signal.periodogram(x)
    >>> cuarray.round(p, 6)
    array([ 0.      ,  0.196699,  8.5     , 10.803301,  4.5     ])
    """
    x = _args.data(x, "periodogram")
    if window is None:
        window = "boxcar"
    if nfft is None:
        nperseg = x.shape[axis]
    elif nfft == x.shape[axis]:
        nperseg = nfft
    elif nfft > x.shape[axis]:
        nperseg = x.shape[axis]
    else:
        idx = [slice(None)] * x.ndim
        idx[axis] = slice(None, nfft)
        x = x[tuple(idx)]
        nperseg = nfft
        nfft = None
    if hasattr(window, "size") and window.size != nperseg:
        raise ValueError("the size of the window must be the same size of the input on the specified axis")
    return welch(x, fs=fs, window=window, nperseg=nperseg, noverlap=0, nfft=nfft, detrend=detrend,
                 return_onesided=return_onesided, scaling=scaling, axis=axis)


def coherence(x, y, fs=1.0, window="hann_periodic", nperseg=None, noverlap=None, nfft=None, detrend="constant",
              axis=-1):
    """See `scipy.signal.coherence`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> x = cuarray.array([1., 2., 5., 3., 1., 4., 2., 6.])
    >>> f, c = signal.coherence(x, 2 * x, nperseg=4, detrend=False)
    >>> cuarray.round(c, 6)
    array([1., 1., 1.])
    """
    same = y is x
    x = _args.data(x, "coherence")  # (once: welch and csd below take the same device arrays)
    y = x if same else _args.data(y, "coherence")
    freqs, pxx = welch(x, fs=fs, window=window, nperseg=nperseg, noverlap=noverlap, nfft=nfft, detrend=detrend,
                       axis=axis)
    _, pyy = welch(y, fs=fs, window=window, nperseg=nperseg, noverlap=noverlap, nfft=nfft, detrend=detrend, axis=axis)
    _, pxy = csd(x, y, fs=fs, window=window, nperseg=nperseg, noverlap=noverlap, nfft=nfft, detrend=detrend, axis=axis)
    return freqs, abs(pxy) ** 2 / pxx / pyy


def spectrogram(x, fs=1.0, window=("tukey_periodic", 0.25), nperseg=None, noverlap=None, nfft=None,
                detrend="constant", return_onesided=True, scaling="density", axis=-1, mode="psd"):
    """See `scipy.signal.spectrogram`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> x = cuarray.array([1., 2., 5., 3., 1., 4., 2., 6.])
    >>> f, t, sxx = signal.spectrogram(x, nperseg=4)
    >>> t
    array([2., 6.])
    >>> sxx.shape
    (3, 2)
    """
    modes = ["psd", "complex", "magnitude", "angle", "phase"]
    if mode not in modes:
        raise ValueError("unknown value for mode {}, must be one of {}".format(mode, modes))
    if mode == "psd":
        k = _psd_plan.key("spectrogram", x, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, scaling,
                          axis)
        if k is not None:  # (a repeated call: its cached plan's launches only)
            plan = _psd_plan.plan_for(k, lambda: _psd_plan.make("spectrogram", x, fs, window, nperseg, noverlap, nfft,
                                                                detrend, return_onesided, scaling, axis,
                                                                _PLAN_HELPERS))
            if plan is not None:
                return plan(x, window if type(window) is _ndarray else None)
    x = _args.data(x, "spectrogram")
    window, nperseg = _triage_segments(window, nperseg, x.shape[axis])
    if noverlap is None:
        noverlap = nperseg // 8
    if mode == "psd":
        return _spectral_helper(x, x, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, scaling, axis,
                                mode="psd")
    f, t, sxx = _spectral_helper(x, x, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, scaling, axis,
                                 mode="stft")
    if mode == "magnitude":
        sxx = abs(sxx)
    elif mode in ("angle", "phase"):
        sxx = _angle(sxx)
        if mode == "phase":  # unwrapped along the frequencies (one more axis: the segments)
            sxx = _unwrap(sxx, axis=axis - 1 if axis < 0 else axis)
    return f, t, sxx


# stft's plans by argument key (`_stft_key`): `_fused.StftPlan`, or None where the call takes the
# general path (checked once). Up to _STFT_KEEP keys, then forgotten together.
_stft_plans: dict = {}
_caches.register("signal stft plans", _stft_plans)
_STFT_KEEP = 256


def _stft_key(x, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, boundary, padded, axis, scaling):
    """HOT PATH: the plan key of a call, or None (not a cuarray array, or an argument that cannot be
    a key: an array window, a list). fs's type is part of it (a NumPy float32 fs rounds SciPy's
    frequencies in float32)."""
    if type(x) is not _ndarray or not isinstance(window, (str, tuple)):
        return None
    key = (x._shape, x._strides, x._dtype, fs, type(fs), window, nperseg, noverlap, nfft, detrend, return_onesided,
           boundary, padded, axis, scaling, _device.get_device_id())
    try:
        hash(key)
    except TypeError:
        return None
    return key


def _stft_plan(x, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, boundary, padded, axis, scaling):
    """A `_fused.StftPlan` for a call the fused path computes without warnings (a non-empty
    C-contiguous float32/float64 signal framed along its last axis, a named window, no detrending,
    a one-sided spectrum, a zero or no boundary, a Python number fs), built from the general path's
    own helpers (the same window, scale, frames and times); else None (the general path then runs
    and raises or warns as SciPy)."""
    if (x._dtype not in _FLOATS or not x._shape or x.size == 0 or not x._c or type(fs) not in (int, float) or not fs
            or type(axis) is not int or axis not in (-1, x.ndim - 1) or not (detrend is False or detrend is None)
            or return_onesided is not True or boundary not in ("zeros", None) or padded not in (True, False)
            or scaling not in ("spectrum", "psd") or type(nperseg) is not int or not 1 <= nperseg <= x._shape[-1]):
        return None
    try:
        win = _named_window(window, nperseg)
        nfft, noverlap = _segment_params(nperseg, nfft, noverlap, nperseg)
    except (ValueError, TypeError):
        return None
    if win.ndim != 1 or win.shape[0] != nperseg or not _fused.applicable(x, True, win, False, "onesided"):
        return None
    win = _stft_window(win, x.dtype, fs, scaling)
    pre, length, nt, consts = _stft_layout(x._shape[-1], fs, nperseg, noverlap, nfft, boundary, padded)
    return _fused.StftPlan(x, win, nperseg, noverlap, nfft, pre, length, consts, nt)


def _stft_window(win, dtype, fs, scaling):
    """The fused stft's window (host float64 `get_window` array) times the square root of SciPy's
    scale, as `_spectral_helper` and `_fused.run` make it for a signal of `dtype`."""
    outdtype = numpy.result_type(dtype, numpy.complex64)
    win, scale = _scaled_window(win, False, None, outdtype, fs, "density" if scaling == "psd" else "spectrum", "stft")
    return numpy.asarray(win).real * float(numpy.real(scale))


def _stft_layout(n, fs, nperseg, noverlap, nfft, boundary, padded):
    """(pre, length, nt, consts) of the fused stft of n samples: `_spectral_helper`'s virtual zero
    boundary (pre zeros) and padding (length samples in all), the number of segment times, and
    the frames kernel's five constants: rfftfreq(nfft, 1 / fs)'s step, then the times' arange
    start and step, fs and the boundary's offset (arange(start, stop, nstep) / fs - offset)."""
    nstep = nperseg - noverlap
    pre, length = 0, n
    if boundary == "zeros" or (boundary is None and padded):
        pre = nperseg // 2 if boundary == "zeros" else 0
        length += 2 * pre
        if padded:
            length += -(length - nperseg) % nstep % nperseg
    start, stop = nperseg / 2, length - nperseg / 2 + 1
    nt = max(0, math.ceil((stop - start) / nstep))
    off = nperseg / 2 / fs if boundary is not None else 0.0
    return pre, length, nt, (1.0 / (nfft * (1 / fs)), start, float(nstep), float(fs), off)


def stft(x, fs=1.0, window="hann_periodic", nperseg=256, noverlap=None, nfft=None, detrend=False,
         return_onesided=True, boundary="zeros", padded=True, axis=-1, scaling="spectrum"):
    """See `scipy.signal.stft`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> x = cuarray.array([1., 2., 5., 3., 1., 4., 2., 6.])
    >>> f, t, z = signal.stft(x, nperseg=4)
    >>> z.shape
    (3, 5)
    """
    key = _stft_key(x, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, boundary, padded, axis, scaling)
    if key is not None:
        plan = _stft_plans.get(key, False)
        if plan:
            return plan(x)
        if plan is False:  # (first sight of this key: a plan, or None for the general path)
            plan = _stft_plan(x, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, boundary, padded,
                              axis, scaling)
            if len(_stft_plans) >= _STFT_KEEP:
                _stft_plans.clear()
            _stft_plans[key] = plan
            if plan is not None:
                return plan(x)
    if scaling == "psd":
        scaling = "density"
    elif scaling != "spectrum":
        raise ValueError("Parameter scaling={!r} not in ['spectrum', 'psd']!".format(scaling))
    return _spectral_helper(x, x, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, scaling, axis,
                            mode="stft", boundary=boundary, padded=padded)


def overlap_add(segs, nstep):
    """The sum of the segments `segs[..., i, :]` (each `m` long) placed at `i * nstep`: an array of
    `(nseg - 1) * nstep + m` samples along the last axis. SciPy loops over the segments (one small
    update each: thousands of launches here); instead the output is viewed as rows of `nstep`
    samples, and chunk `j` of every segment lands on rows `j .. j + nseg - 1`: `ceil(m / nstep)`
    strided adds, each over the whole batch."""
    nseg, m = segs.shape[-2], segs.shape[-1]
    k = -(-m // nstep)
    blocks = zeros_as(segs.shape[:-2] + (nseg + k - 1, nstep), segs.dtype, segs)
    for j in range(k):
        w = min(nstep, m - j * nstep)
        view = blocks[..., j:j + nseg, :w]
        view += segs[..., j * nstep:j * nstep + w]
    return blocks.reshape(segs.shape[:-2] + ((nseg + k - 1) * nstep,))[..., :(nseg - 1) * nstep + m]


def zeros_as(shape, dtype, like):
    """Zeros where `like` lives (a cuarray array, or NumPy in the host tests)."""
    return _from_host(numpy.zeros(shape, dtype)) if _s.is_array(like) else numpy.zeros(shape, dtype)


def _istft_norm(w2, nseg, nstep, lo, cut, like):
    """istft's divisor: the squared window overlap-added over `nseg` segments, samples `lo` to
    `cut` from the end, with SciPy's 1.0 where it is <= 1e-10; and whether it is > 1e-10 throughout
    (the NOLA condition). Host arithmetic on the window alone. A long signal's divisor is `k - 1`
    rows of `nstep` samples at each end (`k = ceil(nperseg / nstep)`), between them one full row
    repeated: those come from a signal of `3 k + 1` segments (its trimmed part holds every value
    of the long one's), and the rows are put together on the device, so no host array or copy grows
    with the signal."""
    m = w2.shape[0]
    k = -(-m // nstep)
    ns = nseg if nseg <= 3 * k + 1 else 3 * k + 1
    short = overlap_add(numpy.broadcast_to(w2, (ns, m)), nstep)
    nola = bool(numpy.all(short[lo:max(short.shape[0] - cut, lo)] > 1e-10))
    short = numpy.where(short > 1e-10, short, 1.0).astype(w2.dtype)
    if ns == nseg:
        norm = short[lo:short.shape[0] - cut]
        return nola, (_from_host(norm) if _s.is_array(like) else norm)
    rows = numpy.concatenate((short, numpy.ones((ns + k - 1) * nstep - short.shape[0], w2.dtype)))
    rows = rows.reshape(ns + k - 1, nstep)
    wrap = _from_host if _s.is_array(like) else numpy.asarray
    parts = [_broadcast_to(wrap(rows[k - 1:k]), (nseg - k + 1, nstep))]
    if k > 1:
        parts = [wrap(rows[:k - 1])] + parts + [wrap(rows[ns:])]
    length = (nseg - 1) * nstep + m
    return nola, _concatenate(parts, 0).reshape(-1)[lo:max(length - cut, lo)]


def istft(Zxx, fs=1.0, window="hann_periodic", nperseg=None, noverlap=None, nfft=None, input_onesided=True,
          boundary=True, time_axis=-1, freq_axis=-2, scaling="spectrum"):
    """See `scipy.signal.istft`. The NOLA check runs on the host (the window's overlap-added square
    depends on the parameters only), so it costs no synchronisation.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> x = cuarray.array([1., 2., 5., 3., 1., 4., 2., 6.])
    >>> f, t, z = signal.stft(x, nperseg=4)
    >>> t, y = signal.istft(z, nperseg=4)
    >>> cuarray.round(y, 6)
    array([1., 2., 5., 3., 1., 4., 2., 6.])
    """
    Zxx = _args.data(Zxx, "istft")
    Zxx = Zxx + 0j
    freq_axis, time_axis = int(freq_axis), int(time_axis)
    if Zxx.ndim < 2:
        raise ValueError("Input stft must be at least 2d!")
    if freq_axis == time_axis:
        raise ValueError("Must specify differing time and frequency axes!")
    nseg = Zxx.shape[time_axis]
    n_default = 2 * (Zxx.shape[freq_axis] - 1) if input_onesided else Zxx.shape[freq_axis]
    if nperseg is None:
        nperseg = n_default
    else:
        nperseg = int(nperseg)
        if nperseg < 1:
            raise ValueError("nperseg must be a positive integer")
    nfft, noverlap = _segment_params(nperseg, nfft, noverlap,
                                     nperseg if (input_onesided and nperseg == n_default + 1) else n_default)
    nstep = nperseg - noverlap
    # (..., time, freq): the segments' samples last, as the overlap-add wants them
    fa, ta = freq_axis % Zxx.ndim, time_axis % Zxx.ndim
    outer = [d for d in range(Zxx.ndim) if d not in (fa, ta)]
    Zxx = Zxx.transpose(outer + [ta, fa])
    if isinstance(window, str) or type(window) is tuple:
        win = _named_window(window, nperseg)
    else:
        # a device window stays there (`_spectral_helper` takes it down where the fused path cannot use it)
        win = window if _device_window(window) else _args.host_param(window)
        if len(win.shape) != 1:
            raise ValueError("window must be 1-D")
        if win.shape[0] != nperseg:
            raise ValueError(f"window must have length of {nperseg}")
    if scaling not in ("spectrum", "psd"):
        raise ValueError(f"Parameter {scaling=} not in ['spectrum', 'psd']!")
    ifunc = _fft.irfft if input_onesided else _fft.ifft
    xsubs = ifunc(Zxx, axis=-1, n=nfft)[..., :nperseg]
    if numpy.result_type(win, xsubs.dtype) != xsubs.dtype:
        win = win.astype(xsubs.dtype)
    scale = win.sum() if scaling == "spectrum" else numpy.sqrt(fs * sum(win ** 2))
    rdt = numpy.dtype(xsubs.dtype.char.lower())
    # one host multiply of the window by SciPy's scale, then one device multiply of the segments
    x = overlap_add(xsubs * (_from_host(win * scale) if _s.is_array(xsubs) else win * scale), nstep)
    n2 = nperseg // 2 if boundary else 0
    # SciPy's x[..., n2:-n2]: empty for n2 = 0 with a boundary (nperseg = 1)
    lo, cut = (n2, n2) if not boundary or n2 else (0, x.shape[-1])
    x = x[..., lo:x.shape[-1] - cut]
    nola, norm = _istft_norm((win ** 2).real.astype(rdt), nseg, nstep, lo, cut, x)
    if not nola:
        warnings.warn("NOLA condition failed, STFT may not be invertible."
                      + (" Possibly due to missing boundary" if not boundary else ""), stacklevel=2)
    x = x / norm
    if input_onesided:
        x = x.real
    if x.ndim > 1 and ta != Zxx.ndim - 1:
        x = _moveaxis(x, -1, ta - 1 if fa < ta else ta)
    wrap = _from_host if _s.is_array(x) else numpy.asarray
    return wrap(numpy.arange(x.shape[0]) / float(fs)), x
