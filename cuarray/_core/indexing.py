"""Indexing: basic indices as view arithmetic; advanced indices as one gather / scatter kernel.

`x[index]` first tries `shapes.basic_index` (ints, slices, Ellipsis, None: a view, no kernel).
Anything with an array or a boolean goes through `index_plan.plan_index` (host-side planning: the
basic view, which of its axes the index arrays read, NumPy's placement of the broadcast dims) and
then one kernel from `index_kernels`:

- integer arrays (cuarray, NumPy, lists; int of any width) -> gather / scatter;
- boolean arrays held on the host -> `numpy.nonzero` on the host, then as integer arrays;
- a boolean cuarray mask over the leading axes of the view -> one prefix sum + one compaction
  kernel, with one host synchronisation to learn the result's length (`x[mask] = scalar` needs
  none: it is a masked copy); elsewhere in the index -> `nonzero` on the device, then gather.

Out-of-bounds indices: host index arrays are checked on the host (NumPy's IndexError at once).
Device index arrays are checked by the kernel, which skips the access, writes 0 and records the
first offending (value, axis, size) in a small per-device error buffer (`device_errors`):
`check_index_errors()` raises it as IndexError at the next synchronisation point (`get`, `item`, `bool`,
`Stream.synchronize`, ...), or at once with `set_sync_index_checks(True)` /
``CUARRAY_SYNC_INDEX_CHECKS=1``. See docs/differences.md.

Repeated indices in `x[idx] = v`: the last occurrence (in C order of the broadcast index) wins, as
in NumPy: the scatter first claims each destination with an atomicMax of the writer's position
into a scratch buffer (8 bytes per indexed position), then only the winner writes. The claim pass
is skipped when `v` does not vary along the index (a scalar, or broadcast) or when the index
comes from a boolean mask (no repeats possible).
"""

from __future__ import annotations

import numpy

from . import datetimes as _datetimes
from . import device_check as _device_check
from . import device_errors as _errors
from . import dtypes as _dtypes
from . import copying as _copying
from . import index_kernels as _ik
from . import mask_compact as _mask_compact
from . import index_plan as _plan
from . import host_input as _host_input
from . import tracing as _tracing
from . import scan as _scan
from . import shapes as _shapes
from . import structured as _structured
from .interop import from_foreign
from .ndarray import ndarray
from .transfer import from_host
from .dtypes import PY_SCALARS as _PY_SCALARS

__all__ = ["getitem", "setitem", "ufunc_at", "mask_nonzero"]

_INTP = numpy.dtype(numpy.intp)
_I64 = numpy.dtype(numpy.int64)
_BOOL = numpy.dtype(bool)

def _prefix(mask_flat: ndarray):
    """(prefix array, count) of a contiguous 1-D bool array; one host synchronisation."""
    n = mask_flat._size
    dt = numpy.dtype(numpy.int32) if n < 2**31 - 1 else _I64
    pre = _scan.inclusive_sum_1d(mask_flat, dt)
    if n == 0:
        return pre, 0
    host = numpy.zeros(1, dt)
    pre.data.__add__((n - 1) * dt.itemsize).copy_to_host(host.ctypes.data, dt.itemsize)
    _errors.check_index_errors()  # a synchronisation point that happens anyway
    return pre, int(host[0])


def _flat_mask(mask: ndarray) -> ndarray:
    if mask._dtype != _BOOL:
        mask = mask.astype(_BOOL)
    if not mask._c:
        mask = _copying.copy(mask)
    return ndarray._view((mask._size,), (1,), _BOOL, mask.data, mask, True, True)


def mask_nonzero(mask: ndarray, layout="rows"):
    """Coordinates of the true elements of a device boolean array: an int64 array of shape
    (ndim, count) ("rows", for nonzero) or (count, ndim) ("cols", for argwhere)."""
    k = mask.ndim
    flat = _flat_mask(mask)
    if 1 <= k <= _mask_compact.MAX_COORD_DIMS:
        return _mask_compact.coords(flat, mask._shape, layout)  # no per-element prefix array
    pre, count = _prefix(flat)
    shape = (k, count) if layout == "rows" else (count, k)
    out = ndarray(shape, _I64)
    if count and k:
        sd, sp = (count, 1) if layout == "rows" else (1, k)
        scal = tuple(numpy.int64(d) for d in mask._shape[1:]) + (numpy.int64(sd), numpy.int64(sp))
        _ik.nonzero_def(k, pre._dtype).run((), scal, (flat._size,), raw=(flat, pre, out), size=flat._size)
    return out, count


