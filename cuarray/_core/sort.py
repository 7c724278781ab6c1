"""The sort engine: a stable LSD radix sort (kernels in templates/sort.cu, built on CUB's
device-side agents compiled by NVRTC) used by sorting, sets, percentiles and others.

API (all stable, NumPy's order: NaNs last, -0.0 ties +0.0, complex lexicographic with NumPy's
NaN classes; every result is a new array, C- or F-ordered like a C- or F-ordered input):

    sort(a, axis=-1) -> ndarray                  sorted copy along `axis` (None: flattened)
    argsort(a, axis=-1) -> ndarray (int64)       positions along `axis` (None: flattened)
    sort_pairs(keys, values) -> (keys, values)   1-D, same length; values of any dtype are moved
    lexsort(keys) -> ndarray (int64)             `keys`: a sequence of equal-shape arrays, the last
                                                 primary; sorts along the last axis

How: 1-D arrays and rows longer than a block's tile go through the device-wide onesweep sort
(one histogram pass for every digit, one pass per 8-bit digit with decoupled look-back); a pass
whose digit is the same for every key is skipped on the device (no host synchronisation). Rows
that fit a block (BLOCK_TILES in sort_plan) are sorted by one block each. Many long rows: a
device-wide argsort of all keys, then a stable sort of the row ids. Complex keys are sorted by
their key words (sort_keys.cuh). Scratch comes from the memory pool; nothing synchronises.
"""

from __future__ import annotations

import functools
import pathlib

import numpy

from ..cuda import device as _device
from ..cuda.kernel_family import KernelFamily
from . import datetimes as _datetimes
from . import device_check as _device_check
from . import shapes as _shapes
from . import sort_plan as _plan
from .copying import copyto_unchecked
from .elementwise import Definition, KernelParam
from .ndarray import ndarray
from ..cuda import caches as _caches

__all__ = ["sort", "argsort", "sort_pairs", "lexsort", "sort_rows", "argsort_rows", "all_kernel_names", "order_keys",
           "SORT"]

_TEMPLATE = pathlib.Path(__file__).parent / "templates" / "sort.cu"
_I32, _I64 = numpy.dtype(numpy.int32), numpy.dtype(numpy.int64)
_U8 = numpy.dtype(numpy.uint64)
_U4 = numpy.dtype(numpy.uint32)
_HIST_TILE = (128, 16)  # CUB's sm_90 histogram policy
_NULL = "cub::NullType"

# Every kernel of templates/sort.cu, declared once: launches pack their arguments from these (an
# OffsetT value is the offset type's NumPy scalar, uint32 or uint64). Compiled in the groups one
# sort needs (the five kernels of a device-wide sort, the four helpers) through the families' cache.
SORT = KernelFamily("cuarray_sort", _TEMPLATE.read_text, kernels=(
    "cuarray_radix_histogram<KeyT, OffsetT, int BITS, int THREADS, int ITEMS>(OffsetT* bins, const KeyT* keys, "
    "OffsetT n, int begin_bit, int end_bit)",
    "cuarray_radix_plan<OffsetT, int BITS>(OffsetT* bins, int passes, OffsetT n, cuarray::radix_plan* plan, "
    "const void* keys_src, void* keys_out, void* keys_tmp, const void* values_src, void* values_out, "
    "void* values_tmp)",
    "cuarray_radix_onesweep<KeyT, ValueT, OffsetT, int BITS, int THREADS, int ITEMS>(const cuarray::radix_plan* plan, "
    "int pass, int* lookback, int* counter, OffsetT* bins_out, const OffsetT* bins_in, OffsetT portion_offset, "
    "int portion_items, int current_bit, int num_bits)",
    "cuarray_radix_finish<K, VIn, V>(const cuarray::radix_plan* plan, long long n, K* keys_out, V* values_out)",
    "cuarray_radix_iota<V>(V* out, long long n, long long m)",
    "cuarray_block_sort<KeyT, ValueT, V, int THREADS, int ITEMS, int BITS>(const KeyT* keys_in, KeyT* keys_out, "
    "V* pos_out, int len, long long stride)",
    "cuarray_gather<T, I>(const T* src, const I* perm, T* out, long long n)",
    "cuarray_take_rows<T>(const T* x, const long long* pos, T* out, long long n, long long len)",
    "cuarray_row_ids<I, R>(const I* perm, R* rows, long long n, long long len)",
    "cuarray_row_positions<I>(const I* perm, long long* pos, long long n, long long len)",
    "cuarray_sort_key_words<T, int WORD>(const T* x, unsigned long long* out, long long n)",
))


