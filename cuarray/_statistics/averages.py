"""Averages and variances (NumPy "Statistics / Averages and variances"): mean, average, var, std,
nanmean, nanvar, nanstd.

mean is one reduction whose post-map divides by the count. var/std are two: the mean (kept
dimensions, in the accumulator dtype) and the sum of squared deviations from it, divided by
max(n - ddof, 0), as NumPy computes them (not a one-pass formula, which loses precision).
Float16 accumulates in float32. The nan* forms and `where=` count per output with one more
reduction and divide elementwise.

GPU differences: nanmean/nanvar of an all-NaN slice give NaN without NumPy's RuntimeWarning, and
the warnings of empty slices (mean of empty / ddof >= n) are decided from shapes only.
`average` with weights synchronises once to raise ZeroDivisionError on zero weight sums.
"""

from __future__ import annotations

import warnings

import numpy

from .._core import dtypes as _dtypes
from .._core import reduction_ops as _r
from .._core import shapes as _shapes
from .._core import tracing as _tracing
from .._core.copying import copyto_unchecked, fill
from .._core.host_input import as_array
from .._core.ndarray import ndarray
from .._manipulation.dims import broadcast_to
from .._math.arithmetic import multiply, subtract, true_divide
from .._math.extrema import maximum
from .._math.misc import sqrt

__all__ = ["mean", "average", "var", "std", "nanmean", "nanvar", "nanstd"]

_F8 = numpy.dtype(numpy.float64)
_DIVIDE = "y = cuarray::cast<$Y>(a / _acc_t(_div))"
_DIVIDE_SQRT = "y = cuarray::cast<$Y>(::sqrt(a / _acc_t(_div)))"
# The same from the one-pass `moments` accumulator (its sum of squared deviations), and from the
# shifted sums of `moments_shift`.
_M2_DIVIDE = "y = cuarray::cast<$Y>(a.m2 / _val_t(_div))"
_M2_DIVIDE_SQRT = "y = cuarray::cast<$Y>(::sqrt(a.m2 / _val_t(_div)))"
_M2S_DIVIDE = "y = cuarray::cast<$Y>(cuarray::shifted_m2(a) / _val_t(_div))"
_M2S_DIVIDE_SQRT = "y = cuarray::cast<$Y>(::sqrt(cuarray::shifted_m2(a) / _val_t(_div)))"
# How var/std of real input without where=/mean= reduce (`_var(..., method=)`; tests and
# scripts/perf/var_variants.py pass each; docs/perf-notes.md, "var/std in one pass"):
# one pass with Welford's update in a thread ("welford": output-vector plans with one load a round
# per accumulator set, 2 for float32) or shifted sums in a thread ("shift"), each also with a sum's 8
# loads a round folded into those sets ("-wide"; "welford-wide4/8": into 4 or 8 independent Welford
# sets, more registers), or the two passes (mean, then squared deviations).
VAR_METHODS = ("welford", "welford-wide", "welford-wide4", "welford-wide8", "shift", "shift-wide", "two-pass")
VAR_METHOD = "welford-wide"
_ONE_PASS = {"welford": ("moments", False, "", _M2_DIVIDE, _M2_DIVIDE_SQRT),
             "welford-wide": ("moments", True, "", _M2_DIVIDE, _M2_DIVIDE_SQRT),
             "welford-wide4": ("moments", 4, "", _M2_DIVIDE, _M2_DIVIDE_SQRT),
             "welford-wide8": ("moments", 8, "", _M2_DIVIDE, _M2_DIVIDE_SQRT),
             "shift": ("moments_shift", False, "_shift", _M2S_DIVIDE, _M2S_DIVIDE_SQRT),
             "shift-wide": ("moments_shift", True, "_shift", _M2S_DIVIDE, _M2S_DIVIDE_SQRT)}


def _ufuncs():
    return subtract, true_divide, maximum, sqrt


def _count(a, raxes) -> int:
    n = 1
    for i in raxes:
        n *= a.shape[i]
    return n


def _acc(dt):
    return numpy.dtype(numpy.float32) if dt.char == "e" else dt


def _real(dt):
    return numpy.dtype(dt.char.lower()) if dt.kind == "c" else dt


