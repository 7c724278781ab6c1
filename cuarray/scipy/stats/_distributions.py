"""`entropy` (scipy.stats.entropy; the module's name is cupyx's, whose own tests import its
`_normalize`): on the device, SciPy 1.18's rules: `pk` and `qk` promoted to one dtype and
broadcast together before the normalisation along `axis`, a 0-d sample as one value, an empty
slice's entropy 0, `base`, `keepdims`, `nan_policy` ('omit': `_omit`)."""

from __future__ import annotations

import math

import numpy

from ..._core.host_input import as_literal_or_array
from ..._core.shapes import normalize_axis_index
from ..._manipulation.dims import broadcast_to
from ..._math.sums import sum as sum_
from ..special._convenience import entr, rel_entr
from ._descriptive import _policy
from ._omit import omit_nans

__all__ = ["entropy"]


def _normalize(x, axis):
    """x divided by its sum along `axis` (a new array; cupyx's helper of the same name)."""
    return x / sum_(x, axis=axis, keepdims=True)


@omit_nans("pk", "qk")
def entropy(pk, qk=None, base=None, axis=0, *, nan_policy="propagate", keepdims=False):
    """See `scipy.stats.entropy`: sum(entr(pk)) (or sum(rel_entr(pk, qk))) of the normalised
    distributions, in nats unless `base`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> p = cuarray.array([0.5, 0.25, 0.25])
    >>> round(float(stats.entropy(p)), 6)  # waits for the GPU
    1.039721
    >>> round(float(stats.entropy(p, base=2)), 6)
    1.5
    """
    if base is not None and base <= 0:
        raise ValueError("`base` must be a positive number or `None`.")
    arrays = [as_literal_or_array(pk, "entropy")] + ([] if qk is None else [as_literal_or_array(qk, "entropy")])
    if any(a.dtype.kind == "c" for a in arrays):
        raise TypeError("ufunc 'entr' not supported for the input types, and the inputs could not be safely "
                        "coerced to any supported types according to the casting rule ''safe''")
    arrays = [_policy(nan_policy, a) for a in arrays]
    if len(arrays) == 2:  # SciPy's xp_promote(pk, qk, broadcast=True): one dtype, one shape
        dt = numpy.result_type(*(a.dtype for a in arrays))
        try:
            shape = numpy.broadcast_shapes(*(a.shape for a in arrays))
        except ValueError:
            raise ValueError("Array shapes are incompatible for broadcasting.") from None
        arrays = [broadcast_to(a.astype(dt, copy=False), shape) for a in arrays]
    ndim = arrays[0].ndim
    if ndim == 0:  # one value: its entropy is 0 (SciPy's axis handling takes it as 1-D)
        arrays = [a.reshape(1) for a in arrays]
        ax = 0
    elif axis is None:
        arrays = [a.ravel() for a in arrays]
        ax = 0
    else:
        ax = normalize_axis_index(axis, ndim)
    pk = _normalize(arrays[0], ax)
    vec = entr(pk) if qk is None else rel_entr(pk, _normalize(arrays[1], ax))
    s = sum_(vec, axis=ax)
    if base is not None:
        s = s / math.log(base)
    if ndim == 0:
        s = s.reshape(())
    if keepdims:
        s = s.reshape((1,) * ndim) if axis is None or ndim == 0 else s.reshape(
            arrays[0].shape[:ax] + (1,) + arrays[0].shape[ax + 1:])
    return s
