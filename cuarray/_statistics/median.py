"""Medians (NumPy "Statistics / Order statistics"): median, nanmedian.

No sort: each row's middle element is found by radix bisection over order-preserving unsigned
keys, with the reduction engine counting. A value maps to a key (`median_keys` below) whose
unsigned order is NumPy's sort order: floats flip their sign bit (negatives all their bits), every
NaN becomes the largest key, signed integers flip the sign bit, complex numbers are two words
(real, imag) with NumPy's NaN classes above every number. For the key of rank k of a row (0-based,
NaNs last) the prefix P starts at 0 and each pass fixes the next two bits (the next one when the
key has an odd number of bits): one reduction counts, per row, the keys below the candidates
P + 1, 2, 3 * 2^shift, and its post-map keeps the largest candidate with at most k keys below it.
After `bits / 2` passes P is the key itself. A row of even length also needs rank k + 1: one more
reduction counts the keys <= P (more than k + 1: rank k + 1 is P again) and finds the smallest key
above P. complex128's 128-bit keys are bisected word by word (high word, then the low word within
the row's high word).

A row's rank word r = 2k + (1 when the median averages ranks k and k + 1) is a host scalar for
integer and bool input, or, for inexact input, one reduction counting the row's NaNs: `median`
then takes a row with a NaN at rank L - 1 (the row's largest element, a NaN: NumPy returns it),
`nanmedian` ranks only the non-NaN elements. Everything stays on the device: no synchronisation.

Launches (float32, one reduced row set): 1 (NaN count) + 16 (passes) + 1 (finish) = 18, plus a
memset; ints skip the NaN count; passes per dtype: bool 1, 8-bit 4, 16-bit 8, 32-bit 16, 64-bit
and complex64 32, complex128 64.
"""

from __future__ import annotations

import math
import pathlib
import warnings

import numpy

from .._core import dtypes as _dtypes
from .._core.elementwise import Definition, KernelParam
from .._core.copying import copyto_unchecked, fill
from .._core.ndarray import ndarray
from .._core.reduction import ReductionDef
from .._core.host_input import as_array
from .._core.reduction_ops import normalize_axes, reduced_shape, result_dtype
from .._logic.content import isnan
from .._logic.truth import all as all_
from .._manipulation.transpose import moveaxis
from .._sorting.searching import where
from ..cuda import caches as _caches

__all__ = ["median", "nanmedian"]

_U1, _U2, _U4, _U8 = (numpy.dtype(t) for t in ("u1", "u2", "u4", "u8"))
_I4, _I8 = numpy.dtype(numpy.int32), numpy.dtype(numpy.int64)

# (kind, itemsize) -> (key dtype: one key word, or each of complex128's two; bits of the key)
_KEYS = {
    ("b", 1): (_U1, 1), ("i", 1): (_U1, 8), ("u", 1): (_U1, 8), ("i", 2): (_U2, 16), ("u", 2): (_U2, 16),
    ("i", 4): (_U4, 32), ("u", 4): (_U4, 32), ("i", 8): (_U8, 64), ("u", 8): (_U8, 64),
    ("f", 2): (_U2, 16), ("f", 4): (_U4, 32), ("f", 8): (_U8, 64), ("c", 8): (_U8, 64), ("c", 16): (_U8, 128),
}
# The C type numpy.mean computes a median in (`median_mean`): float64 for bool and integers,
# float32 for float16 (rounded to float16 after the division), else the input's type.
_MEAN_T = {"e": "float", "f": "float", "F": "complex<float>", "D": "complex<double>"}  # others: double
# Rows longer than this count in 64 bits (the rank word 2k + 1 must fit in 32 bits otherwise).
_INT32_ROW = 2**30


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """See `numpy.median`. The input is never modified (`overwrite_input` is accepted and
    ignored); a 0-d result is a 0-d array. A row holding a NaN gives a NaN (complex: NumPy's
    largest NaN element, with a canonical NaN for the NaN parts).

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([[10, 7, 4], [3, 2, 1]])
    >>> cuarray.median(a, axis=1)
    array([7., 2.])
    >>> float(cuarray.median(a))  # a host value: waits for the GPU
    3.5
    """
    return _median(a, axis, out, keepdims, skipnan=False)


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """See `numpy.nanmedian`. An all-NaN row gives NaN without NumPy's RuntimeWarning (that would
    need a synchronisation). Near the dtype's largest values cuarray follows `median`'s
    arithmetic; NumPy's path for rows under 600 elements adds the middle values in the input
    type and can overflow to inf (float16, float32).

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([[10., cuarray.nan, 4.], [3., 2., 1.]])
    >>> cuarray.nanmedian(a, axis=1)
    array([7., 2.])
    """
    return _median(a, axis, out, keepdims, skipnan=True)