def _finish(val, res_dtype, out, keepdims_shape=None):
    """`val` cast into `out` (or a new array of `res_dtype`)."""
    if out is not None:
        copyto_unchecked(out, val)
        return out
    if val.dtype != res_dtype:
        val = val.astype(res_dtype)
    return val


def _where_count(a, axis, where, keepdims):
    """Per-output count of True in `where` broadcast to a's shape (int64)."""
    return _r.reduce("count_nonzero", broadcast_to(where, a.shape), axis, None, None, keepdims)


def mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    """See `numpy.mean`. Integers average in float64; float16 accumulates in float32.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([[1, 2], [3, 4]])
    >>> cuarray.mean(a, axis=0)
    array([2., 3.])
    >>> float(a.mean())  # a host value: waits for the GPU
    2.5
    """
    if _tracing.active:  # the dispatch point for a tracer (`_core/tracing.py`)
        t = _tracing.state.tracer
        if t is not None:
            return t.call("mean", mean, (a,), {"axis": axis, "dtype": dtype, "out": out, "keepdims": keepdims,
                                               "where": where})
    key = None
    if out is None and where is True:
        key = _r.fast_key("mean", a, axis, keepdims, dtype)
        f = _r._fast.get(key)
        if f is not None:
            return f(a)
    a = as_array(a, "mean")
    raxes = _r.normalize_axes(axis, a.ndim)
    dtype = None if dtype is None else _dtypes.normalize_dtype(dtype)
    res = _r.result_dtype(numpy.mean, a.dtype, dtype)
    acc = _mean_acc(a, dtype)
    if where is True:
        n = _count(a, raxes)
        if n == 0:
            warnings.warn("Mean of empty slice.", RuntimeWarning, stacklevel=2)
        return _r.reduce("sum", a, raxes, None, out, keepdims, res_dtype=res, acc=acc, post=_DIVIDE,
                         scalars=(("_div", numpy.float64(n)),), tag="mean", fast_key=key)
    _, true_divide, _, _ = _ufuncs()
    s = _r.reduce("sum", a, raxes, None, None, keepdims, where=where, res_dtype=acc, acc=acc)
    c = _where_count(a, raxes, where, keepdims).astype(_real(acc))
    return _finish(true_divide(s, c), res, out)


def _mean_acc(a, dtype):
    if dtype is not None:
        return _acc(_dtypes.normalize_dtype(dtype))
    return _F8 if a.dtype.kind in "biu" else _acc(a.dtype)


def _ddof(ddof, correction):
    if correction is not None:
        if ddof != 0:
            raise ValueError("ddof and correction can't be provided simultaneously.")
        return correction
    return ddof


def _var(a, axis, dtype, out, ddof, keepdims, where, mean_arr, root, fn, method=None):
    """var (std with `root`) of NumPy's `fn`; `method`: one of VAR_METHODS (None: VAR_METHOD)."""
    if method is None:
        method = VAR_METHOD
    elif method not in VAR_METHODS:
        raise ValueError("method must be one of {}, got {!r}".format(VAR_METHODS, method))
    key = None
    if out is None and where is True and mean_arr is None and ddof.__class__ in (int, float):
        # A repeated call goes from one look-up to the prepared launch (reduction_ops' fast path;
        # the key holds ddof, which the launch's divisor depends on). Before: ~10 us more host
        # time a call than a sum's (scripts/perf/var_variants.py's `host` clock).
        key = _r.fast_key((fn, ddof, method), a, axis, keepdims, dtype)
        f = _r._fast.get(key)
        if f is not None:
            return f(a)
    a = as_array(a, fn.__name__)
    raxes = _r.normalize_axes(axis, a.ndim)
    res = _r.result_dtype(fn, a.dtype, None if dtype is None else _dtypes.normalize_dtype(dtype))
    macc = _mean_acc(a, dtype)
    racc = _real(macc)
    if where is True:
        n = _count(a, raxes)
        div = n - ddof
        if mean_arr is None and a.dtype.kind in "biuf" and method != "two-pass":
            # One pass (Welford/Chan): one read of `a` where the mean, then the deviations, read it twice.
            op, wide, suffix, post, post_root = _ONE_PASS[method]
            if div <= 0:
                warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning, stacklevel=3)
                key = None  # the warning comes with every call
            return _r.reduce(op, a, raxes, None, out, keepdims, res_dtype=res, acc=racc,
                             post=post_root if root else post, scalars=(("_div", numpy.float64(max(div, 0))),),
                             tag=("std" if root else "var") + suffix, fast_key=key, wide=wide)
        if mean_arr is None:
            mean_arr = _r.reduce("sum", a, raxes, None, None, True, res_dtype=macc, acc=macc, post=_DIVIDE,
                                 scalars=(("_div", numpy.float64(n)),), tag="mean")
        if div <= 0:
            warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning, stacklevel=3)
        return _r.reduce("sqdev", a, raxes, None, out, keepdims, extra=(("m", mean_arr),), res_dtype=res, acc=racc,
                         post=_DIVIDE_SQRT if root else _DIVIDE, scalars=(("_div", numpy.float64(max(div, 0))),),
                         tag="std" if root else "var")
    c = _where_count(a, raxes, where, True).astype(racc)
    if mean_arr is None:
        mean_arr = true_divide(_r.reduce("sum", a, raxes, None, None, True, where=where, res_dtype=macc, acc=macc), c)
    return _var_of_counts(a, raxes, where, c, mean_arr, "sqdev", (res, racc), ddof, root, keepdims, out)


