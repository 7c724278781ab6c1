"""LSODA's step: a port of ODEPACK's DSTODA (A. C. Hindmarsh, "ODEPACK, a systematized collection
of ODE solvers", IMACS Trans. Sci. Comput. 1, 1983) with L. Petzold's automatic switching between
the implicit Adams methods (orders 1 to 12, functional iteration: nonstiff) and the BDF methods
(orders 1 to 5, chord Newton iteration: stiff), "Automatic selection of methods for solving stiff
and nonstiff systems of ordinary differential equations", SIAM J. Sci. Stat. Comput. 4, 1983.

The Nordsieck history array is a list of device vectors, and so are the error weights, the
corrections and the Jacobian with its LU. The order, the step size, the method and the
switching estimates (Lipschitz constants, step-size ratios) are host numbers, as in ODEPACK.
The host reads, in one small vector per corrector iteration, that iteration's correction norm
and the accumulated correction's norm (plus, after a prediction, the predicted state's norm, and
after a Jacobian, its norm); when the order or the method may change, one more read of the
neighbouring orders' norms. LSODA's norms are weighted max-norms (`vmnorm`)."""

import numpy

from ..._core.host_input import as_parameter
from ..._creation.basic import zeros
from ..._indexing.inserting import take, take_along_axis
from ..._manipulation.joining import stack
from ..._math.extrema import maximum, minimum
from ..._math.misc import abs as abs_
from ..._math.sums import sum as sum_
from ..._sorting.searching import where
from ..._statistics.order import max as max_
from ._implicit import identity, lu, solve_lu
from ._ivp_base import read
from ._sparse_jac import TridiagonalLU

UROUND = numpy.finfo(float).eps
SM1 = (0.5, 0.575, 0.55, 0.45, 0.35, 0.25, 0.20, 0.15, 0.10, 0.075, 0.050, 0.025)  # Adams' stability bounds
MAXCOR, MSBP, MXNCF, CCMAX = 3, 20, 10, 0.3


def cfode(meth):
    """ODEPACK's DCFODE: (elco, tesco) of the Adams (meth 1) or BDF (meth 2) methods, as host arrays
    indexed [order - 1, i]: elco the coefficients l_i of the method's polynomial, tesco the error
    test constants for the orders q - 1, q, q + 1."""
    elco, tesco, pc = numpy.zeros((12, 13)), numpy.zeros((12, 3)), numpy.zeros(13)
    pc[0] = 1.0
    if meth == 1:
        elco[0, :2] = 1.0
        tesco[0, 1], tesco[1, 0] = 2.0, 1.0
        rqfac = 1.0
        for nq in range(1, 12):
            rq1fac = rqfac
            rqfac = rqfac / (nq + 1)
            pc[nq] = 0.0
            for ib in range(nq):  # p(x) = (x + 1)...(x + nq - 1) times (x + nq), coefficients
                pc[nq - ib] = pc[nq - ib - 1] + nq * pc[nq - ib]
            pc[0] = nq * pc[0]
            pint, xpin, tsign = pc[0], pc[0] * 0.5, 1.0  # integrals over [-1, 0] of p(x) and x p(x)
            for i in range(1, nq + 1):
                tsign = -tsign
                pint = pint + tsign * pc[i] / (i + 1)
                xpin = xpin + tsign * pc[i] / (i + 2)
            elco[nq, 0] = pint * rq1fac
            elco[nq, 1] = 1.0
            elco[nq, 2:nq + 2] = rq1fac * pc[1:nq + 1] / numpy.arange(2, nq + 2)
            ragq = 1.0 / (rqfac * xpin)
            tesco[nq, 1] = ragq
            if nq < 11:
                tesco[nq + 1, 0] = ragq * rqfac / (nq + 2)
            tesco[nq - 1, 2] = ragq
        return elco, tesco
    rq1fac = 1.0
    for nq in range(5):
        pc[nq + 1] = 0.0
        for ib in range(nq + 1):  # p(x) = (x + 1)...(x + nq + 1), coefficients
            pc[nq - ib + 1] = pc[nq - ib] + (nq + 1) * pc[nq - ib + 1]
        pc[0] = (nq + 1) * pc[0]
        elco[nq, :nq + 2] = pc[:nq + 2] / pc[1]
        elco[nq, 1] = 1.0
        tesco[nq] = (rq1fac, (nq + 2) / elco[nq, 0], (nq + 3) / elco[nq, 0])
        rq1fac = rq1fac / (nq + 1)
    return elco, tesco


