"""scipy.signal's B-spline functions on the device: `cspline1d`/`qspline1d` (the interpolating
spline's two first-order recursions, or the smoothing spline's two second-order ones, as
cuarray's parallel `lfilter`, started from mirror-symmetric sums over the whole signal),
`cspline2d`/`qspline2d`/`spline_filter` (symiirorder1/2 along each axis), `cspline1d_eval`/
`qspline1d_eval` (the B-spline basis at mirror-folded points, a gather of four or three
coefficients per point), `sepfir2d` (ndimage's convolve1d along each axis, 'reflect' edges) and
`gauss_spline`."""

from __future__ import annotations

import math

import numpy

from ..._core.copying import astype as _astype
from ..._core.ndarray import ndarray
from ..._creation.basic import zeros as _zeros
from ..._creation.from_data import ascontiguousarray as _ascontiguousarray
from ..._creation.ranges import arange as _arange
from ..._manipulation.joining import concatenate as _concatenate
from ..._manipulation.transpose import moveaxis as _moveaxis
from ..._math.explog import exp as _exp
from ..._math.misc import abs as _abs
from ..._math.misc import clip as _clip
from ..._math.rounding import floor as _floor
from ..._math.sums import sum as _sum
from ..._math.trigonometric import cos as _cos
from ..._math.trigonometric import sin as _sin
from ..._sorting.searching import where as _where
from ..ndimage import _filters as _ndf
from ._args import data as _data
from ._args import host_param as _host_param
from ._lfilter import lfilter as _lfilter
from ._symiir import symiirorder1 as _symiirorder1
from ._symiir import symiirorder2 as _symiirorder2

__all__ = ["cspline1d", "qspline1d", "cspline1d_eval", "qspline1d_eval", "cspline2d", "qspline2d", "spline_filter",
           "gauss_spline", "sepfir2d"]


def _signal_1d(signal, name):
    x = _data(signal, name)
    if x.ndim != 1:
        raise ValueError("{} takes a 1-D signal, got {} dimensions".format(name, x.ndim))
    if x.shape[0] == 0:
        raise ValueError("{} of an empty signal".format(name))
    return x


def _live_terms(K, r):
    """How many leading terms of a sum weighted by r^k can be nonzero in float64: past
    log(2^-1074) / log|r| the weight underflows to an exact zero (SciPy sums those zeros too; a
    spline of 1e7 samples then reads ~600, not 1e7, for its start state)."""
    r = abs(r)
    if r == 0.0:
        return min(K, 1)
    return min(K, int(-1075 * math.log(2) / math.log(r)) + 4) if r < 1 else K


def _first_order_coeff(x, zi, gain):
    """The interpolating spline's coefficients: the causal recursion 1 / (1 - zi z^-1) started from
    the whole signal's mirror sum, then the anti-causal one, times `gain` (6 cubic, 8 quadratic)."""
    K = x.shape[0]
    L = _live_terms(K, zi)
    powers = zi ** _arange(L, dtype=numpy.float64)
    start = _sum(powers * x[:L])
    if K == 1:
        return (zi / (zi - 1) * (x[0] + zi * start))[None]
    a = numpy.array([1.0, -zi])
    yplus = _lfilter(numpy.ones(1), a, x, zi=(zi * start)[None])[0]
    out_last = zi / (zi - 1) * yplus[K - 1:]
    out = _lfilter(numpy.asarray([-zi]), a, yplus[-2::-1], zi=zi * out_last)[0]
    return _concatenate((out[::-1], out_last)) * gain


def _hc(k, cs, rho, omega):
    return cs / math.sin(omega) * (rho ** k) * _sin(omega * (k + 1)) * (k > -1)


def _hs(k, cs, rho, omega):
    c0 = cs * cs * (1 + rho * rho) / (1 - rho * rho) / (1 - 2 * rho * rho * math.cos(2 * omega) + rho ** 4)
    gamma = (1 - rho * rho) / (1 + rho * rho) / math.tan(omega)
    ak = _abs(k)
    return c0 * rho ** ak * (_cos(omega * ak) + gamma * _sin(omega * ak))


