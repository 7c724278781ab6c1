"""`broyden1`, `broyden2` and their `root` methods: SciPy's BroydenFirst and BroydenSecond
(scipy/optimize/_nonlin.py; C. G. Broyden, Math. Comp. 19, 577 (1965)) in the inexact Newton loop
of `_nonlin.nonlin_solve`. The inverse Jacobian is kept as SciPy's low-rank matrix
alpha I + sum_k c_k d_k^H, its vectors c_k, d_k on the device; a product with it is two
matrix-vector products, an update one more pair, with no host read. The rank reductions are
SciPy's: 'restart' drops all the vectors, 'simple' the oldest, 'svd' keeps the largest singular
components (B. A. van der Rotten, A limited memory Broyden method to solve high-dimensional
systems of nonlinear equations, thesis, Leiden 2003), its QR and SVD on the device; past rank n
the matrix is kept dense. The finiteness of a step is read with the loop's step read."""

import numpy

from ..._creation.matrices import eye
from ..._logic.content import isfinite
from ..._logic.truth import all as all_
from ..._manipulation.joining import stack
from ..._math.complex import conj
from ...linalg._decomp import qr
from ...linalg._matmul import matmul
from ...linalg._norms import norm
from ...linalg._products import outer, vdot
from ...linalg._solve import inv
from ...linalg._svd import svd
from ._nonlin import nonlin_solve
from ._nonlin_mixing import _Broyden

__all__ = ["broyden1", "broyden2", "broyden_jacobians"]


class _LowRank:
    """SciPy's LowRankMatrix alpha I + C D^H with the columns of C and D as device vectors; dense
    (`full`) once it has more columns than rows, as SciPy's collapse."""

    def __init__(self, alpha, n, dtype):
        # a Python scalar: a NumPy scalar on the left of a device array would not defer to it
        self.alpha, self.n, self.dtype = getattr(alpha, "item", lambda: alpha)(), n, dtype
        self.cs, self.ds, self.full = [], [], None

    @staticmethod
    def _matvec(v, alpha, cs, ds):
        w = alpha * v
        if cs:
            w = w + matmul(stack(cs, axis=1), matmul(conj(stack(ds)), v))
        return w

    def matvec(self, v):
        if self.full is not None:
            return matmul(self.full, v)
        return self._matvec(v, self.alpha, self.cs, self.ds)

    def rmatvec(self, v):
        if self.full is not None:
            return matmul(conj(self.full.T), v)
        return self._matvec(v, self.alpha.conjugate(), self.ds, self.cs)

    def append(self, c, d):
        if self.full is not None:
            self.full = self.full + outer(c, conj(d))
            return
        self.cs.append(c)
        self.ds.append(d)
        if len(self.cs) > self.n:
            self.full = self.alpha * eye(self.n, dtype=self.dtype) + matmul(stack(self.cs, axis=1),
                                                                            conj(stack(self.ds)))
            self.cs = self.ds = None

    def restart_reduce(self, rank):
        if self.full is None and len(self.cs) > rank:
            del self.cs[:], self.ds[:]

    def simple_reduce(self, rank):
        extra = len(self.cs) - rank if self.full is None else 0
        if extra > 0:
            del self.cs[:int(extra)], self.ds[:int(extra)]

    def svd_reduce(self, max_rank, to_retain=None):
        """Keep the `to_retain` (default max_rank - 2) largest singular components of C D^H once
        it has max_rank columns: with D = Q R and C R^H = U S W^H, the columns of C R^H W^-H and
        Q W, as SciPy's."""
        if self.full is not None:
            return
        p = max_rank
        q = p - 2 if to_retain is None else to_retain
        if self.cs:
            p = min(p, self.cs[0].size)
        q = max(0, min(q, p - 1))
        if len(self.cs) < p:
            return
        C, D = stack(self.cs, axis=1), stack(self.ds, axis=1)
        D, R = qr(D)
        C = matmul(C, conj(R.T))
        _, _, WH = svd(C, full_matrices=False)
        C = matmul(C, inv(WH))
        D = matmul(D, conj(WH.T))
        self.cs = [C[:, k] for k in range(int(q))]
        self.ds = [D[:, k] for k in range(int(q))]


