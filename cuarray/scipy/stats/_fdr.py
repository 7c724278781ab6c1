"""`false_discovery_control` of scipy.stats on the device: Benjamini and Hochberg's adjusted
p-values ("Controlling the false discovery rate", J. R. Statist. Soc. B 57, 1995) and Benjamini
and Yekutieli's (Ann. Statist. 29, 2001), as SciPy computes them (R's p.adjust): one sort along the
axis, the scaling, a reversed running minimum (one scan), the values put back in place."""

from __future__ import annotations

import numpy

from ..._core.host_input import as_literal_or_array
from ..._creation.ranges import arange
from ..._indexing.inserting import take_along_axis
from ..._logic.truth import all as all_
from ..._manipulation.transpose import moveaxis
from ..._math.extrema import minimum
from ..._math.misc import clip
from ..._sorting.sorting import argsort

__all__ = ["false_discovery_control"]


def false_discovery_control(ps, *, axis=0, method="bh"):
    """See `scipy.stats.false_discovery_control`. Checking that the p-values lie in [0, 1] reads
    one flag from the device.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> stats.false_discovery_control(cuarray.array([0.01, 0.04, 0.03, 0.2]))
    array([0.04      , 0.05333333, 0.05333333, 0.2       ])
    """
    ps = as_literal_or_array(ps, "false_discovery_control")
    if ps.dtype.kind not in "iuf":
        raise ValueError("`ps` must contain only real numbers.")
    if not bool(all_(ps == clip(ps, 0.0, 1.0)).get()):
        raise ValueError("All values in `ps` must lie between 0. and 1.")
    methods = {"bh", "by"}
    if method.lower() not in methods:
        raise ValueError(f"Unrecognized `method` '{method}'.Method must be one of {methods}.")
    method = method.lower()
    if axis is None:
        axis, ps = 0, ps.ravel()
    ax = numpy.asarray(axis)[()]
    if not numpy.issubdtype(ax.dtype, numpy.integer) or ax.size != 1:
        raise ValueError("`axis` must be an integer or `None`")
    axis = int(ax)
    if ps.size <= 1 or ps.shape[axis] <= 1:
        return ps
    if ps.dtype.kind != "f":
        ps = ps.astype(numpy.float64)
    ps = moveaxis(ps, axis, -1)
    m = ps.shape[-1]
    order = argsort(ps, axis=-1)
    adjusted = take_along_axis(ps, order, axis=-1) * (m / arange(1, m + 1, dtype=ps.dtype))
    if method == "by":
        adjusted = adjusted * float(numpy.sum(1.0 / numpy.arange(1, m + 1)))
    # each value the smallest of those at and after it (R's cummin from the largest p-value down)
    adjusted = minimum.accumulate(adjusted[..., ::-1], axis=-1)[..., ::-1]
    restored = take_along_axis(adjusted, argsort(order, axis=-1), axis=-1)
    return clip(moveaxis(restored, -1, axis), 0.0, 1.0)
