"""scipy.signal's symmetric IIR smoothing, `symiirorder1` and `symiirorder2`, on the device.

Each is a causal then an anti-causal recursion, run by cuarray's `lfilter`/`sosfilt` (the blocked
parallel scan across time of _lfilter.py, not a thread per line). The starting states assume a
mirror-symmetric signal: a weighted sum of the first (or last) K samples, K where the weights fall
below `precision` as SciPy's C core (_splinemodule.h) decides it. The weights and K are computed
on the host in the signal's precision, with SciPy's loop conditions, by `iir1_weights`,
`iir2_fwd_weights` and `iir2_bwd_weights` (pure functions, tested on the CPU); the sums are one
product-and-sum per line on the device."""

from __future__ import annotations

import math

import numpy

from ..._core.copying import astype as _astype
from ..._core.transfer import from_host as _from_host
from ..._manipulation.joining import concatenate as _concatenate
from ..._manipulation.joining import stack as _stack
from ..._math.sums import sum as _sum
from ._args import data as _data
from ._args import host_scalar as _host_scalar
from ._lfilter import lfilter as _lfilter
from ._lfilter import sosfilt as _sosfilt

__all__ = ["symiirorder1", "symiirorder2", "iir1_weights", "iir2_fwd_weights", "iir2_bwd_weights", "precision_for"]

_CONVERGE = "Sum to find symmetric boundary conditions did not converge."
_SINGLE = (numpy.dtype(numpy.float32), numpy.dtype(numpy.complex64))


def precision_for(dt, precision) -> float:
    """The C core's default: 1e-6 in single precision, 1e-11 in double, when `precision` is not in (0, 1]."""
    if precision <= 0.0 or precision > 1.0:
        return 1e-6 if numpy.dtype(dt) in _SINGLE else 1e-11
    return precision


def _real(dt):
    return numpy.float32 if numpy.dtype(dt) in _SINGLE else numpy.float64


def _first_small(err, bound, N):
    """How many terms SciPy's do-while loop adds: the first k >= 1 with err[k-1] <= bound; N when
    none (the caller then raises, as the C loop does when k reaches N)."""
    small = numpy.flatnonzero(err[:N] <= bound)
    return int(small[0]) + 1 if small.size else N


def iir1_weights(z1, dt, precision, N) -> numpy.ndarray:
    """The weights z1, z1^2, ... (repeated products in `dt`, as SciPy's loop) of the first samples
    in the start state of 1 / (1 - z1 z^-1); ValueError when they do not fall below precision
    within N samples."""
    T = numpy.dtype(dt).type
    R = _real(dt)
    prec2 = R(precision_for(dt, precision)) * R(precision_for(dt, precision))
    n = max(1, int(N))
    powers = numpy.cumprod(numpy.full(n, T(z1), dtype=dt), dtype=dt)
    err = numpy.abs(powers).astype(R)
    K = _first_small(err * err, prec2, n)
    if K >= N:
        raise ValueError(_CONVERGE)
    return powers[:K]


def _hc(k, cs, r, omega):
    """_splinemodule.h's _hc, vectorised in double (cs already rounded to the signal's precision)."""
    k = numpy.asarray(k, dtype=numpy.float64)
    rk = numpy.power(r, k)
    if omega == 0.0:
        out = cs * rk * (k + 1)
    elif omega == math.pi:
        out = cs * rk * (k + 1) * (1 - 2 * (k % 2))
    else:
        out = cs * rk * numpy.sin(omega * (k + 1)) / math.sin(omega)
    return numpy.where(k < 0, 0.0, out)


def _hs(k, cs, rsq, omega, R):
    k = numpy.abs(numpy.asarray(k, dtype=numpy.float64))
    cssq = float(R(cs) * R(cs))
    rsupk = numpy.power(rsq, k / 2.0)
    if omega == 0.0 or omega == math.pi:
        c0 = float(R((1 + rsq) / ((1 - rsq) * (1 - rsq) * (1 - rsq)) * cssq))
        gamma = (1 - rsq) / (1 + rsq) * (1 - 2 * (k % 2) if omega == math.pi else 1.0)
        return c0 * rsupk * (1 + gamma * k)
    c0 = float(R(cssq * (1.0 + rsq) / (1.0 - rsq) / (1 - 2 * rsq * math.cos(2 * omega) + rsq * rsq)))
    gamma = (1.0 - rsq) / (1.0 + rsq) / math.tan(omega)
    return c0 * rsupk * (numpy.cos(omega * k) + gamma * numpy.sin(omega * k))


def _cs(r, omega, R):
    return float(R(1 - 2 * r * math.cos(omega) + r * r))


def _terms(diff, bound, N):
    K = _first_small(diff * diff, bound, N)
    if K >= N:
        raise ValueError(_CONVERGE)
    return diff[:K]


def iir2_fwd_weights(r, omega, dt, precision, N):
    """(h0, w0, h01, w1): the causal start states are y[-1] = h0 x[0] + sum w0[k] x[k] and
    y[-2] = h01 . (x[1], x[0]) + sum w1[k] x[k], SciPy's sums cut where the term falls below
    precision (squared, compared in the signal's precision)."""
    R = _real(dt)
    p = R(precision_for(dt, precision))
    cs = _cs(r, omega, R)
    n = max(2, int(N))
    k = numpy.arange(n + 2)
    hc = _hc(k, cs, r, omega).astype(R)
    w0 = _terms(hc[1:n + 1], p * p, N)
    w1 = _terms(hc[2:n + 2], p * p, N)
    return hc[0], w0, (hc[0], hc[1]), w1


