"""Numerical ranges: arange, linspace, logspace, geomspace, meshgrid. See NumPy's "Array creation /
Numerical ranges".

Each routine is one elementwise kernel over the flat index `i` of a new C-contiguous array; the
scalar set-up (length, dtype, first values, step) is done on the host by `arange_plan` and
`linspace_plan`, pure functions tested against NumPy without a device.

Rounding: NumPy computes these values with separate multiplies and adds (never a fused
multiply-add), so the kernels use the `__fmul_rn`/`__dadd_rn` family, which NVRTC never contracts;
integers wrap exactly as NumPy's C loops do.
"""

from __future__ import annotations

import math
import operator
import pathlib

import numpy

from .._core import dtypes as _dtypes
from .._core import transfer as _transfer
from .._core.elementwise import Definition, KernelParam, compute_ctype
from .._core.ndarray import ndarray, _new_c
from .._manipulation.dims import broadcast_arrays
from .._manipulation.shape import reshape
from .._manipulation.transpose import moveaxis
from .from_data import asarray
from ..cuda import caches as _caches

__all__ = ["arange", "linspace", "logspace", "geomspace", "meshgrid", "arange_plan", "linspace_plan"]

_INTP_MAX = 2**63 - 1
_I64 = numpy.dtype(numpy.int64)
_U64 = numpy.dtype(numpy.uint64)
_F32 = numpy.dtype(numpy.float32)
_F64 = numpy.dtype(numpy.float64)

# Correctly rounded float operations that the compiler never fuses, for float and double;
# `_r` rounds a value computed in float to the storage precision (float16 arithmetic in NumPy is
# done in float and rounded to half after every operation).
_PREAMBLE = (pathlib.Path(__file__).parent / "templates" / "ranges.cuh").read_text()


# ------------------------------------------------------------------------------------------
# Host-side scalar values

def _host_scalar(x):
    """A cuarray 0-d array becomes its NumPy scalar (synchronising); anything else is kept."""
    if isinstance(x, ndarray):
        if x.ndim != 0:
            raise TypeError("arange: scalar arguments expected, got an array of shape {}".format(x.shape))
        return x.get()[()]
    return x


def _discovered_dtype(x, current: numpy.dtype) -> numpy.dtype:
    # NumPy's arange starts from the C long type and promotes with each argument's own dtype
    # (legacy discovery: a Python int is int64, a float float64, a NumPy scalar its dtype).
    if isinstance(x, bool):
        dt = numpy.dtype(bool)
    elif isinstance(x, (int, float, complex)) and not isinstance(x, numpy.generic):
        dt = numpy.asarray(x).dtype
    else:
        dt = numpy.asarray(x).dtype
    return numpy.promote_types(current, dt)


def _ceil_length(value: float) -> int:
    if value != value:
        raise ValueError("arange: cannot compute length")
    try:
        n = math.ceil(value)
    except OverflowError:
        raise ValueError("Maximum allowed size exceeded") from None
    if n > _INTP_MAX or n < -_INTP_MAX - 1:
        raise ValueError("Maximum allowed size exceeded")
    return n


