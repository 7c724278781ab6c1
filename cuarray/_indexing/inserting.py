"""Indexing-like operations and inserting data (NumPy "Indexing routines"): take, take_along_axis,
choose, compress, diagonal, select, extract, place, put, put_along_axis, putmask, fill_diagonal,
piecewise. Each is a view, one gather/scatter (`_core.indexing`), or a masked copy.

GPU differences: device index arrays out of range raise IndexError at the next synchronisation
point (docs/differences.md), except where NumPy's contract is an immediate error (`put` and
`choose` with mode='raise': one synchronisation); `put` with repeated indices keeps the last
value, like NumPy.
"""

from __future__ import annotations

import math
import warnings

import numpy

from .._core import shapes as _shapes
from .._core.copying import copyto_unchecked
from .._core.host_input import as_array, is_scalar
from .._core.ndarray import ndarray
from .._core.scan import exclusive_sum_1d
from .._core.transfer import from_host
from .._creation.basic import empty, zeros, zeros_like
from .._manipulation.basic import copyto
from .._manipulation.dims import broadcast_arrays, broadcast_shapes
from .._manipulation.joining import stack
from .._manipulation.tiling import tile

__all__ = ["take", "take_along_axis", "choose", "compress", "diagonal", "select", "extract", "place",
           "put", "put_along_axis", "putmask", "fill_diagonal", "piecewise"]


_INTP_MAX = 2 ** 63 - 1


class IndexOverflowError(IndexError, OverflowError):
    """An index beyond intp's range: NumPy's OverflowError (its C long conversion) and CuPy's
    IndexError (an index out of bounds) at once, so code catching either sees it."""


def _index_array(indices, casting):
    """Indices as a device integer array or a host intp array (host ones are checked on the host).
    `casting`: NumPy's rule for them ('same_kind' in take, 'safe' in put): bools are 0 and 1."""
    if isinstance(indices, ndarray):
        return indices
    arr = numpy.asarray(indices)
    if arr.dtype == object or (arr.dtype.kind == "u" and arr.size and int(arr.max()) > _INTP_MAX):
        big = [int(x) for x in arr.ravel() if isinstance(x, (int, numpy.integer)) and not -_INTP_MAX - 1 <= int(x) <= _INTP_MAX]
        if big or arr.dtype != object:
            value = big[0] if big else int(arr.max())
            raise IndexOverflowError("index {} is out of bounds: beyond the intp range".format(value))
    if arr.dtype.kind not in "iub":
        if arr.size == 0:
            return arr.astype(numpy.intp)
        raise TypeError("Cannot cast array data from {!r} to dtype('int64') according to the rule {!r}".format(
            arr.dtype, casting))
    return arr.astype(numpy.intp, copy=False)


# NumPy 2.5 casts take's `out` of any dtype (a DeprecationWarning where the kinds differ); NumPy 2.4
# refuses an `out` that its WRITEBACKIFCOPY copy could not cast back safely. Follow the NumPy installed.
_TAKE_OUT_ANY_DTYPE = numpy.lib.NumpyVersion(numpy.__version__) >= "2.5.0"


def _check_mode(mode):
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError("clipmode must be one of 'clip', 'raise', or 'wrap' (got {!r})".format(mode))


def _check_take_out(out, shape, dtype):
    """NumPy's checks of take's `out`, in its order: an array, the result's shape, then its dtype
    (NumPy 2.4: `out` must cast safely to `a`'s dtype; 2.5: any cast, warned across kinds)."""
    if not isinstance(out, ndarray):
        raise TypeError("output must be an array")
    if out.shape != shape:
        raise ValueError("output array does not match result of ndarray.take")
    if out.dtype == dtype:
        return
    if not _TAKE_OUT_ANY_DTYPE:
        if not numpy.can_cast(out.dtype, dtype, "safe"):
            raise TypeError("Cannot cast array data from {!r} to {!r} according to the rule 'safe'".format(
                out.dtype, dtype))
    elif not numpy.can_cast(dtype, out.dtype, "same_kind"):
        warnings.warn("Implicit casting of output to a different kind is deprecated. In a future version, this "
                      "will result in an error. (Deprecated NumPy 2.5)", DeprecationWarning, stacklevel=3)