def _median(a, axis, out, keepdims, skipnan):
    a = as_array(a, "nanmedian" if skipnan else "median")
    if a._dtype.kind in "Mm":  # (NumPy averages the middle two as timedeltas; not on the GPU)
        raise TypeError("{} of {} is not supported on the GPU".format("nanmedian" if skipnan else "median", a._dtype))
    raxes = normalize_axes(axis, a.ndim)
    res = result_dtype(numpy.median, a._dtype)
    kshape = reduced_shape(a._shape, raxes, False)
    final = reduced_shape(a._shape, raxes, keepdims)
    if out is not None:
        if not isinstance(out, ndarray):
            raise TypeError("out must be a cuarray ndarray, got {}".format(type(out)))
        if out._shape != final:
            raise ValueError("output array has the wrong shape: {} (expected {})".format(out._shape, final))
        if not out._writeable:
            raise ValueError("output array is read-only")
        y = out
        if keepdims:  # write through a view without the length-1 axes
            kstr = tuple(s for i, s in enumerate(out._strides) if i not in raxes)
            y = ndarray._view(kshape, kstr, out._dtype, out.data, out)
    else:
        y = ndarray(kshape, res)
    n = math.prod(a._shape[i] for i in raxes)
    if y._size:
        if n == 0:
            # NumPy's message (numpy.mean of the empty slice); decided from shapes alone.
            warnings.warn("Mean of empty slice", RuntimeWarning, stacklevel=3)
            fill(y, complex(numpy.nan, numpy.nan) if y._dtype.kind == "c" else numpy.nan)
        else:
            target = y
            if y._overlaps(a):  # out= overlaps the input, which every pass reads
                y = ndarray(kshape, y._dtype)
            if a.ndim == 0:  # one row of one element, as NumPy does it (a mean of one value)
                a, raxes = a.reshape(1), (0,)
            _select(a, raxes, n, y, skipnan)
            if skipnan and a._dtype.kind == "c" and y._dtype.kind == "c":
                # NumPy's nanmedian of rows under 600 along kept axes (a masked median) fills an
                # all-NaN row with nan+0j; its other paths return the row's last element (in
                # the C order of the reduced axes), where ours is the NaN its sort order ranks first
                allnan = all_(isnan(a), axis=raxes)
                if axis is not None and len(raxes) < len(a._shape) and n < 600:
                    fill_value = complex(numpy.nan, 0)
                else:
                    rows = moveaxis(a, raxes, tuple(range(a.ndim - len(raxes), a.ndim)))
                    fill_value = rows.reshape(kshape + (n,))[..., -1]
                copyto_unchecked(y, where(allnan, fill_value, y))
            if y is not target:
                copyto_unchecked(target, y)
    if out is not None:
        return out
    return y.reshape(final) if keepdims else y


