"""scipy.signal's filter-order selection (`buttord`, `cheb1ord`, `cheb2ord`, `ellipord`,
`kaiserord`, `kaiser_beta`, `kaiser_atten`), `iirdesign`, `iircomb`, `gammatone`, `firls`,
`minimum_phase`, the analog prototypes (`buttap`, `cheb1ap`, `cheb2ap`, `ellipap`, `besselap`),
`band_stop_obj` and `lfiltic`: small host computations that SciPy does on the host, their arrays
returned on the device (_host_calls.py), or for those with SciPy's `xp`/`device` keywords in the
namespace they name (`_host_calls.to_namespace`). `BadCoefficients` is _host_calls.py's class.

(No `from __future__ import annotations` here: `minimum_phase`'s annotations are objects in SciPy's
signature, and inspect.signature compares them.)"""

from typing import Literal

from . import _host_calls as _h
from ._host_calls import BadCoefficients as BadCoefficients

__all__ = ["BadCoefficients", "buttord", "cheb1ord", "cheb2ord", "ellipord", "kaiserord", "kaiser_beta",
           "kaiser_atten", "iirdesign", "iircomb", "gammatone", "firls", "minimum_phase", "buttap",
           "cheb1ap", "cheb2ap", "ellipap", "besselap", "band_stop_obj", "lfiltic"]


def buttord(wp, ws, gpass, gstop, analog=False, fs=None):
    """See `scipy.signal.buttord`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.buttord(0.2, 0.3, 3, 40)
    (11, np.float64(0.2000403906692605))
    """
    return _h.call("buttord", wp, ws, gpass, gstop, analog, fs)


def cheb1ord(wp, ws, gpass, gstop, analog=False, fs=None):
    """See `scipy.signal.cheb1ord`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.cheb1ord(0.2, 0.3, 3, 40)
    (6, np.float64(0.2))
    """
    return _h.call("cheb1ord", wp, ws, gpass, gstop, analog, fs)


def cheb2ord(wp, ws, gpass, gstop, analog=False, fs=None):
    """See `scipy.signal.cheb2ord`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.cheb2ord(0.2, 0.3, 3, 40)
    (6, np.float64(0.2745644373777229))
    """
    return _h.call("cheb2ord", wp, ws, gpass, gstop, analog, fs)


def ellipord(wp, ws, gpass, gstop, analog=False, fs=None):
    """See `scipy.signal.ellipord`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.ellipord(0.2, 0.3, 3, 40)
    (4, np.float64(0.2))
    """
    return _h.call("ellipord", wp, ws, gpass, gstop, analog, fs)


def kaiserord(ripple, width):
    """See `scipy.signal.kaiserord`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.kaiserord(65, 0.1)
    (81, 6.20426)
    """
    return _h.call("kaiserord", ripple, width)


def kaiser_beta(a):
    """See `scipy.signal.kaiser_beta`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.kaiser_beta(65.)
    6.20426
    """
    return _h.call("kaiser_beta", a)


def kaiser_atten(numtaps, width):
    """See `scipy.signal.kaiser_atten`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.kaiser_atten(31, 0.1)
    29.485617640358036
    """
    return _h.call("kaiser_atten", numtaps, width)


def iirdesign(wp, ws, gpass, gstop, analog=False, ftype='ellip', output='ba', fs=None):
    """See `scipy.signal.iirdesign`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> b, a = signal.iirdesign(0.2, 0.3, 1, 20, ftype='butter')
    >>> len(a)
    8
    """
    return _h.call("iirdesign", wp, ws, gpass, gstop, analog, ftype, output, fs)


def iircomb(w0, Q, ftype='notch', fs=2.0, *, pass_zero=False, xp=None, device=None):
    """See `scipy.signal.iircomb`. `xp` None (or cuarray) returns cuarray arrays on
    `device` (None: the current device; else a `cuarray.cuda.Device`); another namespace (e.g.
    numpy) returns its arrays, as SciPy does.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> b, a = signal.iircomb(0.5, 30)
    >>> b
    array([ 0.95020202,  0.        ,  0.        ,  0.        , -0.95020202])
    """
    return _h.call_in(xp, device, "iircomb", w0, Q, ftype, fs, pass_zero=pass_zero)


