"""The host-input rule of cuarray.scipy (docs/scipy.md, "Host inputs") over every function of
cuarray.scipy.signal, without a device: the copy to the device (`host_input.from_host`) is replaced
by a recorder that stops the call, so a test sees what reached it. A Python list as the data is
copied (what cupyx takes: ``czt([0, 1])``, ``peak_prominences([1, 0, 2], [1])``); a NumPy array as the
data raises TypeError before anything is copied; a NumPy array as a parameter (peaks, a state, a
frequency grid, filter taps) is copied. The values are the GPU tests' (test_signal_host_inputs_gpu.py)."""

import numpy as np
import pytest

from cuarray._core.ndarray import ndarray
from cuarray.scipy import signal as s
from cuarray.scipy.signal import _args
from cuarray.testing.fake_device import from_np, to_np

D = [1.0, 3.0, 2.0, 5.0, 4.0, 0.5, 2.5, 1.5, 3.5, 0.25, 2.0, 1.0]
D2 = [[1.0, 2.0, 3.0, 0.5], [4.0, 5.0, 6.0, 1.5], [7.0, 8.0, 9.0, 2.5], [0.5, 1.0, 2.0, 3.0]]
SOS = [[1.0, 0.0, 0.0, 1.0, -0.5, 0.0]]

# name: (call of the data, the data); the data is the first thing copied to the device
CALLS = {
    "convolve": (lambda d: s.convolve(d, [1.0, 0.5]), D),
    "correlate": (lambda d: s.correlate(d, [1.0, 0.5]), D),
    "fftconvolve": (lambda d: s.fftconvolve(d, [1.0, 0.5]), D),
    "oaconvolve": (lambda d: s.oaconvolve(d, [1.0, 0.5]), D),
    "choose_conv_method": (lambda d: s.choose_conv_method(d, [1.0, 0.5]), D),
    "convolve2d": (lambda d: s.convolve2d(d, [[1.0, 0.5]]), D2),
    "correlate2d": (lambda d: s.correlate2d(d, [[1.0, 0.5]]), D2),
    "medfilt": (lambda d: s.medfilt(d, 3), D),
    "medfilt2d": (lambda d: s.medfilt2d(d), D2),
    "wiener": (lambda d: s.wiener(d), D),
    "hilbert": (lambda d: s.hilbert(d), D),
    "hilbert2": (lambda d: s.hilbert2(d), D2),
    "detrend": (lambda d: s.detrend(d, bp=[4]), D),
    "lfilter": (lambda d: s.lfilter([1.0], [1.0, -0.5], d), D),
    "filtfilt": (lambda d: s.filtfilt([1.0], [1.0, -0.5], d), D),
    "sosfilt": (lambda d: s.sosfilt(SOS, d), D),
    "sosfiltfilt": (lambda d: s.sosfiltfilt(SOS, d), D),
    "lombscargle": (lambda d: s.lombscargle(d, d, [0.5, 1.0]), D),
    "periodogram": (lambda d: s.periodogram(d), D),
    "welch": (lambda d: s.welch(d, nperseg=4), D),
    "csd": (lambda d: s.csd(d, d, nperseg=4), D),
    "coherence": (lambda d: s.coherence(d, d, nperseg=4), D),
    "spectrogram": (lambda d: s.spectrogram(d, nperseg=4), D),
    "stft": (lambda d: s.stft(d, nperseg=4), D),
    "istft": (lambda d: s.istft(d, nperseg=4), D2),
    "argrelmax": (lambda d: s.argrelmax(d), D),
    "argrelmin": (lambda d: s.argrelmin(d), D),
    "argrelextrema": (lambda d: s.argrelextrema(d, np.less), D),
    "savgol_filter": (lambda d: s.savgol_filter(d, 5, 2), D),
    "resample": (lambda d: s.resample(d, 6), D),
    "resample_poly": (lambda d: s.resample_poly(d, 2, 1), D),
    "upfirdn": (lambda d: s.upfirdn([1.0, 0.5], d, 2), D),
    "decimate": (lambda d: s.decimate(d, 2, ftype="fir"), D),
    "find_peaks": (lambda d: s.find_peaks(d), D),
    "peak_prominences": (lambda d: s.peak_prominences(d, [1, 3]), D),
    "peak_widths": (lambda d: s.peak_widths(d, [1, 3]), D),
    "find_peaks_cwt": (lambda d: s.find_peaks_cwt(d, [1, 2]), D),
    "whittaker_henderson": (lambda d: s.whittaker_henderson(d, lamb=1.0), D),
    "czt": (lambda d: s.czt(d, m=10, a=2), D),
    "zoom_fft": (lambda d: s.zoom_fft(d, [0, 1]), D),
    "cspline1d": (lambda d: s.cspline1d(d), D),
    "cspline1d_eval": (lambda d: s.cspline1d_eval(D, d), [0.5, 1.5]),
    "qspline1d": (lambda d: s.qspline1d(d), D),
    "qspline1d_eval": (lambda d: s.qspline1d_eval(D, d), [0.5, 1.5]),
    "cspline2d": (lambda d: s.cspline2d(d), D2),
    "qspline2d": (lambda d: s.qspline2d(d), D2),
    "sepfir2d": (lambda d: s.sepfir2d(d, [1.0], [1.0, 2.0, 1.0]), D2),
    "spline_filter": (lambda d: s.spline_filter(d), D2),
    "gauss_spline": (lambda d: s.gauss_spline(d, 3), D),
    "symiirorder1": (lambda d: s.symiirorder1(d, 0.5, 0.1), D),
    "symiirorder2": (lambda d: s.symiirorder2(d, 0.5, 0.3), D),
    "vectorstrength": (lambda d: s.vectorstrength(d, 1.0), D),
    "sawtooth": (lambda d: s.sawtooth(d), D),
    "square": (lambda d: s.square(d), D),
    "gausspulse": (lambda d: s.gausspulse(d), D),
    "chirp": (lambda d: s.chirp(d, 1.0, 1.0, 2.0), D),
    "sweep_poly": (lambda d: s.sweep_poly(d, [1.0, 2.0]), D),
    "cwt": (lambda d: s.cwt(d, s.ricker, [1.0, 2.0]), D),
    "envelope": (lambda d: s.envelope(d), D),
    "order_filter": (lambda d: s.order_filter(d, [[1, 1, 1]], 1), D2),
    "deconvolve": (lambda d: s.deconvolve(d, [1.0, 0.5]), D),
}


