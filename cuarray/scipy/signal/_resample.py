"""scipy.signal's `resample` (Fourier method, cuarray.fft) and `deconvolve` (lfilter and a
convolution, as SciPy computes it)."""

from __future__ import annotations

import numpy

import cuarray.fft as _fft  # (the subsystem, by its full name: layers checked in tests/test_layers.py)
from ..._core.ndarray import ndarray
from ..._core.transfer import from_host as _from_host
from ..._manipulation.transpose import moveaxis as _moveaxis
from ..ndimage import _support as _s
from . import _args
from . import _convolve
from . import _lfilter

__all__ = ["resample", "deconvolve"]


def _window_vector(window, n_x):
    if window is None:
        return None
    if callable(window):
        return numpy.asarray(window(numpy.fft.fftfreq(n_x)), dtype=numpy.float64)
    if hasattr(window, "shape"):
        w = _args.host_param(window)
        if w.shape != (n_x,):
            raise ValueError("window.shape={!r} != ({},), i.e., window length is not equal to number of frequency "
                             "bins!".format(w.shape, n_x))
        return w.copy()
    from scipy.signal import get_window  # host-side window design (optional dependency)

    return numpy.fft.fftshift(get_window(window, n_x)).astype(numpy.float64)


def resample(x, num, t=None, axis=0, window=None, domain="time"):
    """See `scipy.signal.resample`. `t`, when given, is a host or cuarray array; the times are
    returned as the same kind.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.resample(cuarray.array([1., 2., 5., 3.]), 8)
    array([1.        , 0.98223305, 2.        , 3.81066017, 5.        ,
           4.51776695, 3.        , 1.68933983])
    """
    if domain not in ("time", "freq"):
        raise ValueError("Parameter domain={!r} not in ('time', 'freq')!".format(domain))
    x = _args.data(x, "resample")
    if x.ndim > 1:
        x = _moveaxis(x, axis, -1)
    n_x = x.shape[-1]
    s_fac = n_x / num
    m = min(num, n_x)
    m2 = m // 2 + 1
    w = _window_vector(window, n_x)
    dev = _s.is_array(x)
    if domain == "time" and x.dtype.kind != "c":
        big = _fft.rfft(x)
        if w is not None:
            n_big = big.shape[-1]
            w[1:n_big] += w[-n_big + 1:][::-1]
            w[1:n_big] /= 2
            big = big * (_from_host(w[:n_big]) if dev else w[:n_big])
        big = big[..., :m2].copy()
        if m % 2 == 0 and num != n_x:
            big[..., m // 2] *= 2 if num < n_x else 0.5
        x_r = _fft.irfft(big / s_fac, n=num)
    else:
        big = _fft.fft(x) if domain == "time" else x
        if w is not None:
            big = big * (_from_host(w) if dev else w)
        y = ndarray(big.shape[:-1] + (num,), big.dtype)
        y[...] = 0
        y[..., :m2] = big[..., :m2]
        if m2 < m:
            y[..., m2 - m:] = big[..., m2 - m:]
        if m % 2 == 0:
            if num < n_x:
                y[..., -m // 2] += big[..., -m // 2]
            elif n_x < num:
                y[..., m // 2] /= 2
                y[..., num - m // 2] = y[..., m // 2]
        x_r = _fft.ifft(y / s_fac, n=num)
    if x_r.ndim > 1:
        x_r = _moveaxis(x_r, -1, axis)
    if t is not None:
        th = _args.host_param(t)
        times = th[0] + (th[1] - th[0]) * s_fac * numpy.arange(num)
        return x_r, (_from_host(times) if _s.is_array(t) else times)
    return x_r


def deconvolve(signal, divisor):
    """See `scipy.signal.deconvolve`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> quotient, remainder = signal.deconvolve(cuarray.array([1., 3., 5.5, 4., 1.5]), cuarray.array([1., 1., 0.5]))
    >>> quotient
    array([1., 2., 3.])
    """
    num = _args.data(signal, "deconvolve")
    den = _args.data(divisor, "deconvolve")
    num = num.reshape((1,)) if num.ndim == 0 else num
    den = den.reshape((1,)) if den.ndim == 0 else den
    if not (num.ndim == 1 and num.size > 0):
        raise ValueError("Parameter signal must be non-empty 1d array, but its shape is {}!".format(num.shape))
    if not (den.ndim == 1 and den.size > 0):
        raise ValueError("Parameter divisor must be non-empty 1d array, but its shape is {}!".format(den.shape))
    n, d = num.shape[0], den.shape[0]
    if d > n:
        return [], num
    impulse = numpy.zeros(n - d + 1)
    impulse[0] = 1
    quot = _lfilter.lfilter(num, den, _from_host(impulse) if _s.is_array(num) else impulse)
    rem = num - _convolve.convolve(den, quot, mode="full")
    return quot, rem
