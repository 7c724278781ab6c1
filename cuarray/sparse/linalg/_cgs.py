"""cgs (conjugate gradient squared) and matrix_power. See `scipy.sparse.linalg.cgs` and
`scipy.sparse.linalg.matrix_power`.

cgs keeps SciPy's contract: `(x, info)`, 0 converged (`norm(r) < max(atol, rtol * norm(b))`), -10
when rtilde.r breaks down, -11 when rtilde.v is 0, `maxiter` when the iterations run out; the
residual is recomputed as b - A x every iteration, as SciPy does. Each iteration reads two small
arrays on the host (the convergence and breakdown tests); every vector and scalar stays on the
device.
"""

from __future__ import annotations

import operator

import numpy

from ..._manipulation.joining import stack
from ..._math.arithmetic import add, multiply, subtract, true_divide
from ..._math.misc import absolute
from .._construct import eye_array
from ._iterative import _dot, _matvec_of, _nrm, prologue

__all__ = ["cgs", "matrix_power"]


def cgs(A, b, x0=None, *, rtol=1e-5, atol=0.0, maxiter=None, M=None, callback=None):
    """See `scipy.sparse.linalg.cgs`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.sparse import linalg as splinalg
    >>> from cuarray import sparse
    >>> a = sparse.csr_matrix(cuarray.array([[4., 1.], [1., 3.]]))
    >>> b = cuarray.array([1., 2.])
    >>> x, info = splinalg.cgs(a, b)
    >>> cuarray.round(x, 4), int(info)
    (array([0.0909, 0.6364]), 0)
    """
    A, M, x, b, bnrm2, atol, maxiter = prologue(A, M, x0, b, rtol, atol, maxiter)
    if bnrm2 == 0:
        return b, 0
    matvec = _matvec_of(A)
    rhotol = numpy.finfo(b.dtype).eps ** 2
    r = subtract(b, matvec(x)) if x0 is not None else b.copy()
    rtilde = r.copy()
    rho_prev = p = u = q = None
    for it in range(maxiter):
        rho = _dot(rtilde, r)
        rnorm, arho = (float(v) for v in stack([_nrm(r), absolute(rho)]).get())  # one read
        if rnorm < atol:
            return x, 0
        if arho < rhotol:
            return x, -10
        if it > 0:
            beta = true_divide(rho, rho_prev)
            u = add(r, multiply(beta, q))
            p = add(u, multiply(beta, add(q, multiply(beta, p))))
        else:
            p = r.copy()
            u = r.copy()
        vhat = matvec(M.matvec(p))
        rv = _dot(rtilde, vhat)
        if float(absolute(rv)) == 0:  # the second read
            return x, -11
        alpha = true_divide(rho, rv)
        q = subtract(u, multiply(alpha, vhat))
        x = add(x, multiply(alpha, M.matvec(add(u, q))))
        r = subtract(b, matvec(x))
        rho_prev = rho
        if callback is not None:
            callback(x)
    return x, maxiter


def matrix_power(A, power):
    """See `scipy.sparse.linalg.matrix_power`: repeated squaring with sparse products.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.sparse import linalg as splinalg
    >>> from cuarray import sparse
    >>> a = sparse.csr_matrix(cuarray.array([[1., 1.], [0., 1.]]))
    >>> splinalg.matrix_power(a, 3).toarray()
    array([[1., 3.],
           [0., 1.]])
    """
    M, N = A.shape
    if M != N:
        raise TypeError("sparse matrix is not square")
    try:
        power = operator.index(power)
    except TypeError:
        raise ValueError("exponent must be an integer") from None
    if power < 0:
        raise ValueError("exponent must be >= 0")
    if power == 0:
        return eye_array(M, dtype=A.dtype)
    if power == 1:
        return A.copy()
    half = matrix_power(A, power // 2)
    return A @ half @ half if power % 2 else half @ half
