"""scipy.stats.quantile on the device: SciPy's algorithm (Hyndman & Fan's nine sample quantiles,
Harrell-Davis, the winsorizing roundings, NumPy's old discontinuous methods, frequency weights) as
a composition of cuarray's sort, gathers and elementwise functions. `p` broadcasts against the
slices of `x` as in SciPy (one set of probabilities per slice), so NumPy's cartesian `quantile`
does not apply; the NaN handling runs on the device without reading whether NaNs are present
(only `nan_policy='raise'` reads it)."""

from __future__ import annotations

import math

import numpy

from ..._core.host_input import as_literal_or_array, is_scalar
from ..._creation.basic import full
from ..._creation.from_data import asarray
from ..._creation.ranges import arange
from ..._indexing.inserting import take_along_axis
from ..._logic.content import isnan
from ..._logic.comparison import less, less_equal
from ..._logic.truth import any as any_
from ..._manipulation.dims import broadcast_to
from ..._manipulation.transpose import moveaxis
from ..._math.arithmetic import floor_divide, remainder
from ..._math.extrema import maximum, minimum
from ..._math.rounding import ceil, floor, rint
from ..._math.sums import sum as sum_
from ..._math.sums_scan import cumsum
from ..._sorting.counting import count_nonzero
from ..._sorting.searching import where
from ..._sorting.sorting import argsort, sort
from ..special._gamma import betainc
from ._descriptive import _policy

__all__ = ["quantile"]

_HF = ("inverted_cdf", "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf", "hazen",
       "weibull", "linear", "median_unbiased", "normal_unbiased")
_OLD = ("_lower", "_midpoint", "_higher", "_nearest")
_ROUND = ("round_outward", "round_inward", "round_nearest")
_METHODS = frozenset(_HF + ("harrell-davis",) + _OLD + _ROUND)
_NO_WEIGHTS = frozenset(_OLD + _ROUND + ("harrell-davis",))


def _result_dtype(*args):
    # SciPy's xp_promote: Python scalars are weak, arrays (a list is one) set the type; an
    # integral result becomes float64
    dts = [a.dtype for a in args if a is not None and not (is_scalar(a) and not isinstance(a, numpy.generic))]
    dt = numpy.result_type(*dts)
    return dt if dt.kind == "f" else numpy.dtype(numpy.float64)


def _arr(a, fn):
    return a if a is None or (is_scalar(a) and not isinstance(a, numpy.generic)) else as_literal_or_array(a, fn)


def _shapes_but(shapes, axis):
    """SciPy's `_broadcast_shapes` with `axis` left out (each array keeps its own length there)."""
    nd = max(len(s) for s in shapes)
    rows = [(1,) * (nd - len(s)) + tuple(s) for s in shapes]
    ax = axis % nd
    rest = [r[:ax] + r[ax + 1:] for r in rows]
    try:
        common = numpy.broadcast_shapes(*rest)
    except ValueError:
        raise ValueError("Array shapes are incompatible for broadcasting.") from None
    return [common[:ax] + (r[ax],) + common[ax:] for r in rows]


def _searchsorted_rows(x, y, right):
    """SciPy's `_xp_searchsorted` along the last axis (x sorted by row; NaNs last): a binary
    search of ceil(log2(n)) + 1 gathers, no host reads."""
    a = full(y.shape, 0, dtype=numpy.int64)
    if x.shape[-1] == 0:
        return a
    b = broadcast_to(count_nonzero(~isnan(x), axis=-1, keepdims=True), y.shape).astype(numpy.int64)
    compare = less if right else less_equal
    for _ in range(int(math.log2(x.shape[-1])) + 1):
        c = floor_divide(a + b, 2)
        j = compare(y, take_along_axis(x, c, axis=-1))
        b = where(j, c, b)
        a = where(j, a, c)
    first = x[..., :1]
    out = where(compare(y, first), 0, b)
    return where(isnan(y), x.shape[-1], out) if right else out


