"""Miscellaneous (NumPy "Mathematical functions / Miscellaneous"), plus `i0` and `sinc` from
"Special functions" / "Other special functions".

`clip`, `nan_to_num`, `i0` and `sinc` are functions (not ufuncs) with NumPy's signatures and type
rules; `clip` runs NumPy's internal 3-input `clip` ufunc loops, the others small kernels of their own.
"""

from __future__ import annotations

import numpy

from .._core import dtypes as _dtypes
from .._core import tracing as _tracing
from .._core.elementwise import Definition, KernelParam
from .._core.host_input import as_parameter, is_scalar
from .._core.ndarray import ndarray
from .._core.ufunc import create_ufunc
from .arithmetic import positive
from .extrema import maximum, minimum
from ..cuda import caches as _caches
from .._manipulation.basic import copyto
from .._logic.content import isnan

sqrt = create_ufunc("sqrt", 1, 1, "out0 = sqrt(in0)")
cbrt = create_ufunc("cbrt", 1, 1, "out0 = cbrt(in0)")
square = create_ufunc("square", 1, 1, "out0 = in0 * in0")
absolute = create_ufunc("absolute", 1, 1, "out0 = cuarray::absolute(in0)")
abs = absolute  # noqa: A001
fabs = create_ufunc("fabs", 1, 1, "out0 = fabs(in0)")
sign = create_ufunc("sign", 1, 1, "out0 = cuarray::sign(in0)")
heaviside = create_ufunc("heaviside", 2, 1, "out0 = cuarray::heaviside(in0, in1)")

# NumPy's `clip` function calls the 3-input ufunc `numpy._core.umath.clip` (not public); this row
# mirrors it so the loops and type resolution are NumPy's.
_clip = create_ufunc("clip", 3, 1, "out0 = cuarray::clip(in0, in1, in2)", np_name="add")
_clip._np = numpy._core.umath.clip


def clip(a, a_min=numpy._NoValue, a_max=numpy._NoValue, out=None, *, min=numpy._NoValue,  # noqa: A002
         max=numpy._NoValue, **kwargs):  # noqa: A002
    """See `numpy.clip` (NumPy 2 rules: NaN bounds propagate; Python int bounds beyond the integer
    type's range are dropped instead of overflowing).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.clip(cuarray.arange(6), 1, 4)
    array([1, 1, 2, 3, 4, 4])
    >>> cuarray.clip(cuarray.array([0.5, cuarray.nan, 2.]), 0., 1.)
    array([0.5, nan, 1. ])
    """
    if _tracing.active:  # the dispatch point for a tracer (`_core/tracing.py`)
        t = _tracing.state.tracer
        if t is not None:
            return t.call("clip", clip, (a, a_min, a_max), dict(out=out, min=min, max=max, **kwargs))
    if a_min is not numpy._NoValue and min is not numpy._NoValue:
        raise ValueError("Passed `min` and `a_min`, use only one.")
    if a_max is not numpy._NoValue and max is not numpy._NoValue:
        raise ValueError("Passed `max` and `a_max`, use only one.")
    lo = None if a_min is numpy._NoValue and min is numpy._NoValue else (min if a_min is numpy._NoValue else a_min)
    hi = None if a_max is numpy._NoValue and max is numpy._NoValue else (max if a_max is numpy._NoValue else a_max)
    if isinstance(a, ndarray) and a.dtype.kind in "iu":
        info = numpy.iinfo(a.dtype)
        if type(lo) is int and lo <= info.min:
            lo = None
        if type(hi) is int and hi >= info.max:
            hi = None
    if lo is None and hi is None:
        return positive(a, out=out, **kwargs)
    if lo is None:
        return minimum(a, hi, out=out, **kwargs)
    if hi is None:
        return maximum(a, lo, out=out, **kwargs)
    return _clip(a, lo, hi, out=out, **kwargs)


# -- small kernels of their own ------------------------------------------------------------------------
_defs: dict = {}
_caches.register("math misc definitions", _defs)


def _unary_definition(name: str, operation: str, in_dtype, compute, out_dtype, scalars=()) -> Definition:
    key = (name, operation, in_dtype, compute, out_dtype, scalars)  # (the op too: a caller's other op is another kernel)
    d = _defs.get(key)
    if d is None:
        params = [KernelParam("in0", "in", in_dtype, compute)]
        params += [KernelParam(s, "scalar", dt, dt) for s, dt in scalars]
        params.append(KernelParam("out0", "out", out_dtype, compute))
        kname = "cuarray_{}_{}".format(name, in_dtype.name)
        if out_dtype != compute:
            kname += "_to_" + out_dtype.name
        d = _defs[key] = Definition(kname, params, operation)
    return d


