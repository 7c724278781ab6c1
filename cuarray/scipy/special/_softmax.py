"""logsumexp, softmax, log_softmax (SciPy "Convenience functions"): reductions composed of
cuarray's own max/exp/sum (no special kernel), with SciPy's handling of infinities."""

from __future__ import annotations

import numpy

from ..._core.ndarray import ndarray
from ..._math.explog import exp, log
from ..._math.misc import absolute
from ..._math.sums import sum as _sum
from ..._logic.content import isfinite
from ..._sorting.searching import where
from ..._statistics.order import amax


def _check(a, name):
    if not isinstance(a, ndarray):
        raise TypeError("{}: expected a cuarray array, got {}".format(name, type(a).__name__))


def _shift(a, axis):
    """The max along `axis` (keepdims), 0 where it is not finite (so inf - inf makes no NaN)."""
    m = amax(a, axis=axis, keepdims=True)
    return where(isfinite(m), m, 0)


def logsumexp(a, axis=None, b=None, keepdims=False, return_sign=False):
    """See `scipy.special.logsumexp` (real input)."""
    _check(a, "logsumexp")
    if a.dtype.kind in "biu":
        a = a.astype(numpy.float64)
    m = _shift(a, axis)
    e = exp(a - m)
    if b is not None:
        e = e * b
    s = _sum(e, axis=axis, keepdims=True)
    sgn = None
    if return_sign:
        sgn = where(s < 0, -1.0, where(s > 0, 1.0, 0.0)).astype(s.dtype)
        s = absolute(s)
    out = log(s) + m
    if not keepdims:
        out = out.squeeze(axis=axis) if axis is not None else out.reshape(())
        if sgn is not None:
            sgn = sgn.squeeze(axis=axis) if axis is not None else sgn.reshape(())
    return (out, sgn) if return_sign else out


def softmax(x, axis=None):
    """See `scipy.special.softmax`."""
    _check(x, "softmax")
    if x.dtype.kind in "biu":
        x = x.astype(numpy.float64)
    e = exp(x - _shift(x, axis))
    return e / _sum(e, axis=axis, keepdims=True)


def log_softmax(x, axis=None):
    """See `scipy.special.log_softmax`."""
    _check(x, "log_softmax")
    if x.dtype.kind in "biu":
        x = x.astype(numpy.float64)
    t = x - _shift(x, axis)
    return t - log(_sum(exp(t), axis=axis, keepdims=True))
