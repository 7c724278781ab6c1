"""Discrete Fourier transform helpers: fftfreq, rfftfreq, fftshift, ifftshift.

The frequencies are written by one elementwise kernel from the index (no host arrays, no
uploads); the shifts are `roll`s.
"""

from __future__ import annotations

import numpy

from .._core.elementwise import Definition, KernelParam
from .._core.host_input import as_array
from .._core.ndarray import ndarray
from .._core.transfer import from_host
from .._manipulation.rearranging import roll
from ..cuda import caches as _caches

__all__ = ["fftfreq", "rfftfreq", "fftshift", "ifftshift"]

_I64 = numpy.dtype(numpy.int64)
_defs: dict = {}
_caches.register("fft helper definitions", _defs)


def _freq_def(kind: str, dtype: numpy.dtype) -> Definition:
    d = _defs.get((kind, dtype.char))
    if d is None:
        # fftfreq: [0, 1, ..., h-1, -(n - h), ..., -1] * v; rfftfreq: [0, 1, ..., n//2] * v.
        op = ("out0 = (i < h ? (long long)i : (long long)i - nn) * v" if kind == "full"
              else "out0 = (long long)i * v")
        d = _defs[(kind, dtype.char)] = Definition(
            "cuarray_fft_{}freq_{}".format("" if kind == "full" else "r", dtype.name),
            (KernelParam("h", "scalar", _I64), KernelParam("nn", "scalar", _I64),
             KernelParam("v", "scalar", dtype), KernelParam("out0", "out", dtype)), op)
    return d


def _freq(kind, n, d, dtype, name):
    if not isinstance(n, (int, numpy.integer)):
        raise ValueError("n should be an integer")
    if isinstance(d, ndarray):
        d = d.item()  # a device scalar: its value decides the output (one synchronisation)
    val = 1.0 / (n * d)  # NumPy's exceptions and warnings for n == 0 or d == 0
    m = (n - 1) // 2 + 1 if kind == "full" else n // 2 + 1
    size = n if kind == "full" else m
    res_dt = numpy.result_type(numpy.int64, val) if dtype is None else numpy.dtype(dtype)
    if res_dt.kind != "f" or res_dt.itemsize < 4:
        if dtype is not None:
            raise ValueError("cuarray.fft.{}: dtype must be a real floating dtype (float32 or float64), got {}".format(
                name, res_dt))
        # complex spacing: NumPy's values, computed on the host (a rare case)

        host = numpy.fft.fftfreq(n, d) if kind == "full" else numpy.fft.rfftfreq(n, d)
        return from_host(host)
    out = ndarray((size,), res_dt)
    _freq_def(kind, res_dt).run((out,), (numpy.int64(m), numpy.int64(n), res_dt.type(val)), (size,))
    return out


def fftfreq(n, d=1.0, *, dtype=None, device=None):
    """See `numpy.fft.fftfreq`. `device` is accepted for the array API and must be None or
    this library's device.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.fft.fftfreq(8, d=0.5)
    array([ 0.  ,  0.25,  0.5 ,  0.75, -1.  , -0.75, -0.5 , -0.25])
    """
    return _freq("full", n, d, dtype, "fftfreq")


def rfftfreq(n, d=1.0, *, dtype=None, device=None):
    """See `numpy.fft.rfftfreq`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.fft.rfftfreq(8, d=0.5)
    array([0.  , 0.25, 0.5 , 0.75, 1.  ])
    """
    return _freq("half", n, d, dtype, "rfftfreq")


def _shifts(x, axes, sign):
    if axes is None:
        axes = tuple(range(x.ndim))
        return [sign * (dim // 2) for dim in x.shape], axes
    if isinstance(axes, (int, numpy.integer)):
        return sign * (x.shape[axes] // 2), axes
    return [sign * (x.shape[ax] // 2) for ax in axes], axes


def fftshift(x, axes=None):
    """See `numpy.fft.fftshift`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.fft.fftfreq(6, d=1 / 6)
    array([ 0.,  1.,  2., -3., -2., -1.])
    >>> cuarray.fft.fftshift(cuarray.fft.fftfreq(6, d=1 / 6))   # the zero frequency moved to the centre
    array([-3., -2., -1.,  0.,  1.,  2.])
    """
    x = as_array(x, "fft.fftshift")
    shift, axes = _shifts(x, axes, 1)
    return roll(x, shift, axes)


def ifftshift(x, axes=None):
    """See `numpy.fft.ifftshift`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.fft.ifftshift(cuarray.fft.fftshift(cuarray.arange(6)))
    array([0, 1, 2, 3, 4, 5])
    >>> cuarray.fft.ifftshift(cuarray.arange(5))
    array([2, 3, 4, 0, 1])
    """
    x = as_array(x, "fft.ifftshift")
    shift, axes = _shifts(x, axes, -1)
    return roll(x, shift, axes)
