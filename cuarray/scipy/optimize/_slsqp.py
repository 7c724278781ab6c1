"""`minimize(method='SLSQP')`: Kraft's sequential least-squares quadratic programming (D. Kraft,
"A software package for sequential quadratic programming", DFVLR-FB 88-28, 1988; ACM TOMS 20(3),
1994, algorithm 733), as SciPy's `_minimize_slsqp` drives it: a quasi-Newton matrix updated by
Powell's damped BFGS formula, the search direction from the quadratic subproblem (`_slsqp_qp`,
with Kraft's relaxation when the linearized constraints are inconsistent), and a backtracking
line search on the L1 merit function f + sum(mu_j |violation_j|).

The user's objective, constraints and their finite-difference derivatives run on the device at a
device iterate. The quadratic subproblem, the n x n quasi-Newton matrix and the merit function
are host work on n- and m-sized values: the subproblem's active-set steps are sequential and
tiny. Host reads: one per trial point (f and the m constraint values) and one per iteration (the
gradient and the m x n constraint Jacobian)."""

import warnings

import numpy

from ..._core.host_input import as_array, as_parameter
from ..._core.transfer import to_host
from ..._creation.basic import zeros
from ..._indexing.inserting import take
from ..._manipulation.joining import concatenate
from ..._math.misc import clip
from ...linalg._products import dot
from ._differentiate import approx_derivative
from ._objective import FD_METHODS, Objective
from ._result import OptimizeResult
from ._slsqp_qp import damped_bfgs, search_direction

__all__ = ["minimize_slsqp", "old_constraints", "fixed_by_bounds", "Reduced"]

_epsilon = float(numpy.sqrt(numpy.finfo(numpy.float64).eps))
_MODES = {0: "Optimization terminated successfully",
          2: "More equality constraints than independent variables",
          3: "More than 3*n iterations in LSQ subproblem",
          4: "Inequality constraints incompatible",
          5: "Singular matrix E in LSQ subproblem",
          6: "Singular matrix C in LSQ subproblem",
          7: "Rank-deficient equality constraint subproblem HFTI",
          8: "Positive directional derivative for linesearch",
          9: "Iteration limit reached"}
_FN = "scipy.optimize.minimize"


def _warn(msg):
    from scipy.optimize import OptimizeWarning  # optional dependency: SciPy's warning class  # noqa: PLC0415

    warnings.warn(msg, OptimizeWarning, stacklevel=5)


def _rows(v, idx):
    """Entries `idx` (host ints) of a device vector."""
    return take(v, as_parameter(idx, _FN), axis=0) if len(idx) else v[:0]


