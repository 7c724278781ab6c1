"""Copies on the elementwise engine: between layouts and dtypes (`copy`, `astype`,
`copyto_unchecked`), under a mask (`copyto_where_unchecked`), and `fill`.

A same-layout same-dtype copy is one memcpy (copy-engine rate, no kernel); otherwise one
`Definition` kernel ("the elementwise identity") over any strides, with the cast in its store.
Same-type copies move bits (one kernel per item size), as NumPy's copies do.
"""

from __future__ import annotations

import ctypes

import numpy

from ..cuda import device as _device
from ..cuda import pinned_memory as _pinned
from ..cuda import stream as _stream
from . import device_check as _device_check
from . import dtypes as _dtypes
from . import shapes as _shapes
from . import structured as _structured
from .elementwise import Definition, KernelParam, cast_expr, scalar_converter
from .ndarray import ndarray
from ..cuda import caches as _caches

__all__ = ["copy", "astype", "fill", "assign_scalar", "byteswap", "copyto_unchecked", "copyto_where_unchecked", "unaliased",
           "warn_complex_discard", "drop_leading_ones", "from_other_device", "copy_flag"]

_BOOL = numpy.dtype(bool)
_COPY_MODE = getattr(numpy, "_CopyMode", None)


def copy_flag(copy):
    """The `copy` keyword of array/asarray/reshape as NumPy reads it (PyArray_CopyConverter): None
    (copy if needed), a string refused, NumPy's `_CopyMode`, anything else by its truth (0, np.False_
    and [] mean False: never copy)."""
    if copy is None or copy is True or copy is False:
        return copy
    if isinstance(copy, str):
        raise ValueError("strings are not allowed for 'copy' keyword. Use True/False/None instead.")
    if _COPY_MODE is not None and isinstance(copy, _COPY_MODE):
        return {_COPY_MODE.ALWAYS: True, _COPY_MODE.NEVER: False}.get(copy)
    return bool(copy)

_copy_defs: dict = {}
_caches.register("copy definitions", _copy_defs)


class _StructCopy:
    """The copy "kernel" of a structured dtype (what `_copy_def` gives for one): the integer copy
    of the two arrays' `structured.words` views, in the widest word both allow (a packed dtype at an
    odd offset is copied in bytes). Only between equal dtypes: NumPy's casts between structured
    dtypes (by field position) and from numbers are not done on the device."""

    def __init__(self, src_dtype, dst_dtype):
        if src_dtype != dst_dtype:
            _structured.refuse_cast(src_dtype, dst_dtype)

    @staticmethod
    def run(arrays, scalars, shape):
        src, dst = arrays
        if src._shape != dst._shape:
            strides = _shapes.broadcast_to_strides(src._shape, src._strides, dst._shape)
            src = ndarray._view(dst._shape, strides, src._dtype, src.data, src)
        w = _structured.width(src, dst)
        copyto_unchecked(_structured.words(dst, w), _structured.words(src, w))


def _copy_def(src_dtype, dst_dtype) -> Definition:
    d = _copy_defs.get((src_dtype, dst_dtype))  # (the dtypes: datetime64 units share a .char)
    if d is None:
        d = _copy_defs[(src_dtype, dst_dtype)] = _new_copy_def(src_dtype, dst_dtype)
    return d


def _new_copy_def(src_dtype, dst_dtype):
    if src_dtype.names is not None or dst_dtype.names is not None:
        return _StructCopy(src_dtype, dst_dtype)
    if src_dtype == dst_dtype and src_dtype.itemsize in (1, 2, 4, 8):
        # Same type: move the bits, as NumPy's copies do (float16 is computed in float, and the
        # round trip would turn every NaN payload into 0x7fff). One kernel per item size.
        bits = numpy.dtype("u{}".format(src_dtype.itemsize))
        if src_dtype != bits:
            return _copy_def(bits, bits)
    name = "cuarray_copy_{}_{}".format(src_dtype.name, dst_dtype.name)
    # Compute in the source type; the store casts to the destination type.
    params = (KernelParam("in0", "in", src_dtype, src_dtype), KernelParam("out0", "out", dst_dtype, src_dtype))
    return Definition(name, params, "out0 = in0")


