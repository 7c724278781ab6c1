"""The wavelets SciPy removed in 1.15 (`cwt`, `morlet`, `morlet2`, `ricker`, and `qmf`), as
cupyx.scipy.signal still provides them with SciPy 1.14's signatures and results, so CuPy programs
run unchanged: closed forms on the device, and `cwt` as one cuarray `convolve` per width. SciPy
1.18 has none of these names; `scipy.signal.find_peaks_cwt`'s docs point to PyWavelets."""

from __future__ import annotations

import numpy

from ..._core.ndarray import ndarray
from ..._core.transfer import from_host as _from_host
from ..._creation.basic import empty as _empty
from ..._creation.ranges import arange as _arange
from ..._creation.ranges import linspace as _linspace
from ..._math.complex import conj as _conj
from ..._math.explog import exp as _exp
from ._args import data as _data
from ._args import device_param as _device_param
from ._args import host_param as _host_param
from ._args import host_scalar as _host_scalar
from ._convolve import convolve as _convolve

__all__ = ["cwt", "morlet", "morlet2", "ricker", "qmf"]


def qmf(hk):
    """The quadrature mirror filter of the low-pass `hk`: reversed, every odd tap negated
    (scipy.signal.qmf of SciPy 1.14, removed in 1.15; cupyx.scipy.signal.qmf).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.qmf(cuarray.array([1., 2., 3., 4.]))
    array([ 4., -3.,  2., -1.])
    """
    hk = _device_param(hk, "qmf")  # (filter coefficients: a parameter)
    signs = numpy.where(numpy.arange(hk.shape[0]) % 2 == 0, 1, -1)
    return hk[::-1] * _from_host(signs)


def morlet(M, w=5.0, s=1.0, complete=True):
    """The complex Morlet wavelet of M points over [-2 pi s, 2 pi s] (scipy.signal.morlet of SciPy
    1.14, removed in 1.15; cupyx.scipy.signal.morlet).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> abs(signal.morlet(4, s=0.5)).round(6)
    array([0.005402, 0.434093, 0.434093, 0.005402])
    """
    w, s = _host_scalar(w), _host_scalar(s)  # (host arithmetic: numpy.exp, linspace's ends)
    x = _linspace(-s * 2 * numpy.pi, s * 2 * numpy.pi, M)
    out = _exp(1j * w * x)
    if complete:
        out = out - numpy.exp(-0.5 * (w ** 2))
    return out * (_exp(-0.5 * (x ** 2)) * numpy.pi ** (-0.25))


def ricker(points, a):
    """The Ricker ("Mexican hat") wavelet of `points` samples and width `a` (scipy.signal.ricker of
    SciPy 1.14, removed in 1.15; cupyx.scipy.signal.ricker).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.ricker(4, 1.).round(6)
    array([-0.351974,  0.574059,  0.574059, -0.351974])
    """
    a = _host_scalar(a)  # (host arithmetic: numpy.sqrt)
    A = 2 / (numpy.sqrt(3 * a) * (numpy.pi ** 0.25))
    vec = _arange(0, points, dtype=numpy.float64) - (points - 1.0) / 2
    xsq = vec ** 2
    return A * (1 - xsq / a ** 2) * _exp(-xsq / (2 * a ** 2))


def morlet2(M, s, w=5):
    """The complex Morlet wavelet of M points and width `s`, normalised for `cwt` (scipy.signal.morlet2
    of SciPy 1.14, removed in 1.15; cupyx.scipy.signal.morlet2).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> abs(signal.morlet2(4, 1.)).round(6)
    array([0.243855, 0.662866, 0.662866, 0.243855])
    """
    s = _host_scalar(s)  # (host arithmetic: numpy.sqrt)
    x = (_arange(0, M, dtype=numpy.float64) - (M - 1.0) / 2) / s
    return numpy.sqrt(1 / s) * (_exp(1j * w * x) * _exp(-0.5 * x ** 2) * numpy.pi ** (-0.25))


def cwt(data, wavelet, widths, dtype=None, **kwargs):
    """The continuous wavelet transform of the 1-D `data`: one row per width, each a 'same'
    convolution with the time-reversed conjugate wavelet of min(10 width, len(data)) points
    (scipy.signal.cwt of SciPy 1.14, removed in 1.15; cupyx.scipy.signal.cwt). `wavelet` may
    return device or host arrays.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> x = cuarray.array([0., 1., 3., 1., 0., 0.])
    >>> signal.cwt(x, signal.ricker, [0.5, 2.]).round(4)
    array([[-0.5165, -0.2736,  2.6837, -0.2736, -0.5165, -0.0062],
           [-0.2713,  1.0069,  2.4316,  2.4316,  1.0069, -0.2713]])
    """
    data = _data(data, "cwt")
    widths = _host_param(widths)  # (the widths: a parameter, read on the host)

    def wave(n, width):
        w = wavelet(n, width, **kwargs)
        return w if isinstance(w, ndarray) else _from_host(numpy.asarray(w))

    if dtype is None:
        dtype = numpy.complex128 if wave(1, widths[0]).dtype.char in "FDG" else numpy.float64
    out = _empty((len(widths), len(data)), dtype=dtype)
    for i, width in enumerate(widths):
        n = int(numpy.min([10 * width, len(data)]))
        out[i] = _convolve(data, _conj(wave(n, width)[::-1]), mode="same")
    return out
