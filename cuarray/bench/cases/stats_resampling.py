"""scipy.stats resampling case (group `stats`): `bootstrap` of a mean, 1e5 observations and 1e4
resamples (1e9 resampled values, 1e3 resamples a batch), the percentile interval. Peer: SciPy on
the host (the "numpy" column) with the same call on the same values. The interval's NaN check
reads from the device: host timing."""

from __future__ import annotations

from . import random_array, register
from .stats_censored import _stats

N_RESAMPLES = 10**4
BATCH = 10**3  # SciPy's host peer holds one batch of resamples: 1e8 float64 values, 0.8 GB


def _mean(x, axis):
    return x.mean(axis=axis)


bootstrap_mean = register(
    "stats-bootstrap-mean", group="stats",
    description="bootstrap (percentile) of the mean of 1e5 float64 values, 1e4 resamples",
    size=10**5, quick=10**4, timing="host",
)


@bootstrap_mean.setup("cuarray", "numpy")
def _(xp, n, param):
    stats = _stats(xp)
    x = random_array(xp, n, "float64", seed=63)
    return lambda: stats.bootstrap((x,), _mean, n_resamples=N_RESAMPLES, batch=BATCH, method="percentile",
                                   rng=0).confidence_interval
