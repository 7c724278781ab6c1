"""scipy.signal's frequency responses on the GPU: `freqz` (on its uniform grid an FFT of the numerator,
divided by the denominator's FFT or constant; Horner's rule on the device otherwise),
`freqz_zpk`, `freqz_sos` (`sosfreqz`), `freqs`, `freqs_zpk`, `group_delay`; `findfreqs` is host work
(a polynomial's roots). Coefficients are small parameters (host or device arrays, lists): they are
read on the host and enter the kernels as scalars, one elementwise pass per coefficient; the
frequency grid and the response live on the device. dtypes follow SciPy's rules (float32
coefficients with a float32 denominator give complex64)."""

from __future__ import annotations

import math
import operator
import warnings

import numpy

import cuarray.fft as _fft  # (the subsystem, by its full name: layers checked in tests/test_layers.py)
from ..._core.transfer import from_host as _from_host
from ..._creation.basic import full as _full
from ..._creation.ranges import linspace as _linspace
from ..._logic.content import isfinite as _isfinite
from ..._manipulation.joining import concatenate as _concatenate
from ..._manipulation.transpose import moveaxis as _moveaxis
from ..._math.complex import conj as _conj
from ..._math.complex import real as _real
from ..._math.explog import exp as _exp
from ..._math.misc import absolute as _abs
from ..._sorting.searching import where as _where
from ..ndimage import _support as _s
from . import _args
from . import _host_calls as _h

__all__ = ["freqz", "freqz_zpk", "freqz_sos", "sosfreqz", "freqs", "freqs_zpk", "group_delay", "findfreqs"]

_EPSILON = 2e-16  # SciPy's threshold for a near-singular group delay


def _validate_fs(fs):
    if fs is None:
        raise ValueError("Sampling frequency can not be none.")
    if not numpy.isscalar(fs):
        raise ValueError("Sampling frequency fs must be a single scalar.")
    return float(fs)


def _is_int(x) -> bool:
    try:
        operator.index(x)
    except TypeError:
        return False
    return True


def _real_dtype(dt):
    dt = numpy.dtype(dt)
    if dt.kind == "f":
        return dt
    if dt.kind == "c":
        return numpy.dtype(numpy.float32 if dt == numpy.complex64 else numpy.float64)
    raise ValueError(f"Unknown dtype {dt}.")


def _grid(worN, dtype):
    """A frequency array given by the caller, on the device, of `dtype` (SciPy's asarray(worN, dtype))."""
    if isinstance(worN, complex):
        worN = worN.real
    w = worN if _s.is_array(worN) else _from_host(numpy.asarray(worN))
    w = w.astype(dtype) if dtype is not None else w
    if w.dtype.kind in "iub":
        w = w.astype(numpy.float64)
    return w.reshape((1,)) if w.ndim == 0 else w


def _horner(c, x):
    """c[0] + c[1] x + ... + c[n-1] x^(n-1) at the device points x (c on the host; coefficients of
    more than one dimension broadcast against x), in result_type(c, x)."""
    dt = numpy.result_type(c.dtype, x.dtype)
    if c.ndim == 1:
        h = _full(x.shape, c[-1], dtype=dt)
        for k in range(c.shape[0] - 2, -1, -1):
            h = h * x + c[k].item()
        return h
    h = _from_host(numpy.asarray(c[-1], dt)) + x * 0
    for k in range(c.shape[0] - 2, -1, -1):
        h = h * x + _from_host(numpy.asarray(c[k], dt))
    return h.astype(dt, copy=False)


def _from_roots(r, x):
    """prod_i (x - r_i) at the device points x, in result_type(r, x)."""
    dt = numpy.result_type(r.dtype, x.dtype)
    h = _full(x.shape, 1, dtype=dt)
    for root in r:
        h = h * (x - complex(root))
    return h.astype(dt, copy=False)


