"""`nnls`: non-negative least squares by the active-set method of Lawson and Hanson ("Solving
Least Squares Problems", SIAM 1995, ch. 23) in the normal-equations form of Bro and De Jong
("A fast non-negativity-constrained least squares algorithm", J. Chemometrics 11, 1997), the
form SciPy's Python `nnls` (1.12-1.14) used.

The passive set is a device mask, not a host index list: each least-squares subproblem solves
the full n x n system whose rows and columns outside the passive set are the identity's, so no
index list is read back or gathered. That is one device solve of size n per step (fine to n of a
few thousand; A's m rows only enter once, in A'A and A'b). Host reads: one per outer step (the
largest multiplier outside the passive set) and one per inner step (the smallest passive
coefficient); the active-set loop itself is sequential and host-driven."""

import numpy

from ..._core.host_input import as_array
from ..._core.transfer import to_host
from ..._creation.basic import zeros
from ..._creation.ranges import arange
from ..._logic.content import isfinite
from ..._logic.truth import all as all_
from ..._sorting.searching import where
from ..._sorting.searching_reduce import argmax
from ..._statistics.order import max as max_, min as min_
from ...linalg._norms import norm
from ...linalg._products import dot
from ...linalg._solve import solve

__all__ = ["nnls"]


def _finite(a, fn):
    a = as_array(a, fn)
    a = a.astype(numpy.float64) if a.dtype != numpy.float64 else a
    # SciPy's asarray_chkfinite: one read
    if a.size and not bool(to_host(all_(isfinite(a)))):
        raise ValueError("array must not contain infs or NaNs")
    return a


def _passive_solve(ata, atb, p):
    """The least-squares solution over the passive set (zero elsewhere): A'A restricted to it."""
    pp = p[:, None] & p[None, :]
    n = len(p)
    eye = arange(n)[:, None] == arange(n)[None, :]
    m = where(pp, ata, where(eye & ~p[:, None], 1.0, 0.0))
    return where(p, solve(m, where(p, atb, 0.0)), 0.0)


def nnls(A, b, *, maxiter=None):
    """See `scipy.optimize.nnls`. ``A`` and ``b`` are device arrays; ``x`` is a device array and
    ``rnorm`` a host float. Solved on the normal equations (A'A, A'b on the device): on
    ill-conditioned ``A`` less accurate than SciPy's QR updates. The active-set steps are a host
    loop with one device solve and one scalar read each."""
    A = _finite(A, "scipy.optimize.nnls")
    b = _finite(b, "scipy.optimize.nnls")
    if A.ndim != 2:
        raise ValueError(f"Expected a 2D array, but the shape of A is {A.shape}")
    if (b.ndim > 2) or ((b.ndim == 2) and (b.shape[1] != 1)):
        raise ValueError("Expected a 1D array,(or 2D with one column), but the,"
                         f" shape of b is {b.shape}")
    if b.ndim == 2:
        b = b.reshape(-1)
    m, n = A.shape
    if m != b.shape[0]:
        raise ValueError("Incompatible dimensions. The first dimension of " +
                         f"A is {m}, while the shape of b is {(b.shape[0], )}")
    if n == 0:
        return zeros(0), float(to_host(norm(b)))
    if not maxiter:
        maxiter = 3 * n
    ata, atb = dot(A.T, A), dot(b, A)
    atol = 10 * max(m, n) * numpy.spacing(1.0)
    x = zeros(n)
    p = zeros(n, dtype=bool)
    w = atb
    idx = arange(n)
    it = 0
    while True:
        wz = where(p, -numpy.inf, w)
        # the outer step's read: the largest multiplier outside the passive set
        if not float(to_host(max_(wz))) > atol:
            break
        p = p | (idx == argmax(wz))
        # SciPy's count: every least-squares solve (the outer step's and each inner step's), and SciPy
        # stops with the error when the count reaches maxiter
        it += 1
        if it >= maxiter:
            raise RuntimeError("Maximum number of iterations reached.")
        s = _passive_solve(ata, atb, p)
        while float(to_host(min_(where(p, s, numpy.inf)))) < 0:  # the inner step's read
            it += 1
            if it >= maxiter:
                raise RuntimeError("Maximum number of iterations reached.")
            neg = p & (s < 0)
            ratio = where(neg, x / where(neg, x - s, 1.0), numpy.inf)
            alpha = min_(ratio)
            x = x * (1 - alpha) + alpha * s
            p = p & (x > 0)
            s = _passive_solve(ata, atb, p)
        x = s
        w = atb - dot(ata, x)
    return x, float(to_host(norm(dot(A, x) - b)))