def copyto_unchecked(dst: ndarray, src: ndarray) -> None:
    """dst[...] = src with broadcasting and an unsafe cast; no overlap or casting checks."""
    if dst._size == 0:
        return
    if (src._dtype == dst._dtype and src._shape == dst._shape and
            ((src._c and dst._c) or (src._f and dst._f and not (src._c or dst._c)))):
        # Same layout, same type: a plain memcpy (copy engine rate, no kernel).
        if _device_check.active[0]:
            _device_check.check((src, dst))
        dst.data.copy_from_device_async(src.data, dst.nbytes)
        return
    _copy_def(src._dtype, dst._dtype).run((src, dst), (), dst._shape)


_masked_defs: dict = {}
_caches.register("masked copy definitions", _masked_defs)


def _masked_entry(src_dt, dst_dt, scalar: bool) -> tuple:
    """(the masked copy's Definition, the scalar's converter to its kernel type: `scalar_converter`)."""
    key = (src_dt, dst_dt, scalar)
    d = _masked_defs.get(key)
    if d is None:
        params = (KernelParam("in0", "scalar" if scalar else "in", src_dt),
                  KernelParam("_w", "in", _BOOL),
                  KernelParam("out0", "out", dst_dt, src_dt, by_ref=True))
        op = "if (_w) out0 = " + cast_expr("in0", src_dt, dst_dt, _dtypes.ctype(dst_dt))
        name = "cuarray_copyto_where_{}{}_{}".format("s" if scalar else "", src_dt.name, dst_dt.name)
        d = _masked_defs[key] = (Definition(name, params, op), scalar_converter(dst_dt))
    return d


def copyto_where_unchecked(dst: ndarray, src, mask: ndarray) -> None:
    """dst[mask] = src elementwise (`src` and the bool `mask` broadcast to dst; `src` an array or a
    NumPy scalar of dst's dtype), unsafe cast; no overlap or casting checks. One kernel."""
    if dst._size == 0:
        return
    dt = dst._dtype
    if isinstance(src, ndarray):
        _masked_entry(src._dtype, dt, False)[0].run((src, mask, dst), (), dst._shape)
    else:
        d, conv = _masked_entry(dt, dt, True)
        d.run((mask, dst), (src if conv is None else conv(src),), dst._shape)


def _new_like(a: ndarray, dtype, order: str) -> ndarray:
    """An uninitialised array with `a`'s shape, in `order` ('C', 'F', 'A' or 'K')."""
    itemsize = dtype.itemsize
    if order not in ("C", "F", "A", "K"):
        order = _shapes.normalize_order(order)
    if order == "A":
        order = "F" if a._f and not a._c else "C"
    if order == "K":
        if a._c or a.ndim <= 1:
            order = "C"
        elif a._f:
            order = "F"
        else:
            strides = _shapes.k_order_strides(a._shape, a._strides, itemsize)
            return ndarray._new_strided(a._shape, dtype, strides)
    if order not in ("C", "F"):
        raise ValueError("order must be one of 'C', 'F', 'A', or 'K' (got {!r})".format(order))
    return ndarray(a._shape, dtype, order=order)


def unaliased(src: ndarray, dst: ndarray) -> ndarray:
    """`src`, or a copy of it when it partly overlaps `dst` (writing dst would change what is
    still to be read). The very same elements are fine: each is read before it is written."""
    if src._overlaps(dst) and not src._same_elements(dst):
        return copy(src)
    return src


def warn_complex_discard(src_dt, dst_dt, stacklevel: int = 4) -> None:
    """NumPy's ComplexWarning for a complex -> real (or int, bool) cast, which drops the imaginary part
    (astype, copyto, assignment warn; internal casts do not)."""
    if src_dt.kind == "c" and dst_dt.kind != "c":
        import warnings

        warnings.warn("Casting complex values to real discards the imaginary part",
                      numpy.exceptions.ComplexWarning, stacklevel=stacklevel)


def drop_leading_ones(src: ndarray, ndim: int) -> ndarray:
    """`src` without the leading length-1 axes beyond `ndim` (a view): NumPy broadcasts a (1, 3)
    source into a (3,) destination in copyto and assignment."""
    k = 0
    while src.ndim - k > ndim and src._shape[k] == 1:
        k += 1
    if not k:
        return src
    return ndarray._view(src._shape[k:], src._strides[k:], src._dtype, src.data, src, src._c, src._f)


