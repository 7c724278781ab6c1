"""scipy.signal.windows' closed-form windows on the device: each is a few cuarray operations over
`arange`/`linspace` in float64 (SciPy's dtype), with SciPy's length guards, `sym=False` as one
extra sample dropped, and the one- and zero-point windows as ones. NumPy's own windows in
cuarray/_window (hamming, hanning, blackman, bartlett, kaiser) are the symmetric cases of five of
these and are reused here. `xp` and `device` are accepted for SciPy's signature: the result is a
cuarray array on the current device whatever they say (`xp` may be None or cuarray)."""

from __future__ import annotations

import math

import numpy

from ...._core.ndarray import ndarray
from ...._core.transfer import from_host as _from_host
from ...._creation.basic import ones as _ones
from ...._creation.ranges import arange as _arange
from ...._creation.ranges import linspace as _linspace
from ...._manipulation.joining import concatenate as _concatenate
from ...._math.explog import exp as _exp
from ...._math.misc import abs as _abs
from ...._math.misc import sinc as _sinc
from ...._math.misc import sqrt as _sqrt
from ...._math.sums_scan import cumsum as _cumsum
from ...._math.trigonometric import cos as _cos
from ...._math.trigonometric import sin as _sin
from ...._sorting.searching import where as _where
from ...._window import functions as _npwin

__all__ = ["general_cosine", "boxcar", "triang", "parzen", "bohman", "blackman", "nuttall", "blackmanharris",
           "flattop", "bartlett", "hann", "tukey", "barthann", "general_hamming", "hamming", "kaiser",
           "kaiser_bessel_derived", "gaussian", "general_gaussian", "cosine", "exponential", "lanczos"]

_F8 = numpy.float64


def _len_guards(M):
    """True for the windows of 0 or 1 points (all ones); SciPy's check of M."""
    if int(M) != M or M < 0:
        raise ValueError("Window length M must be a non-negative integer")
    return M <= 1


def _extend(M, sym):
    """A periodic (sym=False) window is the symmetric one of M + 1 points less its last."""
    return (int(M), False) if sym else (int(M) + 1, True)


def _truncate(w, needed):
    return w[:-1] if needed else w


def _n(M):
    return _arange(0, M, dtype=_F8)


def _general_cosine(M, a, sym):
    if _len_guards(M):
        return _ones(int(M), dtype=_F8)
    M, trunc = _extend(M, sym)
    fac = _linspace(-numpy.pi, numpy.pi, M, dtype=_F8)
    w = None
    for k, ak in enumerate(a):
        term = ak * _cos(k * fac) if k else _ones(M, dtype=_F8) * ak
        w = term if w is None else w + term
    return _truncate(w, trunc)


def general_cosine(M, a, sym=True):
    """See `scipy.signal.windows.general_cosine`. `a` is a short host sequence of weights.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy.signal import windows
    >>> windows.general_cosine(5, [0.5, 0.5])[1:4]
    array([0.5, 1. , 0.5])
    """
    if isinstance(a, ndarray):
        a = a.get()
    return _general_cosine(M, [float(v) for v in numpy.asarray(a, dtype=_F8).ravel()], sym)


def boxcar(M, sym=True, *, xp=None, device=None):
    """See `scipy.signal.windows.boxcar`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy.signal import windows
    >>> windows.boxcar(3)
    array([1., 1., 1.])
    """
    _len_guards(M)
    return _ones(int(M), dtype=_F8)


def triang(M, sym=True, *, xp=None, device=None):
    """See `scipy.signal.windows.triang`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy.signal import windows
    >>> windows.triang(4)
    array([0.25, 0.75, 0.75, 0.25])
    """
    if _len_guards(M):
        return _ones(int(M), dtype=_F8)
    M, trunc = _extend(M, sym)
    n = _n(M)
    # |M - 1 - 2n| folds both halves onto one formula; SciPy builds the halves with the same values
    d = _abs(M - 1 - 2 * n)
    w = (M - d) / M if M % 2 == 0 else (M + 1 - d) / (M + 1)
    return _truncate(w, trunc)


def parzen(M, sym=True, *, xp=None, device=None):
    """See `scipy.signal.windows.parzen`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy.signal import windows
    >>> windows.parzen(5)
    array([0.016, 0.424, 1.   , 0.424, 0.016])
    """
    if _len_guards(M):
        return _ones(int(M), dtype=_F8)
    M, trunc = _extend(M, sym)
    absn = _abs(_arange(-(M - 1) / 2.0, (M - 1) / 2.0 + 0.5, 1.0, dtype=_F8))
    a = absn / (M / 2.0)
    w = _where(absn <= (M - 1) / 4.0, 1 - 6 * a ** 2.0 + 6 * a ** 3.0, 2 * (1 - a) ** 3.0)
    return _truncate(w, trunc)