@functools.lru_cache(maxsize=None)
def radix_kernel_names(kct: str, vct: str, oct_: str, threads: int, items: int, vout: str) -> tuple:
    """Name expressions of one device-wide sort: histogram, plan, onesweep, finish, iota."""
    b = _plan.RADIX_BITS
    return (
        "cuarray_radix_histogram<{}, {}, {}, {}, {}>".format(kct, oct_, b, *_HIST_TILE),
        "cuarray_radix_plan<{}, {}>".format(oct_, b),
        "cuarray_radix_onesweep<{}, {}, {}, {}, {}, {}>".format(kct, vct, oct_, b, threads, items),
        "cuarray_radix_finish<{}, {}, {}>".format(_raw(kct), "unsigned char" if vct == _NULL else vct, vout),
        "cuarray_radix_iota<{}>".format("long long" if vct == "long long" else "int"),
    )


@functools.lru_cache(maxsize=None)
def block_kernel_name(kct: str, vct: str, threads: int, items: int, bits: int) -> str:
    return "cuarray_block_sort<{}, {}, long long, {}, {}, {}>".format(kct, vct, threads, items, bits)


@functools.lru_cache(maxsize=None)
def helper_kernel_names(ct: str, ict: str) -> tuple:
    """gather (x[perm]), take_rows (row-relative positions), row ids, segment finish."""
    return ("cuarray_gather<{}, {}>".format(ct, ict), "cuarray_take_rows<{}>".format(ct),
            "cuarray_row_ids<{}, unsigned int>".format(ict), "cuarray_row_positions<{}>".format(ict))


@functools.lru_cache(maxsize=None)
def key_word_kernel_name(ct: str, word: int) -> str:
    return "cuarray_sort_key_words<{}, {}>".format(ct, word)


def _raw(kct: str) -> str:
    """The raw-bits type of a key C type (radix_float<U> -> U)."""
    if kct.startswith("cuarray::radix_float<"):
        return kct[len("cuarray::radix_float<"):-1]
    return kct