# -- index preparation ---------------------------------------------------------------------------

def _as_device(host: numpy.ndarray) -> ndarray:
    """An index array held on the host, uploaded (indices are host values, as in NumPy)."""
    return from_host(host)


def _prepare(a: ndarray, index):
    """(plan, items, specs): items keep device arrays, host arrays as NumPy arrays."""
    items = _plan.normalize_items(index)
    specs = []
    for k, it in enumerate(items):
        if isinstance(it, ndarray) or (hasattr(it, "__cuda_array_interface__") and not isinstance(it, numpy.ndarray)):
            if not isinstance(it, ndarray):
                it = items[k] = from_foreign(it)
            kind = it._dtype.kind
            if kind == "b":
                specs.append(_plan.ArraySpec(it._shape, True))
            elif kind in "iu":
                if it.ndim == 0:
                    items[k] = int(it.get())  # NumPy treats a 0-d integer array as an integer
                    specs.append(items[k])
                else:
                    specs.append(_plan.ArraySpec(it._shape, False))
            else:
                raise IndexError(_plan.INDEX_ERROR)
        elif type(it) is bool or isinstance(it, numpy.bool_):
            specs.append(_plan.ArraySpec((), True))
        elif isinstance(it, (list, tuple, numpy.ndarray)):
            arr = numpy.asarray(it)
            if arr.dtype.kind not in "biu":
                if arr.size == 0:
                    arr = arr.astype(_INTP)  # `x[[]]`: NumPy indexes with an empty integer array
                else:
                    raise IndexError(_plan.INDEX_ERROR)
            if arr.dtype.kind in "iu" and arr.ndim == 0:
                items[k] = int(arr)
                specs.append(items[k])
                continue
            items[k] = arr
            specs.append(_plan.ArraySpec(arr.shape, arr.dtype == bool))
        else:
            specs.append(it)
    plan = _plan.plan_index(a._shape, specs)
    return plan, items


def _index_arrays(plan, items, view_shape):
    """Device index arrays per plan entry, host arrays checked on the host. Returns
    (arrays, from_mask) where from_mask says every array came from a boolean mask."""
    # every host array's bounds before any upload (NumPy's IndexError at the call, nothing copied)
    for (pos, sub), axis, oax in zip(plan.sources, plan.adv_axes, plan.orig_axes):
        it = items[pos]
        if sub != _plan.BOOL0 and isinstance(it, numpy.ndarray) and it.dtype != bool and it.size:
            n = view_shape[axis]
            host = it.astype(_INTP, copy=False)
            bad = (host < -n) | (host >= n)
            if bad.any():
                raise IndexError("index {} is out of bounds for axis {} with size {}".format(
                    int(host[bad].flat[0]), oax, n))
    arrays = []
    nz_host, nz_dev = {}, {}
    from_mask = True
    for (pos, sub), axis, oax in zip(plan.sources, plan.adv_axes, plan.orig_axes):
        it = items[pos]
        if sub == _plan.BOOL0:
            arrays.append(_as_device(numpy.zeros(1 if it else 0, _INTP)))
            continue
        if isinstance(it, ndarray):
            if it._dtype.kind == "b":
                if pos not in nz_dev:
                    nz_dev[pos] = mask_nonzero(it)[0]
                arrays.append(nz_dev[pos][sub])
            else:
                from_mask = False
                arrays.append(it)
            continue
        if it.dtype == bool:
            if pos not in nz_host:
                nz_host[pos] = numpy.nonzero(it)
            arrays.append(_as_device(nz_host[pos][sub].astype(_INTP)))
            continue
        from_mask = False
        arrays.append(_as_device(it.astype(_INTP, copy=False)))
    return arrays, from_mask


def _view_of(a: ndarray, view_index) -> ndarray:
    shape, strides, offset = _shapes.basic_index(a._shape, a._strides, view_index)
    return ndarray._view(shape, strides, a._dtype, a.data + offset if offset else a.data, a)


def _mask_fast_path(plan, items):
    """The device bool mask when it is the only advanced item and covers V's leading axes."""
    srcs = {pos for pos, _ in plan.sources}
    if len(srcs) != 1:
        return None
    pos = next(iter(srcs))
    it = items[pos]
    if not (isinstance(it, ndarray) and it._dtype.kind == "b" and it.ndim >= 1):
        return None
    if plan.adv_axes != tuple(range(it.ndim)):
        return None
    return it


