"""Changing kind of array: `require`, `asarray_chkfinite` (NumPy "Array manipulation / Changing
kind of array"; `asarray` and friends live in `_creation/from_data.py`)."""

from __future__ import annotations

from .._core.ndarray import ndarray
from .._creation.from_data import array, asanyarray, asarray

__all__ = ["require", "asarray_chkfinite", "REQUIREMENT_FLAGS", "parse_requirements"]

REQUIREMENT_FLAGS = {
    "C": "C", "C_CONTIGUOUS": "C", "CONTIGUOUS": "C",
    "F": "F", "F_CONTIGUOUS": "F", "FORTRAN": "F",
    "A": "A", "ALIGNED": "A",
    "W": "W", "WRITEABLE": "W",
    "O": "O", "OWNDATA": "O",
    "E": "E", "ENSUREARRAY": "E",
}


def parse_requirements(requirements):
    """(order, flags left to check) from `require`'s requirements; NumPy's errors."""
    reqs = {REQUIREMENT_FLAGS[x.upper()] for x in requirements}
    reqs.discard("E")  # cuarray has no ndarray subclasses: every result is a base-class array
    reqs.discard("A")  # device allocations are always aligned
    if reqs >= {"C", "F"}:
        raise ValueError('Cannot specify both "C" and "F" order')
    order = "A"
    for o in ("C", "F"):
        if o in reqs:
            order = o
            reqs.remove(o)
    return order, reqs


def require(a, dtype=None, requirements=None, *, like=None) -> ndarray:
    """See `numpy.require`. The 'A' (aligned) and 'E' (base class) requirements always hold.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.require(cuarray.arange(6).reshape(2, 3), dtype=cuarray.float32, requirements='F')
    >>> a.dtype, bool(a.flags['F_CONTIGUOUS'])
    (dtype('float32'), True)
    """
    if not requirements:
        return asanyarray(a, dtype=dtype)
    order, reqs = parse_requirements(requirements)
    arr = array(a, dtype=dtype, order=order, copy=None)
    for prop in reqs:
        if not arr.flags[prop]:
            return arr.copy(order)
    return arr


def asarray_chkfinite(a, dtype=None, order=None) -> ndarray:
    """See `numpy.asarray_chkfinite`. The check reads one bool back from the device (a
    synchronisation).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.asarray_chkfinite([1.0, 2.0])
    array([1., 2.])
    """
    arr = asarray(a, dtype=dtype, order=order)
    # x * 0 == 0 exactly where x is finite (inf * 0 and nan * 0 are nan): the check with this
    # layer's operators, since `isfinite` lives on the logic page above it (docs/architecture.md).
    if arr.dtype.kind in "fc" and not bool((arr * 0 == 0).all()):
        raise ValueError("array must not contain infs or NaNs")
    return arr