def _grid(n: int, threads: int = 256) -> int:
    return max(1, min(-(-n // threads), 32 * _device._sm_count(_device.get_device_id())))


def all_kernel_names(dtype) -> tuple:
    """Name expressions of the kernels a sort of `dtype` keys may use (CI compiles them for
    sm_90): device-wide keys-only, argsort and key-value forms, the block tiles, the helpers."""
    dtype = numpy.dtype(dtype)
    names = []
    if dtype.kind == "c":
        ct = "cuarray::complex<float>" if dtype.itemsize == 8 else "cuarray::complex<double>"
        names += [key_word_kernel_name(ct, w) for w in ((0,) if dtype.itemsize == 8 else (1, 2))]
        names += helper_kernel_names(_plan.value_ctype(dtype.itemsize), "int")
        return tuple(names)
    kct, kb, fl = _plan.key_ctype(dtype), dtype.itemsize, dtype.kind == "f"
    for oct_, ob in (("unsigned int", 4), ("unsigned long long", 8)):
        t, i = _plan.onesweep_tile(kb, 0, ob, fl)
        names += radix_kernel_names(kct, _NULL, oct_, t, i, "unsigned char")
        for vct, vb, out in (("int", 4, "long long"), ("int", 4, "int"), ("long long", 8, "long long"),
                             (_plan.value_ctype(8), 8, _plan.value_ctype(8))):
            t, i = _plan.onesweep_tile(kb, vb, ob, fl)
            names += radix_kernel_names(kct, vct, oct_, t, i, out)
    for tile in dict.fromkeys(_plan.block_tile(L, kb, vb) for L in (2, 300, 600, 1500, 3000, 6000)
                              for vb in (0, 4)):
        if tile is not None:
            names += [block_kernel_name(kct, _NULL, *tile), block_kernel_name(kct, "int", *tile)]
    names += helper_kernel_names(_plan.value_ctype(kb), "int") + helper_kernel_names(_plan.value_ctype(kb), "long long")
    return tuple(dict.fromkeys(names))


# -- device-wide onesweep ------------------------------------------------------------------------

def _radix(keys: ndarray, keys_out, values, values_out, values_out_dtype=None, iota_rows=0):
    """Sort the 1-D contiguous `keys` (and `values`, or positions when `values` is "iota") on
    the device. `keys_out`/`values_out`: arrays to fill (None: not wanted). Positions are made
    here (0..n-1, or i % iota_rows) as int32 while n < 2^31, and written to `values_out` as
    `values_out_dtype` (int64)."""
    n = keys._size
    kdt = keys._dtype
    kct = _plan.key_ctype(kdt)
    oct_ = _plan.offset_ctype(n)
    obytes = 4 if oct_ == "unsigned int" else 8
    iota = isinstance(values, str)
    if iota:
        vdt = _I32 if n < 2**31 else _I64
        vct = "int" if vdt == _I32 else "long long"
        out_ct = "int" if values_out is not None and values_out._dtype.itemsize == 4 else "long long"
    else:
        vdt = None if values is None else values._dtype
        vct = _NULL if vdt is None else _plan.value_ctype(vdt.itemsize)
        out_ct = "unsigned char" if vdt is None else vct
    threads, items = _plan.onesweep_tile(kdt.itemsize, 0 if vdt is None else vdt.itemsize, obytes, kdt.kind == "f")
    names = radix_kernel_names(kct, vct, oct_, threads, items, out_ct)
    hist_k, plan_k, sweep_k, finish_k, iota_k = SORT.get(*names)
    tile = threads * items
    sc = _plan.scratch(n, kdt.itemsize, tile, obytes)
    scratch = ndarray((sc.total,), numpy.uint8)
    base = scratch.data.ptr
    (scratch.data + sc.bins).memset_async(0, sc.zeroed)
    plan_ptr, bins, ctrs, look = base + sc.plan, base + sc.bins, base + sc.counters, base + sc.lookback
    npasses = sc.npasses
    # Buffers: the last active pass writes `kout` (keys_out, or scratch when keys are not wanted).
    kout = keys_out if keys_out is not None else ndarray((n,), kdt)
    ktmp = ndarray((n,), kdt)
    if vdt is not None:
        if iota:
            vin = ndarray((n,), vdt)
            iota_k.launch(_grid(n), 256, vin.data.ptr, n, iota_rows)
        else:
            vin = values
        direct = values_out is not None and values_out._dtype.itemsize == vdt.itemsize
        vout = values_out if direct else ndarray((n,), vdt)
        vtmp = ndarray((n,), vdt)
        vptrs = (vin.data.ptr, vout.data.ptr, vtmp.data.ptr)
    else:
        vptrs = (0, 0, 0)
    hist_grid = max(1, min(-(-n // (_HIST_TILE[0] * _HIST_TILE[1])), 8 * _device._sm_count(_device.get_device_id())))
    hist_k.launch(hist_grid, _HIST_TILE[0], bins, keys.data.ptr, n, 0, 8 * kdt.itemsize)
    plan_k.launch(1, 256, bins, npasses, n, plan_ptr, keys.data.ptr, kout.data.ptr, ktmp.data.ptr, *vptrs)
    digits = 1 << _plan.RADIX_BITS
    sweep = sweep_k.launch
    for p in range(npasses):
        bit = p * _plan.RADIX_BITS
        nbits = min(_plan.RADIX_BITS, 8 * kdt.itemsize - bit)
        for q in range(sc.portions):
            start = q * sc.portion
            m = min(n - start, sc.portion)
            blocks = -(-m // tile)
            b_in = bins + ((q * npasses + p) * digits) * obytes
            b_out = bins + (((q + 1) * npasses + p) * digits) * obytes if q + 1 < sc.portions else 0
            lb = look + (q * npasses + p) * sc.lookback_stride
            ctr = ctrs + (q * npasses + p) * 4
            sweep(blocks, threads, plan_ptr, p, lb, ctr, b_out, b_in, start, m, bit, nbits)
    want_v = values_out is not None and vdt is not None
    fk = keys_out.data.ptr if keys_out is not None else 0
    fv = values_out.data.ptr if want_v else 0
    if fk or fv:
        finish_k.launch(_grid(n), 256, plan_ptr, n, fk, fv)
    del scratch, ktmp  # pool memory goes back in stream order


# -- rows ------------------------------------------------------------------------------------------

def _block_rows(keys2: ndarray, keys_out, pos_out, tile):
    rows, length = keys2._shape
    kct = _plan.key_ctype(keys2._dtype)
    threads, items, bits = tile
    vct = "int" if pos_out is not None else _NULL
    name = block_kernel_name(kct, vct, threads, items, bits)
    SORT.kernel(name).launch(rows, threads, keys2.data.ptr, 0 if keys_out is None else keys_out.data.ptr,
                             0 if pos_out is None else pos_out.data.ptr, length, length)


def _helpers(ct: str, ict: str):
    names = helper_kernel_names(ct, ict)
    return SORT.get(*names)


def _segmented(keys2: ndarray, keys_out, pos_out):
    """Rows too long for a block: argsort of every key, then a stable sort of the row ids."""
    rows, length = keys2._shape
    n = rows * length
    flat = keys2.reshape(n)
    idt = _I32 if n < 2**31 else _I64
    ict = "int" if idt == _I32 else "long long"
    perm = ndarray((n,), idt)
    _radix(flat, None, "iota", perm)
    gather_k, take_k, rowid_k, rowpos_k = _helpers(_plan.value_ctype(keys2._dtype.itemsize), ict)
    rid = ndarray((n,), _U4)
    rowid_k.launch(_grid(n), 256, perm.data.ptr, rid.data.ptr, n, length)
    perm2 = ndarray((n,), idt)
    _radix(rid, None, perm, perm2)
    if keys_out is not None:
        gather_k.launch(_grid(n), 256, flat.data.ptr, perm2.data.ptr, keys_out.data.ptr, n)
    if pos_out is not None:
        rowpos_k.launch(_grid(n), 256, perm2.data.ptr, pos_out.data.ptr, n, length)


def _rows(keys2: ndarray, want_keys: bool, want_pos: bool):
    """(sorted rows or None, int64 positions or None) of the C-contiguous 2-D `keys2`."""
    rows, length = keys2._shape
    keys_out = ndarray(keys2._shape, keys2._dtype) if want_keys else None
    pos_out = ndarray(keys2._shape, _I64) if want_pos else None
    if rows * length == 0:
        return keys_out, pos_out
    tile = _plan.block_tile(length, keys2._dtype.itemsize, 4 if want_pos else 0) if length > 1 else None
    if length == 1:
        if keys_out is not None:
            copyto_unchecked(keys_out, keys2)
        if pos_out is not None:
            pos_out.data.memset_async(0, pos_out.nbytes)
    elif tile is not None:
        _block_rows(keys2, keys_out, pos_out, tile)
    elif rows == 1:
        _radix(keys2.reshape(length), None if keys_out is None else keys_out.reshape(length),
               "iota" if want_pos else None, None if pos_out is None else pos_out.reshape(length))
    else:
        _segmented(keys2, keys_out, pos_out)
    return keys_out, pos_out


def _key_words(x2: ndarray):
    """Complex keys as unsigned words, most significant last (complex64: one uint64 word)."""
    ct = "cuarray::complex<float>" if x2._dtype.itemsize == 8 else "cuarray::complex<double>"
    words = (0,) if x2._dtype.itemsize == 8 else (2, 1)  # 0: whole key; 2: lo word, 1: hi word
    out = []
    n = x2._size
    for w in words:
        y = ndarray(x2._shape, _U8)
        SORT.kernel(key_word_kernel_name(ct, w)).launch(_grid(n), 256, x2.data.ptr, y.data.ptr, n)
        out.append(y)
    return out


def _take_rows(x2: ndarray, pos: ndarray) -> ndarray:
    """out[r, i] = x2[r, pos[r, i]] (C-contiguous 2-D arrays)."""
    rows, length = x2._shape
    out = ndarray(x2._shape, x2._dtype)
    n = x2._size
    if n:
        take_k = _helpers(_plan.value_ctype(x2._dtype.itemsize), "int")[1]
        take_k.launch(_grid(n), 256, x2.data.ptr, pos.data.ptr, out.data.ptr, n, length)
    return out


def order_keys(x: ndarray, inverse: bool = False, dtype=None) -> ndarray:
    """datetime64/timedelta64 counts as uint64 keys in NumPy's order (NaT last), or back
    (`inverse`, to `dtype`): one elementwise pass over int64/uint64 views of the same shape
    (searchsorted searches these keys too)."""
    d = _key_defs.get(inverse)
    if d is None:
        src, dst = (_U8, _I64) if inverse else (_I64, _U8)
        d = _key_defs[inverse] = Definition(
            "cuarray_datetime_sort_{}".format("values" if inverse else "keys"),
            (KernelParam("in0", "in", src), KernelParam("out0", "out", dst)),
            _datetimes.SORT_VALUE if inverse else _datetimes.SORT_KEY)
    out = ndarray(x._shape, _I64 if inverse else _U8)
    d.run((x.view(_U8 if inverse else _I64), out), (), x._shape)
    return out.view(dtype) if inverse else out


_key_defs: dict = {}
_caches.register("sort key definitions", _key_defs)


def argsort_rows(x2: ndarray) -> ndarray:
    """int64 stable positions sorting each row of the C-contiguous 2-D `x2`."""
    if x2._dtype.kind in "Mm":
        return _rows(order_keys(x2), False, True)[1]
    if x2._dtype.kind != "c":
        return _rows(x2, False, True)[1]
    words = _key_words(x2) if x2._size else []
    pos = None
    for w in words:  # least significant first: each pass is a stable sort of the permuted word
        wp = w if pos is None else _take_rows(w, pos)
        p = _rows(wp, False, True)[1]
        pos = p if pos is None else _take_rows(pos, p)
    return pos if pos is not None else ndarray(x2._shape, _I64)


def sort_rows(x2: ndarray) -> ndarray:
    """Each row of the C-contiguous 2-D `x2` sorted."""
    if x2._dtype.kind in "Mm":
        return order_keys(_rows(order_keys(x2), True, False)[0], True, x2._dtype)
    if x2._dtype.kind != "c":
        return _rows(x2, True, False)[0]
    return _take_rows(x2, argsort_rows(x2))


# -- public API ------------------------------------------------------------------------------------

def _as_rows(a: ndarray, axis):
    """(C-contiguous (rows, length) array, output shape, axis moved last or None)."""
    if _device_check.active[0]:
        _device_check.check((a,))
    if axis is None:
        flat = a.reshape(-1) if a._c else a.copy().reshape(-1)
        return flat.reshape(1, a._size), (a._size,), None
    ax = _shapes.normalize_axis_index(axis, a.ndim)
    moved = a if ax == a.ndim - 1 else a.swapaxes(ax, -1)
    if not moved._c:
        moved = moved.copy()
    length = moved._shape[-1]
    rows = moved._size // length if length else 0
    return moved.reshape(rows, length), moved._shape, ax


def _restore(y2: ndarray, shape, ax, a: ndarray):
    """The sorted rows back in `a`'s shape, in `a`'s memory order as NumPy's sort gives it (a
    C-contiguous input sorted along axis 0 gives a C-contiguous result, not a transposed view)."""
    y = y2.reshape(shape)
    if ax is not None and ax != a.ndim - 1:
        y = y.swapaxes(ax, -1)
    if a._c and not y._c:
        y = y.copy(order="C")
    elif a._f and not y._f:
        y = y.copy(order="F")
    return y


def sort(a: ndarray, axis=-1) -> ndarray:
    """Stable sorted copy of `a` along `axis` (None: flattened)."""
    x2, shape, ax = _as_rows(a, axis)
    return _restore(sort_rows(x2), shape, ax, a)


def argsort(a: ndarray, axis=-1) -> ndarray:
    """int64 positions that stably sort `a` along `axis` (None: flattened)."""
    x2, shape, ax = _as_rows(a, axis)
    return _restore(argsort_rows(x2), shape, ax, a)


def sort_pairs(keys: ndarray, values: ndarray):
    """(sorted keys, values moved with them): 1-D arrays of one length, stable."""
    if _device_check.active[0]:
        _device_check.check((keys, values))
    if keys.ndim != 1 or values.ndim != 1 or keys._size != values._size:
        raise ValueError("sort_pairs takes two 1-D arrays of one length")
    n = keys._size
    if keys._dtype.kind == "c" or n < 2:
        if n < 2:
            return keys.copy(), values.copy()
        pos = argsort(keys).reshape(1, n)
        k = keys if keys._c else keys.copy()
        v = values if values._c else values.copy()
        return _take_rows(k.reshape(1, n), pos).reshape(n), _take_rows(v.reshape(1, n), pos).reshape(n)
    if keys._dtype.kind in "Mm":  # uint64 keys in NumPy's order (NaT last), sorted, turned back
        ko, vo = sort_pairs(order_keys(keys), values)
        return order_keys(ko, True, keys._dtype), vo
    k = keys if keys._c else keys.copy()
    v = values if values._c else values.copy()
    ko, vo = ndarray((n,), k._dtype), ndarray((n,), v._dtype)
    _radix(k, ko, v, vo)
    return ko, vo


def lexsort(keys) -> ndarray:
    """int64 positions sorting along the last axis by `keys` (equal shapes; the last primary)."""
    keys = list(keys)
    shape = keys[0].shape
    pos = None
    for k in keys:
        x2, oshape, ax = _as_rows(k, -1) if k.ndim else _as_rows(k.reshape(1), -1)
        kp = x2 if pos is None else _take_rows(x2, pos)
        p = argsort_rows(kp)
        pos = p if pos is None else _take_rows(pos, p)
    return pos.reshape(shape) if pos is not None else ndarray(shape, _I64)
