"""scipy.stats censored-data cases (group `stats`): `ecdf` of right-censored data (Kaplan-Meier:
a sort, the counts at the unique times and a running product) and `weibull_min.fit` of
right-censored data with `floc=0` (Nelder-Mead over the censored likelihood: one read per
evaluation). Peer: SciPy on the host (the "numpy" column) on the same values. Both calls read
from the device (the selections' sizes, the minimizer's values): host timing."""

from __future__ import annotations

from . import random_array, register
import cuarray.scipy.stats

CENSOR_AT = 1.25  # exp(-1.25**1.5) = 0.25: a quarter of the weibull_min(1.5) values are right-censored


def _stats(xp):
    """cuarray.scipy.stats for cuarray, SciPy's for the host column."""
    if xp.__name__ == "cuarray":
        return cuarray.scipy.stats
    import scipy.stats  # the host peer's own library

    return scipy.stats


def _sample(xp, n, seed):
    """weibull_min(1.5) values, rounded to 1e-3 (ties, as measured times have), censored above
    CENSOR_AT: (values, censored)."""
    u = random_array(xp, n, "float64", seed=seed) - 0.5  # in (0, 1)
    x = xp.round((-xp.log(u)) ** (1 / 1.5), 3)
    c = x > CENSOR_AT
    return xp.where(c, CENSOR_AT, x), c


ecdf_km = register(
    "stats-ecdf-censored", group="stats",
    description="ecdf (Kaplan-Meier) of 1e7 right-censored float64 values",
    size=10**7, quick=10**6, timing="host",
)


@ecdf_km.setup("cuarray", "numpy")
def _(xp, n, param):
    stats = _stats(xp)
    x, c = _sample(xp, n, 61)
    return lambda: stats.ecdf(stats.CensoredData.right_censored(x, c)).sf.probabilities


fit_censored = register(
    "stats-fit-censored", group="stats",
    description="weibull_min.fit(CensoredData, floc=0) of 1e6 right-censored float64 values",
    size=10**6, quick=10**5, timing="host",
)


@fit_censored.setup("cuarray", "numpy")
def _(xp, n, param):
    stats = _stats(xp)
    x, c = _sample(xp, n, 62)
    data = stats.CensoredData.right_censored(x, c)
    return lambda: stats.weibull_min.fit(data, floc=0)
