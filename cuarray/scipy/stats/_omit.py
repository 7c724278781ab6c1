"""SciPy's `nan_policy='omit'` with NaNs present, for the statistics that reduce along an axis:
each slice is reduced over its non-NaN values (positions where any paired sample is NaN are
dropped from all of them, as SciPy's `_axis_nan_policy` does for paired samples).

On the device: the slices are moved to rows, the non-NaN values of each row stably moved to its
front (one argsort of the NaN mask), the per-row counts read once, and the statistic computed
once per distinct count on the rows that have it (the first k columns), results scattered back.
So the launches grow with the number of distinct counts, not with the number of slices."""

from __future__ import annotations

import functools
import inspect

import numpy

from ..._core.host_input import as_literal_or_array
from ..._creation.basic import empty
from ..._creation.from_data import asarray
from ..._indexing.inserting import take, take_along_axis
from ..._logic.content import isnan
from ..._logic.truth import any as any_
from ..._manipulation.dims import broadcast_to, expand_dims
from ..._manipulation.joining import concatenate
from ..._manipulation.transpose import moveaxis
from ..._math.sums import sum as sum_
from ..._sorting.sorting import argsort

__all__ = ["omit_nans", "omit_reduce", "has_nan"]


def has_nan(arrays) -> bool:
    """Whether any floating array holds a NaN (one device read for all)."""
    flags = [any_(isnan(x)).reshape(1) for x in arrays if x.dtype.kind in "fc" and x.size]
    if not flags:
        return False
    return bool(any_(concatenate(flags)).get())


def omit_reduce(fn, arrays, axis, keepdims=False):
    """fn(*rows) over the non-NaN values of each slice along `axis` of the (broadcast) `arrays`;
    `fn` takes 2-D (rows, k) arrays reduced along their last axis and returns an array (or a tuple
    of arrays) whose last axis is the rows."""
    ndim = max(x.ndim for x in arrays)
    if axis is None:
        arrays = [broadcast_to(x, numpy.broadcast_shapes(*(y.shape for y in arrays))).ravel() for x in arrays]
        ax = 0
    else:
        ax = axis
    shape = numpy.broadcast_shapes(*(x.shape for x in arrays))
    ax = ax % len(shape)
    moved = [moveaxis(broadcast_to(x, shape), ax, -1) for x in arrays]
    batch, n = moved[0].shape[:-1], moved[0].shape[-1]
    rows = [m.reshape(-1, n) for m in moved]
    nan = isnan(rows[0]) if rows[0].dtype.kind in "fc" else None
    for r in rows[1:]:
        if r.dtype.kind in "fc":
            nan = isnan(r) if nan is None else (nan | isnan(r))
    order = argsort(nan.astype(numpy.int8), axis=-1, kind="stable")  # non-NaN first, in order
    rows = [take_along_axis(r, order, axis=-1) for r in rows]
    counts = (n - sum_(nan, axis=-1)).get()
    parts = []
    single = True
    for k in numpy.unique(counts):
        idx = asarray(numpy.nonzero(counts == k)[0])
        res = fn(*(take(r, idx, axis=0)[:, :int(k)] for r in rows))
        single = not isinstance(res, tuple)
        parts.append((idx, (res,) if single else res))
    outs = []
    for j in range(len(parts[0][1])):
        pieces = [asarray(p[1][j]) for p in parts]
        dt = numpy.result_type(*(p.dtype for p in pieces))
        extra = pieces[0].shape[:-1]
        out = empty((len(counts),) + extra, dtype=dt)  # rows first: a plain row scatter
        for (idx, _), p in zip(parts, pieces):
            out[idx] = moveaxis(p, -1, 0) if p.ndim else p
        out = moveaxis(out, 0, -1).reshape(extra + batch)
        if keepdims:
            out = out.reshape(extra + (1,) * ndim) if axis is None else expand_dims(out, len(extra) + ax)
        outs.append(out)
    return outs[0] if single else tuple(outs)


def omit_nans(*names, result=None):
    """Decorator: `nan_policy='omit'` for a reducing statistic whose sample arguments are `names`
    (paired); without a NaN the function runs as 'propagate'. `result` rebuilds a named result
    from the tuple of arrays."""
    def deco(f):
        sig = inspect.signature(f)

        @functools.wraps(f)
        def wrapper(*args, **kwargs):
            ba = sig.bind(*args, **kwargs)
            ba.apply_defaults()
            if ba.arguments.get("nan_policy") != "omit":
                return f(*args, **kwargs)
            arrays = [as_literal_or_array(ba.arguments[n], f.__name__) for n in names if ba.arguments.get(n) is not None]
            kw = dict(ba.arguments)
            kw["nan_policy"] = "propagate"
            if not has_nan(arrays):
                return f(**kw)
            used = [n for n in names if ba.arguments.get(n) is not None]

            def per(*subs):
                call = dict(kw)
                call.update(zip(used, subs))
                call["axis"] = -1
                if "keepdims" in call:
                    call["keepdims"] = False
                r = f(**call)
                return tuple(r) if isinstance(r, tuple) else r

            out = omit_reduce(per, arrays, ba.arguments.get("axis", 0), ba.arguments.get("keepdims", False))
            return result(*out) if result is not None else out
        return wrapper
    return deco