def arange_plan(start, stop=None, step=None, dtype=None):
    """NumPy's arange set-up: ``(length, dtype, first, second)``; pure, needs no device.

    `first` and `second` are the first two elements as NumPy scalars of `dtype` (NumPy stores
    ``start`` and ``start + step``, computed on the Python/NumPy scalar objects, then fills the rest
    as ``first + i * (second - first)`` in the dtype).
    """
    start, stop, step = _host_scalar(start), _host_scalar(stop), _host_scalar(step)
    if dtype is None:
        dt = numpy.dtype(numpy.int64)
        for x in (start, stop, step):
            if x is not None:
                dt = _discovered_dtype(x, dt)
    else:
        dt = numpy.dtype(dtype)
    dt = _dtypes.normalize_dtype(dt)
    if dt.kind in "Mm":  # (NumPy's datetime ranges count in the unit; not planned here)
        raise TypeError("arange of {} is not supported on the GPU: use cuarray.asarray(numpy.arange(...))".format(dt))
    if step is None:
        step = 1
    if stop is None:
        start, stop = 0, start
    try:
        diff = stop - start
        val = diff / step
    except OverflowError:
        raise ValueError("Maximum allowed size exceeded") from None
    except TypeError:
        if isinstance(stop, tuple) or isinstance(start, tuple):
            raise TypeError("arange: scalar arguments expected instead of a tuple.") from None
        raise
    if dt.kind == "c" and isinstance(val, (complex, numpy.complexfloating)):
        length = min(_ceil_length(float(val.real)), _ceil_length(float(val.imag)))
    else:
        if isinstance(val, (complex, numpy.complexfloating)):
            raise TypeError("must be real number, not complex")
        fval = float(val)
        if fval == 0.0 and diff != 0:
            # NumPy's underflow (and divide-by-inf) rule: a quotient that rounds to zero in the
            # operands' precision while stop != start counts one element, none when it is -0.0
            length = 0 if math.copysign(1.0, fval) < 0 else 1
        else:
            length = _ceil_length(fval)
    length = max(length, 0)
    if length * dt.itemsize > _INTP_MAX:  # NumPy checks the size before it stores any element
        raise ValueError("array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum "
                         "possible size.")
    buf = numpy.zeros(2, dt)
    if length > 0:
        if dt.kind == "b" and length > 2:
            raise TypeError("arange() is only supported for booleans when the result has at most length 2.")
        buf[0] = start
        try:
            second = start + step  # NumPy computes it for any non-empty range
        except OverflowError:  # (-1 + uint8(20): NEP 50's OverflowError, NumPy's ValueError)
            raise ValueError("Maximum allowed size exceeded") from None
        if length > 1:
            buf[1] = second
    return length, dt, buf[0], buf[1]


_arange_defs: dict = {}
_caches.register("arange definitions", _arange_defs)


def _arange_def(dt: numpy.dtype) -> Definition:
    d = _arange_defs.get(dt.char)
    if d is not None:
        return d
    name = "cuarray_arange_{}".format(dt.name)
    if dt.kind in "iub":
        # Modular arithmetic in 64 bits then a truncating store: NumPy's C loop gives the same.
        ct = _U64 if dt == _U64 else _I64
        cname = _dtypes.ctype(ct)
        params = (KernelParam("start", "scalar", ct), KernelParam("delta", "scalar", ct),
                  KernelParam("out0", "out", dt, ct))
        op = "out0 = start + ({})i * delta".format(cname)
        d = Definition(name, params, op)
    elif dt.kind == "f":
        # float16 is computed in float and rounded once, like NumPy's HALF_fill.
        ct = _F64 if dt.char == "d" else _F32
        cname = _dtypes.ctype(ct)
        params = (KernelParam("start", "scalar", ct), KernelParam("second", "scalar", ct),
                  KernelParam("delta", "scalar", ct), KernelParam("out0", "out", dt, ct))
        op = ("out0 = i == 0 ? start : i == 1 ? second : "
              "cuarray_ranges::add(start, cuarray_ranges::mul(({})i, delta))".format(cname))
        d = Definition(name, params, op, preamble=_PREAMBLE)
    else:
        real = _F32 if dt.char == "F" else _F64
        cname = _dtypes.ctype(real)
        params = (KernelParam("start", "scalar", dt), KernelParam("second", "scalar", dt),
                  KernelParam("delta", "scalar", dt), KernelParam("out0", "out", dt))
        op = ("out0 = i == 0 ? start : i == 1 ? second : {ct}(cuarray_ranges::add(start.real(), "
              "cuarray_ranges::mul(({rt})i, delta.real())), cuarray_ranges::add(start.imag(), "
              "cuarray_ranges::mul(({rt})i, delta.imag())))").format(ct=_dtypes.ctype(dt), rt=cname)
        d = Definition(name, params, op, preamble=_PREAMBLE)
    _arange_defs[dt.char] = d
    return d