def _var_of_counts(a, raxes, where, c, m, sqdev, dtypes, ddof, root, keepdims, out):
    """The variance (std with `root`) from each slice's element count `c` and mean `m` (dims kept):
    the squared deviations' sum (the reduction `sqdev`: "sqdev", or "nansqdev", which skips NaN)
    over max(c - ddof, 0), in NumPy's shape and result dtype (`dtypes`: result, real accumulator).
    var's masked path and nanvar's: their counts and means differ, not what follows."""
    subtract, true_divide, maximum, sqrt = _ufuncs()
    res, racc = dtypes
    ss = _r.reduce(sqdev, a, raxes, None, None, True, where=where, extra=(("m", m),), res_dtype=racc, acc=racc)
    v = true_divide(ss, maximum(subtract(c, ddof), 0))
    if root:
        v = sqrt(v)
    if not keepdims:
        v = v.reshape(_r.reduced_shape(a.shape, raxes, False))
    return _finish(v, res, out)


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None, correction=None):
    """See `numpy.var` (ddof, correction, mean=, where=). Complex input gives a real variance.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([1., 2., 3., 4.])
    >>> float(cuarray.var(a))  # a host value: waits for the GPU
    1.25
    >>> float(cuarray.var(a, ddof=1))
    1.6666666666666667
    """
    return _var(a, axis, dtype, out, _ddof(ddof, correction), keepdims, where, mean, False, numpy.var)


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None, correction=None):
    """See `numpy.std`.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([1., 2., 3., 4.])
    >>> float(cuarray.std(a))
    1.118033988749895
    >>> cuarray.std(cuarray.array([[1., 3.], [2., 6.]]), axis=1)
    array([1., 2.])
    """
    return _var(a, axis, dtype, out, _ddof(ddof, correction), keepdims, where, mean, True, numpy.std)


def _nan_axis(a, axis):
    """NumPy's nan-statistics of float/complex input reduce with np.sum, which lets an int axis 0
    or -1 reduce a 0-d array (its integer input goes to mean/var, which refuse it)."""
    if a.ndim == 0 and isinstance(axis, (int, numpy.integer)) and axis in (0, -1):
        return None
    return axis


def nanmean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    """See `numpy.nanmean`. An all-NaN slice gives NaN (without NumPy's warning).

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([1., cuarray.nan, 3.])
    >>> float(cuarray.nanmean(a))
    2.0
    """
    a = as_array(a, "nanmean")
    if a.dtype.kind not in "fc":
        return mean(a, axis, dtype, out, keepdims, where=where)
    raxes = _r.normalize_axes(_nan_axis(a, axis), a.ndim)
    res = _r.result_dtype(numpy.nanmean, a.dtype, None if dtype is None else _dtypes.normalize_dtype(dtype))
    acc = _mean_acc(a, dtype)
    _, true_divide, _, _ = _ufuncs()
    s = _r.reduce("nansum", a, raxes, None, None, keepdims, where=where, res_dtype=acc, acc=acc)
    c = _r.reduce("count_notnan", a, raxes, None, None, keepdims, where=where)
    return _finish(true_divide(s, c.astype(_real(acc))), res, out)


