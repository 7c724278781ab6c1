"""scipy.signal's `argrelextrema`/`argrelmax`/`argrelmin` (shifted comparisons on the device),
`oaconvolve` (one FFT convolution: the same result as SciPy's overlap-add, which is a speed choice),
`savgol_coeffs` (host least squares, as SciPy; the result in the namespace of SciPy's `xp`/`device`
keywords, `_host_calls.to_namespace`) and `savgol_filter` (ndimage's convolve1d, with the
'interp' edges as one small matrix product per edge)."""

from __future__ import annotations

import math

import numpy

from ..._core.transfer import from_host as _from_host
from ..._manipulation.transpose import moveaxis as _moveaxis
from ..._sorting.searching_nonzero import nonzero as _nonzero
from ..ndimage import _filters as _ndf
from ..ndimage import _support as _s
from . import _args
from . import _convolve
from . import _host_calls as _h

__all__ = ["argrelextrema", "argrelmax", "argrelmin", "oaconvolve", "savgol_coeffs", "savgol_filter"]


def _take(data, locs, axis, mode):
    n = data.shape[axis]
    locs = numpy.clip(locs, 0, n - 1) if mode == "clip" else numpy.mod(locs, n)
    idx = [slice(None)] * data.ndim
    idx[axis] = _from_host(locs) if _s.is_array(data) else locs
    return data[tuple(idx)]


def _boolrelextrema(data, comparator, axis=0, order=1, mode="clip"):
    if int(order) != order or order < 1:
        raise ValueError("Order must be an int >= 1")
    if mode not in ("clip", "wrap"):
        raise ValueError("mode must be 'clip' or 'wrap'")
    n = data.shape[axis]
    locs = numpy.arange(n)
    results = None
    for shift in range(1, order + 1):
        r = comparator(data, _take(data, locs + shift, axis, mode)) & comparator(data, _take(data, locs - shift, axis,
                                                                                                  mode))
        results = r if results is None else results & r
    return results


def argrelextrema(data, comparator, axis=0, order=1, mode="clip"):
    """See `scipy.signal.argrelextrema`. `comparator` is applied to cuarray arrays (numpy.greater
    and friends dispatch to cuarray's).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> x = cuarray.array([0., 2., 1., 3., 0.5, 1.])
    >>> signal.argrelextrema(x, cuarray.greater)
    (array([1, 3]),)
    """
    data = _args.data(data, "argrelextrema")
    axis = _s.normalize_axis(axis, data.ndim)
    return _nonzero(_boolrelextrema(data, comparator, axis, order, mode))


def argrelmax(data, axis=0, order=1, mode="clip"):
    """See `scipy.signal.argrelmax`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> x = cuarray.array([0., 2., 1., 3., 0.5, 1.])
    >>> signal.argrelmax(x)
    (array([1, 3]),)
    """
    return argrelextrema(data, numpy.greater, axis, order, mode)


def argrelmin(data, axis=0, order=1, mode="clip"):
    """See `scipy.signal.argrelmin`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> x = cuarray.array([0., 2., 1., 3., 0.5, 1.])
    >>> signal.argrelmin(x)
    (array([2, 4]),)
    """
    return argrelextrema(data, numpy.less, axis, order, mode)


def oaconvolve(in1, in2, mode="full", axes=None):
    """See `scipy.signal.oaconvolve`: computed as one FFT convolution (the same values; overlap-add
    is SciPy's way to save time on the host when one operand is much longer).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.oaconvolve(cuarray.array([1., 2., 3.]), cuarray.array([1., 1., 0.5]))
    array([1. , 3. , 5.5, 4. , 1.5])
    """
    return _convolve.fftconvolve(in1, in2, mode, axes)


def savgol_coeffs(window_length, polyorder, deriv=0, delta=1.0, pos=None, use="conv", *, xp=None, device=None):
    """See `scipy.signal.savgol_coeffs` (host least squares on a small system). `xp` None (or
    cuarray) returns a cuarray array on `device` (None: the current device; else a
    `cuarray.cuda.Device`); another namespace (e.g. numpy) returns its array, as SciPy does.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.savgol_coeffs(5, 2)
    array([-0.08571429,  0.34285714,  0.48571429,  0.34285714, -0.08571429])
    """
    return _h.to_namespace(_savgol_coeffs_host(window_length, polyorder, deriv, delta, pos, use), xp, device)


