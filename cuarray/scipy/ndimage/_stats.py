"""scipy.ndimage's labelled statistics on the GPU: `sum_labels` (`sum`), `mean`, `variance`,
`standard_deviation`, `minimum`, `maximum`, `minimum_position`, `maximum_position`, `extrema`,
`median`, `center_of_mass`, `histogram`, `labeled_comprehension`.

Every element gets a slot: the position of its label in the sorted `index` (a binary search on the
device), or one spare slot for labels not asked for; per-slot sums are `bincount`s, per-slot
extremes `minimum.at`/`maximum.at`. With no `index` (labels > 0) or a scalar one, SciPy reduces the
selected elements directly (its result dtypes differ: a sum of integers stays integer) and so does
this. Results are cuarray arrays (0-d for a single group), positions and centres of mass host
tuples, as SciPy returns them (they synchronise).
"""

from __future__ import annotations

import numpy

from ..._core.transfer import from_host as _from_host
from ..._creation.ranges import arange as _arange
from ..._manipulation.dims import broadcast_arrays as _broadcast_arrays
from ..._math.extrema import maximum as _maximum
from ..._math.extrema import minimum as _minimum
from ..._sorting.searching import where as _where
from ..._sorting.searchsorted import searchsorted as _searchsorted
from ..._statistics.histograms import bincount as _bincount
from . import _support as _s

__all__ = ["sum_labels", "sum", "mean", "variance", "standard_deviation", "minimum", "maximum", "minimum_position",
           "maximum_position", "extrema", "median", "center_of_mass", "histogram", "labeled_comprehension"]


def _host(v) -> numpy.ndarray:
    """A result on the host (cuarray arrays are copied down; NumPy values pass)."""
    return numpy.asarray(v.get()) if hasattr(v, "get") else numpy.asarray(v)


def _minimum_at(out, idx, vals):
    _minimum.at(out, idx, vals)


def _maximum_at(out, idx, vals):
    _maximum.at(out, idx, vals)


def _scalar_index(index):
    """A 0-d index array (NumPy or cuarray) as the scalar it holds, as SciPy's selections read it;
    any other index as it is."""
    if getattr(index, "ndim", None) == 0 and not numpy.isscalar(index):
        return _host(index)[()]
    return index


def _prepare(input, labels, what):
    x = _s.as_array(input, what)
    if labels is None:
        return x, None
    lab = _s.as_array(labels, what)
    try:
        x, lab = _broadcast_arrays(x, lab)
    except ValueError as e:
        raise ValueError("input and labels must have the same shape (excepting dimensions with width 1)") from e
    return x, lab


def _group(x, lab, index):
    """The selected elements for the single-group cases (flat), or None when `index` is a list."""
    if lab is None:
        return x.ravel()
    if index is None:
        return x[lab > 0]
    if numpy.isscalar(index):
        return x[lab == index]
    return None


def _slots(lab, index):
    """(slot of every element (flat), n): slot k < n for labels equal to sorted index k, n else;
    plus the permutation that puts results back in `index` order."""
    idx = numpy.atleast_1d(_s.host_param(index))
    order = numpy.argsort(idx.ravel(), kind="stable")
    srt = idx.ravel()[order]
    flat = lab.ravel()
    d_srt = _from_host(srt.astype(flat.dtype) if flat.dtype.kind in "iub" else srt)
    pos = _searchsorted(d_srt, flat)
    n = len(srt)
    posc = _where(pos < n, pos, 0)
    found = (pos < n) & (d_srt[posc] == flat)
    slot = _where(found, pos, n)
    inv = numpy.empty_like(order)
    inv[order] = numpy.arange(n)
    return slot, n, _from_host(inv), idx.shape


def _counts_sums(x, slot, n):
    counts = _bincount(slot, minlength=n + 1)
    sums = _bincount(slot, weights=x.ravel(), minlength=n + 1)
    return counts, sums


def sum_labels(input, labels=None, index=None):
    """See `scipy.ndimage.sum_labels`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> a, labels = cuarray.array([1., 2., 3., 5., 9.]), cuarray.array([1, 1, 2, 2, 0])
    >>> ndimage.sum_labels(a, labels, index=cuarray.array([1, 2]))
    array([3., 8.])
    """
    x, lab = _prepare(input, labels, "sum_labels")
    index = _scalar_index(index)
    vals = _group(x, lab, index)
    if vals is not None:
        return vals.sum()
    slot, n, inv, shape = _slots(lab, index)
    _, sums = _counts_sums(x, slot, n)
    return sums[:n][inv].reshape(shape)


