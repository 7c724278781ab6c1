"""The Python built-ins `vectorize` compiles on elements: `min`/`max` (Python's rule), explicit
casts (`float(x)`, `numpy.float32(x)`: NumPy's result type and warnings), `math` functions (in
double, as Python computes them) and the `real`/`imag` attributes. A mixin of `FunctionCompiler`."""

from __future__ import annotations

import math
import operator

import numpy

from .._core import dtypes as _dtypes
from .._core.elementwise import compute_ctype

__all__ = ["Builtins"]

# `math` functions on elements: (C function of doubles, result dtype). Python computes them in double
# and returns a Python float (int for floor/ceil/trunc, bool for the predicates): NumPy's vectorize
# then stores float64, so the kernel computes in double too.
_F8, _I8, _B = numpy.dtype("f8"), numpy.dtype("i8"), numpy.dtype("?")
_MATH = {
    "sqrt": ("sqrt", _F8), "exp": ("exp", _F8), "expm1": ("expm1", _F8), "exp2": ("exp2", _F8),
    "log2": ("log2", _F8), "log10": ("log10", _F8), "log1p": ("log1p", _F8), "cbrt": ("cbrt", _F8),
    "sin": ("sin", _F8), "cos": ("cos", _F8), "tan": ("tan", _F8), "asin": ("asin", _F8),
    "acos": ("acos", _F8), "atan": ("atan", _F8), "sinh": ("sinh", _F8), "cosh": ("cosh", _F8),
    "tanh": ("tanh", _F8), "asinh": ("asinh", _F8), "acosh": ("acosh", _F8), "atanh": ("atanh", _F8),
    "erf": ("erf", _F8), "erfc": ("erfc", _F8), "gamma": ("tgamma", _F8), "lgamma": ("lgamma", _F8),
    "fabs": ("fabs", _F8), "atan2": ("atan2", _F8), "hypot": ("hypot", _F8), "pow": ("pow", _F8),
    "fmod": ("fmod", _F8), "copysign": ("copysign", _F8), "floor": ("floor", _I8),
    "ceil": ("ceil", _I8), "trunc": ("trunc", _I8), "isnan": ("isnan", _B), "isinf": ("isinf", _B),
    "isfinite": ("isfinite", _B),
}


def _is_element(v) -> bool:
    return hasattr(v, "_tracer") and hasattr(v, "expr")


class Builtins:
    """Calls and attributes of elements (methods of `FunctionCompiler`)."""

    def _attribute(self, v, attr):
        if attr == "real":
            return self._cast(v, numpy.empty(0, v.dtype).real.dtype) if v.dtype.kind == "c" else v
        if attr == "imag":
            if v.dtype.kind != "c":
                return v.dtype.type(0)
            rt = numpy.empty(0, v.dtype).real.dtype
            t = self._temp(rt)
            self._emit("const {} {} = {}.imag();".format(compute_ctype(rt), t, v.expr))
            return self.Element(self.tr, rt, t)
        if attr in ("conjugate", "conj"):
            return getattr(v, attr)
        if attr == "dtype":
            return v.dtype
        raise TypeError("vectorize: an element has no attribute {!r} inside a vectorized function".format(attr))

    def _minmax(self, fn, args, kwargs):
        if kwargs:
            raise TypeError("keyword arguments are not supported")
        if len(args) == 1:
            args = tuple(args[0])
        if len(args) < 2:
            raise TypeError("{}() expects at least 2 arguments, got {}".format(fn.__name__, len(args)))
        best = args[0]
        # Python's rule, kept exactly (NaN included): a later value replaces the best only when it
        # compares strictly greater (max) or less (min).
        better = operator.gt if fn is max else operator.lt
        for v in args[1:]:
            c = better(v, best)
            if _is_element(c):
                best = self._select(self._truth(c), lambda v=v: v, lambda b=best: b)
            elif c:
                best = v
        return best

    def _explicit_cast(self, fn, args, kwargs):
        if len(args) != 1 or kwargs:
            raise TypeError("vectorize: {}() takes one element inside a vectorized function".format(fn.__name__))
        v = args[0]
        # The result type (and any warning or error) is what the cast does to a NumPy scalar of the
        # element's type: float(complex) warns ComplexWarning, numpy.int8(x) is int8, int(x) is int64.
        sample = fn(v.dtype.type(1))
        dt = _dtypes.normalize_dtype(numpy.asarray(sample).dtype)
        if dt not in _dtypes.SUPPORTED_DTYPES:
            raise TypeError("vectorize: {}() gives a {} value, which cannot be an element".format(fn.__name__, dt))
        return self._cast(v, dt, type(sample) in (bool, int, float, complex))

    def _math(self, fn, args, kwargs):
        name = fn.__name__
        if kwargs:
            raise TypeError("{}() takes no keyword arguments".format(name))
        samples = [a.dtype.type(1) if _is_element(a) else a for a in args]
        try:  # NumPy's warnings and TypeErrors of this call on scalars (complex, wrong count)
            fn(*samples)
        except (ValueError, OverflowError, ZeroDivisionError):
            pass
        dbl = [self._c_value(a, _F8) for a in args]
        if name == "log":
            expr = "log({})".format(dbl[0]) if len(dbl) == 1 else "(log({}) / log({}))".format(*dbl)
            dt = _F8
        elif name in ("degrees", "radians"):
            f = 180.0 / math.pi if name == "degrees" else math.pi / 180.0
            expr, dt = "({} * {!r})".format(dbl[0], f), _F8
        elif name == "ldexp":
            expr, dt = "ldexp({}, (int){})".format(dbl[0], self._c_value(args[1], _I8)), _F8
        elif name in _MATH:
            cfn, dt = _MATH[name]
            expr = "{}({})".format(cfn, ", ".join(dbl))
            if dt == _I8:
                expr = "cuarray::cast<long long>({})".format(expr)
        else:
            raise TypeError("vectorize: math.{}() of an element is not supported".format(name))
        t = self._temp(dt)
        self._emit("const {} {} = {};".format(compute_ctype(dt), t, expr))
        return self.Element(self.tr, dt, t, True)  # (math returns Python numbers: weak)
