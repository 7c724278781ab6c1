"""Quantiles (NumPy "Statistics / Order statistics"): percentile, quantile, nanpercentile,
nanquantile, every NumPy `method`.

NumPy's recipe, with the order statistics found on the device: the reduced axes are moved last
and flattened into rows of n; NumPy's own index arithmetic (host, on the quantiles only: q is a
host value) gives per quantile the ranks (previous, next) and the weight gamma; the elements of
those ranks (plus the row's largest, a NaN when the row has one) come from `_order_statistics`:
radix selection (quantile_select.py, no sort) or, where measured faster, a sort of the rows; then
NumPy's `_lerp` with cuarray's ufuncs, so values and dtypes follow NumPy's promotion rules.

Synchronisations: a device-array `q` is read (its values pick the ranks and NumPy checks its
range); the nan-variants read each row's NaN count (a row's ranks depend on it).
"""

from __future__ import annotations

import functools
import math
import warnings

import numpy
from numpy.lib import _function_base_impl as _npq  # NumPy's index arithmetic: the oracle

from .._core import sort as _sort
from .._core.copying import astype
from .._core.copying import copyto_unchecked
from .._core import dtypes as _dtypes
from .._core import shapes as _shapes
from .._core.elementwise import Definition, KernelParam
from .._core.host_input import as_array
from .._core.ndarray import ndarray
from .._core.reduction_ops import normalize_axes, reduced_shape
from .._core.transfer import from_host
from .._logic.comparison import greater_equal
from .._logic.content import isnan
from .._manipulation.transpose import moveaxis
from .._math.arithmetic import add, multiply, subtract
from .._math.sums import sum as sum_
from .._sorting.searching import where
from .quantile_select import select, take
from .averages import nanmean
from ..cuda import caches as _caches

__all__ = ["percentile", "quantile", "nanpercentile", "nanquantile"]

_METHODS = tuple(_npq._QuantileMethods)
# A sort of the rows replaces radix selection for more than SORT_ROWS_ABOVE rows of at most
# SORT_ROW_LENGTH_MAX elements (rows a block sorts alone). Measured on an H100, percentile 50 of
# 64 Mi float32 along the last axis: 64 and 4096 rows, selection 1.2 ms (CuPy 24-25 ms); 131072
# rows of 512, selection 13.3 ms, sort 3.19 ms (each selection pass flushes a 256-bin histogram
# per row; that was before rows that fit a block were selected in shared memory, one launch:
# scripts/perf/percentile_parts.py times both routes for the rule's next revision).
# `order_statistics_by` overrides the rule (the bench times both ways).
SORT_ROWS_ABOVE = 16384
SORT_ROW_LENGTH_MAX = 4096
_by = None  # "select", "sort", or None: the rule above (set by `order_statistics_by`)


def order_statistics_by(how):
    """Make every quantile find its order statistics by radix selection (``"select"``) or by a sort
    of the rows (``"sort"``), or by the size rule above (None, the default); returns the previous
    setting. For benchmarks and tests: process-wide, not per thread."""
    global _by
    if how not in (None, "select", "sort"):
        raise ValueError("order statistics by 'select', 'sort' or None, not {!r}".format(how))
    prev = _by
    _by = how
    return prev


def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
             weights=None, interpolation=None):
    """See `numpy.quantile`. `q`: Python numbers, a list/tuple of them, or a cuarray array (read
    to the host: one sync). The input is never modified. `weights` is not supported.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([1., 2., 3., 4.])
    >>> cuarray.quantile(a, [0.25, 0.5])
    array([1.75, 2.5 ])
    >>> float(cuarray.quantile(a, 0.5))
    2.5
    """
    return _quantile(a, q, axis, out, method, keepdims, weights, interpolation, False, False, "quantile")


