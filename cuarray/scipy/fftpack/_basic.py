"""scipy.fftpack's discrete Fourier transforms over cuarray's cuFFT transforms (`cuarray.fft`):
scipy.fft's dtype rule (float16 computes in float32, integers and bools in float64, single
precision stays single), scipy.fftpack's `shape`/`axes` rules (`_layout.shape_axes`) and, for
`rfft`/`irfft`, its packed real layout (`_layout.pack`/`unpack` around cuFFT's half spectrum).
`overwrite_x` is accepted: the input is never written. `plan` (keyword-only) is cupyx's (`_plan`).
"""

from __future__ import annotations

import numpy

from ..._core.host_input import as_literal_or_array
from ..._core.shapes import normalize_axis_index
from ...fft import _fft
from . import _layout, _plan
from ._namespace import XP

__all__ = ["fft", "ifft", "fftn", "ifftn", "fft2", "ifft2", "rfft", "irfft"]


def _input(x, fn):
    """scipy.fft's `_asfarray`: float16 as float32, integers and bools as float64."""
    x = as_literal_or_array(x, "scipy.fftpack." + fn)
    if x.dtype.char == "e":
        return x.astype(numpy.float32)
    if x.dtype.kind not in "fc":
        return x.astype(numpy.float64)
    return x


def _points(n):
    n = _fft._points(n)
    return n


def _one(x, n, axis, forward, plan, fn):
    x = _input(x, fn)
    if n is None:
        n = x.shape[axis]
        if n < 1:
            raise ValueError("invalid number of data points ({}) specified".format(n))
    else:
        n = _points(n)
    ax = normalize_axis_index(axis, x.ndim)
    _plan.check_plan(plan, _plan.call_record("C2C", x.dtype, x.shape, (ax,), (n,)))
    return (_fft.fft if forward else _fft.ifft)(x, n, ax)


def fft(x, n=None, axis=-1, overwrite_x=False, *, plan=None):
    """See `scipy.fftpack.fft`. `plan` is cupyx's (`get_fft_plan`: checked, see the module).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fftpack
    >>> cuarray.round(abs(fftpack.fft(cuarray.cos(2 * cuarray.pi * cuarray.arange(8) / 8))), 6)
    array([0., 4., 0., 0., 0., 0., 0., 4.])
    """
    return _one(x, n, axis, True, plan, "fft")


def ifft(x, n=None, axis=-1, overwrite_x=False, *, plan=None):
    """See `scipy.fftpack.ifft`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fftpack
    >>> x = cuarray.array([1.0, 2.0, 3.0, 4.0])
    >>> cuarray.round(fftpack.ifft(fftpack.fft(x)).real, 6)
    array([1., 2., 3., 4.])
    """
    return _one(x, n, axis, False, plan, "ifft")


def _nd(x, shape, axes, forward, plan, fn):
    xa = as_literal_or_array(x, "scipy.fftpack." + fn)
    sizes, axes = _layout.shape_axes(list(xa.shape), shape, axes)
    if not axes:
        return x  # SciPy returns its argument itself here
    xa = _input(xa, fn)
    _plan.check_plan(plan, _plan.call_record("C2C", xa.dtype, xa.shape, axes, sizes))
    return (_fft.fftn if forward else _fft.ifftn)(xa, sizes, axes)


def fftn(x, shape=None, axes=None, overwrite_x=False, *, plan=None):
    """See `scipy.fftpack.fftn` (up to three axes are one cuFFT plan).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fftpack
    >>> fftpack.fftn(cuarray.ones((2, 3, 4)), shape=(2, 3, 8)).shape
    (2, 3, 8)
    """
    return _nd(x, shape, axes, True, plan, "fftn")


def ifftn(x, shape=None, axes=None, overwrite_x=False, *, plan=None):
    """See `scipy.fftpack.ifftn`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fftpack
    >>> x = cuarray.arange(6.0).reshape(2, 3)
    >>> cuarray.round(fftpack.ifftn(fftpack.fftn(x)).real, 6)
    array([[0., 1., 2.],
           [3., 4., 5.]])
    """
    return _nd(x, shape, axes, False, plan, "ifftn")


def fft2(x, shape=None, axes=(-2, -1), overwrite_x=False, *, plan=None):
    """See `scipy.fftpack.fft2`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fftpack
    >>> cuarray.round(abs(fftpack.fft2(cuarray.ones((2, 2)))), 6)
    array([[4., 0.],
           [0., 0.]])
    """
    return _nd(x, shape, axes, True, plan, "fft2")


def ifft2(x, shape=None, axes=(-2, -1), overwrite_x=False, *, plan=None):
    """See `scipy.fftpack.ifft2`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fftpack
    >>> cuarray.round(fftpack.ifft2(cuarray.ones((2, 2))).real, 6)
    array([[1., 0.],
           [0., 0.]])
    """
    return _nd(x, shape, axes, False, plan, "ifft2")


def _real_input(x, n, axis, fn):
    x = _input(x, fn)
    if x.dtype.kind == "c":
        raise TypeError("x must be a real sequence")
    ax = normalize_axis_index(axis, x.ndim)
    if n is None:
        n = x.shape[ax]
        if n < 1:
            raise ValueError("invalid number of data points ({}) specified".format(n))
    else:
        n = _points(n)
    return x, n, ax


def rfft(x, n=None, axis=-1, overwrite_x=False, *, plan=None):
    """See `scipy.fftpack.rfft`: fftpack's packed real layout ``[y(0), Re y(1), Im y(1), ...]``,
    made from cuFFT's half spectrum by two copies (three where the spectrum's axis is strided).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fftpack
    >>> fftpack.rfft(cuarray.array([1.0, 2.0, 3.0, 4.0]))
    array([10., -2.,  2., -2.])
    """
    x, n, ax = _real_input(x, n, axis, "rfft")
    _plan.check_plan(plan, _plan.call_record("R2C", x.dtype, x.shape, (ax,), (n,)))
    return _layout.pack(XP, _fft.rfft(x, n, ax), n, ax)


def irfft(x, n=None, axis=-1, overwrite_x=False, *, plan=None):
    """See `scipy.fftpack.irfft`: the inverse of `rfft`'s packed layout (the half spectrum
    unpacked by two copies, then cuFFT's C2R transform).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import fftpack
    >>> fftpack.irfft(fftpack.rfft(cuarray.array([1.0, 2.0, 3.0, 4.0])))
    array([1., 2., 3., 4.])
    """
    x, n, ax = _real_input(x, n, axis, "irfft")
    _plan.check_plan(plan, _plan.call_record("C2R", x.dtype, x.shape, (ax,), (n,)))
    x = _layout.fix_length(XP, x, n, ax)
    cdtype = numpy.complex64 if x.dtype == numpy.float32 else numpy.complex128
    return _fft.irfft(_layout.unpack(XP, x, n, ax, cdtype), n, ax)
