"""`filtfilt(method='gust')`: Gustafsson's forward-backward filtering with the initial conditions
chosen so that filtering forward-then-backward and backward-then-forward agree (F. Gustafsson,
"Determining the initial states in forward-backward filtering", IEEE Trans. Signal Processing 44,
1996). The four filtering passes run on the device (`lfilter`); the small matrices of the method,
which depend only on the filter and the number m of samples the transients span (the impulse
responses of the unit initial states, the least-squares system's pseudo-inverse: m x 2 order), are
host work, and every line's least-squares solve is one matrix product on the device."""

from __future__ import annotations

import numpy

from ..._core.transfer import from_host as _from_host
from ..._manipulation.joining import concatenate as _concatenate
from ..._manipulation.transpose import moveaxis as _moveaxis
from ...linalg._matmul import matmul as _matmul

__all__ = ["filtfilt_gust", "gust_matrices"]


def _host_lfilter(b, a, x, zi=None, axis=-1):
    import scipy.signal  # host work: the method's small matrices (SciPy's recursion on the host)

    return scipy.signal.lfilter(b, a, x, axis=axis, zi=zi)


def gust_matrices(b, a, m, whole):
    """(pinv(M), W) of the method for a transient of m samples (M: the least-squares system whose
    unknowns are the forward and backward initial states; W: their effect on the output). `whole`:
    m is the signal's length, and both transients span all of it (one block row)."""
    order = max(len(b), len(a)) - 1
    obs = numpy.zeros((m, order))
    zi = numpy.zeros(order)
    zi[0] = 1.0
    obs[:, 0] = _host_lfilter(b, a, numpy.zeros(m), zi=zi)[0]  # each state's zero-input response
    for k in range(1, order):
        obs[k:, k] = obs[:-k, 0]
    obs_r = obs[::-1]
    S = _host_lfilter(b, a, obs[::-1], axis=0)
    S_r = S[::-1]
    if whole:
        M, W = numpy.hstack((S_r - obs, obs_r - S)), numpy.hstack((S_r, obs_r))
    else:
        M, W = numpy.zeros((2 * m, 2 * order)), numpy.zeros((2 * m, 2 * order))
        M[:m, :order], M[m:, order:] = S_r - obs, obs_r - S
        W[:m, :order], W[m:, order:] = S_r, obs_r
    return numpy.linalg.pinv(M), W


def filtfilt_gust(b, a, x, axis, irlen, lfilter):
    """filtfilt(b, a, x, axis, method='gust', irlen=irlen) with the device `lfilter`."""
    order = max(len(b), len(a)) - 1
    if order == 0:
        return (b[0] / a[0]) ** 2 * x
    xl = _moveaxis(x, axis, -1)
    n = xl.shape[-1]
    m = n if irlen is None or n <= 2 * irlen else irlen
    y_f = lfilter(b, a, xl)
    y_fb = lfilter(b, a, y_f[..., ::-1])[..., ::-1]
    y_b = lfilter(b, a, xl[..., ::-1])[..., ::-1]
    d = lfilter(b, a, y_b) - y_fb
    whole = m == n
    delta = d if whole else _concatenate((d[..., :m], d[..., n - m:]), axis=-1)
    pinv, W = gust_matrices(b, a, m, whole)
    ic = _matmul(delta, _from_host(pinv.T.copy()))  # every line's least-squares solve
    wic = _matmul(ic, _from_host(W.T.copy()))  # the corrections (at both ends when not whole)
    if whole:
        y = y_fb + wic
    else:
        y = y_fb + _concatenate((wic[..., :m], y_fb[..., m:n - m] * 0, wic[..., m:]), axis=-1)
    return _moveaxis(y.astype(y_fb.dtype, copy=False), -1, axis)
