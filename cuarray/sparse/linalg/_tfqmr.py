"""tfqmr: the transpose-free quasi-minimal residual method. See `scipy.sparse.linalg.tfqmr`.

Freund's algorithm (R. W. Freund, "A transpose-free quasi-minimal residual algorithm for
non-Hermitian linear systems", SIAM J. Sci. Comput. 14 (1993), Algorithm 5.1), applied to the
right-preconditioned system A M y = b, x = M y. SciPy's contract: `(x, info)`, 0 when the
quasi-residual bound tau sqrt(iter + 1) falls below max(atol, rtol * norm(r0)) (r0 = b - A x0:
SciPy's tfqmr measures against the initial residual, not b), -1 when rstar.v breaks down,
`maxiter` (default min(10000, 10 n)) otherwise. Vectors and the recurrences' vector scalars stay
on the device; each iteration reads |w| (and, on even steps, rstar.v) on the host, where the
scalar quasi-minimisation (theta, c, tau) runs.
"""

from __future__ import annotations

import math

from ..._manipulation.joining import stack
from ..._math.arithmetic import add, multiply, subtract, true_divide
from ..._math.misc import absolute
from ._iterative import _dot, _matvec_of, _nrm, check_atol, make_system

__all__ = ["tfqmr"]


def tfqmr(A, b, x0=None, *, rtol=1e-5, atol=0.0, maxiter=None, M=None, callback=None, show=False):
    """See `scipy.sparse.linalg.tfqmr`: right preconditioning (A M y = b; SciPy mixes M A in its
    Krylov space with M in the update, the same for M = I); `show` prints SciPy's two messages.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.sparse import linalg as splinalg
    >>> from cuarray import sparse
    >>> a = sparse.csr_matrix(cuarray.array([[3., 2., 0.], [1., -1., 0.], [0., 5., 1.]]))
    >>> x, info = splinalg.tfqmr(a, cuarray.array([2., 4., -1.]), atol=0.0)
    >>> cuarray.round(x, 4), int(info)
    (array([ 2., -2.,  9.]), 0)
    """
    check_atol(atol)
    A, M, x, b = make_system(A, M, x0, b)
    if float(_nrm(b)) == 0:
        return b.copy(), 0
    matvec = _matvec_of(A)

    def op(v):  # the right-preconditioned operator A M
        return matvec(M.matvec(v))

    maxiter = min(10000, b.size * 10) if maxiter is None else maxiter
    r = subtract(b, matvec(x)) if x0 is not None else b.copy()
    u, w, rstar = r, r.copy(), r
    v = op(r)
    uhat = v
    d = None
    theta, eta = 0.0, None
    rho = _dot(rstar, r)          # real: rstar is r
    r0norm = math.sqrt(float(absolute(rho)))
    if r0norm == 0:
        return x, 0
    tau = r0norm
    atol = max(float(atol), float(rtol) * r0norm)
    rho_last = rho
    alpha = u_next = None
    for it in range(maxiter):
        even = it % 2 == 0
        if even:
            vtrstar = _dot(rstar, v)
            alpha = true_divide(rho, vtrstar)
            u_next = subtract(u, multiply(alpha, v))
        w = subtract(w, multiply(alpha, uhat))
        reads = [_nrm(w)] + ([absolute(vtrstar)] if even else [])
        host = stack(reads).get()  # one read
        if even and host[1] == 0:
            return x, -1
        # d = u + (theta^2 / alpha) eta d, with the previous step's theta and eta
        d = u.copy() if d is None else add(u, multiply(true_divide(eta, alpha), multiply(d, theta * theta)))
        theta = float(host[0]) / tau
        c = 1.0 / math.sqrt(1.0 + theta * theta)
        tau *= theta * c
        eta = multiply(alpha, c * c)
        x = add(x, multiply(eta, M.matvec(d)))
        if callback is not None:
            callback(x)
        if tau * math.sqrt(it + 1) < atol:
            if show:
                print("TFQMR: Linear solve converged due to reach TOL iterations {}".format(it + 1))
            return x, 0
        if not even:
            rho = _dot(rstar, w)
            beta = true_divide(rho, rho_last)
            u = add(w, multiply(beta, u))
            v = add(multiply(beta, uhat), multiply(multiply(beta, beta), v))
            uhat = op(u)
            v = add(v, uhat)
        else:
            uhat = op(u_next)
            u = u_next
            rho_last = rho
    if show:
        print("TFQMR: Linear solve not converged due to reach MAXIT iterations {}".format(maxiter))
    return x, maxiter