def sum(input, labels=None, index=None):  # noqa: A001 -- SciPy's name
    """See `scipy.ndimage.sum`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> a, labels = cuarray.array([1., 2., 3., 5., 9.]), cuarray.array([1, 1, 2, 2, 0])
    >>> ndimage.sum(a, labels, index=cuarray.array([1, 2]))
    array([3., 8.])
    """
    return sum_labels(input, labels, index)


def mean(input, labels=None, index=None):
    """See `scipy.ndimage.mean`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> a, labels = cuarray.array([1., 2., 3., 5., 9.]), cuarray.array([1, 1, 2, 2, 0])
    >>> ndimage.mean(a, labels, index=cuarray.array([1, 2]))
    array([1.5, 4. ])
    """
    x, lab = _prepare(input, labels, "mean")
    index = _scalar_index(index)
    vals = _group(x, lab, index)
    if vals is not None:
        return vals.sum() / numpy.float64(vals.size)
    slot, n, inv, shape = _slots(lab, index)
    counts, sums = _counts_sums(x, slot, n)
    return (sums[:n] / counts[:n].astype(numpy.float64))[inv].reshape(shape)


def variance(input, labels=None, index=None):
    """See `scipy.ndimage.variance`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> a, labels = cuarray.array([1., 2., 3., 5., 9.]), cuarray.array([1, 1, 2, 2, 0])
    >>> ndimage.variance(a, labels, index=cuarray.array([1, 2]))
    array([0.25, 1.  ])
    """
    x, lab = _prepare(input, labels, "variance")
    index = _scalar_index(index)
    vals = _group(x, lab, index)
    if vals is not None:
        c = vals - vals.mean()
        # numpy.float64, not a Python float: SciPy divides by a float64 array, so float32 data give float64
        return (c * c.conjugate()).sum() / numpy.float64(vals.size)
    slot, n, inv, shape = _slots(lab, index)
    counts, sums = _counts_sums(x, slot, n)
    means = sums / _where(counts > 0, counts, 1)
    c = x.ravel() - means[slot]
    sq = _bincount(slot, weights=(c * c.conjugate()).real if c.dtype.kind == "c" else c * c, minlength=n + 1)
    return (sq[:n] / counts[:n].astype(numpy.float64))[inv].reshape(shape)


def standard_deviation(input, labels=None, index=None):
    """See `scipy.ndimage.standard_deviation`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> a, labels = cuarray.array([1., 2., 3., 5., 9.]), cuarray.array([1, 1, 2, 2, 0])
    >>> ndimage.standard_deviation(a, labels, index=cuarray.array([1, 2]))
    array([0.5, 1. ])
    """
    return variance(input, labels, index) ** 0.5


def _extreme(x, lab, index, find_max, what):
    vals = _group(x, lab, index)
    if vals is not None:
        return vals.max() if find_max else vals.min()
    slot, n, inv, shape = _slots(lab, index)
    dt = x.dtype
    if dt.kind in "iu":
        start = numpy.iinfo(dt).min if find_max else numpy.iinfo(dt).max
    elif dt.kind == "b":
        start = not find_max
    else:
        start = -numpy.inf if find_max else numpy.inf
    out = _from_host(numpy.full(n + 1, start, dt))
    (_maximum_at if find_max else _minimum_at)(out, slot, x.ravel())
    counts = _bincount(slot, minlength=n + 1)
    out = _where(counts > 0, out, numpy.zeros((), dt)[()])  # SciPy: 0 for a label that is absent
    return out[:n][inv].reshape(shape).astype(dt, copy=False)


def minimum(input, labels=None, index=None):
    """See `scipy.ndimage.minimum`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> a, labels = cuarray.array([1., 2., 3., 5., 9.]), cuarray.array([1, 1, 2, 2, 0])
    >>> ndimage.minimum(a, labels, index=cuarray.array([1, 2]))
    array([1., 3.])
    """
    x, lab = _prepare(input, labels, "minimum")
    index = _scalar_index(index)
    return _extreme(x, lab, index, False, "minimum")


def maximum(input, labels=None, index=None):
    """See `scipy.ndimage.maximum`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> a, labels = cuarray.array([1., 2., 3., 5., 9.]), cuarray.array([1, 1, 2, 2, 0])
    >>> ndimage.maximum(a, labels, index=cuarray.array([1, 2]))
    array([2., 5.])
    """
    x, lab = _prepare(input, labels, "maximum")
    index = _scalar_index(index)
    return _extreme(x, lab, index, True, "maximum")


