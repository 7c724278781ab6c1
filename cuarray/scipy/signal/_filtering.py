"""scipy.signal's filtering functions that are ndimage filters or FFTs on the GPU: `medfilt`,
`medfilt2d` (ndimage's rank kernel, zero padding), `wiener` (local means by correlation),
`hilbert`, `hilbert2` (cuarray.fft), `detrend` (a least-squares fit per segment, on the device)."""

from __future__ import annotations

import math
import warnings

import numpy

import cuarray.fft as _fft  # (the subsystem, by its full name: layers checked in tests/test_layers.py)
from ..._core.transfer import from_host as _from_host
from ..._manipulation.joining import concatenate as _concatenate
from ..._sorting.searching import where as _where
from ..ndimage import _filters as _ndf
from ..ndimage import _support as _s
from . import _args
from . import _convolve

__all__ = ["medfilt", "medfilt2d", "wiener", "hilbert", "hilbert2", "detrend"]


def medfilt(volume, kernel_size=None):
    """See `scipy.signal.medfilt`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.medfilt(cuarray.array([2., 8., 0., 4., 1.]), 3)
    array([2., 2., 4., 1., 1.])
    """
    volume = _args.data(volume, "medfilt")
    if volume.ndim == 0:
        volume = volume.reshape((1,))
    if not (volume.dtype.kind in "iu" or volume.dtype in (numpy.float32, numpy.float64)):
        raise ValueError("dtype={} is not supported by medfilt".format(volume.dtype))
    if kernel_size is None:
        kernel_size = [3] * volume.ndim
    kernel_size = _args.host_param(kernel_size)
    if kernel_size.shape == ():
        kernel_size = numpy.repeat(kernel_size.item(), volume.ndim)
    for k in range(volume.ndim):
        if kernel_size[k] % 2 != 1:
            raise ValueError("Each element of kernel_size should be odd.")
    if any(k > s for k, s in zip(kernel_size, volume.shape)):
        warnings.warn("kernel_size exceeds volume extent: the volume will be zero-padded.", stacklevel=2)
    size = int(math.prod(int(k) for k in kernel_size))
    return _ndf.rank_filter(volume, size // 2, size=[int(k) for k in kernel_size], mode="constant")


def medfilt2d(input, kernel_size=3):
    """See `scipy.signal.medfilt2d`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.medfilt2d(cuarray.array([[1., 9., 2.], [8., 3., 7.], [4., 6., 5.]]))
    array([[0., 2., 0.],
           [3., 5., 3.],
           [0., 4., 0.]])
    """
    x = _args.data(input, "medfilt2d")
    if x.ndim != 2:
        raise ValueError("medfilt2d: input must be 2-D")  # SciPy's C core: "invalid image dimensions"
    return medfilt(x, kernel_size if kernel_size is not None else 3)


def wiener(im, mysize=None, noise=None):
    """See `scipy.signal.wiener`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.wiener(cuarray.array([1., 2., 8., 3., 4.]), 3)
    array([1.        , 2.86046512, 5.37419355, 5.        , 2.33333333])
    """
    im = _args.data(im, "wiener")
    if mysize is None:
        mysize = [3] * im.ndim
    mysize = _args.host_param(mysize)
    mysize = [mysize.item()] * im.ndim if mysize.shape == () else mysize.tolist()
    size = float(math.prod(mysize))
    ones = numpy.ones(mysize)
    local_mean = _convolve.correlate(im, _ones_like(im, ones), "same") / size
    local_var = _convolve.correlate(im ** 2, _ones_like(im, ones), "same") / size - local_mean ** 2
    if noise is None:
        noise = local_var.mean()
    res = im - local_mean
    res = res * (1 - noise / local_var)
    res = res + local_mean
    return _where(local_var < noise, local_mean, res)


def _ones_like(x, host):
    """The small host array `host` on x's device (a local-mean kernel, a Hilbert mask)."""
    return _from_host(host) if _s.is_array(x) else host


def hilbert(x, N=None, axis=-1):
    """See `scipy.signal.hilbert`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> x = cuarray.array([1., 0., -1., 0.])
    >>> cuarray.abs(signal.hilbert(x))   # the envelope
    array([1., 1., 1., 1.])
    """
    x = _args.data(x, "hilbert")
    if x.dtype.kind == "c":
        raise ValueError("x must be real.")
    if N is None:
        N = x.shape[axis]
    if N <= 0:
        raise ValueError("N must be positive.")
    xf = _fft.fft(x, N, axis=axis)
    h = numpy.zeros(N)
    if N % 2 == 0:
        h[0] = h[N // 2] = 1
        h[1:N // 2] = 2
    else:
        h[0] = 1
        h[1:(N + 1) // 2] = 2
    shape = [1] * x.ndim
    shape[axis] = N
    # the mask in the spectrum's precision: SciPy scales in place, so float32 data stays complex64
    h = h.astype(xf.real.dtype)
    return _fft.ifft(xf * _ones_like(x, h.reshape(shape)), axis=axis)


def hilbert2(x, N=None, axes=(-2, -1)):
    """See `scipy.signal.hilbert2`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> cuarray.abs(signal.hilbert2(cuarray.array([[1., 2.], [3., 5.]])))
    array([[2.75, 2.75],
           [2.75, 2.75]])
    """
    x = _args.data(x, "hilbert2")
    if x.ndim < 2:
        x = x.reshape((1,) * (2 - x.ndim) + x.shape)
    if x.dtype.kind == "c":
        raise ValueError("x must be real.")
    if len(axes) != 2:
        raise ValueError("axes must be a tuple of length 2")
    if axes[0] == axes[1]:
        raise ValueError("axes must contain 2 distinct axes")
    if N is None:
        N = (x.shape[axes[0]], x.shape[axes[1]])
    elif isinstance(N, int):
        if N <= 0:
            raise ValueError("N must be positive.")
        N = (N, N)
    elif len(N) != 2 or numpy.any(numpy.asarray(N) <= 0):
        raise ValueError("When given as a tuple, N must hold exactly two positive integers")
    xf = _fft.fft2(x, N, axes=axes)
    # SciPy's mask per axis: 1 at 0, 2 below (n + 1) // 2, 0 from there (the Nyquist bin too)
    shape = [1] * x.ndim
    mask = None
    for ax, n in zip(axes, N):
        k = (n + 1) // 2
        h = numpy.zeros(n)
        h[0] = 1
        h[1:k] = 2
        sh = list(shape)
        sh[ax] = n
        mask = h.reshape(sh) if mask is None else mask * h.reshape(sh)
    return _fft.ifft2(xf * _ones_like(x, mask.astype(xf.real.dtype)), axes=axes)


def detrend(data, axis=-1, type="linear", bp=0, overwrite_data=False):
    """See `scipy.signal.detrend`. The least-squares fit per segment is a projection onto
    (1, t): two reductions, not a host lstsq.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.detrend(cuarray.array([1., 2., 4., 4., 6.]), type='constant')
    array([-2.4, -1.4,  0.6,  0.6,  2.6])
    """
    if type not in ("linear", "l", "constant", "c"):
        raise ValueError("Trend type must be 'linear' or 'constant'.")
    data = _args.data(data, "detrend")
    dtype = data.dtype.char
    if dtype not in "dfDF":
        dtype = "d"
    if type in ("constant", "c"):
        return data - data.mean(axis, keepdims=True)
    n = data.shape[axis]
    bp = numpy.sort(numpy.unique(numpy.concatenate(numpy.atleast_1d(0, _args.host_param(bp), n))))
    if numpy.any(bp > n):
        raise ValueError("Breakpoints must be less than length of data along given axis.")
    x = data.astype(dtype)
    pieces = []
    idx = [slice(None)] * x.ndim
    for m in range(len(bp) - 1):
        lo, hi = int(bp[m]), int(bp[m + 1])
        idx[axis] = slice(lo, hi)
        seg = x[tuple(idx)]
        npts = hi - lo
        # SciPy fits against t = (1..npts) / npts, least squares: slope = cov(t, y) / var(t)
        t = numpy.arange(1, npts + 1, dtype=numpy.float64) / npts
        shape = [1] * x.ndim
        shape[axis] = npts
        tc = t - t.mean()
        denom = float((tc * tc).sum())
        tdev = _ones_like(seg, tc.reshape(shape).astype(dtype))
        mean = seg.mean(axis, keepdims=True)
        slope = (seg * tdev).sum(axis, keepdims=True) / denom if denom > 0 else 0 * mean
        pieces.append(seg - mean - slope * tdev)
    return _concatenate(pieces, axis=axis) if len(pieces) > 1 else pieces[0]
