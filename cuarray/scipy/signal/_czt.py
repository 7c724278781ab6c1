"""scipy.signal's chirp z-transform on the device: `CZT`, `ZoomFFT`, `czt`, `zoom_fft`,
`czt_points`. On the unit circle (`w` None, the default) the transform is an m-point DFT of the
weighted input folded modulo m: one cuFFT transform. Other spirals: Bluestein's algorithm (L. Rabiner, R. Schafer, C. Rader, "The chirp z-transform
algorithm", IEEE Trans. Audio Electroacoust. 17 (1969)): the transform of n points at m points is
one convolution of length n + m - 1, done as cuarray.fft transforms of a 7-smooth length (cuFFT's
fast sizes, the same length SciPy's next_fast_len gives) over every line of a batch at once. The
chirps are computed on the device when the transform is planned; the result is complex128 as SciPy's.
Memory passes are kept few: the reciprocal chirp and the weighted input are written straight into
their zero-padded FFT buffers (no concatenation or padding copy), the inverse FFT's 1/nfft is folded
into the reciprocal chirp (no scaling pass), a = 1 needs no powers (a**-k is exactly 1 there) and
the spectra are multiplied in place."""

from __future__ import annotations

import cmath
import numbers

import numpy

import cuarray.fft as _fft  # (the subsystem, by its full name: layers checked in tests/test_layers.py)

from ..._creation.basic import zeros as _zeros
from ..._creation.ranges import arange as _arange
from ..._manipulation.transpose import swapaxes as _swapaxes
from ..._math.arithmetic import divide as _divide
from ..._math.arithmetic import multiply as _multiply
from ..._math.explog import exp as _exp
from ._args import data as _data
from ._args import host_param as _host_param
from ._convolve import _next_fast_len

__all__ = ["czt", "zoom_fft", "CZT", "ZoomFFT", "czt_points"]


def _validate_sizes(n, m):
    if n < 1 or not isinstance(n, numbers.Integral):
        raise ValueError("Invalid number of CZT data points ({}) specified. n must be positive and integer "
                         "type.".format(n))
    if m is None:
        return n
    if m < 1 or not isinstance(m, numbers.Integral):
        raise ValueError("Invalid number of CZT output points ({}) specified. m must be positive and integer "
                         "type.".format(m))
    return m


def czt_points(m, w=None, a=1 + 0j):
    """See `scipy.signal.czt_points`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.czt_points(3, w=0.5, a=2.)
    array([2., 4., 8.])
    """
    m = _validate_sizes(1, m)
    k = _arange(m, dtype=numpy.int64)
    a = 1.0 * a
    if w is None:
        return a * _exp(2j * numpy.pi * k / m)
    return a * (1.0 * w) ** -k