def old_constraints(con, x0):
    """SciPy's `new_constraint_to_old`: a `LinearConstraint` or `NonlinearConstraint` (ours or
    SciPy's) as the dicts of its equality rows and of its one-sided inequality rows, their
    functions and Jacobians composed on the device."""
    if hasattr(con, "A"):
        if numpy.any(con.keep_feasible):
            _warn("Constraint option `keep_feasible` is ignored by this method.")
        a = con.A.toarray() if hasattr(con.A, "toarray") else numpy.asarray(con.A)
        a_d = as_parameter(numpy.atleast_2d(a).astype(numpy.float64), _FN)

        def fun(x):
            return dot(a_d, x)

        def jac(x):
            return a_d
    else:
        hess_default = con.hess is None or type(con.hess).__name__ == "BFGS"
        if con.finite_diff_jac_sparsity is not None or con.finite_diff_rel_step is not None or \
                not hess_default or numpy.any(con.keep_feasible):
            _warn("Constraint options `finite_diff_jac_sparsity`, `finite_diff_rel_step`, `keep_feasible`, "
                  "and `hess`are ignored by this method.")
        fun, jac = con.fun, (con.jac if callable(con.jac) else None)
    f0 = as_array(fun(x0), _FN).reshape(-1)
    size = f0.shape[0]
    lb = numpy.broadcast_to(numpy.asarray(con.lb, dtype=float), (size,))
    ub = numpy.broadcast_to(numpy.asarray(con.ub, dtype=float), (size,))
    keep = numpy.broadcast_to(numpy.asarray(con.keep_feasible, dtype=bool), (size,)) & (lb != ub)
    if keep.any():  # SciPy's PreparedConstraint: one read of the constraint at x0
        f0 = numpy.asarray(to_host(f0), dtype=float)
        if numpy.any(f0[keep] < lb[keep]) or numpy.any(f0[keep] > ub[keep]):
            raise ValueError("`x0` is infeasible with respect to some inequality constraint with `keep_feasible` "
                             "set to True.")
    i_eq = lb == ub
    below = numpy.flatnonzero((lb != -numpy.inf) ^ i_eq)
    above = numpy.flatnonzero((ub != numpy.inf) ^ i_eq)
    eq = numpy.flatnonzero(i_eq)
    if numpy.any((lb == -numpy.inf) & (ub == numpy.inf)):
        _warn("At least one constraint is unbounded above and below. Such constraints are ignored.")
    lb_eq, lb_below, ub_above = (as_parameter(v, _FN) for v in (lb[eq], lb[below], ub[above]))
    out = []
    if len(eq):
        out.append({"type": "eq", "fun": lambda x: _rows(as_array(fun(x), _FN).reshape(-1), eq) - lb_eq})
        if jac is not None:
            out[-1]["jac"] = lambda x: _rows(_jac2d(jac(x), x), eq)
    if len(below) + len(above):
        def f_ineq(x):
            y = as_array(fun(x), _FN).reshape(-1)
            return concatenate([_rows(y, below) - lb_below, ub_above - _rows(y, above)])

        def j_ineq(x):
            j = _jac2d(jac(x), x)
            return concatenate([_rows(j, below), -_rows(j, above)])

        out.append({"type": "ineq", "fun": f_ineq})
        if jac is not None:
            out[-1]["jac"] = j_ineq
    if len(out) > 1:
        _warn("Equality and inequality constraints are specified in the same element of the constraint list. "
              "For efficient use with this method, equality and inequality constraints should be specified in "
              "separate elements of the constraint list. ")
    return out


def _jac2d(j, x):
    j = as_array(j.toarray() if hasattr(j, "toarray") and not hasattr(j, "__cuda_array_interface__") else j, _FN)
    return j.reshape(-1, x.shape[0])


class _Constraints:
    """The equality then inequality constraints' values (m,) and Jacobian (m, n) at a device x."""

    def __init__(self, constraints, jac, eps, rel_step, bounds):
        self.eq, self.ineq = [], []
        for ic, con in enumerate(constraints):
            try:
                ctype = con["type"].lower()
            except KeyError as exc:
                raise KeyError(f"Constraint {ic} has no type defined.") from exc
            except TypeError as exc:
                raise TypeError("Constraints must be defined using a dictionary.") from exc
            except AttributeError as exc:
                raise TypeError("Constraint's type must be a string.") from exc
            if ctype not in ("eq", "ineq"):
                raise ValueError(f"Unknown constraint type '{con['type']}'.")
            if "fun" not in con:
                raise ValueError(f"Constraint {ic} has no function defined.")
            (self.eq if ctype == "eq" else self.ineq).append((con["fun"], con.get("jac"), con.get("args", ())))
        # a constraint without `jac`: SciPy's differences, relative steps for '2-point'/'3-point', else eps
        self._fd = (jac, None, rel_step) if jac in FD_METHODS else ("2-point", eps, None)
        self._bounds = bounds

    def values(self, x):
        """(the device vector of the m constraint values, or None; meq, the equality rows)."""
        eq = [as_array(f(x, *args), _FN).reshape(-1) for f, _, args in self.eq]
        ineq = [as_array(f(x, *args), _FN).reshape(-1) for f, _, args in self.ineq]
        return (concatenate(eq + ineq) if eq or ineq else None), sum(v.shape[0] for v in eq)

    def jacobian(self, x):
        parts = []
        for f, jac, args in self.eq + self.ineq:
            if jac is not None:
                parts.append(_jac2d(jac(x, *args), x))
                continue
            method, abs_step, rel_step = self._fd

            def fx(y, f=f, args=args):
                return as_array(f(y, *args), _FN).reshape(-1)

            j, _ = approx_derivative(fx, x, fx(x), method, abs_step=abs_step, rel_step=rel_step,
                                     bounds=self._bounds)
            parts.append(j.reshape(-1, x.shape[0]))
        return concatenate(parts) if parts else None


