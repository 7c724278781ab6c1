"""Rounding (NumPy "Mathematical functions / Rounding").

`rint` rounds half to even (CUDA's rint, like C's in the default rounding mode). `floor`, `ceil`
and `trunc` have NumPy 2's bool and integer loops, which return the input unchanged. `around`
and `fix` are functions built from these ufuncs, the way NumPy builds them.
"""

import numpy

from .._core.copying import copyto_unchecked
from .._core.ndarray import ndarray
from .._core.ufunc import create_ufunc
from .arithmetic import divide, multiply

rint = create_ufunc("rint", 1, 1, {"default": "out0 = rint(in0)"})
floor = create_ufunc("floor", 1, 1, {"bool": "out0 = in0", "int": "out0 = in0", "default": "out0 = floor(in0)"})
ceil = create_ufunc("ceil", 1, 1, {"bool": "out0 = in0", "int": "out0 = in0", "default": "out0 = ceil(in0)"})
trunc = create_ufunc("trunc", 1, 1, {"bool": "out0 = in0", "int": "out0 = in0", "default": "out0 = trunc(in0)"})


def fix(x, out=None):
    """See `numpy.fix`. Rounds towards zero (the same values as `trunc`, signed zeros included).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.fix(cuarray.array([-2.5, 2.5]))
    array([-2.,  2.])
    """
    return trunc(x, out=out)


def around(a, decimals=0, out=None):
    """See `numpy.around`: half to even, through ``rint(a * 10**decimals) / 10**decimals``.

    Like NumPy, the scaling is done in the array's own type (so float16 and float32 results can
    differ from exact decimal rounding); integers with negative `decimals` are rounded in float64
    and cast back; booleans round as `rint` does (float16), and with `decimals` other than 0 only
    into a floating `out` (TypeError otherwise, as NumPy).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.round(cuarray.array([0.5, 1.5, 2.5]))
    array([0., 2., 2.])
    >>> cuarray.round(cuarray.array([1.234, 5.678]), 1)
    array([1.2, 5.7])
    """
    if not isinstance(a, ndarray):
        return numpy.around(a, decimals)
    decimals = int(decimals)
    kind = a.dtype.kind
    if kind == "b" and decimals != 0 and out is None:
        # NumPy scales into a result of the input's type: float64 into bool fails same_kind.
        # Its own exception (a UFuncTypeError, a TypeError subclass):
        numpy.around(numpy.zeros(1, bool), decimals)
        raise TypeError("Cannot cast ufunc '{}' output from dtype('float64') to dtype('bool') with casting rule "
                        "'same_kind'".format("multiply" if decimals > 0 else "divide"))
    if kind in "iu":
        if decimals >= 0:
            if out is None:
                return a.copy()

            copyto_unchecked(out, a)
            return out
        f = float(10 ** (-decimals))
        y = rint(divide(a.astype(numpy.float64), f))
        y = multiply(y, f, out=y)
        res = y.astype(a.dtype)
        if out is None:
            return res

        copyto_unchecked(out, res)
        return out
    if decimals == 0:
        return rint(a, out=out)
    if kind == "c":
        # NumPy rounds the real and the imaginary parts each (PyArray_Round): scaling the complex
        # value would put inf * 0 = NaN into the other part (round(-inf+0j, -1) is -inf+0j)
        re, im = around(a.real, decimals), around(a.imag, decimals)
        res = ndarray(a.shape, a.dtype) if out is None else out
        res.real = re
        res.imag = im
        return res
    if decimals > 0:
        f = float(10 ** decimals)
        y = multiply(a, f)
        rint(y, out=y)
        return divide(y, f, out=out)
    f = float(10 ** (-decimals))
    y = divide(a, f)
    rint(y, out=y)
    return multiply(y, f, out=out)


round = around  # noqa: A001  (numpy.round is numpy.around)