def freqz(b, a=1, worN=512, whole=False, plot=None, fs=2 * math.pi, include_nyquist=False):
    """See `scipy.signal.freqz`. `b` and `a` are read on the host (coefficients); `worN` points
    of any number are computed on the device.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> w, h = signal.freqz(cuarray.array([0.5, 0.5]), worN=4)
    >>> w
    array([0.        , 0.78539816, 1.57079633, 2.35619449])
    >>> cuarray.round(cuarray.abs(h), 6)
    array([1.      , 0.92388 , 0.707107, 0.382683])
    """
    b = numpy.atleast_1d(_args.host_param(b))
    a = numpy.atleast_1d(_args.host_param(a))
    if a.dtype.kind in "iub":
        a = a.astype(numpy.float64)
    res = numpy.result_type(b, a)
    real_dt = _real_dtype(res)
    fs = _validate_fs(fs)
    if worN is None:
        worN = 512
    h = None
    if _is_int(worN):
        N = operator.index(worN)
        if N < 0:
            raise ValueError(f"worN must be nonnegative, got {N}")
        w = _linspace(0, 2 * math.pi if whole else math.pi, N, endpoint=include_nyquist and not whole,
                      dtype=real_dt)
        n_fft = N if whole else 2 * (N - 1) if include_nyquist else 2 * N
        if a.size == 1 and (b.ndim == 1 or b.shape[-1] == 1) and n_fft >= b.shape[0] and n_fft > 0:
            h = _fft_response(b, a, N, n_fft, whole)
        elif b.ndim == 1 and a.ndim == 1 and n_fft >= max(b.shape[0], a.shape[0]) and N > 0:
            h = _fft_ratio(b if b.dtype.kind in "fc" else b.astype(numpy.float64), a, N, n_fft, whole, real_dt)
    else:
        w = _grid(worN, res)
        w = 2 * math.pi * w / fs
    if h is None:
        zm1 = _exp(-1j * w)
        h = _horner(b if b.dtype.kind in "fc" else b.astype(numpy.float64), zm1) / _horner(a, zm1)
    w = w * (fs / (2 * math.pi))
    if plot is not None:
        plot(w, h)
    return w, h


def _fft_response(b, a, N, n_fft, whole):
    """freqz's FFT path: the numerator's FFT over n_fft points, divided by the constant a."""
    real = b.dtype.kind == "f" and a.dtype.kind == "f"
    single = b.dtype in (numpy.float16, numpy.float32, numpy.complex64)
    cdt = numpy.dtype(numpy.complex64 if single else numpy.complex128)
    if real:
        h = _fft.rfft(_from_host(b.astype(numpy.float32 if single else numpy.float64)), n=n_fft, axis=0)
    else:
        h = _fft.fft(_from_host(b.astype(cdt)), n=n_fft, axis=0)
    h = h.astype(cdt, copy=False)[:min(N, h.shape[0])]
    h = h / cdt.type(a.reshape(-1)[0])
    if real and whole:  # the other half from the conjugate symmetry of a real numerator
        stop = None if n_fft % 2 == 1 else -1
        h = _concatenate((h, _conj(h[1:stop][::-1])))
    if b.ndim > 1:
        h = _moveaxis(h[..., 0], 0, -1)
    return h


