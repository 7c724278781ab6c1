"""Filter design, computed by SciPy on the host and returned as cuarray arrays (the designs are
small host computations; what the GPU needs is their coefficients): each function calls its
scipy.signal namesake through `_host_calls` (the `cuarray[scipy]` extra; cuarray arrays among the
arguments copied down, SciPy's warnings re-raised, NumPy arrays in the result copied to the device,
other values unchanged). `iirnotch`/`iirpeak` take SciPy's `xp`/`device` keywords
(`_host_calls.to_namespace`). `order_filter` is ndimage's rank filter, on the device. `get_window`
is signal.windows' one."""

from __future__ import annotations

import numpy

from ..ndimage import _filters as _ndf
from ..ndimage import _support as _s
from . import _args
from . import _host_calls as _h
from .windows._get_window import get_window as get_window  # (the windows module's, re-exported here)

__all__ = ["get_window", "butter", "cheby1", "cheby2", "ellip", "bessel", "iirfilter", "iirnotch", "iirpeak",
           "firwin", "firwin2", "firwin_2d", "remez", "order_filter"]


def butter(N, Wn, btype='low', analog=False, output='ba', fs=None):
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
    return _h.call('butter', N, Wn, btype=btype, analog=analog, output=output, fs=fs)


def cheby1(N, rp, Wn, btype='low', analog=False, output='ba', fs=None):
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
    return _h.call('cheby1', N, rp, Wn, btype=btype, analog=analog, output=output, fs=fs)


def cheby2(N, rs, Wn, btype='low', analog=False, output='ba', fs=None):
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
    return _h.call('cheby2', N, rs, Wn, btype=btype, analog=analog, output=output, fs=fs)


def ellip(N, rp, rs, Wn, btype='low', analog=False, output='ba', fs=None):
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
    return _h.call('ellip', N, rp, rs, Wn, btype=btype, analog=analog, output=output, fs=fs)


def bessel(N, Wn, btype='low', analog=False, output='ba', norm='phase', fs=None):
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
    return _h.call('bessel', N, Wn, btype=btype, analog=analog, output=output, norm=norm, fs=fs)


def iirfilter(N, Wn, rp=None, rs=None, btype='band', analog=False, ftype='butter', output='ba', fs=None):
    """See `scipy.signal.iirfilter`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> b, a = signal.iirfilter(2, 0.25, btype='lowpass', ftype='butter')
    >>> a
    array([ 1.        , -0.94280904,  0.33333333])
    """
    return _h.call('iirfilter', N, Wn, rp=rp, rs=rs, btype=btype, analog=analog, ftype=ftype, output=output,
                   fs=fs)


def iirnotch(w0, Q, fs=2.0, *, xp=None, device=None):
    """See `scipy.signal.iirnotch`. `xp` None (or cuarray) returns cuarray arrays on `device` (None:
    the current device; else a `cuarray.cuda.Device`); another namespace (e.g. numpy) returns its
    arrays, as SciPy does (numpy: SciPy's host arrays themselves).

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
    return _h.call_in(xp, device, 'iirnotch', w0, Q, fs)


def iirpeak(w0, Q, fs=2.0, *, xp=None, device=None):
    """See `scipy.signal.iirpeak`. `xp` None (or cuarray) returns cuarray arrays on `device` (None:
    the current device; else a `cuarray.cuda.Device`); another namespace (e.g. numpy) returns its
    arrays, as SciPy does (numpy: SciPy's host arrays themselves).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> b, a = signal.iirpeak(60., 30., fs=1000.)
    >>> a
    array([ 1.        , -1.84794186,  0.98751193])
    """
    return _h.call_in(xp, device, 'iirpeak', w0, Q, fs)


def firwin(numtaps, cutoff, *, width=None, window='hamming', pass_zero=True, scale=True, fs=None):
    """See `scipy.signal.firwin`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.firwin(5, 0.25)
    array([0.02455383, 0.23438946, 0.4821134 , 0.23438946, 0.02455383])
    """
    return _h.call('firwin', numtaps, cutoff, width=width, window=window, pass_zero=pass_zero, scale=scale, fs=fs)


def firwin2(numtaps, freq, gain, *, nfreqs=None, window='hamming', antisymmetric=False, fs=None):
    """See `scipy.signal.firwin2`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.firwin2(5, [0., 0.5, 1.], [1., 1., 0.])
    array([-0.00853553,  0.11084404,  0.75      ,  0.11084404, -0.00853553])
    """
    return _h.call('firwin2', numtaps, freq, gain, nfreqs=nfreqs, window=window, antisymmetric=antisymmetric,
                   fs=fs)


def remez(numtaps, bands, desired, *, weight=None, type='bandpass', maxiter=25, grid_density=16, fs=None):  # noqa: A002
    """See `scipy.signal.remez`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.remez(5, [0., 0.1, 0.3, 0.5], [1., 0.])
    array([0.05985084, 0.29925419, 0.38029832, 0.29925419, 0.05985084])
    """
    return _h.call('remez', numtaps, bands, desired, weight=weight, type=type, maxiter=maxiter,
                   grid_density=grid_density, fs=fs)


def firwin_2d(hsize, window, *, fc=None, fs=2, circular=False, pass_zero=True, scale=True):
    """See `scipy.signal.firwin_2d` (an `hsize`-sized filter: SciPy computes it on the host; the
    result is a cuarray array).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> cuarray.round(signal.firwin_2d((3, 3), ('hamming', 'hamming'), fc=0.5), 6)
    array([[0.002136, 0.041949, 0.002136],
           [0.041949, 0.82366 , 0.041949],
           [0.002136, 0.041949, 0.002136]])
    """
    return _h.call('firwin_2d', hsize, window, fc=fc, fs=fs, circular=circular, pass_zero=pass_zero, scale=scale)


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
    domain = _args.host_param(domain)
    for dimsize in domain.shape:
        if dimsize % 2 != 1:
            raise ValueError("Each dimension of domain argument should have an odd number of elements.")
    a = _args.data(a, "order_filter")
    if not (a.dtype.kind in "iu" or a.dtype in (numpy.float32, numpy.float64)):
        raise ValueError("dtype={} is not supported by order_filter".format(a.dtype))
    return _ndf.rank_filter(a, rank, footprint=domain, mode="constant")
