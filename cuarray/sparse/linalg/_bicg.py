"""The two-sided Lanczos solvers, which need products with A^H: bicg and qmr. See
`scipy.sparse.linalg.bicg` and `scipy.sparse.linalg.qmr`.

Both follow "Templates for the Solution of Linear Systems" (Barrett et al., SIAM 1994): BiCG as
its Figure 2.8 and QMR without look-ahead as its Figure 2.9 (coupled two-term recurrences,
Freund and Nachtigal, 1991), for complex data with SciPy's conjugations. SciPy's contract: `(x,
info)`, 0 converged (`norm(r) < max(atol, rtol * norm(b))`, r the updated residual), `maxiter`
when the iterations run out, and SciPy's breakdown codes (bicg: -10 rho, -11 p~.Ap; qmr: -10 rho,
-15 xi, -13 delta, -14 epsilon, -11 beta, -12 gamma). Every vector and every scalar of the
recurrences stays on the device (0-d arrays); each iteration reads one small array on the host
holding the convergence test and every breakdown test of the iteration, checked in SciPy's
order before the iterate moves (so a breakdown returns the x SciPy returns).
"""

from __future__ import annotations

import numpy

from ..._creation.basic import zeros
from ..._manipulation.joining import stack
from ..._math.arithmetic import add, multiply, subtract, true_divide
from ..._math.complex import conj
from ..._math.misc import absolute, sqrt
from . import _kernels
from ._interface import IdentityOperator, LinearOperator, aslinearoperator
from ._iterative import _dot, _matvec_of, _nrm, prologue

__all__ = ["bicg", "qmr"]


def bicg(A, b, x0=None, *, rtol=1e-5, atol=0.0, maxiter=None, M=None, callback=None):
    """See `scipy.sparse.linalg.bicg` (A and M need `rmatvec`: sparse matrices, dense arrays and
    operators that define it).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.sparse import linalg as splinalg
    >>> from cuarray import sparse
    >>> a = sparse.csr_matrix(cuarray.array([[3., 2., 0.], [1., -1., 0.], [0., 5., 1.]]))
    >>> x, info = splinalg.bicg(a, cuarray.array([2., 4., -1.]), atol=1e-5)
    >>> cuarray.round(x, 4), int(info)
    (array([ 2., -2.,  9.]), 0)
    """
    A, M, x, b, bnrm2, atol, maxiter = prologue(A, M, x0, b, rtol, atol, maxiter)
    if bnrm2 == 0:
        return b, 0
    matvec, rmatvec = _matvec_of(A), A.rmatvec
    rhotol = numpy.finfo(b.dtype).eps ** 2
    real = b.dtype.kind != "c"
    r = subtract(b, matvec(x)) if x0 is not None else b.copy()
    rtilde = r.copy()
    rho_prev = p = ptilde = None
    for it in range(maxiter):
        z = M.matvec(r)
        ztilde = M.rmatvec(rtilde)
        rho = _dot(rtilde, z)
        if it > 0:
            _kernels.xpby(rho, rho_prev, z, p)              # p = z + beta p
            if real:
                _kernels.xpby(rho, rho_prev, ztilde, ptilde)
            else:
                ptilde = add(ztilde, multiply(conj(true_divide(rho, rho_prev)), ptilde))
        else:
            p, ptilde = z.copy(), ztilde.copy()
        q = matvec(p)
        qtilde = rmatvec(ptilde)
        rv = _dot(ptilde, q)
        rnorm, arho, arv = (float(v) for v in stack([_nrm(r), absolute(rho), absolute(rv)]).get())  # one read
        if rnorm < atol:
            return x, 0
        if arho < rhotol:
            return x, -10
        if arv == 0:
            return x, -11
        alpha = true_divide(rho, rv)
        rtilde = subtract(rtilde, multiply(conj(alpha), qtilde))
        _kernels.axpy2(rho, rv, p, q, x, r)                 # x += alpha p; r -= alpha q
        rho_prev = rho
        if callback is not None:
            callback(x)
    return x, maxiter


