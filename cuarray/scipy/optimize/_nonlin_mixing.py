"""`anderson`, `linearmixing`, `diagbroyden`, `excitingmixing` and their `root` methods: SciPy's
quasi-Newton Jacobian approximations of scipy/optimize/_nonlin.py (GenericBroyden and its
subclasses) in the inexact Newton loop of `_nonlin.nonlin_solve`. Anderson's mixing (D. G. Anderson,
J. ACM 12, 547 (1965); the form of V. Eyert, J. Comp. Phys. 124, 271 (1996)) keeps the last M steps
and residual changes on the device; its M x M Gram matrix and right-hand side are read to the host
(one read each a step) and solved there. The diagonal and scalar approximations are elementwise on
the device, with no read beyond the loop's (one for the initial scale `alpha` where it is not given)."""

import numpy

from ..._core.host_input import as_parameter
from ..._core.transfer import to_host
from ..._creation.basic import full
from ..._manipulation.joining import stack
from ..._math.complex import conj
from ..._math.misc import clip
from ..._sorting.searching import where
from ...linalg._matmul import matmul
from ...linalg._norms import norm
from ._nonlin import _Jacobian, _Krylov, _read, nonlin_solve

__all__ = ["anderson", "linearmixing", "diagbroyden", "excitingmixing", "jacobians"]


class _Broyden(_Jacobian):
    """SciPy's GenericBroyden: the last point and residual, the initial scale alpha =
    0.5 max(|x0|, 1) / |F(x0)| where not given (one read)."""

    alpha = None

    def setup(self, x0, f0, func):
        self.func, self.shape, self.dtype = func, (f0.size, x0.size), f0.dtype
        self.last_f, self.last_x = f0, x0
        if self.alpha is None:
            normf0, normx0 = _read([norm(f0), norm(x0)])
            self.alpha = 0.5 * max(normx0, 1) / normf0 if normf0 else 1.0

    def update(self, x, f):
        self._update(x, f, x - self.last_x, f - self.last_f)
        self.last_f, self.last_x = f, x


class _Anderson(_Broyden):
    def __init__(self, alpha=None, w0=0.01, M=5):
        self.alpha, self.w0, self.M = alpha, w0, M
        self.dx, self.df = [], []

    def solve(self, f, tol=0):
        dx = -self.alpha * f
        if not self.dx:
            return dx
        df_f = to_host(matmul(conj(stack(self.df)), f))  # the step's read: (df_k, f) for each k
        try:
            gamma = numpy.linalg.solve(self.a, df_f)
        except numpy.linalg.LinAlgError:  # singular: SciPy starts the approximation afresh
            del self.dx[:], self.df[:]
            return dx
        g = as_parameter(gamma.astype(dx.dtype), "scipy.optimize.anderson")
        return dx + matmul(g, stack(self.dx) + self.alpha * stack(self.df))

    def _update(self, x, f, dx, df):
        if self.M == 0:
            return
        self.dx.append(dx)
        self.df.append(df)
        del self.dx[:-self.M], self.df[:-self.M]
        d = stack(self.df)
        g = to_host(matmul(conj(d), d.T))  # the update's read: the Gram matrix of the df
        g = numpy.asarray(g, dtype=numpy.result_type(g.dtype, f.dtype))
        # SciPy's a: the upper triangle of (1 + w0^2 [i == j]) (df_i, df_j), mirrored
        a = numpy.triu(g) + numpy.diag(numpy.diag(g)) * self.w0 ** 2
        self.a = a + numpy.triu(a, 1).T.conj()


class _LinearMixing(_Broyden):
    def __init__(self, alpha=None):
        self.alpha = alpha

    def solve(self, f, tol=0):
        return -f * self.alpha

    def _update(self, x, f, dx, df):
        pass