class Copied(Exception):
    """The copy to the device a call made first (`uploads`)."""

    def __init__(self, host):
        super().__init__("copied {!r}".format(host))
        self.host = host


@pytest.fixture
def uploads(monkeypatch):
    """host_input's copy to the device stops the call with `Copied` (nothing reaches a device)."""
    from cuarray._core import host_input

    def copy(h):  # (h is the host data the call made: a NumPy array or a scalar)
        raise Copied(h)

    monkeypatch.setattr(host_input, "from_host", copy)


def test_every_public_function_with_data_is_listed():
    """Every public function of cuarray.scipy.signal that takes a signal is in CALLS (or is one
    whose inputs are all parameters, systems or sizes)."""
    import inspect

    data_names = {"x", "in1", "volume", "input", "im", "data", "signal", "t", "events", "vector", "newx", "Iin",
                  "z", "a", "Zxx"}
    params_only = {"lfilter_zi", "sosfilt_zi", "lfiltic", "qmf", "savgol_coeffs", "firwin", "firwin2", "firwin_2d",
                   "unit_impulse", "max_len_seq", "get_window", "czt_points", "correlation_lags", "check_COLA",
                   "check_NOLA", "morlet", "morlet2", "ricker", "remez", "firls", "minimum_phase", "gammatone",
                   "iircomb", "iirnotch", "iirpeak", "kaiser_atten", "kaiser_beta", "kaiserord", "unique_roots",
                   "band_stop_obj", "closest_STFT_dual_window"}
    missing = []
    for name in dir(s):
        fn = getattr(s, name)
        if name.startswith("_") or not inspect.isfunction(fn) or name in CALLS or name in params_only:
            continue
        first = next(iter(inspect.signature(fn).parameters), None)
        if first in data_names and fn.__module__.rsplit(".", 1)[-1] not in ("_conversions", "_design",
                                                                             "_design_orders", "_freqresponse",
                                                                             "_lsim"):
            missing.append(name)
    assert not missing, missing


@pytest.mark.parametrize("name", sorted(CALLS))
def test_python_list_data_is_copied(uploads, name):
    call, data = CALLS[name]
    with pytest.raises(Copied) as copied:
        call(data)
    np.testing.assert_array_equal(copied.value.host, np.asarray(data))


@pytest.mark.parametrize("name", sorted(CALLS))
def test_numpy_data_is_refused_before_any_copy(uploads, name):
    call, data = CALLS[name]
    with pytest.raises(TypeError, match="cuarray.asarray"):
        call(np.asarray(data))


PARAMS = {  # name: (call with a device signal x and the NumPy parameter p, p)
    "lfilter zi": (lambda x, p: s.lfilter([1.0], [1.0, -0.5], x, zi=p), np.array([0.25])),
    "sosfilt zi": (lambda x, p: s.sosfilt(SOS, x, zi=p), np.array([[0.25, 0.0]])),
    "peak_prominences peaks": (lambda x, p: s.peak_prominences(x, p), np.array([1, 3])),
    "peak_widths peaks": (lambda x, p: s.peak_widths(x, p), np.array([1, 3])),
    "lombscargle freqs": (lambda x, p: s.lombscargle(x, x, p), np.array([0.5, 1.0])),
    "qmf taps": (lambda x, p: s.qmf(p), np.array([1.0, 2.0])),
}


@pytest.mark.parametrize("name", sorted(PARAMS))
def test_numpy_parameters_are_copied(uploads, name):
    call, p = PARAMS[name]
    with pytest.raises(Copied) as copied:
        call(from_np(np.asarray(D)), p)
    np.testing.assert_array_equal(copied.value.host, p)


class _HostRead(ndarray):
    """A cuarray array over host memory (`fake_device.from_np`) whose `get` reads it back without a
    device (an instance's class, not a patch of ndarray's)."""

    __slots__ = ()

    def get(self, stream=None):
        return to_np(self).copy()


def _readable(a):
    x = from_np(a)
    x.__class__ = _HostRead
    return x


def test_host_parameters_come_down():
    """Device scalars and arrays given as host parameters (a list of a frequency range's ends, a
    pole) come down as NumPy values of their dtype: no implicit conversion."""
    lo, hi = _readable(np.array(0.25)), _readable(np.array(0.75, np.float32))
    got = _args.host_param([lo, hi])
    np.testing.assert_array_equal(got, [0.25, 0.75])
    got = _args.host_param([[lo], [2.0]])
    assert got.shape == (2, 1)
    v = _args.host_scalar(hi)
    assert type(v) is np.float32 and v == np.float32(0.75)
    np.testing.assert_array_equal(_args.host_scalar(_readable(np.arange(3.0))), [0.0, 1.0, 2.0])
    assert _args.host_scalar(0.5) == 0.5 and _args.host_param([1, 2]).dtype == np.int64