def _mask_matches(mask, view) -> bool:
    return mask._shape == view._shape[:mask.ndim]


class _Geometry:
    """Kernel scalars of a planned index over a view: result shape, dims, per-array strides."""

    def __init__(self, plan, view, arrays):
        self.bshape = _plan.broadcast_index_shapes([x._shape for x in arrays])
        self.rshape, self.dims = plan.result_layout(view._shape, self.bshape)
        self.r = len(self.rshape)
        self.view = view
        self.arrays = arrays
        self.plan = plan
        b_strides = [_shapes.broadcast_to_strides(x._shape, x._strides, self.bshape) for x in arrays]
        self.ss = [view._strides[j] if kind == "V" else 0 for kind, j in self.dims]
        self.istrides = [[bs[j] if kind == "B" else 0 for kind, j in self.dims] for bs in b_strides]
        self.bsize = _prod(self.bshape)

    def scalars(self, win=False, extra=()):
        i64 = numpy.int64
        out = [i64(d) for d in self.rshape[1:]] + [i64(s) for s in self.ss]
        for k, x in enumerate(self.arrays):
            axis = self.plan.adv_axes[k]
            out += [i64(s) for s in self.istrides[k]]
            oax = self.plan.orig_axes[k]
            out += [i64(self.view._shape[axis]), i64(self.view._strides[axis]), i64(oax if oax is not None else 0)]
            if win:
                m = 1
                for a2 in self.plan.adv_axes[k + 1:]:
                    m *= self.view._shape[a2]
                out.append(i64(m))
        return tuple(out) + tuple(extra)

    def idx_dtypes(self):
        return tuple(x._dtype for x in self.arrays)

    def check_only(self):
        """Bounds-check the index arrays when the result is empty but the broadcast index is not."""
        if self.bsize == 0:
            return
        err = None
        for k, x in enumerate(self.arrays):
            if x._size:
                err = err if err is not None else _errors.error_buffer("an index check (x[idx])")
                axis = self.plan.adv_axes[k]
                oax = self.plan.orig_axes[k]
                _ik.check_def(x._dtype).run((x,), (numpy.int64(self.view._shape[axis]), numpy.int64(oax or 0)),
                                            x._shape, raw=(err,))
        if err is not None:
            _errors.after_launch()


def _prod(shape) -> int:
    n = 1
    for s in shape:
        n *= s
    return n


def _moved(a: ndarray) -> ndarray:
    """`a` seen as unsigned integers of its itemsize (same memory)."""
    mt = _ik.move_dtype(a._dtype)
    if mt == a._dtype:
        return a
    return ndarray._view(a._shape, a._strides, mt, a.data, a, a._c, a._f)


# -- getitem -------------------------------------------------------------------------------------

def getitem(a: ndarray, index) -> ndarray:
    try:
        shape, strides, offset = _shapes.basic_index(a._shape, a._strides, index)
    except _shapes.AdvancedIndexRequired:
        return _advanced_getitem(a, index)
    except IndexError:
        if type(index) is not str or a._dtype.names is None:
            raise
    else:
        return ndarray._view(shape, strides, a._dtype, a.data + offset if offset else a.data, a)
    return _structured.field(a, index)  # a['x']


def _advanced_getitem(a: ndarray, index) -> ndarray:
    if a._dtype.names is not None:
        if _structured.field_names(index):
            return _structured.fields(a, index)  # a[['x', 'y']]
        # Gathered as the integer words of each struct: the index applies to a's axes, the words'
        # axis is taken whole.
        w = _structured.words(a)
        return _structured.from_words(_advanced_getitem(w, _with_words_axis(index)), a._dtype)
    if _device_check.active[0]:
        _device_check.check_index(a, index)
    plan, items = _prepare(a, index)
    view = _view_of(a, plan.view_index)
    mask = _mask_fast_path(plan, items)
    if mask is not None and _mask_matches(mask, view):
        return _mask_getitem(view, mask)
    arrays, _ = _index_arrays(plan, items, view._shape)
    return _gather(plan, view, arrays)


