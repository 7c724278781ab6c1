"""Evaluation of a series at a device array in one kernel: each thread runs the basis's Clenshaw
recurrence (Horner's rule for power series) over the coefficients for its x.

NumPy's *val steps through the coefficients with whole-array operations: three or four passes
over x per coefficient. One kernel reads x once and writes the result once, so evaluating a
degree-n series over a large x costs one pass instead of ~4n. The operations are NumPy's, in its
order, in the result type R (the coefficients are converted to R first; x is converted per
element). One row per basis: (operation, kernel name).
"""

from __future__ import annotations

import numpy

from .._core import dtypes as _dtypes
from .._core.copying import copy as _copy
from .._core.elementwise import Definition, KernelParam
from .._core.ndarray import ndarray
from .._creation.basic import empty
from ..cuda import caches as _caches

__all__ = ["ROWS", "definition", "evaluate"]

_I4 = numpy.dtype(numpy.int32)
_defs: dict = {}
_caches.register("polynomial evaluation definitions", _defs)

# c[n - i] is NumPy's c[-i]; nd is NumPy's running degree (n - i + 2 at step i).
ROWS = {
    "poly": ("const R t = (R)x; R c0 = c[n - 1] + t * R(0); "
             "for (int k = n - 2; k >= 0; --k) c0 = c[k] + c0 * t; y = c0",
             "cuarray_polyval"),
    "cheb": ("const R t = (R)x; R c0 = c[0], c1 = R(0); "
             "if (n == 2) c1 = c[1]; "
             "if (n > 2) { const R t2 = R(2) * t; c0 = c[n - 2]; c1 = c[n - 1]; "
             "for (int i = 3; i <= n; ++i) { const R s = c0; c0 = c[n - i] - c1; c1 = s + c1 * t2; } } "
             "y = c0 + c1 * t",
             "cuarray_chebval"),
    "leg": ("const R t = (R)x; R c0 = c[0], c1 = R(0); "
            "if (n == 2) c1 = c[1]; "
            "if (n > 2) { c0 = c[n - 2]; c1 = c[n - 1]; "
            "for (int i = 3; i <= n; ++i) { const int nd = n - i + 2; const R s = c0; "
            "c0 = c[n - i] - c1 * R((double)(nd - 1) / nd); c1 = s + c1 * t * R((double)(2 * nd - 1) / nd); } } "
            "y = c0 + c1 * t",
            "cuarray_legval"),
    "lag": ("const R t = (R)x; R c0 = c[0], c1 = R(0); "
            "if (n == 2) c1 = c[1]; "
            "if (n > 2) { c0 = c[n - 2]; c1 = c[n - 1]; "
            "for (int i = 3; i <= n; ++i) { const int nd = n - i + 2; const R s = c0; "
            "c0 = c[n - i] - c1 * R(nd - 1) / R(nd); c1 = s + c1 * (R(2 * nd - 1) - t) / R(nd); } } "
            "y = c0 + c1 * (R(1) - t)",
            "cuarray_lagval"),
    "herm": ("const R t = (R)x; const R t2 = t * R(2); R c0 = c[0], c1 = R(0); "
             "if (n == 2) c1 = c[1]; "
             "if (n > 2) { c0 = c[n - 2]; c1 = c[n - 1]; "
             "for (int i = 3; i <= n; ++i) { const int nd = n - i + 2; const R s = c0; "
             "c0 = c[n - i] - c1 * R(2 * (nd - 1)); c1 = s + c1 * t2; } } "
             "y = c0 + c1 * t2",
             "cuarray_hermval"),
    "herme": ("const R t = (R)x; R c0 = c[0], c1 = R(0); "
              "if (n == 2) c1 = c[1]; "
              "if (n > 2) { c0 = c[n - 2]; c1 = c[n - 1]; "
              "for (int i = 3; i <= n; ++i) { const int nd = n - i + 2; const R s = c0; "
              "c0 = c[n - i] - c1 * R(nd - 1); c1 = s + c1 * t; } } "
              "y = c0 + c1 * t",
              "cuarray_hermeval"),
}


def definition(basis, x_kind, x_dt, r_dt) -> Definition:
    """The engine's elementwise kernel evaluating `basis` at x (`x_kind` 'in': an array of `x_dt`;
    'scalar': a number of `x_dt`) with coefficients and result of dtype `r_dt`."""
    key = (basis, x_kind, x_dt, r_dt)
    d = _defs.get(key)
    if d is None:
        op, name = ROWS[basis]
        params = [KernelParam("x", x_kind, x_dt, x_dt), KernelParam("c", "raw", r_dt, r_dt),
                  KernelParam("n", "scalar", _I4, _I4), KernelParam("y", "out", r_dt, r_dt, by_ref=True)]
        preamble = "typedef {} R;\ntypedef {} X;\n".format(_dtypes.ctype(r_dt), _dtypes.ctype(x_dt))
        d = _defs[key] = Definition("{}_{}_{}_int32_{}".format(name, x_dt.name, r_dt.name, r_dt.name), params, op,
                                    preamble=preamble)
    return d


_SCALARS = (bool, int, float, complex, numpy.generic)


def evaluate(basis, x, c):
    """The series' values at `x` in one kernel, or None where the kernel does not apply (x neither
    a device array nor a number; coefficients with more than one axis of their own; half precision;
    an empty series, whose error NumPy's path raises). `c` is *val's coefficient array after its
    tensor reshape. A number `x` gives a 0-d array, computed in the type NumPy gives (a Python
    number is weak, NEP 50)."""
    n = c.shape[0]
    if n == 0 or n > numpy.iinfo(numpy.int32).max:
        return None
    if isinstance(x, ndarray):
        if c.ndim - 1 > x.ndim or any(s != 1 for s in c.shape[1:]):
            return None
        r = numpy.result_type(c.dtype, x.dtype)
        if x.dtype.kind == "c" and x.dtype != r:
            x = x.astype(r)  # the kernel's complex type converts from real types only
        shape = x.shape
    elif isinstance(x, _SCALARS) and c.ndim == 1:
        r = numpy.result_type(c.dtype, x)
        shape = ()
    else:
        return None
    if r.kind not in "fc" or r.itemsize < 4:  # float16 stays on the whole-array path
        return None
    if not isinstance(x, ndarray):
        x = r.type(x)  # a typed scalar argument: X is R
    out = empty(shape, dtype=r)
    c = c.reshape((n,)).astype(r, copy=False)
    if not c.flags.c_contiguous:
        c = _copy(c)  # the kernel reads the coefficients as a flat buffer
    if isinstance(x, ndarray):
        definition(basis, "in", x.dtype, r).run([x, out], (numpy.int32(n),), shape, raw=(c,))
    else:
        definition(basis, "scalar", r, r).run([out], (x, numpy.int32(n)), shape, raw=(c,))
    return out
