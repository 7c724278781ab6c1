"""minimize's trust-region methods 'trust-ncg', 'trust-krylov' and 'trust-exact', ported from SciPy's
`_trustregion` loop (Nocedal & Wright, Numerical Optimization, 2nd ed., algorithm 4.1, the ratio
test of their equation 4.4): 'trust-ncg' solves the subproblem by Steihaug's truncated conjugate
gradients (their algorithm 7.2), 'trust-exact' by Moré and Sorensen's iteration on a Cholesky
factorization ('Computing a trust region step', SIAM J. Sci. Stat. Comput. 4(3), 1983; see
`_trustexact`), 'trust-krylov' by the Lanczos method (`_trustkrylov`). The iterate, gradient, Hessian and every vector stay on the device.

Host reads: one an outer iteration of the model's prediction and f at the proposed point (read
together), one of the new gradient's norm where the step is accepted, and one an inner CG
iteration (the curvature d.Bd, |z + alpha d| and |r + alpha Bd| and the dot products the
boundary intersection needs, all read together)."""

import math
import warnings

import numpy

from ..._core.host_input import as_array
from ..._core.transfer import to_host
from ..._creation.basic import zeros
from ..._manipulation.joining import stack
from ...linalg._products import dot, vdot
from ._objective import Objective
from ._result import OptimizeResult

__all__ = ["minimize_trust_region", "Model", "boundaries_intersections"]

_MESSAGES = ("Optimization terminated successfully.", "Maximum number of iterations has been exceeded.",
             "A bad approximation caused failure to predict improvement.",
             "A linalg error occurred, such as a non-psd Hessian.")


def _vec(v):
    v = as_array(v, "scipy.optimize.minimize")
    return v.reshape(-1) if v.ndim != 1 else v


def boundaries_intersections(dd, zd, zz, trust_radius):
    """SciPy's `get_boundaries_intersections` on host dot products: the two t (low, high) with
    ||z + t d|| = trust_radius, from a = d.d, b = 2 z.d, c = z.z - radius**2 (Golub and Van Loan's
    cancellation-free roots)."""
    a, b, c = dd, 2 * zd, zz - trust_radius ** 2
    sqrt_discriminant = math.sqrt(b * b - 4 * a * c)
    aux = b + math.copysign(sqrt_discriminant, b)
    return sorted([-aux / (2 * a), -2 * c / aux])


class Model:
    """The quadratic model at x (SciPy's `BaseQuadraticSubproblem`): f, g and H at x, each
    asked for once and kept; H is the user's matrix or products with the user's hessp."""

    def __init__(self, x, problem):
        self.x, self.problem = x, problem
        self._f = self._g = self._h = None
        self._g_mag = self.fun_host = None
        self.state = {}  # the subproblem solver's values kept between its calls at this x

    @property
    def fun(self):
        if self._f is None:
            self._f = self.problem.obj.fun(self.x)
        return self._f

    @property
    def jac(self):
        if self._g is None:
            self._g = self.problem.obj.grad(self.x)
        return self._g

    @property
    def hess(self):
        if self._h is None:
            self._h = self.problem.hess_at(self.x)
        return self._h

    def hessp(self, p):
        if self.problem.hessp is not None:
            return self.problem.hessp_at(self.x, p)
        return dot(self.hess, p)

    def value(self, p):
        """The model's value at x + p (a device scalar)."""
        return self.fun + vdot(self.jac, p) + 0.5 * vdot(p, self.hessp(p))

    @property
    def jac_mag(self):
        if self._g_mag is None:
            self._g_mag = float(to_host(vdot(self.jac, self.jac))) ** 0.5  # the new gradient's read
        return self._g_mag


class _Problem:
    """The user's functions with SciPy's counts: nhev starts at one (SciPy's ScalarFunction calls
    hess at x0 when it is made, or a stand-in that returns None when only hessp is given)."""

    def __init__(self, fun, jac, hess, hessp, args):
        self.obj = Objective(fun, jac, args, None, None)
        self.hess, self.hessp, self.args = hess, hessp, args
        self.nhev = 1
        self.h0 = None

    def hess_at(self, x):
        if self.h0 is not None and self.h0[0] is x:
            return self.h0[1]
        self.nhev += 1
        return as_array(self.hess(x, *self.args), "scipy.optimize.minimize")

    def hessp_at(self, x, p):
        self.nhev += 1
        return _vec(self.hessp(x, p, *self.args))


def steihaug_solve(m, trust_radius, maxiter=None):
    """SciPy's `CGSteihaugSubproblem.solve`: (p, hits_boundary)."""
    jac_mag = m.jac_mag
    tolerance = min(0.5, math.sqrt(jac_mag)) * jac_mag
    z = zeros(m.jac.shape, dtype=m.jac.dtype)
    if jac_mag < tolerance:
        return z, False
    r = m.jac
    d = -r
    r_squared = jac_mag ** 2
    zz = 0.0
    while True:
        bd = m.hessp(d)
        dbd_d = vdot(d, bd)
        alpha = r_squared / dbd_d
        z_next = z + alpha * d
        r_next = r + alpha * bd
        # the inner iteration's read: the curvature, the two norms the loop tests and d.d, z.d for
        # the boundary intersection (the step is formed before the read and dropped where unused)
        dbd, zn2, rn2, dd, zd = (float(v) for v in to_host(stack(
            [dbd_d, vdot(z_next, z_next), vdot(r_next, r_next), vdot(d, d), vdot(z, d)])))
        if dbd <= 0:
            ta, tb = boundaries_intersections(dd, zd, zz, trust_radius)
            pa, pb = z + ta * d, z + tb * d
            va, vb = (float(v) for v in to_host(stack([m.value(pa), m.value(pb)])))
            return (pa if va < vb else pb), True
        if math.sqrt(zn2) >= trust_radius:
            ta, tb = boundaries_intersections(dd, zd, zz, trust_radius)
            return z + tb * d, True
        if math.sqrt(rn2) < tolerance:
            return z_next, False
        beta = rn2 / r_squared
        d = -r_next + beta * d
        z, r, r_squared, zz = z_next, r_next, rn2, zn2