def _gather(plan, view, arrays) -> ndarray:
    g = _Geometry(plan, view, arrays)
    out = ndarray(g.rshape, view._dtype)
    if out._size == 0:
        g.check_only()
        return out
    d = _ik.gather_def(view._dtype.itemsize, g.r, g.idx_dtypes())
    err = _errors.error_buffer("a gather (x[idx], take, take_along_axis, ...)")
    d.run((_moved(out),), g.scalars(), g.rshape, raw=(view,) + tuple(arrays) + (err,))
    _errors.after_launch()
    return out


def _mask_getitem(view: ndarray, mask: ndarray) -> ndarray:
    k = mask.ndim
    flat = _flat_mask(mask)
    if k == view.ndim and _mask_compact.supports(view):
        return _mask_compact.compact(view, flat)  # no per-element prefix array
    pre, count = _prefix(flat)
    rest = view._shape[k:]
    out = ndarray((count,) + rest, view._dtype)
    if count == 0 or out._size == 0:
        return out
    inner = _prod(rest)
    r = view.ndim
    scal = tuple(numpy.int64(d) for d in view._shape[1:]) + tuple(numpy.int64(s) for s in view._strides)
    scal += (numpy.int64(inner),)
    _ik.compact_def(view._dtype.itemsize, r, pre._dtype).run(
        (), scal, view._shape, raw=(view, flat, pre, _moved(out)), size=view._size)
    return out


# -- setitem -------------------------------------------------------------------------------------

def setitem(a: ndarray, index, value) -> None:
    if not a._writeable:
        raise ValueError("assignment destination is read-only")
    # A tracer's pending graphs may read `a` (lazy mode): computed before it changes, as eager
    # mode would have.
    _tracing.before_write(a)
    if not isinstance(value, (ndarray, bool, int, float, complex, numpy.generic)):
        # A lazy array is computed on the device, not copied through the host.
        v = _host_input.lazy_value(value)
        if v is not None:
            value = v
    view = _basic_view(a, index)
    if view is None:
        _advanced_setitem(a, index, value)
        return
    _basic_setitem(view, value)


def _basic_view(a: ndarray, index):
    """The view `a[index]` for a basic index, None when the index is advanced."""
    try:
        shape, strides, offset = _shapes.basic_index(a._shape, a._strides, index)
    except _shapes.AdvancedIndexRequired:
        return None
    except IndexError:
        if type(index) is not str or a._dtype.names is None:
            raise
    else:
        return ndarray._view(shape, strides, a._dtype, a.data + offset if offset else a.data, a)
    return _structured.field(a, index)  # a['x'] = value


def _basic_setitem(view: ndarray, value) -> None:
    if isinstance(value, (bool, int, float, complex, numpy.generic)):
        _copying.assign_scalar(view, value)  # (its conversion errors come for an empty view too)
        return
    if view._dtype.names is not None:
        _struct_setitem(view, value)
        return
    if view._size == 0:
        if isinstance(value, ndarray) or isinstance(value, (list, tuple, numpy.ndarray)):
            shape = tuple(numpy.shape(value) if not isinstance(value, ndarray) else value._shape)
            while len(shape) > view.ndim and shape[0] == 1:
                shape = shape[1:]
            _check_broadcast(shape, view._shape)
        return
    if isinstance(value, ndarray):
        src = value
    else:
        src = from_host(numpy.asarray(value))
        if src.ndim == 0:
            _copying.assign_scalar(view, src.get()[()])
            return
    if src.ndim > view.ndim:
        src = _copying.drop_leading_ones(src, view.ndim)
    _check_broadcast(src._shape, view._shape)
    if src._dtype.kind == "c" and view._dtype.kind != "c":
        _copying.warn_complex_discard(src._dtype, view._dtype)
    # Overlapping source and destination (e.g. a[1:] = a[:-1]): copy the source first.
    src = _unalias(src, view)
    _copying.copyto_unchecked(view, src)


def _with_words_axis(index) -> tuple:
    """`index` of a structured array, for its `structured.words` view (one more axis, taken whole)."""
    return (index if type(index) is tuple else (index,)) + (slice(None),)


def _struct_value(dtype, value) -> ndarray:
    """A value assigned into a structured array, on the device with the array's dtype."""
    if isinstance(value, ndarray):
        if value._dtype != dtype:
            _structured.refuse_cast(value._dtype, dtype)
        return value
    return from_host(_structured.host_value(value, dtype))


