"""`ode` and `complex_ode`, after SciPy's legacy `scipy.integrate._ode`: a thin object interface
over the solvers that exist here. 'lsoda', 'vode' and 'zvode' run the LSODA port (`_lsoda.Driver`:
its state kept between calls, as ODEPACK's istate 2); 'dopri5' and 'dop853' run the Runge-Kutta
solvers of `solve_ivp` (`RK45`, `DOP853`) from each call's start to its end. Complex states
('zvode', `complex_ode`) are integrated as real systems of twice the size, interleaved real and
imaginary parts, as SciPy's `complex_ode` does."""

import re
import warnings

import numpy

from ..._core.host_input import as_literal_or_array
from ..._creation.basic import zeros
from ..._creation.from_data import asarray
from ..._manipulation.joining import stack
from ..._math.complex import imag, real
from ._ivp_base import host_tolerance
from ._lsoda import MESSAGES as LSODA_MESSAGES
from ._lsoda import Driver, IllegalInput
from ._odeint import _wrap_func, _wrap_jac
from ._rk import DOP853, RK45

__all__ = ["ode", "complex_ode"]

_FN = "scipy.integrate.ode"
VODE_MESSAGES = {-1: "Excess work done on this call. (Perhaps wrong MF.)",
                 -2: "Excess accuracy requested. (Tolerances too small.)",
                 -3: "Illegal input detected. (See printed message.)",
                 -4: "Repeated error test failures. (Check all input.)",
                 -5: "Repeated convergence failures. (Perhaps bad Jacobian supplied or wrong choice of MF or "
                     "tolerances.)",
                 -6: "Error weight became zero during problem. (Solution component i vanished, and ATOL or ATOL(i) "
                     "= 0.)"}
DOPRI_MESSAGES = {1: "computation successful", 2: "computation successful (interrupted by solout)",
                  -1: "input is not consistent", -2: "larger nsteps is needed", -3: "step size becomes too small",
                  -4: "problem is probably stiff (interrupted)"}


def to_pairs(y):
    """A complex vector as the real one of its interleaved real and imaginary parts."""
    return stack([real(y), imag(y)], axis=1).reshape(-1)


def from_pairs(y):
    return y[::2] + 1j * y[1::2]


class _Integrator:
    scalar = float
    supports_step = supports_run_relax = supports_solout = False

    def _finish(self, istate, messages):
        self.istate = istate
        if istate < 0:
            warnings.warn("{}: {}".format(self.name, messages.get(istate, "Unexpected istate={:d}".format(istate))),
                          stacklevel=4)
            self.success = 0
        else:
            self.success = 1


