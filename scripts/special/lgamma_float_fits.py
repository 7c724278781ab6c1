"""Coefficients of the float32 evaluation of gammaln (cuarray/scipy/special/templates/
gamma_float.cuh): Chebyshev interpolants, converted to monomials and rounded to float32, of

- S(z) = log Gamma(1 + z) / (z (z - 1)) on [-1/2, 1/2] (x = 1 + z about the root 1; x = z below
  1/2, with -log x added), from the Taylor series log Gamma(1 + z) / z = -euler +
  sum_{k>=2} (-1)^k zeta(k) / k z^(k-1) (A&S 6.1.33), 80 terms;
- U(z) = log Gamma(2 + z) / (z (z + 1)) on [-1/2, 1] (x = 2 + z in [1.5, 3), about the root 2):
  SciPy's gammaln(2 + z) away from 0, the series log Gamma(2 + z) / z = (1 - euler) +
  sum_{k>=2} (-1)^k (zeta(k) - 1) / k z^(k-1) for |z| < 1/4.
  Both divide out the zeros of log Gamma at 1 and 2 (and the other's), so the polynomials are
  positive and well conditioned (log Gamma(1 + z) / z alone cancels 4.7-fold at z = 1/2);
- T(f) = (log(1 + f) - f) / f^2 on [sqrt(1/2) - 1, sqrt(2) - 1] (the logarithm's reduced argument).

Prints C++ initialisers and each rounded polynomial's error (units of 2^-24 relative) and condition.

    python scripts/special/lgamma_float_fits.py
"""

import numpy as np
from numpy.polynomial import chebyshev, polynomial
from scipy import special

EULER = float(np.euler_gamma)


def series(z, shift):
    """sum_{k>=2} (-1)^k (zeta(k) - shift) / k z^(k-1), 80 terms."""
    out = np.zeros_like(z)
    for k in range(2, 82):
        out += (-1) ** k * (special.zeta(k) - shift) / k * z ** (k - 1)
    return out


def S(z):
    return (-EULER + series(z, 0.0)) / (z - 1)


def U(z):
    z = np.asarray(z, dtype=np.float64)
    near = np.abs(z) < 0.25
    safe = np.where(near, 1.0, z)
    over_z = np.where(near, (1 - EULER) + series(np.where(near, z, 0.0), 1.0), special.gammaln(2 + safe) / safe)
    return over_z / (z + 1)


def T(f):
    f = np.asarray(f, dtype=np.float64)
    small = np.abs(f) < 1e-3
    safe = np.where(small, 1.0, f)
    taylor = sum((-1) ** (k + 1) * f ** (k - 2) / k for k in range(2, 12))
    return np.where(small, taylor, (np.log1p(safe) - safe) / safe**2)


def fit(f, lo, hi, deg):
    s = np.cos(np.pi * (np.arange(deg + 1) + 0.5) / (deg + 1))
    x = lo + (s + 1) * (hi - lo) / 2
    cs = chebyshev.cheb2poly(chebyshev.chebfit(s, f(x), deg))
    a, b = 2 / (hi - lo), -(lo + hi) / (hi - lo)  # s = a z + b
    out = np.zeros(1)
    for c in cs[::-1]:
        out = polynomial.polyadd(polynomial.polymul(out, [b, a]), [c])
    return out.astype(np.float32)


def report(name, f, lo, hi, deg):
    coef = fit(f, lo, hi, deg)
    z = np.linspace(lo, hi, 200001)
    c = coef.astype(np.float64)
    err = np.max(np.abs(polynomial.polyval(z, c) / f(z) - 1)) / 2.0**-24
    cond = np.max(polynomial.polyval(np.abs(z), np.abs(c)) / np.abs(f(z)))
    print("// {} (degree {}): rounded-coefficient error {:.2f} x 2^-24, condition {:.2f}".format(name, deg, err, cond))
    print("const float {}[] = {{{}}};".format(name, ", ".join("{!r}f".format(float(v)) for v in coef)))


def main():
    report("S", S, -0.5, 0.5, 12)
    report("U", U, -0.5, 1.0, 10)
    report("T", T, np.sqrt(0.5) - 1, np.sqrt(2) - 1, 9)


if __name__ == "__main__":
    main()
