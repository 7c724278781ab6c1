"""The array routines the interpolators compute with, under NumPy's names: the one place this
package names cuarray's routines, so that its host logic (validation, coefficient builds, the
tridiagonal solve) is one body that the CPU tests run with NumPy in this module's place
(tests/scipy/interpolate/conftest.py) against SciPy, and the GPU tests run on the device.

The three conversions are docs/scipy.md's "Host inputs" rule: `param` copies an argument that
parametrises the interpolant (knots, coefficients, breakpoints, grids, fill and boundary values:
Python sequences and NumPy arrays); `values` (the data an interpolant is fitted to) and `data` (the
points it is evaluated at) copy Python scalars, lists and tuples and refuse NumPy arrays (an explicit
`cuarray.asarray` is the visible copy); `to_host` is the one device-to-host read (a sync:
validation SciPy does on the host reads a few scalars)."""

from __future__ import annotations

from ..._core.host_input import as_literal_or_array, as_parameter
from ..._core.transfer import to_host as _to_host
from ..._creation.basic import empty as empty
from ..._creation.basic import full as full
from ..._creation.basic import ones as ones
from ..._creation.basic import zeros as zeros
from ..._creation.basic import zeros_like as zeros_like
from ..._creation.from_data import ascontiguousarray as ascontiguousarray
from ..._creation.ranges import arange as arange
from ..._creation.ranges import linspace as linspace
from ..._indexing.inserting import take as take
from ..._logic.content import isfinite as isfinite
from ..._logic.content import isinf as isinf
from ..._logic.content import isnan as isnan
from ..._logic.truth import all as all  # noqa: A004
from ..._logic.truth import any as any  # noqa: A004
from ..._manipulation.dims import broadcast_to as broadcast_to
from ..._manipulation.dims import expand_dims as expand_dims
from ..._manipulation.joining import concatenate as concatenate
from ..._manipulation.joining import stack as stack
from ..._manipulation.transpose import moveaxis as moveaxis
from ..._math.arithmetic import remainder as remainder
from ..._math.complex import imag as imag
from ..._math.complex import real as real
from ..._math.explog import exp as exp
from ..._math.explog import log as log
from ..._math.extrema import maximum as maximum
from ..._math.extrema import minimum as minimum
from ..._math.floating import nextafter as nextafter
from ..._math.misc import abs as abs  # noqa: A004
from ..._math.misc import clip as clip
from ..._math.misc import sign as sign
from ..._math.misc import sqrt as sqrt
from ..._math.rounding import floor as floor
from ..._math.sums import prod as prod
from ..._math.sums import sum as sum  # noqa: A004
from ..._math.sums_scan import cumsum as cumsum
from ..._math.sums_scan import diff as diff
from ..._sorting.searching import where as where
from ..._statistics.order import max as max  # noqa: A004
from ..._statistics.order import min as min  # noqa: A004
from ..._sorting.searchsorted import searchsorted as searchsorted
from ..._sorting.sorting import argsort as argsort
from ...linalg._solve import solve as solve
from ..._polynomial.poly1d import poly1d as poly1d
from ..._sets.unique import unique as unique
from ..._statistics.averages import mean as mean
from ...linalg._decomp import qr as qr
from ..spatial.distance import cdist as cdist
from ...sparse import csr_array as csr_array
from ..._sorting.sorting import sort as sort
from ..._sorting.searching_reduce import argmax as argmax
from ..._indexing.inserting import take_along_axis as take_along_axis
from ...cuda.libs import cusparse as _cusparse

__all__ = ["param", "values", "data", "to_host", "gtsv"]
DEVICE = True  # False in the CPU tests' NumPy stand-in


def param(x, dtype=None):
    """A device array of a constructor argument (host lists and NumPy arrays are copied)."""
    a = as_parameter(x, "scipy.interpolate")
    return a if dtype is None or a.dtype == dtype else a.astype(dtype)


def values(x, dtype=None):
    """A device array of the data an interpolant is fitted to (Python lists copied, NumPy arrays
    refused)."""
    a = as_literal_or_array(x, "scipy.interpolate")
    return a if dtype is None or a.dtype == dtype else a.astype(dtype)


def data(x):
    """A device array of query points (Python lists copied, NumPy arrays refused)."""
    return as_literal_or_array(x, "scipy.interpolate")


def to_host(a):
    """A NumPy copy of a device array (a synchronisation)."""
    return _to_host(a)


def gtsv(dl, d, du, b):
    """Solve in place the m x m tridiagonal system (diagonals dl, d, du: dl[0] = du[-1] = 0,
    m >= 3) for the k right-hand sides of b (k, m), C-contiguous: cuSPARSE's gtsv2 (partial
    pivoting) on the current stream."""
    k, m = b.shape
    _cusparse.gtsv2(b.dtype.char, m, k, dl.data.ptr, d.data.ptr, du.data.ptr, b.data.ptr, m)
