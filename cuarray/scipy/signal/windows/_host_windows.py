"""The windows that need an eigenproblem or an FFT of their own (`chebwin`, `taylor`, `dpss`):
small host work by SciPy (the `cuarray[scipy]` extra), copied to the device."""

from __future__ import annotations

import numpy

from ...._core.transfer import from_host as _from_host

__all__ = ["chebwin", "taylor", "dpss"]


def _windows():
    import scipy.signal.windows  # host work: the optional SciPy, imported on first use

    return scipy.signal.windows


def _device(result):
    if isinstance(result, tuple):
        return tuple(_device(r) for r in result)
    return _from_host(numpy.asarray(result))


def chebwin(M, at, sym=True, *, xp=None, device=None):
    """See `scipy.signal.windows.chebwin`. Computed by SciPy on the host (an FFT of M points),
    returned on the device.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy.signal import windows
    >>> windows.chebwin(5, 50.)
    array([0.20549422, 0.70104634, 1.        , 0.70104634, 0.20549422])
    """
    return _device(_windows().chebwin(M, at, sym=sym))


def taylor(M, nbar=4, sll=30, norm=True, sym=True, *, xp=None, device=None):
    """See `scipy.signal.windows.taylor`. Computed by SciPy on the host, returned on the device.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy.signal import windows
    >>> windows.taylor(5)
    array([0.33249695, 0.77201458, 1.        , 0.77201458, 0.33249695])
    """
    return _device(_windows().taylor(M, nbar, sll, norm, sym))


def dpss(M, NW, Kmax=None, sym=True, norm=None, return_ratios=False, *, xp=None, device=None):
    """See `scipy.signal.windows.dpss`. A tridiagonal eigenproblem, solved by SciPy on the host;
    the tapers (and ratios) are returned on the device.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy.signal import windows
    >>> windows.dpss(5, 1.5)
    array([0.26080507, 0.7407981 , 1.        , 0.7407981 , 0.26080507])
    """
    return _device(_windows().dpss(M, NW, Kmax, sym, norm, return_ratios))
