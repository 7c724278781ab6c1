"""LSODA: ODEPACK's driver around `_lsoda_core.Stoda` (Hindmarsh's LSODA with Petzold's method
switching, the driver of SciPy's `odeint` and of `solve_ivp(method='LSODA')`): the error
weights, the initial step, the stop at a critical time `tcrit`, the step-count limit and the
interpolation of the Nordsieck history at output times; and the `LSODA` OdeSolver."""

import warnings

import numpy

from ..._core.host_input import as_parameter
from ..._creation.from_data import asarray
from ..._indexing.inserting import take_along_axis
from ..._math.extrema import maximum, minimum
from ..._math.misc import abs as abs_
from ..._sorting.searching import where
from ..._sorting.searching_reduce import argmax
from ..._statistics.order import min as min_
from ._implicit import dense
from ._ivp_base import (DenseOutput, OdeSolver, host_tolerance, read, validate_first_step, validate_tol,
                        warn_extraneous)
from ._lsoda_core import UROUND, Stoda, reads, vmnorm

# ODEPACK's istate messages, as SciPy's odeint and ode('lsoda') word them
MESSAGES = {2: "Integration successful.",
            1: "Nothing was done; the integration time was 0.",
            -1: "Excess work done on this call (perhaps wrong Dfun type).",
            -2: "Excess accuracy requested (tolerances too small).",
            -3: "Illegal input detected (internal error).",
            -4: "Repeated error test failures (internal error).",
            -5: "Repeated convergence failures (perhaps bad Jacobian or tolerances).",
            -6: "Error weight became zero during problem.",
            -7: "Internal workspace insufficient to finish (internal error).",
            -8: "Run terminated (internal error)."}


class IllegalInput(Exception):
    """LSODA's istate -3: an option or a state that LSODA refuses."""