class Reduced:
    """The problem in the variables that the bounds leave free: `full` puts a free vector back
    among the fixed values (a device gather, exact), the wrappers give the user's functions full
    vectors and take the free entries of their derivatives."""

    def __init__(self, fixed, bounds):
        free = numpy.flatnonzero(~fixed)
        order = numpy.empty(len(fixed), dtype=numpy.int64)
        order[free] = numpy.arange(len(free))
        order[fixed] = len(free) + numpy.arange(int(fixed.sum()))
        self.free_d, self._order = as_parameter(free, _FN), as_parameter(order, _FN)
        self._fixed_x = as_parameter(numpy.asarray(bounds.lb, dtype=numpy.float64)[fixed], _FN)
        self.bounds = type(bounds)(bounds.lb[free], bounds.ub[free])
        self.wrapped = None

    def full(self, v, fill=None):
        rest = self._fixed_x if fill is None else zeros(self._fixed_x.shape, v.dtype) + fill
        return take(concatenate([v, rest.astype(v.dtype)]), self._order)

    def fun(self, fun, both):
        if not both:
            return lambda x, *args: fun(self.full(x), *args)

        def fun_and_grad(x, *args):
            f, g = fun(self.full(x), *args)
            return f, take(as_array(g, _FN), self.free_d)
        return fun_and_grad

    def grad(self, jac):
        return lambda x, *args: take(as_array(jac(self.full(x), *args), _FN), self.free_d)

    def constraints(self, constraints):
        out = []
        for con in constraints:
            con = dict(con)
            f = con["fun"]
            con["fun"] = lambda x, *args, f=f: f(self.full(x), *args)
            if callable(con.get("jac")):
                j = con["jac"]
                con["jac"] = lambda x, *args, j=j: take(_jac2d(j(self.full(x), *args), self._order), self.free_d,
                                                        axis=1)
            out.append(con)
        return out

    def callback(self, callback):
        if callback is None:
            return None

        def wrapped(res):
            return callback(OptimizeResult(x=self.full(res.x), fun=res.fun))
        self.wrapped = wrapped
        return wrapped


def _violation(c, meq):
    """Each constraint's violation: |c| for the equalities, max(-c, 0) for the inequalities."""
    return numpy.concatenate([numpy.abs(c[:meq]), numpy.maximum(-c[meq:], 0.0)])


def minimize_slsqp(fun, x0, args, jac, bounds, constraints, callback, halt, maxiter=100, ftol=1.0e-6, iprint=1,
                   disp=False, eps=_epsilon, finite_diff_rel_step=None, workers=None):
    """SciPy's `_minimize_slsqp` (its driver and Kraft's `slsqp` loop) with the evaluations on the
    device."""
    fixed = None if bounds is None else numpy.asarray(bounds.lb == bounds.ub)
    if fixed is not None and fixed.any() and (not (callable(jac) or jac is True) or
                                              any(not callable(con.get("jac")) for con in constraints)):
        # as SciPy's `minimize`: finite differences cannot step in a variable fixed by its bounds, so the
        # fixed variables leave the problem
        red = Reduced(fixed, bounds)
        res = minimize_slsqp(red.fun(fun, jac is True), take(x0, red.free_d), args,
                             red.grad(jac) if callable(jac) else jac, red.bounds, red.constraints(constraints),
                             red.callback(callback), halt, maxiter, ftol, iprint, disp, eps, finite_diff_rel_step,
                             workers)
        res.x, res.jac = red.full(res.x), red.full(res.jac, numpy.nan)
        if callback is not None:  # the stop that `halt` marked on the wrapper, for `minimize` to report
            callback.stop_iteration = getattr(red.wrapped, "stop_iteration", False)
        return res
    return _slsqp(fun, x0, args, jac, bounds, constraints, callback, halt, maxiter, ftol, iprint if disp else 0, eps,
                  finite_diff_rel_step)