def _arange_scalars(dt, first, second):
    """Kernel scalars for `_arange_def(dt)` (NumPy's fill: delta = second - first in the dtype)."""
    if dt.kind in "iub":
        ct = numpy.uint64 if dt == _U64 else numpy.int64
        a, b = int(first), int(second)
        mask = 2**64 - 1
        delta = (b - a) & mask
        if ct is numpy.int64:
            a = a - 2**64 if a >= 2**63 else a
            delta = delta - 2**64 if delta >= 2**63 else delta
        return ct(a), ct(delta)
    if dt.kind == "f":
        ct = numpy.float64 if dt.char == "d" else numpy.float32
        a, b = ct(first), ct(second)
        with numpy.errstate(all="ignore"):
            return a, b, ct(b - a)
    # complex: each part subtracted in the part's precision
    real = numpy.float32 if dt.char == "F" else numpy.float64
    a, b = dt.type(first), dt.type(second)
    with numpy.errstate(all="ignore"):
        dr = real(b.real) - real(a.real)
        di = real(b.imag) - real(a.imag)
    delta = numpy.empty((), dt)
    delta.real, delta.imag = dr, di
    return a, b, delta[()]


_arange_plans: dict = {}
_caches.register("arange prepared launches", _arange_plans)
_PLAIN = (int, float)
_PLAIN_NONE = (int, float, type(None))


def _prepared(plan) -> tuple:
    """What a memoised plan launches with: ``(shape, dtype, go, mask, plan)``, `go(address)` the
    engine's prepared launch of the vector layout (`elementwise.FlatLaunch.bind`), valid for
    addresses with ``address & mask == 0`` (pool blocks are 512-byte aligned, so always, but a
    foreign allocator may differ); go None when the launch is not prepared (empty, short or huge
    results: the general path)."""
    length, dt, first, second = plan
    policy = _arange_def(dt)._flat  # the engine's launch policy (elementwise.FlatLaunch)
    go = policy.bind(length, _arange_scalars(dt, first, second)) if length else None
    return (length,), dt, go, policy.masks[0], plan


def arange(start, stop=None, step=None, dtype=None, *, device=None, like=None) -> ndarray:
    """See `numpy.arange`: the same length, dtype and values (one kernel).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.arange(5)
    array([0, 1, 2, 3, 4])
    >>> cuarray.arange(0.0, 1.0, 0.25)
    array([0.  , 0.25, 0.5 , 0.75])
    """
    # HOT PATH: plans for plain Python int/float arguments are memoised with the launch they need
    # (set-up and the general launch path cost ~3 us a call); the types are part of the key, so 1
    # and 1.0 do not share a plan.
    key = pre = None
    if (type(start) in _PLAIN and type(stop) in _PLAIN_NONE and type(step) in _PLAIN_NONE
            and (dtype is None or isinstance(dtype, (str, type)))):
        key = (start, type(start), stop, type(stop), step, type(step), dtype)
        pre = _arange_plans.get(key)
        if pre is not None:
            shape, dt, go, mask, plan = pre
            if go is not None:
                out = _new_c(shape, dt)
                p = out.data.ptr
                if not p & mask:
                    go(p)
                    return out
                del out
    if pre is None:
        plan = arange_plan(start, stop, step, dtype)
        if key is not None:
            if len(_arange_plans) > 1024:
                _arange_plans.clear()
            _arange_plans[key] = _prepared(plan)
    length, dt, first, second = plan
    out = _new_c((length,), dt)
    if length:
        _arange_def(dt).run((out,), _arange_scalars(dt, first, second), out._shape)
    return out


# ------------------------------------------------------------------------------------------
# linspace and friends

