"""binned_statistic, binned_statistic_2d, binned_statistic_dd of scipy.stats on the device: the
bin edges are computed on the host exactly as SciPy's (NumPy's linspace over the range, one
device read of the data's minimum and maximum when no range is given), the bin numbers by
digitize on the device with SciPy's right-edge rule, the statistics by bincount ('mean', 'sum',
'count', 'std') or one lexsort by (bin, value) ('median', 'min', 'max'). A callable statistic
is one host step through SciPy."""

from __future__ import annotations

import math
import operator
from typing import NamedTuple

import numpy

from ..._core.host_input import as_parameter
from ..._creation.basic import full, zeros
from ..._creation.from_data import asarray
from ..._indexing.generating import unravel_index
from ..._logic.content import isfinite, isnan
from ..._logic.truth import any as any_
from ..._manipulation.joining import stack
from ..._math.complex import conj, imag, real
from ..._math.misc import sqrt
from ..._math.rounding import around
from ..._math.sums_scan import cumsum
from ..._sorting.searchsorted import digitize
from ..._sorting.searching import where
from ..._sorting.sorting import lexsort
from ..._statistics.histograms import bincount
from ..._statistics.order import max as max_
from ..._statistics.order import min as min_

__all__ = ["binned_statistic", "binned_statistic_2d", "binned_statistic_dd", "BinnedStatisticResult",
           "BinnedStatistic2dResult", "BinnedStatisticddResult"]

_KNOWN = ("mean", "median", "count", "sum", "std", "min", "max")


class BinnedStatisticResult(NamedTuple):
    statistic: object
    bin_edges: object
    binnumber: object


class BinnedStatistic2dResult(NamedTuple):
    statistic: object
    x_edge: object
    y_edge: object
    binnumber: object


class BinnedStatisticddResult(NamedTuple):
    statistic: object
    bin_edges: object
    binnumber: object


def _edges(sample, bins, range_):
    """SciPy's bin edges (host arrays) and bin counts with the two outlier bins."""
    ndim = sample.shape[1]
    if range_ is None:  # from the finite values (SciPy 1.18)
        finite = isfinite(sample)
        lo = numpy.atleast_1d(numpy.array(min_(where(finite, sample, numpy.inf), axis=0).get(), float))
        hi = numpy.atleast_1d(numpy.array(max_(where(finite, sample, -numpy.inf), axis=0).get(), float))
    else:
        if len(range_) != ndim:
            raise ValueError("range given for {} dimensions; {} required".format(len(range_), ndim))
        lo, hi = numpy.empty(ndim), numpy.empty(ndim)
        for i in range(ndim):
            if range_[i][1] < range_[i][0]:
                raise ValueError("In {}range, start must be <= stop".format(
                    "dimension {} of ".format(i + 1) if ndim > 1 else ""))
            lo[i], hi[i] = range_[i]
    for i in range(ndim):
        if lo[i] == hi[i]:
            lo[i], hi[i] = lo[i] - 0.5, hi[i] + 0.5
    dt = sample.dtype if sample.dtype.kind == "f" else numpy.dtype(float)
    edges, nbin = [], []
    for i in range(ndim):
        if numpy.isscalar(bins[i]):
            edges.append(numpy.linspace(lo[i], hi[i], bins[i] + 1, dtype=dt))
        else:
            edges.append(numpy.asarray(bins[i], dt))
        nbin.append(len(edges[i]) + 1)
    return numpy.asarray(nbin), edges


def _binnumbers(sample, nbin, edges):
    flat = zeros(sample.shape[:1], dtype=numpy.intp)
    stride = 1
    for i in reversed(range(sample.shape[1])):
        e = edges[i]
        dmin = numpy.diff(e).min()
        if dmin == 0:
            raise ValueError("The smallest edge difference is numerically 0.")
        decimal = int(-numpy.log10(dmin)) + 6
        x = sample[:, i]
        b = digitize(x, asarray(e))
        last = numpy.around(e[-1], decimal)
        on_edge = (x >= e[-1]) & (around(x, decimal) == last)
        flat = flat + (b - on_edge.astype(b.dtype)) * stride
        stride *= int(nbin[i])
    return flat


