"""Calls into scipy.signal on the host for the small computations of filter design, system
conversions and partial fractions (a polynomial's roots, a 10 x 10 matrix: host work by design,
the `cuarray[scipy]` extra). Arguments come down to the host (cuarray arrays copied, lists and
NumPy arrays as they are, cuarray LTI systems as SciPy's); NumPy arrays in the result go up to the
device, as SciPy on CuPy returns them. `BadCoefficients` is cuarray's warning class; a warning
SciPy raises on the host is re-raised as a class that derives from both SciPy's and cuarray's, so
`warnings.filterwarnings(..., category=...)` and `except` clauses naming either one catch it."""

from __future__ import annotations

import functools
import warnings

import numpy

from ..._core.ndarray import ndarray
from ..._core.transfer import from_host as _from_host

__all__ = ["BadCoefficients", "scipy_signal", "to_host", "to_device", "call"]


class BadCoefficients(UserWarning):
    """See `scipy.signal.BadCoefficients`. Warnings of this kind that SciPy raises during a host
    computation arrive as a subclass of both this class and SciPy's."""


def scipy_signal():
    import scipy.signal  # host work: the optional `cuarray[scipy]` dependency, imported on first use

    return scipy.signal


@functools.cache
def _both_bad_coefficients():
    """The warning class derived from cuarray's and SciPy's BadCoefficients (built once)."""
    return type("BadCoefficients", (BadCoefficients, scipy_signal().BadCoefficients),
                {"__module__": __name__, "__doc__": BadCoefficients.__doc__})


def to_host(v):
    """`v` for SciPy on the host: cuarray arrays copied down, cuarray systems as SciPy's, tuples
    and lists element by element; anything else as it is."""
    if isinstance(v, ndarray) and not isinstance(v, numpy.ndarray):
        return v.get()
    host = getattr(v, "_host", None)
    if host is not None and hasattr(v, "_cuarray_lti"):
        return host
    if isinstance(v, tuple):
        return tuple(to_host(x) for x in v)
    if isinstance(v, list):
        return [to_host(x) for x in v]
    return v


def to_device(v):
    """SciPy's result with its NumPy arrays copied to the device (an explicit copy of a result:
    the host-input policy is about inputs) and its LTI systems as cuarray's."""
    if isinstance(v, numpy.ndarray):
        return _from_host(v)
    if isinstance(v, tuple):
        return tuple(to_device(x) for x in v)
    if type(v).__module__.startswith("scipy.signal") and hasattr(v, "_as_ss"):
        from . import _ltisys  # (cycle: the system classes are built on this module)

        return _ltisys.wrap(v)
    return v


def call(name, *args, **kwargs):
    """scipy.signal.<name>(*args, **kwargs) on the host, its warnings re-raised at the caller's
    call (SciPy's BadCoefficients as the class of both libraries) and its arrays on the device."""
    fn = getattr(scipy_signal(), name)
    args = tuple(to_host(a) for a in args)
    kwargs = {k: to_host(v) for k, v in kwargs.items()}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = fn(*args, **kwargs)
    bad = scipy_signal().BadCoefficients
    for w in caught:
        category = _both_bad_coefficients() if issubclass(w.category, bad) else w.category
        warnings.warn(str(w.message), category, stacklevel=3)
    return to_device(result)