def linspace_plan(start, stop, num=50, endpoint=True, dtype=None):
    """NumPy's linspace set-up for scalar `start`/`stop`; pure, needs no device.

    Returns ``(num, div, calc_dtype, out_dtype, start, stop, step, mode)`` where values are
    ``start + i * step`` (mode 'step'), ``(i / div) * delta`` + start (mode 'scaled', when the step
    underflows to zero; `step` then holds delta) or ``i * delta + start`` (mode 'nodiv', no division);
    scalars are NumPy scalars of `calc_dtype`. The last sample is `stop` when `endpoint` and num > 1.
    """
    num = operator.index(num)
    if num < 0:
        raise ValueError("Number of samples, {}, must be non-negative.".format(num))
    div = (num - 1) if endpoint else num
    # as NumPy's (its array converter, no `* 1.0`: a complex stop with an infinite part times 1.0 is
    # a complex product, and its NaN real part would have been the last sample)
    s = numpy.asanyarray(start)
    e = numpy.asanyarray(stop)
    # NumPy's dtype: Python scalars weak (NEP 50; float16(2), True is float16), integers to float
    calc = numpy.result_type(*(x if type(x) in (bool, int, float, complex) else numpy.asanyarray(x)
                               for x in (start, stop)))
    if calc.kind not in "fc":
        calc = numpy.result_type(calc, 1.0)
    out_dt = calc if dtype is None else numpy.dtype(dtype)
    calc = _dtypes.normalize_dtype(calc)
    out_dt = _dtypes.normalize_dtype(out_dt)
    with numpy.errstate(all="ignore"):
        delta = numpy.subtract(e, s, dtype=calc)
        s = numpy.asarray(s).astype(calc)
        e = numpy.asarray(e).astype(calc)
        if div > 0:
            step = delta / div
            if numpy.any(step == 0):
                mode, val = "scaled", delta
            else:
                mode, val = "step", step
        else:
            step = numpy.nan
            mode, val = "nodiv", delta
    return num, div, calc, out_dt, s, e, val, step, mode


_linspace_defs: dict = {}
_caches.register("linspace definitions", _linspace_defs)


def _linspace_def(calc: numpy.dtype, out_dt: numpy.dtype, mode: str, floor: bool, array_args: bool) -> Definition:
    key = (calc.char, out_dt.char, mode, floor, array_args)
    d = _linspace_defs.get(key)
    if d is not None:
        return d
    half = "true" if calc.char == "e" else "false"
    if calc.kind == "c":
        rt = "float" if calc.char == "F" else "double"
    else:
        rt = "double" if calc.char == "d" else "float"
    if array_args:
        # Per-position start/stop/step arrays are read by `i % inner` (raw pointers): the kernel
        # must see `i` as the flat C index of the output, which only the flat layout guarantees.
        names = ("start_a", "stop_a", "val_a")
        params = [KernelParam(n, "raw", calc) for n in names]
    else:
        params = [KernelParam(n, "scalar", calc) for n in ("start", "stop", "val")]
    params += [KernelParam("div", "scalar", _I64), KernelParam("last", "scalar", _I64),
               KernelParam("inner", "scalar", _I64), KernelParam("out0", "out", out_dt, calc)]
    # y = arange(num) (in the calc dtype) times step (or divided by div, times delta), plus start;
    # one rounding per NumPy operation.
    k = "lin_t"
    if mode == "step":
        expr = "R::add(R::r<H>(R::mul({k}, {v})), {s})"
    elif mode == "scaled":
        expr = "R::add(R::r<H>(R::mul(R::r<H>(R::div({k}, ({t})div)), {v})), {s})"
    else:
        expr = "R::add(R::r<H>(R::mul({k}, {v})), {s})"
    lines = ["namespace R = cuarray_ranges;",
             "const long long lin_n = i / inner;"]
    if array_args:
        ct = compute_ctype(calc)
        lines += ["const long long lin_j = i - lin_n * inner"]
        lines += ["const {ct} {n} = cuarray::cast<{ct}>({n}_a[lin_j])".format(ct=ct, n=n)
                  for n in ("start", "stop", "val")]
    lines.append("const {t} {k} = R::r<H>(({t})lin_n)".format(t=rt, k=k))
    if calc.kind == "c":
        # NumPy's complex arange k + 0i: divided by div (its complex division: k * (1 / div) + 0i)
        # in the scaled mode, then the complex product with the step (R::cmul_re/cmul_im), plus start.
        kk = "R::mul({k}, R::div(({t})1, ({t})div))".format(k=k, t=rt) if mode == "scaled" else k
        re = "R::add(R::cmul_re({kk}, val.real(), val.imag()), start.real())".format(kk=kk)
        im = "R::add(R::cmul_im({kk}, val.real(), val.imag()), start.imag())".format(kk=kk)
        lines.append("{c} lin_y = {c}({re}, {im})".format(c=_dtypes.ctype(calc), re=re, im=im))
    else:
        lines.append("{t} lin_y = R::r<H>({e})".format(t=rt, e=expr.format(k=k, v="val", s="start", t=rt)))
    lines.append("if (lin_n == last) lin_y = stop")
    if floor:
        lines.append("lin_y = floor(lin_y)")
    lines.append("out0 = lin_y")
    op = ";\n    ".join(lines).replace("<H>", "<{}>".format(half))
    name = "cuarray_linspace_{}_{}{}{}".format(calc.name, out_dt.name, "" if mode == "step" else "_" + mode,
                                               "_arr" if array_args else "")
    d = _linspace_defs[key] = Definition(name, params, op, preamble=_PREAMBLE)
    return d