def gammatone(freq, ftype, order=None, numtaps=None, fs=None, *, xp=None, device=None):
    """See `scipy.signal.gammatone`. `xp` None (or cuarray) returns cuarray arrays on
    `device` (None: the current device; else a `cuarray.cuda.Device`); another namespace (e.g.
    numpy) returns its arrays, as SciPy does.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> b, a = signal.gammatone(440, 'fir', numtaps=4, fs=16000)
    >>> a
    array([1.])
    """
    return _h.call_in(xp, device, "gammatone", freq, ftype, order, numtaps, fs)


def firls(numtaps, bands, desired, *, weight=None, fs=None):
    """See `scipy.signal.firls`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.firls(5, [0., 0.3, 0.5, 1.], [1., 1., 0., 0.])
    array([0.09417866, 0.28742774, 0.38304464, 0.28742774, 0.09417866])
    """
    return _h.call("firls", numtaps, bands, desired, weight=weight, fs=fs)


def minimum_phase(h, method: Literal['homomorphic', 'hilbert'] = 'homomorphic', n_fft: int | None = None, *,
                  half: bool = True):
    """See `scipy.signal.minimum_phase`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.minimum_phase(cuarray.array([0.25, 0.5, 1., 0.5, 0.25]))
    array([0.85000791, 0.43701602, 0.29411491])
    """
    return _h.call("minimum_phase", h, method, n_fft, half=half)


def buttap(N, *, xp=None, device=None):
    """See `scipy.signal.buttap`. `xp` None (or cuarray) returns cuarray arrays on
    `device` (None: the current device; else a `cuarray.cuda.Device`); another namespace (e.g.
    numpy) returns its arrays, as SciPy does.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> z, p, k = signal.buttap(2)
    >>> p
    array([-0.70710678+0.70710678j, -0.70710678-0.70710678j])
    """
    return _h.call_in(xp, device, "buttap", N)


def cheb1ap(N, rp, *, xp=None, device=None):
    """See `scipy.signal.cheb1ap`. `xp` None (or cuarray) returns cuarray arrays on
    `device` (None: the current device; else a `cuarray.cuda.Device`); another namespace (e.g.
    numpy) returns its arrays, as SciPy does.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> z, p, k = signal.cheb1ap(2, 1.)
    >>> p
    array([-0.54886716+0.89512857j, -0.54886716-0.89512857j])
    """
    return _h.call_in(xp, device, "cheb1ap", N, rp)


def cheb2ap(N, rs, *, xp=None, device=None):
    """See `scipy.signal.cheb2ap`. `xp` None (or cuarray) returns cuarray arrays on
    `device` (None: the current device; else a `cuarray.cuda.Device`); another namespace (e.g.
    numpy) returns its arrays, as SciPy does.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> z, p, k = signal.cheb2ap(2, 20.)
    >>> z
    array([-0.-1.41421356j,  0.+1.41421356j])
    """
    return _h.call_in(xp, device, "cheb2ap", N, rs)


def ellipap(N, rp, rs, *, xp=None, device=None):
    """See `scipy.signal.ellipap`. `xp` None (or cuarray) returns cuarray arrays on
    `device` (None: the current device; else a `cuarray.cuda.Device`); another namespace (e.g.
    numpy) returns its arrays, as SciPy does.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> z, p, k = signal.ellipap(2, 1., 20.)
    >>> p
    array([-0.5147821-0.94238221j, -0.5147821+0.94238221j])
    """
    return _h.call_in(xp, device, "ellipap", N, rp, rs)


def besselap(N, norm='phase', *, xp=None, device=None):
    """See `scipy.signal.besselap`. `xp` None (or cuarray) returns cuarray arrays on
    `device` (None: the current device; else a `cuarray.cuda.Device`); another namespace (e.g.
    numpy) returns its arrays, as SciPy does.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> z, p, k = signal.besselap(2)
    >>> p
    array([-0.8660254+0.5j, -0.8660254-0.5j])
    """
    return _h.call_in(xp, device, "besselap", N, norm)


def band_stop_obj(wp, ind, passb, stopb, gpass, gstop, type):
    """See `scipy.signal.band_stop_obj`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> passb, stopb = cuarray.array([0.3, 0.4]), cuarray.array([0.1, 0.6])
    >>> float(signal.band_stop_obj(0.3, 0, passb, stopb, 3, 40, 'butter'))
    -1.9214745145345644
    """
    return _h.call("band_stop_obj", wp, ind, passb, stopb, gpass, gstop, type)


def lfiltic(b, a, y, x=None):
    """See `scipy.signal.lfiltic`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.lfiltic([1.], [1., -0.5], [2.])
    array([1.])
    """
    return _h.call("lfiltic", b, a, y, x)