COEFFICIENTS = {1: cfode(1), 2: cfode(2)}
CM1 = COEFFICIENTS[1][1][:, 1] * numpy.diagonal(COEFFICIENTS[1][0][:, 1:])
CM2 = COEFFICIENTS[2][1][:5, 1] * numpy.diagonal(COEFFICIENTS[2][0][:5, 1:])


def vmnorm(v, w):
    """LSODA's weighted max-norm max_i |v_i| w_i (w the reciprocal error weights), on the device."""
    return max_(abs_(v) * w)


def reads(*values):
    """One host read of several device scalars (the step's sync)."""
    return [float(v) for v in read(stack(list(values)))]


def unpack_banded(packed, ml, mu, n):
    """A banded matrix in LSODA's packed rows (packed[mu + i - j, j] = J[i, j]) as a dense device
    matrix."""
    i = as_parameter(numpy.arange(n), "scipy.integrate.odeint")
    d = i[:, None] - i[None, :]
    rows = minimum(maximum(d + mu, 0), ml + mu)
    return where((d <= ml) & (d >= -mu), take_along_axis(packed, rows, axis=0), 0.0)


class Band:
    """Host index arrays of LSODA's band storage, (ml + mu + 1, n) rows with ab[mu + i - j, j] =
    M[i, j] (LAPACK's and `solve_banded`'s layout, less gbtrf's ml extra rows): each entry's row
    i, whether it lies inside the matrix, and for the row sums the entry of each (r, i)."""

    def __init__(self, ml, mu, n):
        self.ml, self.mu, self.n = ml, mu, n
        r, j = numpy.arange(ml + mu + 1)[:, None], numpy.arange(n)[None, :]
        i = j + r - mu
        inside = (i >= 0) & (i < n)
        self.inside = as_parameter(inside, "scipy.integrate.odeint")
        self.row = as_parameter(numpy.clip(i, 0, max(n - 1, 0)), "scipy.integrate.odeint")
        self.groups = numpy.arange(n) % (ml + mu + 1)  # DPRJA's: columns ml + mu + 1 apart share a shift
        self.cols = as_parameter(numpy.broadcast_to(self.groups, (ml + mu + 1, n)), "scipy.integrate.odeint")
        # for the row sums, indexed (r, i) with i the matrix row (the same range as j): row i's
        # entry in band row r sits in column i - r + mu, at that flat place of ab
        col = j - r + mu
        self.row_inside = as_parameter((col >= 0) & (col < n), "scipy.integrate.odeint")
        self.row_flat = as_parameter(r * n + numpy.clip(col, 0, max(n - 1, 0)), "scipy.integrate.odeint")

    def differences(self, F, savf, scale):
        """-h l_0 J in band rows from the grouped differences F ((n, groups) of fun at the shifted
        states): entry (i, j) is (F[i, group of j] - savf[i]) * scale[j], DPRJA's banded form."""
        D = F - savf[:, None]
        vals = take(D.reshape(-1), self.row * D.shape[1] + self.cols)
        return where(self.inside, vals * scale[None, :], 0.0)

    def clean(self, packed):
        """The user's packed rows with the places outside the matrix zero (LAPACK never reads them)."""
        return where(self.inside, packed, 0.0)

    def row_sums(self, ab, w):
        """sum_j |M[i, j]| / w_j of each row i (DFNORM's banded form, DBNORM)."""
        T = abs_(ab) / w[None, :]
        return sum_(where(self.row_inside, take(T.reshape(-1), self.row_flat), 0.0), axis=0)

    def lu(self, ab):
        """The LU of I + M (M in band rows): gtsv2's solves where the band is at most tridiagonal
        (O(n)); else the dense n x n LU (cuSOLVER has no banded LU; LAPACK's gbtrf, which SciPy's
        LSODA calls, works on the band)."""
        ml, mu, n = self.ml, self.mu, self.n
        if ml <= 1 and mu <= 1:
            tri = zeros((3, n), dtype=ab.dtype)
            tri[1] = ab[mu] + 1.0
            if mu:
                tri[0] = ab[0]
            if ml:
                tri[2] = ab[mu + 1]
            return TridiagonalLU(tri)
        return unpack_banded(ab, ml, mu, n) + identity(n)


