"""Arithmetic operations (NumPy "Mathematical functions / Arithmetic operations").

A row per ufunc: name, nin, nout, C expression(s). Expressions compute `out0` from `in0`, `in1`
in the loop's compute type (float16 computes in float; complex is `complex<T>`); keys other than
'default' select an expression by loop signature ('ff->f') or by the first input's kind
('bool', 'int', 'float', 'complex'). Device helpers live in _core/templates/cuarray/ops.cuh.

Differences from NumPy (docs/ufuncs.md): integer division and remainder by zero give 0 without
NumPy's RuntimeWarning; an integer `power` with a negative exponent raises ValueError only when
the exponent is a scalar; a negative element of a signed integer exponent array is found by a
check kernel launched after the power's own (no synchronisation) and raised as that ValueError at the
next synchronisation (the device error channel, _core/device_errors.py; docs/differences.md).
"""

import numpy

from .._core import device_errors as _errors
from .._core import registry as _registry
from .._core.elementwise import Definition as _Definition
from .._core.elementwise import KernelParam as _KernelParam
from .._core.ndarray import ndarray as _ndarray
from .._core.ufunc import create_ufunc
from .._core.ufunc import ufunc as _ufunc
from .._core.ufunc_examples import EXAMPLES as _EXAMPLES
from ..cuda import caches as _caches

add = create_ufunc("add", 2, 1, {"default": "out0 = in0 + in1", "bool": "out0 = in0 || in1"}, identity=0)
subtract = create_ufunc("subtract", 2, 1, "out0 = in0 - in1")
multiply = create_ufunc("multiply", 2, 1, {"default": "out0 = in0 * in1", "bool": "out0 = in0 && in1"}, identity=1)
# complex: NumPy's loop (Smith's ratio, then 1/d times each part: a subnormal d overflows 1/d, 0 * inf is NaN)
divide = create_ufunc("divide", 2, 1, {"complex": "out0 = cuarray::numpy_divide(in0, in1)", "default": "out0 = in0 / in1"})
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


_NEG_CHECKS = {}  # exponent dtype -> the check Definition
_caches.register("negative exponent check definitions", _NEG_CHECKS)


def _negative_exponent_check(dt):
    """The kernel that records a negative element of an integer exponent array `dt` in the device
    error channel (`cuarray::negative_power_error`): one launch over the exponent, no output."""
    d = _NEG_CHECKS.get(dt)
    if d is None:
        params = [_KernelParam("in0", "in", dt), _KernelParam("_err", "raw", numpy.dtype(numpy.uint64))]
        d = _NEG_CHECKS[dt] = _Definition(
            "cuarray_power_negative_exponent_check_" + dt.name, params,
            "if (in0 < 0) cuarray::negative_power_error(_err, (long long)in0);",
            preamble='#include "cuarray/indexing.cuh"')
    return d


def _int_result(a, b) -> bool:
    """Whether power(a, b) runs an integer loop (NumPy's rules, weak Python scalars included)."""
    ta = a._dtype if isinstance(a, _ndarray) else a
    tb = b._dtype if isinstance(b, _ndarray) else b
    return numpy.result_type(ta, tb).kind in "iu"


class _IntegerPowerUfunc(_ufunc):
    """`power`, plus NumPy's ValueError for a negative integer exponent.

    A scalar exponent is checked on the host, at the call. A signed integer exponent array of an
    integer loop is checked by a second launch over the exponent that records a negative element
    in the device error channel (raised as the ValueError at the next synchronisation); its
    elements give the truncated 1/x**|n| until then. `prepared2` (the operators' fast-path test)
    declines exactly these cases, so `a ** b` takes the checks too.
    """

    def prepared2(self, a, b):
        tb = type(b)
        if tb is int:
            if b < 0:
                return None
        elif tb is _ndarray and b._dtype.kind == "i":
            ta = type(a)
            if ta is int or (ta is _ndarray and a._dtype.kind in "biu"):
                return None  # an integer loop (uint64 with int64 is float64's: checked in __call__)
        return _ufunc.prepared2(self, a, b)

    def __call__(self, *args, **kwargs):
        if len(args) >= 2:
            a, b = args[0], args[1]
            if len(args) <= 3 and type(a) is _ndarray and kwargs.keys() <= {"out", "where"} and _scalar_exponent(a, b):
                # NumPy's float32/float64 loop with a stride-0 exponent of -1, 0, 0.5, 1 or 2 takes
                # 1/x, 1, sqrt, x or x*x (so (-inf)**0.5 is nan, (-0.0)**0.5 is -0.0, x**2 is
                # correctly rounded: C's pow differs); a host scalar's value is known, a 0-d array's
                # stays on the device: one kernel whose branch on the exponent is uniform
                return _power_scalar_rule(*args, **kwargs)
            # (NumPy's loop raises at its first element: an empty base raises nothing)
            if (type(b) is int or isinstance(b, numpy.signedinteger)) and b < 0 and getattr(a, "size", 1):
                dt = getattr(a, "dtype", None)
                if kwargs.get("out") is not None and dt is not None:
                    _out_casting_first(self._np, dt, b, kwargs)
                if type(b) is int:
                    a_kind = "i" if type(a) in (int, bool) else getattr(dt, "kind", "f")
                    # (an unsigned array with a negative Python int is NumPy's OverflowError, and a
                    # Python int below the dtype's range too (bool's and a Python int's dtype: int64):
                    # both raised by the call)
                    lo = numpy.iinfo(dt if a_kind == "i" and dt is not None else numpy.int64).min
                    below_range = b < lo
                    if a_kind in "bi" and not below_range:
                        raise ValueError("Integers to negative integer powers are not allowed.")
                elif numpy.result_type(a if dt is None else dt, b).kind in "iu":  # uint64 with int64: float64
                    raise ValueError("Integers to negative integer powers are not allowed.")
            if isinstance(b, _ndarray) and b._dtype.kind == "i" and _is_operand(a) and _int_result(a, b):
                result = super().__call__(*args, **kwargs)
                where = kwargs.get("where", True)
                # (a masked call computes only where the mask is True: the exponents elsewhere are
                # not NumPy's business, so they are zeroed for the check)
                _check_exponents(a, b if where is True else multiply(b, where), result)
                return result
        return super().__call__(*args, **kwargs)


