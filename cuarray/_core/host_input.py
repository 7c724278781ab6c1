"""The one host-input policy of cuarray's routines.

A routine takes cuarray arrays and scalars (Python `bool`/`int`/`float`/`complex` and NumPy scalars)
as array arguments. Anything else that would need a copy from the host (a NumPy array, a list, a
tuple) or an implicit adoption of another library's device memory raises TypeError saying to call
`cuarray.asarray()` first: one rule for ufuncs, reductions, scans and every routine, as CuPy does
and as docs/differences.md promises ("No implicit host transfers").

Scalars become 0-d device arrays of NumPy's dtype for that scalar (`numpy.asarray(x).dtype`).
Routines that can pass a scalar as a kernel argument (ufuncs, NEP 50 "weak" scalars) test
`is_scalar` first and never upload it.
"""

from __future__ import annotations

import numpy

from . import tracing as _tracing
from .ndarray import ndarray
from .tracing import active as _tracing_active
from .transfer import from_host
from .dtypes import PY_SCALARS as _PY_SCALARS

__all__ = ["as_array", "as_arrays", "is_scalar", "reject", "lazy_value", "as_parameter", "as_literal_or_array"]


def is_scalar(x) -> bool:
    """A Python or NumPy scalar (not a 0-d array of either library)."""
    return isinstance(x, _PY_SCALARS) or isinstance(x, numpy.generic)


def reject(x, fn: str):
    """The TypeError for an input the policy refuses; `fn` names the routine."""
    return TypeError(
        "cuarray.{}: unsupported input of type {}.{}: cuarray does not copy host data (or adopt "
        "another library's arrays) implicitly; call cuarray.asarray() on it first".format(
            fn, type(x).__module__, type(x).__qualname__))


def as_array(x, fn: str) -> ndarray:
    """`x` itself when it is a cuarray array, a 0-d device array when it is a scalar; TypeError else."""
    if isinstance(x, ndarray):
        v = x
    elif is_scalar(x):
        v = from_host(x)
    else:
        v = lazy_value(x)
        if v is None:
            raise reject(x, fn)
    if _tracing_active:  # a routine that does not trace takes its inputs (`tracing.routine_input`)
        _tracing.routine_input()
    return v


def lazy_value(x):
    """The computed value of a lazy array (`cuarray.lazy`), None for anything else: every
    routine that takes arrays computes a lazy argument through `as_array`."""
    f = getattr(type(x), "__cuarray_materialize__", None)
    return f(x) if f is not None else None


def as_arrays(xs, fn: str) -> list:
    """`as_array` of each item of a sequence argument (`concatenate`'s list of arrays)."""
    return [as_array(x, fn) for x in xs]


# -- Parameter-like arguments ----------------------------------------------------------------------
# The exception to "no implicit host transfers", as CuPy makes it: arguments that parametrise a
# routine rather than being the data it computes on (histogram `bins`, `choice`'s `a` and `p`,
# `diag`'s input, `nan_to_num`'s values, `gradient`'s spacings, `roll`'s shift) may be host
# sequences or NumPy arrays; they are small, and CuPy copies them. Ufunc operands and every other
# data argument go through `as_array`, which refuses them.

def as_parameter(x, fn: str) -> ndarray:
    """`x` as a device array, copying a host sequence or NumPy array (see above); anything else
    as `as_array` takes it. A ragged or object sequence raises TypeError."""
    if isinstance(x, (list, tuple, numpy.ndarray)):
        try:
            host = numpy.asarray(x)
        except ValueError as exc:  # ragged nesting
            raise TypeError("cuarray.{}: {}".format(fn, exc)) from None
        if host.dtype == object:
            raise TypeError("cuarray.{}: cannot copy an object array to the device".format(fn))
        return from_host(host)
    return as_array(x, fn)




# -- The SciPy wing's data arguments ----------------------------------------------------------------
# cupyx.scipy takes Python scalars, lists and tuples wherever it takes an array (`czt([0, 1])`,
# `gauss_spline(0.0, 0)`): they are literals written in the program, small by construction. A NumPy
# array is the host data a program computes on, and stays an explicit `cuarray.asarray` there
# (docs/scipy.md, "Host inputs").

def as_literal_or_array(x, fn: str) -> ndarray:
    """`x` as a device array where `x` is a cuarray array, a scalar or a Python list/tuple (copied);
    a NumPy array or another library's array raises `reject`'s TypeError."""
    if isinstance(x, (list, tuple)):
        return as_parameter(x, fn)
    return as_array(x, fn)