def _is_array_arg(x) -> bool:
    return isinstance(x, ndarray) or numpy.ndim(x) > 0


def _object_int(x) -> bool:
    """A Python int past every integer dtype: NumPy makes an object array of it and computes (or
    refuses to) in Python objects, which cuarray has not; the host computes such calls."""
    return type(x) is int and not -2 ** 63 <= x < 2 ** 64


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, *, device=None):
    """See `numpy.linspace` (one kernel). Array `start`/`stop` are read back to the host for the
    set-up (a synchronisation), then broadcast on the device.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.linspace(0, 1, 5)
    array([0.  , 0.25, 0.5 , 0.75, 1.  ])
    """
    if _is_array_arg(start) or _is_array_arg(stop):
        return _linspace_arrays(start, stop, num, endpoint, retstep, dtype, axis)
    if _object_int(start) or _object_int(stop):  # NumPy's object arithmetic: its own TypeError
        return _host_fallback("linspace", (start, stop), dict(num=num, endpoint=endpoint, retstep=retstep,
                                                              dtype=dtype, axis=axis))
    start, stop = _host_scalar(start), _host_scalar(stop)
    num, div, calc, out_dt, s, e, val, step, mode = linspace_plan(start, stop, num, endpoint, dtype)
    out = _run_linspace(num, div, calc, out_dt, s, e, val, mode, endpoint, ())
    if retstep:
        return out, step
    return out


def _kernel_scalar(dt, v):
    v = numpy.asarray(v).astype(dt)[()]
    return numpy.float32(v) if dt.char == "e" else v


def _run_linspace(num, div, calc, out_dt, s, e, val, mode, endpoint, inner_shape, array_vals=None):
    floor = out_dt.kind in "iu" and calc.kind != "c"
    if out_dt.kind in "iu" and calc.kind == "c":
        raise TypeError("ufunc 'floor' not supported for the input types")
    shape = (num,) + tuple(inner_shape)
    out = _new_c(shape, out_dt)
    if out._size == 0:
        return out
    inner = 1
    for n in inner_shape:
        inner *= n
    last = num - 1 if endpoint and num > 1 else -1
    ints = (numpy.int64(div), numpy.int64(last), numpy.int64(inner))
    if array_vals is None:
        d = _linspace_def(calc, out_dt, mode, floor, False)
        d.run((out,), (_kernel_scalar(calc, s), _kernel_scalar(calc, e), _kernel_scalar(calc, val)) + ints, shape)
    else:
        d = _linspace_def(calc, out_dt, mode, floor, True)
        d.run((out,), ints, shape, raw=tuple(array_vals))
    return out