def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
               weights=None, interpolation=None):
    """See `numpy.percentile` (`q` as in `quantile`).

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([1., 2., 3., 4.])
    >>> cuarray.percentile(a, [25, 50])
    array([1.75, 2.5 ])
    """
    return _quantile(a, q, axis, out, method, keepdims, weights, interpolation, True, False, "percentile")


def nanquantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
                weights=None, interpolation=None):
    """See `numpy.nanquantile`. Reads each row's NaN count (one sync).

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([1., 2., cuarray.nan, 3., 4.])
    >>> cuarray.nanquantile(a, [0.25, 0.5])
    array([1.75, 2.5 ])
    """
    return _quantile(a, q, axis, out, method, keepdims, weights, interpolation, False, True, "nanquantile")


def nanpercentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
                  weights=None, interpolation=None):
    """See `numpy.nanpercentile`. Reads each row's NaN count (one sync).

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([1., 2., cuarray.nan, 3., 4.])
    >>> cuarray.nanpercentile(a, [25, 50])
    array([1.75, 2.5 ])
    """
    return _quantile(a, q, axis, out, method, keepdims, weights, interpolation, True, True, "nanpercentile")


def _host_q(q, fname):
    if isinstance(q, ndarray):
        return q.get()
    if isinstance(q, (list, tuple, numpy.ndarray)):  # a parameter (host_input's policy), as CuPy takes it
        return numpy.asarray(q)
    if isinstance(q, (bool, int, float, numpy.generic)):
        return q
    raise TypeError("cuarray.{}: q must be a number, a sequence or NumPy array of numbers, or a cuarray array"
                    .format(fname))


# NumPy's _lerp in one pass for float32/float64 data and float64 weights t (q of a host array):
# lo + d t below t = 0.5, hi - d (1 - t) from it, d = hi - lo in the data's type, each product and
# sum rounded on its own as NumPy's separate ufuncs (__dmul_rn/__dadd_rn: no contraction to fma);
# the NaN variant returns the largest element where it is NaN (NumPy's NaN propagation).
_LERP_OP = ("T d = hi - lo; G omt = (G)1 - t; "
            "r = t >= 0.5 ? (double)hi - __dmul_rn((double)d, (double)omt) "
            ": __dadd_rn((double)lo, __dmul_rn((double)d, (double)t))")
_F8, _I4 = numpy.dtype(numpy.float64), numpy.dtype(numpy.int32)
# The same for a weak (Python float) q on float32/float64 data, in the data's type as NumPy's
# ufuncs with a weak scalar: d t with t rounded to T, hi - d (1 - t) with 1 - t taken in double and
# rounded to T, the side chosen by the exact t (`above`, from the host). One launch, not seven.
_LERP_WEAK_OP = ("T d = hi - lo; r = above ? cuarray::rn::sub(hi, cuarray::rn::mul(d, omt)) "
                 ": cuarray::rn::add(lo, cuarray::rn::mul(d, t))")
_ROUNDED = '#include "cuarray/rounded.cuh"'
_lerp_defs: dict = {}
_caches.register("quantile interpolation definitions", _lerp_defs)


def lerp_definition(weak: bool, nan: bool, dt, t_dt=_F8) -> Definition:
    """The engine's elementwise kernel of one interpolation: data of dtype `dt` (lo, hi and, with
    `nan`, the largest element `big`), weights t of dtype `t_dt` (an array), or (`weak`) the scalars
    t, 1 - t in `dt` and the side `above`."""
    key = (weak, nan, dt, t_dt)
    d = _lerp_defs.get(key)
    if d is None:
        params = [KernelParam("lo", "in", dt, dt), KernelParam("hi", "in", dt, dt)]
        if weak:
            params += [KernelParam("t", "scalar", dt, dt), KernelParam("omt", "scalar", dt, dt),
                       KernelParam("above", "scalar", _I4, _I4)]
            op, preamble, out = _LERP_WEAK_OP, "typedef {} T;\n".format(_dtypes.ctype(dt)) + _ROUNDED, dt
            if nan:
                op += "; if (big != big) r = big"
        else:
            params.append(KernelParam("t", "in", t_dt, t_dt))
            op, out = _LERP_OP, _F8
            preamble = "typedef {} G;\ntypedef {} T;\n".format(_dtypes.ctype(t_dt), _dtypes.ctype(dt))
            if nan:
                op += "; if (big != big) r = (double)big"
        if nan:
            params.append(KernelParam("big", "in", dt, dt))
        params.append(KernelParam("r", "out", out, out, by_ref=True))
        name = "cuarray_quantile_lerp" + ("_weak" if weak else "") + ("_nan" if nan else "")
        types = "_".join(p.dtype.name for p in params)
        d = _lerp_defs[key] = Definition("{}_{}".format(name, types), params, op, preamble=preamble)
    return d