def _struct_setitem(view: ndarray, value) -> None:
    """view[...] = value for a structured view: a tuple or numpy.void (every element), a
    structured array of the same dtype (broadcast), host data NumPy converts to the dtype."""
    src = _struct_value(view._dtype, value)
    if src.ndim > view.ndim:
        src = _copying.drop_leading_ones(src, view.ndim)
    _check_broadcast(src._shape, view._shape)
    _copying.copyto_unchecked(view, _unalias(src, view))


def _struct_advanced_setitem(a: ndarray, index, value) -> None:
    if _structured.field_names(index):
        # a[['x', 'y']] = value: field by field (NumPy pairs the value's fields by position).
        names = index
        _structured.fields(a, names)  # NumPy's KeyError / ValueError for bad names
        if isinstance(value, ndarray) and value._dtype.names is not None:
            if len(value._dtype.names) != len(names):
                raise ValueError("structures must have the same size")
            value = _detached(value, a)  # (a[['x', 'y']] = a[['y', 'x']] swaps)
            for n, vn in zip(names, value._dtype.names):
                setitem(a, n, _structured.field(value, vn))
        elif isinstance(value, (ndarray, bool, int, float, complex)) or (
                isinstance(value, numpy.generic) and not isinstance(value, numpy.void)):
            for n in names:  # the same numbers for every field
                setitem(a, n, value)
        else:
            v = from_host(_structured.host_value(value, _structured.fields(a, names)._dtype))
            for n in names:
                setitem(a, n, _structured.field(v, n))
        return
    # A gather's inverse on the integer words of each struct (`structured.words`).
    v = _struct_value(a._dtype, value)
    w = _structured.width(a, v)
    _advanced_setitem(_structured.words(a, w), _with_words_axis(index), _structured.words(v, w))


def _unalias(src: ndarray, dst: ndarray) -> ndarray:
    """For elementwise copies into `dst`: see `_copying.unaliased`."""
    return _copying.unaliased(src, dst)


def _detached(src: ndarray, dst: ndarray) -> ndarray:
    """For scatters into `dst` (element j of src goes to a position chosen by an index): a copy of
    `src` whenever it overlaps `dst` at all. Even the very same elements are not safe here:
    `a[perm] = a` reads a[j] while another thread may already have written it."""
    if src._overlaps(dst):
        return _copying.copy(src)
    return src


def _check_broadcast(src_shape, dst_shape) -> None:
    try:
        b = _shapes.broadcast_shapes(src_shape, dst_shape)
    except ValueError:
        b = None
    if b != tuple(dst_shape):
        raise ValueError("could not broadcast input array from shape {} into shape {}".format(
            tuple(src_shape), tuple(dst_shape)))


def _value_for(a: ndarray, value):
    """(scalar numpy value of a's dtype, None) or (None, device array of a's dtype)."""
    if isinstance(value, ndarray):
        v = value if value._dtype == a._dtype else value.astype(a._dtype)
        return None, v
    if type(value) in _PY_SCALARS or isinstance(value, numpy.generic):
        return _scalar_of(a._dtype, value), None
    arr = numpy.asarray(value)
    if arr.ndim == 0:
        return _scalar_of(a._dtype, arr[()]), None
    with numpy.errstate(all="ignore"):
        return None, _as_device(arr.astype(a._dtype))


def _scalar_of(dt, value):
    if type(value) in _PY_SCALARS:
        return numpy.array(value, dtype=dt)[()]  # NumPy 2: OverflowError for out-of-range ints
    with numpy.errstate(all="ignore"):
        return numpy.asarray(value).astype(dt)[()]


def _shape_mismatch(vshape, rshape):
    return ValueError("shape mismatch: value array of shape {} could not be broadcast to indexing result "
                      "of shape {}".format(_shapes._shape_str(vshape), _shapes._shape_str(rshape)))


