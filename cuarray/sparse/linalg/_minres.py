"""MINRES for symmetric (Hermitian) systems, possibly indefinite. See `scipy.sparse.linalg.minres`.

The Paige-Saunders recurrences: a Lanczos step on the device, then the plane rotations and the
norm estimates on the host from two numbers of the step (alfa, beta^2). The stopping tests also
need ||x||; it is read with the next step's two numbers (one read per iteration), so the tests
of iteration k run at iteration k+1's read, before x changes again: the answer is SciPy's, at
the cost of one extra Lanczos step at the end.
"""

from __future__ import annotations

import math

import numpy

from ..._creation.basic import zeros
from ..._manipulation.joining import stack
from ..._math.arithmetic import add, multiply, subtract, true_divide
from ..._math.complex import real
from ...linalg._products import vdot
from ._iterative import _matvec_of, _nrm, make_system

__all__ = ["minres"]


def minres(A, b, x0=None, *, rtol=1e-5, shift=0.0, maxiter=None, M=None, callback=None, show=False,
           check=False):
    """See `scipy.sparse.linalg.minres` (`show` and `check` are accepted and ignored).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.sparse import linalg as splinalg
    >>> from cuarray import sparse
    >>> a = sparse.csr_matrix(cuarray.array([[4., 1.], [1., 3.]]))
    >>> b = cuarray.array([1., 2.])
    >>> x, info = splinalg.minres(a, b)
    >>> cuarray.round(x, 4), int(info)
    (array([0.0909, 0.6364]), 0)
    """
    A, M, x, b = make_system(A, M, x0, b)
    matvec, psolve = _matvec_of(A), M.matvec
    n = b.size
    maxiter = 5 * n if maxiter is None else maxiter
    eps = float(numpy.finfo(b.dtype).eps)
    r1 = subtract(b, matvec(x)) if x0 is not None else b.copy()
    y = psolve(r1)
    beta1 = float(real(vdot(r1, y)))
    if beta1 < 0:
        raise ValueError("indefinite preconditioner")
    if beta1 == 0:
        return x, 0
    if float(_nrm(b)) == 0:
        return b, 0
    beta1 = math.sqrt(beta1)
    oldb, beta, dbar, epsln, phibar = 0.0, beta1, 0.0, 0.0, beta1
    rhs1, rhs2, tnorm2, gmax, gmin = beta1, 0.0, 0.0, 0.0, float(numpy.finfo(numpy.float64).max)
    cs, sn = -1.0, 0.0
    w = zeros((n,), b.dtype)
    w2 = zeros((n,), b.dtype)
    r2 = r1
    itn = 0
    pending = None  # the stopping tests of the last iteration, waiting for its ||x||

    def tests(state, ynorm):
        it, anorm, rnorm, root, gmx, gmn, istop = state
        epsx = anorm * ynorm * eps
        test1 = math.inf if ynorm == 0 or anorm == 0 else rnorm / (anorm * ynorm)
        test2 = math.inf if anorm == 0 else root / anorm
        acond = gmx / gmn
        if istop == 0:
            if 1 + test2 <= 1:
                istop = 2
            if 1 + test1 <= 1:
                istop = 1
            if it >= maxiter:
                istop = 6
            if acond >= 0.1 / eps:
                istop = 4
            if epsx >= beta1:
                istop = 3
            if test2 <= rtol:
                istop = 2
            if test1 <= rtol:
                istop = 1
        return istop

    while itn < maxiter:
        itn += 1
        v = multiply(y, 1.0 / beta)
        y = matvec(v)
        if shift:
            y = subtract(y, multiply(v, shift))
        if itn >= 2:
            y = subtract(y, multiply(r1, beta / oldb))
        alfa_d = real(vdot(v, y))
        y = subtract(y, multiply(r2, true_divide(alfa_d, beta).astype(b.dtype)))
        r1, r2 = r2, y
        y = psolve(r2)
        beta2_d = real(vdot(r2, y))
        alfa, beta2, ynorm = (float(t) for t in stack([alfa_d, beta2_d, _nrm(x)]).get())  # one read
        if pending is not None:
            istop = tests(pending, ynorm)
            if istop != 0:
                return x, (maxiter if istop == 6 else 0)
        if beta2 < 0:
            raise ValueError("non-symmetric matrix")
        oldb, beta = beta, math.sqrt(beta2)
        tnorm2 += alfa * alfa + oldb * oldb + beta * beta
        istop = -1 if itn == 1 and beta / beta1 <= 10 * eps else 0
        # the previous rotation, then the next one
        oldeps = epsln
        delta = cs * dbar + sn * alfa
        gbar = sn * dbar - cs * alfa
        epsln = sn * beta
        dbar = -cs * beta
        root = math.hypot(gbar, dbar)
        gamma = max(math.hypot(gbar, beta), eps)
        cs, sn = gbar / gamma, beta / gamma
        phi = cs * phibar
        phibar = sn * phibar
        w1, w2 = w2, w
        w = multiply(subtract(subtract(v, multiply(w1, oldeps)), multiply(w2, delta)), 1.0 / gamma)
        x = add(x, multiply(w, phi))
        gmax, gmin = max(gmax, gamma), min(gmin, gamma)
        z = rhs1 / gamma
        rhs1, rhs2 = rhs2 - delta * z, -epsln * z
        if callback is not None:
            callback(x)
        pending = (itn, math.sqrt(tnorm2), phibar, root, gmax, gmin, istop)
    istop = tests(pending, float(_nrm(x))) if pending is not None else 6
    return x, (maxiter if istop == 6 else 0)