class _Evaluations:
    """The objective and the constraints at device points, each read to the host at once."""

    def __init__(self, obj, cons, n):
        self.obj, self.cons, self.n = obj, cons, n

    def values(self, x_d):
        """(f, the constraint values (host), meq)."""
        f_d, (c_d, meq) = self.obj.fun(x_d), self.cons.values(x_d)
        parts = [f_d.reshape(1).astype(numpy.float64)] + ([] if c_d is None else [c_d.astype(numpy.float64)])
        # the trial point's read: f and the constraint values
        h = numpy.asarray(to_host(concatenate(parts)), dtype=float)
        return float(h[0]), h[1:], meq

    def derivatives(self, x_d):
        """(the device gradient, its host copy, the constraints' Jacobian (host))."""
        g_d, a_d = self.obj.grad(x_d), self.cons.jacobian(x_d)
        parts = [g_d.astype(numpy.float64)] + ([] if a_d is None else [a_d.reshape(-1).astype(numpy.float64)])
        # the iteration's read: the gradient and the constraints' Jacobian
        h = numpy.asarray(to_host(concatenate(parts)), dtype=float)
        return g_d, h[:self.n], h[self.n:].reshape(-1, self.n)


def _summary(mode, f, nit, obj):
    print(_MODES[mode] + f"    (Exit mode {mode})")
    print("            Current function value:", f)
    print("            Iterations:", nit)
    print("            Function evaluations:", obj.nfev)
    print("            Gradient evaluations:", obj.ngev)


