"""Krylov solvers: cg, bicgstab, gmres. See `scipy.sparse.linalg.cg` and friends.

SciPy's signatures and return values `(x, info)` (0: converged, > 0: iterations done without
converging, < 0: breakdown). Every vector operation and every scalar of the recurrences stays on
the device (0-d arrays); each iteration reads one small array on the host for the convergence
(and breakdown) tests, SciPy's `norm(r) < atol` with atol = max(atol, rtol * norm(b)).
bicgstab tests its half-step residual with the next iteration's read, keeping that half-step
solution aside, so it too syncs once per iteration.
"""

from __future__ import annotations

import numpy

from ..._core.ndarray import ndarray
from ..._creation.basic import empty, zeros
from ..._creation.from_data import asarray
from ..._manipulation.joining import concatenate, stack
from ..._math.arithmetic import add, multiply, subtract, true_divide
from ..._math.complex import conj, real
from ..._math.misc import absolute, sqrt
from ...linalg._matmul import matmul
from ...linalg._products import vdot
from .._sputils import issparse
from .._matmul import spmv
from . import _kernels
from ._interface import IdentityOperator, MatrixLinearOperator, aslinearoperator

__all__ = ["cg", "bicgstab", "gmres", "make_system", "prologue", "check_atol", "tolerance", "cgs2", "GivensLSQ"]

_FLOAT = {"f": "f", "d": "d", "F": "F", "D": "D"}


def make_system(A, M, x0, b):
    """(A, M, x, b) as operators and device vectors of the solve's dtype (float64 for integers)."""
    A = aslinearoperator(A)
    if len(A.shape) > 2:
        raise ValueError("{}-dimensional `A` is unsupported, expected 2-D.".format(len(A.shape)))
    m, n = A.shape
    if m != n:
        raise ValueError("expected square matrix, but got shape={}".format(A.shape))
    if not isinstance(b, ndarray):
        raise TypeError("b must be a cuarray array (call cuarray.asarray first)")
    if b.shape not in ((n,), (n, 1)):
        raise ValueError("shapes of A {} and b {} are incompatible".format(A.shape, b.shape))
    dt = numpy.result_type(A.dtype, b.dtype)
    if dt.char not in _FLOAT:
        dt = numpy.dtype(numpy.complex128 if dt.kind == "c" else numpy.float64)
    b = b.astype(dt, copy=False).reshape(-1)
    if x0 is None:
        x = zeros((n,), dt)
    elif isinstance(x0, str) and x0 == "Mb":
        x = None
    else:
        if not isinstance(x0, ndarray):
            raise TypeError("x0 must be a cuarray array, None or 'Mb' (call cuarray.asarray first)")
        if x0.shape not in ((n,), (n, 1)):
            raise ValueError("shapes of A {} and x0 {} are incompatible".format(A.shape, x0.shape))
        x = x0.astype(dt).reshape(-1)
    M = IdentityOperator((n, n), dt) if M is None else aslinearoperator(M)
    if M.shape != A.shape:
        raise ValueError("matrix and preconditioner have different shapes")
    if x is None:
        x = M.matvec(b).astype(dt).reshape(-1)
    return A, M, x, b


def _dot(a, b):
    # Real vectors: `a @ b` (27.5 us per call on the H100 box against 38.3 us for vdot,
    # scripts/perf/sparse_cg_ops.py, 1e6 float64); complex needs vdot's conjugate.
    return vdot(a, b) if a.dtype.kind == "c" else matmul(a, b)


def _nrm(v):
    return sqrt(real(_dot(v, v)))


def cgs2(basis, w):
    """w orthogonalised against the orthonormal rows of `basis` by classical Gram-Schmidt applied
    twice (two products with the basis per pass, on the device): ``(basis^H w, remainder)``."""
    h1 = matmul(conj(basis), w)
    w = subtract(w, matmul(h1, basis))
    h2 = matmul(conj(basis), w)
    return add(h1, h2), subtract(w, matmul(h2, basis))


