"""Batched cuFFT transforms over distinct axes: dtypes, padding, layout, passes and scaling.

`transform(a, kind, axes, sizes, forward, norm, out)` runs one N-d transform ('c2c', 'r2c' or
'c2r'; for the real ones `axes[-1]` is the halved axis) over distinct axes with logical lengths
`sizes`. The steps:
1. dtypes as NumPy 2 (`dtypes_of`); the output shape and `out=` are checked before any launch.
2. The input is used in place (truncation by `sizes` is a view) unless it must be converted,
   zero-padded, protected (C2R overwrites its input) or relaid: then one copy makes a dense
   buffer, applying the normalisation on the way (the transform is linear).
3. Passes (`_schedule`): one plan of rank <= 3 when the layout nests (see `_layout`), else
   composition (a real transform on the halved axis, complex transforms on the others, chunks of
   at most 3 axes). When the layout cannot be planned, the copy of step 2 puts the transform axes
   innermost, where it always can.
4. The normalisation, if no copy took it, is one elementwise pass over the output.
A call whose input needs no copy caches its whole recipe (`_recipes`): the next call with the
same shape, strides and arguments allocates the output and runs the cached plan, nothing else.
"""

from __future__ import annotations

import math

import numpy

from .._core import device_check as _device_check
from .._core.elementwise import Definition, KernelParam
from .._core.copying import copyto_unchecked
from .._core.ndarray import _new_dense, ndarray
from ..cuda.libs import cufft as _cufft
from . import _layout
from ..cuda import caches as _caches

__all__ = ["transform", "dtypes_of", "scale_of"]

_C64, _C128 = numpy.dtype(numpy.complex64), numpy.dtype(numpy.complex128)
_F32, _F64 = numpy.dtype(numpy.float32), numpy.dtype(numpy.float64)
_TYPES = {("c2c", "F"): _cufft.C2C, ("c2c", "D"): _cufft.Z2Z, ("r2c", "F"): _cufft.R2C,
          ("r2c", "D"): _cufft.D2Z, ("c2r", "F"): _cufft.C2R, ("c2r", "D"): _cufft.Z2D}

_REAL_IN = (_cufft.R2C, _cufft.D2Z)
_REAL_OUT = (_cufft.C2R, _cufft.Z2D)


def dtypes_of(kind: str, dtype: numpy.dtype, name: str):
    """(dtype cuFFT reads, dtype cuFFT writes, dtype returned), by NumPy 2's rules: single
    precision stays single, float16 computes in single, integers and bools become double."""
    if kind == "c2c":
        c = numpy.result_type(dtype, 1j)
        return c, c, c
    if kind == "r2c":
        if dtype.kind == "c":
            raise TypeError("ufunc '{}' not supported for the input types, and the inputs could not be safely "
                            "coerced to any supported types according to the casting rule ''safe''".format(name))
        c = numpy.result_type(dtype, 1j)
        return (_F32 if c == _C64 else _F64), c, c
    real = numpy.dtype(dtype.char.lower()) if dtype.kind == "c" else dtype
    res = numpy.result_type(real, 1.0)
    return (_C64, _F32, res) if res.itemsize <= 4 else (_C128, _F64, res)


def scale_of(norm, forward: bool, n: int) -> float:
    if norm is None or norm == "backward":
        return 1.0 if forward else 1.0 / n
    if norm == "ortho":
        return 1.0 / math.sqrt(n)
    if norm == "forward":
        return 1.0 / n if forward else 1.0
    raise ValueError('Invalid norm value {}; should be "backward","ortho" or "forward".'.format(norm))


# -- elementwise helpers --------------------------------------------------------------------
_scale_defs: dict = {}
_caches.register("fft scale definitions", _scale_defs)


