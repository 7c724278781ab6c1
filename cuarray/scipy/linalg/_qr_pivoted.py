"""QR with column pivoting, what LAPACK's geqp3 computes, for cuSOLVER, which has no pivoted QR.

Businger and Golub's algorithm (Numer. Math. 7, 1965), unblocked, as LAPACK's xlaqp2 runs it: at
step j the remaining column of largest norm is swapped to position j, then a Householder
reflector (LAPACK's xlarfg convention: beta = -sign(Re alpha) ||x||, tau = (beta - alpha)/beta,
v = x / (alpha - beta) with v_0 = 1) zeroes it below the diagonal and H^H is applied to the trailing
columns. The result is geqp3's own layout (R above the diagonal, the reflectors below, `tau`,
0-based `jpvt`), so Q is formed by cuSOLVER's orgqr/ungqr as for the unpivoted QR.

One difference from LAPACK, for accuracy: the column norms are recomputed exactly at every step
(one reduction over the trailing block, the same traffic as the update) where xlaqp2 downdates
them and recomputes on cancellation; the pivots are the same except between columns whose norms tie
to rounding.

Written over a NumPy-named namespace `xp` (cuarray's in `_decomp_qr.CUARRAY`, NumPy's in the CPU
tests). Each step is a handful of small kernels, none waiting for the device (the pivot stays on
it): min(m, n) sequential steps of matrix-vector work, so large matrices take far longer than
the unpivoted, blocked cuSOLVER QR.
"""

from __future__ import annotations

import numpy

__all__ = ["geqp3"]


def geqp3(xp, h):
    """Overwrite `h`, one m x n matrix (column-major for speed), with geqp3's factors; return
    (tau (k,), jpvt (n,) int32 numpy array). The pivot never leaves the device: the two columns
    are swapped by a gather and a scatter through a device index pair, so the loop enqueues every
    step without waiting, and `jpvt` is read once at the end."""
    m, n = h.shape
    k = min(m, n)
    jpvt = xp.arange(n, dtype=numpy.int32)
    tau = xp.zeros((k,), dtype=h.dtype)
    first = xp.arange(2) == 0  # selects j in the pair (j, p)
    for j in range(k):
        trailing = h[j:, j:]
        norms2 = xp.sum(xp.real(trailing * xp.conj(trailing)), axis=0)
        p = xp.argmax(norms2) + j  # a 0-d device index (ties: the first, as LAPACK's idamax)
        pair = xp.where(first, j, p)
        swapped = pair[::-1]
        h[:, swapped] = h[:, pair]
        jpvt[swapped] = jpvt[pair]
        alpha = h[j, j].copy()
        x = h[j + 1:, j]
        xnorm2 = xp.sum(xp.real(x * xp.conj(x)))
        abs2 = xp.real(alpha * xp.conj(alpha)) + xnorm2
        # xlarfg: H = I when x is zero and alpha is real (nothing to annihilate).
        identity = (xnorm2 == 0) & (xp.imag(alpha) == 0)
        beta = -xp.copysign(xp.sqrt(abs2), xp.real(alpha))
        beta = xp.where(identity, xp.real(alpha), beta)
        safe_beta = xp.where(identity, 1, beta)
        t = xp.where(identity, 0, (beta - alpha) / safe_beta).astype(h.dtype)
        scale = xp.where(identity, 1, 1 / xp.where(identity, 1, alpha - beta)).astype(h.dtype)
        if j + 1 < m:
            h[j + 1:, j] = x * scale
        h[j, j] = beta.astype(h.dtype)
        tau[j] = t
        if j + 1 < n:
            # C <- (I - conj(tau) v v^H) C on the trailing columns (xlarf with conj(tau)).
            v = h[j:, j].copy()
            v[0] = 1
            c = h[j:, j + 1:]
            w = xp.matmul(xp.conj(v)[None, :], c)
            h[j:, j + 1:] = c - (v * xp.conj(t))[:, None] * w
    return tau, numpy.asarray(xp.host(jpvt)).astype(numpy.int32)