def _select(a, raxes, n, y, skipnan) -> None:
    """Write the median of each row of `a` (`n` elements over `raxes`) into `y` (the kept shape)."""
    dt = a._dtype
    kdt, bits = _KEYS[(dt.kind, dt.itemsize)]
    cdt = _I4 if n <= _INT32_ROW else _I8
    x = a.view(_U2) if dt.char == "e" else a  # float16 is read as its bits: no cuda_fp16.h
    shape = a._shape
    keep = reduced_shape(shape, raxes, True)

    def rows(rdt):
        buf = ndarray(y._shape, rdt)
        return buf, buf.reshape(keep)

    inexact = dt.kind in "fc"
    if inexact:
        r_buf, r = rows(cdt)
        _rank_def(dt, cdt, skipnan).launcher(shape, [x], r_buf._strides, raxes)(
            (x.data.ptr, cdt.type(n)), r_buf.data.ptr)
        rank_arrays, rank_scalars = [r], ()
    else:
        rank_arrays, rank_scalars = [], (cdt.type(_rank(n, 0, skipnan)),)
    # Bisection: one word, or complex128's high word and then its low word.
    phases = ["hi", "lo"] if bits == 128 else ["one"]
    h = hv = None
    for phase in phases:
        p_in, pv = rows(kdt)
        p_out, _ = rows(kdt)
        fill(p_in, 0)
        fixed = [x] + ([hv] if phase == "lo" else [])
        arrays = fixed + [pv] + rank_arrays
        lau = _bisect_def(dt, kdt, cdt, inexact, phase).launcher(shape, arrays, p_in._strides, raxes)
        head0 = tuple(v.data.ptr for v in fixed)
        head1 = tuple(v.data.ptr for v in rank_arrays) + rank_scalars
        for shift, top in _digits(min(bits, 64)):
            lau(head0 + (p_in.data.ptr,) + head1 + (kdt.type(1 << shift), kdt.type(top)), p_out.data.ptr)
            p_in, p_out = p_out, p_in
        if phase == "hi":
            h, hv = p_in, p_in.reshape(keep)
    p, pv = p_in, p_in.reshape(keep)
    # Finish: rank k + 1 where a row may average two values (a reduction), else decode P.
    if n % 2 == 0 or (skipnan and inexact):
        arrays = [x] + ([hv] if h is not None else []) + [pv] + rank_arrays
        d = _upper_def(dt, cdt, inexact, y._dtype)
        d.launcher(shape, arrays, y._strides, raxes)(tuple(v.data.ptr for v in arrays) + rank_scalars, y.data.ptr)
    else:
        _value_def(dt, y._dtype).run(([h] if h is not None else []) + [p, y], (), y._shape)


def _digits(bits: int) -> list:
    """(shift, top) of each pass over a key word of `bits` bits, most significant first: two bits
    a pass (candidates P + 1..top * 2^shift, top 3), one (top 1) first when `bits` is odd.

    Two bits, not one: a pass is a full read of the input, and three compares per element cost
    next to nothing beside it, so this halves the time. (Reasoned, not swept; three bits would
    need seven counts per accumulator, and the engine keeps eight accumulators per thread.)"""
    out = []
    if bits % 2:
        bits -= 1
        out.append((bits, 1))
    while bits:
        bits -= 2
        out.append((bits, 3))
    return out