def _smooth_coeff(x, lamb):
    """The cubic smoothing spline's coefficients (Unser, Aldroubi, Eden, "B-spline signal
    processing", IEEE Trans. Signal Process. 41 (1993)): two second-order recursions whose start
    states are the steady-state responses to the mirror-extended signal."""
    xi = 1 - 96 * lamb + 24 * lamb * math.sqrt(3 + 144 * lamb)
    omega = math.atan2(math.sqrt(144 * lamb - 1), math.sqrt(xi))
    rho = (24 * lamb - 1 - math.sqrt(xi)) / (24 * lamb)
    rho = rho * math.sqrt((48 * lamb + 24 * lamb * math.sqrt(3 + 144 * lamb)) / xi)
    cs = 1 - 2 * rho * math.cos(omega) + rho * rho
    K = x.shape[0]
    L = _live_terms(K, rho)
    k = _arange(L, dtype=numpy.float64)
    h0 = cs / math.sin(omega) * math.sin(omega)  # _hc(0)
    h1 = cs / math.sin(omega) * rho * math.sin(2 * omega)  # _hc(1)
    head = x[:L]
    zi_2 = h0 * x[0] + _sum(_hc(k + 1, cs, rho, omega) * head)
    zi_1 = h0 * x[0] + h1 * x[1] + _sum(_hc(k + 2, cs, rho, omega) * head)
    a1, a2 = -2 * rho * math.cos(omega), rho * rho
    a = numpy.array([1.0, a1, a2])
    b = numpy.array([cs])

    def state(y1, y2):  # lfiltic(cs, a, [y1, y2]) for one second-order section
        return _concatenate(((-(a1 * y1 + a2 * y2))[None], (-a2 * y1)[None]))

    yp = _lfilter(b, a, x[2:], zi=state(zi_1, zi_2))[0]
    yp = _concatenate((zi_2[None], zi_1[None], yp))
    xr = x[::-1][:L]
    zi_2 = _sum((_hs(k, cs, rho, omega) + _hs(k + 1, cs, rho, omega)) * xr)
    zi_1 = _sum((_hs(k - 1, cs, rho, omega) + _hs(k + 2, cs, rho, omega)) * xr)
    y = _lfilter(b, a, yp[-3::-1], zi=state(zi_1, zi_2))[0]
    return _concatenate((y[::-1], zi_1[None], zi_2[None]))


def cspline1d(signal, lamb=0.0):
    """See `scipy.signal.cspline1d`. The recursions run as cuarray's parallel `lfilter`; `signal`
    must be 1-D (SciPy's contract; SciPy does not check it).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.cspline1d(cuarray.array([1., 2., 4., 3., 5.])).round(6)
    array([0.901454, 1.479233, 5.181614, 1.794312, 5.641138])
    """
    x = _signal_1d(signal, "cspline1d")
    if lamb != 0.0:
        return _smooth_coeff(x, lamb)
    return _first_order_coeff(x, -2 + math.sqrt(3), 6.0)


def qspline1d(signal, lamb=0.0):
    """See `scipy.signal.qspline1d`. `signal` must be 1-D.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.qspline1d(cuarray.array([1., 2., 4., 3., 5.])).round(6)
    array([0.893863, 1.741828, 4.655168, 2.327167, 5.381833])
    """
    if lamb != 0.0:
        raise ValueError("Smoothing quadratic splines not supported yet.")
    return _first_order_coeff(_signal_1d(signal, "qspline1d"), -3 + 2 * math.sqrt(2.0), 8.0)


def _fold(newx, N):
    """The mirror-symmetric extension's point in [0, N - 1]: SciPy reflects at 0 and N - 1 until
    the point falls inside, which is this triangle wave of period 2 (N - 1)."""
    if N == 1:
        return newx * 0
    period = 2.0 * (N - 1)
    y = _abs(newx) % period
    return _where(y > N - 1, period - y, y)


def _cubic(x):
    ax = _abs(x)
    inner = 2.0 / 3 - ax * ax + ax * ax * ax / 2
    outer = (2 - ax) ** 3 / 6
    return _where(ax < 1, inner, _where(ax < 2, outer, 0.0))


def _quadratic(x):
    ax = _abs(x)
    return _where(ax < 0.5, 0.75 - ax * ax, _where(ax < 1.5, (ax - 1.5) ** 2 / 2, 0.0))


