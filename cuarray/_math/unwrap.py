"""unwrap: phase unwrapping along an axis. See `numpy.unwrap` (NumPy's "Trigonometric functions").

Built from the array routines (diff, a shifted modulo, a cumulative sum of the corrections): a
handful of kernels, no synchronisation. Integer inputs with an integer period stay integers, as
in NumPy.
"""

from __future__ import annotations

import math

import numpy

from .._core import shapes as _shapes
from .._core.host_input import as_array
from .._creation.from_data import array
from .._manipulation.basic import copyto
from .arithmetic import remainder
from .misc import absolute
from .sums_scan import cumsum, diff

__all__ = ["unwrap"]


def unwrap(p, discont=None, axis=-1, *, period=2 * math.pi):
    """See `numpy.unwrap`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.unwrap(cuarray.array([0., 3., 6.5]))
    array([0.        , 3.        , 0.21681469])
    """
    p = as_array(p, "unwrap")
    axis = _shapes.normalize_axis_index(axis, p.ndim)
    dd = diff(p, axis=axis)
    if discont is None:
        discont = period / 2
    dtype = numpy.result_type(dd.dtype, period)
    if numpy.issubdtype(dtype, numpy.integer):
        high, rem = divmod(period, 2)
        ambiguous = rem == 0
    else:
        high, ambiguous = period / 2, True
    low = -high
    # Each step mapped into [low, high); a step of exactly +high keeps its sign (NumPy's rule).
    ddmod = remainder(dd - low, period) + low
    if ambiguous:
        copyto(ddmod, high, where=(ddmod == low) & (dd > 0))
    correct = ddmod - dd
    copyto(correct, 0, where=absolute(dd) < discont)
    out = array(p, dtype=dtype, copy=True)
    rest = (slice(None),) * axis + (slice(1, None),)
    out[rest] = p[rest] + cumsum(correct, axis=axis)
    return out