class _DiagBroyden(_Broyden):
    def __init__(self, alpha=None):
        self.alpha = alpha

    def setup(self, x, f, func):
        super().setup(x, f, func)
        self.d = full((self.shape[0],), 1 / self.alpha, dtype=self.dtype)

    def solve(self, f, tol=0):
        return -f / self.d

    def _update(self, x, f, dx, df):
        self.d = self.d - (df + self.d * dx) * dx / norm(dx) ** 2


class _ExcitingMixing(_Broyden):
    def __init__(self, alpha=None, alphamax=1.0):
        self.alpha, self.alphamax = alpha, alphamax

    def setup(self, x, f, func):
        super().setup(x, f, func)
        self.beta = full((self.shape[0],), self.alpha, dtype=self.dtype)

    def solve(self, f, tol=0):
        return -f * self.beta

    def _update(self, x, f, dx, df):
        # an entry whose residual kept its sign grows by alpha, the others restart at alpha
        self.beta = clip(where(f * self.last_f > 0, self.beta + self.alpha, self.alpha), 0, self.alphamax)


def jacobians():
    """`root`'s method names -> these approximations."""
    return {"krylov": _Krylov, "anderson": _Anderson, "linearmixing": _LinearMixing, "diagbroyden": _DiagBroyden,
            "excitingmixing": _ExcitingMixing}


def anderson(F, xin, iter=None, alpha=None, w0=0.01, M=5, verbose=False, maxiter=None, f_tol=None,  # noqa: A002
             f_rtol=None, x_tol=None, x_rtol=None, tol_norm=None, line_search="armijo", callback=None, **kw):
    """See `scipy.optimize.anderson`. ``F`` takes and returns cuarray arrays; the solution comes
    back on the device in ``xin``'s shape and dtype."""
    return nonlin_solve(F, xin, _Anderson(alpha=alpha, w0=w0, M=M, **kw), iter, verbose, maxiter, f_tol, f_rtol,
                        x_tol, x_rtol, tol_norm, line_search, callback)


def linearmixing(F, xin, iter=None, alpha=None, verbose=False, maxiter=None, f_tol=None, f_rtol=None,  # noqa: A002
                 x_tol=None, x_rtol=None, tol_norm=None, line_search="armijo", callback=None, **kw):
    """See `scipy.optimize.linearmixing`. ``F`` takes and returns cuarray arrays; the solution
    comes back on the device in ``xin``'s shape and dtype."""
    return nonlin_solve(F, xin, _LinearMixing(alpha=alpha, **kw), iter, verbose, maxiter, f_tol, f_rtol, x_tol,
                        x_rtol, tol_norm, line_search, callback)


def diagbroyden(F, xin, iter=None, alpha=None, verbose=False, maxiter=None, f_tol=None, f_rtol=None,  # noqa: A002
                x_tol=None, x_rtol=None, tol_norm=None, line_search="armijo", callback=None, **kw):
    """See `scipy.optimize.diagbroyden`. ``F`` takes and returns cuarray arrays; the solution
    comes back on the device in ``xin``'s shape and dtype."""
    return nonlin_solve(F, xin, _DiagBroyden(alpha=alpha, **kw), iter, verbose, maxiter, f_tol, f_rtol, x_tol,
                        x_rtol, tol_norm, line_search, callback)


def excitingmixing(F, xin, iter=None, alpha=None, alphamax=1.0, verbose=False, maxiter=None,  # noqa: A002
                   f_tol=None, f_rtol=None, x_tol=None, x_rtol=None, tol_norm=None, line_search="armijo",
                   callback=None, **kw):
    """See `scipy.optimize.excitingmixing`. ``F`` takes and returns cuarray arrays; the solution
    comes back on the device in ``xin``'s shape and dtype."""
    return nonlin_solve(F, xin, _ExcitingMixing(alpha=alpha, alphamax=alphamax, **kw), iter, verbose, maxiter,
                        f_tol, f_rtol, x_tol, x_rtol, tol_norm, line_search, callback)
