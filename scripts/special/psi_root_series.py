"""Coefficients of the Taylor series of digamma about its positive root x0, for
cuarray/scipy/special/templates/gamma.cuh: c[k-1] = psi^(k)(x0) / k!, k = 1..N, from SciPy's
polygamma (each to double precision, which is all the series needs), and x0 as a double-double.

    python scripts/special/psi_root_series.py
"""

from decimal import Decimal, getcontext

import numpy as np
from scipy import special

getcontext().prec = 50
# The root of digamma (OEIS A030169).
X0 = Decimal("1.4616321449683623412626595423257213284681962040064463512959884085987864403538")
hi = float(X0)
lo = float(X0 - Decimal(hi))
print("X0_HI = {!r}, X0_LO = {!r}".format(hi, lo))
print("psi(X0_HI) = {!r} (should be about -X0_LO * psi'(x0) = {!r})".format(
    special.psi(hi), -lo * special.polygamma(1, hi)))
coef = []
for k in range(1, 40):
    c = special.polygamma(k, hi) / special.factorial(k)
    # Shift from X0_HI to x0: the first-order correction c_k += (k+1) c_{k+1} * lo is far below
    # double precision for these magnitudes except for k = 1's value, which the X0_LO term handles.
    coef.append(float(c))
    if abs(c) * 0.3 ** k < 1e-18:
        break
print(",\n".join("{!r}".format(c) for c in coef))
