"""scipy.signal's filter-order selection (`buttord`, `cheb1ord`, `cheb2ord`, `ellipord`,
`kaiserord`, `kaiser_beta`, `kaiser_atten`), `iirdesign`, `iircomb`, `gammatone`, `firls`,
`minimum_phase`, the analog prototypes (`buttap`, `cheb1ap`, `cheb2ap`, `ellipap`), `band_stop_obj`
and `lfiltic`: small host computations that SciPy does on the host, their arrays returned on the
device (_host_calls.py). `BadCoefficients` is _host_calls.py's class.

(No `from __future__ import annotations` here: `minimum_phase`'s annotations are objects in SciPy's
signature, and inspect.signature compares them.)"""

from typing import Literal

from . import _host_calls as _h
from ._host_calls import BadCoefficients as BadCoefficients

__all__ = ["BadCoefficients", "buttord", "cheb1ord", "cheb2ord", "ellipord", "kaiserord", "kaiser_beta",
           "kaiser_atten", "iirdesign", "iircomb", "gammatone", "firls", "minimum_phase", "buttap",
           "cheb1ap", "cheb2ap", "ellipap", "band_stop_obj", "lfiltic"]


def buttord(wp, ws, gpass, gstop, analog=False, fs=None):
    """See `scipy.signal.buttord`."""
    return _h.call("buttord", wp, ws, gpass, gstop, analog, fs)


def cheb1ord(wp, ws, gpass, gstop, analog=False, fs=None):
    """See `scipy.signal.cheb1ord`."""
    return _h.call("cheb1ord", wp, ws, gpass, gstop, analog, fs)


def cheb2ord(wp, ws, gpass, gstop, analog=False, fs=None):
    """See `scipy.signal.cheb2ord`."""
    return _h.call("cheb2ord", wp, ws, gpass, gstop, analog, fs)


def ellipord(wp, ws, gpass, gstop, analog=False, fs=None):
    """See `scipy.signal.ellipord`."""
    return _h.call("ellipord", wp, ws, gpass, gstop, analog, fs)


def kaiserord(ripple, width):
    """See `scipy.signal.kaiserord`."""
    return _h.call("kaiserord", ripple, width)


def kaiser_beta(a):
    """See `scipy.signal.kaiser_beta`."""
    return _h.call("kaiser_beta", a)


def kaiser_atten(numtaps, width):
    """See `scipy.signal.kaiser_atten`."""
    return _h.call("kaiser_atten", numtaps, width)


def iirdesign(wp, ws, gpass, gstop, analog=False, ftype='ellip', output='ba', fs=None):
    """See `scipy.signal.iirdesign`."""
    return _h.call("iirdesign", wp, ws, gpass, gstop, analog, ftype, output, fs)


def iircomb(w0, Q, ftype='notch', fs=2.0, *, pass_zero=False, xp=None, device=None):
    """See `scipy.signal.iircomb`. `xp` and `device` are accepted and ignored: the result is
    always a cuarray array on the current device."""
    return _h.call("iircomb", w0, Q, ftype, fs, pass_zero=pass_zero)


def gammatone(freq, ftype, order=None, numtaps=None, fs=None, *, xp=None, device=None):
    """See `scipy.signal.gammatone`. `xp` and `device` are accepted and ignored: the result is
    always a cuarray array on the current device."""
    return _h.call("gammatone", freq, ftype, order, numtaps, fs)


def firls(numtaps, bands, desired, *, weight=None, fs=None):
    """See `scipy.signal.firls`."""
    return _h.call("firls", numtaps, bands, desired, weight=weight, fs=fs)


def minimum_phase(h, method: Literal['homomorphic', 'hilbert'] = 'homomorphic', n_fft: int | None = None, *,
                  half: bool = True):
    """See `scipy.signal.minimum_phase`."""
    return _h.call("minimum_phase", h, method, n_fft, half=half)


def buttap(N, *, xp=None, device=None):
    """See `scipy.signal.buttap`. `xp` and `device` are accepted and ignored: the result is
    always a cuarray array on the current device."""
    return _h.call("buttap", N)


def cheb1ap(N, rp, *, xp=None, device=None):
    """See `scipy.signal.cheb1ap`. `xp` and `device` are accepted and ignored: the result is
    always a cuarray array on the current device."""
    return _h.call("cheb1ap", N, rp)


def cheb2ap(N, rs, *, xp=None, device=None):
    """See `scipy.signal.cheb2ap`. `xp` and `device` are accepted and ignored: the result is
    always a cuarray array on the current device."""
    return _h.call("cheb2ap", N, rs)


def ellipap(N, rp, rs, *, xp=None, device=None):
    """See `scipy.signal.ellipap`. `xp` and `device` are accepted and ignored: the result is
    always a cuarray array on the current device."""
    return _h.call("ellipap", N, rp, rs)


def band_stop_obj(wp, ind, passb, stopb, gpass, gstop, type):
    """See `scipy.signal.band_stop_obj`."""
    return _h.call("band_stop_obj", wp, ind, passb, stopb, gpass, gstop, type)


def lfiltic(b, a, y, x=None):
    """See `scipy.signal.lfiltic`."""
    return _h.call("lfiltic", b, a, y, x)
