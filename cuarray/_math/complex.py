"""Handling complex numbers (NumPy "Mathematical functions / Handling complex numbers").

`real` and `imag` of a complex array are views (a float array with the same strides; the
imaginary part starts half an element in), so writing to them writes the complex array.
"""

import numpy

from .._core.ndarray import ndarray
from .._core.ufunc import create_ufunc
from .trigonometric import arctan2

conjugate = create_ufunc("conjugate", 1, 1, {"complex": "out0 = conj(in0)", "default": "out0 = in0"})
conj = conjugate


def _part_view(a: ndarray, offset: int) -> ndarray:
    part = numpy.dtype(a.dtype.char.lower())  # complex64 -> float32, complex128 -> float64
    return ndarray._view(a._shape, a._strides, part, a.data + offset, a)


def real(val):
    """See `numpy.real`. A view for complex arrays; a real array is returned as it is."""
    if not isinstance(val, ndarray):
        return numpy.real(val)
    if val.dtype.kind == "c":
        return _part_view(val, 0)
    return val


def imag(val):
    """See `numpy.imag`. A view for complex arrays; for real arrays a read-only array of zeros."""
    if not isinstance(val, ndarray):
        return numpy.imag(val)
    if val.dtype.kind == "c":
        return _part_view(val, val.dtype.itemsize // 2)
    z = ndarray(val._shape, val.dtype)
    if z._size:
        z.data.memset_async(0, z.nbytes)
    z._writeable = False
    return z


def angle(z, deg=False):
    """See `numpy.angle`: ``arctan2(z.imag, z.real)``, in degrees with `deg`.

    Real input gives ``arctan2(0, z)`` with NumPy's types (int8 -> float16, int64 -> float64).
    """
    if not isinstance(z, ndarray):
        return numpy.angle(z, deg)
    if z.dtype.kind == "c":
        a = arctan2(imag(z), real(z))
    else:
        a = arctan2(0, z)
    if deg:
        from .arithmetic import multiply

        multiply(a, 180.0 / numpy.pi, out=a)
    return a