def iir2_bwd_weights(r, omega, dt, precision, N):
    """(v0, v1): the anti-causal start states are sums of v[k] x[N - 1 - k], SciPy's sums cut
    where the squared term falls below precision (not squared, as SciPy's backward loop)."""
    R = _real(dt)
    p = R(precision_for(dt, precision))
    cs = _cs(r, omega, R)
    rsq = r * r
    n = max(2, int(N))
    k = numpy.arange(-1, n + 2)
    hs = _hs(k, cs, rsq, omega, R).astype(R)  # hs[j] is _hs(j - 1)
    v0 = _terms((hs[1:n + 1] + hs[2:n + 2]).astype(R), p, N)
    v1 = _terms((hs[0:n] + hs[3:n + 3]).astype(R), p, N)
    return v0, v1


def _dot_head(x, w):
    """sum_k w[k] x[..., k] over the first len(w) samples of every line."""
    return _sum(x[..., : len(w)] * _from_host(w), axis=-1)


def _line_input(x, name):
    x = _data(x, name)
    if x.dtype.kind in "biu":
        x = _astype(x, numpy.float64)
    if x.ndim > 2:
        raise ValueError("Input must be 1D or 2D")
    return x


def symiirorder1(signal, c0, z1, precision=-1.0):
    """See `scipy.signal.symiirorder1`. The recursions run as cuarray's parallel `lfilter`; complex
    `z1` needs complex filter coefficients in `lfilter`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.symiirorder1(cuarray.arange(1., 21.), 0.5, 0.1)[:4].round(6)
    array([0.685871, 1.241427, 1.852538, 2.469204])
    """
    x = _line_input(signal, "symiirorder1")
    c0, z1 = _host_scalar(c0), _host_scalar(z1)  # (the weights and coefficients are made on the host)
    if abs(z1) >= 1:
        raise ValueError("|z1| must be less than 1.0")
    one_d = x.ndim == 1
    if one_d:
        x = x[None, :]
    dt = x.dtype
    w = iir1_weights(z1, dt, precision, x.shape[-1])
    y0 = x[:, :1] + _dot_head(x, w)[:, None]
    # the coefficients in the signal's precision, as SciPy's; real ones stay real for a complex
    # signal (the same values: SciPy's have a zero imaginary part)
    cdt = dt if numpy.iscomplexobj(z1) or numpy.iscomplexobj(c0) else numpy.dtype(dt.char.lower())
    a = numpy.array([1, -z1]).astype(cdt)
    b = numpy.ones(1, dtype=cdt)
    y1 = _lfilter(b, a, x[:, 1:], zi=y0 * z1)[0]
    y1 = _concatenate((y0, y1), axis=1)
    out_last = -c0 / (z1 - 1.0) * y1[:, -1:]
    out = _lfilter(numpy.asarray([c0], dtype=cdt), a, y1[:, -2::-1], zi=out_last * z1)[0]
    out = _concatenate((out[:, ::-1], out_last), axis=1)
    return out[0] if one_d else out


def symiirorder2(input, r, omega, precision=-1.0):
    """See `scipy.signal.symiirorder2`. The recursions run as cuarray's parallel `sosfilt`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import signal
    >>> signal.symiirorder2(cuarray.arange(1., 51.), 0.5, 0.3)[:4].round(6)
    array([2.211943, 2.604827, 3.274828, 4.111346])
    """
    x = _line_input(input, "symiirorder2")
    r, omega = _host_scalar(r), _host_scalar(omega)  # (the weights and sections are made on the host)
    if r >= 1.0:
        raise ValueError("r must be less than 1.0")
    one_d = x.ndim == 1
    if one_d:
        x = x[None, :]
    dt = x.dtype
    N = x.shape[-1]
    rsq = r * r
    a2 = 2 * r * math.cos(omega)
    a3 = -rsq
    cs = 1 - 2 * r * math.cos(omega) + rsq
    sos = numpy.asarray([[cs, 0, 0, 1, -a2, -a3]], dtype=dt)
    h0, w0, h01, w1 = iir2_fwd_weights(r, omega, dt, precision, N)
    f0 = h0 * x[:, 0] + _dot_head(x, w0)
    f1 = h01[0] * x[:, 1] + h01[1] * x[:, 0] + _dot_head(x, w1)
    ca2, ca3 = dt.type(a2), dt.type(a3)
    zi = _stack((ca3 * f0 + ca2 * f1, ca3 * f1), axis=1)[None]
    y_fwd = _sosfilt(sos, x[:, 2:], zi=_astype(zi, dt, copy=False))[0]
    y_fwd = _concatenate((f0[:, None], f1[:, None], y_fwd), axis=1)
    v0, v1 = iir2_bwd_weights(r, omega, dt, precision, N)
    xr = x[:, ::-1]
    b0, b1 = _dot_head(xr, v0), _dot_head(xr, v1)
    zi = _stack((ca3 * b0 + ca2 * b1, ca3 * b1), axis=1)[None]
    y = _sosfilt(sos, y_fwd[:, -3::-1], zi=_astype(zi, dt, copy=False))[0]
    out = _concatenate((y[:, ::-1], b1[:, None], b0[:, None]), axis=1)
    out = _astype(out, dt, copy=False)
    return out[0] if one_d else out
