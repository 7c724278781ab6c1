"""cupyx's own names in `cupyx.scipy.spatial.distance`, which SciPy's module does not have:
`distance_matrix` (SciPy's is `scipy.spatial.distance_matrix`, deprecated in SciPy 1.18; cupyx's,
here, does not warn) and the metrics `hellinger` and `kl_divergence` (in `_distance_vec`, where
`cdist`/`pdist` find their device paths; their metric names are `_distance_pair.CUPYX_ALIASES`)."""

from __future__ import annotations

from ._minkowski import matrix

__all__ = ["distance_matrix"]


def distance_matrix(x, y, p=2.0):
    """See `cupyx.scipy.spatial.distance.distance_matrix`: the (m, n) Minkowski p-distances of
    x's rows to y's, as `scipy.spatial.distance_matrix` without its deprecation warning (a cupyx
    name; `cdist(x, y, 'minkowski', p=p)` is SciPy's spelling)."""
    return matrix(x, y, p, "distance.distance_matrix")