def _nanvar(a, axis, dtype, out, ddof, keepdims, where, root, fn):
    a = as_array(a, fn.__name__)
    if a.dtype.kind not in "fc":
        return _var(a, axis, dtype, out, ddof, keepdims, where, None, root, numpy.std if root else numpy.var)
    raxes = _r.normalize_axes(_nan_axis(a, axis), a.ndim)
    res = _r.result_dtype(fn, a.dtype, None if dtype is None else _dtypes.normalize_dtype(dtype))
    macc = _mean_acc(a, dtype)
    racc = _real(macc)
    c = _r.reduce("count_notnan", a, raxes, None, None, True, where=where).astype(racc)
    m = true_divide(_r.reduce("nansum", a, raxes, None, None, True, where=where, res_dtype=macc, acc=macc), c)
    return _var_of_counts(a, raxes, where, c, m, "nansqdev", (res, racc), ddof, root, keepdims, out)


def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None, correction=None):
    """See `numpy.nanvar`.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([1., cuarray.nan, 3.])
    >>> float(cuarray.nanvar(a))
    1.0
    """
    if mean is not None:
        raise NotImplementedError("nanvar(mean=...) is not supported")
    return _nanvar(a, axis, dtype, out, _ddof(ddof, correction), keepdims, where, False, numpy.nanvar)


def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None, correction=None):
    """See `numpy.nanstd`.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([1., cuarray.nan, 3.])
    >>> float(cuarray.nanstd(a))
    1.0
    """
    if mean is not None:
        raise NotImplementedError("nanstd(mean=...) is not supported")
    return _nanvar(a, axis, dtype, out, _ddof(ddof, correction), keepdims, where, True, numpy.nanstd)


def average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    """See `numpy.average`. With weights, synchronises once to check for a zero weight sum.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([1., 2., 3.])
    >>> float(cuarray.average(a, weights=cuarray.array([3., 1., 0.])))
    1.25
    """
    a = as_array(a, "average")
    if axis is not None:  # NumPy's first check, whatever the weights (a 0-d array has no axis 0)
        axis = _shapes.normalize_axis_tuple(axis, a.ndim, argname="axis")
    if weights is None:
        avg = mean(a, axis, keepdims=keepdims)
        if avg.size == 0:  # NumPy scales by a.size / avg.size in Python floats, returned or not
            raise ZeroDivisionError("division by zero")
        n = a.size // avg.size
        scl = None
        if returned:
            scl = ndarray(avg.shape, avg.dtype)
            fill(scl, n)
    else:
        w = as_array(weights, "average")
        if a.dtype.kind in "biu":
            rdt = numpy.result_type(a.dtype, w.dtype, "f8")
        else:
            rdt = numpy.result_type(a.dtype, w.dtype)
        if a.shape != w.shape:
            if axis is None:
                raise TypeError("Axis must be specified when shapes of a and weights differ.")
            # NumPy 2's rule: the weights' shape is a's along the given axes, in that order
            if w.shape != tuple(a.shape[ax] for ax in axis):
                raise ValueError("Shape of weights must be consistent with shape of a along specified axis.")
            # (a view: weight axis j along a's axis axis[j], length 1 elsewhere)
            pos = {ax: j for j, ax in enumerate(axis)}
            w = ndarray._view(tuple(a.shape[ax] if ax in pos else 1 for ax in range(a.ndim)),
                              tuple(w.strides[pos[ax]] if ax in pos else 0 for ax in range(a.ndim)),
                              w.dtype, w.data, w)

        scl = _r.reduce("sum", w, axis, rdt, None, keepdims)
        if bool(_r.reduce("any", scl == 0).get()):
            raise ZeroDivisionError("Weights sum to zero, can't be normalized")
        avg = true_divide(_r.reduce("sum", multiply(a, w, dtype=rdt), axis, None, None, keepdims), scl)
    if returned:
        if scl.shape != avg.shape:
            scl = broadcast_to(scl, avg.shape).copy()
        return avg, scl
    return avg