def _savgol_coeffs_host(window_length, polyorder, deriv=0, delta=1.0, pos=None, use="conv"):
    """SciPy's coefficients as a NumPy array (SciPy's checks and errors)."""
    if polyorder >= window_length:
        raise ValueError("polyorder must be less than window_length.")
    halflen, rem = divmod(window_length, 2)
    if pos is None:
        pos = halflen - 0.5 if rem == 0 else halflen
    if not 0 <= pos < window_length:
        raise ValueError("pos must be nonnegative and less than window_length.")
    if use not in ("conv", "dot"):
        raise ValueError("`use` must be 'conv' or 'dot'")
    if deriv > polyorder:
        return numpy.zeros(window_length)
    x = numpy.arange(-pos, window_length - pos, dtype=numpy.float64)
    if use == "conv":
        x = x[::-1]
    a = x ** numpy.arange(polyorder + 1, dtype=numpy.float64).reshape(-1, 1)
    y = numpy.zeros(polyorder + 1)
    y[deriv] = math.factorial(deriv) / delta ** deriv
    return numpy.linalg.lstsq(a, y, rcond=None)[0]


def _edge_matrix(window_length, polyorder, deriv, delta, start, stop):
    """E such that E @ window = the derivative of the least-squares polynomial through the window
    (at t = 0..window_length-1), evaluated at t = start..stop-1."""
    t = numpy.arange(window_length, dtype=numpy.float64)
    a = t[:, None] ** numpy.arange(polyorder + 1)[None, :]
    pinv = numpy.linalg.pinv(a)  # (polyorder + 1, window_length): coefficients, lowest power first
    ti = numpy.arange(start, stop, dtype=numpy.float64)
    d = numpy.zeros((len(ti), polyorder + 1))
    for k in range(deriv, polyorder + 1):
        d[:, k] = math.factorial(k) / math.factorial(k - deriv) * ti ** (k - deriv)
    return (d @ pinv) / delta ** deriv


def savgol_filter(x, window_length, polyorder, deriv=0, delta=1.0, axis=-1, mode="interp", cval=0.0):
    """See `scipy.signal.savgol_filter`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.savgol_filter(cuarray.array([2., 2., 5., 2., 1., 0., 1., 4., 9.]), 5, 2)
    array([1.65714286, 3.17142857, 3.54285714, 2.85714286, 0.65714286,
           0.17142857, 1.        , 4.        , 9.        ])
    """
    if mode not in ("mirror", "constant", "nearest", "interp", "wrap"):
        raise ValueError("mode must be 'mirror', 'constant', 'nearest' 'wrap' or 'interp'.")
    x = _args.data(x, "savgol_filter")
    if x.dtype not in (numpy.float64, numpy.float32):
        x = x.astype(numpy.float64)
    coeffs = _savgol_coeffs_host(window_length, polyorder, deriv=deriv, delta=delta)
    if mode != "interp":
        return _ndf.convolve1d(x, coeffs, axis=axis, mode=mode, cval=cval)
    axis = _s.normalize_axis(axis, x.ndim)
    n = x.shape[axis]
    if window_length > n:
        raise ValueError("If mode is 'interp', window_length must be less than or equal to the size of x.")
    y = _ndf.convolve1d(x, coeffs, axis=axis, mode="constant")
    halflen = window_length // 2
    for w0, i0, i1 in ((0, 0, halflen), (n - window_length, n - halflen, n)):
        e = _edge_matrix(window_length, polyorder, deriv, delta, i0 - w0, i1 - w0).astype(x.dtype)
        idx = [slice(None)] * x.ndim
        idx[axis] = slice(w0, w0 + window_length)
        win = _moveaxis(x[tuple(idx)], axis, -1)
        vals = win @ (_from_host(e.T.copy()) if _s.is_array(x) else e.T)
        idx[axis] = slice(i0, i1)
        y[tuple(idx)] = _moveaxis(vals, -1, axis)
    return y