def _eval(cj, newx, taps, basis, out_dtype):
    N = cj.shape[0]
    x = _fold(newx, N)
    jlower = _astype(_floor(x - taps / 2.0), numpy.int64) + 1
    result = None
    for i in range(taps):
        j = jlower + i
        term = cj[_clip(j, 0, N - 1)] * basis(x - j)
        result = term if result is None else result + term
    return _astype(result, out_dtype, copy=False)


def _points(newx, x0, dx, name):
    newx = _data(newx, name)
    return (newx - x0) / dx


def cspline1d_eval(cj, newx, dx=1.0, x0=0):
    """See `scipy.signal.cspline1d_eval`. Points outside the knots are folded by mirror symmetry
    in one step (SciPy reflects them recursively: the same points).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> cj = signal.cspline1d(cuarray.array([1., 2., 4., 3., 5.]))
    >>> signal.cspline1d_eval(cj, cuarray.array([0.5, 1.5, 2.5])).round(6)
    array([1.267477, 3.247818, 3.490972])
    """
    newx = _points(newx, x0, float(dx), "cspline1d_eval")
    cj = _data(cj, "cspline1d_eval")
    if cj.size == 0:
        raise ValueError("Spline coefficients 'cj' must not be empty.")
    if newx.size == 0:
        return _zeros(newx.shape, dtype=cj.dtype)
    return _eval(cj, newx, 4, _cubic, cj.dtype)


def qspline1d_eval(cj, newx, dx=1.0, x0=0):
    """See `scipy.signal.qspline1d_eval` (the result has the points' dtype, as SciPy's).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> cj = signal.qspline1d(cuarray.array([1., 2., 4., 3., 5.]))
    >>> signal.qspline1d_eval(cj, cuarray.array([0.5, 1.5, 2.5])).round(6)
    array([1.317846, 3.198498, 3.491167])
    """
    newx = _points(newx, x0, dx, "qspline1d_eval")
    if newx.size == 0:
        return _zeros(newx.shape, dtype=newx.dtype)
    cj = _data(cj, "qspline1d_eval")
    if cj.size == 0:
        raise ValueError("Spline coefficients 'cj' must not be empty.")
    return _eval(cj, newx, 3, _quadratic, newx.dtype)


def _along(fn, x, axis, *args):
    """symiirorder1/2 (1-D or 2-D, along the last axis) applied along `axis` of x, C-contiguous
    as SciPy's result."""
    if x.ndim == 1:
        return fn(x, *args)
    moved = _moveaxis(x, axis, -1)
    shape = moved.shape
    out = fn(moved.reshape(-1, shape[-1]), *args).reshape(shape)
    return _ascontiguousarray(_moveaxis(out, -1, axis))


def _precision2d(dt, precision):
    if precision < 0.0 or precision >= 1.0:
        return 1e-3 if dt in (numpy.float32, numpy.complex64) else 1e-6
    return precision


def cspline2d(signal, lamb=0.0, precision=-1.0):
    """See `scipy.signal.cspline2d`. Each axis is one symiirorder1 (or symiirorder2, smoothing)
    over every line at once.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> img = cuarray.arange(256.).reshape(16, 16) % 7
    >>> signal.cspline2d(img)[0, :3].round(4)
    array([-0.7054,  0.779 ,  1.8657])
    """
    x = _data(signal, "cspline2d")
    precision = _precision2d(x.dtype, precision)
    if lamb <= 1 / 144.0:
        r = -2 + math.sqrt(3.0)
        out = _along(_symiirorder1, x, -1, -r * 6.0, r, precision)
        return _along(_symiirorder1, out, 0, -r * 6.0, r, precision)
    xi = 1 - 96 * lamb + 24 * lamb * math.sqrt(3 + 144 * lamb)
    omega = math.atan(math.sqrt((144 * lamb - 1.0) / xi))
    r = (24 * lamb - 1 - math.sqrt(xi)) / (24 * lamb) * math.sqrt(48 * lamb + 24 * lamb * math.sqrt(
        3 + 144 * lamb)) / math.sqrt(xi)
    out = _along(_symiirorder2, x, -1, r, omega, precision)
    return _along(_symiirorder2, out, 0, r, omega, precision)


