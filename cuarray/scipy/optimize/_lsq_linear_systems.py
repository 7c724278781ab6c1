"""The device side of `lsq_linear`: the matrix A and the target b, and what the host loops of
`_lsq_trf_linear` and `_lsq_bvls` ask of them. Two forms:

- `DenseQR` (``lsq_solver='exact'``): A = Q R once on the device (`cuarray.linalg.qr`); R (k x n,
  k = min(m, n)), Q'b and the part of b outside A's range are read to the host once. Since
  ``|A x - b|^2 = |R x - Q'b|^2 + |b - Q Q'b|^2``, the gradient, the cost and the products
  ``|A s|`` of the host loops are n-sized products with R on the host; the n x n least-squares
  subproblems (the regularized Newton step, BVLS's free-set solves) run on the device on R's
  columns and come back as one n-vector read each.
- `OperatorSystem` (``'lsmr'``: a sparse matrix, a LinearOperator or a dense A): products with A
  on the device, `cuarray.sparse.linalg.lsmr` for the step, one read for (gradient, cost) and one
  for the Gram matrix of the few directions a step chooses among."""

import numpy

from ..._core.transfer import from_host
from ..._creation.basic import zeros
from ..._creation.matrices import diag
from ..._indexing.inserting import take
from ..._manipulation.joining import concatenate, stack
from ..._math.sums import sum as sum_
from ..._sorting.searching import where
from ...linalg._decomp import qr
from ...linalg._products import dot
from ...linalg._svd import svd
from ...sparse.linalg._interface import LinearOperator, aslinearoperator
from ...sparse.linalg._lsmr import lsmr
from ._lsq_host import EPS
from ._lsq_problem import read

__all__ = ["DenseQR", "OperatorSystem", "min_norm_solve", "regularized_operator"]


def regularized_operator(A, d, diag_root):
    """SciPy's regularized_lsq_operator of ``A diag(d)``: ``[A diag(d); diag(diag_root)]`` as a
    LinearOperator of device products (A a LinearOperator; d, diag_root device vectors)."""
    m, n = A.shape

    def matvec(v):
        v = v.reshape(-1)
        return concatenate([A.matvec(v * d), diag_root * v])

    def rmatvec(u):
        u = u.reshape(-1)
        return d * A.rmatvec(u[:m]) + diag_root * u[m:]

    return LinearOperator((m + n, n), matvec=matvec, rmatvec=rmatvec, dtype=numpy.float64)


def min_norm_solve(M, rhs, rcond):
    """The minimum-norm least-squares solution of ``M z = rhs`` on the device, singular values
    below ``rcond * s_max`` dropped (LAPACK gelsd's rule, as `numpy.linalg.lstsq`); no read."""
    U, s, Vt = svd(M, full_matrices=False)
    keep = s > rcond * s[0]
    return dot(Vt.T, where(keep, dot(U.T, rhs) / where(keep, s, 1.0), 0.0))


class DenseQR:
    """A dense A through its QR factors (see the module's docstring)."""

    def __init__(self, A, b):
        self.m, self.n = A.shape
        self.A, self.b = A, b
        Q, R = qr(A)
        qtb = dot(Q.T, b)
        outside = b - dot(Q, qtb)
        self.R_dev = R
        self.R, self.qtb, c0 = read(R, qtb, 0.5 * sum_(outside * outside))  # the one read of the setup
        self.c0 = float(c0)

    def residual(self, x):
        return dot(self.A, from_host(x)) - self.b

    def grad_cost(self, x):
        res = self.R.dot(x) - self.qtb
        return self.R.T.dot(res), 0.5 * res.dot(res) + self.c0

    def gram(self, W):
        """``(A W)' (A W)`` of the host columns W (n x k)."""
        U = self.R.dot(W)
        return U.T.dot(U)

    def trf_direction(self, x, d, diag_root, g_norm):
        """The regularized Gauss-Newton step p_h of trf_linear: ``min |A D p + r|^2 + |diag_root p|^2``,
        as ``[R D; diag(diag_root)] p = -[R x - Q'b; 0]`` on the device (SciPy: Givens rotations on
        the pivoted R); one read."""
        M = concatenate([self.R_dev * from_host(d), diag(from_host(diag_root))])
        rhs = concatenate([from_host(self.R.dot(x) - self.qtb), zeros(self.n)])
        return -read(min_norm_solve(M, rhs, EPS * max(self.m, self.n)))[0]

    def free_solve(self, x_active, free):
        """BVLS's ``lstsq(A[:, free], b - A x_active)`` as the same problem on R's columns (Q is
        orthonormal: the same minimum-norm solution); one read."""
        if free.size == 0:  # every variable back on a bound: nothing to solve
            return numpy.zeros(0)
        M = take(self.R_dev, from_host(free), axis=1)
        rhs = from_host(self.qtb - self.R.dot(x_active))
        return read(min_norm_solve(M, rhs, EPS * max(self.m, free.size)))[0]


class OperatorSystem:
    """A sparse matrix, a LinearOperator or a dense A, used through products (see the module's
    docstring)."""

    def __init__(self, A, b, tol, lsmr_tol, lsmr_maxiter):
        self.A, self.b = aslinearoperator(A), b
        self.m, self.n = self.A.shape
        self.auto_tol = isinstance(lsmr_tol, str)
        self.lsmr_tol = 1e-2 * tol if lsmr_tol is None else lsmr_tol
        self.lsmr_maxiter = lsmr_maxiter
        self._r = None

    def residual(self, x):
        return self.A.matvec(from_host(x)) - self.b

    def grad_cost(self, x):
        r = self._r = self.residual(x)
        g, cost = read(self.A.rmatvec(r), 0.5 * sum_(r * r))  # one read
        return g, float(cost)

    def gram(self, W):
        U = stack([self.A.matvec(from_host(numpy.ascontiguousarray(w))) for w in W.T], axis=1)
        return read(dot(U.T, U))[0]  # one read

    def trf_direction(self, x, d, diag_root, g_norm):
        """lsmr on ``[A D; diag(diag_root)] p = -[r; 0]`` (SciPy's regularized operator), r at x
        from the last `grad_cost`; the step read once."""
        op = regularized_operator(self.A, from_host(d), from_host(diag_root))
        if self.auto_tol:
            eta = 1e-2 * min(0.5, g_norm)
            self.lsmr_tol = max(EPS, min(0.1, eta * g_norm))
        r_aug = concatenate([self._r, zeros(self.n)])
        p = lsmr(op, r_aug, maxiter=self.lsmr_maxiter, atol=self.lsmr_tol, btol=self.lsmr_tol)[0]
        return -read(p)[0]
