"""`distance_matrix`, `minkowski_distance`, `minkowski_distance_p`: deprecated in SciPy 1.18 (in
favour of `distance.cdist`/`distance.minkowski`) and kept with the same DeprecationWarning."""

from __future__ import annotations

import warnings

import numpy

from ..._core.host_input import as_literal_or_array
from ..._math.misc import abs as abs_
from ..._statistics.order import max as max_
from ._distance_pair import cdist

__all__ = ["distance_matrix", "minkowski_distance", "minkowski_distance_p", "matrix"]


def _deprecated(name, instead):
    warnings.warn("`{}` is deprecated in favor of `scipy.spatial.distance.{}` as of SciPy 1.18.0 and "
                  "will be removed in SciPy 1.20.0.".format(name, instead), DeprecationWarning, stacklevel=3)


def _p(x, y, p):
    x, y = as_literal_or_array(x, "minkowski_distance_p"), as_literal_or_array(y, "minkowski_distance_p")
    dt = numpy.promote_types(numpy.promote_types(x.dtype, y.dtype), numpy.float64)
    d = abs_(y.astype(dt) - x.astype(dt))
    if p == numpy.inf:
        return max_(d, axis=-1)
    if p == 1:
        return d.sum(axis=-1)
    return (d ** p).sum(axis=-1)


def minkowski_distance_p(x, y, p=2.0):
    """See `scipy.spatial.minkowski_distance_p` (deprecated there, as here)."""
    _deprecated("minkowski_distance_p", "minkowski")
    return _p(x, y, p)


def minkowski_distance(x, y, p=2.0):
    """See `scipy.spatial.minkowski_distance` (deprecated there, as here)."""
    _deprecated("minkowski_distance", "minkowski")
    d = _p(x, y, p)
    return d if p == numpy.inf or p == 1 else d ** (1.0 / p)


def distance_matrix(x, y, p=2.0, threshold=1000000):
    """See `scipy.spatial.distance_matrix` (deprecated there, as here). `threshold` is accepted and
    unused: the matrix is `cdist`'s blocked GPU computation at every size."""
    _deprecated("distance_matrix", "cdist")
    return matrix(x, y, p, "distance_matrix")


def matrix(x, y, p, fn):
    """The (m, n) Minkowski distances of x's rows to y's (`cdist` for p > 0 and real input)."""
    x, y = as_literal_or_array(x, fn), as_literal_or_array(y, fn)
    m, k = x.shape
    n, kk = y.shape
    if k != kk:
        raise ValueError("x contains {}-dimensional vectors but y contains {}-dimensional vectors".format(k, kk))
    if p > 0 and x.dtype.kind != "c" and y.dtype.kind != "c":
        return cdist(x, y, "minkowski", p=p)
    d = _p(x[:, None, :], y[None, :, :], p)
    return d if p == numpy.inf or p == 1 else d ** (1.0 / p)
