"""Calls into scipy.signal on the host for the small computations of filter design, system
conversions and partial fractions (a polynomial's roots, a 10 x 10 matrix: host work by design,
the `cuarray[scipy]` extra). Arguments come down to the host (cuarray arrays copied, lists and
NumPy arrays as they are, cuarray LTI systems as SciPy's); NumPy arrays in the result go up to the
device, as SciPy on CuPy returns them (`call_in`: in the namespace SciPy's `xp`/`device` keywords
name instead, see `to_namespace`). `BadCoefficients` is cuarray's warning class; a warning
SciPy raises on the host is re-raised as a class that derives from both SciPy's and cuarray's, so
`warnings.filterwarnings(..., category=...)` and `except` clauses naming either one catch it."""

from __future__ import annotations

import contextlib
import functools
import warnings

import numpy

from ..._core import registry as _registry
from ..._core.ndarray import ndarray
from ..._core.transfer import from_host as _from_host
from ...cuda.device import Device as _Device

__all__ = ["BadCoefficients", "scipy_signal", "to_host", "to_device", "to_namespace", "call", "call_in"]


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
        from . import _ltisys  # cycle: the system classes are built on this module

        return _ltisys.wrap(v)
    return v


def _on_device(device):
    """The context that makes `device` current for the result's copies: None is the current device."""
    if device is None:
        return contextlib.nullcontext()
    if not isinstance(device, _Device):
        raise ValueError("device must be None or a cuarray.cuda.Device for cuarray arrays, got {!r}".format(device))
    return device


def _host_arrays_in(v, convert):
    if isinstance(v, numpy.ndarray):
        return convert(v)
    if isinstance(v, tuple):
        return tuple(_host_arrays_in(x, convert) for x in v)
    return v


def to_namespace(result, xp, device):
    """A host result in the array namespace of SciPy's `xp`/`device` keywords: `xp` None or
    cuarray, device arrays (on `device`: None, the current device, or a cuarray.cuda.Device);
    any other namespace (numpy, array_api_strict, ...), ``xp.asarray(array, device=device)`` of
    each NumPy array, as SciPy builds its result there (numpy: SciPy's host arrays themselves).
    Scalars pass unchanged."""
    if xp is None or xp is _registry.namespace():
        with _on_device(device):
            return to_device(result)
    kw = {} if device is None else {"device": device}
    return _host_arrays_in(result, lambda a: xp.asarray(a, **kw))


def _host_call(name, args, kwargs):
    fn = getattr(scipy_signal(), name)
    args = tuple(to_host(a) for a in args)
    kwargs = {k: to_host(v) for k, v in kwargs.items()}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = fn(*args, **kwargs)
    bad = scipy_signal().BadCoefficients
    for w in caught:
        category = _both_bad_coefficients() if issubclass(w.category, bad) else w.category
        warnings.warn(str(w.message), category, stacklevel=4)
    return result


def call(name, *args, **kwargs):
    """scipy.signal.<name>(*args, **kwargs) on the host, its warnings re-raised at the caller's
    call (SciPy's BadCoefficients as the class of both libraries) and its arrays on the device."""
    return to_device(_host_call(name, args, kwargs))


def call_in(xp, device, name, *args, **kwargs):
    """`call`, the result in the namespace `xp` on `device` (`to_namespace`): the functions with
    SciPy's `xp`/`device` keywords, which SciPy itself is not given (it computes with NumPy)."""
    return to_namespace(_host_call(name, args, kwargs), xp, device)
