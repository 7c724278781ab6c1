"""Coefficients of log Gamma(1 + z) = -euler z + sum_{k>=2} (-1)^k zeta(k) / k z^k (Abramowitz &
Stegun 6.1.33), for cuarray/scipy/special/templates/gamma.cuh, where the series replaces lgamma
for |z| < 1/4 around the roots x = 1 and x = 2 (lgamma's error there is absolute, not relative).
c[0] is the z^1 coefficient. zeta(k) from SciPy, to double precision.

    python scripts/special/lgamma1p_series.py
"""

import numpy as np
from scipy import special

coef = [-float(np.euler_gamma)]
for k in range(2, 40):
    c = (-1) ** k * special.zeta(k) / k
    coef.append(float(c))
    if abs(c) * 0.25 ** k < 1e-19:
        break
print(",\n".join(repr(c) for c in coef))