class _Lsoda(_Integrator):
    """'lsoda', 'vode' (any `method`: LSODA's own switching between Adams and BDF, not VODE's
    fixed method) and 'zvode' (complex, as a real system of twice the size)."""

    supports_step = supports_run_relax = True

    def __init__(self, name, with_jacobian=False, rtol=1e-6, atol=1e-12, lband=None, uband=None, nsteps=500,
                 max_step=0.0, min_step=0.0, first_step=0.0, method="adams", order=12, ixpr=0, max_hnil=0,
                 max_order_ns=12, max_order_s=5):
        if name != "lsoda" and not (re.match(method, "adams", re.I) or re.match(method, "bdf", re.I)):
            raise ValueError(f"Unknown integration method {method}")
        if name == "zvode" and (lband is not None or uband is not None):
            raise NotImplementedError("zvode with lband/uband is not available in cuarray; use a full Jacobian")
        self.name, self.scalar = name, complex if name == "zvode" else float
        self.rtol, self.atol, self.ml, self.mu = rtol, atol, lband, uband
        self.nsteps, self.max_step, self.min_step, self.first_step = nsteps, max_step, min_step, first_step
        self.mxordn, self.mxords = (max_order_ns, max_order_s) if name == "lsoda" else (min(order, 12), min(order, 5))
        self.messages = LSODA_MESSAGES if name == "lsoda" else VODE_MESSAGES
        self.success, self.istate, self.driver = 1, 1, None

    def reset(self, n, has_jac):
        self.n, self.driver, self.success, self.istate = n, None, 1, 1

    def _driver(self, f, jac, f_params, jac_params):
        banded = self.ml is not None or self.mu is not None
        ml, mu = (self.ml or 0, self.mu or 0) if banded else (0, 0)
        n = self.n * (2 if self.scalar is complex else 1)
        if self.scalar is complex:
            f, jac = _pairs_fun(f), (None if jac is None else _pairs_jac(jac))
        fun, fun_vectorized = _wrap_func(f, f_params, True, n)
        jacf = None if jac is None else _wrap_jac(jac, jac_params, True, 0, banded, ml, mu, n)
        jt = (4 if banded else 1) if jacf is not None else (5 if banded else 2)
        return Driver(fun, fun_vectorized, jacf, jt, ml, mu, host_tolerance(self.rtol), host_tolerance(self.atol),
                      self.min_step, self.max_step, self.nsteps, self.mxordn, self.mxords)

    def run(self, f, jac, y0, t0, t1, f_params, jac_params, itask=1):
        y_in = to_pairs(y0) if self.scalar is complex else y0
        try:
            if self.driver is None:
                self.driver = self._driver(f, jac, f_params, jac_params)
                self.driver.start(float(t0), y_in, float(t1), float(self.first_step))
            driver, core = self.driver, self.driver.core
            if itask == 1:
                istate, y = driver.advance(float(t1))
                t = float(t1) if istate > 0 else core.tn
            else:  # 2: one step; 3: steps until t1 is passed, no interpolation
                driver.nslast = core.nst
                istate = 0
                while istate == 0:
                    istate = driver.step()
                    if itask == 2 or (core.tn - float(t1)) * core.h >= 0.0:
                        break
                istate, y, t = istate or 2, core.yh[0], core.tn
        except IllegalInput:
            istate, y, t = -3, y_in, t0
        self._finish(istate, self.messages)
        return (from_pairs(y) if self.scalar is complex else y), t

    def step(self, *args):
        return self.run(*args, itask=2)

    def run_relax(self, *args):
        return self.run(*args, itask=3)


def _pairs_fun(f):
    def fun(t, y, *args):
        return to_pairs(asarray(f(t, from_pairs(y), *args), dtype=complex))
    return fun


def _pairs_jac(jac):
    """The real 2n x 2n Jacobian of the interleaved system: each complex entry a + bi becomes the
    block [[a, -b], [b, a]] (the system is holomorphic, as SciPy's `complex_ode` assumes)."""
    def fun(t, y, *args):
        J = asarray(jac(t, from_pairs(y), *args), dtype=complex)
        a, b = real(J), imag(J)
        top = stack([a, -b], axis=2).reshape(J.shape[0], -1)
        bottom = stack([b, a], axis=2).reshape(J.shape[0], -1)
        return stack([top, bottom], axis=1).reshape(2 * J.shape[0], -1)
    return fun


