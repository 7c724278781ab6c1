"""scipy.fftpack's differential and pseudo-differential operators and its `convolve` module,
written over a NumPy-named namespace `xp` (`_namespace.XP` on the GPU; NumPy in the CPU tests,
against scipy.fftpack).

SciPy's algorithm, step for step: a convolution kernel `omega` in fftpack's packed real layout
(`kernel_omega`: SciPy's `init_convolution_kernel`, the kernel function evaluated for every
frequency at once, on the device), the input's packed spectrum (`_layout.pack` of cuFFT's half
spectrum) multiplied by it, with real and imaginary parts swapped for the odd operators, and the
unnormalised inverse. Each call is two FFTs and a few elementwise passes; the kernels are not cached
(SciPy keeps the last 20 per function in `_cache`, accepted and unused here: a kernel is a few
elementwise passes on the device). Inputs are 1-D, computed in float64 (complex: the real and
imaginary parts separately), as SciPy's.
"""

from __future__ import annotations

import math

import numpy

from . import _layout

__all__ = ["kernel_omega", "convolve", "convolve_z", "seq_length", "diff", "tilbert", "itilbert", "hilbert",
           "ihilbert", "cs_diff", "sc_diff", "ss_diff", "cc_diff", "shift"]

_F8 = numpy.dtype(numpy.float64)


def seq_length(x):
    """SciPy's checks in its order: `len(x)` (0-d: TypeError), a kernel of that length (0:
    ZeroDivisionError, as SciPy's), a 1-D input (ValueError)."""
    if x.ndim == 0:
        raise TypeError("len() of unsized object")
    n = x.shape[0]
    if n == 0:
        raise ZeroDivisionError("float division")
    if x.ndim != 1:
        raise ValueError("inout and omega must be 1-dimensional arrays of the same length")
    return n


def kernel_omega(xp, n, kern, k0, d=0, zero_nyquist=None):
    """SciPy's `init_convolution_kernel` with a vectorised kernel: `kern(k)` for the float64
    frequencies k = 1, 1, 2, 2, ... (every packed position past the first), `k0` its value at 0."""
    if zero_nyquist is None:
        zero_nyquist = d % 2 != 0
    d %= 4
    sr = 1.0 / n if d in (0, 1) else -1.0 / n
    si = 1.0 / n if d in (0, 3) else -1.0 / n
    j = xp.arange(1, n, dtype=_F8)
    vals = kern(xp.floor((j + 1.0) / 2.0))
    scale = xp.where(j % 2.0 == 1.0, sr, si)
    omega = xp.concatenate([xp.asarray([k0 / n], dtype=_F8), (scale * vals).astype(_F8, copy=False)])
    if n % 2 == 0 and zero_nyquist:
        omega[n - 1] = 0.0
    return omega


def _spectrum(xp, x):
    n = x.shape[0]
    return _layout.pack(xp, xp.rfft(x.astype(_F8, copy=False)), n, 0), n


def _inverse(xp, X, n):
    return xp.irfft(_layout.unpack(xp, X, n, 0, numpy.complex128), n, -1, "forward")


def convolve(xp, x, omega, swap_real_imag=False):
    """SciPy's `convolve`: omega times the packed spectrum of x (swapped: each pair's real part
    from the imaginary one and back), unnormalised inverse."""
    X, n = _spectrum(xp, x)
    Y = X * omega
    if swap_real_imag:
        p = (n - 1) // 2
        odd, even = slice(1, 1 + 2 * p, 2), slice(2, 2 + 2 * p, 2)
        Y[odd] = X[even] * omega[even]
        Y[even] = X[odd] * omega[odd]
    return _inverse(xp, Y, n)


def convolve_z(xp, x, omega_real, omega_imag):
    """SciPy's `convolve_z`: the packed spectrum times (omega_real + i omega_imag) pair by pair
    (y(0) and an even length's y(n/2) by their sum), unnormalised inverse."""
    X, n = _spectrum(xp, x)
    Y = X * (omega_real + omega_imag)
    p = (n - 1) // 2
    odd, even = slice(1, 1 + 2 * p, 2), slice(2, 2 + 2 * p, 2)
    Y[odd] = X[odd] * omega_real[odd] + X[even] * omega_imag[even]
    Y[even] = X[even] * omega_real[even] + X[odd] * omega_imag[odd]
    return _inverse(xp, Y, n)


