"""scipy.signal's `vectorstrength` (the mean unit phasor of the events at each period, on the
device) and `check_COLA`/`check_NOLA` (properties of one short window: host work by SciPy, the
window copied from the device when it is a cuarray array)."""

from __future__ import annotations

import numpy

from ..._core.copying import astype as _astype
from ..._core.ndarray import ndarray
from ..._logic.truth import any as _any
from ..._math.complex import angle as _angle
from ..._math.explog import exp as _exp
from ..._math.misc import abs as _abs
from ..._statistics.averages import mean as _mean
from ._args import data as _data
from ._args import device_param as _device_param

__all__ = ["vectorstrength", "check_COLA", "check_NOLA"]


def vectorstrength(events, period):
    """See `scipy.signal.vectorstrength`. A scalar period gives 0-d device arrays (SciPy: NumPy
    scalars); checking that every period is positive reads one flag back from the device.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> s, p = signal.vectorstrength(cuarray.array([0.1, 1.1, 2.1, 3.3]), 1.)
    >>> round(float(s), 6), round(float(p), 6)
    (0.860745, 0.908189)
    """
    events = _data(events, "vectorstrength")
    period = _device_param(period, "vectorstrength")  # (a period sequence: a small parameter, copied as CuPy's)
    if period.dtype.kind in "iu":
        period = _astype(period, numpy.float64)
    if events.ndim > 1:
        raise ValueError("events cannot have dimensions more than 1")
    if period.ndim > 1:
        raise ValueError("period cannot have dimensions more than 1")
    scalar = period.ndim == 0
    events = events.reshape(1, -1) if events.ndim < 2 else events
    period = period.reshape(1, -1)
    if bool(_any(period <= 0)):
        raise ValueError("periods must be positive")
    # (pi / period).T @ events has one term per element: the outer product, exactly
    vectors = _exp(2j * ((numpy.pi / period.T) * _astype(events, period.dtype)))
    vmean = _mean(vectors, axis=1)
    strength, phase = _abs(vmean), _angle(vmean)
    return (strength[0], phase[0]) if scalar else (strength, phase)


def _host_window(window):
    return window.get() if isinstance(window, ndarray) else window


def check_COLA(window, nperseg, noverlap, tol=1e-10):
    """See `scipy.signal.check_COLA`. Host work by SciPy (the `cuarray[scipy]` extra): a cuarray
    window is copied to the host; the answer is SciPy's.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> bool(signal.check_COLA('hann', 120, 60)), bool(signal.check_COLA(cuarray.ones(120), 120, 60))
    (True, True)
    """
    import scipy.signal  # host work: a property of one short window

    return scipy.signal.check_COLA(_host_window(window), nperseg, noverlap, tol)


def check_NOLA(window, nperseg, noverlap, tol=1e-10):
    """See `scipy.signal.check_NOLA`. Host work by SciPy, as `check_COLA`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> bool(signal.check_NOLA('hann', 120, 60)), bool(signal.check_NOLA(cuarray.zeros(120), 120, 60))
    (True, False)
    """
    import scipy.signal  # host work: a property of one short window

    return scipy.signal.check_NOLA(_host_window(window), nperseg, noverlap, tol)
