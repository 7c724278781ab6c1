"""finfo and iinfo with the Array API's field types. See `numpy.finfo`, `numpy.iinfo`.

The Array API 2025.12 says finfo's `eps`, `max`, `min`, `smallest_normal` are Python floats and
`bits` an int, and that both functions accept an array. NumPy returns NumPy scalars of the float
type (a float32 `eps` is a `numpy.float32`); here every float-valued field is a Python float and
every count a Python int (docs/differences.md). The values are NumPy's. `iinfo` is NumPy's (its
fields are Python ints already), taking a cuarray array too.
"""

from __future__ import annotations

import numpy

from .._core.ndarray import ndarray

__all__ = ["finfo", "iinfo"]

_FLOAT_FIELDS = ("eps", "epsneg", "max", "min", "resolution", "smallest_normal", "smallest_subnormal", "tiny")
_INT_FIELDS = ("bits", "iexp", "machep", "maxexp", "minexp", "negep", "nexp", "nmant", "precision")


def _dtype(x):
    return x.dtype if isinstance(x, ndarray) else x


class finfo:
    """Machine limits of a floating-point (or complex: of its parts) type. See `numpy.finfo`.

    Examples
    --------
    >>> import cuarray
    >>> f = cuarray.finfo(cuarray.float32)
    >>> f.bits, float(f.eps), float(f.max)
    (32, 1.1920928955078125e-07, 3.4028234663852886e+38)
    """

    def __init__(self, dtype):
        info = numpy.finfo(_dtype(dtype))
        self.dtype = info.dtype
        for name in _FLOAT_FIELDS:
            setattr(self, name, float(getattr(info, name)))
        for name in _INT_FIELDS:
            setattr(self, name, int(getattr(info, name)))

    def __eq__(self, other):
        return isinstance(other, finfo) and self.dtype == other.dtype

    def __hash__(self):
        return hash(("finfo", self.dtype))

    def __repr__(self):
        return "finfo(resolution={}, min={:e}, max={:e}, dtype={})".format(
            self.resolution, self.min, self.max, self.dtype)


def iinfo(int_type) -> numpy.iinfo:
    """See `numpy.iinfo` (a cuarray array stands for its dtype).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.iinfo(cuarray.int8).min, cuarray.iinfo(cuarray.int8).max
    (-128, 127)
    >>> cuarray.iinfo(cuarray.uint16).max
    65535
    """
    return numpy.iinfo(_dtype(int_type))