def _linspace_arrays(start, stop, num, endpoint, retstep, dtype, axis):
    hs = start.get() if isinstance(start, ndarray) else numpy.asarray(start)
    he = stop.get() if isinstance(stop, ndarray) else numpy.asarray(stop)
    num = operator.index(num)
    if num < 0:
        raise ValueError("Number of samples, {}, must be non-negative.".format(num))
    div = (num - 1) if endpoint else num
    s, e = hs, he  # (NumPy's own arrays, as the scalar plan's: no `* 1.0`)
    calc = _dtypes.normalize_dtype(numpy.result_type(s, e, float(num)))
    out_dt = calc if dtype is None else _dtypes.normalize_dtype(dtype)
    bshape = numpy.broadcast_shapes(s.shape, e.shape)
    with numpy.errstate(all="ignore"):
        delta = numpy.subtract(e, s, dtype=calc)
        if div > 0:
            step = delta / div
            mode, val = ("scaled", delta) if numpy.any(step == 0) else ("step", step)
        else:
            step = numpy.nan
            mode, val = "nodiv", delta
    arrs = [_transfer.from_host(numpy.ascontiguousarray(numpy.broadcast_to(x.astype(calc), bshape)))
            for x in (s, e, val)]
    out = _run_linspace(num, div, calc, out_dt, None, None, None, mode, endpoint, bshape, arrs)
    if axis != 0:
        out = moveaxis(out, 0, axis)
    if retstep:
        return out, step
    return out


_pow_defs: dict = {}
_caches.register("logspace definitions", _pow_defs)


