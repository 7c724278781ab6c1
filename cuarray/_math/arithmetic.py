"""Arithmetic operations (NumPy "Mathematical functions / Arithmetic operations").

A row per ufunc: name, nin, nout, C expression(s). Expressions compute `out0` from `in0`, `in1`
in the loop's compute type (float16 computes in float; complex is `complex<T>`); keys other than
'default' select an expression by loop signature ('ff->f') or by the first input's kind
('bool', 'int', 'float', 'complex'). Device helpers live in _core/templates/cuarray/ops.cuh.

Differences from NumPy (docs/ufuncs.md): integer division and remainder by zero give 0 without
NumPy's RuntimeWarning; an integer `power` with a negative exponent raises ValueError only when
the exponent is a scalar (an array exponent cannot be checked without a device round trip; the
element is then the truncated 1/x**|n|: 1, -1 or 0).
"""

import numpy

from .._core import registry as _registry
from .._core.ndarray import ndarray as _ndarray
from .._core.ufunc import create_ufunc
from .._core.ufunc import ufunc as _ufunc
from .._core.ufunc_examples import EXAMPLES as _EXAMPLES

add = create_ufunc("add", 2, 1, {"default": "out0 = in0 + in1", "bool": "out0 = in0 || in1"}, identity=0)
subtract = create_ufunc("subtract", 2, 1, "out0 = in0 - in1")
multiply = create_ufunc("multiply", 2, 1, {"default": "out0 = in0 * in1", "bool": "out0 = in0 && in1"}, identity=1)
divide = create_ufunc("divide", 2, 1, "out0 = in0 / in1")
true_divide = divide
floor_divide = create_ufunc("floor_divide", 2, 1, "out0 = cuarray::floor_divide(in0, in1)")
negative = create_ufunc("negative", 1, 1, "out0 = -in0")
positive = create_ufunc("positive", 1, 1, "out0 = in0")
float_power = create_ufunc("float_power", 2, 1, "out0 = cuarray::power(in0, in1)")
remainder = create_ufunc("remainder", 2, 1, "out0 = cuarray::remainder(in0, in1)")
mod = remainder
fmod = create_ufunc("fmod", 2, 1, "out0 = cuarray::fmod(in0, in1)")
divmod = create_ufunc("divmod", 2, 2, "out0 = cuarray::divmod(in0, in1, out1)")  # noqa: A001
reciprocal = create_ufunc("reciprocal", 1, 1, "out0 = cuarray::reciprocal(in0)")


class _IntegerPowerUfunc(_ufunc):
    """`power`, plus NumPy's ValueError for a negative integer exponent given as a scalar.

    An array exponent is not inspected (that needs the device's data on the host); its negative
    elements give the truncated value of 1/x**|n| instead of an error.
    """

    def __call__(self, *args, **kwargs):
        if len(args) >= 2:
            a, b = args[0], args[1]
            if (type(b) is float or isinstance(b, numpy.floating)) and b == 0.5 and len(args) == 2:
                # NumPy's float32/float64 loop takes sqrt for a scalar exponent of 0.5 (so (-inf)**0.5
                # is nan, (-0.0)**0.5 is -0.0: C's pow gives inf and 0); float16's loop does not
                dt = getattr(a, "dtype", None)
                if (dt is not None and dt.char in "fd" and isinstance(a, _ndarray) and kwargs.keys() <= {"out", "where"}
                        and numpy.result_type(dt, b) == dt):
                    from .misc import sqrt  # (misc imports this module)

                    return sqrt(a, **kwargs)
            # (NumPy's loop raises at its first element: an empty base raises nothing)
            if (type(b) is int or isinstance(b, numpy.signedinteger)) and b < 0 and getattr(a, "size", 1):
                dt = getattr(a, "dtype", None)
                if type(b) is int:
                    a_kind = "i" if type(a) in (int, bool) else getattr(dt, "kind", "f")
                    # (an unsigned array with a negative Python int is NumPy's OverflowError, and a
                    # Python int below the dtype's range too: both raised by the call)
                    below_range = a_kind == "i" and dt is not None and b < numpy.iinfo(dt).min
                    if a_kind in "bi" and not below_range:
                        raise ValueError("Integers to negative integer powers are not allowed.")
                elif numpy.result_type(a if dt is None else dt, b).kind in "iu":  # uint64 with int64: float64
                    raise ValueError("Integers to negative integer powers are not allowed.")
        return super().__call__(*args, **kwargs)


# Registered as numpy.power's implementation, so `numpy.power(gpu_array, ...)` takes these checks too
# (the plain ufunc was registered before: NumPy's call skipped the ValueError and the 0.5 rule).
power = _registry.register_ufunc(_IntegerPowerUfunc(
    "power", 2, 1, "out0 = cuarray::power(in0, in1)",
    doc="See `numpy.power`. An integer array exponent's negative elements give the truncated 1/x**|n| "
        "(1, -1 or 0), not NumPy's ValueError (that check needs the device's data)." + _EXAMPLES["power"]))
pow = power  # noqa: A001  (NumPy 2's array-API alias)
