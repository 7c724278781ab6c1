"""The twiddle products of the DCT/DST (`_realtransforms`), each one kernel that makes its twiddle
`exp(i (a k + b))` as it goes, k the index along the last axis, the phase in double precision
(k reaches 2^26 and more; a float32 phase is off by whole radians there).

Made as arrays first, a 2^26-point dct2 spent five passes building the complex128 twiddle and two
more multiplying it and taking the real part (docs/perf-notes.md)."""

from __future__ import annotations

import numpy

from .._core import dtypes as _dtypes
from .._core.elementwise import Definition, KernelParam
from .._creation.basic import empty
from ..cuda import caches as _caches

__all__ = ["rotate", "rotate_part", "definition"]

_F8, _I8, _I4 = numpy.dtype(numpy.float64), numpy.dtype(numpy.int64), numpy.dtype(numpy.int32)
_PHASE = "double s_, c_; sincos(a * (double)(i % n) + b, &s_, &c_); "
# (input name, input type name, scalars, output type name, operation, kernel name)
_ROWS = {
    "rotate": ("x", "X", (("a", _F8), ("b", _F8), ("n", _I8), ("scale", _F8)), "C",
               _PHASE + "const double xs_ = scale * (double)x; y = C(xs_ * c_, xs_ * s_)", "cuarray_dct_rotate"),
    "rotate_part": ("v", "V", (("a", _F8), ("b", _F8), ("n", _I8), ("part", _I4), ("scale", _F8)), "R",
                    _PHASE + "const double re_ = (double)v.real(), im_ = (double)v.imag(); "
                    "y = (R)(scale * (part ? re_ * s_ + im_ * c_ : re_ * c_ - im_ * s_))",
                    "cuarray_dct_rotate_part"),
}
_defs: dict = {}
_caches.register("DCT/DST twiddle definitions", _defs)


def definition(name, in_dt, out_dt) -> Definition:
    """The twiddle product `name` from `in_dt` to `out_dt` (the engine's elementwise kernel)."""
    key = (name, in_dt, out_dt)
    d = _defs.get(key)
    if d is None:
        x, tx, scalars, ty, op, kname = _ROWS[name]
        params = [KernelParam(x, "in", in_dt, in_dt)] + [KernelParam(n, "scalar", dt, dt) for n, dt in scalars]
        params.append(KernelParam("y", "out", out_dt, out_dt, by_ref=True))
        types = "_".join(dt.name for dt in (in_dt,) + tuple(dt for _, dt in scalars) + (out_dt,))
        preamble = "typedef {} {};\ntypedef {} {};\n".format(_dtypes.ctype(out_dt), ty, _dtypes.ctype(in_dt), tx)
        d = _defs[key] = Definition("{}_{}".format(kname, types), params, op, preamble=preamble)
    return d


def rotate(x, a, b, dtype, scale=1.0):
    """`scale * x_k * exp(i (a k + b))` along the last axis of real `x`, complex of `dtype`."""
    out = empty(x.shape, dtype=dtype)
    if out.size:
        scalars = (numpy.float64(a), numpy.float64(b), numpy.int64(x.shape[-1]), numpy.float64(scale))
        definition("rotate", x.dtype, out.dtype).run([x, out], scalars, out.shape)
    return out


def rotate_part(v, a, b, part, scale=1.0):
    """The real (`part` 0) or imaginary (1) part of `scale * v_k * exp(i (a k + b))` along the
    last axis of complex `v`, in `v`'s real type."""
    out = empty(v.shape, dtype=numpy.finfo(v.dtype).dtype)  # (v.real could copy)
    if out.size:
        scalars = (numpy.float64(a), numpy.float64(b), numpy.int64(v.shape[-1]), numpy.int32(part),
                   numpy.float64(scale))
        definition("rotate_part", v.dtype, out.dtype).run([v, out], scalars, out.shape)
    return out