def quantile(x, p, *, method="linear", axis=0, nan_policy="propagate", keepdims=None, weights=None):
    """See `scipy.stats.quantile`. Runs on the device: a sort of each slice (an argsort with
    `weights`), then gathers; 'harrell-davis' makes its `betainc` weights for every element of a
    slice and every probability (memory of len(p) times x.size).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x = cuarray.asarray([[10., 8., 7., 5., 4.], [0., 1., 2., 3., 5.]])
    >>> stats.quantile(x, 0.5, axis=-1)
    array([7., 2.])
    >>> stats.quantile(x, cuarray.asarray([0.25, 0.75]), axis=-1)
    array([[5., 8.],
           [1., 3.]])
    >>> stats.quantile(x, 0.3, axis=-1, method='harrell-davis')
    array([5.28126111, 1.00964627])
    """
    x, p, weights = (_arr(a, "quantile") for a in (x, p, weights))
    if x.dtype.kind not in "biuf" or x.dtype.kind == "b":
        raise ValueError("`x` must have real dtype.")
    if (p.dtype.kind if not is_scalar(p) or isinstance(p, numpy.generic) else type(p).__name__[0]) != "f":
        raise ValueError("`p` must have real floating dtype.")
    if weights is not None and not is_scalar(weights) and weights.dtype.kind not in "iuf":
        raise ValueError("`weights` must have real dtype.")
    dt = _result_dtype(x, p, weights)
    x = x.astype(dt, copy=False)
    p = asarray(p, dtype=dt)
    weights = None if weights is None else asarray(weights, dtype=dt)

    axis_none = axis is None
    ndim = max(x.ndim, p.ndim)
    if axis_none:
        x, p, axis = x.ravel(), p.ravel(), 0
    elif numpy.iterable(axis) or int(axis) != axis:
        raise ValueError("`axis` must be an integer or None.")
    elif axis >= ndim or axis < -ndim:
        raise ValueError("`axis` is not compatible with the shapes of the inputs.")
    axis = int(axis)
    if method not in _METHODS:
        raise ValueError(f"`method` must be one of {set(_METHODS)}")
    if weights is not None and method in _NO_WEIGHTS:
        raise ValueError(f"`method='{method}'` does not support `weights`.")
    x = _policy(nan_policy, x, omit=True)
    if keepdims not in {None, True, False}:
        raise ValueError("If specified, `keepdims` must be True or False.")

    nd = max(x.ndim, p.ndim, 1)
    x = x.reshape((1,) * (nd - x.ndim) + x.shape)
    p = p.reshape((1,) * (nd - p.ndim) + p.shape)
    if x.shape[axis] == 0:  # SciPy: an empty slice is a slice of one NaN
        shape = list(x.shape)
        shape[axis] = 1
        x = full(tuple(shape), numpy.nan, dtype=dt)
    n_zero = None
    if weights is None:
        y = sort(x, axis=axis)
        shape_y, shape_p = _shapes_but([y.shape, p.shape], axis)
        y, p = broadcast_to(y, shape_y), broadcast_to(p, shape_p)
    else:
        x, weights = _broadcast_pair(x, weights)
        zero = weights == 0
        n_zero = count_nonzero(zero, axis=axis, keepdims=True)
        x = where(zero, numpy.inf, x)  # zero-weight values sort last, out of the count
        i_y = argsort(x, axis=axis)
        y = take_along_axis(x, i_y, axis=axis)
        weights = take_along_axis(weights, i_y, axis=axis)
        shapes = _shapes_but([y.shape, p.shape, weights.shape, n_zero.shape], axis)
        y, p, weights, n_zero = (broadcast_to(a, s) for a, s in zip((y, p, weights, n_zero), shapes))
        weights, n_zero = moveaxis(weights, axis, -1), moveaxis(n_zero, axis, -1)

    if keepdims is False and p.shape[axis] != 1:
        raise ValueError("`keepdims` may be False only if the length of `p` along `axis` is 1.")
    keepdims = (p.shape[axis] != 1) if keepdims is None else keepdims
    y, p = moveaxis(y, axis, -1), moveaxis(p, axis, -1)

    n = y.shape[-1] if n_zero is None else y.shape[-1] - n_zero
    nans = isnan(y)
    if nan_policy == "omit":
        n = n - count_nonzero(nans, axis=-1, keepdims=True)
        nan_out = n == 0
        n = where(nan_out, y.shape[-1], n)
    else:
        nan_out = any_(nans, axis=-1, keepdims=True)
    if method == "harrell-davis":
        y = where(nans, 0, y)  # a NaN times a zero weight would spread
    y = where(nan_out, numpy.nan, y)
    n = asarray(n, dtype=dt)

    p_mask = (p > 1) | (p < 0) | isnan(p) | nan_out
    p = where(p_mask, 0.5, p).astype(dt, copy=False)
    if method in _HF:
        res = _hf(y, p, n, method, weights)
    elif method == "harrell-davis":
        res = _hd(y, p, n)
    elif method in _OLD:
        res = _old(y, p, n, method)
    else:
        res = _winsor(y, p, n, method)
    return _post(res.astype(dt, copy=False), p_mask, axis, axis_none, ndim, keepdims)


