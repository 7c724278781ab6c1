"""Handling complex numbers (NumPy "Mathematical functions / Handling complex numbers").

`real` and `imag` of a complex array are views (`ndarray.real`/`.imag`: a float array with the
same strides; the imaginary part starts half an element in), so writing to them writes the
complex array.
"""

import numpy

from .._core.ndarray import ndarray
from .._core.ufunc import create_ufunc
from .arithmetic import multiply
from .trigonometric import arctan2

conjugate = create_ufunc("conjugate", 1, 1, {"complex": "out0 = conj(in0)", "default": "out0 = in0"})
conj = conjugate


def real(val):
    """See `numpy.real`. A view for complex arrays; a real array is returned as it is.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.real(cuarray.array([1 + 2j, 3 - 4j]))
    array([1., 3.])
    """
    if not isinstance(val, ndarray):
        return numpy.real(val)
    return val.real if val.dtype.kind == "c" else val


def imag(val):
    """See `numpy.imag`. A view for complex arrays; for real arrays a read-only array of zeros.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.imag(cuarray.array([1 + 2j, 3 - 4j]))
    array([ 2., -4.])
    """
    if not isinstance(val, ndarray):
        return numpy.imag(val)
    return val.imag


def angle(z, deg=False):
    """See `numpy.angle`: ``arctan2(z.imag, z.real)``, in degrees with `deg`.

    Real input gives ``arctan2(0, z)`` with NumPy's types (int8 -> float16, int64 -> float64).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.angle(cuarray.array([1j, -1 + 0j]))
    array([1.57079633, 3.14159265])
    >>> cuarray.angle(cuarray.array([1j]), deg=True)
    array([90.])
    """
    if not isinstance(z, ndarray):
        return numpy.angle(z, deg)
    if z.dtype.kind == "c":
        a = arctan2(imag(z), real(z))
    else:
        a = arctan2(0, z)
    if deg:
        multiply(a, 180.0 / numpy.pi, out=a)
    return a
