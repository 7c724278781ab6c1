"""The one-variable minimizers of Powell's line search, host loops over host floats as SciPy's:
`bracket` (golden-ratio expansion with parabolic extrapolation, Press et al., Numerical Recipes,
mnbrak), `brent` (Brent 1973, Algorithms for Minimization without Derivatives, ch. 5: golden
section with inverse parabolic interpolation) and `bounded` (the same on a closed interval,
Forsythe, Malcolm & Moler's fmin, SciPy's `fminbound`). Ported from `scipy.optimize._optimize`
(`bracket`, `Brent.optimize`, `_minimize_scalar_bounded`, `_recover_from_bracket_error`).

A scalar iteration has nothing to keep on the device: `f` is called with a host float and
returns a host number (the caller reads its device value once per call)."""

import numpy

__all__ = ["line_minimum", "bounded_minimum"]

_GOLD = 1.618034  # the golden ratio (1 + sqrt 5) / 2, as SciPy's bracket has it
_CG = 0.3819660  # 2 - golden ratio: Brent's golden-section fraction
_VERYSMALL = 1e-21


class _BracketError(RuntimeError):
    def __init__(self, msg, data):
        super().__init__(msg)
        self.data = data


def _bracket(f, grow_limit=110.0, maxiter=1000):
    """(xa, xb, xc, fa, fb, fc, calls) from SciPy's start points 0 and 1 (NumPy floats, as SciPy's,
    so that a division by zero gives inf rather than an exception)."""
    xa, xb = numpy.asarray([0.0, 1.0])
    fa, fb = f(xa), f(xb)
    if fa < fb:
        xa, xb, fa, fb = xb, xa, fb, fa
    xc = xb + _GOLD * (xb - xa)
    fc = f(xc)
    calls, it = 3, 0
    while fc < fb:
        tmp1 = (xb - xa) * (fb - fc)
        tmp2 = (xb - xc) * (fb - fa)
        val = tmp2 - tmp1
        denom = 2.0 * _VERYSMALL if numpy.abs(val) < _VERYSMALL else 2.0 * val
        w = xb - ((xb - xc) * tmp2 - (xb - xa) * tmp1) / denom
        wlim = xb + grow_limit * (xc - xb)
        if it > maxiter:
            raise RuntimeError("No valid bracket was found before the iteration limit was reached. Consider trying "
                               "different initial points or increasing `maxiter`.")
        it += 1
        if (w - xc) * (xb - w) > 0.0:  # the parabola's minimum lies between xb and xc
            fw = f(w)
            calls += 1
            if fw < fc:
                xa, xb, fa, fb = xb, w, fb, fw
                break
            if fw > fb:
                xc, fc = w, fw
                break
            w = xc + _GOLD * (xc - xb)
            fw = f(w)
            calls += 1
        elif (w - wlim) * (wlim - xc) >= 0.0:  # beyond the growth limit: take the limit
            w = wlim
            fw = f(w)
            calls += 1
        elif (w - wlim) * (xc - w) > 0.0:  # between xc and the limit
            fw = f(w)
            calls += 1
            if fw < fc:
                xb, xc = xc, w
                w = xc + _GOLD * (xc - xb)
                fb, fc = fc, fw
                fw = f(w)
                calls += 1
        else:
            w = xc + _GOLD * (xc - xb)
            fw = f(w)
            calls += 1
        xa, xb, xc, fa, fb, fc = xb, xc, w, fb, fc, fw
    valid = ((fb < fc and fb <= fa) or (fb < fa and fb <= fc)) and (xa < xb < xc or xc < xb < xa) and \
        bool(numpy.isfinite(xa) and numpy.isfinite(xb) and numpy.isfinite(xc))
    if not valid:
        raise _BracketError("The algorithm terminated without finding a valid bracket.",
                            (xa, xb, xc, fa, fb, fc, calls))
    return xa, xb, xc, fa, fb, fc, calls


