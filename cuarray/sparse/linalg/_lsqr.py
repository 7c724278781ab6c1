"""LSQR for least squares and damped least squares. See `scipy.sparse.linalg.lsqr`.

Paige and Saunders' bidiagonalisation with the plane rotations and the norm estimates on the host.
The two normalisations of a step divide by device scalars (no host read); the step's alpha, beta
and ||w||^2 are read together once, then the scalar recurrences run in Python.
"""

from __future__ import annotations

import math

import numpy

from ..._core.ndarray import ndarray
from ..._creation.basic import zeros
from ..._manipulation.joining import stack
from ..._math.arithmetic import add, multiply, subtract, true_divide
from ..._math.complex import real
from ..._math.extrema import maximum
from ..._math.misc import absolute, square
from ...linalg._products import vdot
from ._interface import aslinearoperator
from ._iterative import _nrm

__all__ = ["lsqr"]


def _sym_ortho(a, b):
    """(c, s, r) of the plane rotation taking (a, b) to (r, 0), stable for any magnitudes."""
    if b == 0:
        return math.copysign(1.0, a) if a else 1.0, 0.0, abs(a)
    if a == 0:
        return 0.0, math.copysign(1.0, b), abs(b)
    if abs(b) > abs(a):
        tau = a / b
        s = math.copysign(1.0, b) / math.sqrt(1 + tau * tau)
        return s * tau, s, b / s
    tau = b / a
    c = math.copysign(1.0, a) / math.sqrt(1 + tau * tau)
    return c, c * tau, a / c


def stop_code(out_of_iterations, test1, test2, test3, t1, rtol, atol, ctol) -> int:
    """Paige and Saunders' stopping code of lsqr and lsmr (0: go on); the lowest that holds wins."""
    for code, holds in ((1, test1 <= rtol), (2, test2 <= atol), (3, test3 <= ctol), (4, 1 + t1 <= 1),
                        (5, 1 + test2 <= 1), (6, 1 + test3 <= 1), (7, out_of_iterations)):
        if holds:
            return code
    return 0


def least_squares_operands(A, b):
    """The operands of lsqr and lsmr: A as a LinearOperator, b flattened and cast to the working
    dtype (A's and b's result type, at least float64: SciPy's lsqr and lsmr work and answer in
    float64/complex128 for float32/complex64 input too), m, n and that dtype."""
    A = aslinearoperator(A)
    if not isinstance(b, ndarray):
        raise TypeError("b must be a cuarray array (call cuarray.asarray first)")
    b = b.reshape(-1)
    m, n = A.shape
    if b.size != m:
        raise ValueError("shapes of A {} and b {} are incompatible".format(A.shape, b.shape))
    dt = numpy.result_type(A.dtype, b.dtype, numpy.float64)
    if dt.char not in "fdFD":
        dt = numpy.dtype(numpy.float64)
    return A, b.astype(dt, copy=False), m, n, dt


def bidiagonalization_start(A, b, x0, n, dt):
    """The first Golub-Kahan step of lsqr and lsmr: x (x0 or zeros), u = (b - A x) / beta,
    v = A^H u / alpha, with ||b||, beta and alpha read to the host (v is zero when beta is: the
    solvers stop at once)."""
    if x0 is None:
        x = zeros((n,), dt)
        u = b.copy()
    else:
        x = x0.astype(dt).reshape(-1).copy()
        u = subtract(b, A.matvec(x))
    bnorm = float(_nrm(b))
    beta = float(_nrm(u))
    if beta > 0:
        u = multiply(u, 1.0 / beta)
        v = A.rmatvec(u)
        alpha = float(_nrm(v))
    else:
        v = zeros((n,), dt)
        alpha = 0.0
    if alpha > 0:
        v = multiply(v, 1.0 / alpha)
    return x, u, v, bnorm, beta, alpha


