"""The fast Hankel transform (FFTLog, Talman 1978, Hamilton 2000): `fht`, `ifht`, `fhtoffset`.
See `scipy.fft.fht`.

The transform is one real FFT of the (biased) input, a product with the n/2 + 1 coefficients of
the Hankel kernel, one inverse real FFT and a reversal, all on the device. The coefficients, the
ratios Gamma((mu + 1 + q) / 2 + i y) / Gamma((mu + 1 - q) / 2 - i y) on the transform's frequency
grid, are host work (a small array from SciPy's complex `loggamma`), uploaded once a call.
"""

from __future__ import annotations

import math
import warnings

import numpy

from .._core.host_input import as_array
from .._core.ndarray import ndarray
from .._core.transfer import from_host, to_host
from .._creation.ranges import arange
from .._manipulation.rearranging import flip
from .._math.complex import conj
from .._math.explog import exp
from ..fft._scipy_backend import irfft, rfft

__all__ = ["fht", "ifht", "fhtoffset"]

_LN2 = math.log(2.0)


def _host_numbers(*values):
    """The scalar parameters (`dln`, `mu`, `offset`, `bias`) on the host: a device 0-d array (say
    ``log(r[1] / r[0])`` of device `r`) copied down as the NumPy scalar SciPy would see."""
    return [to_host(v)[()] if isinstance(v, ndarray) else v for v in values]


def _coefficients(n, dln, mu, offset, bias, inverse):
    """u_m = 2^q Gamma(x+ + i y_m) / Gamma(x- - i y_m) (2 / k_c r_c)^(2 i y_m), y_m = pi m / (n dln),
    m = 0 .. n / 2 (Hamilton 2000, eq. 164 ff.); the Nyquist term of an even n made real, and the
    m = 0 term by its limit where the Gammas overflow."""
    # host work: a coefficient array of n / 2 + 1 complex values from SciPy's complex loggamma
    from scipy.special import loggamma, poch

    xp, xm = (mu + 1 + bias) / 2, (mu + 1 - bias) / 2
    y = numpy.linspace(0, numpy.pi * (n // 2) / (n * dln), n // 2 + 1)
    log_u = loggamma(xp + 1j * y) - numpy.conj(loggamma(xm + 1j * y)) + _LN2 * bias
    log_u = log_u + 2j * y * (_LN2 - offset)
    u = numpy.exp(log_u)
    if n % 2 == 0:
        u[-1] = u[-1].real
    if not numpy.isfinite(u[0]):
        u[0] = 2 ** bias * poch(xm, xp - xm)
    if numpy.isinf(u[0]) and not inverse:
        warnings.warn("singular transform; consider changing the bias", stacklevel=3)
        u[0] = 0
    elif u[0] == 0 and inverse:
        warnings.warn("singular inverse transform; consider changing the bias", stacklevel=3)
        u[0] = numpy.inf
    return u


def _bias_factor(n, dln, sign, bias, offset=0.0):
    j = arange(n, dtype=numpy.float64)
    return exp(sign * bias * ((j - (n - 1) / 2) * dln + offset))


def fht(a, dln, mu, offset=0.0, bias=0.0):
    """See `scipy.fft.fht`. The coefficients are host work (SciPy's `loggamma`); the FFTs and
    products run on the device.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fft
    >>> a = cuarray.array([1., 2., 3., 4.])
    >>> cuarray.round(fft.fht(a, dln=0.1, mu=0.5), 6)
    array([1.247372, 1.757266, 3.106597, 3.888764])
    """
    a = as_array(a, "fht")
    dln, mu, offset, bias = _host_numbers(dln, mu, offset, bias)
    n = a.shape[-1]
    if bias != 0:
        a = a * _bias_factor(n, dln, -1.0, bias)
    F = rfft(a, axis=-1)
    u = from_host(_coefficients(n, dln, mu, offset, bias, False).astype(F.dtype))  # SciPy's in-place dtype
    A = flip(irfft(F * u, n, axis=-1), axis=-1)
    if bias != 0:
        A = A * _bias_factor(n, dln, -1.0, bias, offset)
    return A


def ifht(A, dln, mu, offset=0.0, bias=0.0):
    """See `scipy.fft.ifht`. The coefficients are host work (SciPy's `loggamma`); the FFTs and
    products run on the device.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fft
    >>> a = cuarray.array([1., 2., 3., 4.])
    >>> cuarray.round(fft.ifht(fft.fht(a, dln=0.1, mu=0.5), dln=0.1, mu=0.5), 6)
    array([1., 2., 3., 4.])
    """
    A = as_array(A, "ifht")
    dln, mu, offset, bias = _host_numbers(dln, mu, offset, bias)
    n = A.shape[-1]
    if bias != 0:
        A = A * _bias_factor(n, dln, 1.0, bias, offset)
    F = rfft(A, axis=-1)
    u = from_host(_coefficients(n, dln, mu, offset, bias, True).astype(F.dtype))  # SciPy's in-place dtype
    a = flip(irfft(F / conj(u), n, axis=-1), axis=-1)
    if bias != 0:
        a = a / _bias_factor(n, dln, -1.0, bias)
    return a


def fhtoffset(dln, mu, initial=0.0, bias=0.0):
    """See `scipy.fft.fhtoffset` (a host number, as SciPy's).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fft
    >>> round(float(fft.fhtoffset(0.1, 0.5)), 6)
    -0.027643
    """
    # host work: two complex loggamma values
    from scipy.special import loggamma

    dln, mu, initial, bias = _host_numbers(dln, mu, initial, bias)
    xp, xm = (mu + 1 + bias) / 2, (mu + 1 - bias) / 2
    y = numpy.pi / (2 * dln)
    arg = (_LN2 - initial) / dln + (loggamma(xp + 1j * y).imag + loggamma(xm + 1j * y).imag) / numpy.pi
    return initial + (arg - numpy.round(arg)) * dln