def _out_casting_first(np_power, dt, b, kwargs) -> None:
    """NumPy checks out='s casting before its loop meets the negative exponent: its TypeError
    first (NumPy's own, on empty arrays: nothing is computed)."""
    outs = kwargs["out"] if isinstance(kwargs["out"], tuple) else (kwargs["out"],)
    o = outs[0]
    if isinstance(o, _ndarray):
        np_power(numpy.empty(0, dt), b, out=numpy.empty(0, o.dtype), casting=kwargs.get("casting", "same_kind"))


def _is_operand(a) -> bool:
    return isinstance(a, (_ndarray, int, bool, numpy.integer, numpy.bool_))


def _check_exponents(a, b, result) -> None:
    """Launch the negative-exponent check over `b` unless the call was empty (NumPy's loop raises
    at its first element: an empty result raises nothing)."""
    res = result[0] if isinstance(result, tuple) else result
    if b._size == 0 or (isinstance(a, _ndarray) and a._size == 0) or getattr(res, "_size", 1) == 0:
        return
    e = b if b._c else b.copy()
    _negative_exponent_check(e._dtype).run((e,), (), e._shape, raw=(_errors.error_buffer("power"),))
    _errors.after_launch()


# power with a scalar or 0-d exponent: NumPy's stride-0 fast path of its float32/float64 loops,
# decided per element on the device (not registered: numpy.power's implementation is `power`
# below, which calls this for those loops only). Named `power`, as the call it serves (its
# messages, repr, lazy-mode nodes and fusion weight are power's); its kernels are
# cuarray_power_scalar_rule_*.
_FAST_EXPONENTS = frozenset((-1, 0, 0.5, 1, 2))
_RULE = ("out0 = (in1 == {t}(2)) ? in0 * in0 : (in1 == {t}(0.5)) ? sqrt(in0) : (in1 == {t}(-1)) ? {t}(1) / in0"
         " : (in1 == {t}(1)) ? in0 : (in1 == {t}(0)) ? {t}(1) : cuarray::power(in0, in1)")
_power_scalar_rule = _ufunc("power", 2, 1, {"ff->f": _RULE.format(t="float"), "dd->d": _RULE.format(t="double"),
                                            "default": "out0 = cuarray::power(in0, in1)"}, kernel_name="power_scalar_rule")


def _scalar_exponent(a, b) -> bool:
    """Whether power(a, b) is NumPy's float32/float64 loop with a stride-0 exponent whose fast path
    can apply: a host number of those five values, or a 0-d real array (its value is on the device)."""
    tb = type(b)
    if tb is float or tb is int or isinstance(b, (numpy.floating, numpy.integer)):
        if tb is bool or b not in _FAST_EXPONENTS:
            return False
        return numpy.result_type(a._dtype, b).char in "fd"
    return tb is _ndarray and b._shape == () and b._dtype.kind in "fiu" and numpy.result_type(a._dtype, b._dtype).char in "fd"


# Registered as numpy.power's implementation, so `numpy.power(gpu_array, ...)` takes these checks too
# (the plain ufunc was registered before: NumPy's call skipped the ValueError and the 0.5 rule).
power = _registry.register_ufunc(_IntegerPowerUfunc(
    "power", 2, 1, "out0 = cuarray::power(in0, in1)",
    doc="See `numpy.power`. An integer array exponent's negative elements raise NumPy's ValueError at "
        "the next synchronisation (found on the device; docs/differences.md)." + _EXAMPLES["power"]))
pow = power  # noqa: A001  (NumPy 2's array-API alias)