def _rank(n: int, nans: int, skipnan: bool) -> int:
    """The rank word 2k + pair of a row of `n` elements with `nans` NaNs (`median_rank` in C)."""
    if nans > 0 and not skipnan:
        return 2 * (n - 1)
    if skipnan:
        n -= nans
    return 2 * ((n - 1) // 2) + (n % 2 == 0) if n > 0 else 0


# -- kernels -----------------------------------------------------------------------------------
# The kernels' preamble (real CUDA in templates/median.cuh), read once at import.
_HELPERS = (pathlib.Path(__file__).parent / "templates" / "median.cuh").read_text()

_defs: dict = {}
_caches.register("median definitions", _defs)


def _keys_t(dt) -> str:
    return "median_half" if dt.char == "e" else _dtypes.ctype(dt)


def _mean_t(dt) -> str:
    return _MEAN_T.get(dt.char, "double")


def _x_param(dt) -> KernelParam:
    xdt = _U2 if dt.char == "e" else dt
    return KernelParam("x", "in", xdt, xdt)


def _rank_param(cdt, inexact) -> KernelParam:
    """The rank word: per row (an array) for inexact input, else one host scalar."""
    return KernelParam("r", "in" if inexact else "scalar", cdt, cdt)


def _preamble(dt, k_ctype, cdt) -> str:
    """The helpers, then Keys (the input's key traits), K (the key or key-word type), C (counts)."""
    k = "typedef {} K;\n".format(k_ctype) if k_ctype else ""
    return "{}\ntypedef median_keys<{}> Keys;\n{}typedef {} C;\n".format(_HELPERS, _keys_t(dt), k, _dtypes.ctype(cdt))


def _name(what, dt, cdt, extra="") -> str:
    return "cuarray_median_{}_{}{}{}".format(what, dt.name, extra, "_n64" if cdt.itemsize == 8 else "")


def _rank_def(dt, cdt, skipnan) -> ReductionDef:
    """Per row: the rank word from the row's NaN count (inexact dtypes)."""
    key = ("rank", dt, cdt, skipnan)
    d = _defs.get(key)
    if d is None:
        d = _defs[key] = ReductionDef(
            _name("nanrank" if skipnan else "rank", dt, cdt), [_x_param(dt), KernelParam("n", "scalar", cdt, cdt)],
            KernelParam("r", "out", cdt, cdt), "C", cdt.itemsize, "C(Keys::is_nan(x))", "a + b", "C(0)",
            "r = median_rank(n, a, {})".format("true" if skipnan else "false"),
            preamble=_preamble(dt, None, cdt))
    return d


def _bisect_def(dt, kdt, cdt, inexact, phase) -> ReductionDef:
    """One bisection pass: prefix p (previous pass) -> q. `phase`: 'one' (the whole key), or
    complex128's 'hi' word then 'lo' word (in the row's high word h)."""
    key = ("bisect", dt, cdt, inexact, phase)
    d = _defs.get(key)
    if d is None:
        kt = _dtypes.ctype(kdt)
        params = [_x_param(dt)]
        if phase == "lo":
            params.append(KernelParam("h", "in", kdt, kdt))
        params += [KernelParam("p", "in", kdt, kdt), _rank_param(cdt, inexact),
                   KernelParam("step", "scalar", kdt, kdt), KernelParam("top", "scalar", kdt, kdt)]
        x_key = {"one": "Keys::key(x)", "hi": "Keys::hi(x)", "lo": "Keys::lo_within(x, h)"}[phase]
        d = _defs[key] = ReductionDef(
            _name("bisect", dt, cdt, "" if phase == "one" else "_" + phase), params,
            KernelParam("q", "out", kdt, kdt), "median_counts<K, C>", 8 * 5,  # at most five 8-byte fields
            "median_count({}, p, r, step, top)".format(x_key), "median_count_add(a, b)", "_acc_t()",
            "q = median_next(a, step, top)", preamble=_preamble(dt, kt, cdt))
    return d


def _upper_def(dt, cdt, inexact, ydt) -> ReductionDef:
    """The finishing reduction: ranks k and k + 1 -> the median, written into y (dtype `ydt`)."""
    key = ("upper", dt, cdt, inexact, ydt)
    d = _defs.get(key)
    if d is None:
        kdt, bits = _KEYS[(dt.kind, dt.itemsize)]
        params = [_x_param(dt)]
        if bits == 128:
            params.append(KernelParam("h", "in", kdt, kdt))
        params += [KernelParam("p", "in", kdt, kdt), _rank_param(cdt, inexact)]
        p_key = "Keys::join(h, p)" if bits == 128 else "p"
        yt = _dtypes.ctype(ydt)
        d = _defs[key] = ReductionDef(
            _name("upper", dt, cdt, "_to_" + ydt.name), params, KernelParam("y", "out", ydt, ydt),
            "median_upper<K, C>", 8 * 6, "median_upper_of(Keys::key(x), {}, r)".format(p_key),  # key2: 16 bytes
            "median_upper_add(a, b)", "_acc_t{C(0), median_max_key<K>(), K(), C(0)}",
            "y = cuarray::cast<{}>(median_mean<{}>(Keys::value(a.p), Keys::value(median_upper_key(a)), "
            "(a.r & 1) != 0))".format(yt, _mean_t(dt)),
            preamble=_preamble(dt, "Keys::key_t", cdt))
    return d


def _value_def(dt, ydt) -> Definition:
    """Elementwise finish when no row averages two values: decode the key of rank k."""
    key = ("value", dt, ydt)
    d = _defs.get(key)
    if d is None:
        kdt, bits = _KEYS[(dt.kind, dt.itemsize)]
        params = [KernelParam("h", "in", kdt, kdt)] if bits == 128 else []
        params += [KernelParam("p", "in", kdt, kdt), KernelParam("y", "out", ydt, ydt)]
        p_key = "Keys::join(h, p)" if bits == 128 else "p"
        yc = "float" if ydt.char == "e" else _dtypes.ctype(ydt)
        name = "cuarray_median_value_{}_to_{}".format(dt.name, ydt.name)
        # The elementwise preamble is not namespaced: put ours in a namespace of the kernel's name.
        preamble = "namespace {}_ns {{\n{}}}\nusing namespace {}_ns;\n".format(
            name, _preamble(dt, "Keys::key_t", _I4), name)
        d = _defs[key] = Definition(
            name, params, "y = cuarray::cast<{}>(median_mean<{}>(Keys::value({k}), Keys::value({k}), false))".format(
                yc, _mean_t(dt), k=p_key), preamble=preamble)
    return d
