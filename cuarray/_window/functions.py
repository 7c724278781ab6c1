"""Window functions (NumPy "Window functions": bartlett, blackman, hamming, hanning, kaiser).

NumPy's closed forms over `arange` on the device; `M` (and `beta`) are host numbers, read as
float64 as NumPy reads them, so every window is float64. `kaiser` uses `i0` (CUDA's
`cyl_bessel_i0`), so it may differ from NumPy's Chebyshev-series `i0` in the last bits.
"""

from __future__ import annotations

import numpy

from .._core.ndarray import ndarray
from .._creation.basic import empty, ones
from .._creation.ranges import arange
from .._math.misc import i0, sqrt
from .._math.trigonometric import cos
from .._sorting.searching import where

__all__ = ["bartlett", "blackman", "hamming", "hanning", "kaiser"]


def _m(M) -> numpy.float64:
    if isinstance(M, ndarray):
        M = M.get()[()]
    return numpy.array([0.0, M])[1]


def _trivial(M):
    """The empty and one-point windows; None when M > 1."""
    if M < 1:
        return empty((0,), dtype=numpy.result_type(M))
    if M == 1:
        return ones((1,), dtype=numpy.result_type(M))
    return None


def _n(M) -> ndarray:
    return arange(1 - M, M, 2)


def hanning(M) -> ndarray:
    """See `numpy.hanning`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.hanning(5)[1:4]
    array([0.5, 1. , 0.5])
    """
    M = _m(M)
    t = _trivial(M)
    if t is not None:
        return t
    return 0.5 + 0.5 * cos(numpy.pi * _n(M) / (M - 1))


def hamming(M) -> ndarray:
    """See `numpy.hamming`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.hamming(5)
    array([0.08, 0.54, 1.  , 0.54, 0.08])
    """
    M = _m(M)
    t = _trivial(M)
    if t is not None:
        return t
    return 0.54 + 0.46 * cos(numpy.pi * _n(M) / (M - 1))


def blackman(M) -> ndarray:
    """See `numpy.blackman`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.blackman(5)[1:4]
    array([0.34, 1.  , 0.34])
    """
    M = _m(M)
    t = _trivial(M)
    if t is not None:
        return t
    n = _n(M)
    return 0.42 + 0.5 * cos(numpy.pi * n / (M - 1)) + 0.08 * cos(2.0 * numpy.pi * n / (M - 1))


def bartlett(M) -> ndarray:
    """See `numpy.bartlett`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.bartlett(5)
    array([0. , 0.5, 1. , 0.5, 0. ])
    """
    M = _m(M)
    t = _trivial(M)
    if t is not None:
        return t
    n = _n(M)
    return where(n <= 0, 1 + n / (M - 1), 1 - n / (M - 1))


def kaiser(M, beta) -> ndarray:
    """See `numpy.kaiser`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.kaiser(5, 14.)[1:4]
    array([0.16493219, 1.        , 0.16493219])
    """
    values = numpy.array([0.0, M, beta])
    M, beta = values[1], values[2]
    if M == 1:
        return ones((1,), dtype=values.dtype)
    n = arange(0, M)
    alpha = (M - 1) / 2.0
    return i0(beta * sqrt(1 - ((n - alpha) / alpha) ** 2.0)) / numpy.float64(numpy.i0(beta))
