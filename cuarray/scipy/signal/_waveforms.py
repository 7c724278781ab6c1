"""scipy.signal's waveforms on the device: `sawtooth`, `square`, `gausspulse`, `chirp` and
`sweep_poly` are elementwise expressions over `t` (cuarray ufuncs, dtypes as SciPy 1.18 gives
them), `unit_impulse` a zero array with one element set. `max_len_seq`'s shift register is host
work by SciPy (a serial recurrence of one bit a step), its sequence copied to the device."""

from __future__ import annotations

import math

import numpy

from ..._core.copying import astype as _astype
from ..._core.host_input import is_scalar as _is_scalar
from ..._core.ndarray import ndarray
from ..._core.transfer import from_host as _from_host
from ..._creation.basic import zeros as _zeros
from ..._manipulation.dims import broadcast_arrays as _broadcast_arrays
from ..._polynomial.poly1d import poly1d as _poly1d
from ..._math.explog import exp as _exp
from ..._math.explog import log as _log
from ..._math.misc import abs as _abs
from ..._math.trigonometric import cos as _cos
from ..._math.trigonometric import sin as _sin
from ..._sorting.searching import where as _where
from ._args import data as _data
from ._args import device_param as _device_param
from ._args import host_scalar as _host_scalar

__all__ = ["sawtooth", "square", "gausspulse", "chirp", "sweep_poly", "unit_impulse", "max_len_seq"]


def _floating(*dts):
    """SciPy's xp_promote(..., force_floating=True): NumPy's promotion (Python scalars weak), and
    float64 for integers and booleans."""
    dt = numpy.result_type(*dts)
    return numpy.dtype(numpy.float64) if dt.kind in "biu" else dt


def _promote_pair(t, p, fn):
    """(t, p) as device arrays of one floating dtype, broadcast together."""
    t = _data(t, fn)
    # a Python or NumPy scalar takes part in the promotion as itself (NumPy's weak Python scalars);
    # a sequence or NumPy array of widths is a parameter, copied up
    dt = _floating(t.dtype, p) if _is_scalar(p) else None
    p = _data(p, fn) if dt is not None else _device_param(p, fn)
    dt = _floating(t.dtype, p.dtype) if dt is None else dt
    t, p = _astype(t, dt, copy=False), _astype(p, dt, copy=False)
    if t.shape != p.shape:
        t, p = _broadcast_arrays(t, p)
    return t, p


def sawtooth(t, width=1.0):
    """See `scipy.signal.sawtooth` (SciPy 1.18's dtype: the promoted floating type of `t` and
    `width`, float32 staying float32).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.sawtooth(cuarray.array([1., 2., 3., 4.]), 0.5)
    array([-0.36338023,  0.27323954,  0.90985932,  0.45352091])
    """
    t, w = _promote_pair(t, width, "sawtooth")
    bad = (w > 1) | (w < 0)
    tmod = t % (2 * numpy.pi)
    rising = ~bad & (tmod < w * 2 * numpy.pi)
    # the divisors of the branch not taken are made harmless (no 0/0 in a lane that is discarded)
    up = tmod / (numpy.pi * _where(w == 0, 1.0, w)) - 1
    down = (numpy.pi * (w + 1) - tmod) / (numpy.pi * (1 - _where(w == 1, 0.0, w)))
    return _astype(_where(bad, numpy.nan, _where(rising, up, down)), t.dtype, copy=False)


def square(t, duty=0.5):
    """See `scipy.signal.square` (SciPy 1.18's dtype: the promoted floating type of `t` and `duty`).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.square(cuarray.array([1., 2., 3., 4.]))
    array([ 1.,  1.,  1., -1.])
    """
    t, w = _promote_pair(t, duty, "square")
    bad = (w > 1) | (w < 0)
    high = ~bad & (t % (2 * numpy.pi) < w * 2 * numpy.pi)
    return _astype(_where(bad, numpy.nan, _where(high, 1.0, -1.0)), t.dtype, copy=False)


def gausspulse(t, fc=1000, bw=0.5, bwr=-6, tpr=-60, retquad=False, retenv=False):
    """See `scipy.signal.gausspulse`. ``t='cutoff'`` returns a host float, as SciPy.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.gausspulse(cuarray.array([-1e-4, 0., 1e-4]), fc=5000)
    array([-0.7999184,  1.       , -0.7999184])
    """
    fc, bw, bwr, tpr = (_host_scalar(v) for v in (fc, bw, bwr, tpr))  # (host arithmetic: math.log, numpy.sqrt)
    if fc < 0:
        raise ValueError("Center frequency (fc={:.2f}) must be >=0.".format(fc))
    if bw <= 0:
        raise ValueError("Fractional bandwidth (bw={:.2f}) must be > 0.".format(bw))
    if bwr >= 0:
        raise ValueError("Reference level for bandwidth (bwr={:.2f}) must be < 0 dB".format(bwr))
    ref = pow(10.0, bwr / 20.0)
    a = -(numpy.pi * fc * bw) ** 2 / (4.0 * math.log(ref))
    if isinstance(t, str):
        if t != "cutoff":
            raise ValueError("If `t` is a string, it must be 'cutoff'")
        if tpr >= 0:
            raise ValueError("Reference level for time cutoff must be < 0 dB")
        return numpy.sqrt(-math.log(pow(10.0, tpr / 20.0)) / a)
    t = _data(t, "gausspulse")
    # SciPy's `a` is a NumPy float64 (numpy.log of a float), a strong scalar: the envelope is at
    # least float64 (t promoted), the carrier cos/sin(2 pi fc t) stays in t's dtype
    te = _astype(t, numpy.result_type(t.dtype, numpy.float64), copy=False)
    yenv = _exp(-a * te * te)
    yI = yenv * _cos(2 * numpy.pi * fc * t)
    if not retquad:
        return (yI, yenv) if retenv else yI
    yQ = yenv * _sin(2 * numpy.pi * fc * t)
    return (yI, yQ, yenv) if retenv else (yI, yQ)


