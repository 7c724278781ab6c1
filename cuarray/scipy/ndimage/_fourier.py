"""scipy.ndimage's Fourier-domain filters on the GPU: `fourier_gaussian`, `fourier_uniform`,
`fourier_shift`. Each is the input times a separable factor, one host vector per axis (the
frequencies of a full transform, or of a real one along `axis` when `n` >= 0), broadcast on the
device. `fourier_ellipsoid` is not provided."""

from __future__ import annotations

import numpy

from ..._core.transfer import from_host as _from_host
from . import _support as _s

__all__ = ["fourier_gaussian", "fourier_uniform", "fourier_shift"]


def _freqs(m, d, n, axis):
    return numpy.arange(m) / n if (d == axis and n >= 0) else numpy.fft.fftfreq(m)


def _filter(input, param, n, axis, output, factor, complex_out, what):
    x = _s.as_array(input, what)
    if x.ndim == 0:
        raise RuntimeError("input must have at least one dimension")  # SciPy: no axis to filter
    if complex_out:
        dt = x.dtype if x.dtype in (numpy.complex64, numpy.complex128) else numpy.dtype(numpy.complex128)
    else:
        dt = x.dtype if x.dtype in (numpy.complex64, numpy.complex128, numpy.float32) else numpy.dtype(numpy.float64)
    if _s.is_array(output):
        if output.shape != x.shape:
            raise RuntimeError("output shape not correct")
        dt = output.dtype
    elif output is not None:
        dt = numpy.dtype(output)
    axis = _s.normalize_axis(axis, x.ndim)
    params = numpy.asarray(_s.normalize_sequence(param, x.ndim), dtype=numpy.float64)
    res = x
    for d in range(x.ndim):
        f = factor(params[d], _freqs(x.shape[d], d, n, axis))
        shape = [1] * x.ndim
        shape[d] = x.shape[d]
        f = f.reshape(shape)
        res = res * (_from_host(f) if _s.is_array(x) else f)
    res = res.astype(dt)
    return _s.finish(res, output) if _s.is_array(output) else res


def fourier_gaussian(input, sigma, n=-1, axis=-1, output=None):
    """See `scipy.ndimage.fourier_gaussian`."""
    return _filter(input, sigma, n, axis, output, lambda s, f: numpy.exp(-2 * numpy.pi ** 2 * s ** 2 * f ** 2),
                   False, "fourier_gaussian")


def fourier_uniform(input, size, n=-1, axis=-1, output=None):
    """See `scipy.ndimage.fourier_uniform`."""
    return _filter(input, size, n, axis, output, lambda s, f: numpy.sinc(s * f), False, "fourier_uniform")


def fourier_shift(input, shift, n=-1, axis=-1, output=None):
    """See `scipy.ndimage.fourier_shift`."""
    return _filter(input, shift, n, axis, output, lambda s, f: numpy.exp(-2j * numpy.pi * s * f), True,
                   "fourier_shift")