def _lerp(lo, hi, t, big=None):
    """lo + (hi - lo) t as NumPy's `_lerp`, one launch: `t` a float64 array, or a float (the
    weak scalar); with `big`, NaN where `big` (the largest element) is NaN."""
    dt = lo._dtype
    arrays = [lo, hi]
    if isinstance(t, float):
        d = lerp_definition(True, big is not None, dt)
        scalars = (dt.type(t), dt.type(1 - t), numpy.int32(t >= 0.5))
    else:
        d = lerp_definition(False, big is not None, dt, t._dtype)
        arrays.append(t)
        scalars = ()
    if big is not None:
        arrays.append(big)
    shapes = [a._shape for a in arrays]
    shape = shapes[0] if len(set(shapes)) == 1 else _shapes.broadcast_shapes(*shapes)
    r = ndarray(shape, d.params[-1].dtype)
    d.run(arrays + [r], scalars, shape)
    return r


def _quantile(a, q, axis, out, method, keepdims, weights, interpolation, percent, skipnan, fname):
    a = as_array(a, fname)
    if a._dtype.kind in "Mm":
        raise TypeError("{} of {} is not supported on the GPU".format(fname, a._dtype))
    if interpolation is not None:
        warnings.warn("the `interpolation=` argument to {} was renamed to `method=`, which has additional "
                      "options.\nUsers of the modes 'nearest', 'lower', 'higher', or 'midpoint' are encouraged to "
                      "review the method they used. (Deprecated NumPy 1.22)".format(fname), DeprecationWarning,
                      stacklevel=3)
        method = interpolation
    if a._dtype.kind == "c":
        raise TypeError("a must be an array of real numbers")
    weak_q = type(q) in (int, float)
    q = _host_q(q, fname)
    if percent:
        q = numpy.true_divide(q, 100, out=...)
    q = numpy.asanyarray(q)
    if not _npq._quantile_is_valid(q):
        raise ValueError("Percentiles must be in the range [0, 100]" if percent else
                         "Quantiles must be in the range [0, 1]")
    if weights is not None:
        raise NotImplementedError("cuarray.{}: weights= is not supported".format(fname))
    if skipnan and a._size == 0:
        # NumPy's nan-quantiles answer an empty input with nanmean before looking at `method`
        # or q's shape (NaN, "Mean of empty slice"; the result has no q axis).
        res = nanmean(a, axis, out=out, keepdims=keepdims)
        if res.size:
            warnings.warn("Mean of empty slice", RuntimeWarning, stacklevel=3)
        return res
    if method not in _METHODS:
        raise ValueError("{!r} is not a valid method. Use one of: {}".format(method, _npq._QuantileMethods.keys()))
    if q.ndim > 2:
        raise ValueError("q must be a scalar or 1d")
    raxes = normalize_axes(axis, a.ndim)
    kshape = reduced_shape(a._shape, raxes, False)
    final = q.shape + reduced_shape(a._shape, raxes, keepdims)
    n = math.prod(a._shape[i] for i in raxes)
    rows = math.prod(kshape)
    if n == 0:  # NumPy's (numpy/numpy#29315): an empty reduced axis raises, rows or not
        raise IndexError("index -1 is out of bounds for axis 0 with size 0")

    x = moveaxis(a, raxes, tuple(range(a.ndim - len(raxes), a.ndim))) if raxes else a
    x = x.reshape(rows, n) if a.ndim else a.reshape(1, 1)
    res = _rows_quantile(x, q, method, weak_q, skipnan and a._dtype.kind == "f", fname)
    res = res.reshape(final)
    if out is not None:
        if not isinstance(out, ndarray):
            raise TypeError("out must be a cuarray ndarray, got {}".format(type(out)))
        if out._shape != final:
            raise ValueError("output array has the wrong shape: {} (expected {})".format(out._shape, final))

        copyto_unchecked(out, res)
        return out
    return res


