"""Frequency histograms and sigma clipping of scipy.stats on the device: `cumfreq` and `relfreq`
(SciPy 1.18's histogram: `numbins + 1` edges by `linspace`, the counts as differences of the
edges' places in the sorted values, the last bin closed; with weights, differences of the weights'
running sum at those places), and `sigmaclip` (SciPy's iteration, the values kept as a mask).

Device reads: the data's minimum and maximum for the default limits (one read: the edges are set
up on the host as NumPy's `linspace` does), SciPy's check of negative weights when the limits are
given, and for `sigmaclip` the NaN check and one count an iteration (its convergence test)."""

from __future__ import annotations

from typing import NamedTuple

import numpy

from ..._core.host_input import as_literal_or_array
from ..._core.transfer import to_host
from ..._creation.basic import full, ones
from ..._creation.from_data import asarray
from ..._creation.ranges import linspace
from ..._indexing.inserting import take
from ..._logic.content import isnan
from ..._logic.truth import any as any_
from ..._manipulation.joining import concatenate, stack
from ..._math.sums import sum as sum_
from ..._math.sums_scan import cumsum, cumulative_sum, diff
from ..._sorting.counting import count_nonzero
from ..._sorting.searchsorted import searchsorted
from ..._sorting.sorting import argsort, sort
from ..._statistics.averages import mean, std
from ..._statistics.order import max as max_
from ..._statistics.order import min as min_
from ._descriptive import _policy

__all__ = ["cumfreq", "relfreq", "sigmaclip", "CumfreqResult", "RelfreqResult", "SigmaclipResult"]

_LIMITS = "If specified, `defaultreallimits` must be given as an iterable in the order (lower limit, upper limit)."


class CumfreqResult(NamedTuple):
    cumcount: object
    lowerlimit: object
    binsize: object
    extrapoints: object


class RelfreqResult(NamedTuple):
    frequency: object
    lowerlimit: object
    binsize: object
    extrapoints: object


class SigmaclipResult(NamedTuple):
    clipped: object
    lower: object
    upper: object


def _host(v):
    """A limit as a host scalar: a device value is read (the limits set up the edges)."""
    return v if isinstance(v, (int, float, numpy.generic)) else numpy.asarray(to_host(v))[()]


def _histogram(a, numbins, limits, weights, fn, density=False, cumulative=False):
    a = as_literal_or_array(a, fn).ravel()
    if weights is not None:
        weights = as_literal_or_array(weights, fn).ravel()
    dt = numpy.result_type(a.dtype, *(() if weights is None else (weights.dtype,)))
    if dt.kind in "biu":
        dt = numpy.dtype(numpy.float64)
    a = a.astype(dt, copy=False)
    weights = None if weights is None else weights.astype(dt, copy=False)
    if limits is None:
        if a.size == 0:  # no range in the data: SciPy's (0, 1)
            lo, hi = dt.type(0.0), dt.type(1.0)
        else:
            lo, hi = to_host(stack([min_(a), max_(a)]))  # the one read: the edges are set up on the host
            s = (hi - lo) / (2.0 * (numbins - 1.0))  # the bins reach half a bin past the data
            lo, hi = lo - s, hi + s
    else:
        if not (numpy.iterable(limits) and len(limits) == 2 and _host(limits[0]) < _host(limits[1])):
            raise ValueError(_LIMITS)
        lo, hi = _host(limits[0]), _host(limits[1])
        if dt.kind != "f":
            raise ValueError("`a` and (if specified) `weights` must have real dtype.")
        if weights is not None and bool(any_(weights < 0).get()):
            raise ValueError("All `weights` must be non-negative.")
    edges = linspace(lo, hi, numbins + 1, dtype=dt)
    last = a == edges[-1]
    if weights is None:
        hist = diff(searchsorted(sort(a), edges, side="left"))
        hist = concatenate([hist[:-1], hist[-1:] + count_nonzero(last)]).astype(dt)
        extra = a.shape[0] - sum_(hist).astype(numpy.int64)
        total = a.shape[0]
    else:
        order = argsort(a)
        running = cumulative_sum(weights[order], include_initial=True)
        hist = diff(take(running, searchsorted(a[order], edges, side="left")))
        hist = concatenate([hist[:-1], hist[-1:] + sum_(weights * last)]).astype(dt)
        extra = a.shape[0] - count_nonzero((edges[0] <= a) & (a <= edges[-1]))
        total = running[-1]
    if density:
        hist = (hist / total).astype(dt)
    if cumulative:
        hist = cumsum(hist)
    return hist, full((), lo, dtype=dt), edges[1] - edges[0], asarray(extra, dtype=numpy.int64)


def cumfreq(a, numbins=10, defaultreallimits=None, weights=None):
    """See `scipy.stats.cumfreq` (SciPy 1.18's results: the counts, limits and bin size in the
    data's floating dtype; `extrapoints` a 0-d int64 array).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> res = stats.cumfreq(cuarray.array([1., 4, 2, 1, 3, 1]), numbins=4)
    >>> res.cumcount
    array([3., 4., 5., 6.])
    >>> float(res.lowerlimit), float(res.binsize)
    (0.5, 1.0)
    """
    return CumfreqResult(*_histogram(a, numbins, defaultreallimits, weights, "cumfreq", cumulative=True))


def relfreq(a, numbins=10, defaultreallimits=None, weights=None):
    """See `scipy.stats.relfreq` (SciPy 1.18's results, as `cumfreq`).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> res = stats.relfreq(cuarray.array([2., 4, 1, 2, 3, 2]), numbins=4)
    >>> res.frequency
    array([0.16666667, 0.5       , 0.16666667, 0.16666667])
    >>> float(res.lowerlimit), float(res.binsize)
    (0.5, 1.0)
    """
    return RelfreqResult(*_histogram(a, numbins, defaultreallimits, weights, "relfreq", density=True))


def sigmaclip(a, low=4.0, high=4.0, *, nan_policy="propagate"):
    """See `scipy.stats.sigmaclip`. The kept values are a mask over the raveled data (the mean and
    standard deviation over it by `where=`), so an iteration is a few reductions and one read of
    the kept count; the clipped values are gathered once at the end.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import stats
    >>> a = cuarray.concatenate((cuarray.linspace(9.5, 10.5, 31), cuarray.linspace(0, 20, 5)))
    >>> c, lower, upper = stats.sigmaclip(a, 1.5, 1.5)
    >>> c
    array([ 9.96666667, 10.        , 10.03333333, 10.        ])
    >>> round(float(lower), 6), round(float(upper), 6)
    (9.964645, 10.035355)
    """
    c = _policy(nan_policy, as_literal_or_array(a, "sigmaclip"), omit=True).ravel()
    if c.dtype.kind in "fc" and nan_policy != "raise" and c.size and bool(any_(isnan(c)).get()):
        if nan_policy == "propagate":  # SciPy's: nothing kept, NaN limits
            nan = full((), numpy.nan, dtype=c.dtype)
            return SigmaclipResult(c[:0], nan, nan)
        c = c[~isnan(c)]
    keep = ones(c.shape, dtype=bool)
    size, delta = c.size, 1
    while delta:
        c_mean, c_std = mean(c, where=keep), std(c, where=keep)
        lower, upper = c_mean - c_std * low, c_mean + c_std * high
        keep = keep & (c >= lower) & (c <= upper)
        kept = int(to_host(count_nonzero(keep)))  # the iteration's one read: its convergence test
        size, delta = kept, size - kept
    return SigmaclipResult(c[keep], lower, upper)
