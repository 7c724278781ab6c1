"""Multidimensional histograms (NumPy "Statistics / Histograms"): histogramdd, histogram2d.

NumPy's method on the device: per dimension the bin of each sample (a binary search in the
edges, `searchsorted(side='right')`, the last edge counted in the last bin), the bins combined into
one flat index with an outlier bin at each end of each axis, then one bincount
(histograms.bincount_known, no synchronisation) and the core of the result. Edges from an int
`bins` are `numpy.linspace` on the host over the range, which reads each dimension's minimum and
maximum when `range` is not given.
"""

from __future__ import annotations

import builtins
import operator

import numpy

from .._core.copying import astype
from .._core.host_input import as_array, as_parameter
from .._core.ndarray import ndarray
from .._logic.comparison import equal, greater
from .._logic.truth import any as any_
from .._manipulation.dims import atleast_2d
from .._manipulation.joining import stack
from .._math.arithmetic import add, divide, multiply, subtract
from .._math.sums import sum as sum_
from .._math.sums_scan import diff
from .._sorting.searching import where
from .._sorting.searchsorted import search
from .histogram_bins import finite_edges, outer_edges
from .histograms import bincount_known, upload

__all__ = ["histogramdd", "histogram2d"]

_F8, _I8 = numpy.dtype(numpy.float64), numpy.dtype(numpy.int64)


def _sample(sample) -> ndarray:
    if isinstance(sample, ndarray):
        if sample.ndim == 2:
            return sample

        return atleast_2d(sample).T

    return stack([as_array(s, "histogramdd") for s in sample]).T


def histogramdd(sample, bins=10, range=None, density=None, weights=None):  # noqa: A002
    """See `numpy.histogramdd`. `sample` is a 2-D cuarray array or a sequence of 1-D ones; edges
    are returned as a list of device arrays.

    Examples
    --------
    >>> import cuarray
    >>> h, edges = cuarray.histogramdd(cuarray.array([[0., 0.], [1., 0.], [1., 1.]]), bins=2)
    >>> h
    array([[1., 0.],
           [1., 1.]])
    """
    sample = _sample(sample)
    n, d = sample._shape
    if d == 0:
        # NumPy's ravel_multi_index over no dimensions refuses, whatever the bins
        raise ValueError("object of too small depth for desired array")
    nbin = numpy.empty(d, numpy.intp)
    edges = [None] * d
    dedges = [None] * d
    w = None
    if weights is not None:
        w = as_array(weights, "histogramdd")
        if not numpy.can_cast(w._dtype, numpy.float64, "safe"):
            raise TypeError("Cannot cast array data from {!r} to dtype('float64') according to the rule 'safe'"
                            .format(w._dtype))
        w = astype(w.reshape(-1), _F8, order="C", copy=False)
    try:
        m = len(bins)
        if m != d:
            raise ValueError("The dimension of bins must be equal to the dimension of the sample x.")
    except TypeError:
        bins = d * [bins]
    if range is None:
        range = (None,) * d  # noqa: A001
    elif len(range) != d:
        raise ValueError("range argument must have one entry per dimension")
    for i in builtins.range(d):
        b = bins[i]
        b_ndim = b.ndim if isinstance(b, ndarray) else numpy.ndim(b)  # numpy.ndim refuses cuarray arrays
        if b_ndim == 0:
            if (numpy.asarray(b) if isinstance(b, str) else b) < 1:  # (a string: NumPy's own UFuncTypeError)
                raise ValueError("`bins[{}]` must be positive, when an integer".format(i))
            smin, smax = outer_edges(sample[:, i], range[i])
            try:
                k = operator.index(b)
            except TypeError as e:
                raise TypeError("`bins[{}]` must be an integer, when a scalar".format(i)) from e
            host_edges = numpy.linspace(smin, smax, k + 1)
            finite_edges(host_edges, smin, smax, i)
            edges[i] = upload(host_edges)
        elif b_ndim == 1:
            if not isinstance(b, ndarray):
                b = as_parameter(b, "histogramdd")  # explicit edges from the host, as histogram's
            edges[i] = b
            if b._size > 1 and bool(any_(greater(b[:-1], b[1:]))):
                raise ValueError("`bins[{}]` must be monotonically increasing, when an array".format(i))
        else:
            raise ValueError("`bins[{}]` must be a scalar or 1d array".format(i))
        nbin[i] = edges[i]._size + 1  # an outlier bin at each end
        dedges[i] = diff(edges[i])
    # The flat bin of each sample, C order over nbin.
    xy = None
    stride = 1
    for i in reversed(builtins.range(d)):
        col = sample[:, i]
        cdt = numpy.promote_types(edges[i]._dtype, col._dtype)
        cdt = numpy.dtype(numpy.float32) if cdt.char == "e" else cdt
        e = astype(edges[i], cdt, copy=False)
        idx = search(e, astype(col, cdt, copy=False), True)
        idx = where(equal(col, edges[i][-1]), subtract(idx, numpy.int64(1)), idx)
        term = multiply(idx, numpy.int64(stride)) if stride != 1 else idx
        xy = term if xy is None else add(xy, term)
        stride *= int(nbin[i])
    if xy is None or n == 0:
        xy = ndarray((0,), _I8)
    hist = bincount_known(xy, w, int(numpy.prod(nbin)))
    hist = astype(hist, _F8, copy=False).reshape(tuple(int(v) for v in nbin))
    hist = hist[(slice(1, -1),) * d]
    if density:
        s = sum_(hist)
        for i in builtins.range(d):
            shape = [1] * d
            shape[i] = int(nbin[i]) - 2
            hist = divide(hist, astype(dedges[i], _F8, copy=False).reshape(tuple(shape)))
        hist = divide(hist, s)
    return hist, edges


def histogram2d(x, y, bins=10, range=None, density=None, weights=None):  # noqa: A002
    """See `numpy.histogram2d` (edges are device arrays).

    Examples
    --------
    >>> import cuarray
    >>> x, y = cuarray.array([0., 1., 1.]), cuarray.array([0., 0., 1.])
    >>> h, xedges, yedges = cuarray.histogram2d(x, y, bins=2)
    >>> h
    array([[1., 0.],
           [1., 1.]])
    """
    x = as_array(x, "histogram2d")
    y = as_array(y, "histogram2d")
    if x._shape != y._shape or x.ndim != 1:
        if len(x) != len(y):
            raise ValueError("x and y must have the same length.")
    try:
        nb = len(bins)
    except TypeError:
        nb = 1
    if nb != 1 and nb != 2:
        bins = [bins, bins]
    hist, edges = histogramdd([x, y], bins, range, density, weights)
    return hist, edges[0], edges[1]