def _fft_ratio(b, a, N, n_fft, whole, real_dt):
    """freqz's path for a rational response on its uniform grid (SciPy evaluates both polynomials
    by Horner's rule, two elementwise passes a coefficient): both polynomials' FFTs over n_fft
    points, as one batched transform of the two stacked, and their quotient. The values differ
    from Horner's in rounding only (an FFT's error grows as log n_fft, Horner's as the order).
    dtype: SciPy's, complex64 only where the coefficients and the grid are single precision."""
    zdt = numpy.result_type(real_dt, numpy.complex64)
    cdt = numpy.result_type(numpy.result_type(b.dtype, zdt), numpy.result_type(a.dtype, zdt))
    real = b.dtype.kind == "f" and a.dtype.kind == "f"
    rows = numpy.zeros((2, max(b.shape[0], a.shape[0])), numpy.float32 if cdt == numpy.complex64 else numpy.float64)
    rows = rows if real else rows.astype(cdt)
    rows[0, :b.shape[0]], rows[1, :a.shape[0]] = b, a
    spec = (_fft.rfft if real else _fft.fft)(_from_host(rows), n=n_fft, axis=1)
    n = min(N, spec.shape[1])
    h = (spec[0, :n] / spec[1, :n]).astype(cdt, copy=False)
    if real and whole:  # the other half from the conjugate symmetry of real polynomials
        stop = None if n_fft % 2 == 1 else -1
        h = _concatenate((h, _conj(h[1:stop][::-1])))
    return h


def freqz_zpk(z, p, k, worN=512, whole=False, fs=2 * math.pi):
    """See `scipy.signal.freqz_zpk`. Zeros and poles are read on the host; the response is
    computed on the device.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> w, h = signal.freqz_zpk([-1.], [0.5], 0.25, worN=4)
    >>> cuarray.round(cuarray.abs(h), 6)
    array([1.      , 0.626943, 0.316228, 0.136774])
    """
    z = numpy.atleast_1d(_args.host_param(z))
    p = numpy.atleast_1d(_args.host_param(p))
    res = numpy.result_type(z, p)
    res = numpy.dtype(numpy.float64 if res in (numpy.float64, numpy.complex128) else numpy.float32)
    fs = _validate_fs(fs)
    last = 2 * math.pi if whole else math.pi
    if worN is None:
        w = _linspace(0, last, 512, endpoint=False, dtype=res)
    elif _is_int(worN):
        w = _linspace(0, last, worN, endpoint=False, dtype=res)
    else:
        w = 2 * math.pi * _grid(worN, None) / fs
    zm1 = _exp(1j * w)
    kk = numpy.asarray(_h.to_host(k), dtype=res)
    h = _from_host(kk) * _from_roots(z, zm1) / _from_roots(p, zm1)
    return w * (fs / (2 * math.pi)), h


def freqz_sos(sos, worN=512, whole=False, fs=2 * math.pi):
    """See `scipy.signal.freqz_sos`. The sections are read on the host; the response is the
    product of each section's on the device.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> sos = cuarray.array([[1., 0., 0., 1., -0.5, 0.]])   # 1 / (1 - 0.5 z^-1)
    >>> w, h = signal.freqz_sos(sos, worN=4)
    >>> cuarray.round(cuarray.abs(h), 6)
    array([2.      , 1.357197, 0.894427, 0.714813])
    """
    fs = _validate_fs(fs)
    sos = numpy.asarray(_args.host_param(sos))
    if sos.ndim < 2:
        sos = sos.reshape((1,) * (2 - sos.ndim) + sos.shape)
    if sos.ndim != 2:
        raise ValueError("sos array must be 2D")
    n_sections, m = sos.shape
    if m != 6:
        raise ValueError("sos array must be shape (n_sections, 6)")
    if not numpy.all(sos[:, 3] == 1):
        raise ValueError("sos[:, 3] should be all ones")
    if n_sections == 0:
        raise ValueError("Cannot compute frequencies with no sections")
    h = 1.0
    for row in sos:
        w, rowh = freqz(row[:3], row[3:], worN=worN, whole=whole, fs=fs)
        h = h * rowh
    return w, h


def sosfreqz(*args, **kwargs):
    """See `scipy.signal.sosfreqz` (SciPy's legacy name of `freqz_sos`).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> sos = cuarray.array([[1., 0., 0., 1., -0.5, 0.]])   # 1 / (1 - 0.5 z^-1)
    >>> w, h = signal.sosfreqz(sos, worN=4)
    >>> cuarray.round(cuarray.abs(h), 6)
    array([2.      , 1.357197, 0.894427, 0.714813])
    """
    return freqz_sos(*args, **kwargs)