def _advanced_setitem(a: ndarray, index, value) -> None:
    if a._dtype.names is not None:
        _struct_advanced_setitem(a, index, value)
        return
    if _device_check.active[0]:
        _device_check.check_index(a, index, value)
    plan, items = _prepare(a, index)
    view = _view_of(a, plan.view_index)
    mask = _mask_fast_path(plan, items)
    scalar, varr = _value_for(a, value)
    if mask is not None and _mask_matches(mask, view):
        _mask_setitem(view, mask, scalar, varr)
        return
    arrays, from_mask = _index_arrays(plan, items, view._shape)
    g = _Geometry(plan, view, arrays)
    if varr is not None:
        try:
            ok = _shapes.broadcast_shapes(varr._shape, g.rshape) == g.rshape
        except ValueError:
            ok = False
        if not ok:
            raise _shape_mismatch(varr._shape, g.rshape)
    if _prod(g.rshape) == 0:
        g.check_only()
        return
    err = _errors.error_buffer("a scatter (x[idx] = v, put, put_along_axis, ...)")
    it = view._dtype.itemsize
    mt = _ik.move_dtype(view._dtype)
    if varr is not None:
        varr = _detached(varr, a)
        vstrides = _shapes.broadcast_to_strides(varr._shape, varr._strides, g.rshape)
        varies = any(vstrides[d] != 0 and g.rshape[d] != 1 for d, (kind, _) in enumerate(g.dims) if kind == "B")
    else:
        vstrides = None
        varies = False
    last_wins = varies and not from_mask and g.bsize > 1
    idx = g.idx_dtypes()
    raw_idx = tuple(arrays) + (err,)
    if last_wins:
        space = _prod(view._shape[ax] for ax in plan.adv_axes)
        win = ndarray((max(space, 1),), _I64)
        win.data.memset_async(0xFF, win.nbytes)  # -1: unclaimed
        bm = [0] * g.r
        m = 1
        for d in range(g.r - 1, -1, -1):
            if g.dims[d][0] == "B":
                bm[d] = m
                m *= g.rshape[d]
        bscal = tuple(numpy.int64(x) for x in bm)
        _ik.scatter_def(it, g.r, idx, "claim", False).run(
            (), g.scalars(win=True, extra=bscal), g.rshape, raw=(view, win) + raw_idx, size=_prod(g.rshape))
        vscal = tuple(numpy.int64(s) for s in vstrides)
        _ik.scatter_def(it, g.r, idx, "write", False).run(
            (), g.scalars(win=True, extra=vscal + bscal), g.rshape, raw=(view, _moved(varr), win) + raw_idx,
            size=_prod(g.rshape))
    elif varr is not None:
        vscal = tuple(numpy.int64(s) for s in vstrides)
        _ik.scatter_def(it, g.r, idx, "plain", False).run(
            (), g.scalars(extra=vscal), g.rshape, raw=(view, _moved(varr)) + raw_idx, size=_prod(g.rshape))
    else:
        sval = numpy.asarray(scalar).view(mt)[()] if mt.kind != "c" else numpy.complex128(scalar)
        _ik.scatter_def(it, g.r, idx, "plain", True).run(
            (), (sval,) + g.scalars(), g.rshape, raw=(view,) + raw_idx, size=_prod(g.rshape))
    _errors.after_launch()


def _mask_setitem(view: ndarray, mask: ndarray, scalar, varr) -> None:
    k = mask.ndim
    rest = view._shape[k:]
    # A value that does not vary along the mask's selection: a masked copy, no synchronisation.
    if varr is None or varr.ndim <= len(rest) or (varr.ndim == len(rest) + 1 and varr._shape[0] == 1):
        m = mask.reshape(mask._shape + (1,) * len(rest)) if rest else mask
        if varr is None:
            src = scalar
        else:
            src = varr.reshape(varr._shape[1:]) if varr.ndim == len(rest) + 1 else varr
            try:
                ok = _shapes.broadcast_shapes(src._shape, rest) == tuple(rest)
            except ValueError:
                ok = False
            if not ok:
                # NumPy names the (count,) + rest shape: it needs the count, as NumPy does.
                _, count = _prefix(_flat_mask(mask))
                raise _shape_mismatch(varr._shape, (count,) + rest)
            src = _unalias(src, view)
        _copying.copyto_where_unchecked(view, src, m)  # src: a's dtype (_value_for)
        return
    flat = _flat_mask(mask)
    pre, count = _prefix(flat)
    rshape = (count,) + rest
    try:
        ok = _shapes.broadcast_shapes(varr._shape, rshape) == rshape
    except ValueError:
        ok = False
    if not ok:
        raise _shape_mismatch(varr._shape, rshape)
    if count == 0 or _prod(rshape) == 0:
        return
    src = varr
    if src._shape != rshape or not src._c:
        tmp = ndarray(rshape, src._dtype)
        _copying.copyto_unchecked(tmp, src)
        src = tmp
    else:
        src = _detached(src, view)
    r = view.ndim
    scal = tuple(numpy.int64(d) for d in view._shape[1:]) + tuple(numpy.int64(s) for s in view._strides)
    scal += (numpy.int64(_prod(rest)),)
    _ik.masked_scatter_def(view._dtype.itemsize, r, pre._dtype).run(
        (), scal, view._shape, raw=(view, flat, pre, _moved(src)), size=view._size)


