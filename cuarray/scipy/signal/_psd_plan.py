"""welch's (csd of a signal with itself, average='mean') and spectrogram's ('psd') cached plans, as
stft's in `_spectral`: a call the one-pass kernels compute (`_spectral_fused.mean_power_pairs`,
`power_rows`) is keyed by its arguments, and a repeated call runs only its launches. The general
path (`_spectral._spectral_helper`) spent ~190 us of host time a call on the H100 (300 Python
calls) beside 36 us of GPU work at 1e7 samples, and at 1e8 samples the host time was as long as
the GPU's: the bench row moved between 0.57 and 0.72 of the copy rate with it.

Eligible: a non-empty C-contiguous float32/float64 cuarray signal framed along its last axis, a
Python number fs, a named window (a string or tuple: its design and scale made once) or a 1-D
real device window of nperseg values (scaled on the device each call, two launches: its values
may change between calls), nperseg within the signal (no warning to give), constant or no
detrending, a one-sided spectrum, 'density' or 'spectrum' scaling, and an nfft the kernels take
(`PAIRS_NFFT` for welch, `STFT_REGS_NFFT` for spectrogram). Anything else takes the general path,
which raises and warns as SciPy does. The plan is made from the general path's own helpers (the
same window, scale and factors), so both give the same bits."""

from __future__ import annotations

import math

import numpy

import cuarray.fft as _fft  # (the subsystem, by its full name: layers checked in tests/test_layers.py)
from ..._core.ndarray import ndarray as _ndarray
from ...cuda import device as _device
from ..ndimage._tables import constant_table as _constant_table
from . import _spectral_fused as _fused
from ...cuda import caches as _caches

__all__ = ["key", "plan_for", "PsdPlan"]

_FLOATS = (numpy.dtype(numpy.float32), numpy.dtype(numpy.float64))
# plans by key (`key`): a PsdPlan, or None where the call takes the general path (decided once).
# Up to _KEEP keys, then forgotten together.
_plans: dict = {}
_caches.register("signal psd plans", _plans)
_KEEP = 256


def key(kind: str, x, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, scaling, axis):
    """HOT PATH: the plan key of a call (`kind` 'welch' or 'spectrogram'), or None (not a cuarray
    signal, or an argument that cannot be a key)."""
    if type(x) is not _ndarray:
        return None
    if type(window) is _ndarray:
        wkey = ("device", window._shape, window._strides, window._dtype)
    elif isinstance(window, (str, tuple)):
        wkey = window
    else:
        return None
    k = (kind, x._shape, x._strides, x._dtype, fs, type(fs), wkey, nperseg, noverlap, nfft, detrend, return_onesided,
         scaling, axis, _device.get_device_id())
    try:
        hash(k)
    except TypeError:
        return None
    return k


def plan_for(k, make):
    """The plan of key `k` (None: the general path), made by `make()` at its first sight."""
    plan = _plans.get(k, False)
    if plan is False:
        plan = make()
        if len(_plans) >= _KEEP:
            _plans.clear()
        _plans[k] = plan
    return plan


class PsdPlan:
    """One welch or spectrogram call's device work for its key: the window (kept on the device, or
    scaled on the device each call where it is a device array), the factors and the prepared
    launch (`_spectral_fused.PairsLaunch`, `RowsLaunch`: spectrogram's frequencies and times are
    written by its one launch). Calling it with the signal (and the device window, when it is one)
    returns SciPy's results."""

    __slots__ = ("nfft", "fs", "density", "w", "c", "launch", "welch")

    def __init__(self, kind, x, win, on_device, nperseg, noverlap, nfft, detrend, fs, scale, density):
        self.nfft, self.fs, self.density, self.welch = nfft, fs, density, kind == "welch"
        # a host window is kept on the device in the signal's dtype (as `_fused.run` keeps it)
        self.w = None if on_device else _constant_table(numpy.ascontiguousarray(numpy.asarray(win).real, x.dtype))
        self.c = _constant_table(_fused._factors(nfft, 1.0 if on_device else scale))
        if self.welch:
            self.launch = _fused.PairsLaunch(x._shape, x._dtype, nperseg, noverlap, nfft, detrend)
        else:
            self.launch = _fused.RowsLaunch(x._shape, x._dtype, nperseg, noverlap, nfft, detrend, fs)

    def __call__(self, x, window=None):
        w = self.w if window is None else _fused.device_window(window, x.dtype, self.fs, self.density)
        if self.welch:
            return _fft.rfftfreq(self.nfft, 1 / self.fs), self.launch(x, w, self.c)
        return self.launch(x, w, self.c)


def make(kind, x, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, scaling, axis, helpers):
    """A PsdPlan for a call the one-pass kernels compute without warnings, else None. `helpers`:
    `_spectral`'s (named_window, segment_params, scaled_window), so that the plan's window and
    scale are the general path's own."""
    named_window, segment_params, scaled_window = helpers
    n = x._shape[-1] if x._shape else 0
    if (x._dtype not in _FLOATS or not x._shape or x.size == 0 or not x._c or type(fs) not in (int, float) or not fs
            or type(axis) is not int or axis not in (-1, x.ndim - 1) or return_onesided is not True
            or scaling not in ("density", "spectrum") or detrend not in ("constant", "c", False, None)
            or math.prod(x._shape[:-1]) > _fused._BATCH_MAX):
        return None
    on_device = type(window) is _ndarray
    if on_device:
        if window.ndim != 1 or window.dtype not in _FLOATS or window.shape[0] > n:
            return None
        nperseg = window.shape[0] if nperseg is None else nperseg
        if type(nperseg) is not int or nperseg != window.shape[0]:
            return None
    else:
        nperseg = 256 if nperseg is None else nperseg
        if type(nperseg) is not int or not 1 <= nperseg <= n:
            return None
    if noverlap is not None and type(noverlap) is not int:
        return None
    if kind == "spectrogram" and noverlap is None:
        noverlap = nperseg // 8
    try:
        nfft, noverlap = segment_params(nperseg, nfft, noverlap, nperseg)
    except (ValueError, TypeError):
        return None
    if type(nfft) is not int or nfft not in (_fused.PAIRS_NFFT if kind == "welch" else _fused.STFT_REGS_NFFT):
        return None
    scale = 1.0
    win = None
    if not on_device:
        try:
            win = named_window(window, nperseg)
        except (ValueError, TypeError):
            return None
        if win.ndim != 1 or win.shape[0] != nperseg or numpy.iscomplexobj(win):
            return None
        win, scale = scaled_window(win, False, x, numpy.result_type(x.dtype, numpy.complex64), fs, scaling, "psd")
        scale = float(numpy.real(scale))
    return PsdPlan(kind, x, win, on_device, nperseg, noverlap, nfft, detrend in ("constant", "c"), fs, scale,
                   scaling == "density")