class _BroydenFirst(_Broyden):
    """SciPy's BroydenFirst: H+ = H + (dx - H df) dx^H H / (dx^H H df) on the inverse Jacobian H."""

    def __init__(self, alpha=None, reduction_method="restart", max_rank=None):
        self.alpha = alpha
        self.max_rank = numpy.inf if max_rank is None else max_rank
        if isinstance(reduction_method, str):
            params = ()
        else:
            reduction_method, params = reduction_method[0], tuple(reduction_method[1:])
        if reduction_method not in ("svd", "simple", "restart"):
            raise ValueError(f"Unknown rank reduction method '{reduction_method}'")
        self.reduction = reduction_method + "_reduce", (self.max_rank - 1,) + params

    def setup(self, x, f, func):
        super().setup(x, f, func)
        self.Gm = _LowRank(-self.alpha, self.shape[0], self.dtype)

    def _reduce(self):
        name, params = self.reduction
        getattr(self.Gm, name)(*params)

    def solve(self, f, tol=0):
        r = self.Gm.matvec(f)
        self.pending = ~all_(isfinite(r))  # read with the step's norms
        return r

    def nonfinite_step(self, f):
        # a singular approximation: SciPy starts it afresh (alpha is kept)
        self.setup(self.last_x, self.last_f, self.func)
        return self.Gm.matvec(f)

    def _update(self, x, f, dx, df):
        self._reduce()  # first, so that the new pair satisfies the secant condition
        v = self.Gm.rmatvec(dx)
        c = dx - self.Gm.matvec(df)
        self.Gm.append(c, v / vdot(df, v))


class _BroydenSecond(_BroydenFirst):
    """SciPy's BroydenSecond: H+ = H + (dx - H df) df^H / (df^H df)."""

    def _update(self, x, f, dx, df):
        self._reduce()
        c = dx - self.Gm.matvec(df)
        self.Gm.append(c, df / norm(df) ** 2)


def broyden_jacobians():
    """`root`'s method names -> these approximations."""
    return {"broyden1": _BroydenFirst, "broyden2": _BroydenSecond}


def _solve(jacobian, F, xin, iter, alpha, reduction_method, max_rank, kw, *loop):  # noqa: A002
    return nonlin_solve(F, xin, jacobian(alpha=alpha, reduction_method=reduction_method, max_rank=max_rank, **kw),
                        iter, *loop)


def broyden1(F, xin, iter=None, alpha=None, reduction_method="restart", max_rank=None, verbose=False,  # noqa: A002
             maxiter=None, f_tol=None, f_rtol=None, x_tol=None, x_rtol=None, tol_norm=None, line_search="armijo",
             callback=None, **kw):
    """See `scipy.optimize.broyden1`. ``F`` takes and returns cuarray arrays; the solution comes
    back on the device in ``xin``'s shape and dtype."""
    return _solve(_BroydenFirst, F, xin, iter, alpha, reduction_method, max_rank, kw, verbose, maxiter, f_tol,
                  f_rtol, x_tol, x_rtol, tol_norm, line_search, callback)


def broyden2(F, xin, iter=None, alpha=None, reduction_method="restart", max_rank=None, verbose=False,  # noqa: A002
             maxiter=None, f_tol=None, f_rtol=None, x_tol=None, x_rtol=None, tol_norm=None, line_search="armijo",
             callback=None, **kw):
    """See `scipy.optimize.broyden2` (Broyden's second update in place of the first)."""
    return _solve(_BroydenSecond, F, xin, iter, alpha, reduction_method, max_rank, kw, verbose, maxiter, f_tol,
                  f_rtol, x_tol, x_rtol, tol_norm, line_search, callback)
