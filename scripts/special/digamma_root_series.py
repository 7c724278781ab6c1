"""Coefficients of the Taylor series of digamma about its two roots nearest the origin, for the
complex loop of psi in cuarray/scipy/special/templates/cdigamma.cuh.

SciPy's complex digamma (xsf's digamma.h, J. Wilson's) sums
    psi(r + w) = psi(r) + sum_{n >= 1} (-1)^(n+1) zeta(n + 1, r) w^n
within 0.5 of the positive root and 0.3 of the negative one, computing each Hurwitz zeta value
at run time with Cephes' zeta; r is the root rounded to double and psi(r) its (tiny) value there.
Here the zeta values are tabulated once with mpmath at that same r, to double precision; the
table runs until a term is below 1e-18 of the first at the region's edge.

    python scripts/special/digamma_root_series.py
"""

import mpmath

mpmath.mp.dps = 40
for name, root, radius in (("POS", 1.4616321449683623, 0.5), ("NEG", -0.504083008264455409, 0.3)):
    r = mpmath.mpf(root)
    print("{}: root {!r}, psi(root) {!r}".format(name, root, float(mpmath.digamma(r))))
    first = abs(mpmath.zeta(2, r)) * radius
    coef = []
    for n in range(1, 200):
        c = mpmath.zeta(n + 1, r)
        coef.append(float(c))
        if abs(c) * radius ** n < 1e-18 * first:
            break
    print("{} terms".format(len(coef)))
    print(",\n".join("{!r}".format(c) for c in coef))