def copy(a: ndarray, order="C") -> ndarray:
    """See `numpy.ndarray.copy`. As in CuPy, the copy is made on the current device, also for an
    array of another device (`from_other_device`)."""
    if _device_check.active[0] and a.data.device_id != _device.get_device_id():
        return from_other_device(a, order)
    out = _new_like(a, a._dtype, order)
    copyto_unchecked(out, a)
    return out


def astype(a: ndarray, dtype, order="K", casting="unsafe", copy=True) -> ndarray:
    dtype = _dtypes.storage_dtype(dtype)  # (a structured dtype: `_StructCopy` copies the same dtype only)
    if order not in ("C", "F", "A", "K"):
        order = _shapes.normalize_order(order)
    if not numpy.can_cast(a._dtype, dtype, casting):
        raise TypeError(
            "Cannot cast array data from dtype('{}') to dtype('{}') according to the rule '{}'".format(
                a._dtype, dtype, casting))
    if a._dtype.kind == "c" and dtype.kind != "c":
        warn_complex_discard(a._dtype, dtype)
    if not copy and dtype == a._dtype:
        if order == "K" or (order == "C" and a._c) or (order == "F" and a._f) or (order == "A" and (a._c or a._f)):
            return a
    out = _new_like(a, dtype, order)
    copyto_unchecked(out, a)
    return out


_fill_defs: dict = {}
_caches.register("fill definitions", _fill_defs)


def _check_python_int(value: int, dt) -> None:
    """NEP 50: a Python int out of the dtype's range raises (NumPy's fill/full/full_like do) rather
    than wrapping as an unsafe cast would; bool takes it through a C long, as NumPy."""
    if dt.kind == "b":
        if not -2**63 <= value < 2**63:
            raise OverflowError("Python int too large to convert to C long")
    else:
        dt.type(value)


def fill(a: ndarray, value) -> None:
    """Set every element of `a` to `value` (cast to a's dtype like NumPy's `fill`)."""
    dt = a._dtype
    if type(value) is int and dt.kind in "biu":
        _check_python_int(value, dt)  # even for an empty array, as NumPy
    if a._size == 0:
        return
    if isinstance(value, ndarray):
        if value.ndim != 0 and value._size != 1:
            raise ValueError("fill value must be a scalar")
        copyto_unchecked(a, value.reshape(()) if value.ndim else value)
        return
    if type(value) is int and dt.kind in "iu":
        v = dt.type(value)
    elif dt.names is not None:  # a tuple, a numpy.void, a number for every field (NumPy's rules)
        v = _structured.host_value(value, dt)[()]
    else:
        v = numpy.array(value).astype(dt, casting="unsafe")[()] if not isinstance(value, numpy.generic) or value.dtype != dt else value
    raw = v.tobytes()
    if (a._c or a._f) and (raw == bytes(len(raw)) or len(set(raw)) == 1):
        # Every byte equal (zeros, -1, ...): one memset.
        a.data.memset_async(raw[0], a.nbytes)
        return
    entry = _fill_defs.get(dt)
    if entry is None:
        if dt.names is not None:
            _fill_struct(a, v, raw)
            return
        entry = _fill_defs[dt] = (Definition(
            "cuarray_fill_{}".format(dt.name),
            (KernelParam("value", "scalar", dt, dt), KernelParam("out0", "out", dt, dt)), "out0 = value"),
            scalar_converter(dt))
    d, conv = entry
    d.run((a,), (v if conv is None else conv(v),), a._shape)


# A struct of up to this many words is filled word by word (one fill kernel each, no upload);
# a longer one (a packed dtype moves in bytes) is uploaded once and copied to every element.
_MAX_WORD_FILLS = 8