def minimize_trust_region(fun, x0, args, jac, hess, hessp, callback, halt, subproblem, initial_trust_radius=1.0,
                          max_trust_radius=1000.0, eta=0.15, gtol=1e-4, maxiter=None, disp=False,
                          return_all=False, inexact=True, workers=None, subproblem_maxiter=None,
                          hessian_at_proposal=False):
    """SciPy's `_minimize_trust_region`; `subproblem(model, radius, maxiter)` returns the step and
    whether it reaches the boundary; `hessian_at_proposal`: the subproblem takes the Hessian
    matrix, evaluated at each proposed point as SciPy's exact subproblem does when it is made."""
    if not (0 <= eta < 0.25):
        raise Exception("invalid acceptance stringency")  # SciPy's exception type  # noqa: TRY002
    if max_trust_radius <= 0:
        raise Exception("the max trust radius must be positive")  # noqa: TRY002
    if initial_trust_radius <= 0:
        raise ValueError("the initial trust radius must be positive")
    if initial_trust_radius >= max_trust_radius:
        raise ValueError("the initial trust radius must be less than the max trust radius")
    x = x0.reshape(-1).astype(x0.dtype if x0.dtype.kind == "f" else numpy.float64)
    problem = _Problem(fun, jac, hess, hessp, args)
    m = Model(x, problem)
    m.fun_host = float(to_host(m.fun))  # the first read: f(x0)
    m.jac  # noqa: B018  SciPy's ScalarFunction evaluates f and g at x0 when it is made
    if callable(hess):
        problem.h0 = (x, as_array(hess(x, *args), "scipy.optimize.minimize"))
    maxiter = len(x) * 200 if maxiter is None else maxiter
    subproblem_maxiter = 25 if subproblem_maxiter is None else subproblem_maxiter
    if subproblem_maxiter < 0:
        raise ValueError("maxiter must not be set to a negative number, use np.inf to mean infinite.")
    trust_radius = initial_trust_radius
    allvecs = [x] if return_all else None
    k, warnflag = 0, 0
    while m.jac_mag >= gtol:
        try:
            p, hits_boundary = subproblem(m, trust_radius, subproblem_maxiter)
        except numpy.linalg.LinAlgError:
            warnflag = 3
            break
        predicted_d = m.value(p)
        x_proposed = x + p
        m_proposed = Model(x_proposed, problem)
        if hessian_at_proposal:
            m_proposed.hess  # noqa: B018  SciPy's exact subproblem takes H when it is made
        # the outer iteration's read: the model's prediction and f at the proposed point
        predicted_value, f_new = (float(v) for v in to_host(stack(
            [predicted_d.astype(numpy.float64), m_proposed.fun.astype(numpy.float64)])))
        m_proposed.fun_host = f_new
        f_now = m.fun_host
        actual_reduction = f_now - f_new
        predicted_reduction = f_now - predicted_value
        if predicted_reduction <= 0:
            warnflag = 2
            break
        rho = actual_reduction / predicted_reduction
        if rho < 0.25:
            trust_radius *= 0.25
        elif rho > 0.75 and hits_boundary:
            trust_radius = min(2 * trust_radius, max_trust_radius)
        if rho > eta:
            x, m = x_proposed, m_proposed
        if return_all:
            allvecs.append(x)
        k += 1
        if halt(callback, OptimizeResult(x=x, fun=m.fun_host)):
            break
        if m.jac_mag < gtol:
            warnflag = 0
            break
        if k >= maxiter:
            warnflag = 1
            break
    f_final = m.fun_host
    g_final = m.jac
    if disp:
        if warnflag == 0:
            print(_MESSAGES[warnflag])
        else:
            warnings.warn(_MESSAGES[warnflag], RuntimeWarning, stacklevel=4)
        print(f"         Current function value: {f_final:f}")
        print(f"         Iterations: {k:d}")
        print(f"         Function evaluations: {problem.obj.nfev:d}")
        print(f"         Gradient evaluations: {problem.obj.ngev:d}")
        print(f"         Hessian evaluations: {problem.nhev:d}")
    result = OptimizeResult(x=x, success=(warnflag == 0), status=warnflag, fun=f_final, jac=g_final,
                            nfev=problem.obj.nfev, njev=problem.obj.ngev, nhev=problem.nhev, nit=k,
                            message=_MESSAGES[warnflag])
    if hess is not None:
        result["hess"] = m.hess
    if return_all:
        result["allvecs"] = allvecs
    return result
