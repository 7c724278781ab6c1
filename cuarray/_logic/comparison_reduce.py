"""Comparison (NumPy "Logic functions / Comparison"): isclose (elementwise), allclose,
array_equal, array_equiv (reductions).

GPU difference: allclose, array_equal and array_equiv return Python bools, as NumPy does, so they
synchronise with the device once.
"""

from __future__ import annotations

import numpy

from .._core import dtypes as _dtypes
from .._core import reduction_ops as _r
from .._core import shapes as _shapes
from .._core.elementwise import Definition, KernelParam
from .._core.host_input import as_array
from .._core.ndarray import _new_c
from .comparison import equal
from .content import isnan
from .ops import logical_and, logical_or
from ..cuda import caches as _caches

__all__ = ["isclose", "allclose", "array_equal", "array_equiv"]

_BOOL = numpy.dtype(bool)
# |x - y| <= atol + rtol * |y| for finite y; equal values (infinities included) are close; NaNs
# only with equal_nan. Same formula and order of operations as NumPy's isclose, whose tolerance
# is computed in y's float type (NEP 50: Python-float rtol/atol are weak): isclose(1e-30+0j,
# float16(-0.)) is False, as float16's atol + rtol * 0 is 0 (fuzz seed 4). The kernel computes in
# `ct` and rounds each step to the narrower type NumPy takes it in (`_rounded`).
_ISCLOSE = ("out0 = (x == y) || (cuarray::isfinite(y) && {diff} <= {tol}) "
            "|| (equal_nan && cuarray::isnan(x) && cuarray::isnan(y))")
_defs: dict = {}
_caches.register("isclose definitions", _defs)


def _real(dt):
    return numpy.dtype(dt.char.lower()) if dt.kind == "c" else dt


def _rounded(expr, dt, acc) -> str:
    """`expr` (computed in `acc`) rounded to the narrower `dt`, as a value of `acc`."""
    if dt == acc:
        return expr
    return "cuarray::cast<{}>(cuarray::cast<{}>({}))".format(_dtypes.ctype(acc), _dtypes.ctype(dt), expr)


def _tolerance_types(yt, rtol, atol, acc):
    """(y's real type, rtol * |y|'s, the tolerance's): NumPy's promotions of the tolerance, or
    `acc` for each where one is not a float type within `acc` (a wider scalar: computed in acc)."""
    ty = _real(yt)
    try:
        t1 = numpy.result_type(ty, rtol)
        t2 = numpy.result_type(t1, atol)
    except TypeError:
        return acc, acc, acc
    if any(t.kind != "f" or t.itemsize > acc.itemsize for t in (t1, t2)):
        return acc, acc, acc
    return ty, t1, t2


def _isclose_def(xd, yd, ct, types, half_diff) -> Definition:
    key = (xd, yd, ct, types, half_diff)
    d = _defs.get(key)
    if d is None:
        real = _real(ct)
        ty, t1, t2 = types
        diff = "(x - y)" if not half_diff else _rounded("(x - y)", numpy.dtype(numpy.float16), real)
        prod = _rounded("rtol * " + _rounded("cuarray::absolute(y)", ty, real), t1, real)
        op = _ISCLOSE.format(diff="cuarray::absolute({})".format(diff), tol=_rounded("atol + " + prod, t2, real))
        params = (KernelParam("x", "in", xd, ct), KernelParam("y", "in", yd, ct), KernelParam("rtol", "scalar", real),
                  KernelParam("atol", "scalar", real), KernelParam("equal_nan", "scalar", _BOOL),
                  KernelParam("out0", "out", _BOOL, _BOOL))
        d = _defs[key] = Definition("cuarray_isclose_{}_{}".format(xd.name, yd.name), params, op)
    return d


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """See `numpy.isclose`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.isclose(cuarray.array([1., 2.]), cuarray.array([1. + 1e-9, 2.1]))
    array([ True, False])
    """
    a, b = as_array(a, "isclose"), as_array(b, "isclose")
    # NumPy casts y to an inexact type first (integers: float64), then computes with x
    yt = numpy.result_type(b.dtype, 1.0)
    ct = _dtypes.normalize_dtype(numpy.result_type(a.dtype, yt))
    half_diff = ct.char == "e"  # NumPy's x - y rounds to float16 (computed here in float32)
    if half_diff:
        ct = numpy.dtype(numpy.float32)
    real = _real(ct)
    types = _tolerance_types(yt, rtol, atol, real)
    shape = _shapes.broadcast_shapes(a.shape, b.shape)
    out = _new_c(shape, _BOOL)
    # rtol and atol as NumPy casts them (to rtol * |y|'s and the sum's types), then held in `real`
    r, t = real.type(types[1].type(rtol)), real.type(types[2].type(atol))
    _isclose_def(a.dtype, b.dtype, ct, types, half_diff).run((a, b, out), (r, t, numpy.bool_(equal_nan)), shape)
    return out


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False) -> bool:
    """See `numpy.allclose`. Returns a Python bool (one synchronisation).

    Examples
    --------
    >>> import cuarray
    >>> bool(cuarray.allclose(cuarray.array([1., 2.]), cuarray.array([1., 2. + 1e-9])))
    True
    """
    return bool(_r.reduce("all", isclose(a, b, rtol, atol, equal_nan)).get())


def array_equal(a1, a2, equal_nan=False) -> bool:
    """See `numpy.array_equal`. Returns a Python bool (one synchronisation).

    Examples
    --------
    >>> import cuarray
    >>> bool(cuarray.array_equal(cuarray.array([1, 2]), cuarray.array([1, 2])))
    True
    """
    a1, a2 = as_array(a1, "array_equal"), as_array(a2, "array_equal")
    if a1.shape != a2.shape:
        return False
    if a1.size == 0:
        return True

    eq = equal(a1, a2)
    if equal_nan and (a1.dtype.kind in "fc" or a2.dtype.kind in "fc"):
        eq = logical_or(eq, logical_and(isnan(a1), isnan(a2)))
    return bool(_r.reduce("all", eq).get())


def array_equiv(a1, a2) -> bool:
    """See `numpy.array_equiv`: equal after broadcasting. Returns a Python bool.

    Examples
    --------
    >>> import cuarray
    >>> bool(cuarray.array_equiv(cuarray.array([1, 2]), cuarray.array([[1, 2], [1, 2]])))
    True
    """
    a1, a2 = as_array(a1, "array_equiv"), as_array(a2, "array_equiv")
    try:
        _shapes.broadcast_shapes(a1.shape, a2.shape)
    except ValueError:
        return False

    return bool(_r.reduce("all", equal(a1, a2)).get())