def _chirp_phase(t, f0, t1, f1, method, vertex_zero):
    f0, t1, f1 = float(f0), float(t1), float(f1)
    two_pi = 2 * numpy.pi
    if method in ("linear", "lin", "li"):
        beta = (f1 - f0) / t1
        return two_pi * (f0 * t + 0.5 * beta * t * t)
    if method in ("quadratic", "quad", "q"):
        beta = (f1 - f0) / (t1 ** 2)
        if vertex_zero:
            return two_pi * (f0 * t + beta * t ** 3 / 3)
        return two_pi * (f1 * t + beta * ((t1 - t) ** 3 - t1 ** 3) / 3)
    if method in ("logarithmic", "log", "lo"):
        if f0 * f1 <= 0.0:
            raise ValueError("For a logarithmic chirp, f0 and f1 must be nonzero and have the same sign.")
        if f0 == f1:
            return two_pi * f0 * t
        beta = t1 / math.log(f1 / f0)
        # SciPy's beta is a NumPy float64 (numpy.log of a float): a strong scalar, so the factor
        # in t's dtype is promoted to at least float64 before the product
        growth = (f1 / f0) ** (t / t1) - 1.0
        return two_pi * beta * f0 * _astype(growth, numpy.result_type(growth.dtype, numpy.float64), copy=False)
    if method in ("hyperbolic", "hyp"):
        if f0 == 0 or f1 == 0:
            raise ValueError("For a hyperbolic chirp, f0 and f1 must be nonzero.")
        if f0 == f1:
            return two_pi * f0 * t
        sing = -f1 * t1 / (f0 - f1)
        return two_pi * (-sing * f0) * _log(_abs(1 - t / sing))
    raise ValueError("method must be 'linear', 'quadratic', 'logarithmic', or 'hyperbolic', but a value of "
                     "{!r} was given.".format(method))


def chirp(t, f0, t1, f1, method="linear", phi=0, vertex_zero=True, *, complex=False):
    """See `scipy.signal.chirp`. The phase is computed in `t`'s dtype and `phi` added as SciPy 1.18
    adds it (a NumPy float64 scalar: float32 `t` gives a float64 result).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.chirp(cuarray.array([0., 0.1, 0.2]), f0=1., t1=1., f1=3.)
    array([1.        , 0.77051324, 0.06279052])
    """
    t = _data(t, "chirp")
    phase = _chirp_phase(t, f0, t1, f1, method, vertex_zero)
    shift = numpy.deg2rad(_host_scalar(phi))
    dt = numpy.result_type(phase.dtype, shift)
    phase = _astype(phase, dt, copy=False) + shift.item()
    return _exp(1j * phase) if complex else _cos(phase)


def sweep_poly(t, poly, phi=0):
    """See `scipy.signal.sweep_poly`. `poly` (a sequence, a NumPy or cuarray array, a numpy.poly1d or
    cuarray.poly1d) is integrated on the host; the phase polynomial is evaluated on the device by Horner's rule.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.sweep_poly(cuarray.array([0., 0.1, 0.2]), [2., 1.])
    array([1.        , 0.77051324, 0.06279052])
    """
    if isinstance(poly, (ndarray, _poly1d)):  # (a cuarray poly1d: its coefficients come down)
        poly = poly.get()
    intpoly = numpy.polyint(poly)
    coeffs = numpy.asarray(intpoly)
    t = _data(t, "sweep_poly")
    # numpy.polyval's dtype: zeros_like(t) then y * t + c for each NumPy coefficient
    dt = numpy.result_type(t.dtype, coeffs.dtype) if coeffs.size else t.dtype
    x = _astype(t, dt, copy=False)
    y = _zeros(t.shape, dtype=dt)
    for c in coeffs.tolist():
        y = y * x + c
    phase = 2 * numpy.pi * y
    return _cos(phase + phi * numpy.pi / 180)


def unit_impulse(shape, idx=None, dtype=float):
    """See `scipy.signal.unit_impulse`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.unit_impulse(5, 'mid')
    array([0., 0., 1., 0., 0.])
    """
    out = _zeros(shape, dtype)
    dims = numpy.atleast_1d(shape)
    if idx is None:
        idx = (0,) * len(dims)
    elif isinstance(idx, str) and idx == "mid":
        idx = tuple(int(d) // 2 for d in dims)
    elif not hasattr(idx, "__iter__"):
        idx = (idx,) * len(dims)
    out[tuple(idx)] = 1
    return out


def max_len_seq(nbits, state=None, length=None, taps=None):
    """See `scipy.signal.max_len_seq`. The shift register runs on the host (SciPy, the
    `cuarray[scipy]` extra); the sequence and the final state are returned as device arrays.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> seq, state = signal.max_len_seq(3)
    >>> seq
    array([1, 1, 1, 0, 1, 0, 0], dtype=int8)
    """
    import scipy.signal  # host work: a serial bit recurrence, SciPy's (optional dependency)

    if isinstance(state, ndarray):
        state = state.get()
    if isinstance(taps, ndarray):
        taps = taps.get()
    seq, state = scipy.signal.max_len_seq(nbits, state, length, taps)
    return _from_host(seq), _from_host(state)