def _scaled_copy(dst: ndarray, src: ndarray, scale: float) -> None:
    """dst[...] = src * scale, casting (complex to real keeps the real part); one pass."""
    if scale == 1.0:
        copyto_unchecked(dst, src)
        return
    if dst._size == 0:
        return
    key = (src._dtype.char, dst._dtype.char)
    hit = _scale_defs.get(key)
    if hit is None:
        compute = _F32 if dst._dtype.char == "e" else dst._dtype
        real = _F64 if dst._dtype.char in "dD" else _F32
        d = Definition(
            "cuarray_fft_scale_{}_{}".format(src._dtype.name, dst._dtype.name),
            (KernelParam("in0", "in", src._dtype, compute), KernelParam("s", "scalar", real),
             KernelParam("out0", "out", dst._dtype, compute)),
            "out0 = in0 * s")
        hit = _scale_defs[key] = (d, real.type)
    d, stype = hit
    d.run((src, dst), (stype(scale),), dst._shape)


def _alloc(shape, order, dtype) -> ndarray:
    strides = _layout.dense_strides(shape, order, dtype.itemsize)
    return ndarray._new_strided(shape, dtype, strides)


# -- pass schedule ---------------------------------------------------------------------------
def _chunks(axes, strides):
    """Axes in groups of at most 3, innermost group first (each group is one plan)."""
    axes = sorted(axes, key=lambda ax: (-strides[ax], ax))
    out = []
    while axes:
        out.append(axes[-3:])
        axes = axes[:-3]
    return out


def _schedule(kind, axes, sizes, direction, src, out_shape, out_strides, in_dt, out_dt):
    """Steps [(what, Pass or None, direction)] with `what` in 'src>out', 'out>out', 'src>src'
    or 'copy' (a scaled cast copy src -> out: the transform of length-1 halved axes); None when a
    layout cannot be planned. Axes of length 1 are the identity and are left out."""
    n_of = dict(zip(axes, sizes))
    bufs = {"src": (src._shape, src._strides, in_dt.itemsize),
            "out": (out_shape, out_strides, out_dt.itemsize)}
    cdt = out_dt if kind == "r2c" else in_dt  # the complex dtype of this transform
    c2c_type = _TYPES[("c2c", cdt.char)]
    steps = []

    def plan(ax_list, what, typ, d, keep_last):
        i, o = bufs[what[:3]], bufs[what[4:]]
        p = _layout.plan_pass(i[0], i[1], i[2], o[0], o[1], o[2], ax_list, [n_of[ax] for ax in ax_list],
                              typ, keep_last)
        if p is None:
            return False
        # Real data must be aligned as the complex type at every execution's offset.
        k = 0 if typ in _REAL_IN else 1 if typ in _REAL_OUT else None
        if k is not None and any(off[k] % (2 * (i[2] if k == 0 else o[2])) for off in p.offsets):
            return False
        steps.append((what, p, d))
        return True

    last = axes[-1]
    if kind == "c2c":
        eff = [ax for ax in axes if n_of[ax] > 1]
        if not eff:
            return [("copy", None, 0)]
        for k, chunk in enumerate(_chunks(eff, src._strides)):
            if not plan(chunk, "src>out" if k == 0 else "out>out", c2c_type, direction, False):
                return None
        return steps
    others = [ax for ax in axes[:-1] if n_of[ax] > 1]
    typ = _TYPES[(kind, cdt.char)]
    if n_of[last] > 1 and len(others) < 3 and plan(others + [last], "src>out", typ, 0, True):
        return steps  # one plan of rank <= 3
    if kind == "r2c":
        # The real pass on the halved axis, then complex passes in place on the output.
        if n_of[last] == 1:
            steps.append(("copy", None, 0))
        elif not plan([last], "src>out", typ, 0, True):
            return None
        for chunk in _chunks(others, out_strides):
            if not plan(chunk, "out>out", c2c_type, _cufft.FORWARD, False):
                return None
        return steps
    # C2R: complex passes in place on the (private) input copy, then the real pass.
    for chunk in _chunks(others, src._strides):
        if not plan(chunk, "src>src", c2c_type, _cufft.INVERSE, False):
            return None
    if n_of[last] == 1:
        steps.append(("copy", None, 0))
    elif not plan([last], "src>out", typ, 0, True):
        return None
    return steps


