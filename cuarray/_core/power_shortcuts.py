"""NumPy's shortcuts for the `**` operator of an ndarray with a Python scalar exponent (number.c's
fast_scalar_power): `a ** 2` is square (a numeric or bool array), `a ** -1` reciprocal and
`a ** 0.5` sqrt (a float or complex array). Their types and special values differ from power's
(bool ** 2 is int8, power's int64; complex (-inf+0j) ** -1 is -0-0j, power's nan+nanj), so the
eager operator (`_array_methods`) and lazy mode's (`fusion.lazy_mode`) both take them from here."""

from __future__ import annotations

__all__ = ["shortcut"]


def shortcut(kind: str, exponent):
    """The ufunc name NumPy's `a ** exponent` calls for an array of dtype kind `kind` instead of
    power ('square', 'reciprocal', 'sqrt'), or None (then it is power). Only an exact Python int
    or float exponent: a bool, a NumPy scalar or 2.0 is power's."""
    t = type(exponent)
    if t is int:
        if exponent == 2 and kind in "biufc":
            return "square"
        if exponent == -1 and kind in "fc":
            return "reciprocal"
    elif t is float and exponent == 0.5 and kind in "fc":
        return "sqrt"
    return None