def _apply_mode(idx, n, mode):
    _check_mode(mode)
    if mode == "raise":
        return idx
    if isinstance(idx, numpy.ndarray):
        if n == 0 and idx.size:
            raise IndexError("cannot do a non-empty take from an empty axes.")
        return numpy.mod(idx, n) if mode == "wrap" else numpy.clip(idx, 0, n - 1)
    # NumPy converts the indices to intp first: a uint8 index modulo an axis of 300 is no
    # OverflowError of the size as a uint8 scalar (NEP 50)
    idx = idx.astype(numpy.intp, copy=False)
    if mode == "wrap":
        return idx % n
    return idx.clip(0, n - 1)


def take(a, indices, axis=None, out=None, mode="raise"):
    """See `numpy.take`.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([4, 3, 5, 7, 6, 8])
    >>> cuarray.take(a, [0, 1, 4])
    array([4, 3, 6])
    >>> cuarray.take(a.reshape(2, 3), [0, 2], axis=1)
    array([[4, 5],
           [7, 8]])
    """
    a = as_array(a, "take")
    # NumPy's order: its argument parser (`out` an array, then the mode), the axis, the indices,
    # `out`'s shape and dtype, and only then an empty axis
    if out is not None and not isinstance(out, ndarray):
        raise TypeError("output must be an array")
    _check_mode(mode)
    if axis is None:
        a = a.reshape(-1)
        axis = 0
    elif a.ndim == 0:  # NumPy's PyArray_CheckAxis: a 0-d array is taken as 1-d
        a = a.reshape(-1)
    axis = _shapes.normalize_axis_index(axis, a.ndim)
    idx = _index_array(indices, "same_kind")
    shape = a.shape[:axis] + idx.shape + a.shape[axis + 1:]
    if out is not None:
        _check_take_out(out, shape, a.dtype)
    if a.shape[axis] == 0 and math.prod(shape):
        raise IndexError("cannot do a non-empty take from an empty axes.")
    if 0 in shape[:axis] or (a.shape[axis] == 0 and not idx.size) or (mode != "raise" and not math.prod(shape)):
        # nothing is gathered, so NumPy reads no index (an out-of-range one does not raise; with
        # 'clip' or 'wrap' none is out of range)
        res = ndarray(shape, a.dtype)
    else:
        idx = _apply_mode(idx, a.shape[axis], mode)
        if isinstance(idx, numpy.ndarray) and idx.ndim == 0:
            res = a[(slice(None),) * axis + (int(idx),)].copy()
        else:
            res = a[(slice(None),) * axis + (idx,)]
    if out is not None:
        out[...] = res
        return out
    return res


def _along_axis_index(arr, indices, axis, upload=True):
    # Host indices (as NumPy takes them) are checked on the host, bounds included, before their
    # upload: NumPy's IndexError at the call; device ones' bounds on the device (deferred). Without
    # `upload`, they stay host arrays, which an assignment checks after converting its values, as
    # NumPy's does.
    host = None if isinstance(indices, ndarray) else numpy.asarray(indices)
    ind = indices if host is None else host
    if ind.dtype.kind not in "iu":
        raise IndexError("`indices` must be an integer array")
    if axis is None:
        if ind.ndim != 1:
            raise ValueError("when axis=None, `indices` must have a single dimension.")
        arr, axis = arr.reshape(-1), 0
    else:
        axis = _shapes.normalize_axis_index(axis, arr.ndim)
        if ind.ndim != arr.ndim:
            raise ValueError("`indices` and `arr` must have the same number of dimensions")
    if host is not None:
        if upload:
            _check_host_bounds(host, arr.shape[axis], axis)
        indices = from_host(host) if upload else host
    if arr.ndim == 1:
        return arr, (indices,)
    idx = []
    for d in range(arr.ndim):
        if d == axis:
            idx.append(indices)
        else:
            shape = [1] * arr.ndim
            shape[d] = arr.shape[d]
            idx.append(numpy.arange(arr.shape[d]).reshape(shape))
    return arr, tuple(idx)