def _run(steps, src, outbuf, scale_pending):
    get_plan, execute = _cufft.get_plan, _cufft.execute
    sp, op = src.data.ptr, outbuf.data.ptr
    for what, p, direction in steps:
        if what == "copy":
            _scaled_copy(outbuf, src, scale_pending)
            scale_pending = 1.0
            continue
        plan = get_plan(p.key)
        ip = sp if what[0] == "s" else op
        dp = op if what[-1] == "t" else sp
        for io, oo in p.offsets:
            execute(plan, ip + io, dp + oo, direction)
    return scale_pending


# -- the fast path: whole recipes of calls that need no input copy ----------------------------
_recipes: dict = {}
_caches.register("fft recipes", _recipes)
_MAX_RECIPES = 1024


def run_recipe(r, a: ndarray) -> ndarray:
    """HOT PATH: a cached recipe on `a`: allocate the output, run the plan, scale."""
    pkey, shape, strides, size, dt, c, f, direction, scale = r
    if _device_check.active[0]:
        _device_check.check((a,))
    res = _new_dense(shape, strides, size, dt, c, f)
    _cufft.execute(_cufft.get_plan(pkey), a.data.ptr, res.data.ptr, direction)
    if scale != 1.0:
        _scaled_copy(res, res, scale)
    return res


def transform(a: ndarray, kind: str, axes, sizes, forward: bool, norm, out, name: str, rkey=None):
    """Run the transform; returns the result (`out` when given). See the module docstring.
    `rkey`: the key under which the caller looks up this call's recipe (default: one made of
    these arguments; the 1-D functions key by their raw arguments, before any validation)."""
    if _device_check.active[0]:
        _device_check.check((a, out))
    if out is None and rkey is None:
        rkey = (kind, forward, a._shape, a._strides, a._dtype, axes, sizes, norm, a.data.ptr & 15)
        r = _recipes.get(rkey)
        if r is not None:
            return run_recipe(r, a)
    in_dt, out_dt, res_dt = dtypes_of(kind, a._dtype, name)
    scale = scale_of(norm, forward, math.prod(sizes))
    direction = _cufft.FORWARD if forward else _cufft.INVERSE
    nd = len(a._shape)
    in_shape, out_shape = list(a._shape), list(a._shape)
    for ax, n in zip(axes, sizes):
        in_shape[ax] = out_shape[ax] = n
    if kind == "r2c":
        out_shape[axes[-1]] = sizes[-1] // 2 + 1
    elif kind == "c2r":
        in_shape[axes[-1]] = sizes[-1] // 2 + 1
    in_shape, out_shape = tuple(in_shape), tuple(out_shape)
    if out is not None:
        _check_out(out, out_shape, res_dt, name)
    if math.prod(out_shape) == 0:
        return out if out is not None else _alloc(out_shape, list(range(nd)), res_dt)

    # Input: truncate by a view; copy when converting, padding or protecting it (C2R).
    src = a
    cut = tuple(min(s, t) for s, t in zip(a._shape, in_shape))
    if cut != a._shape:
        src = ndarray._view(cut, a._strides, a._dtype, a.data, a)
    copied = False
    order = _layout.k_order(src._shape, src._strides)
    # cuFFT rejects (at execution) real data not aligned as its complex type: R2C input,
    # C2R output (measured: views starting at an odd float32 element fail with INVALID_VALUE).
    if (src._dtype != in_dt or cut != in_shape or kind == "c2r"
            or (kind == "r2c" and src.data.ptr % (2 * in_dt.itemsize))):
        src = _copy_in(src, in_shape, in_dt, order, scale)
        copied, scale = True, 1.0
    if kind == "c2r" and len(axes) == 1 and sizes[0] > 1:
        _drop_imag(src, axes[0], sizes[0])

    # Output: into `out` when its dtype and layout allow, else a buffer in the input's order.
    steps = None
    if (out is not None and out._dtype == out_dt and not out._overlaps(a)
            and not (kind == "c2r" and out.data.ptr % (2 * out_dt.itemsize))):
        outbuf = out
        steps = _schedule(kind, axes, sizes, direction, src, out_shape, out._strides, in_dt, out_dt)
    if steps is None:
        outbuf = _alloc(out_shape, _layout.k_order(src._shape, src._strides), out_dt)
        steps = _schedule(kind, axes, sizes, direction, src, out_shape, outbuf._strides, in_dt, out_dt)
    if steps is None:
        # The input's layout does not plan: copy it with the transform axes innermost.
        order = _layout.transform_last_order(nd, axes)
        src = _copy_in(src, in_shape, in_dt, order, scale)
        copied, scale = True, 1.0
        outbuf = _alloc(out_shape, order, out_dt)
        steps = _schedule(kind, axes, sizes, direction, src, out_shape, outbuf._strides, in_dt, out_dt)
        if steps is None:  # pragma: no cover - a dense transform-last layout always plans
            raise RuntimeError("cuarray.fft.{}: no cuFFT plan for shape {} axes {}".format(name, a._shape, axes))

    if (rkey is not None and not copied and len(steps) == 1 and steps[0][0] == "src>out"
            and steps[0][1].offsets == ((0, 0),) and res_dt == out_dt):
        if len(_recipes) >= _MAX_RECIPES:
            _recipes.clear()
        _recipes[rkey] = (steps[0][1].key, outbuf._shape, outbuf._strides, outbuf._size, out_dt,
                          outbuf._c, outbuf._f, steps[0][2], scale)

    scale = _run(steps, src, outbuf, scale)
    if out is not None and outbuf is not out:
        _scaled_copy(out, outbuf, scale)
        return out
    if res_dt != out_dt:  # float16 results of C2R: computed in float32
        res = _alloc(out_shape, _layout.k_order(outbuf._shape, outbuf._strides), res_dt)
        _scaled_copy(res, outbuf, scale)
        return res
    if scale != 1.0:
        _scaled_copy(outbuf, outbuf, scale)
    return outbuf