def _bsum(b, w, length):
    if w is not None and w.dtype.kind == "c":
        return bincount(b, real(w), minlength=length) + 1j * bincount(b, imag(w), minlength=length)
    return bincount(b, w, minlength=length)


def _sorted_segments(b, v, length):
    key = real(v) if v.dtype.kind == "c" else v
    order = lexsort(stack([key.astype(numpy.float64), b.astype(numpy.float64)]))  # by bin, then value
    count = bincount(b, minlength=length)
    start = cumsum(count) - count
    return v[order], count, start


def _statistic(stat, b, values, length):
    vdim = values.shape[0]
    rt = numpy.result_type(values.dtype, numpy.float64)
    count = bincount(b, minlength=length)
    if stat == "count":
        return full((vdim, length), 0.0) + count.astype(numpy.float64)
    rows = []
    for vv in range(vdim):
        v = values[vv]
        if stat == "sum":
            rows.append(_bsum(b, v, length).astype(rt))
            continue
        if stat in ("mean", "std"):
            s = _bsum(b, v, length)
            m = s / where(count == 0, 1, count)
            if stat == "std":
                d = v - m[b]
                m = sqrt(real(_bsum(b, d * conj(d), length)) / where(count == 0, 1, count))
            rows.append(where(count == 0, numpy.nan, m).astype(rt if stat == "mean" else numpy.float64))
            continue
        sv, cnt, start = _sorted_segments(b, v, length)
        last = len(sv) - 1
        if stat == "min":
            r = sv[where(start > last, last, start)]
        elif stat == "max":
            r = sv[where(start + cnt - 1 < 0, 0, where(start + cnt - 1 > last, last, start + cnt - 1))]
        else:
            mid = start + (cnt - 1) / 2
            lo = where(mid < 0, 0, mid).astype(numpy.int64)
            hi = where(mid < 0, 0, mid + 0.5).astype(numpy.int64)
            lo, hi = where(lo > last, last, lo), where(hi > last, last, hi)
            r = (sv[lo] + sv[hi]) / 2
        rows.append(where(cnt == 0, numpy.nan, r).astype(rt))
    return stack(rows)


