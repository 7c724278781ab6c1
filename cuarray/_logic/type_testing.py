"""Array type testing (NumPy "Logic functions / Array type testing"): iscomplex, iscomplexobj,
isreal, isrealobj, isneginf, isposinf, isfortran, and `real_if_close` (NumPy's "Handling complex
numbers"), which needs one host read of `all(...)` to choose its result type.

`isscalar` is NumPy's, re-exported: a cuarray 0-d array is not a scalar, as a NumPy 0-d array is not.
"""

from __future__ import annotations

import numpy

from .._core.host_input import as_array
from .._core.ndarray import ndarray
from .._creation.basic import zeros
from .._math.floating import signbit
from .._math.misc import absolute
from .content import isinf
from .ops import logical_and, logical_not

__all__ = ["iscomplex", "iscomplexobj", "isreal", "isrealobj", "isneginf", "isposinf", "isfortran",
           "real_if_close"]


def iscomplexobj(x) -> bool:
    """See `numpy.iscomplexobj` (the dtype decides, not the values).

    Examples
    --------
    >>> import cuarray
    >>> bool(cuarray.iscomplexobj(cuarray.array([1 + 0j])))
    True
    """
    dt = x.dtype if hasattr(x, "dtype") else numpy.asarray(x).dtype
    return dt.kind == "c"


def isrealobj(x) -> bool:
    """See `numpy.isrealobj`.

    Examples
    --------
    >>> import cuarray
    >>> bool(cuarray.isrealobj(cuarray.array([1.])))
    True
    """
    return not iscomplexobj(x)


def iscomplex(x) -> ndarray:
    """See `numpy.iscomplex`: a bool array, True where the imaginary part is nonzero.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.iscomplex(cuarray.array([1 + 1j, 1 + 0j, 2]))
    array([ True, False, False])
    """
    a = as_array(x, "iscomplex")
    if a.dtype.kind == "c":
        return a.imag != 0
    return zeros(a.shape, bool)


def isreal(x) -> ndarray:
    """See `numpy.isreal`: a bool array, True where the imaginary part is zero.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.isreal(cuarray.array([1 + 1j, 1 + 0j, 2]))
    array([False,  True,  True])
    """
    a = as_array(x, "isreal")
    if a.dtype.kind == "c":
        return a.imag == 0
    out = zeros(a.shape, bool)
    out.fill(True)
    return out


def _signbit(x, fn):
    try:
        return signbit(x)
    except TypeError as e:
        raise TypeError("This operation is not supported for {} values because it would be "
                        "ambiguous.".format(as_array(x, fn).dtype)) from e


def isneginf(x, out=None) -> ndarray:
    """See `numpy.isneginf`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.isneginf(cuarray.array([-cuarray.inf, 0., cuarray.inf]))
    array([ True, False, False])
    """
    return logical_and(isinf(x), _signbit(x, "isneginf"), out=out)


def isposinf(x, out=None) -> ndarray:
    """See `numpy.isposinf`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.isposinf(cuarray.array([-cuarray.inf, 0., cuarray.inf]))
    array([False, False,  True])
    """
    return logical_and(isinf(x), logical_not(_signbit(x, "isposinf")), out=out)


def isfortran(a) -> bool:
    """See `numpy.isfortran`: F-contiguous and not C-contiguous.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.ones((2, 3), order='F')
    >>> bool(cuarray.isfortran(a))
    True
    >>> bool(cuarray.isfortran(a.T))
    False
    """
    if not isinstance(a, ndarray):
        raise TypeError("isfortran() argument must be a cuarray array")
    return a.flags.f_contiguous and not a.flags.c_contiguous


def real_if_close(a, tol=100) -> ndarray:
    """See `numpy.real_if_close`. The test of every imaginary part reads one bool from the device
    (synchronising), because it decides the result's dtype.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.real_if_close(cuarray.array([2.1 + 4e-15j, 5.2 + 3e-15j]))
    array([2.1, 5.2])
    """
    a = as_array(a, "real_if_close")
    if a.dtype.kind != "c":
        return a
    if tol > 1:
        tol = numpy.finfo(a.dtype).eps * tol
    if bool((absolute(a.imag) < tol).all()):
        a = a.real
    return a
