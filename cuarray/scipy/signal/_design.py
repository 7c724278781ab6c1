"""Filter design and windows, computed by SciPy on the host and returned as cuarray arrays (the
designs are small host computations; what the GPU needs is their coefficients). Each function
imports scipy.signal when called (the `cuarray[scipy]` extra) and calls its namesake with the same
arguments; NumPy arrays in the result become cuarray arrays, other values pass unchanged.
`order_filter` is ndimage's rank filter, on the device."""

from __future__ import annotations

import numpy

from ..._core.transfer import from_host as _from_host
from ..ndimage import _filters as _ndf
from ..ndimage import _support as _s

__all__ = ["get_window", "butter", "cheby1", "cheby2", "ellip", "bessel", "iirfilter", "iirnotch", "iirpeak",
           "firwin", "firwin2", "remez", "order_filter"]


def _scipy_signal():
    import scipy.signal  # host-side design (optional dependency, imported on first use)

    return scipy.signal


def _design_result(result):
    """SciPy's design output with its arrays copied to the device (an explicit copy of a result,
    not a host-input policy: inputs to this module's computations are SciPy's own)."""
    if isinstance(result, numpy.ndarray):
        return _from_host(result)
    if isinstance(result, tuple):
        return tuple(_design_result(r) for r in result)
    return result


def get_window(window, Nx, fftbins=True):
    """See `scipy.signal.get_window`."""
    return _design_result(_scipy_signal().get_window(window, Nx, fftbins=fftbins))


def butter(*args, **kwargs):
    """See `scipy.signal.butter`."""
    return _design_result(_scipy_signal().butter(*args, **kwargs))


def cheby1(*args, **kwargs):
    """See `scipy.signal.cheby1`."""
    return _design_result(_scipy_signal().cheby1(*args, **kwargs))


def cheby2(*args, **kwargs):
    """See `scipy.signal.cheby2`."""
    return _design_result(_scipy_signal().cheby2(*args, **kwargs))


def ellip(*args, **kwargs):
    """See `scipy.signal.ellip`."""
    return _design_result(_scipy_signal().ellip(*args, **kwargs))


def bessel(*args, **kwargs):
    """See `scipy.signal.bessel`."""
    return _design_result(_scipy_signal().bessel(*args, **kwargs))


def iirfilter(*args, **kwargs):
    """See `scipy.signal.iirfilter`."""
    return _design_result(_scipy_signal().iirfilter(*args, **kwargs))


def iirnotch(*args, **kwargs):
    """See `scipy.signal.iirnotch`."""
    return _design_result(_scipy_signal().iirnotch(*args, **kwargs))


def iirpeak(*args, **kwargs):
    """See `scipy.signal.iirpeak`."""
    return _design_result(_scipy_signal().iirpeak(*args, **kwargs))


def firwin(*args, **kwargs):
    """See `scipy.signal.firwin`."""
    return _design_result(_scipy_signal().firwin(*args, **kwargs))


def firwin2(*args, **kwargs):
    """See `scipy.signal.firwin2`."""
    return _design_result(_scipy_signal().firwin2(*args, **kwargs))


def remez(*args, **kwargs):
    """See `scipy.signal.remez`."""
    return _design_result(_scipy_signal().remez(*args, **kwargs))


def order_filter(a, domain, rank):
    """See `scipy.signal.order_filter`."""
    domain = _s.host_param(domain)
    for dimsize in domain.shape:
        if dimsize % 2 != 1:
            raise ValueError("Each dimension of domain argument should have an odd number of elements.")
    a = _s.as_array(a, "order_filter")
    if not (a.dtype.kind in "iu" or a.dtype in (numpy.float32, numpy.float64)):
        raise ValueError("dtype={} is not supported by order_filter".format(a.dtype))
    return _ndf.rank_filter(a, rank, footprint=domain, mode="constant")
