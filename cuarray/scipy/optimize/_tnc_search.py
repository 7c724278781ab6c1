"""The step-length search of TNC (`minimize(method='TNC')`): Gill and Murray's safeguarded
cubic-interpolation search (`getptc`, as in Nash's TNBC and its C translation that SciPy wraps),
on host scalars only. The caller evaluates f and the slope g.p at each step it asks for (one
device read a step) and feeds them back."""

import math

__all__ = ["StepSearch", "EVAL", "OK", "FAIL"]

OK, EVAL, FAIL = 0, 1, 3  # a suitable step found; f and g.p wanted at x + (xmin + u) p; none found


class StepSearch:
    """The state of one search along p from step 0 (value `f0`, slope `g0` < 0). `start` and
    `step` return EVAL (evaluate at `self.xmin + self.u`), OK (`self.xmin` is the step, `self.fmin`
    its value) or FAIL. `xbnd` is the largest step; `tnytol` the smallest spacing of steps."""

    def __init__(self, reltol, abstol, tnytol, eta, rmu, xbnd, ftol, u, f0, g0):
        self.reltol, self.abstol, self.tnytol, self.xbnd, self.fpresn = reltol, abstol, tnytol, xbnd, ftol
        self.u, self.eta, self.rmu, self.f0, self.g0 = u, eta, rmu, f0, g0
        self.rtsmll = 2.0 ** -52
        self.big = 1.0 / (self.rtsmll * self.rtsmll)

    def start(self):
        """getptc's initialization: the first trial step."""
        if self.u <= 0.0 or self.xbnd <= self.tnytol or self.g0 > 0.0:
            return FAIL
        if self.xbnd < self.abstol:
            self.abstol = self.xbnd
        self.tol = self.abstol
        # [a, b] brackets the minimizer relative to the best point xmin; xw is the second best
        self.a = self.xw = self.xmin = 0.0
        self.oldf = self.fmin = self.fw = self.f0
        self.gw = self.gmin = self.g0
        self.step = self.u
        self.factor = 5.0
        self.braktd = False
        self.scxbnd = self.xbnd
        self.b = self.scxbnd + self.reltol * abs(self.scxbnd) + self.abstol
        self.e = self.b + self.b
        self.b1 = self.b
        self.gtest1 = -self.rmu * self.g0  # sufficient decrease
        self.gtest2 = -self.eta * self.g0  # the slope's reduction
        return self._propose()

    def _propose(self):
        if self.step >= self.scxbnd:  # on the bound: the point just inside it
            self.step = self.scxbnd
            self.scxbnd -= (self.reltol * abs(self.xbnd) + self.abstol) / (1.0 + self.reltol)
        self.u = self.step
        if abs(self.step) < self.tol:
            self.u = -self.tol if self.step < 0.0 else self.tol
        return EVAL

    def step_with(self, fu, gu):
        """getptc's iteration given f and the slope at the step asked for."""
        u = self.u
        moved = False
        if fu <= self.fmin:
            chordu = self.oldf - (self.xmin + u) * self.gtest1
            if fu > chordu:
                # not a sufficient decrease: stand in the chord's root as the new upper end
                chordm = self.oldf - self.xmin * self.gtest1
                gu = -self.gmin
                denom = chordm - self.fmin
                if abs(denom) < 1e-15:
                    denom = -1e-15 if chordm - self.fmin < 0.0 else 1e-15
                if self.xmin != 0.0:
                    gu = self.gmin * (chordu - fu) / denom
                fu = 0.5 * u * (self.gmin + gu) + self.fmin
                if fu < self.fmin:
                    fu = self.fmin
            else:
                self.fw, self.fmin, self.gw, self.gmin = self.fmin, fu, self.gmin, gu
                self.xmin += u
                self.a -= u
                self.b -= u
                self.xw = -u
                self.scxbnd -= u
                if gu <= 0.0:
                    self.a = 0.0
                else:
                    self.b = 0.0
                    self.braktd = True
                self.tol = abs(self.xmin) * self.reltol + self.abstol
                moved = True
        if not moved:
            if u < 0.0:
                self.a = u
            else:
                self.b = u
                self.braktd = True
            self.xw, self.fw, self.gw = u, fu, gu
        twotol = self.tol + self.tol
        xmidpt = 0.5 * (self.a + self.b)
        convrg = (abs(xmidpt) <= twotol - 0.5 * (self.b - self.a)) or (
            abs(self.gmin) <= self.gtest2 and self.fmin < self.oldf
            and (abs(self.xmin - self.xbnd) > self.tol or not self.braktd))
        if convrg:
            if self.xmin != 0.0:
                return OK
            # no decrease yet: a change in f larger than its precision means tol was too coarse
            if abs(self.oldf - self.fw) <= self.fpresn:
                return FAIL
            self.tol *= 0.1
            if self.tol < self.tnytol:
                return FAIL
            self.reltol *= 0.1
            self.abstol *= 0.1
            twotol *= 0.1
        return self._next(xmidpt, twotol)

    def _cubic(self):
        """(s, q, r) of the cubic through xmin and xw: its minimizer is s / q; None when it has none."""
        r = 3.0 * (self.fmin - self.fw) / self.xw + self.gmin + self.gw
        absr = abs(r)
        q = absr
        if self.gw != 0.0 and self.gmin != 0.0:
            abgw, abgmin = abs(self.gw), abs(self.gmin)
            s = math.sqrt(abgmin) * math.sqrt(abgw)
            if self.gw / abgw * self.gmin > 0.0:
                if r >= s or r <= -s:
                    q = math.sqrt(abs(r + s)) * math.sqrt(abs(r - s))
                else:
                    return None
            else:  # sqrt(r^2 + s^2) without overflow or underflow
                sumsq, p = 1.0, 0.0
                if absr >= s:
                    if absr > self.rtsmll:
                        p = absr * self.rtsmll
                    if s >= p:
                        sumsq = 1.0 + (s / absr) ** 2
                    scale = absr
                else:
                    if s > self.rtsmll:
                        p = s * self.rtsmll
                    if absr >= p:
                        sumsq = 1.0 + (absr / s) ** 2
                    scale = s
                sumsq = math.sqrt(sumsq)
                q = self.big
                if scale < self.big / sumsq:
                    q = scale * sumsq
        if self.xw < 0.0:
            q = -q
        s = self.xw * (self.gmin - r - q)
        q = self.gw - self.gmin + q + q
        if q > 0.0:
            s = -s
        if q <= 0.0:
            q = -q
        r = self.e
        if self.b1 != self.step or self.braktd:
            self.e = self.step
        return s, q, r

    def _next(self, xmidpt, twotol):
        s = q = r = 0.0
        if abs(self.e) > self.tol:
            fit = self._cubic()
            if fit is not None:
                s, q, r = fit
        # an artificial bound on the step
        a1 = self.a
        self.b1 = self.b
        self.step = xmidpt
        if not self.braktd or (self.a == 0.0 and self.xw < 0.0) or (self.b == 0.0 and self.xw > 0.0):
            if self.braktd:
                d1, d2 = self.xw, (self.b if self.a == 0.0 else self.a)
                self.u = -d1 / d2
                self.step = 5.0 * d2 * (0.1 + 1.0 / self.u) / 11.0
                if self.u < 1.0:
                    self.step = 0.5 * d2 * math.sqrt(self.u)
            else:
                self.step = -self.factor * self.xw
                if self.step > self.scxbnd:
                    self.step = self.scxbnd
                if self.step != self.scxbnd:
                    self.factor *= 5.0
            if self.step <= 0.0:
                a1 = self.step
            if self.step > 0.0:
                self.b1 = self.step
        # the cubic's step, unless outside the interval or more than half the step before last
        if abs(s) <= abs(0.5 * q * r) or s <= q * a1 or s >= q * self.b1:
            self.e = self.b - self.a
        else:
            self.step = s / q
            if self.step - self.a < twotol or self.b - self.step < twotol:  # not too close to a or b
                self.step = -self.tol if xmidpt <= 0.0 else self.tol
        return self._propose()
