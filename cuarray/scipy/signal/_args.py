"""The host-input rule of cuarray.scipy (docs/scipy.md, "Host inputs") as scipy.signal's functions
apply it, argument by argument:

- `data`: what a routine computes on (the signal, the image, the points to evaluate, spline
  coefficients): a cuarray array or a scalar, a Python list or tuple copied to the device (a literal
  written in the program, as cupyx takes it); a NumPy array raises TypeError
  (`host_input.as_literal_or_array`).
- `device_param`: a parameter used on the device (peak indices, prominence data, a filter state,
  a frequency grid): a NumPy array, a list or a tuple is copied up (`host_input.as_parameter`).
- `host_param`: a parameter used on the host (filter coefficients, breakpoints, a frequency
  range, a window's taps): a cuarray array comes down, nested lists of device scalars too;
  `host_scalar` for a scalar one (a pole, a gain, a width), which SciPy's host arithmetic
  (NumPy functions, `math`) reads.

A list holding cuarray arrays (``[x[3], x[6]]``) is stacked on the device, as `cuarray.array` does,
never taken through NumPy (which would refuse the device arrays). The host tests run the functions
over NumPy arrays: there `_s.as_array` and `_s.is_array` are their stand-ins, and so is `_literal`."""

from __future__ import annotations

import numpy

from ..._core import host_input as _host_input
from ..._creation.from_data import array as _array
from ..ndimage import _support as _s

__all__ = ["data", "device_param", "host_param", "host_scalar"]


def _holds_device(x) -> bool:
    return any(_s.is_array(v) or (isinstance(v, (list, tuple)) and _holds_device(v)) for v in x)


def _literal(x, fn):
    """A Python list or tuple (or, for a parameter, a NumPy array) on the device."""
    if isinstance(x, (list, tuple)) and _holds_device(x):
        return _array(x)
    return _host_input.as_parameter(x, fn)


def data(x, fn: str):
    """A data argument on the device: a cuarray array as it is, a scalar as a 0-d array, a list or
    tuple copied; a NumPy array (or another library's array) raises TypeError."""
    if isinstance(x, (list, tuple)):
        x = _literal(x, fn)
    return _s.as_array(x, fn)


def device_param(x, fn: str):
    """A parameter on the device: as `data`, and a NumPy array copied up too."""
    if isinstance(x, (list, tuple)) or (isinstance(x, numpy.ndarray) and not _s.is_array(x)):
        x = _literal(x, fn)
    return _s.as_array(x, fn)


def _down(x):
    if _s.is_array(x) and not isinstance(x, numpy.ndarray):
        return x.get()
    if isinstance(x, (list, tuple)):
        return [_down(v) for v in x]
    return x


def host_param(x, dtype=None) -> numpy.ndarray:
    """A parameter on the host as a NumPy array: a cuarray array copied down (also inside lists)."""
    return numpy.asarray(_down(x), dtype=dtype)


def host_scalar(v):
    """A scalar parameter on the host (a gain, a pole, a width): a cuarray array copied down (a 0-d
    one as a NumPy scalar of its dtype, as SciPy would see it); anything else as it is."""
    if _s.is_array(v) and not isinstance(v, numpy.ndarray):
        v = v.get()
        return v[()] if v.ndim == 0 else v
    return v