def bohman(M, sym=True, *, xp=None, device=None):
    """See `scipy.signal.windows.bohman`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy.signal import windows
    >>> windows.bohman(5)[1:4]
    array([0.31830989, 1.        , 0.31830989])
    """
    if _len_guards(M):
        return _ones(int(M), dtype=_F8)
    M, trunc = _extend(M, sym)
    fac = _abs(_linspace(-1, 1, M, dtype=_F8))
    w = (1 - fac) * _cos(numpy.pi * fac) + 1.0 / numpy.pi * _sin(numpy.pi * fac)
    w = _where(fac == 1.0, 0.0, w)  # SciPy's exact zeros at the two ends
    return _truncate(w, trunc)


def blackman(M, sym=True, *, xp=None, device=None):
    """See `scipy.signal.windows.blackman`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy.signal import windows
    >>> windows.blackman(5)[1:4]
    array([0.34, 1.  , 0.34])
    """
    return _general_cosine(M, [0.42, 0.50, 0.08], sym)


def nuttall(M, sym=True, *, xp=None, device=None):
    """See `scipy.signal.windows.nuttall`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy.signal import windows
    >>> windows.nuttall(5)[1:4]
    array([0.2269824, 1.       , 0.2269824])
    """
    return _general_cosine(M, [0.3635819, 0.4891775, 0.1365995, 0.0106411], sym)


def blackmanharris(M, sym=True, *, xp=None, device=None):
    """See `scipy.signal.windows.blackmanharris`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy.signal import windows
    >>> windows.blackmanharris(5)[1:4]
    array([0.21747, 1.     , 0.21747])
    """
    return _general_cosine(M, [0.35875, 0.48829, 0.14128, 0.01168], sym)


def flattop(M, sym=True, *, xp=None, device=None):
    """See `scipy.signal.windows.flattop`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy.signal import windows
    >>> windows.flattop(5)[1:4]
    array([-0.05473684,  1.        , -0.05473684])
    """
    return _general_cosine(M, [0.21557895, 0.41663158, 0.277263158, 0.083578947, 0.006947368], sym)


def bartlett(M, sym=True, *, xp=None, device=None):
    """See `scipy.signal.windows.bartlett`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy.signal import windows
    >>> windows.bartlett(5)
    array([0. , 0.5, 1. , 0.5, 0. ])
    """
    if _len_guards(M):
        return _ones(int(M), dtype=_F8)
    M, trunc = _extend(M, sym)
    n = _n(M)
    w = _where(n <= (M - 1) / 2.0, 2.0 * n / (M - 1), 2.0 - 2.0 * n / (M - 1))
    return _truncate(w, trunc)


def hann(M, sym=True, *, xp=None, device=None):
    """See `scipy.signal.windows.hann`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy.signal import windows
    >>> windows.hann(5)[1:4]
    array([0.5, 1. , 0.5])
    """
    return _general_cosine(M, [0.5, 0.5], sym)


def general_hamming(M, alpha, sym=True, *, xp=None, device=None):
    """See `scipy.signal.windows.general_hamming`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy.signal import windows
    >>> windows.general_hamming(5, 0.6)
    array([0.2, 0.6, 1. , 0.6, 0.2])
    """
    return _general_cosine(M, [alpha, 1.0 - alpha], sym)


def hamming(M, sym=True, *, xp=None, device=None):
    """See `scipy.signal.windows.hamming`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy.signal import windows
    >>> windows.hamming(5)
    array([0.08, 0.54, 1.  , 0.54, 0.08])
    """
    return _general_cosine(M, [0.54, 0.46], sym)


def tukey(M, alpha=0.5, sym=True, *, xp=None, device=None):
    """See `scipy.signal.windows.tukey`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy.signal import windows
    >>> windows.tukey(5)[1:4]
    array([1., 1., 1.])
    """
    if _len_guards(M):
        return _ones(int(M), dtype=_F8)
    if alpha <= 0:
        return _ones(int(M), dtype=_F8)
    if alpha >= 1.0:
        return hann(M, sym=sym)
    M, trunc = _extend(M, sym)
    n = _n(M)
    width = int(math.floor(alpha * (M - 1) / 2.0))
    rise = 0.5 * (1 + _cos(numpy.pi * (-1 + 2.0 * n / alpha / (M - 1))))
    fall = 0.5 * (1 + _cos(numpy.pi * (-2.0 / alpha + 1 + 2.0 * n / alpha / (M - 1))))
    w = _where(n <= width, rise, _where(n >= M - width - 1, fall, 1.0))
    return _truncate(w, trunc)


