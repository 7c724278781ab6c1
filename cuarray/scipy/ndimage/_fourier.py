"""scipy.ndimage's Fourier-domain filters on the GPU: `fourier_gaussian`, `fourier_uniform`,
`fourier_shift`, `fourier_ellipsoid`. Each is the input times a factor built from one host vector per
axis (the frequencies of a full transform, or of a real one along `axis` when `n` >= 0): separable
filters multiply by each vector broadcast on the device; the ellipsoid's factor is a radial function
of the sum of the vectors' squares, evaluated on the device."""

from __future__ import annotations

import numpy

from ..._core.transfer import from_host as _from_host
from ..._math.misc import sqrt as _sqrt
from ..._math.trigonometric import cos as _cos
from ..._math.trigonometric import sin as _sin
from ..._sorting.searching import where as _where
from . import _support as _s

__all__ = ["fourier_gaussian", "fourier_uniform", "fourier_shift", "fourier_ellipsoid"]

_REAL_OUT = (numpy.float32, numpy.float64, numpy.complex64, numpy.complex128)


def _freqs(m, d, n, axis):
    return numpy.arange(m) / n if (d == axis and n >= 0) else numpy.fft.fftfreq(m)


def _prepare(input, output, complex_out, what):
    """The input array and the result's dtype, with SciPy's _get_output_fourier errors."""
    x = _s.as_array(input, what)
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
        if dt not in (_REAL_OUT[2:] if complex_out else _REAL_OUT):
            raise RuntimeError("output type not supported")
    if x.size and (x.dtype.char in "egG" or (x.dtype.kind == "c" and dt.kind != "c")):
        # SciPy's C filter: no float16 or long double input, complex input to complex output only
        # (checked inside its loop over the elements, so an empty input passes)
        raise RuntimeError("data type not supported")
    return x, dt


def _empty_result(x, dt, output):
    res = (x.real if x.dtype.kind == "c" and dt.kind != "c" else x).astype(dt)  # nothing to cast
    return _s.finish(res, output) if _s.is_array(output) else res


def _host_factor(f, x):
    return _from_host(f) if _s.is_array(x) else f


def _filter(input, param, n, axis, output, factor, complex_out, what):
    x, dt = _prepare(input, output, complex_out, what)
    if x.ndim == 0:
        raise RuntimeError("input must have at least one dimension")  # SciPy: no axis to filter
    axis = _s.normalize_axis(axis, x.ndim)
    params = numpy.asarray(_s.normalize_sequence(param, x.ndim), dtype=numpy.float64)
    if x.size == 0:
        return _empty_result(x, dt, output)
    res = x
    for d in range(x.ndim):
        f = factor(params[d], _freqs(x.shape[d], d, n, axis))
        shape = [1] * x.ndim
        shape[d] = x.shape[d]
        res = res * _host_factor(f.reshape(shape), x)
    res = res.astype(dt)
    return _s.finish(res, output) if _s.is_array(output) else res


def fourier_gaussian(input, sigma, n=-1, axis=-1, output=None):
    """See `scipy.ndimage.fourier_gaussian`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> ndimage.fourier_gaussian(cuarray.array([1., 1., 1., 1.]), sigma=1)
    array([1.        , 0.29121293, 0.00719188, 0.29121293])
    """
    return _filter(input, sigma, n, axis, output, lambda s, f: numpy.exp(-2 * numpy.pi ** 2 * s ** 2 * f ** 2),
                   False, "fourier_gaussian")


def fourier_uniform(input, size, n=-1, axis=-1, output=None):
    """See `scipy.ndimage.fourier_uniform`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> ndimage.fourier_uniform(cuarray.array([1., 1., 1., 1.]), size=3)
    array([ 1.        ,  0.30010544, -0.21220659,  0.30010544])
    """
    return _filter(input, size, n, axis, output, lambda s, f: numpy.sinc(s * f), False, "fourier_uniform")


def fourier_shift(input, shift, n=-1, axis=-1, output=None):
    """See `scipy.ndimage.fourier_shift`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> x = cuarray.array([1., 2., 3., 4.])
    >>> cuarray.fft.ifft(ndimage.fourier_shift(cuarray.fft.fft(x), 1)).real
    array([4., 1., 2., 3.])
    """
    return _filter(input, shift, n, axis, output, lambda s, f: numpy.exp(-2j * numpy.pi * s * f), True,
                   "fourier_shift")


def fourier_ellipsoid(input, size, n=-1, axis=-1, output=None):
    """See `scipy.ndimage.fourier_ellipsoid` (1-, 2- and 3-d input, as SciPy).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> ndimage.fourier_ellipsoid(cuarray.array([1., 1., 1., 1.]), size=3)
    array([ 1.        ,  0.30010544, -0.21220659,  0.30010544])
    """
    x = _s.as_array(input, "fourier_ellipsoid")
    if x.ndim > 3:
        raise NotImplementedError("Only 1d, 2d and 3d inputs are supported")
    x, dt = _prepare(x, output, False, "fourier_ellipsoid")
    if x.size == 0:
        return _empty_result(x, dt, output)
    axis = _s.normalize_axis(axis, x.ndim)
    sizes = numpy.asarray(_s.normalize_sequence(size, x.ndim), dtype=numpy.float64)
    # t_d = pi * size_d * (frequency index) / length, as SciPy's NI_FourierFilter tables
    ts = [numpy.pi * sizes[d] * _freqs(x.shape[d], d, n, axis) for d in range(x.ndim)]
    if x.ndim == 1:
        # sin(t)/t is the separable 1-d case: a host vector, one multiply on the device
        res = x * _host_factor(numpy.sinc(ts[0] / numpy.pi), x)
    else:
        # The ellipsoid is radial in r = |t|: the r**2 of every element is the broadcast sum of the per-axis
        # squares (a few elementwise passes, memory-bound like the separable filters' multiplies).
        r2 = None
        for d, t in enumerate(ts):
            shape = [1] * x.ndim
            shape[d] = x.shape[d]
            t2 = _host_factor((t * t).reshape(shape), x)
            r2 = t2 if r2 is None else r2 + t2
        r = _sqrt(r2)
        pos = r > 0.0
        rs = _where(pos, r, 1.0)  # r = 0 is the filter's centre, where the factor is 1
        if x.ndim == 2:
            from ..special import j1  # import time: ~35 ms of importing ndimage (-X importtime), for this case only

            f = 2.0 * j1(rs) / rs
        else:
            f = 3.0 * (_sin(rs) - rs * _cos(rs)) / (rs * rs * rs)
        res = x * _where(pos, f, 1.0)
    res = res.astype(dt)
    return _s.finish(res, output) if _s.is_array(output) else res