_imag_defs: dict = {}
_caches.register("fft imaginary part definitions", _imag_defs)


def _drop_imag(buf: ndarray, axis: int, n: int) -> None:
    """Zero the imaginary parts of the first (and, for even n, the n/2-th) entries along `axis`
    of the private C2R input, in place: NumPy's irfft ignores them, cuFFT's large C2R kernels do
    not (measured: irfft of 2**13 points of random complex64 input differed by 5e-3)."""
    d = _imag_defs.get(buf._dtype.char)
    if d is None:
        dt = buf._dtype
        d = _imag_defs[dt.char] = Definition(
            "cuarray_fft_drop_imag_" + dt.name,
            (KernelParam("in0", "in", dt), KernelParam("out0", "out", dt)), "out0 = in0.real()")
    shape = buf._shape[:axis] + (1,) + buf._shape[axis + 1:]
    idx = [0] if n % 2 else [0, n // 2]
    for k in idx:
        mem = buf.data + k * buf._strides[axis]
        v = ndarray._view(shape, buf._strides, buf._dtype, mem, buf)
        d.run((v, v), (), shape)


def _copy_in(src, in_shape, in_dt, order, scale) -> ndarray:
    """A dense buffer of `in_shape` in axis `order` holding src * scale, zero-padded."""
    buf = _alloc(in_shape, order, in_dt)
    if src._shape != in_shape:
        buf.data.memset_async(0, buf.nbytes)
        dst = ndarray._view(src._shape, buf._strides, in_dt, buf.data, buf)
    else:
        dst = buf
    _scaled_copy(dst, src, scale)
    return buf


def _check_out(out, shape, res_dt, name) -> None:
    if not isinstance(out, ndarray):
        raise TypeError("cuarray.fft.{}: out must be a cuarray.ndarray, got {}".format(name, type(out).__name__))
    if out._shape != shape:
        raise ValueError("output array has wrong shape.")
    if not numpy.can_cast(res_dt, out._dtype, "same_kind"):
        raise TypeError("Cannot cast ufunc '{}' output from {!r} to {!r} with casting rule 'same_kind'".format(
            name, res_dt, out._dtype))
    if not out._writeable:
        raise ValueError("output array is read-only")
