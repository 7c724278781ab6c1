"""The array operations the series modules use, in one place.

Every module of `cuarray.polynomial` reaches the engine through these names only, so the series
algorithms are plain array code over one small namespace: the CPU tests run the same source over
a NumPy stand-in of this module (tests/_polynomial/_numpy_xp.py) and compare it with
`numpy.polynomial` on a machine with no GPU.
"""

from __future__ import annotations

from .._core.host_input import as_array, as_parameter
from .._core.ndarray import ndarray
from .._creation.basic import empty, full, ones, zeros
from .._creation.from_data import array
from .._creation.ranges import arange, linspace
from .._indexing.inserting import take
from .._manipulation.joining import concatenate
from .._manipulation.rearranging import flip
from .._manipulation.transpose import moveaxis
from .._math.convolution import convolve
from .._math.explog import exp
from .._math.misc import absolute, sqrt
from .._math.sums_scan import cumprod, cumsum
from .._math.trigonometric import cos, sin
from .._polynomial.routines import check_fit_points
from .._sorting.sorting import sort
from .._statistics.order import max, min  # noqa: A004
from ..linalg import eigvals, eigvalsh, lstsq
from ..linalg._products import dot

__all__ = ["as_array", "as_parameter", "ndarray", "empty", "full", "ones", "zeros", "array", "arange", "linspace",
           "take", "concatenate", "flip", "moveaxis", "convolve", "exp", "absolute", "sqrt", "cumprod", "cumsum",
           "cos", "sin", "check_fit_points", "sort", "max", "min", "eigvals", "eigvalsh", "lstsq", "dot", "to_host"]


def to_host(a):
    """A device array's host copy (a synchronisation)."""
    return a.get()
