"""The interpolators' host inputs: docs/scipy.md's "Host inputs" rule for this package, in one
place. `param` copies an argument that parametrises the interpolant (knots, coefficients,
breakpoints, grids, fill and boundary values: Python sequences and NumPy arrays); `values` (the
data an interpolant is fitted to) and `data` (the points it is evaluated at) copy Python scalars,
lists and tuples and refuse NumPy arrays (an explicit `cuarray.asarray` is the visible copy)."""

from __future__ import annotations

from ..._core.host_input import as_literal_or_array, as_parameter

__all__ = ["param", "values", "data"]


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