class CZT:
    """See `scipy.signal.CZT`. The chirps live on the device; a call transforms every line of its
    input along `axis` at once.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> f = signal.CZT(n=4)
    >>> abs(f(cuarray.array([1., 2., 3., 4.]))).round(6)
    array([10.      ,  2.828427,  2.      ,  2.828427])
    """

    _dft = False  # (the unit-circle DFT path: w is None)

    def __init__(self, n, m=None, w=None, a=1 + 0j):
        m = _validate_sizes(n, m)
        a = 1.0 * a
        self.m, self.n, self.a = m, n, a
        self._dft = w is None
        if w is None:
            # The default spiral is the unit circle at m equally spaced points: the transform is
            # the m-point DFT of x_j a^-j folded modulo m (zero-padded when m > n), one cuFFT
            # transform; no chirps (the convolution of three FFTs of about n + m points is for
            # other spirals). More accurate than SciPy's Bluestein, equal to its rounding.
            self.w = cmath.exp(-2j * numpy.pi / m)
            self._ak = None if a == 1 else a ** -_arange(n, dtype=numpy.int64)
            return
        k = _arange(max(m, n), dtype=numpy.int64)
        wk2 = w ** (k ** 2 / 2.0)
        self.w = w
        self._finish(wk2[:n] if a == 1 else a ** -k[:n] * wk2[:n], wk2, n, m)

    def _finish(self, awk2, wk2, n, m):
        nfft = _next_fast_len(n + m - 1, False)
        self._Awk2 = awk2
        self._nfft = nfft
        # 1 / (wk2[n-1:0:-1], wk2[:m]) zero-padded to nfft, times the inverse FFT's 1 / nfft
        buf = _zeros(nfft, dtype=wk2.dtype)
        _divide(1.0 / nfft, wk2[n - 1:0:-1], out=buf[:n - 1])
        _divide(1.0 / nfft, wk2[:m], out=buf[n - 1:n + m - 1])
        self._Fwk2 = _fft.fft(buf)
        self._wk2 = wk2[:m]
        self._yidx = slice(n - 1, n + m - 1)

    def __call__(self, x, *, axis=-1):
        """The transform of `x` along `axis` (see `scipy.signal.CZT`)."""
        x = _data(x, type(self).__name__)
        if x.shape[axis] != self.n:
            raise ValueError("CZT defined for length {}, not {}".format(self.n, x.shape[axis]))
        x = _swapaxes(x, axis, -1)
        if self._dft:
            return _swapaxes(self._dft_last(x), axis, -1)
        buf = _zeros(x.shape[:-1] + (self._nfft,), dtype=numpy.result_type(x.dtype, self._Awk2.dtype, 1j))
        _multiply(x, self._Awk2, out=buf[..., :self.n])
        spec = _fft.fft(buf)
        _multiply(spec, self._Fwk2, out=spec)
        y = _fft.ifft(spec, norm="forward")  # (1 / nfft is in _Fwk2)
        y = y[..., self._yidx] * self._wk2
        return _swapaxes(y, axis, -1)

    def _dft_last(self, x):
        """The transform along the last axis on the unit circle (w is None)."""
        dt = numpy.result_type(x.dtype, numpy.complex128)
        n, m = self.n, self.m
        x = (x if self._ak is None else _multiply(x, self._ak)).astype(dt, copy=False)
        if m < n:  # fold: X_k sums x_j over j = k mod m
            whole = -(-n // m) * m
            if whole != n:
                buf = _zeros(x.shape[:-1] + (whole,), dtype=dt)
                buf[..., :n] = x
                x = buf
            x = x.reshape(x.shape[:-1] + (whole // m, m)).sum(axis=-2)
        return _fft.fft(x, n=m)

    def points(self):
        """The points at which the transform is computed (see `scipy.signal.CZT.points`)."""
        return czt_points(self.m, self.w, self.a)


class ZoomFFT(CZT):
    """See `scipy.signal.ZoomFFT`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> f = signal.ZoomFFT(4, [0., 1.], m=2)
    >>> abs(f(cuarray.array([1., 2., 3., 4.]))).round(6)
    array([10.      ,  2.828427])
    """

    def __init__(self, n, fn, m=None, *, fs=2, endpoint=False):
        m = _validate_sizes(n, m)
        k = _arange(max(m, n), dtype=numpy.int64)
        fn = _host_param(fn)  # (the range: a host parameter, device scalars in a list included)
        if fn.size == 2:
            f1, f2 = fn
        elif fn.size == 1:
            f1, f2 = 0.0, fn
        else:
            raise ValueError("fn must be a scalar or 2-length sequence")
        self.f1, self.f2, self.fs = f1, f2, fs
        scale = ((f2 - f1) * m) / (fs * (m - 1)) if endpoint else (f2 - f1) / fs
        wk2 = _exp(-(1j * numpy.pi * scale * k ** 2) / m)
        self.w = cmath.exp(-2j * numpy.pi / m * scale)
        self.a = cmath.exp(2j * numpy.pi * f1 / fs)
        self.m, self.n = m, n
        ak = _exp(-2j * numpy.pi * f1 / fs * k[:n])
        self._finish(ak * wk2[:n], wk2, n, m)


def czt(x, m=None, w=None, a=1 + 0j, *, axis=-1):
    """See `scipy.signal.czt`. Bluestein's algorithm over cuarray.fft, every line at once.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> abs(signal.czt(cuarray.array([1., 2., 3., 4.]))).round(6)
    array([10.      ,  2.828427,  2.      ,  2.828427])
    """
    x = _data(x, "czt")
    return CZT(x.shape[axis], m=m, w=w, a=a)(x, axis=axis)


def zoom_fft(x, fn, m=None, *, fs=2, endpoint=False, axis=-1):
    """See `scipy.signal.zoom_fft`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> abs(signal.zoom_fft(cuarray.array([1., 2., 3., 4.]), [0., 1.], m=2)).round(6)
    array([10.      ,  2.828427])
    """
    x = _data(x, "zoom_fft")
    return ZoomFFT(x.shape[axis], fn, m=m, fs=fs, endpoint=endpoint)(x, axis=axis)
