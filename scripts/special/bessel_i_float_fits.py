"""Coefficients of the float32 evaluations of i0e and i1e (cuarray/scipy/special/templates/
bessel_float.cuh): Chebyshev interpolants of SciPy's float64 functions, converted to monomials in
the variable the device code evaluates by Horner's rule, rounded to float32.

- 2 <= |x| < 4: i0e(x), i1e(x) as polynomials of degree 9 in t = |x| - 3 (exact in float).
- |x| >= 4: i0e(x) / sqrt(u), i1e(x) / sqrt(u) as polynomials of degree 10 in u = 4 / |x| in (0, 1]
  (Cephes' i0ef/i1ef take the same form beyond 8 in 32/x - 2; moving the split to 4 keeps the
  monomials well conditioned: sum |c_k| u^k <= 1.7 |value|).

The small arguments need no fit: I0 and I1 / (x/2) are their Taylor series in (x/2)^2 (A&S 9.6.10).
Prints C++ initialisers; checks the rounded coefficients' error (in units of 2^-24 relative).

    python scripts/special/bessel_i_float_fits.py
"""

import numpy as np
from numpy.polynomial import chebyshev, polynomial
from scipy import special


def fit(f, lo, hi, centre, deg):
    """Monomial coefficients in t = x - centre of f's Chebyshev interpolant on [lo, hi] (float32)."""
    s = np.cos(np.pi * (np.arange(deg + 1) + 0.5) / (deg + 1))
    x = lo + (s + 1) * (hi - lo) / 2
    cs = chebyshev.cheb2poly(chebyshev.chebfit(s, f(x), deg))
    a, b = 2 / (hi - lo), (2 * centre - lo - hi) / (hi - lo)  # s = a t + b
    out = np.zeros(1)
    for c in cs[::-1]:
        out = polynomial.polyadd(polynomial.polymul(out, [b, a]), [c])
    return out.astype(np.float32)


def report(name, f, lo, hi, centre, coef):
    x = np.linspace(lo, hi, 200001)
    t = x - centre
    c = coef.astype(np.float64)
    err = np.max(np.abs(polynomial.polyval(t, c) / f(x) - 1)) / 2.0**-24
    cond = np.max(polynomial.polyval(np.abs(t), np.abs(c)) / np.abs(f(x)))
    print("// {}: rounded-coefficient error {:.2f} x 2^-24, condition {:.2f}".format(name, err, cond))
    print("const float {}[] = {{{}}};".format(name, ", ".join("{!r}f".format(float(v)) for v in coef)))


def main():
    for name, f in (("i0e_mid", special.i0e), ("i1e_mid", special.i1e)):
        report(name, f, 2.0, 4.0, 3.0, fit(f, 2.0, 4.0, 3.0, 9))
    for name, f in (("i0e_large", special.i0e), ("i1e_large", special.i1e)):
        g = lambda u, f=f: f(4.0 / u) / np.sqrt(u)  # noqa: E731
        report(name, g, 1e-12, 1.0, 0.0, fit(g, 1e-12, 1.0, 0.0, 10))


if __name__ == "__main__":
    main()
