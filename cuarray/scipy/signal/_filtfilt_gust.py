"""`filtfilt(method='gust')`: Gustafsson's forward-backward filtering with the initial conditions
chosen so that filtering forward-then-backward and backward-then-forward agree (F. Gustafsson,
"Determining the initial states in forward-backward filtering", IEEE Trans. Signal Processing 44,
1996). The four filtering passes run on the device (`lfilter`); the small matrices of the method,
which depend only on the filter and the number m of samples the transients span (the impulse
responses of the unit initial states, the least-squares system's singular value decomposition:
m x 2 order), are host work, and every line's least-squares solve is two matrix products on the
device: U^T delta first, then V S^-1, in SciPy's `lstsq` order. An explicit pseudo-inverse is not
the same: for an unstable filter the two passes grow to |y| ~ 1e11 and the answer is their
cancellation, which pinv(M) delta loses (its rounding, ~1e-16 of 1 / s_min, is multiplied by
|delta|) while the factored solve keeps it to SciPy's ~1e-16 |y|."""

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
    """(conj(U), S^-1 conj(V^T), W) of the method for a transient of m samples: the least-squares system M = U S V^T
    (unknowns: the forward and backward initial states), singular values under eps of the largest
    dropped as SciPy's `lstsq` does (its default `cond`), and W, the states' effect on the output.
    `whole`: m is the signal's length, and both transients span all of it (one block row)."""
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
    u, s, vt = numpy.linalg.svd(M, full_matrices=False)
    keep = s > numpy.finfo(numpy.float64).eps * s[0] if s.size else s > 0
    # each line's states c solve M c = delta: c^T = delta^T conj(U) S^-1 conj(V^T) (rows, as the lines are)
    return u[:, keep].conj(), vt[keep].conj() / s[keep, None], W


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
    u, vs, W = gust_matrices(b, a, m, whole)
    ic = _matmul(_matmul(delta, _from_host(u)), _from_host(vs))  # every line's least squares
    wic = _matmul(ic, _from_host(W.T.copy()))  # the corrections (at both ends when not whole)
    if whole:
        y = y_fb + wic
    else:
        y = y_fb + _concatenate((wic[..., :m], y_fb[..., m:n - m] * 0, wic[..., m:]), axis=-1)
    return _moveaxis(y.astype(y_fb.dtype, copy=False), -1, axis)