def _rows_quantile(x: ndarray, q: numpy.ndarray, method, weak_q, skipnan, fname) -> ndarray:
    """The quantiles `q` of each row of the (rows, n) `x`: shape q.shape + (rows,)."""
    rows, n = x._shape
    inexact = x._dtype.kind == "f"
    if rows == 0:  # nothing to compute: NumPy's dtype, from NumPy on one element (weak q included)
        one = numpy.quantile(numpy.zeros(1, x._dtype), q.item() if weak_q else q, method=method)
        return ndarray(q.shape + (0,), one.dtype)
    nq = max(1, q.size)
    if skipnan:
        count = numpy.asarray(n - sum_(isnan(x), axis=1).get(), numpy.intp)  # valid values per row
        ranks, gamma = _ranks(count, n, q, method, x._dtype, True)
    else:  # the same ranks in every row: NumPy's arithmetic once per (n, q, method, dtype)
        ranks, gamma = _same_ranks(n, q.dtype.str, q.shape, q.tobytes(), method, x._dtype.str)
    last = inexact and not skipnan
    vals = _order_statistics(x, ranks).T  # (T, rows)
    lo = vals[:nq]
    if gamma is None:
        r = lo
    else:
        hi = vals[nq:2 * nq]
        if weak_q and not skipnan:
            t = float(numpy.asarray(gamma).reshape(-1)[0])
        elif weak_q:  # a Python float per row: what NumPy's weak scalar becomes in the input's type
            t = from_host(numpy.broadcast_to(gamma.reshape(nq, -1), (nq, rows)).astype(
                numpy.result_type(x._dtype, 0.0)))
        else:
            t = from_host(numpy.ascontiguousarray(gamma.reshape(nq, -1)))
        fused = not isinstance(t, float) and x._dtype.char in "fd" and t._dtype.char == "d"
        if fused:  # one kernel for the interpolation (and the NaN), not a dozen small ones
            r = _lerp(lo, hi, t, vals[-1:] if last else None)
            last = False
        elif isinstance(t, float) and x._dtype.char in "fd":
            r = _lerp(lo, hi, t, vals[-1:] if last else None)
            last = False
        else:
            d = subtract(hi, lo)
            r = add(lo, multiply(d, t))
            if isinstance(t, float):
                if t >= 0.5:
                    r = astype(subtract(hi, multiply(d, 1 - t)), r._dtype, copy=False)
            else:
                r2 = astype(subtract(astype(hi, r._dtype, copy=False), astype(multiply(d, subtract(1, t)), r._dtype,
                                                                                  copy=False)), r._dtype, copy=False)
                r = where(greater_equal(t, 0.5), r2, r)
    if last:
        big = vals[-1:]
        r = where(isnan(big), astype(big, r._dtype, copy=False), r)
    if skipnan and (count == 0).any():
        warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=4)
        empty = from_host((count == 0).reshape(1, -1))
        r = where(empty, numpy.float64(numpy.nan).astype(r._dtype), r)
        if count[0] == 0 and r._dtype != x._dtype:
            # NumPy answers row by row (apply_along_axis), its output typed by the first row's
            # answer, and an all-NaN row's answer is NaN of the input's dtype: so the first row
            # being all-NaN gives the input's dtype (float16 with q a float64 array).
            r = astype(r, x._dtype)
    return r.reshape(q.shape + (rows,))