def _pow_def(res_dt, y_dt, out_dt, signs: bool) -> Definition:
    """out = sign * pow(base, y) computed as NumPy's power of that result dtype `res_dt` (float64
    in double, float32 and float16 in float: a Python base is weak, so a float32 y's power is
    float32's even into a complex128 output), stored as `out_dt` (real dtypes only)."""
    key = (res_dt.char, y_dt.char, out_dt.char, signs)
    d = _pow_defs.get(key)
    if d is None:
        ct = _F64 if res_dt.char == "d" else _F32
        params = [KernelParam("base", "scalar", ct), KernelParam("y", "in", y_dt, ct)]
        op = "out0 = pow(base, y)"
        if signs:
            params.append(KernelParam("sign", "scalar", ct))
            op = "out0 = sign * pow(base, y)"
        params.append(KernelParam("out0", "out", out_dt, ct))
        d = _pow_defs[key] = Definition("cuarray_logspace_{}_{}_{}".format(y_dt.name, out_dt.name, ct.name), params, op)
    return d


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    """See `numpy.logspace`: `linspace` then one power kernel. Scalar arguments and real dtypes
    run on the device; array arguments or complex values are computed by NumPy on the host and
    copied over (documented in docs/creation.md).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.round(cuarray.logspace(0, 3, 4), 6)  # CUDA's pow may differ in the last bit
    array([   1.,   10.,  100., 1000.])
    >>> cuarray.round(cuarray.logspace(0, 3, 4, base=2.0), 6)
    array([1., 2., 4., 8.])
    """
    if (_is_array_arg(start) or _is_array_arg(stop) or _is_array_arg(base) or
            any(numpy.iscomplexobj(_host_scalar(x)) for x in (start, stop, base))):
        return _host_fallback("logspace", (start, stop), dict(num=num, endpoint=endpoint, base=base,
                                                               dtype=dtype, axis=axis))
    start, stop, base = _host_scalar(start), _host_scalar(stop), _host_scalar(base)
    y = linspace(start, stop, num=num, endpoint=endpoint)
    base_arr = numpy.array(base)
    # NumPy's power(base, y): a Python base is weak (base=10.0 keeps a float16 y float16)
    res_dt = _dtypes.normalize_dtype(numpy.result_type(base if type(base) in (bool, int, float) else base_arr, y.dtype))
    out_dt = res_dt if dtype is None else _dtypes.normalize_dtype(dtype)
    # A float16 power rounds (and overflows) in float16 before NumPy's astype: through res_dt then
    # (logspace(2, 300, dtype=complex64) from a float16 start is inf past 65504, as NumPy's).
    pow_dt = res_dt if res_dt.char == "e" and out_dt != res_dt else out_dt
    out = _new_c(y.shape, pow_dt)
    if out._size:
        d = _pow_def(res_dt, y.dtype, pow_dt, False)
        bt = numpy.float64 if d.params[0].dtype.char == "d" else numpy.float32
        d.run((y, out), (bt(base),), out._shape)
    return out if pow_dt == out_dt else out.astype(out_dt)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """See `numpy.geomspace` (one linspace kernel and one power kernel for real scalars; array or
    complex arguments are computed on the host and copied over).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.round(cuarray.geomspace(1, 1000, 4), 6)  # CUDA's pow may differ in the last bit
    array([   1.,   10.,  100., 1000.])
    """
    hs, he = _host_scalar(start), _host_scalar(stop)
    if _is_array_arg(hs) or _is_array_arg(he) or numpy.iscomplexobj(hs) or numpy.iscomplexobj(he) or (
            dtype is not None and numpy.dtype(dtype).kind == "c") or _object_int(hs) or _object_int(he):
        return _host_fallback("geomspace", (start, stop), dict(num=num, endpoint=endpoint, dtype=dtype, axis=axis))
    s = numpy.asanyarray(hs)
    e = numpy.asanyarray(he)
    if s == 0 or e == 0:
        raise ValueError("Geometric sequence cannot include zero")
    calc = _dtypes.normalize_dtype(numpy.result_type(s, e, float(num), numpy.zeros((), dtype)))
    out_dt = calc if dtype is None else _dtypes.normalize_dtype(dtype)
    with numpy.errstate(all="ignore"):
        s = s.astype(calc)
        e = e.astype(calc)
        sign = numpy.sign(s)
        s = s / sign
        e = e / sign
        ls, le = numpy.log10(s), numpy.log10(e)
    num = operator.index(num)
    y = linspace(ls[()], le[()], num=num, endpoint=endpoint)
    out = _new_c((num,), calc)
    if num:
        d = _pow_def(calc, y.dtype, calc, True)
        bt = numpy.float64 if d.params[0].dtype.char == "d" else numpy.float32
        d.run((y, out), (bt(10.0), bt(sign)), out._shape)
        # NumPy pins the end points to the exact inputs.
        out[0] = (sign * s)[()]
        if num > 1 and endpoint:
            out[-1] = (sign * e)[()]
    if out_dt != calc:
        out = out.astype(out_dt)
    return out


def _host_fallback(name, args, kwargs):
    host_args = [a.get() if isinstance(a, ndarray) else a for a in args]
    if "base" in kwargs and isinstance(kwargs["base"], ndarray):
        kwargs["base"] = kwargs["base"].get()
    return _transfer.from_host(getattr(numpy, name)(*host_args, **kwargs))


def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    """See `numpy.meshgrid`. Returns a tuple; with ``copy=False`` the arrays are broadcast views.

    Examples
    --------
    >>> import cuarray
    >>> xx, yy = cuarray.meshgrid(cuarray.arange(3), cuarray.arange(2))
    >>> xx
    array([[0, 1, 2],
           [0, 1, 2]])
    >>> yy
    array([[0, 0, 0],
           [1, 1, 1]])
    """
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    nd = len(xi)
    ones = (1,) * nd
    out = [reshape(asarray(x), ones[:i] + (-1,) + ones[i + 1:]) for i, x in enumerate(xi)]
    if indexing == "xy" and nd > 1:
        out[0] = reshape(out[0], (1, -1) + ones[2:])
        out[1] = reshape(out[1], (-1, 1) + ones[2:])
    if not sparse:
        out = list(broadcast_arrays(*out))
    if copy:
        out = [x.copy() for x in out]
    return tuple(out)