def freqs(b, a, worN=200, plot=None):
    """See `scipy.signal.freqs`. The frequencies SciPy picks (`findfreqs`) come from the host.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> w, h = signal.freqs([1.], [1., 1.], worN=cuarray.array([0.5, 1., 2.]))
    >>> cuarray.round(cuarray.abs(h), 6)
    array([0.894427, 0.707107, 0.447214])
    """
    b, a = _args.host_param(b), _args.host_param(a)
    if worN is None:
        worN = 200
    w = findfreqs(b, a, worN) if _is_int(worN) else _grid(worN, None)
    s = 1j * w
    h = _horner(numpy.atleast_1d(b)[::-1], s) / _horner(numpy.atleast_1d(a)[::-1], s)
    if plot is not None:
        plot(w, h)
    return w, h


def freqs_zpk(z, p, k, worN=200):
    """See `scipy.signal.freqs_zpk`. The frequencies SciPy picks (`findfreqs`) come from the host.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> w, h = signal.freqs_zpk([], [-1.], 1., worN=cuarray.array([0.5, 1., 2.]))
    >>> cuarray.round(cuarray.abs(h), 6)
    array([0.894427, 0.707107, 0.447214])
    """
    z, p = numpy.atleast_1d(_args.host_param(z)), numpy.atleast_1d(_args.host_param(p))
    k = numpy.asarray(_h.to_host(k), dtype=numpy.float64)
    if k.size > 1:
        raise ValueError("k must be a single scalar gain")
    if worN is None:
        worN = 200
    w = findfreqs(z, p, worN, kind="zp") if _is_int(worN) else _grid(worN, None)
    s = 1j * w
    return w, _from_host(k) * _from_roots(z, s) / _from_roots(p, s)


def group_delay(system, w=512, whole=False, fs=2 * math.pi):
    """See `scipy.signal.group_delay`. The singularity warnings read the result on the host.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> w, gd = signal.group_delay(([1., 0.5], [1.]), w=4)
    >>> cuarray.round(gd, 6)
    array([ 0.333333,  0.308391,  0.2     , -0.190744])
    """
    b, a = (numpy.atleast_1d(_args.host_param(c)) for c in system)
    if w is None:
        w = 512
    fs = _validate_fs(fs)
    if _is_int(w):
        w = _linspace(0, 2 * math.pi if whole else math.pi, w, endpoint=False, dtype=numpy.float64)
    else:
        w = 2 * math.pi * _grid(w, None) / fs
    c = numpy.convolve(b, numpy.conjugate(a[::-1]))
    cr = c * numpy.arange(c.size)
    zz = _exp(-1j * w)
    num, den = _horner(cr, zz), _horner(c, zz)
    gd = _real(num / den) - a.size + 1
    singular = ~_isfinite(gd)
    if bool(singular.any()):
        gd = _where(singular, 0.0, gd)
        ws = _h.to_host(w[singular])
        warnings.warn("The group delay is singular at frequencies [{}], setting to 0".format(
            ", ".join(f"{x:.3f}" for x in ws)), stacklevel=2)
    else:
        near = _abs(den) < 10 * _EPSILON
        if bool(near.any()):
            ws = _h.to_host(w[near])
            warnings.warn("The filter's denominator is extremely small at frequencies [{}], around which a "
                          "singularity may be present".format(", ".join(f"{x:.3f}" for x in ws)), stacklevel=2)
    return w * (fs / (2 * math.pi)), gd


def findfreqs(num, den, N, kind="ba"):
    """See `scipy.signal.findfreqs`. Host work (the polynomials' roots); the frequencies come back
    on the device.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.findfreqs([1.], [1., 1.], 3)
    array([ 0.01      ,  0.31622777, 10.        ])
    """
    return _h.call("findfreqs", num, den, N, kind)
