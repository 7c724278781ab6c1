"""`interp`: 1-D piecewise-linear interpolation (NumPy "Mathematical functions / Miscellaneous").

One thread per query point: a binary search in `xp` and NumPy's compiled interpolation step
(its NaN fallbacks included), in `templates/signal.cuh`. Like NumPy, `xp` is assumed increasing
and not checked; values are computed in float64 (complex `fp`: real and imaginary parts in two
launches, with the complex loop's slope). `period` sorts the wrapped `xp` with `argsort` on the
device.
"""

from __future__ import annotations

import pathlib

import numpy

from .._core.elementwise import Definition, KernelParam
from .._core.host_input import as_array
from .._core.ndarray import ndarray
from .._manipulation.joining import concatenate
from .._sorting.sorting import argsort
from ..cuda import caches as _caches

__all__ = ["interp"]

_PREAMBLE = (pathlib.Path(__file__).parent / "templates" / "signal.cuh").read_text()
_F8 = numpy.dtype(numpy.float64)
_C16 = numpy.dtype(numpy.complex128)
_I64 = numpy.dtype(numpy.int64)
_defs: dict = {}
_caches.register("interp definitions", _defs)


def _definition(x_dt, out_dt, mul: bool) -> Definition:
    key = (x_dt, out_dt, mul)
    d = _defs.get(key)
    if d is None:
        params = [KernelParam("x", "in", x_dt, _F8), KernelParam("xp", "raw", _F8), KernelParam("fp", "raw", _F8),
                  KernelParam("n", "scalar", _I64), KernelParam("left", "scalar", _F8),
                  KernelParam("right", "scalar", _F8), KernelParam("lf", "scalar", _I64),
                  KernelParam("rf", "scalar", _I64), KernelParam("out0", "out", out_dt, _F8)]
        # lf/rf: 0 where left/right default to fp's end values (read on the device: no sync).
        op = ("out0 = cuarray_signal::interp<{}>(x, xp, fp, n, lf ? left : fp[0], rf ? right : fp[n - 1])"
              .format("true" if mul else "false"))
        d = _defs[key] = Definition("cuarray_interp_{}".format(x_dt.name), params, op, preamble=_PREAMBLE)
    return d


def _bound(value, part: str):
    """(value, flag) for one component of left/right; flag 0 means "fp's end value"."""
    if value is None:
        return 0.0, 0
    if part == "imag":
        return float(numpy.imag(value)), 1
    return float(numpy.real(value)), 1


def _run(x: ndarray, xp: ndarray, fp_part: ndarray, left, right, part, mul) -> ndarray:
    out = ndarray(x.shape, _F8)
    lo, lf = _bound(left, part)
    hi, rf = _bound(right, part)
    scalars = (_I64.type(xp.shape[0]), _F8.type(lo), _F8.type(hi), _I64.type(lf), _I64.type(rf))
    _definition(x.dtype, _F8, mul).run((x, out), scalars, x.shape, raw=(xp, fp_part))
    return out


def _as_1d_sample(a: ndarray, dt) -> ndarray:
    if a.ndim != 1:
        if a.ndim == 0:
            a = a.reshape((1,))
        else:
            raise ValueError("object too deep for desired array")
    if not numpy.can_cast(a.dtype, dt, "safe"):
        raise TypeError("Cannot cast array data from {!r} to {!r} according to the rule 'safe'".format(a.dtype, dt))
    return a.astype(dt, order="C", copy=not a._c or a.dtype != dt)


def _check_scalar(v, name):
    if v is None:
        return None
    if isinstance(v, ndarray):
        if v.ndim != 0:
            raise ValueError("{} must be a scalar or None".format(name))
        return v.get()[()]
    return v


def interp(x, xp, fp, left=None, right=None, period=None):
    """See `numpy.interp`; the result is float64, or complex128 for complex `fp`.

    Examples
    --------
    >>> import cuarray
    >>> xp, fp = cuarray.array([0., 1., 2.]), cuarray.array([0., 10., 20.])
    >>> cuarray.interp(cuarray.array([0.5, 1.5, 5.]), xp, fp)
    array([ 5., 15., 20.])
    """
    x, xp, fp = as_array(x, "interp"), as_array(xp, "interp"), as_array(fp, "interp")
    for v in (x, xp, fp):
        if v.dtype.kind in "Mm":  # NumPy's safe cast to float64 refuses them
            raise TypeError("Cannot cast array data from {!r} to dtype('float64') according to the rule "
                            "'safe'".format(v.dtype))
    is_complex = fp.dtype.kind == "c"
    fdt = _C16 if is_complex else _F8
    left, right = _check_scalar(left, "left"), _check_scalar(right, "right")
    if period is not None:
        if period == 0:
            raise ValueError("period must be a non-zero value")
        period = abs(period)
        left = right = None
        if xp.ndim != 1 or fp.ndim != 1:
            raise ValueError("Data points must be 1-D sequences")
        if xp.shape[0] != fp.shape[0]:
            raise ValueError("fp and xp are not of the same length")
        x = x.astype(_F8, copy=False) % period
        xp = xp.astype(_F8, copy=False) % period
        order = argsort(xp)
        xp = xp[order]
        fp = fp.astype(fdt, copy=False)[order]
        xp = concatenate((xp[-1:] - period, xp, xp[0:1] + period))
        fp = concatenate((fp[-1:], fp, fp[0:1]))
    # NumPy's order: fp, xp (complex xp fails its safe cast), x, then the lengths
    fp = _as_1d_sample(fp, fdt)
    xp = _as_1d_sample(xp, _F8)
    if x.dtype.kind == "c":
        raise TypeError("Cannot cast array data from dtype('complex128') to dtype('float64') according to the "
                        "rule 'safe'")
    if xp.shape[0] == 0 and x.size != 0:  # NumPy >= 2.5: an empty x needs no sample points
        raise ValueError("array of sample points is empty")
    if fp.shape[0] != xp.shape[0]:
        raise ValueError("fp and xp are not of the same length.")
    if not is_complex:
        return _run(x, xp, fp, left, right, "real", False)
    re = _run(x, xp, fp.real.copy(), left, right, "real", True)
    im = _run(x, xp, fp.imag.copy(), left, right, "imag", True)
    out = ndarray(x.shape, _C16)
    out.real = re
    out.imag = im
    return out