def _complex_split(f):
    """SciPy's rule for complex input: the operator of the real part plus i times that of the
    imaginary part."""
    def g(xp, x, *args):
        if x.dtype.kind == "c":
            return g(xp, xp.real(x), *args) + 1j * g(xp, xp.imag(x), *args)
        return f(xp, x, *args)
    g.__name__ = f.__name__
    g.__doc__ = f.__doc__
    return g


def _scaled(v, period):
    return v if period is None else v * 2 * math.pi / period


@_complex_split
def diff(xp, x, order, period):
    """y_j = (i j 2 pi / period)^order x_j, y_0 = 0; the Nyquist term zeroed."""
    c = 1.0 if period is None else 2 * math.pi / period
    n = seq_length(x)
    omega = kernel_omega(xp, n, lambda k: (c * k) ** order, 0.0, order, 1)
    return convolve(xp, x, omega, order % 2)


@_complex_split
def tilbert(xp, x, h, period):
    """y_j = i coth(j h 2 pi / period) x_j, y_0 = 0."""
    h = _scaled(h, period)
    n = seq_length(x)
    return convolve(xp, x, kernel_omega(xp, n, lambda k: 1.0 / xp.tanh(h * k), 0.0, 1), 1)


@_complex_split
def itilbert(xp, x, h, period):
    """y_j = -i tanh(j h 2 pi / period) x_j, y_0 = 0."""
    h = _scaled(h, period)
    n = seq_length(x)
    return convolve(xp, x, kernel_omega(xp, n, lambda k: -xp.tanh(h * k), 0.0, 1), 1)


@_complex_split
def hilbert(xp, x):
    """y_j = i sign(j) x_j, y_0 = 0."""
    n = seq_length(x)
    return convolve(xp, x, kernel_omega(xp, n, lambda k: k * 0.0 + 1.0, 0.0, 1), 1)


@_complex_split
def cs_diff(xp, x, a, b, period):
    """y_j = -i cosh(j a 2 pi / period) / sinh(j b 2 pi / period) x_j, y_0 = 0."""
    a, b = _scaled(a, period), _scaled(b, period)
    n = seq_length(x)
    return convolve(xp, x, kernel_omega(xp, n, lambda k: -xp.cosh(a * k) / xp.sinh(b * k), 0.0, 1), 1)


@_complex_split
def sc_diff(xp, x, a, b, period):
    """y_j = i sinh(j a 2 pi / period) / cosh(j b 2 pi / period) x_j, y_0 = 0."""
    a, b = _scaled(a, period), _scaled(b, period)
    n = seq_length(x)
    return convolve(xp, x, kernel_omega(xp, n, lambda k: xp.sinh(a * k) / xp.cosh(b * k), 0.0, 1), 1)


@_complex_split
def ss_diff(xp, x, a, b, period):
    """y_j = sinh(j a 2 pi / period) / sinh(j b 2 pi / period) x_j, y_0 = a / b x_0."""
    a, b = _scaled(a, period), _scaled(b, period)
    n = seq_length(x)
    return convolve(xp, x, kernel_omega(xp, n, lambda k: xp.sinh(a * k) / xp.sinh(b * k), float(a) / b), 0)


@_complex_split
def cc_diff(xp, x, a, b, period):
    """y_j = cosh(j a 2 pi / period) / cosh(j b 2 pi / period) x_j."""
    a, b = _scaled(a, period), _scaled(b, period)
    n = seq_length(x)
    return convolve(xp, x, kernel_omega(xp, n, lambda k: xp.cosh(a * k) / xp.cosh(b * k),
                                        math.cosh(0.0) / math.cosh(0.0)), 0)


@_complex_split
def shift(xp, x, a, period):
    """y_j = exp(i j a 2 pi / period) x_j."""
    a = _scaled(a, period)
    n = seq_length(x)
    wr = kernel_omega(xp, n, lambda k: xp.cos(a * k), 1.0, 0, 0)
    wi = kernel_omega(xp, n, lambda k: xp.sin(a * k), 0.0, 1, 0)
    return convolve_z(xp, x, wr, wi)