def _positions(x, lab, index, find_max):
    """Flat positions of the first minimum (maximum) of each group, as a host array (or int)."""
    pos = _arange(x.size, dtype=numpy.int64)
    if lab is None or index is None or numpy.isscalar(index):
        vals = _group(x, lab, index)
        if lab is None:
            sel = pos
        else:
            sel = pos[(lab > 0).ravel()] if index is None else pos[(lab == index).ravel()]
        ext = vals.max() if find_max else vals.min()
        return int(_host(sel[vals == ext][0])) if vals.size else 0
    slot, n, inv, shape = _slots(lab, index)
    ext = _extreme(x, lab, index, find_max, "")  # in index order
    ext_sorted = _from_host(numpy.concatenate([_host(ext).ravel()[numpy.argsort(_host(inv))],
                                               numpy.zeros(1, x.dtype)]))
    hit = x.ravel() == ext_sorted[slot]
    big = numpy.iinfo(numpy.int64).max
    cand = _where(hit, pos, big)
    out = _from_host(numpy.full(n + 1, big, numpy.int64))
    _minimum_at(out, slot, cand)
    res = _host(out[:n][inv]).copy()
    res[res == big] = 0
    return res.reshape(shape)


def _unravel(flat, shape):
    dims = numpy.array(shape)
    dim_prod = numpy.cumprod([1] + list(dims[:0:-1]))[::-1]
    # SciPy's types: tuples of NumPy integers (intp)
    if numpy.isscalar(flat) or numpy.ndim(flat) == 0:
        return tuple((numpy.intp(flat) // dim_prod) % dims)
    return [tuple(v) for v in numpy.asarray(flat, numpy.intp).reshape(-1, 1) // dim_prod % dims]


def minimum_position(input, labels=None, index=None):
    """See `scipy.ndimage.minimum_position` (host tuples).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> tuple(int(i) for i in ndimage.minimum_position(cuarray.array([[1, 5], [3, 2]])))
    (0, 0)
    """
    x, lab = _prepare(input, labels, "minimum_position")
    index = _scalar_index(index)
    return _unravel(_positions(x, lab, index, False), x.shape)


def maximum_position(input, labels=None, index=None):
    """See `scipy.ndimage.maximum_position` (host tuples).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> tuple(int(i) for i in ndimage.maximum_position(cuarray.array([[1, 5], [3, 2]])))
    (0, 1)
    """
    x, lab = _prepare(input, labels, "maximum_position")
    index = _scalar_index(index)
    return _unravel(_positions(x, lab, index, True), x.shape)


def extrema(input, labels=None, index=None):
    """See `scipy.ndimage.extrema`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> mn, mx, mn_pos, mx_pos = ndimage.extrema(cuarray.array([[1, 5], [3, 2]]))
    >>> int(mn), int(mx)
    (1, 5)
    """
    x, lab = _prepare(input, labels, "extrema")
    index = _scalar_index(index)
    return (_extreme(x, lab, index, False, "extrema"), _extreme(x, lab, index, True, "extrema"),
            _unravel(_positions(x, lab, index, False), x.shape), _unravel(_positions(x, lab, index, True), x.shape))


def median(input, labels=None, index=None):
    """See `scipy.ndimage.median` (one sort per group, on the device).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> a, labels = cuarray.array([1., 2., 3., 5., 9.]), cuarray.array([1, 1, 2, 2, 0])
    >>> ndimage.median(a, labels, index=cuarray.array([1, 2]))
    array([1.5, 4. ])
    """
    x, lab = _prepare(input, labels, "median")
    index = _scalar_index(index)
    vals = _group(x, lab, index)
    if vals is not None:
        return _median_of(vals)
    idx = numpy.atleast_1d(_s.host_param(index))
    res = [_median_of(x[lab == v]) for v in idx.ravel().tolist()]
    # SciPy: the float input's dtype for a list index ((lo + hi) / 2.0 of its values), float64 else
    dt = x.dtype if x.dtype.kind == "f" else numpy.float64
    out = numpy.array([float(_host(r)) for r in res], dtype=dt)
    return _from_host(out.reshape(idx.shape))


def _median_of(vals):
    if vals.size == 0:
        return numpy.float64(numpy.nan)
    s = vals.ravel().copy()
    s.sort()
    n = s.size
    lo, hi = s[(n - 1) // 2], s[n // 2]
    if s.dtype.kind in "iub":
        return (lo.astype(numpy.float64) + hi.astype(numpy.float64)) / 2.0
    return (lo + hi) / 2.0


def center_of_mass(input, labels=None, index=None):
    """See `scipy.ndimage.center_of_mass` (host tuples).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> [float(c) for c in ndimage.center_of_mass(cuarray.array([[0., 1.], [0., 3.]]))]
    [0.75, 1.0]
    """
    # SciPy's arithmetic: the coordinate grids of the input's own shape (a broadcast input is
    # weighted by them before labels broadcast it), a tuple of float64 for one group, a list of
    # tuples for an index array (IndexError for a 0-d input, which has no coordinate)
    x = _s.as_array(input, "center_of_mass")
    index = _scalar_index(index)
    normalizer = sum_labels(x, labels, index)
    results = []
    for d in range(x.ndim):
        shape = [1] * x.ndim
        shape[d] = x.shape[d]
        grid = _arange(x.shape[d], dtype=numpy.float64).reshape(shape)
        results.append(_host(sum_labels(x * grid, labels, index) / normalizer))
    if results[0].ndim == 0:
        return tuple(numpy.float64(r) for r in results)
    return [tuple(v) for v in numpy.array(results).T]


def histogram(input, min, max, bins, labels=None, index=None):  # noqa: A002 -- SciPy's names
    """See `scipy.ndimage.histogram`: a cuarray array of counts (int64) per group; for a list of
    labels, a NumPy object array of them, as SciPy.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> ndimage.histogram(cuarray.array([1, 2, 2, 3]), 0, 4, 4)
    array([0, 1, 2, 1])
    """
    x, lab = _prepare(input, labels, "histogram")
    if lab is None and index is not None:
        raise ValueError("index without defined labels")  # SciPy's (its labeled_comprehension's)
    edges = numpy.linspace(min, max, bins + 1)
    d_edges = _from_host(edges)

    def hist(vals):
        b = _searchsorted(d_edges, vals.ravel(), side="right") - 1
        b = _where(vals.ravel() == edges[-1], bins - 1, b)  # numpy.histogram's last edge is inclusive
        ok = (b >= 0) & (b < bins)
        return _bincount(_where(ok, b, bins), minlength=bins + 1)[:bins]

    vals = _group(x, lab, index)
    if vals is not None:
        return hist(vals)
    idx = numpy.atleast_1d(_s.host_param(index))
    out = numpy.empty(idx.shape, object)
    for k, v in enumerate(idx.ravel().tolist()):
        sel = x[lab == v]
        out.flat[k] = hist(sel) if sel.size else None
    return out


def labeled_comprehension(input, labels, index, func, out_dtype, default, pass_positions=False):
    """See `scipy.ndimage.labeled_comprehension`. `func` receives cuarray arrays (one call per
    label, from Python); the result is a cuarray array of `out_dtype`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> a, labels = cuarray.array([1., 2., 3., 5., 9.]), cuarray.array([1, 1, 2, 2, 0])
    >>> index = cuarray.array([1, 2])
    >>> ndimage.labeled_comprehension(a, labels, index, cuarray.max, float, 0.)
    array([2., 5.])
    """
    as_scalar = numpy.isscalar(index)
    x, lab = _prepare(input, labels, "labeled_comprehension")
    pos = _arange(x.size, dtype=numpy.int64).reshape(x.shape) if pass_positions else None
    if lab is None:
        if index is not None:
            raise ValueError("index without defined labels")
        return func(x.ravel()) if not pass_positions else func(x.ravel(), pos.ravel())
    if index is None:
        m = lab > 0
        return func(x[m]) if not pass_positions else func(x[m], pos[m])
    idx = numpy.atleast_1d(_s.host_param(index))
    with numpy.errstate(invalid="ignore", over="ignore"):
        lossy = numpy.any(idx.astype(lab.dtype).astype(idx.dtype) != idx)
    if lossy:
        raise ValueError("Cannot convert index values from <{}> to <{}> (labels' type) without loss of "
                         "precision".format(idx.dtype, lab.dtype))
    idx = idx.astype(lab.dtype)
    out = numpy.full(idx.shape, default, dtype=out_dtype)
    for k, v in enumerate(idx.ravel().tolist()):
        m = lab == v
        sel = x[m]
        if sel.size == 0:
            continue
        r = func(sel) if not pass_positions else func(sel, pos[m])
        out.flat[k] = _host(r)
    return out[0] if as_scalar else _from_host(out)
