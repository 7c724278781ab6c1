"""multigammaln (SciPy "Gamma and related functions"): the log of the multivariate gamma
function, a sum of `gammaln` terms (not a ufunc in SciPy either)."""

from __future__ import annotations

import math

import numpy

from ..._core.host_input import as_array
from ..._logic.truth import any as _any
from ._gamma import gammaln


def multigammaln(a, d):
    """See `scipy.special.multigammaln`. SciPy's domain check (every a > (d - 1) / 2, else
    ValueError) reads one boolean from the device.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.multigammaln(cuarray.array([2., 3.]), 2)
    array([0.45158271, 1.55019499])
    """
    if not numpy.isscalar(d) or (numpy.floor(d) - d) != 0:
        raise ValueError("d should be a positive integer (dimension)")
    d = int(d)
    if d <= 0:
        raise ValueError("d should be a positive integer (dimension)")
    a = as_array(a, "multigammaln")
    if bool(_any(a <= 0.5 * (d - 1)).get()):
        raise ValueError("condition a ({}) > 0.5 * (d-1) ({}) not met".format("array", 0.5 * (d - 1)))
    res = (d * (d - 1) * 0.25) * math.log(math.pi)
    for j in range(1, d + 1):
        res = res + gammaln(a - (j - 1.0) / 2)
    return res
