"""`numpy.polynomial.polyutils` helpers: series conversion and trimming, domain maps.

`as_series`, `trimseq`, `getdomain` and `mapparms` are the ones the power series uses
(polynomial.py); `trimcoef` and `mapdomain` complete NumPy's public set. Domains and map
parameters are host numbers, as the polynomial classes keep them.
"""

from __future__ import annotations

from .._math.misc import absolute
from .._sorting.searching_nonzero import flatnonzero
from .polynomial import as_series, getdomain, mapparms, trimseq

__all__ = ["as_series", "trimseq", "trimcoef", "getdomain", "mapparms", "mapdomain"]


def trimcoef(c, tol=0):
    """See `numpy.polynomial.polyutils.trimcoef`: trailing coefficients of magnitude at most
    `tol` removed, at least one kept (0 when all go). Reads the kept length back (a sync)."""
    if tol < 0:
        raise ValueError("tol must be non-negative")
    [c] = as_series([c])
    ind = flatnonzero(absolute(c) > tol)
    if ind.size == 0:
        return c[:1] * 0
    return c[:int(ind[-1].get()) + 1].copy()


def mapdomain(x, old, new):
    """See `numpy.polynomial.polyutils.mapdomain`: ``off + scl * x`` for the linear map taking
    the interval `old` to `new`."""
    off, scl = mapparms(old, new)
    return off + scl * x