class Stoda:
    """ODEPACK's DSTODA state and step. `fun(t, y)` and `fun_vectorized(t, Y)` evaluate on device
    arrays (counted here in `nfe`); `jac(t, y)` returns the dense device Jacobian (`jt` 1), or its
    band in LSODA's packed rows (`jt` 4), or is None for LSODA's own forward differences (one
    evaluation of `fun_vectorized` with a column a group: `n` groups, or `ml + mu + 1` with a
    band, `jt` 2 or 5). With a band the Jacobian is kept in band rows (`Band`): no n x n matrix
    where the band is at most tridiagonal. `jt` is LSODA's Jacobian type (1, 2, 4, 5)."""

    def __init__(self, fun, fun_vectorized, jac, jt, ml, mu, n, hmin, hmxi, mxordn, mxords):
        self.fun, self.fun_vectorized, self.jac = fun, fun_vectorized, jac
        self.jtyp, self.ml, self.mu, self.n = jt, ml, mu, n
        self.band = None  # made at the first Jacobian, when `n` is known
        self.hmin, self.hmxi, self.mxordn, self.mxords = hmin, hmxi, mxordn, mxords
        self.nfe = self.nje = self.nlu = self.nst = 0
        self.meth, self.miter, self.mused, self.maxord = 1, 0, 0, mxordn
        self.nq, self.l, self.nqu, self.hu = 1, 2, 0, 0.0
        self.jstart = 0
        self.kflag = 0
        self.LU = None
        self.pdnorm = 0.0
        self.ratio = 5.0

    # -- coefficients, rescaling and prediction (DSTODA's labels 150, 170, 200) ---------------------
    def tesco(self, k):
        return COEFFICIENTS[self.meth][1][self.nq - 1, k]

    def reset(self):
        self.el = COEFFICIENTS[self.meth][0][self.nq - 1, :self.l].copy()
        self.rc = self.rc * self.el[0] / self.el0
        self.el0 = float(self.el[0])
        self.conit = 0.5 / (self.nq + 2)

    def adjust_step(self, rh):
        rh = min(rh, self.rmax)
        rh = rh / max(1.0, abs(self.h) * self.hmxi * rh)
        if self.meth != 2:  # the Adams stability region bounds h * (Lipschitz estimate)
            self.irflag = 0
            pdh = max(abs(self.h) * self.pdlast, 0.000001)
            if rh * pdh * 1.00001 >= SM1[self.nq - 1]:
                rh = SM1[self.nq - 1] / pdh
                self.irflag = 1
        r = 1.0
        for j in range(1, self.l):
            r = r * rh
            self.yh[j] = self.yh[j] * r
        self.h = float(self.h * rh)
        self.rc = self.rc * rh
        self.ialth = self.l

    def pascal(self, sign):
        """yh times the Pascal triangle (the prediction) or, with sign -1, its retraction."""
        yh, nq = self.yh, self.nq
        for jb in range(nq):
            for c in range(nq - 1 - jb, nq):
                yh[c] = yh[c] + yh[c + 1] if sign > 0 else yh[c] - yh[c + 1]

    def predict(self):
        if abs(self.rc - 1.0) > CCMAX or self.nst >= self.nslp + MSBP:
            self.ipup = self.miter
        self.tn = self.tn + self.h
        self.pascal(1)
        self.pnorm = None  # read with the first corrector iteration
        self.pnorm_dev = vmnorm(self.yh[0], self.w)

    # -- the Jacobian (DPRJA) ---------------------------------------------------------------------
    def prja(self, y, savf):
        """P = I - h l_0 J factored; returns the device scalar ||J|| in the norm that `vmnorm`
        induces (DFNORM), which the BDF-to-Adams test uses."""
        self.nje += 1
        self.jcur = 1
        hl0 = self.h * self.el0
        w, n = self.w, self.n
        if self.jtyp in (4, 5) and (self.band is None or self.band.n != n):
            self.band = Band(self.ml, self.mu, n)
        band = self.band
        if self.jac is not None:
            M = (band.clean(self.jac(self.tn, y)) if band else self.jac(self.tn, y)) * -hl0
        else:
            # LSODA's increments: max(sqrt(uround) |y_j|, r0 / w_j), r0 from ||f||
            r0 = 1000.0 * abs(self.h) * UROUND * n * vmnorm(savf, w)
            r0 = where(r0 == 0.0, 1.0, r0)
            r = maximum(UROUND ** 0.5 * abs_(y), r0 / w)
            groups = band.groups if band else numpy.arange(n)
            ng = int(groups.max()) + 1 if n else 0
            g = as_parameter(groups, "scipy.integrate.odeint")
            shifts = where(g[:, None] == as_parameter(numpy.arange(ng), "scipy.integrate.odeint")[None, :],
                           r[:, None], 0.0)
            F = self.fun_vectorized(self.tn, y[:, None] + shifts)
            self.nfe += ng
            if band:
                M = band.differences(F, savf, -hl0 / r)
            else:
                M = (take(F, g, axis=1) - savf[:, None]) * (-hl0 / r)[None, :]  # -h l_0 J, as DPRJA forms it
        rows = band.row_sums(M, w) if band else sum_(abs_(M) / w, axis=1)
        pdnorm = max_(w * rows) / abs(hl0)
        P = band.lu(M) if band else M + identity(n)
        if isinstance(P, TridiagonalLU):
            self.nlu += 1
            self.LU = P
        else:
            self.LU = lu(self, P)
        return pdnorm

    # -- the corrector (DSTODA's labels 220-450) --------------------------------------------------
    def corrector(self):
        """(status, m, del, ||acor||): status 0 converged, 1 retry with a new Jacobian, 2 failed."""
        m, rate, delp = 0, 0.0, 0.0
        yh, w = self.yh, self.w
        y = yh[0]
        savf = self.fun(self.tn, y)
        self.nfe += 1
        extra = []
        if self.ipup > 0:
            extra = [self.prja(y, savf)]
            self.ipup = 0
            self.rc = 1.0
            self.nslp = self.nst
            self.crate = 0.7
        acor = y * 0.0
        while True:
            if self.miter == 0:
                savf = self.h * savf - yh[1]
                del_dev = vmnorm(savf - acor, w)
                y = yh[0] + self.el0 * savf
                acor = savf
            else:
                x = solve_lu(self.LU, self.h * savf - (yh[1] + acor))
                del_dev = vmnorm(x, w)
                acor = acor + x
                y = yh[0] + self.el0 * acor
            first = self.pnorm is None
            # the corrector iteration's read: its correction's norm, the accumulated one's, and
            # after a prediction or a Jacobian their norms
            values = reads(del_dev, vmnorm(acor, w), *([self.pnorm_dev] if first else []), *extra)
            dl, acnorm = values[0], values[1]
            if first:
                self.pnorm = values[2]
            if extra:
                self.pdnorm = values[-1]
                extra = []
            if dl <= 100.0 * self.pnorm * UROUND:
                break
            if m != 0 or self.meth != 1:
                if m != 0:
                    rm = dl / delp if dl <= 1024.0 * delp else 1024.0
                    rate = max(rate, rm)
                    self.crate = max(0.2 * self.crate, rm)
                dcon = dl * min(1.0, 1.5 * self.crate) / (self.tesco(1) * self.conit)
                if dcon <= 1.0:  # converged: the Lipschitz estimate for the Adams stability test
                    self.pdest = max(self.pdest, rate / abs(self.h * self.el0))
                    if self.pdest != 0.0:
                        self.pdlast = self.pdest
                    break
            m += 1
            if m == MAXCOR or (m >= 2 and dl > 2.0 * delp):
                self.acor = acor  # ODEPACK's ACOR work array: the driver's IMXER reads it on failure
                if self.miter != 0 and self.jcur != 1:
                    self.ipup = self.miter
                    return 1, m, dl, acnorm
                return 2, m, dl, acnorm
            delp = dl
            savf = self.fun(self.tn, y)
            self.nfe += 1
        self.jcur = 0
        self.acor = acor
        return 0, m, dl, acnorm

    # -- one step (DSTODA) --------------------------------------------------------------------------
    def first_call(self):
        self.lmax = self.maxord + 1
        self.nq, self.l, self.ialth = 1, 2, 2
        self.rmax, self.rc, self.el0, self.crate = 10000.0, 0.0, 1.0, 0.7
        self.hold = self.h
        self.nslp = 0
        self.ipup = self.miter
        self.icount, self.irflag, self.pdest, self.pdlast = 20, 0, 0.0, 0.0
        self.reset()

    def restart(self, new_method):
        """jstart -1 (after a method switch or new options) and -2 (a new h only)."""
        if new_method:
            self.ipup = self.miter
            self.lmax = self.maxord + 1
            if self.ialth == 1:
                self.ialth = 2
            if self.meth != self.mused:
                self.ialth = self.l
                self.reset()
        if self.h != self.hold:
            rh = self.h / self.hold
            self.h = self.hold
            if new_method:
                rh = max(rh, self.hmin / abs(self.h))
            self.adjust_step(rh)

    def step(self):
        """DSTODA: one step from tn, kflag 0 (taken), -1 (repeated error test failures) or -2
        (repeated corrector failures, or h at hmin)."""
        self.kflag, self.jcur = 0, 0
        if self.jstart == 0:
            self.first_call()
        elif self.jstart < 0:
            self.restart(self.jstart == -1)
        told = self.tn
        ncf = 0
        self.predict()
        while True:
            status, m, dl, acnorm = self.corrector()
            if status == 1:
                continue
            if status == 2:
                ncf += 1
                self.rmax = 2.0
                self.tn = told
                self.pascal(-1)
                if abs(self.h) <= self.hmin * 1.00001 or ncf == MXNCF:
                    return self.finish(-2)
                self.ipup = self.miter
                self.adjust_step(max(0.25, self.hmin / abs(self.h)))
                self.predict()
                continue
            dsm = (dl if m == 0 else acnorm) / self.tesco(1)
            if dsm > 1.0:
                self.kflag -= 1
                self.tn = told
                self.pascal(-1)
                self.rmax = 2.0
                if abs(self.h) <= self.hmin * 1.00001:
                    return self.finish(-1)
                if self.kflag <= -3:
                    # 3 or more failures: the history is suspect, restart at order 1 with h / 10
                    if self.kflag == -10:
                        return self.finish(-1)
                    self.h = self.h * max(self.hmin / abs(self.h), 0.1)
                    self.yh[1] = self.h * self.fun(self.tn, self.yh[0])
                    self.nfe += 1
                    self.ipup = self.miter
                    self.ialth = 5
                    if self.nq != 1:
                        self.nq, self.l = 1, 2
                        self.reset()
                    self.predict()
                    continue
                rhup = 0.0
            else:
                rh = self.accepted(dsm)
                if rh is not None:
                    return self.finish(0, rmax_reset=rh)
                rhup = self.rhup
            redo = self.select(dsm, rhup)
            if redo is None:
                continue
            return self.finish(0, rmax_reset=redo)

    def accepted(self, dsm):
        """DSTODA's labels 450-488 after a passed error test: the history updated, the method
        switch tests; None when the order/step selection follows, True (rmax reset) or False
        when the step ends here."""
        acor, yh = self.acor, self.yh
        self.kflag = 0
        self.nst += 1
        self.hu, self.nqu, self.mused = self.h, self.nq, self.meth
        for j in range(self.l):
            yh[j] = yh[j] + float(self.el[j]) * acor
        self.last = (self.tn, self.h, list(yh[:self.l]))  # the step's interpolant, for dense output
        self.icount -= 1
        if self.icount < 0 and self.switch(dsm):
            return True
        self.ialth -= 1
        self.rhup = 0.0
        if self.ialth == 0:
            return None
        if self.ialth <= 1 and self.l != self.lmax:
            yh[self.lmax - 1] = acor  # saved for an order increase on the next step
        return False

    def switch(self, dsm):
        """Petzold's tests: switch Adams -> BDF when BDF's ideal step is at least `ratio` (5) times
        Adams' (limited by its stability region), BDF -> Adams when Adams' is at least as large.
        True when switched (the history rescaled for the new method's order)."""
        nq, h, pnorm = self.nq, self.h, self.pnorm
        clean = dsm > 100.0 * pnorm * UROUND and self.pdest != 0.0
        if self.meth == 1:
            if nq > 5 or (not clean and self.irflag == 0):
                return False
            if not clean:  # polluted estimates after a stability-limited step: BDF with h doubled
                rh, nqm2 = 2.0, min(nq, self.mxords)
            else:
                exsm = 1.0 / self.l
                rh1 = 1.0 / (1.2 * dsm ** exsm + 0.0000012)
                rh1it = 2.0 * rh1
                pdh = self.pdlast * abs(h)
                if pdh * rh1 > 0.00001:
                    rh1it = SM1[nq - 1] / pdh
                rh1 = min(rh1, rh1it)
                if nq > self.mxords:
                    nqm2 = self.mxords
                    dm2 = reads(vmnorm(self.yh[nqm2 + 1], self.w))[0] / CM2[nqm2 - 1]
                    rh2 = 1.0 / (1.2 * dm2 ** (1.0 / (nqm2 + 1)) + 0.0000012)
                else:
                    nqm2 = nq
                    rh2 = 1.0 / (1.2 * (dsm * (CM1[nq - 1] / CM2[nq - 1])) ** exsm + 0.0000012)
                if rh2 < self.ratio * rh1:
                    return False
                rh = rh2
            self.meth, self.miter, new_nq = 2, self.jtyp, nqm2
        else:
            exsm = 1.0 / self.l
            if self.mxordn >= nq:
                nqm1, exm1 = nq, exsm
                dm1 = dsm * (CM2[nq - 1] / CM1[nq - 1])
            else:
                nqm1 = self.mxordn
                exm1 = 1.0 / (nqm1 + 1)
                dm1 = reads(vmnorm(self.yh[nqm1 + 1], self.w))[0] / CM1[nqm1 - 1]
            rh1 = 1.0 / (1.2 * dm1 ** exm1 + 0.0000012)
            rh1it = 2.0 * rh1
            pdh = self.pdnorm * abs(h)
            if pdh * rh1 > 0.00001:
                rh1it = SM1[nqm1 - 1] / pdh
            rh1 = min(rh1, rh1it)
            rh2 = 1.0 / (1.2 * dsm ** exsm + 0.0000012)
            if rh1 * self.ratio < 5.0 * rh2:
                return False
            # Adams' step would be so small that roundoff pollutes it: stay with BDF
            if max(0.001, rh1) ** exm1 * dm1 <= 1000.0 * UROUND * pnorm:
                return False
            rh = rh1
            self.meth, self.miter, new_nq = 1, 0, nqm1
        self.icount = 20
        self.pdlast = 0.0
        self.nq, self.l = new_nq, new_nq + 1
        self.adjust_step(max(rh, self.hmin / abs(h)))
        return True

    def select(self, dsm, rhup):
        """DSTODA's labels 520-625: the next order and step size from the error estimates of the
        orders q - 1, q and q + 1. Returns True/False (the step ends; rmax reset or not) or None
        (a failed step is tried again with the new h)."""
        yh, w, nq, l = self.yh, self.w, self.nq, self.l
        want_up = self.kflag == 0 and l != self.lmax
        norms = ([vmnorm(self.acor - yh[self.lmax - 1], w)] if want_up else []) + \
                ([vmnorm(yh[l - 1], w)] if nq != 1 else [])
        # the neighbouring orders' norms, read together
        values = reads(*norms) if norms else []
        if want_up:
            dup = values.pop(0) / self.tesco(2)
            rhup = 1.0 / (1.4 * dup ** (1.0 / (l + 1.0)) + 0.0000014)
        rhsm = 1.0 / (1.2 * dsm ** (1.0 / l) + 0.0000012)
        rhdn = 0.0
        if nq != 1:
            ddn = values[0] / self.tesco(0)
            rhdn = 1.0 / (1.3 * ddn ** (1.0 / nq) + 0.0000013)
        pdh = 0.0
        if self.meth == 1:
            pdh = max(abs(self.h) * self.pdlast, 0.000001)
            if l < self.lmax:
                rhup = min(rhup, SM1[l - 1] / pdh)
            rhsm = min(rhsm, SM1[nq - 1] / pdh)
            if nq > 1:
                rhdn = min(rhdn, SM1[nq - 2] / pdh)
            self.pdest = 0.0
        if rhsm >= rhup and rhsm >= rhdn:
            newq, rh = nq, rhsm
        elif rhsm < rhup and rhup > rhdn:
            newq, rh = l, rhup
            if rh < 1.1:
                self.ialth = 3
                return False
            yh[newq] = self.acor * float(self.el[l - 1] / l)
            self.nq, self.l = newq, newq + 1
            self.reset()
            self.adjust_step(max(rh, self.hmin / abs(self.h)))
            return True
        else:
            newq, rh = nq - 1, rhdn
            if self.kflag < 0 and rh > 1.0:
                rh = 1.0
        bypass = self.meth == 1 and rh * pdh * 1.00001 >= SM1[newq - 1]
        if not bypass and self.kflag == 0 and rh < 1.1:
            self.ialth = 3
            return False
        if self.kflag <= -2:
            rh = min(rh, 0.2)
        if newq != nq:
            self.nq, self.l = newq, newq + 1
            self.reset()
        self.adjust_step(max(rh, self.hmin / abs(self.h)))
        if self.kflag == 0:
            return True
        self.predict()
        return None

    def finish(self, kflag, rmax_reset=False):
        if kflag == 0 and rmax_reset:
            self.rmax = 10.0
        self.kflag = kflag
        self.hold = self.h
        self.jstart = 1
        return kflag

    def interpolate(self, t):
        """DINTDY with k = 0: the current history's polynomial at t (a host time)."""
        s = (t - self.tn) / self.h
        y = self.yh[self.l - 1]
        for j in range(self.nq - 1, -1, -1):
            y = self.yh[j] + s * y
        return y