class GivensLSQ:
    """min |H y - beta e1| for an upper Hessenberg H given a column at a time (host): Givens
    rotations keep R = Q^H H triangular and g = Q^H beta e1; |g[j + 1]| is the residual norm."""

    def __init__(self, m, dtype, beta=1.0):
        dt = numpy.complex128 if numpy.dtype(dtype).kind == "c" else numpy.float64
        self.R = numpy.zeros((m + 1, m), dt)
        self.c = numpy.zeros(m, numpy.float64)
        self.s = numpy.zeros(m, dt)
        self.g = numpy.zeros(m + 1, dt)
        self.g[0] = beta

    def add_column(self, j, h):
        """Column j of H (its j + 2 entries); returns the new residual norm |g[j + 1]|."""
        h = numpy.array(h, dtype=self.R.dtype)
        for i in range(j):  # the earlier rotations
            t = self.c[i] * h[i] + self.s[i] * h[i + 1]
            h[i + 1] = -numpy.conj(self.s[i]) * h[i] + self.c[i] * h[i + 1]
            h[i] = t
        a, b = h[j], h[j + 1]
        den = numpy.hypot(abs(a), abs(b))
        if den == 0:
            c, s = 1.0, 0.0
        elif a == 0:
            c, s = 0.0, 1.0
        else:  # c real, s chosen so that the rotation zeroes h[j + 1]
            c, s = abs(a) / den, (a / abs(a)) * numpy.conj(b) / den
        self.c[j], self.s[j] = c, s
        h[j] = c * a + s * b
        h[j + 1] = 0
        self.g[j + 1] = -numpy.conj(s) * self.g[j]
        self.g[j] = c * self.g[j]
        self.R[:j + 2, j] = h[:j + 2]
        return float(abs(self.g[j + 1]))

    def solve(self, ncols):
        """y of the first `ncols` columns (least squares, so a singular R gives SciPy's answer)."""
        R = numpy.triu(self.R[:ncols, :ncols])
        return numpy.linalg.lstsq(R, self.g[:ncols], rcond=None)[0]


def check_atol(atol):
    """SciPy's check of `atol` (a real number >= 0), for every Krylov solver."""
    if atol is None or isinstance(atol, str) or atol < 0:
        raise ValueError("called with invalid `atol`={}; if set, `atol` must be a real, non-negative "
                         "number.".format(atol))


def tolerance(b, atol, rtol):
    """(|b|, max(atol, rtol |b|)) after SciPy's check of atol: every Krylov solver's stopping
    tolerance (one host read)."""
    check_atol(atol)
    bnrm2 = float(_nrm(b))
    return bnrm2, max(float(atol), float(rtol) * bnrm2)


def prologue(A, M, x0, b, rtol, atol, maxiter):
    """What every Krylov solver starts with: SciPy's make_system, the absolute tolerance
    max(atol, rtol |b|) and the default cap of 10 n iterations. Where |b| (returned) is 0, so is
    the answer: SciPy returns b, 0 then."""
    A, M, x, b = make_system(A, M, x0, b)
    bnrm2, atol = tolerance(b, atol, rtol)
    return A, M, x, b, bnrm2, atol, b.size * 10 if maxiter is None else maxiter


def _matvec_of(A):
    """The operator's matvec, or the sparse product itself for a wrapped sparse matrix (skips
    the operator's shape checks on the hot path: make_system checked the shapes once)."""
    inner = getattr(A, "A", None)
    if isinstance(A, MatrixLinearOperator) and issparse(inner):
        return lambda v: spmv(inner, v)
    return A.matvec


def cg(A, b, x0=None, *, rtol=1e-5, atol=0.0, maxiter=None, M=None, callback=None):
    """See `scipy.sparse.linalg.cg` (A Hermitian positive definite). Without a preconditioner
    the convergence test reads r.r, the product the recurrence needs anyway.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.sparse import linalg as splinalg
    >>> from cuarray import sparse
    >>> a = sparse.csr_matrix(cuarray.array([[4., 1.], [1., 3.]]))
    >>> b = cuarray.array([1., 2.])
    >>> x, info = splinalg.cg(a, b)
    >>> cuarray.round(x, 4), int(info)
    (array([0.0909, 0.6364]), 0)
    """
    A, M, x, b, bnrm2, atol, maxiter = prologue(A, M, x0, b, rtol, atol, maxiter)
    if bnrm2 == 0:
        return b, 0
    matvec = _matvec_of(A)
    r = subtract(b, matvec(x)) if x0 is not None else b.copy()
    rho_prev = p = None
    identity = isinstance(M, IdentityOperator)
    atol2 = atol * atol
    for it in range(maxiter):
        if identity:
            z = r
            rho = _dot(r, r)
            if float(real(rho)) < atol2:  # the one host read of the iteration
                return x, 0
        else:
            if float(_nrm(r)) < atol:
                return x, 0
            z = M.matvec(r)
            rho = _dot(r, z)
        if it > 0:
            _kernels.xpby(rho, rho_prev, z, p)        # p = z + (rho / rho_prev) p
        else:
            p = z.copy()
        q = matvec(p)
        _kernels.axpy2(rho, _dot(p, q), p, q, x, r)   # alpha = rho / p.q; x += alpha p; r -= alpha q
        rho_prev = rho
        if callback is not None:
            callback(x)
    return x, maxiter


