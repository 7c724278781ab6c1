"""Filter design, computed by SciPy on the host and returned as cuarray arrays (the
designs are small host computations; what the GPU needs is their coefficients). Each function
imports scipy.signal when called (the `cuarray[scipy]` extra) and calls its namesake with the same
arguments; NumPy arrays in the result become cuarray arrays, other values pass unchanged.
`order_filter` is ndimage's rank filter, on the device. `get_window` is signal.windows' one."""

from __future__ import annotations

import numpy

from ..._core.transfer import from_host as _from_host
from ..ndimage import _filters as _ndf
from ..ndimage import _support as _s
from .windows._get_window import get_window as get_window  # (the windows module's, re-exported here)

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


def butter(*args, **kwargs):
    """See `scipy.signal.butter`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> b, a = signal.butter(2, 0.25)
    >>> b
    array([0.09763107, 0.19526215, 0.09763107])
    >>> a
    array([ 1.        , -0.94280904,  0.33333333])
    """
    return _design_result(_scipy_signal().butter(*args, **kwargs))


def cheby1(*args, **kwargs):
    """See `scipy.signal.cheby1`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> b, a = signal.cheby1(2, 1., 0.25)
    >>> b
    array([0.10255744, 0.20511488, 0.10255744])
    >>> a
    array([ 1.        , -0.98650792,  0.44679329])
    """
    return _design_result(_scipy_signal().cheby1(*args, **kwargs))


def cheby2(*args, **kwargs):
    """See `scipy.signal.cheby2`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> b, a = signal.cheby2(2, 20., 0.25)
    >>> b
    array([ 0.10470074, -0.10240605,  0.10470074])
    >>> a
    array([ 1.        , -1.50553987,  0.61253529])
    """
    return _design_result(_scipy_signal().cheby2(*args, **kwargs))


def ellip(*args, **kwargs):
    """See `scipy.signal.ellip`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> b, a = signal.ellip(2, 1., 20., 0.25)
    >>> b
    array([0.17011869, 0.09397709, 0.17011869])
    >>> a
    array([ 1.        , -0.98770317,  0.47489983])
    """
    return _design_result(_scipy_signal().ellip(*args, **kwargs))


def bessel(*args, **kwargs):
    """See `scipy.signal.bessel`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> b, a = signal.bessel(2, 0.25)
    >>> b
    array([0.09082679, 0.18165358, 0.09082679])
    >>> a
    array([ 1.        , -0.87710105,  0.24040821])
    """
    return _design_result(_scipy_signal().bessel(*args, **kwargs))


def iirfilter(*args, **kwargs):
    """See `scipy.signal.iirfilter`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> b, a = signal.iirfilter(2, 0.25, btype='lowpass', ftype='butter')
    >>> a
    array([ 1.        , -0.94280904,  0.33333333])
    """
    return _design_result(_scipy_signal().iirfilter(*args, **kwargs))


def iirnotch(*args, **kwargs):
    """See `scipy.signal.iirnotch`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> b, a = signal.iirnotch(60., 30., fs=1000.)
    >>> b
    array([ 0.99375596, -1.84794186,  0.99375596])
    >>> a
    array([ 1.        , -1.84794186,  0.98751193])
    """
    return _design_result(_scipy_signal().iirnotch(*args, **kwargs))


def iirpeak(*args, **kwargs):
    """See `scipy.signal.iirpeak`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> b, a = signal.iirpeak(60., 30., fs=1000.)
    >>> a
    array([ 1.        , -1.84794186,  0.98751193])
    """
    return _design_result(_scipy_signal().iirpeak(*args, **kwargs))


def firwin(*args, **kwargs):
    """See `scipy.signal.firwin`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.firwin(5, 0.25)
    array([0.02455383, 0.23438946, 0.4821134 , 0.23438946, 0.02455383])
    """
    return _design_result(_scipy_signal().firwin(*args, **kwargs))


def firwin2(*args, **kwargs):
    """See `scipy.signal.firwin2`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.firwin2(5, [0., 0.5, 1.], [1., 1., 0.])
    array([-0.00853553,  0.11084404,  0.75      ,  0.11084404, -0.00853553])
    """
    return _design_result(_scipy_signal().firwin2(*args, **kwargs))


def remez(*args, **kwargs):
    """See `scipy.signal.remez`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.remez(5, [0., 0.1, 0.3, 0.5], [1., 0.])
    array([0.05985084, 0.29925419, 0.38029832, 0.29925419, 0.05985084])
    """
    return _design_result(_scipy_signal().remez(*args, **kwargs))


def order_filter(a, domain, rank):
    """See `scipy.signal.order_filter`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> x = cuarray.array([2., 8., 0., 4., 1.])
    >>> signal.order_filter(x, cuarray.ones(3), 2)   # the largest of 3
    array([8., 8., 8., 4., 4.])
    """
    domain = _s.host_param(domain)
    for dimsize in domain.shape:
        if dimsize % 2 != 1:
            raise ValueError("Each dimension of domain argument should have an odd number of elements.")
    a = _s.as_array(a, "order_filter")
    if not (a.dtype.kind in "iu" or a.dtype in (numpy.float32, numpy.float64)):
        raise ValueError("dtype={} is not supported by order_filter".format(a.dtype))
    return _ndf.rank_filter(a, rank, footprint=domain, mode="constant")