def _scalar(value, dtype):
    """A kernel scalar of `dtype`'s compute type (float16 values travel as float32)."""
    v = dtype.type(value)
    return numpy.float32(v) if dtype.char == "e" else v


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """See `numpy.nan_to_num`. Complex values are handled part by part.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.nan_to_num(cuarray.array([cuarray.nan, cuarray.inf, -1.]), posinf=9.)
    array([ 0.,  9., -1.])
    """
    if not isinstance(x, ndarray):
        return numpy.nan_to_num(x, copy=copy, nan=nan, posinf=posinf, neginf=neginf)
    dt = x.dtype
    if dt.kind not in "fc":
        return x.copy() if copy else x
    part = numpy.dtype(dt.char.lower()) if dt.kind == "c" else dt
    info = numpy.finfo(part)
    vals = (nan, info.max if posinf is None else posinf, info.min if neginf is None else neginf)
    if not all(is_scalar(v) for v in vals):
        return _nan_to_num_arrays(x, copy, vals)
    vals = tuple(_scalar(v, part) for v in vals)
    if dt.kind == "c":
        op = ("out0 = complex<{t}>(cuarray::nan_to_num(in0.re, nan, posinf, neginf), "
              "cuarray::nan_to_num(in0.im, nan, posinf, neginf))").format(t=_dtypes.ctype(part))
    else:
        op = "out0 = cuarray::nan_to_num(in0, nan, posinf, neginf)"
    d = _unary_definition("nan_to_num", op, dt, dt, dt, (("nan", part), ("posinf", part), ("neginf", part)))
    out = ndarray(x.shape, dt) if copy else x
    d.run((x, out), vals, x.shape)
    return out


def _nan_to_num_arrays(x: ndarray, copy: bool, vals) -> ndarray:
    """nan_to_num with array values (NumPy broadcasts them, CuPy takes them too; host arrays are
    parameters, copied): three masked copies per real part, as NumPy's own implementation."""
    from .._logic.type_testing import isneginf, isposinf  # cycle: type_testing imports absolute from here

    vals = [v if is_scalar(v) else as_parameter(v, "nan_to_num") for v in vals]
    out = x.copy() if copy else x
    parts = (out.real, out.imag) if x.dtype.kind == "c" else (out,)
    for p in parts:
        nan_mask, pos_mask, neg_mask = isnan(p), isposinf(p), isneginf(p)
        for value, mask in zip(vals, (nan_mask, pos_mask, neg_mask)):
            copyto(p, value, casting="unsafe", where=mask)
    return out


def _float_result(x: ndarray):
    """The float dtype NumPy's `x * pi` gives: ints and bool -> float64, floats keep theirs."""
    return numpy.result_type(x.dtype, 1.0) if x.dtype.kind != "b" else numpy.dtype(numpy.float64)


def i0(x):
    """See `numpy.i0`: the modified Bessel function of the first kind, order 0 (CUDA's
    `cyl_bessel_i0`). Complex input raises TypeError like NumPy; the result keeps a float dtype
    and is float64 for integer input. i0(+-inf) is NaN, as NumPy's (its large-argument formula
    divides inf by inf; SciPy's i0 gives inf). float16 input is computed in float32 (NumPy
    computes in float16: results may differ in the last bit).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.i0(cuarray.array([0., 1.]))
    array([1.        , 1.26606588])
    """
    if not isinstance(x, ndarray):
        return numpy.i0(x)
    if x.dtype.kind == "c":
        raise TypeError("i0 not supported for complex values")
    out_dt = x.dtype if x.dtype.kind == "f" else numpy.dtype(numpy.float64)
    compute = numpy.dtype(numpy.float64) if out_dt == numpy.float64 else numpy.dtype(numpy.float32)
    fn = "cyl_bessel_i0f" if compute == numpy.float32 else "cyl_bessel_i0"
    d = _unary_definition("i0", "out0 = ::isinf(in0) ? in0 - in0 : {}(fabs(in0))".format(fn), x.dtype, compute, out_dt)
    out = ndarray(x.shape, out_dt)
    d.run((x, out), (), x.shape)
    return out


def sinc(x):
    """See `numpy.sinc`: sin(pi x)/(pi x), 1 at 0.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.sinc(cuarray.array([0., 0.5, -0.5]))
    array([1.        , 0.63661977, 0.63661977])
    """
    if not isinstance(x, ndarray):
        return numpy.sinc(x)
    out_dt = _float_result(x)
    compute = out_dt
    op = "out0 = cuarray::sinc_half(in0)" if out_dt.char == "e" else "out0 = cuarray::sinc(in0)"
    d = _unary_definition("sinc", op, x.dtype, compute, out_dt)
    out = ndarray(x.shape, out_dt)
    d.run((x, out), (), x.shape)
    return out