class Driver:
    """ODEPACK's LSODA driver state: `start` (istate 1) and `advance` (istate 2) for itask 1, 4
    and 5. rtol and atol are host floats or host arrays (they are parameters)."""

    def __init__(self, fun, fun_vectorized, jac, jt, ml, mu, rtol, atol, hmin=0.0, hmax=0.0, mxstep=500,
                 mxordn=12, mxords=5):
        self.rtol_h, self.atol_h = numpy.asarray(rtol, dtype=float), numpy.asarray(atol, dtype=float)
        if numpy.any(self.rtol_h < 0) or numpy.any(self.atol_h < 0) or hmin < 0 or hmax < 0:
            raise IllegalInput
        self.rtol = float(self.rtol_h) if self.rtol_h.ndim == 0 else as_parameter(self.rtol_h, "scipy.integrate.odeint")
        self.atol = float(self.atol_h) if self.atol_h.ndim == 0 else as_parameter(self.atol_h, "scipy.integrate.odeint")
        # a weight can vanish only where atol does, and uround ||y w|| (at most uround / rtol) can
        # exceed 0.01 only where rtol is at most 100 uround (at 100 uround, solve_ivp's floor, by
        # its rounding when atol is tiny): otherwise the driver's two checks need no read
        self.check_weights = bool(numpy.any(self.atol_h == 0))
        self.check_tolsf = bool(numpy.any(self.rtol_h <= 100 * UROUND))
        self.mxstep = mxstep
        self.core = Stoda(fun, fun_vectorized, jac, jt, ml, mu, 0, hmin, 1.0 / hmax if hmax > 0 else 0.0,
                          mxordn, mxords)
        self.tolsf = 0.0
        self.imxer = -1

    def set_weights(self, y):
        """DEWSET: the reciprocal error weights on the device; False where one vanished."""
        ewt = self.rtol * abs_(y) + self.atol
        if self.check_weights and not float(read(min_(ewt))) > 0.0:
            return False
        self.core.w = 1.0 / ewt
        return True

    def start(self, t, y0, tout, h0=0.0, tcrit=None):
        """istate 1: f at t0, the initial step (LSODA's h0 from the tolerances and ||f||) and the
        history [y0, h0 f0]."""
        core = self.core
        core.n = y0.shape[0]
        if core.n == 0:
            raise IllegalInput
        if tcrit is not None:
            if (tcrit - tout) * (tout - t) < 0.0:
                raise IllegalInput
            if h0 != 0.0 and (t + h0 - tcrit) * h0 > 0.0:
                h0 = tcrit - t
        if (tout - t) * h0 < 0.0:
            raise IllegalInput
        f0 = core.fun(t, y0)
        core.nfe = 1
        if not self.set_weights(y0):
            raise IllegalInput
        if h0 == 0.0:
            tdist = abs(tout - t)
            w0 = max(abs(t), abs(tout))
            if tdist < 2.0 * UROUND * w0:
                raise IllegalInput
            tol = float(numpy.max(self.rtol_h))
            if tol <= 0.0:  # rtol = 0: the largest atol_i / |y0_i| instead (one read of y0)
                yabs = numpy.abs(numpy.asarray(read(y0)))
                atol = numpy.broadcast_to(self.atol_h, yabs.shape)
                tol = max([0.0] + [a / v for a, v in zip(atol, yabs) if v != 0.0])
            tol = min(max(tol, 100.0 * UROUND), 0.001)
            fnorm = reads(vmnorm(f0, core.w))[0]
            with numpy.errstate(divide="ignore", over="ignore"):  # as LSODA's: tiny |t| gives h0 = 0
                h0 = float(1.0 / numpy.sqrt(1.0 / numpy.float64(tol * w0 * w0) + tol * fnorm * fnorm))
            h0 = numpy.copysign(min(h0, tdist), tout - t)
        if h0 == 0.0:  # LSODA's formula underflowed (|t0|, |tout| near the smallest floats)
            raise IllegalInput
        rh = abs(h0) * core.hmxi
        if rh > 1.0:
            h0 = h0 / rh
        core.h = float(h0)
        core.yh = [y0, f0 * core.h] + [y0 * 0.0] * 12
        core.tn = self.tsw = float(t)
        core.jstart = 0
        core.nst = 0
        self.nslast = 0
        self.first = True

    def step(self):
        """One DSTODA step with the driver's checks before it and its bookkeeping after it: 0, or
        LSODA's istate (-1 too much work, -2 too much accuracy, -3 illegal input, -4 error test
        failures, -5 convergence failures, -6 a vanished error weight)."""
        core = self.core
        if not self.first:
            if core.nst - self.nslast >= self.mxstep:
                return -1
            if not self.set_weights(core.yh[0]):
                return -6
        self.first = False
        if self.check_tolsf:
            tolsf = UROUND * reads(vmnorm(core.yh[0], core.w))[0]
            if tolsf > 0.01:
                self.tolsf = tolsf * 200.0
                return -3 if core.nst == 0 else -2
        kflag = core.step()
        if kflag < 0:
            self.imxer = int(read(argmax(abs_(core.acor * core.w)))) + 1
            return -4 if kflag == -1 else -5
        if core.meth != core.mused:
            self.tsw = core.tn
            core.maxord = core.mxords if core.meth == 2 else core.mxordn
            core.jstart = -1
        return 0

    def approach(self, tcrit):
        """Before a step toward `tcrit` (itask 4, 5): True when tn already is tcrit (within
        roundoff); otherwise h is cut so that the step does not pass it."""
        core = self.core
        if abs(core.tn - tcrit) <= 100.0 * UROUND * (abs(core.tn) + abs(core.h)):
            return True
        if (core.tn + core.h * (1.0 + 4.0 * UROUND) - tcrit) * core.h > 0.0:
            core.h = (tcrit - core.tn) * (1.0 - 4.0 * UROUND)
            if core.jstart >= 0:
                core.jstart = -2
        return False

    def advance(self, tout, tcrit=None):
        """LSODA with itask 1 (tcrit None) or 4 from the current state to tout: (istate, y at
        tout or at the last tn reached)."""
        core = self.core
        self.nslast = core.nst
        if not self.first:
            if tcrit is not None and ((core.tn - tcrit) * core.h > 0.0 or (tcrit - tout) * core.h < 0.0):
                raise IllegalInput
            if (core.tn - tout) * core.h >= 0.0:
                return 2, core.interpolate(tout)
            if tcrit is not None and self.approach(tcrit):
                return 2, core.yh[0]
        while True:
            istate = self.step()
            if istate < 0:
                return istate, core.yh[0]
            if (core.tn - tout) * core.h >= 0.0:
                return 2, core.interpolate(tout)
            if tcrit is not None and self.approach(tcrit):
                return 2, core.yh[0]


