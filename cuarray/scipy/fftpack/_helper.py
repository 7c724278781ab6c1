"""scipy.fftpack's helpers: `fftfreq`, `fftshift`, `ifftshift` (NumPy's, as SciPy re-exports
them: cuarray.fft's), fftpack's own `rfftfreq` (the frequencies of its packed real layout) and
`next_fast_len` (SciPy's answer: the next 5-smooth length, fast for cuFFT too)."""

from __future__ import annotations

import operator

import numpy

from ..._core.host_input import as_literal_or_array
from ..._creation.ranges import arange
from ...fft import fftfreq as _fftfreq
from ...fft import fftshift as _fftshift
from ...fft import ifftshift as _ifftshift

__all__ = ["fftfreq", "rfftfreq", "fftshift", "ifftshift", "next_fast_len"]


def fftfreq(n, d=1.0, device=None):
    """See `scipy.fftpack.fftfreq` (NumPy's `fftfreq`): a cuarray array.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fftpack
    >>> fftpack.fftfreq(8, d=0.1)
    array([ 0.  ,  1.25,  2.5 ,  3.75, -5.  , -3.75, -2.5 , -1.25])
    """
    return _fftfreq(n, d, device=device)


def rfftfreq(n, d=1.0):
    """See `scipy.fftpack.rfftfreq`: the frequency of each entry of `rfft`'s packed layout.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fftpack
    >>> fftpack.rfftfreq(8, d=0.1)
    array([0.  , 1.25, 1.25, 2.5 , 2.5 , 3.75, 3.75, 5.  ])
    """
    n = operator.index(n)
    if n < 0:
        raise ValueError("n = {} is not valid. n must be a nonnegative integer.".format(n))
    return (arange(1, n + 1, dtype=numpy.intp) // 2) / float(n * d)


def fftshift(x, axes=None):
    """See `scipy.fftpack.fftshift` (NumPy's).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fftpack
    >>> fftpack.fftshift(cuarray.arange(5))
    array([3, 4, 0, 1, 2])
    """
    return _fftshift(as_literal_or_array(x, "scipy.fftpack.fftshift"), axes)


def ifftshift(x, axes=None):
    """See `scipy.fftpack.ifftshift` (NumPy's).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fftpack
    >>> fftpack.ifftshift(cuarray.arange(5))
    array([2, 3, 4, 0, 1])
    """
    return _ifftshift(as_literal_or_array(x, "scipy.fftpack.ifftshift"), axes)


def _regular(n: int) -> bool:
    for p in (2, 3, 5):
        while n % p == 0:
            n //= p
    return n == 1


def next_fast_len(target):
    """See `scipy.fftpack.next_fast_len`: SciPy's answer, the smallest 2^a 3^b 5^c >= target
    (cuFFT is fast on these lengths too; `cuarray.scipy.fft.next_fast_len` answers cuFFT's 7-smooth
    lengths).

    Examples
    --------
    >>> from cuarray.scipy import fftpack
    >>> fftpack.next_fast_len(1021), fftpack.next_fast_len(13)
    (1024, 15)
    """
    target = operator.index(target)
    if target < 0:
        raise ValueError("Target length must be positive")
    if target <= 6 or _regular(target):
        return target
    best = 1 << (target - 1).bit_length()  # the power of two; then each 3^b 5^c times its power of two
    p5 = 1
    while p5 < target:
        p35 = p5
        while p35 < target:
            quotient = -(-target // p35)
            best = min(best, p35 << (quotient - 1).bit_length())
            p35 *= 3
        best = min(best, p35)
        p5 *= 5
    return min(best, p5)