def qspline2d(signal, lamb=0.0, precision=-1.0):
    """See `scipy.signal.qspline2d`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> img = cuarray.arange(256.).reshape(16, 16) % 7
    >>> signal.qspline2d(img)[0, :3].round(4)
    array([-0.4514,  0.7687,  1.7794])
    """
    x = _data(signal, "qspline2d")
    precision = _precision2d(x.dtype, precision)
    if lamb > 0:
        raise ValueError("lambda must be negative or zero")
    r = -3 + 2 * math.sqrt(2.0)
    out = _along(_symiirorder1, x, -1, -r * 8.0, r, precision)
    return _along(_symiirorder1, out, 0, -r * 8.0, r, precision)


def sepfir2d(input, hrow, hcol):
    """See `scipy.signal.sepfir2d`: ndimage's `convolve1d` along rows (`hrow`) then columns
    (`hcol`), edges extended symmetrically about the half sample (ndimage's 'reflect': what SciPy's
    C code does, whatever its comments say). `hrow` and `hcol` may be host or device arrays.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> img = cuarray.arange(16.).reshape(4, 4)
    >>> signal.sepfir2d(img, [1., 2., 1.], [1., 0., -1.])
    array([[16., 16., 16., 16.],
           [32., 32., 32., 32.],
           [32., 32., 32., 32.],
           [16., 16., 16., 16.]])
    """
    x = _data(input, "sepfir2d")
    if x.ndim != 2:
        raise ValueError("object of too small depth for desired array" if x.ndim < 2 else
                         "object too deep for desired array")
    # SciPy's type: at least float32 (int8/int16 -> float32, wider integers -> float64), at most complex128
    dt = numpy.promote_types(x.dtype, numpy.float32) if x.dtype.kind in "biuf" else numpy.dtype(numpy.complex128) \
        if x.dtype == numpy.complex128 else x.dtype
    if x.dtype.kind in "iu" and x.dtype.itemsize >= 4:
        dt = numpy.dtype(numpy.float64)
    hrow, hcol = _host_param(hrow), _host_param(hcol)
    if hrow.ndim != 1 or hcol.ndim != 1:
        raise ValueError("hrow and hcol must be 1-D")
    if hrow.shape[0] % 2 != 1 or hcol.shape[0] % 2 != 1:
        raise ValueError("hrow and hcol must be odd length")
    hrow, hcol = hrow.astype(dt), hcol.astype(dt)
    if dt.kind == "c" and not (hrow.imag.any() or hcol.imag.any()):
        hrow, hcol = hrow.real.copy(), hcol.real.copy()  # (real taps: ndimage's real pass per part)
    x = _astype(x, dt, copy=False)
    out = _ndf.convolve1d(x, hrow, axis=1, mode="reflect")
    return _ndf.convolve1d(out, hcol, axis=0, mode="reflect")


def spline_filter(Iin, lmbda=5.0):
    """See `scipy.signal.spline_filter` (complex128 computed in complex64, as SciPy).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> img = cuarray.arange(4096.).reshape(64, 64) % 7
    >>> signal.spline_filter(img)[0, :3].round(4)
    array([1.9167, 2.2615, 2.77  ])
    """
    x = _data(Iin, "spline_filter")
    if x.dtype not in (numpy.float32, numpy.float64, numpy.complex64, numpy.complex128):
        raise TypeError("Invalid data type for Iin: Iin.dtype = {!r}".format(x.dtype))
    intype = x.dtype
    h = numpy.array([1.0, 4.0, 1.0], numpy.float32) / 6.0
    if intype == numpy.complex128:
        x = _astype(x, numpy.complex64)
    out = sepfir2d(cspline2d(x, lmbda), h, h)
    return _astype(out, intype, copy=False)


def gauss_spline(x, n):
    """See `scipy.signal.gauss_spline`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.gauss_spline(cuarray.array([-1., 0., 1.]), 3)
    array([0.15418033, 0.6909883 , 0.15418033])
    """
    x = _data(x, "gauss_spline")
    signsq = (n + 1) / 12.0
    return 1 / math.sqrt(2 * math.pi * signsq) * _exp(-x ** 2 / 2 / signsq)