class LSODA(OdeSolver):
    """See `scipy.integrate.LSODA`. ODEPACK's LSODA ported: the Nordsieck history, the state, the
    Jacobian and its LU are device arrays; the step loop, the order, the method switches and the
    step sizes run on the host with one small read per corrector iteration. With `lband` or
    `uband` the finite-difference Jacobian takes `lband + uband + 1` evaluations of `fun` (and
    `jac` returns the packed band), and the Jacobian is kept as its band: at most tridiagonal
    (`lband`, `uband` <= 1) each Newton solve is cuSPARSE's gtsv2 (O(n), no n x n matrix); a wider
    band is expanded to a dense LU (cuSOLVER has no banded LU; SciPy's LAPACK gbtrf has one)."""

    def __init__(self, fun, t0, y0, t_bound, first_step=None, min_step=0.0, max_step=numpy.inf, rtol=1e-3,
                 atol=1e-6, jac=None, lband=None, uband=None, vectorized=False, **extraneous):
        warn_extraneous(extraneous)
        super().__init__(fun, t0, y0, t_bound, vectorized)
        first_step = 0.0 if first_step is None else validate_first_step(first_step, t0, t_bound)
        first_step *= self.direction
        if max_step == numpy.inf:
            max_step = 0.0
        elif max_step <= 0:
            raise ValueError("`max_step` must be positive.")
        if min_step < 0:
            raise ValueError("`min_step` must be nonnegative.")
        rtol, atol = validate_tol(rtol, atol, self.n)
        banded = lband is not None or uband is not None
        ml, mu = (lband or 0, uband or 0) if banded else (0, 0)
        jt = (4 if banded else 1) if jac is not None else (5 if banded else 2)
        n, dtype = self.n, self.y.dtype

        def jac_dense(t, y):
            J = jac(t, y)
            return asarray(J, dtype=dtype) if banded else dense(J, dtype)  # banded: LSODA's packed rows

        self.driver = Driver(self.fun_single, self.fun_vectorized, jac_dense if jac is not None else None, jt, ml,
                             mu, host_tolerance(rtol), host_tolerance(atol), min_step, max_step, 500)
        self._started = False
        self._first_step = first_step

    def _sync_counts(self):
        core = self.driver.core
        self.nfev, self.njev, self.nlu = core.nfe, core.nje, core.nje

    def _step_impl(self):
        driver, core, tcrit = self.driver, self.driver.core, self.t_bound
        try:
            if not self._started:
                driver.start(self.t, self.y, tcrit, self._first_step, tcrit)
                self._started = True
            elif (core.tn - tcrit) * core.h > 0.0:
                raise IllegalInput
            elif driver.approach(tcrit):
                self.t = tcrit
                return True, None
            driver.nslast = core.nst  # each call of LSODA (itask 5: one step) has its own mxstep
            istate = driver.step()
        except IllegalInput:
            istate = -3
        self._sync_counts()
        if istate < 0:  # SciPy's ode('lsoda') under its LSODA warns with ODEPACK's message
            warnings.warn(f"lsoda: {MESSAGES[istate]}", stacklevel=2)
            return False, "Unexpected istate in LSODA."
        self.y = core.yh[0]
        hit = abs(core.tn - tcrit) <= 100.0 * UROUND * (abs(core.tn) + abs(core.h))
        self.t = tcrit if hit else core.tn
        return True, None

    def _dense_output_impl(self):
        tn, h, yh = self.driver.core.last
        return LsodaDenseOutput(self.t_old, self.t, h, tn, yh)


class LsodaDenseOutput(DenseOutput):
    """See `scipy.integrate._ivp.lsoda.LsodaDenseOutput`: the last step's Nordsieck polynomial
    sum_j yh_j ((t - tn) / h)^j, evaluated by Horner's rule on the device."""

    def __init__(self, t_old, t, h, tn, yh):
        super().__init__(t_old, t)
        self.h, self.tn, self.yh = h, tn, list(yh)

    def _call_impl(self, t):
        s = (t - self.tn) / self.h
        if isinstance(t, float):
            y = self.yh[-1]
            for c in reversed(self.yh[:-1]):
                y = c + s * y
            return y
        y = self.yh[-1][:, None]
        for c in reversed(self.yh[:-1]):
            y = c[:, None] + s[None, :] * y
        return y