def _broadcast_pair(x, weights):
    shape = numpy.broadcast_shapes(x.shape, weights.shape)
    return broadcast_to(x, shape), broadcast_to(weights, shape)


def _post(res, p_mask, axis, axis_none, ndim, keepdims):
    res = where(p_mask, numpy.nan, res)
    if axis_none and keepdims:
        res = res.reshape((1,) * (ndim - 1) + res.shape)
        axis = -1
    res = moveaxis(res, -1, axis)
    return res.squeeze(axis) if not keepdims else res


def _gather(y, k):
    return take_along_axis(y, k.astype(numpy.int64), axis=-1)


def _hf(y, p, n, method, weights):
    m = {"inverted_cdf": 0, "averaged_inverted_cdf": 0, "closest_observation": -0.5,
         "interpolated_inverted_cdf": 0, "hazen": 0.5, "weibull": p, "linear": 1 - p,
         "median_unbiased": p / 3 + 1 / 3, "normal_unbiased": p / 4 + 3 / 8}[method]
    if weights is None:
        jg = p * n + m
        jp1 = floor_divide(jg, 1)
        j = jp1 - 1
    else:
        cw = cumsum(weights, axis=-1)
        n_int = broadcast_to(n.astype(numpy.int64), cw.shape[:-1] + (1,))
        jg = p * take_along_axis(cw, n_int - 1, axis=-1) + m
        jp1 = _searchsorted_rows(cw, jg, right=True).astype(y.dtype)
        j = _searchsorted_rows(cw, jg - 1, right=True).astype(y.dtype)
    g = remainder(jg, 1)
    if method == "inverted_cdf":
        g = (g > 0).astype(jg.dtype)
    elif method == "averaged_inverted_cdf":
        g = (1 + (g > 0).astype(jg.dtype)) / 2
    elif method == "closest_observation":
        g = 1 - ((g == 0) & (remainder(j, 2) == 1)).astype(jg.dtype)
    if method in ("inverted_cdf", "averaged_inverted_cdf", "closest_observation"):
        g = where(jg < 0, 0, g)
    g = where(j < 0, 0, g)
    j = minimum(maximum(j, 0.0), n - 1)
    jp1 = minimum(maximum(jp1, 0.0), n - 1)
    return (1 - g) * _gather(y, j) + g * _gather(y, jp1)


def _hd(y, p, n):
    # Harrell & Davis (1982): each quantile a weighted sum of all order statistics, the weights
    # differences of the regularized incomplete beta function at i/n
    p = moveaxis(p, -1, 0)[..., None]
    a, b = p * (n + 1), (1 - p) * (n + 1)
    w = betainc(a, b, arange(y.shape[-1] + 1, dtype=y.dtype) / n)
    w = w[..., 1:] - w[..., :-1]
    w = where(isnan(w), 0, w)
    return moveaxis(sum_(w * y, axis=-1), 0, -1)


def _winsor(y, p, n, method):
    left, right = {"round_outward": (floor, ceil), "round_inward": (ceil, floor), "round_nearest": (rint, rint)}[method]
    return _gather(y, where(p < 0.5, left(p * n), right(n * p - 1)))


def _old(y, p, n, method):
    # NumPy's old discontinuous methods, as SciPy keeps them: p * (n - 1) itself where integral
    ij = p * (n - 1)
    if method == "_midpoint":
        return (_gather(y, floor(ij)) + _gather(y, ceil(ij))) / 2
    return _gather(y, {"_lower": floor, "_higher": ceil, "_nearest": rint}[method](ij))