def _slsqp(fun, x0, args, jac, bounds, constraints, callback, halt, maxiter, ftol, iprint, eps, finite_diff_rel_step):
    """Kraft's loop (SciPy's `slsqp` with its driver): the host decisions, the device evaluations."""
    acc, tol = abs(ftol), 10 * abs(ftol)
    # float64 always: SciPy's SLSQP core takes float64 only (a float32 x0 with bounds comes back float64)
    dtype = numpy.dtype(numpy.float64)
    n = x0.shape[0]
    lo_h = numpy.full(n, -numpy.inf) if bounds is None else numpy.asarray(bounds.lb, dtype=float)
    hi_h = numpy.full(n, numpy.inf) if bounds is None else numpy.asarray(bounds.ub, dtype=float)
    # the subproblem's bounds: NaN where a side is unbounded (Kraft's convention)
    xl, xu = numpy.where(numpy.isfinite(lo_h), lo_h, numpy.nan), numpy.where(numpy.isfinite(hi_h), hi_h, numpy.nan)
    bounds_d = (as_parameter(lo_h.astype(dtype), _FN), as_parameter(hi_h.astype(dtype), _FN))
    obj = Objective(fun, jac, args, eps, finite_diff_rel_step, bounds_d)
    cons = _Constraints(constraints, jac, eps, finite_diff_rel_step, bounds_d)
    x_d = clip(x0.astype(dtype), *bounds_d)
    ev = _Evaluations(obj, cons, n)
    f, c, meq = ev.values(x_d)
    m = len(c)
    x = numpy.asarray(to_host(x_d), dtype=float)  # the host copy of the iterate, for the subproblem's bounds
    g_d, g, amat = ev.derivatives(x_d)
    if iprint >= 2:
        print(f"{'NIT':>5} {'FC':>5} {'OBJFUN':>16} {'GNORM':>16}")
    mult = numpy.zeros(m)
    mu = numpy.zeros(m)
    s = numpy.zeros(n)
    nit, resets, f0, stopped = 0, 0, f, False
    bmat = numpy.eye(n)
    reported = 0

    def report():
        nonlocal reported
        if nit > reported:
            reported = nit
            if halt(callback, OptimizeResult(x=x_d.copy(), fun=f)):
                return True
            if iprint >= 2:
                print(f"{nit:5d} {obj.nfev:5d} {f:16.6E} {numpy.linalg.norm(g):16.6E}")
        return False

    def relaxed(badlin):
        # Kraft's relaxed convergence test (10 ftol) when the matrix has been reset too often
        ok = (abs(f - f0) < tol or numpy.linalg.norm(s) < tol) and _violation(c, meq).sum() < tol
        return 0 if ok and not badlin and f == f else 8

    mode = None
    while mode is None:
        if nit >= maxiter:
            mode = 9
            break
        nit += 1
        step, mult_new, qmode, badlin, h4 = search_direction(bmat, g, amat, c, meq, xl - x, xu - x)
        if qmode != 1:
            mode = qmode
            break
        s, mult = step, mult_new
        lag = g - amat.T @ mult
        f0, x_start = f, x
        gs = float(g @ s)
        viol = _violation(c, meq)
        mu = numpy.maximum(numpy.abs(mult), (mu + numpy.abs(mult)) / 2)
        if abs(gs) + numpy.abs(mult) @ numpy.abs(c) < acc and viol.sum() < acc and not badlin and f == f:
            mode = 0
            break
        t0 = f + mu @ viol
        slope = gs - (mu @ viol) * h4
        if slope >= 0:  # not a descent direction of the merit function: restart from B = I
            resets += 1
            if resets > 5:
                mode = relaxed(badlin)
                break
            bmat = numpy.eye(n)
            continue
        alpha, line = 1.0, 0
        while True:
            line += 1
            slope *= alpha
            s = s * alpha
            x = numpy.clip(x_start + s, lo_h, hi_h)
            x_d = as_parameter(x.astype(dtype), _FN)
            f, c, _ = ev.values(x_d)
            if report():
                stopped = True
                break
            h1 = f + mu @ _violation(c, meq) - t0
            if not (h1 > slope / 10 and line <= 10):
                break
            alpha = max(slope / (2 * (slope - h1)), 0.1)
        if stopped:
            break
        if (abs(f - f0) < acc or numpy.linalg.norm(s) < acc) and _violation(c, meq).sum() < acc and f == f:
            mode = 0
            break
        g_d, g, amat = ev.derivatives(x_d)
        bmat = damped_bfgs(bmat, s, g - amat.T @ mult - lag)
        if bmat is None:  # a singular update: restart from B = I
            resets += 1
            if resets > 5:
                mode = relaxed(False)
                break
            bmat = numpy.eye(n)
    if mode is not None and report():
        stopped = True
    if iprint >= 1 and not stopped:
        _summary(mode, f, nit, obj)
    # a stop by the callback: `minimize` sets SciPy's status and message for it
    status = 1 if stopped else mode
    return OptimizeResult(x=x_d, fun=f, jac=g_d, nit=nit, nfev=obj.nfev, njev=obj.ngev, status=status,
                          message="Function evaluation required (f & c)" if stopped else _MODES[mode],
                          success=(status == 0), multipliers=mult[:m])


def fixed_by_bounds(fun, args, bounds, constraints):
    """SciPy's `_optimize_result_for_equal_bounds`: x = lb, one evaluation, the constraints checked."""
    x = as_parameter(numpy.asarray(bounds.lb, dtype=numpy.float64), _FN)
    message = "All independent variables were fixed by bounds."
    success = True
    if constraints:
        message = "All independent variables were fixed by bounds at values that satisfy the constraints."
        cons = _Constraints(constraints, None, _epsilon, None, None)
        c_d, meq = cons.values(x)
        viol = _violation(numpy.asarray(to_host(c_d), dtype=float), meq)  # one read: the constraint values
        if viol.sum():
            success = False
            message = ("All independent variables were fixed by bounds, but the independent variables do not "
                       f"satisfy the constraints exactly. (Maximum violation: {viol.max()}).")
    return OptimizeResult(x=x, fun=fun(x, *args), success=success, message=message, nfev=1, njev=0, nhev=0)