def _check_host_bounds(host, n, axis):
    """Host indices are checked at the call, as NumPy's (device ones on the device: deferred)."""
    if host is not None and host.size:
        bad = (host < -n) | (host >= n)
        if bad.any():
            raise IndexError("index {} is out of bounds for axis {} with size {}".format(int(host[bad].flat[0]), axis, n))


def take_along_axis(arr, indices, axis=-1):
    """See `numpy.take_along_axis`: one gather.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([[10, 30, 20], [60, 40, 50]])
    >>> cuarray.take_along_axis(a, cuarray.array([[0], [2]]), axis=1)
    array([[10],
           [50]])
    """
    arr = as_array(arr, "take_along_axis")
    a, idx = _along_axis_index(arr, indices, axis)
    return a[idx]


def put_along_axis(arr, indices, values, axis):
    """See `numpy.put_along_axis`: one scatter.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.zeros((2, 3), dtype=int)
    >>> cuarray.put_along_axis(a, cuarray.array([[0], [2]]), 1, axis=1)
    >>> a
    array([[1, 0, 0],
           [0, 0, 1]])
    """
    a, idx = _along_axis_index(arr, indices, axis, upload=False)
    a[idx] = values


def put(a, ind, v, mode="raise"):
    """See `numpy.put`: `a.flat[ind] = v`, `v` repeated as needed; empty `v` writes nothing (no
    index is checked, as in NumPy). With mode='raise', an index out of range in a host `ind` raises
    IndexError at once; in a device `ind`, at the next synchronisation, as every scatter's
    (`set_sync_index_checks(True)`: at once).

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.arange(5)
    >>> cuarray.put(a, [0, 2], cuarray.array([-44, -55]))   # host indices, device values
    >>> a
    array([-44,   1, -55,   3,   4])
    """
    if not isinstance(a, ndarray):
        raise TypeError("put() needs a cuarray array")
    if not a.flags.writeable:
        raise ValueError("assignment destination is read-only")
    # NumPy's PyArray_PutTo order: the mode, the indices' and values' conversions, an empty `a`
    # (even with mode='wrap' or empty values), empty values (nothing read), then the bounds.
    _check_mode(mode)
    raw = _index_array(ind, "safe")
    vv = None if is_scalar(v) else as_array(v, "put")  # (a scalar is uploaded once the indices pass)
    if a.size == 0 and raw.size > 0:
        raise IndexError("cannot replace elements of an empty array")
    if raw.size == 0 or (vv is not None and vv.size == 0):
        return
    idx = _apply_mode(raw, a.size, mode)
    if mode == "raise" and isinstance(idx, numpy.ndarray):
        bad = (idx < -a.size) | (idx >= a.size)
        if bad.any():
            raise IndexError("index {} is out of bounds for axis 0 with size {}".format(int(idx[bad].flat[0]), a.size))
    n = idx.size
    vv = (as_array(v, "put") if vv is None else vv).reshape(-1)
    if vv.size != n:
        vv = tile(vv, -(-n // vv.size))[:n]
    # NumPy's `a.flat` order is C order: a non-C-contiguous `a` is written through a C-ordered copy.
    target = a if a.flags.c_contiguous else a.copy(order="C")
    # Device indices out of range (mode='raise'): the scatter's IndexError surfaces at the next
    # synchronisation, as for `a.flat[idx] = v` (docs/differences.md, "Advanced indexing").
    target.reshape(-1)[idx.reshape(-1)] = vv
    if target is not a:
        copyto_unchecked(a, target)


def _safe_values(values, dt, name):
    """NumPy's conversion of place/putmask values to `dt`: an array must cast safely; Python
    scalars convert as NumPy's array(value, dt) does (a Python int must fit: NEP 50)."""
    if isinstance(values, (ndarray, numpy.ndarray)):
        if not numpy.can_cast(values.dtype, dt, "safe"):
            raise TypeError("Cannot cast array data from {!r} to {!r} according to the rule 'safe'".format(
                values.dtype, dt))
    elif type(values) in (int, float, complex, bool):
        numpy.asarray(values, dtype=dt)  # NumPy's own conversion errors (NEP 50 ints, NaN, complex)
    return values if is_scalar(values) else as_array(values, name)


def _same_size_mask(mask, a, name):
    mask = as_array(mask, name)
    if mask.size != a.size:
        raise ValueError("{}: mask and data must be the same size".format(name))
    return mask


def putmask(a, mask, values):
    """See `numpy.putmask`: values cycle over all positions of `a` (not only the masked ones).

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.arange(6)
    >>> cuarray.putmask(a, a > 2, cuarray.array([10, 20]))   # values cycle over all positions
    >>> a
    array([ 0,  1,  2, 20, 10, 20])
    """
    if not isinstance(a, ndarray):
        raise TypeError("putmask: first argument must be an array")
    mask = _same_size_mask(mask, a, "putmask")
    if mask.shape != a.shape:
        mask = mask.reshape(a.shape)  # NumPy pairs mask and data element by element in C order
    vals = _safe_values(values, a.dtype, "putmask")
    if isinstance(vals, ndarray) and vals.size != a.size:
        if vals.size == 0:
            return
        if vals.size != 1:
            vals = tile(vals.reshape(-1), -(-a.size // vals.size))[:a.size].reshape(a.shape)
        else:
            vals = vals.reshape(())
    elif isinstance(vals, ndarray):
        vals = vals.reshape(a.shape)
    copyto(a, vals, casting="unsafe", where=mask)


def place(arr, mask, vals):
    """See `numpy.place`: values cycle over the masked positions. No host synchronisation (one
    when `vals` is empty, to see whether any position is masked).

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.arange(6)
    >>> cuarray.place(a, a > 2, cuarray.array([10, 20]))     # values cycle over the masked positions
    >>> a
    array([ 0,  1,  2, 10, 20, 10])
    """
    if not isinstance(arr, ndarray):
        raise TypeError("place() argument 1 must be numpy.ndarray, not {}".format(type(arr).__name__))
    if not arr.flags.writeable:
        raise ValueError("assignment destination is read-only")
    mask = _same_size_mask(mask, arr, "place")
    vals = as_array(_safe_values(vals, arr.dtype, "place"), "place").reshape(-1)
    if mask.dtype != numpy.dtype(bool):
        mask = mask.astype(bool)
    # NumPy pairs mask and data element by element in C order. The k-th masked position (C order)
    # takes vals[k % vals.size]: a running count of the mask, a gather, and a masked copy into
    # `arr` itself, whatever its layout (a scatter through `arr.reshape(-1)` wrote into a copy
    # when `arr` was not C-contiguous).
    flat = mask.reshape(-1)
    if arr.size == 0:
        return
    if vals.size == 0:
        if bool(flat.any()):
            raise ValueError("Cannot insert from an empty array!")
        return
    if vals.size == 1:
        src = vals.reshape(())
    else:
        src = vals[exclusive_sum_1d(flat) % vals.size].reshape(arr.shape)
    copyto(arr, src, casting="unsafe", where=flat.reshape(arr.shape))


def extract(condition, arr):
    """See `numpy.extract`: ``take(ravel(arr), nonzero(ravel(condition))[0])``, so a condition
    shorter than `arr` selects from its start, and one longer may hold True only where `arr` has
    elements (else IndexError, as NumPy's; one more device read in that case).

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.arange(9).reshape(3, 3)
    >>> cuarray.extract(a % 3 == 0, a)
    array([0, 3, 6])
    """
    condition = as_array(condition, "extract")
    arr = as_array(arr, "extract")
    if condition.dtype != numpy.dtype(bool):
        condition = condition != 0
    cond, flat = condition.reshape(-1), arr.reshape(-1)
    if cond.size > flat.size:
        beyond = cond[flat.size:].nonzero()[0]  # (the method: _sorting sits above this folder)
        if beyond.size:
            raise IndexError("index {} is out of bounds for axis 0 with size {}".format(
                flat.size + int(beyond[0].get()), flat.size))
        cond = cond[:flat.size]
    return flat[:cond.size][cond]


def compress(condition, a, axis=None, out=None):
    """See `numpy.compress`.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([[1, 2], [3, 4], [5, 6]])
    >>> cuarray.compress([False, True, True], a, axis=0)
    array([[3, 4],
           [5, 6]])
    >>> cuarray.compress([True, False], a, axis=1)
    array([[1],
           [3],
           [5]])
    """
    a = as_array(a, "compress")
    # The condition selects, as an index does: host values are accepted (NumPy semantics).
    cond = condition if isinstance(condition, ndarray) else from_host(numpy.asarray(condition))
    if cond.ndim != 1:
        raise ValueError("condition must be a 1-d array")
    if axis is None or a.ndim == 0:
        a = a.reshape(-1)  # (NumPy takes a 0-d array as 1-d whatever the axis)
        axis = 0 if axis is None else axis
    axis = _shapes.normalize_axis_index(axis, a.ndim)
    n = a.shape[axis]
    if cond.dtype != numpy.dtype(bool):
        cond = cond != 0
    if cond.size > n:
        # NumPy takes the positions of the True entries: only a True beyond the axis is out of
        # bounds (one device read of that tail, as extract's)
        beyond = cond[n:].nonzero()[0]
        if beyond.size:
            # NumPy's compress is a take of cond's True positions: it checks an index only while
            # copying an outer row, so with no outer rows nothing is checked.
            shape = a.shape[:axis] + (int(cond.nonzero()[0].size),) + a.shape[axis + 1:]
            if n == 0 and math.prod(shape):
                raise IndexError("cannot do a non-empty take from an empty axes.")
            if math.prod(a.shape[:axis]) == 0:
                return _result_into(ndarray(shape, a.dtype), out)
            raise IndexError("index {} is out of bounds for axis {} with size {}".format(
                n + int(beyond[0].get()), axis, n))
        cond = cond[:n]
    if cond.size < n:
        full = zeros(n, bool)
        full[:cond.size] = cond
        cond = full
    return _result_into(a[(slice(None),) * axis + (cond,)], out)


def _result_into(res, out):
    """`res`, or `out` holding it."""
    if out is not None:
        out[...] = res
        return out
    return res


def choose(a, choices, out=None, mode="raise"):
    """See `numpy.choose`: one gather from the stacked (broadcast) choices.

    Examples
    --------
    >>> import cuarray
    >>> choices = cuarray.array([[0, 1, 2, 3], [10, 11, 12, 13], [20, 21, 22, 23]])
    >>> cuarray.choose(cuarray.array([2, 0, 1, 0]), choices)
    array([20,  1, 12,  3])
    """
    a = as_array(a, "choose")
    choices = [as_array(c, "choose") for c in choices]
    n = len(choices)
    if a.dtype.kind not in "iu":
        raise TypeError("Cannot cast array data from {!r} to dtype('int64') according to the rule 'safe'".format(a.dtype))
    bs = broadcast_arrays(a, *choices)
    a_b, choices = bs[0], bs[1:]
    stacked = stack(choices)
    if mode == "raise":
        # NumPy raises ValueError at once; an index gather would raise IndexError later. One read.
        if bool(((a_b < 0) | (a_b >= n)).any()):
            raise ValueError("invalid entry in choice array")
    idx = _apply_mode(a_b, n, mode)
    grids = []
    for d in range(a_b.ndim):
        shape = [1] * a_b.ndim
        shape[d] = a_b.shape[d]
        grids.append(numpy.arange(a_b.shape[d]).reshape(shape))
    res = stacked[(idx,) + tuple(grids)]
    if out is not None:
        out[...] = res
        return out
    return res


def select(condlist, choicelist, default=0):
    """See `numpy.select`: masked copies from the last condition to the first.

    Examples
    --------
    >>> import cuarray
    >>> x = cuarray.arange(6)
    >>> cuarray.select([x < 2, x > 3], [x, x ** 2], default=-1)
    array([ 0,  1, -1, -1, 16, 25])
    """
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if len(condlist) == 0:
        raise ValueError("select with an empty condition list is not possible")
    conds = [as_array(c, "select") for c in condlist]
    for i, c in enumerate(conds):
        if c.dtype != numpy.dtype(bool):
            raise TypeError("invalid entry {} in condlist: should be boolean ndarray".format(i))
    choices = [as_array(c, "select") for c in choicelist]
    dt = numpy.result_type(*[c.dtype for c in choices], default if not isinstance(default, ndarray) else default.dtype)
    shape = broadcast_shapes(*[c.shape for c in conds], *[c.shape for c in choices],
                             () if not isinstance(default, ndarray) else default.shape)

    out = empty(shape, dt)
    # NumPy broadcasts a Python int default as an array (int64) and casts it unsafely into the
    # result: no NEP 50 range check for it. It converts the default only where it writes it
    # (OverflowError past every integer type; an empty result takes any default, 2**64 too)
    if out.size:
        out[...] = numpy.asarray(default)[()] if type(default) is int else default
    for c, ch in zip(conds[::-1], choices[::-1]):
        copyto(out, ch, casting="unsafe", where=c)
    return out


def piecewise(x, condlist, funclist, *args, **kw):
    """See `numpy.piecewise`.

    Examples
    --------
    >>> import cuarray
    >>> x = cuarray.array([-2.0, -0.5, 0.5, 2.0])
    >>> cuarray.piecewise(x, [x < 0, x >= 0], [-1, lambda v: v * 10])
    array([-1., -1.,  5., 20.])
    """
    x = as_array(x, "piecewise")
    if isinstance(condlist, ndarray) and condlist.ndim == x.ndim:
        condlist = [condlist]
    if len(condlist) == 0:
        raise IndexError("list index out of range")  # NumPy looks at condlist[0]
    conds = [as_array(c, "piecewise") for c in condlist]
    # NumPy stacks the conditions (asarray(condlist, bool)): their shapes must be equal; each then
    # indexes x as a boolean index, so its shape must lead x's
    if len({c.shape for c in conds}) > 1:
        raise ValueError("setting an array element with a sequence. The requested array has an inhomogeneous "
                         "shape after 1 dimensions.")
    cs = conds[0].shape
    # (a boolean axis of length 0 matches any length: it selects nothing, as NumPy's indexing)
    if len(cs) > x.ndim or any(c != d and c != 0 for c, d in zip(cs, x.shape)):
        raise IndexError("boolean index did not match indexed array; dimension is {} but corresponding boolean "
                         "dimension is {}".format(x.shape, cs))
    for f in funclist:
        if type(f) in (int, float, complex) and not (type(f) is int and x.dtype.kind == "b"):
            numpy.asarray(f, dtype=x.dtype)  # NumPy's y[cond] = f converts f even where cond is empty
    if 0 in cs:
        if len(funclist) not in (len(conds), len(conds) + 1):
            raise ValueError("with {} condition(s), either {} or {} functions are expected".format(
                len(conds), len(conds), len(conds) + 1))
        return zeros_like(x)  # every condition (and "otherwise") selects nothing
    if len(cs) < x.ndim:
        conds = [c.reshape(cs + (1,) * (x.ndim - len(cs))) for c in conds]
    n = len(conds)
    if len(funclist) == n + 1:
        anyc = conds[0].astype(bool)
        for c in conds[1:]:
            anyc = anyc | c.astype(bool)
        conds.append(~anyc)
    elif len(funclist) != n:
        raise ValueError("with {} condition(s), either {} or {} functions are expected".format(n, n, n + 1))
    out = zeros_like(x)
    if x.size == 0:
        return out  # NumPy calls no function on an empty selection, and x selects nothing here
    for c, f in zip(conds, funclist):
        if callable(f):
            try:
                vals = f(x, *args, **kw)
            except Exception:
                # NumPy calls f only on the values c selects, not at all where it selects none:
                # one read, on this error path only, tells whether NumPy would have called it
                if not bool(c.any()):
                    continue
                raise
        else:
            vals = f
        copyto(out, vals, casting="unsafe", where=c)
    return out


def diagonal(a, offset=0, axis1=0, axis2=1):
    """See `numpy.diagonal`: a read-only view, like NumPy's.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.arange(9).reshape(3, 3)
    >>> cuarray.diagonal(a)
    array([0, 4, 8])
    >>> cuarray.diagonal(a, offset=-1)
    array([3, 7])
    """
    a = as_array(a, "diagonal")
    shape, strides, start = _shapes.diagonal(a._shape, a._strides, offset, axis1, axis2)
    v = ndarray._view(shape, strides, a._dtype, a.data + start if start else a.data, a)
    v._writeable = False
    return v


def fill_diagonal(a, val, wrap=False):
    """See `numpy.fill_diagonal`: a strided view of the flat array, filled in place.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.zeros((3, 3), dtype=int)
    >>> cuarray.fill_diagonal(a, 5)
    >>> a
    array([[5, 0, 0],
           [0, 5, 0],
           [0, 0, 5]])
    """
    if a.ndim < 2:
        raise ValueError("array must be at least 2-d")
    if a.ndim == 2:
        step = a.shape[1] + 1
        end = None if wrap else a.shape[1] * a.shape[1]
    else:
        if len(set(a.shape)) != 1:
            raise ValueError("All dimensions of input must be of equal length")
        step = 1 + int(numpy.cumprod(a.shape[:-1]).sum())
        end = None
    if not a.flags.writeable:
        raise ValueError("assignment destination is read-only")
    if not a.flags.c_contiguous:
        # NumPy fills `a.flat[::step]` (C order): fill a C-ordered copy, then write it back.
        tmp = a.copy(order="C")
        fill_diagonal(tmp, val, wrap)
        copyto_unchecked(a, tmp)
        return
    if type(val) in (float, complex) or (type(val) is int and a.dtype.kind in "iu"):
        # NumPy's flat assignment converts as array(val, dtype), even with nothing to fill: an
        # out-of-range int (NEP 50), NaN/inf into ints, complex into reals raise (any int is a bool)
        numpy.asarray(val, dtype=a.dtype)
    if type(val) is int and a.dtype.kind == "b":
        val = bool(val)  # NumPy's flat assignment takes any int as a bool (a fill takes it through a C long)
    elif isinstance(val, (numpy.generic, numpy.ndarray)) and numpy.ndim(val) == 0 and val.dtype != a.dtype:
        # and a NumPy scalar through an unsafe cast (NaN into an int array is its 'integer
        # indefinite', with its RuntimeWarning; -3.5 into uint8 is 253): cast here, as NumPy's
        val = numpy.asarray(val).astype(a.dtype)[()]
    flat = a.reshape(-1)
    target = flat[:end:step]
    if isinstance(val, ndarray) or numpy.ndim(val) > 0:
        vals = as_array(val, "fill_diagonal").reshape(-1)
        m = target.size
        if vals.size != m and vals.size:
            vals = tile(vals, -(-m // vals.size))[:m]
        target[...] = vals
    else:
        target[...] = val