def _ranks(count: numpy.ndarray, n: int, q: numpy.ndarray, method, dt, skipnan):
    """NumPy's index arithmetic for rows of `n` elements, `count` of them valid (one row of ranks
    without NaN skipping: every row has the same), data of dtype `dt`: (ranks (rows or 1, T)
    int64, gamma or None). The columns: each quantile's previous rank, then (gamma not None) its
    next rank, then (float data without NaN skipping) the last element (where a NaN sorts)."""
    props = _npq._QuantileMethods[method]
    qc = q.reshape(q.shape + (1,))  # quantiles along the first axis, rows along the last
    # NumPy computes each row with a Python int count (weak): an array of q's float type gives
    # the same arithmetic and dtype.
    cnt = (count.astype(q.dtype) if q.dtype.kind == "f" else count) if skipnan else int(count[0])
    vi = numpy.asanyarray(props["get_virtual_index"](cnt, qc))
    if props["fix_gamma"] is None or (method == "linear" and vi.dtype.kind in "iu"):
        prev, nxt, gamma = vi, None, None
    else:
        prev, nxt = _npq._get_indexes(numpy.empty(0, dt), vi, cnt)
        gamma = _npq._get_gamma(vi, prev, props)
    nq = max(1, q.size)
    # Without NaN skipping every row has the same ranks: one row of them, broadcast on the device
    # (131072 rows of 3 ranks uploaded 3 MiB a call).
    width = count.size if skipnan else 1
    cols = [numpy.broadcast_to(prev.reshape(nq, -1), (nq, width))]
    if nxt is not None:
        cols.append(numpy.broadcast_to(nxt.reshape(nq, -1), (nq, width)))
    if dt.kind == "f" and not skipnan:
        cols.append(numpy.full((1, width), -1))
    ranks = numpy.concatenate(cols).T.astype(numpy.int64)  # (rows or 1, T)
    top = numpy.maximum(count, 1).reshape(-1, 1) - 1  # a -1 index is the last valid element
    ranks = numpy.where(ranks < 0, ranks + top + 1, ranks)
    ranks = numpy.clip(ranks, 0, n - 1)
    return ranks, gamma


@functools.lru_cache(maxsize=256)
def _same_ranks(n, qdt, qshape, qbytes, method, dt):
    """`_ranks` of rows of `n` without NaN skipping, kept per call signature (the host arithmetic was
    a third of a flat percentile's host time); the arrays are read-only."""
    q = numpy.frombuffer(qbytes, qdt).reshape(qshape)
    ranks, gamma = _ranks(numpy.full(1, n, numpy.intp), n, q, method, numpy.dtype(dt), False)
    ranks.flags.writeable = False
    if gamma is not None:
        gamma = numpy.array(gamma)
        gamma.flags.writeable = False
    return ranks, gamma


def _order_statistics(x: ndarray, ranks: numpy.ndarray) -> ndarray:
    """(rows, T): the elements of the given ranks of each row of x (NumPy's sort order); `ranks`
    (rows, T), or (1, T) for the same ranks in every row."""
    rows, n = x._shape
    if _by == "sort" or (_by is None and rows > SORT_ROWS_ABOVE and n <= SORT_ROW_LENGTH_MAX):
        return by_sort(x, ranks)

    return select(x, ranks)


def by_sort(x: ndarray, ranks: numpy.ndarray) -> ndarray:
    """The same as `select`, through a sort of the rows (the sort engine), the ranks read out by
    one launch (`take`: no index planning, no error record, a row of ranks for every row)."""
    return take(_sort.sort(x, axis=-1), ranks)