def _brent(f, tol, maxiter=500):
    """(x, f(x)): Brent's minimization from SciPy's bracket."""
    xa, xb, xc, fa, fb, fc, _ = _bracket(f)
    x = w = v = xb
    fw = fv = fx = fb
    a, b = (xa, xc) if xa < xc else (xc, xa)
    deltax, rat, mintol = 0.0, 0.0, 1.0e-11
    for _ in range(maxiter):
        tol1 = tol * numpy.abs(x) + mintol
        tol2 = 2.0 * tol1
        xmid = 0.5 * (a + b)
        if numpy.abs(x - xmid) < (tol2 - 0.5 * (b - a)):
            break
        if numpy.abs(deltax) <= tol1:
            deltax = a - x if x >= xmid else b - x
            rat = _CG * deltax
        else:  # try a parabola through x, w, v
            tmp1 = (x - w) * (fx - fv)
            tmp2 = (x - v) * (fx - fw)
            p = (x - v) * tmp2 - (x - w) * tmp1
            tmp2 = 2.0 * (tmp2 - tmp1)
            if tmp2 > 0.0:
                p = -p
            tmp2 = numpy.abs(tmp2)
            dx_temp, deltax = deltax, rat
            if (p > tmp2 * (a - x)) and (p < tmp2 * (b - x)) and (numpy.abs(p) < numpy.abs(0.5 * tmp2 * dx_temp)):
                rat = p * 1.0 / tmp2
                u = x + rat
                if (u - a) < tol2 or (b - u) < tol2:
                    rat = tol1 if xmid - x >= 0 else -tol1
            else:
                deltax = a - x if x >= xmid else b - x
                rat = _CG * deltax
        if numpy.abs(rat) < tol1:  # move by at least tol1
            u = x + tol1 if rat >= 0 else x - tol1
        else:
            u = x + rat
        fu = f(u)
        if fu > fx:
            if u < x:
                a = u
            else:
                b = u
            if (fu <= fw) or (w == x):
                v, w, fv, fw = w, u, fw, fu
            elif (fu <= fv) or (v == x) or (v == w):
                v, fv = u, fu
        else:
            if u >= x:
                a = x
            else:
                b = x
            v, w, x, fv, fw, fx = w, x, u, fw, fx, fu
    return x, fx


def line_minimum(f, tol):
    """(x, f(x)) as SciPy's `_recover_from_bracket_error(_minimize_scalar_brent, ...)`: Brent's
    minimum, or where no bracket was found the best of the last three points (NaN if any is)."""
    try:
        return _brent(f, tol)
    except _BracketError as e:
        xa, xb, xc, fa, fb, fc, _ = e.data
        xs, fs = [xa, xb, xc], [fa, fb, fc]
        if numpy.any(numpy.isnan([xs, fs])):
            return numpy.nan, numpy.nan
        i = int(numpy.argmin(fs))
        return xs[i], fs[i]


def bounded_minimum(f, x1, x2, xatol, maxfun=500):
    """(x, f(x)): SciPy's `_minimize_scalar_bounded` on [x1, x2] (finite)."""
    sqrt_eps = numpy.sqrt(2.2e-16)
    golden_mean = 0.5 * (3.0 - numpy.sqrt(5.0))
    a, b = x1, x2
    fulc = a + golden_mean * (b - a)
    nfc, xf = fulc, fulc
    rat = e = 0.0
    x = xf
    fx = f(x)
    num = 1
    ffulc = fnfc = fx
    xm = 0.5 * (a + b)
    tol1 = sqrt_eps * numpy.abs(xf) + xatol / 3.0
    tol2 = 2.0 * tol1
    while numpy.abs(xf - xm) > (tol2 - 0.5 * (b - a)):
        golden = 1
        if numpy.abs(e) > tol1:  # try a parabola
            golden = 0
            r = (xf - nfc) * (fx - ffulc)
            q = (xf - fulc) * (fx - fnfc)
            p = (xf - fulc) * q - (xf - nfc) * r
            q = 2.0 * (q - r)
            if q > 0.0:
                p = -p
            q = numpy.abs(q)
            r, e = e, rat
            if (numpy.abs(p) < numpy.abs(0.5 * q * r)) and (p > q * (a - xf)) and (p < q * (b - xf)):
                rat = (p + 0.0) / q
                x = xf + rat
                if ((x - a) < tol2) or ((b - x) < tol2):
                    si = numpy.sign(xm - xf) + ((xm - xf) == 0)
                    rat = tol1 * si
            else:
                golden = 1
        if golden:
            e = a - xf if xf >= xm else b - xf
            rat = golden_mean * e
        si = numpy.sign(rat) + (rat == 0)
        x = xf + si * numpy.maximum(numpy.abs(rat), tol1)
        fu = f(x)
        num += 1
        if fu <= fx:
            if x >= xf:
                a = xf
            else:
                b = xf
            fulc, ffulc = nfc, fnfc
            nfc, fnfc = xf, fx
            xf, fx = x, fu
        else:
            if x < xf:
                a = x
            else:
                b = x
            if (fu <= fnfc) or (nfc == xf):
                fulc, ffulc = nfc, fnfc
                nfc, fnfc = x, fu
            elif (fu <= ffulc) or (fulc == xf) or (fulc == nfc):
                fulc, ffulc = x, fu
        xm = 0.5 * (a + b)
        tol1 = sqrt_eps * numpy.abs(xf) + xatol / 3.0
        tol2 = 2.0 * tol1
        if num >= maxfun:
            break
    return xf, fx