class _Dopri(_Integrator):
    """'dopri5' and 'dop853': solve_ivp's RK45 and DOP853 (SciPy's step-size controller, not the
    Fortran codes' with its `beta` stabilisation), from t0 to t1 each call."""

    supports_solout = True

    def __init__(self, name, rtol=1e-6, atol=1e-12, nsteps=500, max_step=0.0, first_step=0.0, safety=0.9,
                 ifactor=None, dfactor=None, beta=0.0, method=None, verbosity=-1):
        defaults = (10.0, 0.2) if name == "dopri5" else (6.0, 0.3)
        for key, value, default in (("safety", safety, 0.9), ("ifactor", ifactor, defaults[0]),
                                    ("dfactor", dfactor, defaults[1]), ("beta", beta, 0.0)):
            if value is not None and value != default:
                raise NotImplementedError(f"{name}'s {key} other than its default {default} is not available in "
                                          "cuarray (solve_ivp's step-size controller is used)")
        self.name, self.solver = name, RK45 if name == "dopri5" else DOP853
        self.rtol, self.atol, self.nsteps, self.max_step, self.first_step = rtol, atol, nsteps, max_step, first_step
        self.success, self.istate = 1, 1
        self.set_solout(None)

    def set_solout(self, solout, complex=False):
        self.solout, self.solout_cmplx = solout, complex

    def reset(self, n, has_jac):
        self.success, self.istate = 1, 1

    def _stop(self, t, y):
        if self.solout is None:
            return False
        r = self.solout(t, from_pairs(y) if self.solout_cmplx else y)
        return r is not None and r < 0

    def run(self, f, jac, y0, t0, t1, f_params, jac_params):
        istate, y, t = 1, y0, t0
        if self._stop(t0, y0):
            istate = 2
        elif t1 != t0:
            solver = self.solver(lambda s, u: f(s, u, *f_params), t0, y0, t1,
                                 max_step=self.max_step or numpy.inf, rtol=self.rtol, atol=self.atol,
                                 first_step=self.first_step or None)
            steps = 0
            while solver.status == "running":
                if steps >= self.nsteps:
                    istate = -2
                    break
                solver.step()
                steps += 1
                if solver.status == "failed":
                    istate = -3
                    break
                if self._stop(solver.t, solver.y):
                    istate = 2
                    break
            y, t = solver.y, solver.t
        self._finish(istate, DOPRI_MESSAGES)
        return y, t


def _find(name):
    """SciPy's `find_integrator`: the first integrator whose name `name` matches as a pattern."""
    for cls_name in ("vode", "zvode", "dopri5", "dop853", "lsoda"):
        if re.match(name, cls_name, re.I):
            return cls_name
    return None


def _make(name, params):
    return _Dopri(name, **params) if name.startswith("dop") else _Lsoda(name, **params)


class ode:  # noqa: N801 -- SciPy's name
    """See `scipy.integrate.ode`. `f(t, y, *f_params)` (and `jac`) compute on cuarray arrays; `y`
    is a device array. 'lsoda', 'vode' and 'zvode' run cuarray's LSODA port (one small read per
    corrector iteration; its state kept between calls): 'vode' and 'zvode' take VODE's arguments
    but step as LSODA (switching between Adams and BDF by itself, whatever `method`), so their
    steps differ from VODE's while the solutions agree within the tolerances; 'zvode' integrates
    the complex system as a real one of twice the size and takes no band. 'dopri5' and 'dop853'
    run `RK45` and `DOP853` (solve_ivp's step-size controller: only the default `safety`,
    `ifactor`, `dfactor` and `beta`), restarted at each call, and report no stiffness (-4).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy.integrate import ode
    >>> r = ode(lambda t, y, k: -k * y).set_integrator("dopri5", rtol=1e-10, atol=1e-12)
    >>> r = r.set_initial_value(cuarray.array([1.0, 2.0]), 0.0).set_f_params(0.5)
    >>> y = r.integrate(2.0)
    >>> r.successful(), float(r.t)
    (True, 2.0)
    >>> cuarray.round(y, 6)
    array([0.367879, 0.735759])
    """

    def __init__(self, f, jac=None):
        self.stiff = 0
        self.f, self.jac = f, jac
        self.f_params, self.jac_params = (), ()
        self._y = []

    @property
    def y(self):
        return self._y

    def set_initial_value(self, y, t=0.0):
        """See `scipy.integrate.ode.set_initial_value`."""
        if numpy.isscalar(y):
            y = [y]
        if not len(self._y):
            self.set_integrator("")
        self._y = asarray(as_literal_or_array(y, _FN), dtype=self._integrator.scalar).copy()
        self.t = t
        self._integrator.reset(len(self._y), self.jac is not None)
        return self

    def set_integrator(self, name, **integrator_params):
        """See `scipy.integrate.ode.set_integrator`."""
        found = _find(name)
        if found is None:
            warnings.warn(f"No integrator name match with {name!r} or is not available.", stacklevel=2)
            return self
        self._integrator = _make(found, integrator_params)
        if not len(self._y):
            self.t = 0.0
            self._y = zeros(1, dtype=self._integrator.scalar)
        self._integrator.reset(len(self._y), self.jac is not None)
        return self

    def integrate(self, t, step=False, relax=False):
        """See `scipy.integrate.ode.integrate`."""
        integrator = self._integrator
        if step and integrator.supports_step:
            mth = integrator.step
        elif relax and integrator.supports_run_relax:
            mth = integrator.run_relax
        else:
            mth = integrator.run
        self._y, self.t = mth(self.f, self.jac, self._y, self.t, t, self.f_params, self.jac_params)
        return self._y

    def successful(self):
        """See `scipy.integrate.ode.successful`."""
        if not hasattr(self, "_integrator"):
            self.set_integrator("")
        return self._integrator.success == 1

    def get_return_code(self):
        """See `scipy.integrate.ode.get_return_code`."""
        if not hasattr(self, "_integrator"):
            self.set_integrator("")
        return self._integrator.istate

    def set_f_params(self, *args):
        """See `scipy.integrate.ode.set_f_params`."""
        self.f_params = args
        return self

    def set_jac_params(self, *args):
        """See `scipy.integrate.ode.set_jac_params`."""
        self.jac_params = args
        return self

    def set_solout(self, solout):
        """See `scipy.integrate.ode.set_solout`."""
        if not self._integrator.supports_solout:
            raise ValueError("selected integrator does not support solout, choose another one")
        self._integrator.set_solout(solout)
        self._integrator.reset(len(self._y), self.jac is not None)


