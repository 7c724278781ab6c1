"""`numpy.polynomial.polyutils`: series conversion and trimming, domain maps.

Coefficient series are 1-D device arrays; domains and map parameters are host numbers, as the
polynomial classes keep them. Trimming trailing zeros (NumPy trims after most arithmetic) reads a
mask back to the host: the result's length depends on the values. `as_series` and `trimseq` live
with the other shared series code (_series.py).
"""

from __future__ import annotations

import numpy

from .._core.host_input import as_parameter
from .._core.transfer import to_host
from .._math.misc import absolute
from .._statistics.order import max as max_, min as min_
from ._series import as_series, trimseq

__all__ = ["as_series", "trimseq", "trimcoef", "getdomain", "mapparms", "mapdomain"]


def trimcoef(c, tol=0):
    """See `numpy.polynomial.polyutils.trimcoef`: trailing coefficients of magnitude at most
    `tol` removed, at least one kept (0 when all go). Reads the kept length back (a sync)."""
    if tol < 0:
        raise ValueError("tol must be non-negative")
    [c] = as_series([c])
    big = numpy.flatnonzero(to_host(absolute(c) > tol))
    if big.size == 0:
        return c[:1] * 0
    return c[:int(big[-1]) + 1].copy()


def getdomain(x):
    """See `numpy.polynomial.polyutils.getdomain`: a host array (min and max read back)."""
    [x] = as_series([x], trim=False)
    if x.dtype.kind == "c":
        rmin, rmax = to_host(min_(x.real))[()], to_host(max_(x.real))[()]
        imin, imax = to_host(min_(x.imag))[()], to_host(max_(x.imag))[()]
        return numpy.array((complex(rmin, imin), complex(rmax, imax)))
    return numpy.array((to_host(min_(x))[()], to_host(max_(x))[()]))


def mapparms(old, new):
    """See `numpy.polynomial.polyutils.mapparms`: (off, scl) of the linear map from `old` to
    `new` (host numbers)."""
    oldlen = old[1] - old[0]
    newlen = new[1] - new[0]
    off = (old[1] * new[0] - old[0] * new[1]) / oldlen
    scl = newlen / oldlen
    return off, scl


def mapdomain(x, old, new):
    """See `numpy.polynomial.polyutils.mapdomain`: ``off + scl * x``. A list or tuple `x` is
    copied to the device; arrays (device or NumPy), scalars and series objects are used as given."""
    if isinstance(x, (list, tuple)):
        x = as_parameter(x, "mapdomain")
    off, scl = mapparms(old, new)
    return off + scl * x
