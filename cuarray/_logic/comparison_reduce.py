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

__all__ = ["isclose", "allclose", "array_equal", "array_equiv"]

_BOOL = numpy.dtype(bool)
# |x - y| <= atol + rtol * |y| for finite y; equal values (infinities included) are close; NaNs
# only with equal_nan. Same formula and order of operations as NumPy's isclose.
_ISCLOSE = ("out0 = (x == y) || (cuarray::isfinite(y) && cuarray::absolute(x - y) <= "
            "atol + rtol * cuarray::absolute(y)) || (equal_nan && cuarray::isnan(x) && cuarray::isnan(y))")
_defs: dict = {}


def _isclose_def(xd, yd, ct) -> Definition:
    key = (xd, yd, ct)
    d = _defs.get(key)
    if d is None:
        real = numpy.dtype(ct.char.lower()) if ct.kind == "c" else ct
        params = (KernelParam("x", "in", xd, ct), KernelParam("y", "in", yd, ct), KernelParam("rtol", "scalar", real),
                  KernelParam("atol", "scalar", real), KernelParam("equal_nan", "scalar", _BOOL),
                  KernelParam("out0", "out", _BOOL, _BOOL))
        d = _defs[key] = Definition("cuarray_isclose_{}_{}".format(xd.name, yd.name), params, _ISCLOSE)
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
    ct = _dtypes.normalize_dtype(numpy.result_type(a.dtype, b.dtype, 1.0))
    if ct.char == "e":
        ct = numpy.dtype(numpy.float32)
    shape = _shapes.broadcast_shapes(a.shape, b.shape)
    out = _new_c(shape, _BOOL)
    real = numpy.dtype(ct.char.lower()) if ct.kind == "c" else ct
    _isclose_def(a.dtype, b.dtype, ct).run((a, b, out), (real.type(rtol), real.type(atol), numpy.bool_(equal_nan)),
                                           shape)
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
