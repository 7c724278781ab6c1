"""LSMR for least squares (MINRES on the normal equations). See `scipy.sparse.linalg.lsmr`.

Fong and Saunders' recurrences on top of the same bidiagonalisation as `lsqr`: the normalisations
divide by device scalars; alpha, beta and ||x|| are read together once per iteration. ||x|| is
that of the previous iterate, so the stopping tests of step k run at step k+1's read, before x
changes again: the answer is SciPy's, with one extra bidiagonalisation step at the end.
"""

from __future__ import annotations

import math

import numpy

from ..._creation.basic import zeros
from ..._manipulation.joining import stack
from ..._math.arithmetic import add, multiply, subtract, true_divide
from ..._math.extrema import maximum
from ._iterative import _nrm
from ._lsqr import _sym_ortho, bidiagonalization_start, least_squares_operands, stop_code

__all__ = ["lsmr"]


def lsmr(A, b, damp=0.0, atol=1e-6, btol=1e-6, conlim=1e8, maxiter=None, show=False, x0=None):
    """See `scipy.sparse.linalg.lsmr`. Returns SciPy's 8-tuple (x, istop, itn, normr, normar,
    norma, conda, normx); `show` is ignored.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.sparse import linalg as splinalg
    >>> from cuarray import sparse
    >>> a = sparse.csr_matrix(cuarray.array([[4., 1.], [1., 3.]]))
    >>> b = cuarray.array([1., 2.])
    >>> x = splinalg.lsmr(a, b)[0]
    >>> cuarray.round(x, 4)
    array([0.0909, 0.6364])
    """
    A, b, m, n, dt = least_squares_operands(A, b)
    maxiter = min(m, n) if maxiter is None else maxiter
    tiny = float(numpy.finfo(dt).tiny)
    x, u, v, normb, beta, alpha = bidiagonalization_start(A, b, x0, n, dt)
    itn = istop = 0
    zetabar, alphabar = alpha * beta, alpha
    rho = rhobar = cbar = 1.0
    sbar = 0.0
    h = v.copy()
    hbar = zeros((n,), dt)
    betadd, betad, rhodold, tautildeold, thetatilde, zeta, d = beta, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0
    normA2 = alpha * alpha
    maxrbar, minrbar = 0.0, 1e100
    normA, condA, normx = math.sqrt(normA2), 1.0, 0.0
    ctol = 1.0 / conlim if conlim > 0 else 0.0
    normr, normar = beta, alpha * beta
    if normar == 0:
        return x, istop, itn, normr, normar, normA, condA, normx
    pending = None

    def tests(state, nx):
        it, nr, nar, na, ca = state
        test1 = nr / normb if normb else math.inf
        test2 = nar / (na * nr) if na * nr != 0 else math.inf
        test3 = 1.0 / ca
        t1 = test1 / (1 + na * nx / normb) if normb else math.inf
        rtol = btol + atol * na * nx / normb if normb else btol
        return stop_code(it >= maxiter, test1, test2, test3, t1, rtol, atol, ctol)

    while itn < maxiter:
        u = subtract(A.matvec(v), multiply(u, alpha))
        beta_d = _nrm(u)
        u = true_divide(u, maximum(beta_d, tiny).astype(dt))
        v2 = subtract(A.rmatvec(u), multiply(v, beta_d.astype(dt)))
        alpha_d = _nrm(v2)
        beta_h, alpha_h, nx = (float(t) for t in stack([beta_d, alpha_d, _nrm(x)]).get())  # one read
        if pending is not None:
            istop = tests(pending, nx)
            normx = nx
            if istop:
                return x, istop, itn, normr, normar, normA, condA, normx
        itn += 1
        beta = beta_h
        if beta > 0:
            alpha = alpha_h
            v = true_divide(v2, maximum(alpha_d, tiny).astype(dt))
        chat, shat, alphahat = _sym_ortho(alphabar, damp)
        rhoold = rho
        c, s, rho = _sym_ortho(alphahat, beta)
        thetanew = s * alpha
        alphabar = c * alpha
        rhobarold, zetaold = rhobar, zeta
        thetabar = sbar * rho
        rhotemp = cbar * rho
        cbar, sbar, rhobar = _sym_ortho(cbar * rho, thetanew)
        zeta = cbar * zetabar
        zetabar = -sbar * zetabar
        hbar = subtract(h, multiply(hbar, thetabar * rho / (rhoold * rhobarold)))
        x = add(x, multiply(hbar, zeta / (rho * rhobar)))
        h = subtract(v, multiply(h, thetanew / rho))
        betaacute = chat * betadd
        betacheck = -shat * betadd
        betahat = c * betaacute
        betadd = -s * betaacute
        thetatildeold = thetatilde
        ctildeold, stildeold, rhotildeold = _sym_ortho(rhodold, thetabar)
        thetatilde = stildeold * rhobar
        rhodold = ctildeold * rhobar
        betad = -stildeold * betad + ctildeold * betahat
        tautildeold = (zetaold - thetatildeold * tautildeold) / rhotildeold
        taud = (zeta - thetatilde * tautildeold) / rhodold
        d += betacheck * betacheck
        normr = math.sqrt(d + (betad - taud) ** 2 + betadd * betadd)
        normA2 += beta * beta
        normA = math.sqrt(normA2)
        normA2 += alpha * alpha
        maxrbar = max(maxrbar, rhobarold)
        if itn > 1:
            minrbar = min(minrbar, rhobarold)
        condA = max(maxrbar, rhotemp) / min(minrbar, rhotemp)
        normar = abs(zetabar)
        pending = (itn, normr, normar, normA, condA)
    normx = float(_nrm(x))
    istop = tests(pending, normx) if pending is not None else 7
    return x, istop, itn, normr, normar, normA, condA, normx