def barthann(M, sym=True, *, xp=None, device=None):
    """See `scipy.signal.windows.barthann`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy.signal import windows
    >>> windows.barthann(5)[1:4]
    array([0.5, 1. , 0.5])
    """
    if _len_guards(M):
        return _ones(int(M), dtype=_F8)
    M, trunc = _extend(M, sym)
    fac = _abs(_n(M) / (M - 1.0) - 0.5)
    w = 0.62 - 0.48 * fac + 0.38 * _cos(2 * numpy.pi * fac)
    return _truncate(w, trunc)


def kaiser(M, beta, sym=True, *, xp=None, device=None):
    """See `scipy.signal.windows.kaiser`. The Bessel function is CUDA's `cyl_bessel_i0` (cuarray.i0),
    which may differ from SciPy's Cephes i0 in the last bits.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy.signal import windows
    >>> windows.kaiser(5, 14.)[1:4]
    array([0.16493219, 1.        , 0.16493219])
    """
    if _len_guards(M):
        return _ones(int(M), dtype=_F8)
    M, trunc = _extend(M, sym)
    return _truncate(_npwin.kaiser(M, beta), trunc)


def kaiser_bessel_derived(M, beta, *, sym=True, xp=None, device=None):
    """See `scipy.signal.windows.kaiser_bessel_derived`. The running sum is cuarray.cumsum.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy.signal import windows
    >>> windows.kaiser_bessel_derived(4, 3.)
    array([0.38122447, 0.92448251, 0.92448251, 0.38122447])
    """
    if not sym:
        raise ValueError("Kaiser-Bessel Derived windows are only defined for symmetric shapes")
    if M < 1:
        return _from_host(numpy.array([]))
    if M % 2:
        raise ValueError("Kaiser-Bessel Derived windows are only defined for even number of points")
    csum = _cumsum(kaiser(M // 2 + 1, beta))
    half = _sqrt(csum[:-1] / csum[-1])
    return _concatenate((half, half[::-1]))


def gaussian(M, std, sym=True, *, xp=None, device=None):
    """See `scipy.signal.windows.gaussian`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy.signal import windows
    >>> windows.gaussian(5, 1.)
    array([0.13533528, 0.60653066, 1.        , 0.60653066, 0.13533528])
    """
    if _len_guards(M):
        return _ones(int(M), dtype=_F8)
    M, trunc = _extend(M, sym)
    n = _n(M) - (M - 1.0) / 2.0
    return _truncate(_exp(-n ** 2 / (2 * std * std)), trunc)


def general_gaussian(M, p, sig, sym=True, *, xp=None, device=None):
    """See `scipy.signal.windows.general_gaussian`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy.signal import windows
    >>> windows.general_gaussian(5, 1.5, 1.)
    array([0.01831564, 0.60653066, 1.        , 0.60653066, 0.01831564])
    """
    if _len_guards(M):
        return _ones(int(M), dtype=_F8)
    M, trunc = _extend(M, sym)
    n = _n(M) - (M - 1.0) / 2.0
    return _truncate(_exp(-0.5 * _abs(n / sig) ** (2 * p)), trunc)


def cosine(M, sym=True, *, xp=None, device=None):
    """See `scipy.signal.windows.cosine`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy.signal import windows
    >>> windows.cosine(4)
    array([0.38268343, 0.92387953, 0.92387953, 0.38268343])
    """
    if _len_guards(M):
        return _ones(int(M), dtype=_F8)
    M, trunc = _extend(M, sym)
    return _truncate(_sin(numpy.pi / M * (_n(M) + 0.5)), trunc)


def exponential(M, center=None, tau=1.0, sym=True, *, xp=None, device=None):
    """See `scipy.signal.windows.exponential`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy.signal import windows
    >>> windows.exponential(5)
    array([0.13533528, 0.36787944, 1.        , 0.36787944, 0.13533528])
    """
    if sym and center is not None:
        raise ValueError("If sym==True, center must be None.")
    if _len_guards(M):
        return _ones(int(M), dtype=_F8)
    M, trunc = _extend(M, sym)
    if center is None:
        center = (M - 1) / 2
    return _truncate(_exp(-_abs(_n(M) - center) / tau), trunc)


def lanczos(M, *, sym=True, xp=None, device=None):
    """See `scipy.signal.windows.lanczos`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy.signal import windows
    >>> windows.lanczos(5)[1:4]
    array([0.63661977, 1.        , 0.63661977])
    """
    if _len_guards(M):
        return _ones(int(M), dtype=_F8)
    M, trunc = _extend(M, sym)
    # sinc(2 n / (M - 1) - 1), mirrored from its right half as SciPy builds it (exact symmetry)
    half = (M + 1) // 2
    right = _sinc(2.0 * _arange(M // 2 if M % 2 == 0 else half, M, dtype=_F8) / (M - 1) - 1.0)
    if M % 2 == 0:
        w = _concatenate((right[::-1], right))
    else:
        w = _concatenate((right[::-1], _ones(1, dtype=_F8), right))
    return _truncate(w, trunc)