class complex_ode(ode):  # noqa: N801 -- SciPy's name
    """See `scipy.integrate.complex_ode`: the complex system integrated as a real one of twice the
    size (interleaved real and imaginary parts), as SciPy's; the integrators as `ode`'s (no band).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy.integrate import complex_ode
    >>> r = complex_ode(lambda t, y: 1j * y).set_integrator("dop853", rtol=1e-10, atol=1e-12)
    >>> r = r.set_initial_value(cuarray.array([1.0 + 0j]), 0.0)
    >>> y = r.integrate(cuarray.pi / 2)
    >>> cuarray.round(y.imag, 6)   # exp(i pi / 2) = i
    array([1.])
    """

    def __init__(self, f, jac=None):
        self.cf, self.cjac = f, jac
        ode.__init__(self, _pairs_fun(f), None if jac is None else _pairs_jac(jac))

    @property
    def y(self):
        return from_pairs(self._y)

    def set_integrator(self, name, **integrator_params):
        """See `scipy.integrate.complex_ode.set_integrator`."""
        if name == "zvode":
            raise ValueError("zvode must be used with ode, not complex_ode")
        if integrator_params.get("lband") is not None or integrator_params.get("uband") is not None:
            raise NotImplementedError("complex_ode with lband/uband is not available in cuarray; use a full Jacobian")
        return ode.set_integrator(self, name, **integrator_params)

    def set_initial_value(self, y, t=0.0):
        """See `scipy.integrate.complex_ode.set_initial_value`."""
        if numpy.isscalar(y):
            y = [y]
        y = asarray(as_literal_or_array(y, _FN), dtype=complex).reshape(-1)
        return ode.set_initial_value(self, to_pairs(y), t)

    def integrate(self, t, step=False, relax=False):
        """See `scipy.integrate.complex_ode.integrate`."""
        return from_pairs(ode.integrate(self, t, step, relax))

    def set_solout(self, solout):
        """See `scipy.integrate.complex_ode.set_solout`."""
        if not self._integrator.supports_solout:
            raise TypeError("selected integrator does not support solout, choose another one")
        self._integrator.set_solout(solout, complex=True)