def binned_statistic_dd(sample, values, statistic="mean", bins=10, range=None, expand_binnumbers=False,  # noqa: A002
                        binned_statistic_result=None):
    """See `scipy.stats.binned_statistic_dd`. Bin edges come back as host NumPy arrays, as
    SciPy's (computed on the host exactly as SciPy's); the statistic and bin numbers are device
    arrays. A callable `statistic` runs through SciPy on host copies (one host step).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x = cuarray.array([0.1, 0.2, 0.6, 0.9])
    >>> stats.binned_statistic_dd([x], cuarray.array([1., 2., 3., 4.]), "sum", bins=2).statistic
    array([3., 7.])
    """
    if not callable(statistic) and statistic not in _KNOWN:
        raise ValueError("invalid statistic {!r}".format(statistic))
    try:
        bins = operator.index(bins)
    except TypeError:
        pass
    if isinstance(sample, (list, tuple)):
        sample = stack([as_parameter(s, "binned_statistic_dd") for s in sample], axis=1)
    else:
        sample = as_parameter(sample, "binned_statistic_dd")
        sample = sample.reshape(-1, 1) if sample.ndim == 1 else sample
    # SciPy 1.18: a NaN in the sample is refused (its meaning is ambiguous); infinities fall in the
    # outlier bins, and a range taken from the data ignores them (1.17 refused every non-finite value).
    if sample.dtype.kind in "fc" and bool(any_(isnan(sample)).get()):
        raise ValueError("The sample on which `values` is to be binned contains at least one NaN, and the "
                         "meaning is ambiguous. Consider removing or replacing with numerical outliers.")
    if values is None:  # 'count' needs none (SciPy takes the 0-d object array)
        values, input_shape = zeros((1, sample.shape[0])), []
    elif isinstance(values, (list, tuple)):
        values = stack([as_parameter(v, "binned_statistic_dd") for v in values])
        input_shape = list(values.shape)
    else:
        values = as_parameter(values, "binned_statistic_dd")
        input_shape = list(values.shape)
    values = values.reshape(1, -1) if values.ndim < 2 else values
    ndim = sample.shape[1]
    if statistic != "count" and values.shape[1] != sample.shape[0]:
        raise AttributeError("The number of `values` elements must match the length of each `sample` dimension.")
    try:
        if len(bins) != ndim:
            raise AttributeError("The dimension of bins must be equal to the dimension of the sample x.")
    except TypeError:
        bins = ndim * [bins]
    if binned_statistic_result is None:
        nbin, edges = _edges(sample, bins, range)
        b = _binnumbers(sample, nbin, edges)
    else:
        edges = [numpy.asarray(e) for e in binned_statistic_result.bin_edges]
        nbin = numpy.array([len(e) + 1 for e in edges])
        b = binned_statistic_result.binnumber
    length = int(numpy.prod(nbin))
    if callable(statistic):
        # host work: a Python callable per bin (SciPy's loop), on host copies
        from scipy import stats as _ss

        r = _ss.binned_statistic_dd(sample.get(), values.get(), statistic, [e for e in edges], None,
                                    expand_binnumbers)
        result = asarray(r.statistic.reshape((values.shape[0],) + tuple(nbin - 2)))
    else:
        result = _statistic(statistic, b, values, length).reshape((values.shape[0],) + tuple(int(n) for n in nbin))
        result = result[(slice(None),) + ndim * (slice(1, -1),)]
    if expand_binnumbers and ndim > 1:
        b = stack(unravel_index(b, tuple(int(n) for n in nbin)))
    result = result.reshape(tuple(input_shape[:-1]) + tuple(int(n) - 2 for n in nbin))
    return BinnedStatisticddResult(result, edges, b)


def binned_statistic(x, values, statistic="mean", bins=10, range=None):  # noqa: A002
    """See `scipy.stats.binned_statistic` (`binned_statistic_dd` of one dimension).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> res = stats.binned_statistic(cuarray.array([0.1, 0.2, 0.6, 0.9]), cuarray.array([1., 2., 3., 4.]), bins=2)
    >>> res.statistic
    array([1.5, 3.5])
    """
    try:
        n = len(bins)
    except TypeError:
        n = 1
    if n != 1:
        bins = [numpy.asarray(bins.get() if hasattr(bins, "get") else bins, float)]
    if range is not None and len(range) == 2:
        range = [range]
    stat, edges, b = binned_statistic_dd([x], values, statistic, bins, range)
    return BinnedStatisticResult(stat, edges[0], b)


def binned_statistic_2d(x, y, values, statistic="mean", bins=10, range=None, expand_binnumbers=False):  # noqa: A002
    """See `scipy.stats.binned_statistic_2d` (`binned_statistic_dd` of two dimensions).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> x, y = cuarray.array([0.1, 0.2, 0.6, 0.9]), cuarray.array([0.1, 0.9, 0.1, 0.9])
    >>> stats.binned_statistic_2d(x, y, None, "count", bins=2).statistic
    array([[1., 1.],
           [1., 1.]])
    """
    try:
        n = len(bins)
    except TypeError:
        n = 1
    if n != 1 and n != 2:
        e = numpy.asarray(bins, float)
        bins = [e, e]
    stat, edges, b = binned_statistic_dd([x, y], values, statistic, bins, range, expand_binnumbers=expand_binnumbers)
    return BinnedStatistic2dResult(stat, edges[0], edges[1], b)