def bicgstab(A, b, x0=None, *, rtol=1e-5, atol=0.0, maxiter=None, M=None, callback=None):
    """See `scipy.sparse.linalg.bicgstab`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.sparse import linalg as splinalg
    >>> from cuarray import sparse
    >>> a = sparse.csr_matrix(cuarray.array([[4., 1.], [1., 3.]]))
    >>> b = cuarray.array([1., 2.])
    >>> x, info = splinalg.bicgstab(a, b)
    >>> cuarray.round(x, 4), int(info)
    (array([0.0909, 0.6364]), 0)
    """
    A, M, x, b, bnrm2, atol, maxiter = prologue(A, M, x0, b, rtol, atol, maxiter)
    if bnrm2 == 0:
        return b, 0
    rtol2 = numpy.finfo(b.dtype).eps ** 2
    matvec = _matvec_of(A)
    r = subtract(b, matvec(x)) if x0 is not None else b.copy()
    rtilde = r.copy()
    rho_prev = omega = alpha = p = v = None
    x_half = None            # x + alpha * phat of the last iteration (its half-step answer)
    s_nrm = rv = None        # the last iteration's half-step residual norm and rtilde.v
    zero = zeros((), numpy.float64)
    for it in range(maxiter):
        rho = _dot(rtilde, r)
        checks = stack([_nrm(r), absolute(rho), absolute(omega) if omega is not None else zero,
                           s_nrm if s_nrm is not None else zero,
                           absolute(rv) if rv is not None else zero]).get()  # one read
        if it > 0 and checks[3] < atol:
            return x_half, 0
        if it > 0 and checks[4] == 0:
            return x, -11
        if checks[0] < atol:
            return x, 0
        if checks[1] < rtol2:
            return x, -10
        if it > 0:
            if checks[2] < rtol2:
                return x, -11
            beta = multiply(true_divide(rho, rho_prev), true_divide(alpha, omega))
            p -= multiply(omega, v)
            p *= beta
            p += r
        else:
            p = r.copy()
        phat = M.matvec(p)
        v = matvec(phat)
        rv = _dot(rtilde, v)
        alpha = true_divide(rho, rv)
        r -= multiply(alpha, v)       # s
        s_nrm = _nrm(r)
        shat = M.matvec(r)
        t = matvec(shat)
        omega = true_divide(_dot(t, r), _dot(t, t))
        x_half = add(x, multiply(alpha, phat))
        x = add(x_half, multiply(omega, shat))
        r -= multiply(omega, t)
        rho_prev = rho
        if callback is not None:
            callback(x)
    return x, maxiter


def gmres(A, b, x0=None, *, rtol=1e-5, atol=0.0, restart=None, maxiter=None, M=None, callback=None,
          callback_type=None):
    """See `scipy.sparse.linalg.gmres`: restarted GMRES with left preconditioning; Arnoldi by
    classical Gram-Schmidt applied twice (two matrix-vector products with the basis on the
    device), the small Hessenberg least-squares problem on the host (one read per inner
    iteration). `maxiter` counts restart cycles; `callback_type` 'x' or 'pr_norm' (default).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.sparse import linalg as splinalg
    >>> from cuarray import sparse
    >>> a = sparse.csr_matrix(cuarray.array([[4., 1.], [1., 3.]]))
    >>> b = cuarray.array([1., 2.])
    >>> x, info = splinalg.gmres(a, b)
    >>> cuarray.round(x, 4), int(info)
    (array([0.0909, 0.6364]), 0)
    """
    A, M, x, b, bnrm2, atol, maxiter = prologue(A, M, x0, b, rtol, atol, maxiter)
    if bnrm2 == 0:
        return b, 0
    n = b.size
    restart = min(20 if restart is None else restart, n)
    callback_type = "pr_norm" if callback_type in (None, "legacy") else callback_type
    if callback_type not in ("x", "pr_norm"):
        raise ValueError("Unknown callback_type: {!r}".format(callback_type))
    dt = b.dtype
    V = empty((restart + 1, n), dt)
    for cycle in range(maxiter):
        r = subtract(b, A.matvec(x))
        rn = float(_nrm(r))
        if rn < atol:
            return x, 0
        r = M.matvec(r)
        beta = float(_nrm(r))
        if beta == 0:
            return x, 0
        V[0] = true_divide(r, beta)
        lsq = GivensLSQ(restart, dt, beta)
        j_used = 0
        for j in range(restart):
            h, w = cgs2(V[:j + 1], M.matvec(A.matvec(V[j])))
            hn = _nrm(w)
            col = concatenate([h, hn.astype(dt).reshape(1)]).get()  # one read
            hnext = float(col[-1].real)
            if hnext != 0:
                V[j + 1] = true_divide(w, hnext)
            j_used = j + 1
            presid = lsq.add_column(j, col)
            if callback is not None and callback_type == "pr_norm":
                callback(presid / bnrm2)
            if presid < atol or hnext == 0:
                break
        y = lsq.solve(j_used)
        x = add(x, matmul(asarray(y.astype(dt)), V[:j_used]))
        if callback is not None and callback_type == "x":
            callback(x)
    r = subtract(b, A.matvec(x))
    return x, (0 if float(_nrm(r)) < atol else maxiter)