def _qmr_preconditioners(A_, A, M1, M2):
    """M1 and M2 as operators: SciPy's identities, or the `psolve`/`rpsolve` of an operator
    that defines them (the old preconditioned-operator protocol); a missing one is the identity."""
    if M1 is None and M2 is None and hasattr(A_, "psolve"):
        M1 = LinearOperator(A.shape, matvec=lambda v: A_.psolve(v, "left"),
                            rmatvec=lambda v: A_.rpsolve(v, "left"), dtype=A.dtype)
        M2 = LinearOperator(A.shape, matvec=lambda v: A_.psolve(v, "right"),
                            rmatvec=lambda v: A_.rpsolve(v, "right"), dtype=A.dtype)
    out = []
    for m in (M1, M2):
        m = IdentityOperator(A.shape, A.dtype) if m is None else aslinearoperator(m)
        if m.shape != A.shape:
            raise ValueError("matrix and preconditioner have different shapes")
        out.append(m)
    return out


def qmr(A, b, x0=None, *, rtol=1e-5, atol=0.0, maxiter=None, M1=None, M2=None, callback=None):
    """See `scipy.sparse.linalg.qmr` (A, M1 and M2 need `rmatvec`). One of M1, M2 given alone
    leaves the other the identity (SciPy needs both or neither).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.sparse import linalg as splinalg
    >>> from cuarray import sparse
    >>> a = sparse.csr_matrix(cuarray.array([[3., 2., 0.], [1., -1., 0.], [0., 5., 1.]]))
    >>> x, info = splinalg.qmr(a, cuarray.array([2., 4., -1.]), atol=1e-5)
    >>> cuarray.round(x, 4), int(info)
    (array([ 2., -2.,  9.]), 0)
    """
    A_ = A
    A, _, x, b, bnrm2, atol, maxiter = prologue(A, None, x0, b, rtol, atol, maxiter)
    if bnrm2 == 0:
        return b, 0
    M1, M2 = _qmr_preconditioners(A_, A, M1, M2)
    matvec, rmatvec = _matvec_of(A), A.rmatvec
    tol = float(numpy.finfo(b.dtype).eps)
    rdt = numpy.dtype(b.dtype.char.lower())
    r = subtract(b, matvec(x)) if x0 is not None else b.copy()
    vtilde = r.copy()
    y = M1.matvec(vtilde)
    rho = _nrm(y)
    wtilde = r.copy()
    z = M2.rmatvec(wtilde)
    xi = _nrm(z)
    gamma = zeros((), rdt) + 1
    eta = zeros((), b.dtype) - 1
    theta = zeros((), rdt)
    epsilon = q = d = p = s = None
    for it in range(maxiter):
        rho_top, xi_top = rho, xi
        v = true_divide(vtilde, rho)
        y = true_divide(y, rho)
        w = true_divide(wtilde, xi)
        z = true_divide(z, xi)
        delta = _dot(z, y)
        ytilde = M2.matvec(y)
        ztilde = M1.rmatvec(z)
        if it > 0:
            ratio = true_divide(delta, epsilon)
            p = subtract(ytilde, multiply(multiply(xi, ratio), p))
            q = subtract(ztilde, multiply(multiply(rho, conj(ratio)), q))
        else:
            p, q = ytilde, ztilde
        ptilde = matvec(p)
        epsilon = _dot(q, ptilde)
        beta = true_divide(epsilon, delta)
        vtilde = subtract(ptilde, multiply(beta, v))
        y = M1.matvec(vtilde)
        rho = _nrm(y)
        wtilde = subtract(rmatvec(q), multiply(conj(beta), w))
        z = M2.rmatvec(wtilde)
        xi = _nrm(z)
        gamma_prev, theta_prev = gamma, theta
        theta = true_divide(rho, multiply(gamma_prev, absolute(beta)))
        gamma = true_divide(1, sqrt(add(1, multiply(theta, theta))))
        checks = stack([_nrm(r), rho_top, xi_top, absolute(delta), absolute(epsilon), absolute(beta),
                        absolute(gamma)]).get()  # one read: every test of the iteration
        for value, code in zip(checks, (0, -10, -15, -13, -14, -11, -12)):
            if value < (atol if code == 0 else tol):
                return x, code
        g = true_divide(gamma, gamma_prev)
        eta = multiply(multiply(eta, true_divide(-rho_top, beta)), multiply(g, g))
        if it > 0:
            tg = multiply(theta_prev, gamma)
            tg = multiply(tg, tg)
            d = add(multiply(eta, p), multiply(tg, d))
            s = add(multiply(eta, ptilde), multiply(tg, s))
        else:
            d, s = multiply(eta, p), multiply(eta, ptilde)
        x = add(x, d)
        r = subtract(r, s)
        if callback is not None:
            callback(x)
    return x, maxiter