def _fill_struct(a: ndarray, v, raw: bytes) -> None:
    w = _structured.width(a)
    if len(raw) // w <= _MAX_WORD_FILLS:
        for k, word in enumerate(numpy.frombuffer(raw, "u{}".format(w))):
            fill(_structured.word_column(a, w, k), word)
        return
    one = ndarray((), a._dtype)
    # As transfer's small uploads: through a pinned block, recycled once the stream has read it.
    blk = _pinned.alloc_pinned_memory(len(raw))
    ctypes.memmove(blk.ptr, raw, len(raw))
    one.data.copy_from_host_async(blk, len(raw), _stream.get_current_stream())
    copyto_unchecked(a, one)


def assign_scalar(a: ndarray, value) -> None:
    """`a[...] = value` and `a.fill(value)`: NumPy's scalar assignment, which converts a float or
    complex value into an integer or real array through Python's int()/float() (ValueError for
    NaN, OverflowError for inf and out-of-range values, TypeError for complex) where `full`'s
    unsafe cast (`fill`) gives INT_MIN: done by the same assignment into a 0-d NumPy array."""
    kind = a._dtype.kind
    if (kind in "iu" and isinstance(value, (float, complex, numpy.inexact))
            or kind == "f" and isinstance(value, (complex, numpy.complexfloating))):
        box = numpy.empty((), a._dtype)
        box[()] = value
        value = box[()]
    fill(a, value)


def _dense_in(a: ndarray, order: str) -> bool:
    if order == "C":
        return a._c
    if order == "F":
        return a._f
    return a._c or a._f


def from_other_device(a: ndarray, order="K") -> ndarray:
    """A copy, on the current device and in `order`, of `a`, which lives on another device.

    One cuMemcpyAsync between the two devices' memory (unified addressing: the driver copies
    peer to peer where the hardware allows, through the host otherwise), enqueued on the current
    device's stream after an event of the source device's current stream, so it sees the work
    queued there, and the source device's stream waits for the copy in turn (its memory may be
    freed and reused there); neither host thread waits. An `a` that is not dense in `order` is
    packed on its own device first."""
    if order not in ("C", "F", "A", "K"):
        order = _shapes.normalize_order(order)
    with _device.Device(a.data.device_id):
        if not _dense_in(a, order):
            a = copy(a, order="C" if order == "A" else order)
        ready = _stream.get_current_stream().record(_stream.Event(disable_timing=True))
    if a._c or a._f:
        out = ndarray(a._shape, a._dtype, order="C" if a._c else "F")
    else:  # packed in K order: a dense permutation of the axes
        out = ndarray._new_strided(a._shape, a._dtype, a._strides)
    if a.nbytes:
        _device.ensure_peer_access(a.data.device_id)
        stream = _stream.get_current_stream()
        stream.wait_event(ready)
        out.data.copy_from_device_async(a.data, a.nbytes, stream)
        # The source's memory goes back to its pool in its own stream's order (the packed copy
        # when this returns): that stream must not reuse it before this copy has read it.
        done = stream.record(_stream.Event(disable_timing=True))
        with _device.Device(a.data.device_id):
            _stream.get_current_stream().wait_event(done)
    return out


_U8 = numpy.dtype(numpy.uint8)


def byteswap(a: ndarray, inplace: bool = False) -> ndarray:
    """See `numpy.ndarray.byteswap`: each element's bytes reversed (each part of a complex number
    on its own, as NumPy does), by one copy of a byte-reversed view; the dtype is unchanged."""
    if a._dtype.names is not None:  # a struct: each field's bytes reversed on their own, as NumPy
        out = a if inplace else copy(a)
        for name in a._dtype.names:
            byteswap(_structured.field(out, name), inplace=True)
        return out
    unit = a._dtype.itemsize // (2 if a._dtype.kind == "c" else 1)
    if unit == 1 or a._size == 0:
        return a if inplace else copy(a)
    src = a if a._c else copy(a, order="C")
    rows = src._size * a._dtype.itemsize // unit
    # Row r of the source viewed from its last byte backwards: (rows, unit) uint8, strides (unit, -1).
    backwards = ndarray._view((rows, unit), (unit, -1), _U8, src.data + (unit - 1), src)
    out = ndarray(a._shape, a._dtype)
    copyto_unchecked(ndarray._view((rows, unit), (unit, 1), _U8, out.data, out), backwards)
    if not inplace:
        return out
    copyto_unchecked(a, out)
    return a