def lsqr(A, b, damp=0.0, atol=1e-6, btol=1e-6, conlim=1e8, iter_lim=None, show=False, calc_var=False,
         x0=None):
    """See `scipy.sparse.linalg.lsqr`. Returns SciPy's 10-tuple (x, istop, itn, r1norm, r2norm,
    anorm, acond, arnorm, xnorm, var); `show` is ignored; `var` is computed when `calc_var`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.sparse import linalg as splinalg
    >>> from cuarray import sparse
    >>> a = sparse.csr_matrix(cuarray.array([[4., 1.], [1., 3.]]))
    >>> b = cuarray.array([1., 2.])
    >>> x = splinalg.lsqr(a, b)[0]
    >>> cuarray.round(x, 4)
    array([0.0909, 0.6364])
    """
    A, b, m, n, dt = least_squares_operands(A, b)
    iter_lim = 2 * n if iter_lim is None else iter_lim
    eps = float(numpy.finfo(numpy.float64).eps)
    var = zeros((n,), dt) if calc_var else None
    dampsq = damp * damp
    ctol = 1.0 / conlim if conlim > 0 else 0.0
    tiny = float(numpy.finfo(dt).tiny)
    x, u, v, bnorm, beta, alpha = bidiagonalization_start(A, b, x0, n, dt)
    w = v.copy()
    rhobar, phibar = alpha, beta
    rnorm = r1norm = r2norm = beta
    anorm = acond = ddnorm = res2 = xnorm = xxnorm = z = 0.0
    cs2, sn2 = -1.0, 0.0
    arnorm = alpha * beta
    itn = istop = 0
    if arnorm == 0:
        return x, istop, itn, r1norm, r2norm, anorm, acond, arnorm, xnorm, var
    while itn < iter_lim:
        itn += 1
        u = subtract(A.matvec(v), multiply(u, alpha))
        beta_d = _nrm(u)
        u = true_divide(u, maximum(beta_d, tiny).astype(dt))
        v = subtract(A.rmatvec(u), multiply(v, beta_d.astype(dt)))
        alpha_d = _nrm(v)
        v = true_divide(v, maximum(alpha_d, tiny).astype(dt))
        ww = real(vdot(w, w))
        alpha_old = alpha
        beta, alpha, wsq = (float(t) for t in stack([beta_d, alpha_d, ww.astype(beta_d.dtype)]).get())
        anorm = math.sqrt(anorm * anorm + alpha_old * alpha_old + beta * beta + dampsq)
        if damp > 0:
            rhobar1 = math.sqrt(rhobar * rhobar + dampsq)
            cs1, sn1 = rhobar / rhobar1, damp / rhobar1
            psi = sn1 * phibar
            phibar = cs1 * phibar
        else:
            rhobar1, psi = rhobar, 0.0
        cs, sn, rho = _sym_ortho(rhobar1, beta)
        theta = sn * alpha
        rhobar = -cs * alpha
        phi = cs * phibar
        phibar = sn * phibar
        tau = sn * phi
        t1, t2 = phi / rho, -theta / rho
        if calc_var:
            var = add(var, square(absolute(multiply(w, 1.0 / rho))).astype(dt))
        ddnorm += wsq / (rho * rho)
        x = add(x, multiply(w, t1))
        w = add(v, multiply(w, t2))
        delta = sn2 * rho
        gambar = -cs2 * rho
        rhs = phi - delta * z
        zbar = rhs / gambar
        xnorm = math.sqrt(xxnorm + zbar * zbar)
        gamma = math.sqrt(gambar * gambar + theta * theta)
        cs2, sn2 = gambar / gamma, theta / gamma
        z = rhs / gamma
        xxnorm += z * z
        acond = anorm * math.sqrt(ddnorm)
        res2 += psi * psi
        rnorm = math.sqrt(phibar * phibar + res2)
        arnorm = alpha * abs(tau)
        r1sq = rnorm * rnorm - dampsq * xxnorm
        r1norm = math.copysign(math.sqrt(abs(r1sq)), r1sq)
        r2norm = rnorm
        test1 = rnorm / bnorm if bnorm else math.inf
        test2 = arnorm / (anorm * rnorm + eps)
        test3 = 1.0 / (acond + eps)
        t1 = test1 / (1 + anorm * xnorm / bnorm) if bnorm else math.inf
        rtol = btol + atol * anorm * xnorm / bnorm if bnorm else btol
        istop = stop_code(itn >= iter_lim, test1, test2, test3, t1, rtol, atol, ctol)
        if istop != 0:
            break
    return x, istop, itn, r1norm, r2norm, anorm, acond, arnorm, xnorm, var