# -- ufunc.at ------------------------------------------------------------------------------------

_NATIVE_NAMES = {"add": "add", "minimum": "min", "maximum": "max"}


def ufunc_at(uf, a, indices, b=None) -> None:
    """`uf.at(a, indices, b)`: unbuffered in-place `a[indices] = uf(a[indices], b)`; repeated
    indices accumulate (atomic updates). See `numpy.ufunc.at`."""
    if not isinstance(a, ndarray):
        raise TypeError("ufunc.at needs a cuarray array as its first argument")
    unary = uf.nin == 1
    if uf.nout != 1 or uf.nin > 2:
        raise ValueError("ufunc.at only supports ufuncs with one output and one or two inputs")
    if unary and b is not None:
        raise ValueError("second operand not allowed for a unary ufunc")
    if not unary and b is None:
        raise ValueError("second operand needed for ufunc")
    if not a._writeable:
        raise ValueError("assignment destination is read-only")
    # b: a device array, or host data / scalar (weak Python scalars per NEP 50).
    if unary:
        in_types = (a._dtype,)
    elif isinstance(b, ndarray):
        in_types = (a._dtype, b._dtype)
    elif type(b) in _PY_SCALARS:
        in_types = (a._dtype, type(b))
    else:
        b = numpy.asarray(b)
        in_types = (a._dtype, b.dtype)
    loop = uf._resolve(in_types, None, "unsafe")
    if _datetimes.involves(loop.in_dtypes + loop.out_dtypes):  # the scatter kernels cast as int64 would
        raise TypeError("{}.at is not supported on the GPU for datetime64/timedelta64".format(uf.__name__))
    if not unary and not isinstance(b, ndarray):
        b = _as_device(numpy.asarray(b, dtype=loop.in_dtypes[1]) if type(b) in _PY_SCALARS
                       else numpy.asarray(b).astype(loop.in_dtypes[1]))
    view = _basic_view(a, indices)
    if view is not None:
        if unary:
            uf(view, out=view, casting="unsafe")
        else:
            uf(view, b, out=view, casting="unsafe")
        return
    if a._dtype.kind == "c" and uf.__name__ in ("add", "subtract") and not unary:
        bc = b if b._dtype.kind == "c" else b.astype(a._dtype)
        ufunc_at(uf, a.real, indices, bc.real)
        ufunc_at(uf, a.imag, indices, bc.imag)
        return
    # 16-byte elements (complex128) have no compare-and-swap: one thread applies every update in
    # order, NumPy's own order (correct for repeated indices; slow for very many updates).
    serial = a._dtype.itemsize == 16
    plan, items = _prepare(a, indices)
    view = _view_of(a, plan.view_index)
    arrays, _ = _index_arrays(plan, items, view._shape)
    g = _Geometry(plan, view, arrays)
    extra = ()
    raw_b = ()
    if not unary:
        try:
            ok = _shapes.broadcast_shapes(b._shape, g.rshape) == g.rshape
        except ValueError:
            ok = False
        if not ok:
            raise ValueError("array is not broadcastable to correct shape")
        b = _detached(b, a)
        extra = tuple(numpy.int64(s) for s in _shapes.broadcast_to_strides(b._shape, b._strides, g.rshape))
        raw_b = (b,)
    if _prod(g.rshape) == 0:
        g.check_only()
        return
    native = None
    nat = _NATIVE_NAMES.get(uf.__name__)
    ct = _dtypes.ctype(a._dtype)
    if (nat and not unary and loop.out_dtypes[0] == a._dtype and all(d == a._dtype for d in loop.in_dtypes)
            and (nat, ct) in _ik._NATIVE):
        native = (nat, ct)
    d = _ik.at_def(a._dtype, None if unary else b._dtype, loop.in_dtypes, loop.out_dtypes[0], uf._op_for(loop),
                   native, g.r, g.idx_dtypes(), unary, uf._preamble)
    err = _errors.error_buffer("{}.at".format(uf.__name__))
    d.run((), g.scalars(extra=extra), g.rshape, raw=(view,) + raw_b + tuple(arrays) + (err,), size=_prod(g.rshape),
          serial=serial)
    _errors.after_launch()

