"""NumPy-semantics reductions over the engine (`reduction.ReductionDef`): the op table, axis /
keepdims / dtype / out= / where= / initial= handling, and `ufunc.reduce`.

An op is a table row: how an element becomes an accumulator (`map`, a C expression of the input
`x`), how two accumulators combine (`reduce`, over `a` and `b`), the accumulator's neutral element
(`identity`, a C expression of `_acc_t`), and whether NumPy's reduction has an identity (empty
reductions of ops without one raise ValueError, as in NumPy). Result dtypes are NumPy's own:
asked once per (op, dtype, dtype=) of NumPy on a one-element host array and memoised.
Float16 accumulates in float32 (NumPy's pairwise float16 sum also adds in float).
"""

from __future__ import annotations

import operator

import numpy

from ..cuda import caches as _caches
from ..cuda import device as _device
from . import datetimes as _datetimes
from . import device_check as _device_check
from . import dtypes as _dtypes
from . import shapes as _shapes
from . import tracing as _tracing
from .elementwise import KernelParam
from .copying import copyto_unchecked
from .host_input import as_array
from .ndarray import _new_c, ndarray
from .reduction import ReductionDef
from .tracing import active as _tracing_active

__all__ = ["reduce", "ufunc_reduce", "NOVALUE", "reduced_shape", "fast_key"]


class _NoValueType:
    def __repr__(self):
        return "<no value>"


NOVALUE = _NoValueType()

_BOOL = numpy.dtype(bool)
_I64 = numpy.dtype(numpy.int64)


class Op:
    """One reduction row. `acc`: 'result' (the result dtype; float16 -> float32), 'input' (the
    input's compute dtype), 'bool', 'int64', 'arg' (value/index pair) or 'real' (real dtype of the
    result). `np_name` names the operation in NumPy's error messages."""

    __slots__ = ("name", "map", "reduce", "identity", "has_identity", "acc", "np_name", "np_fn")

    def __init__(self, name, map, reduce, identity, has_identity, acc, np_name, np_fn):
        self.name, self.map, self.reduce, self.identity = name, map, reduce, identity
        self.has_identity, self.acc, self.np_name, self.np_fn = has_identity, acc, np_name, np_fn


_NAN_IDENT = "cuarray::quiet_nan<_acc_t>()"
OPS = {o.name: o for o in (
    Op("sum", "x", "a + b", "_acc_t(0)", True, "result", "add", numpy.sum),
    Op("prod", "x", "a * b", "_acc_t(1)", True, "result", "multiply", numpy.prod),
    Op("nansum", "(cuarray::isnan(x) ? _acc_t(0) : _acc_t(x))", "a + b", "_acc_t(0)", True, "result", "add", numpy.nansum),
    Op("nanprod", "(cuarray::isnan(x) ? _acc_t(1) : _acc_t(x))", "a * b", "_acc_t(1)", True, "result", "multiply",
       numpy.nanprod),
    Op("max", "x", "cuarray::maximum(a, b)", "cuarray::lowest<_acc_t>()", False, "input", "maximum", numpy.max),
    Op("min", "x", "cuarray::minimum(a, b)", "cuarray::highest<_acc_t>()", False, "input", "minimum", numpy.min),
    # NaN-ignoring: the neutral element is NaN itself for inexact types (fmax(NaN, x) == x), so an
    # all-NaN slice gives NaN like NumPy's nanmax.
    Op("nanmax", "x", "cuarray::fmax_reduce(a, b)", None, False, "input", "fmax", numpy.nanmax),
    Op("nanmin", "x", "cuarray::fmin_reduce(a, b)", None, False, "input", "fmin", numpy.nanmin),
    Op("any", "cuarray::cast<bool>(x)", "a || b", "false", True, "bool", "logical_or", numpy.any),
    Op("all", "cuarray::cast<bool>(x)", "a && b", "true", True, "bool", "logical_and", numpy.all),
    Op("count_notnan", "(long long)!cuarray::isnan(x)", "a + b", "0LL", True, "int64", "add", numpy.count_nonzero),
    Op("count_nonzero", "(long long)cuarray::cast<bool>(x)", "a + b", "0LL", True, "int64", "add", numpy.count_nonzero),
    Op("argmax", "cuarray::make_arg<_val_t>(x, _j)", "cuarray::argmax_combine(a, b)", "cuarray::arg_none<_val_t>()",
       False, "arg", "argmax", numpy.argmax),
    Op("argmin", "cuarray::make_arg<_val_t>(x, _j)", "cuarray::argmin_combine(a, b)", "cuarray::arg_none<_val_t>()",
       False, "arg", "argmin", numpy.argmin),
    # NumPy's nanargmax is argmax with NaN replaced by -inf (nanargmin: +inf): a NaN ties with a real
    # -inf and the first one wins ([nan, -inf] gives 0). The winner's value is NaN only for an
    # all-NaN slice, which the post step writes as index -1 (the caller's ValueError).
    Op("nanargmax", "cuarray::make_arg<_val_t>(x, _j)", "cuarray::nanargmax_combine(a, b)",
       "cuarray::arg_none<_val_t>()", False, "arg", "argmax", numpy.nanargmax),
    Op("nanargmin", "cuarray::make_arg<_val_t>(x, _j)", "cuarray::nanargmin_combine(a, b)",
       "cuarray::arg_none<_val_t>()", False, "arg", "argmin", numpy.nanargmin),
    # var/std in one pass: (mean, sum of squared deviations, count) per output (reduction.cuh's
    # `moments`); the caller's post_map divides `a.m2`.
    Op("moments", "cuarray::moments_of(x)", "cuarray::moments_combine(a, b)", "cuarray::moments_none<_val_t>()",
       True, "moments", "add", None),
    # The same by shifted sums in a thread (reduction.cuh's `shifted`: no division an element);
    # the caller's post_map divides `cuarray::shifted_m2(a)`.
    Op("moments_shift", "cuarray::shifted_of(x)", "cuarray::shifted_combine(a, b)",
       "cuarray::shifted_none<_val_t>()", True, "shifted", "add", None),
    # Sum of |x - m|^2 with the mean `m` a second input (var/std); real accumulator.
    Op("sqdev", "cuarray::abs2(x - m)", "a + b", "_acc_t(0)", True, "real", "add", None),
    Op("nansqdev", "(cuarray::isnan(x) ? _acc_t(0) : _acc_t(cuarray::abs2(x - m)))", "a + b", "_acc_t(0)", True,
       "real", "add", None),
)}

# ufunc.reduce: the reducible ufuncs (commutative and associative, so a tree order is exact or
# differs from NumPy's order only by float rounding), as ops over the loop dtype.
UFUNC_OPS = {
    "add": OPS["sum"], "multiply": OPS["prod"], "maximum": OPS["max"], "minimum": OPS["min"],
    "fmax": Op("fmax", "x", "cuarray::fmax_reduce(a, b)", None, False, "result", "fmax", None),
    "fmin": Op("fmin", "x", "cuarray::fmin_reduce(a, b)", None, False, "result", "fmin", None),
    "logical_and": Op("logical_and", "cuarray::cast<bool>(x)", "a && b", "true", True, "result", "logical_and", None),
    "logical_or": Op("logical_or", "cuarray::cast<bool>(x)", "a || b", "false", True, "result", "logical_or", None),
    "logical_xor": Op("logical_xor", "cuarray::cast<bool>(x)", "a != b", "false", True, "result", "logical_xor", None),
    "bitwise_and": Op("bitwise_and", "x", "_acc_t(a & b)", "_acc_t(~_acc_t(0))", True, "result", "bitwise_and", None),
    "bitwise_or": Op("bitwise_or", "x", "_acc_t(a | b)", "_acc_t(0)", True, "result", "bitwise_or", None),
    "bitwise_xor": Op("bitwise_xor", "x", "_acc_t(a ^ b)", "_acc_t(0)", True, "result", "bitwise_xor", None),
    "gcd": Op("gcd", "x", "cuarray::gcd(a, b)", "_acc_t(0)", True, "result", "gcd", None),
}

# -- dtype rules -----------------------------------------------------------------------------------
_result_cache: dict = {}


def result_dtype(fn, dtype, dtype_arg=None) -> numpy.dtype:
    """The dtype NumPy's `fn` gives for an input of `dtype` (and `dtype=`), memoised."""
    key = (fn, dtype, dtype_arg)
    r = _result_cache.get(key)
    if r is None:
        host = numpy.ones((1,), dtype)
        kw = {} if dtype_arg is None else {"dtype": dtype_arg}
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = fn(host, **kw)
        r = _dtypes.normalize_dtype(numpy.asarray(res).dtype)
        if not _dtypes.is_supported(r):
            raise TypeError("{} of {} gives {}, which cuarray does not support".format(
                getattr(fn, "__name__", fn), dtype, r))
        _result_cache[key] = r
    return r


def acc_dtype_for(op: Op, in_dtype, res_dtype) -> numpy.dtype:
    if op.acc == "result":
        d = res_dtype
    elif op.acc == "input":
        d = in_dtype
    elif op.acc == "bool":
        return _BOOL
    elif op.acc == "int64":
        return _I64
    elif op.acc == "real":
        d = numpy.dtype(res_dtype.char.lower()) if res_dtype.kind == "c" else res_dtype
    else:  # 'arg': the value half of the pair
        d = in_dtype
    return numpy.dtype(numpy.float32) if d.char == "e" else d


# -- helpers for the routine modules ----------------------------------------------------------------
def reduced_shape(shape, raxes, keepdims) -> tuple:
    if keepdims:
        return tuple(1 if i in raxes else d for i, d in enumerate(shape))
    return tuple(d for i, d in enumerate(shape) if i not in raxes)


def normalize_axes(axis, ndim) -> tuple:
    if axis is None:
        return tuple(range(ndim))
    return _shapes.normalize_axis_tuple(axis, ndim)


# -- definitions ------------------------------------------------------------------------------------
_defs: dict = {}
_caches.register("reduction definitions", _defs)


def _definition(op: Op, in_dtypes, names, acc, y_dtype, masked, post, scalars, tag="", wide=False) -> ReductionDef:
    """in_dtypes/names: the array inputs (stored dtype, compute dtype) and names; scalars: (name, dtype);
    `wide`: `ReductionDef.wide` (a planner choice for wide accumulators)."""
    key = (op.name, op.map, op.reduce, in_dtypes, names, acc, y_dtype, masked, post, scalars, tag, wide)
    d = _defs.get(key)
    if d is not None:
        return d
    if in_dtypes[0][0].kind in "Mm":
        op = _datetime_op(op, in_dtypes, masked, post, tag)
    params = [KernelParam(n, "in", st, ct) for n, (st, ct) in zip(names, in_dtypes)]
    if masked:
        params.append(KernelParam("_w", "in", _BOOL, _BOOL))
    params += [KernelParam(n, "scalar", dt, dt) for n, dt in scalars]
    out = KernelParam("y", "out", y_dtype, y_dtype)
    preamble = ""
    if op.acc == "arg":
        vt = _dtypes.ctype(acc) if acc.char != "e" else "float"
        acc_ctype = "cuarray::arg_pair<{}>".format(vt)
        acc_size = 32
        preamble = "typedef {} _val_t;\n".format(vt)
    elif op.acc == "moments":  # acc: the real float type of the mean and m2 (float32 or float64)
        vt = _dtypes.ctype(acc)
        acc_ctype = "cuarray::moments<{}>".format(vt)
        acc_size = 2 * acc.itemsize + 8  # sizeof(moments<T>): (T, T, long long), 16 or 24 bytes
        preamble = "typedef {} _val_t;\n".format(vt)
    elif op.acc == "shifted":  # acc as for moments; (c, s1, s2, n): 24 or 32 bytes
        vt = _dtypes.ctype(acc)
        acc_ctype = "cuarray::shifted<{}>".format(vt)
        acc_size = 3 * acc.itemsize + 8 + (4 if acc.itemsize == 4 else 0)
        preamble = "typedef {} _val_t;\n".format(vt)
    else:
        acc_ctype = _dtypes.ctype(acc)
        acc_size = acc.itemsize
    identity = op.identity
    if identity is None:  # fmax/fmin: NaN for inexact types, the max/min neutral otherwise
        if acc.kind in "fc":
            identity = "cuarray::quiet_nan_c<{}>()".format(_dtypes.ctype(numpy.dtype(acc.char.lower()))) \
                if acc.kind == "c" else _NAN_IDENT
        else:
            identity = "cuarray::lowest<_acc_t>()" if "max" in op.reduce else "cuarray::highest<_acc_t>()"
    mapped = op.map
    if masked:
        mapped = "(_w ? _acc_t({}) : _acc_t({}))".format(mapped, identity)
    else:
        mapped = "_acc_t({})".format(mapped) if op.acc != "arg" else mapped
    yt = _dtypes.ctype(y_dtype)
    name = "cuarray_{}_{}".format(tag or op.name, "_".join(st.name for st, _ in in_dtypes))
    if y_dtype != acc:
        name += "_to_" + y_dtype.name
    if masked:
        name += "_where"
    if post == _POST_INITIAL:
        name += "_initial"
    step = None
    if op.acc == "moments" and not masked:
        step = "cuarray::moments_step({acc}, x);"
    if op.acc == "shifted" and not masked:
        step = "cuarray::shifted_step({acc}, x);"
    if op.acc == "arg" and not masked:
        step = "cuarray::arg_step<{}, {}>({{acc}}, x, _j);".format(
            "true" if "max" in op.name else "false", "true" if op.name.startswith("nan") else "false")
    d = ReductionDef(name, params, out, acc_ctype, acc_size, mapped, op.reduce, identity,
                     post.replace("$Y", yt), preamble=preamble, step=step, wide=wide)
    _defs[key] = d
    return d


def _datetime_op(op: Op, in_dtypes, masked, post, tag) -> Op:
    """The row of `op` for a datetime64/timedelta64 input (its NaT rules: `datetimes.REDUCE`);
    TypeError for the reductions cuarray does not run on these dtypes (NumPy's own refusals,
    sum of datetime64 say, were raised before, by the result-dtype oracle)."""
    row = _datetimes.REDUCE.get(op.name)
    if row is None or tag or post != _POST_CAST or masked or any(st != ct for st, ct in in_dtypes):
        raise TypeError("{} of {} is not supported on the GPU (datetime64/timedelta64 reduce with "
                        "max/min/nanmax/nanmin/sum, without where=, initial= or dtype=)".format(
                            op.np_name if not tag else tag, in_dtypes[0][0]))
    return Op(op.name, op.map, row[0], row[1], op.has_identity, op.acc, op.np_name, op.np_fn)


_POST_CAST = "y = cuarray::cast<$Y>(a)"
_POST_INITIAL = "y = cuarray::cast<$Y>(_reduce(a, _acc_t(_init)))"
_POST_NANARG = "y = cuarray::isnan(a.v) ? -1LL : a.i"  # an all-NaN slice: -1, the caller raises


# -- the fast path ----------------------------------------------------------------------------------
# A repeated call of a public reduction (`x.sum()`, `mean(x, axis=1)`...) without out=/where=/
# initial= goes from one dictionary look-up, keyed by everything that changes the work (function,
# dtype, shape, strides, axis, keepdims, dtype=, 16-byte alignment, device), to a prepared call:
# allocate the output, then the launcher (`ReductionDef.launcher`) launches with the pointers.
# `reduce(..., fast_key=)` fills it after a first call through the general path.
FAST_PATH = True
_fast: dict = {}
_get_device_id = _device.get_device_id


def fast_key(name, a, axis, keepdims, dtype):
    """The fast-path key of the public reduction `name` on `a`, or None where the call must take
    the general path (not a cuarray array, an axis or dtype= that is not plainly hashable...).
    Callers have checked that out=, where= and initial= are absent."""
    if not FAST_PATH or a.__class__ is not ndarray or keepdims.__class__ is not bool:
        return None
    if axis is not None and axis.__class__ is not int:
        if axis.__class__ is not tuple or any(i.__class__ is not int for i in axis):
            return None  # lists; 1.0 == 1 must not find the entry of axis=1
    if dtype is not None and not isinstance(dtype, (numpy.dtype, type, str)):
        return None
    return (name, a._dtype, a._shape, a._strides, axis, keepdims, dtype, a.data.ptr & 15, _get_device_id())


def reduce_fast(name, a, axis=None, dtype=None, out=None, keepdims=False, initial=NOVALUE, where=True):
    """`reduce(name, ...)` for the public function of that name, through the fast path when the
    call can take it (the table op `name` with no out=, where=, initial=). The dispatch point of
    the table reductions for a tracer (`tracing.py`)."""
    if _tracing_active:
        t = _tracing.state.tracer
        if t is not None:
            return t.call(name, reduce_fast, (name, a), {"axis": axis, "dtype": dtype, "out": out,
                                                         "keepdims": keepdims, "initial": initial, "where": where})
    if out is None and initial is NOVALUE and where is True:
        key = fast_key(name, a, axis, keepdims, dtype)
        f = _fast.get(key)
        if f is not None:
            return f(a)
        return reduce(name, a, axis, dtype, None, keepdims, fast_key=key)
    return reduce(name, a, axis, dtype, out, keepdims, initial, where)


def _prepared(launcher, shape, dtype, scalars):
    multi, check = _device_check.active, _device_check.check  # operands of another device
    if scalars:
        def call(a):
            if multi[0]:
                check((a,))
            y = _new_c(shape, dtype)
            launcher((a.data.ptr,) + scalars, y.data.ptr)
            return y
    else:
        def call(a):
            if multi[0]:
                check((a,))
            y = _new_c(shape, dtype)
            launcher((a.data.ptr,), y.data.ptr)
            return y
    return call


def clear_fast_path() -> None:
    """Forget the prepared calls and launchers (after changing FAST_PATH or reduction_plan.FUSE)."""
    _fast.clear()
    for d in _defs.values():
        d._launchers.clear()


_caches.register("reduction fast path", count=lambda: len(_fast), clear=clear_fast_path)


# -- the driver -------------------------------------------------------------------------------------
def reduce(op_name, a, axis=None, dtype=None, out=None, keepdims=False, initial=NOVALUE, where=True, *,
           res_dtype=None, acc=None, extra=(), post=None, scalars=(), keep_order=False, op=None, tag="",
           fast_key=None, wide=False, np_dtype=NOVALUE):
    """Reduce `a` with the op `op_name` (a row of OPS) with NumPy's semantics; returns the result
    (an ndarray; 0-d for a full reduction). `extra`: more inputs ((name, array) broadcast to a's
    shape, e.g. the mean for var); `post`: a post_map using `a`, `y`, `$Y` (the output's C type)
    and `scalars` ((name, value numpy scalar)); `res_dtype`/`acc` override the table's dtypes;
    `tag` names the kernel when `post` makes it another function (mean, var...). `fast_key`: the
    caller's `fast_key(...)`; the call's launch is then kept under it for the next call. `wide`:
    `ReductionDef.wide` (var's moments: output-vector plans keep a sum's loads in flight).
    `np_dtype`: the dtype= NumPy's function was given, where the caller passes another one."""
    op = op or OPS[op_name]
    if initial is None:  # NumPy's "no start value": sum, prod... then lose their identity too
        initial = NOVALUE
        if op.has_identity:
            op = Op(op.name, op.map, op.reduce, op.identity, False, op.acc, op.np_name, op.np_fn)
    a = as_array(a, op.name)
    if a._shape == () and isinstance(axis, (int, numpy.integer)) and operator.index(axis) in (0, -1):
        # NumPy's ufunc reductions (sum, max, argmin, ufunc.reduce, ...) let an int axis 0 or -1
        # reduce a 0-d array: its one element (axis=(0,) stays an AxisError, and mean/var/median,
        # which pass normalised tuples, keep NumPy's AxisError).
        axis = None
    raxes = normalize_axes(axis, a.ndim)
    if dtype is not None:
        dtype = _dtypes.normalize_dtype(dtype)
    if res_dtype is None:
        res_dtype = result_dtype(op.np_fn, a._dtype, dtype)
    if acc is None:
        acc = acc_dtype_for(op, a._dtype, res_dtype)
    init = NOVALUE
    if initial is not NOVALUE and post is None and op.np_fn is not None and op.acc != "arg":
        out_dt = out._dtype if isinstance(out, ndarray) else None
        init = numpy_initial(op.np_fn, a._dtype, dtype if np_dtype is NOVALUE else np_dtype, out_dt, initial)
        if out_dt is not None and out_dt != res_dtype:
            acc = _widened(acc, out_dt)
    kshape = tuple(d for i, d in enumerate(a._shape) if i not in raxes)
    n_red = 1
    for i in raxes:
        n_red *= a._shape[i]
    n_out = 1
    for d in kshape:
        n_out *= d
    masked = where is not True
    if masked:
        if not isinstance(where, ndarray):
            if where is False or (isinstance(where, (numpy.bool_, bool)) and not where):
                where_arr = None
            else:
                raise TypeError("where= must be a cuarray boolean array or True")
        else:
            where_arr = where
        if not op.has_identity and initial is NOVALUE:
            raise ValueError("reduction operation '{}' does not have an identity, so to use a where mask one "
                             "has to specify 'initial'".format(op.np_name))
        if where_arr is None:
            raise NotImplementedError("where=False is not supported")
        if where_arr._dtype != _BOOL:
            raise TypeError("where= must be a boolean array")
        _shapes.broadcast_shapes(where_arr._shape, a._shape)
    if n_red == 0 and not op.has_identity and initial is NOVALUE:  # even with an empty output, as NumPy
        if op.acc == "arg":
            raise ValueError("attempt to get {} of an empty sequence".format(op.np_name))
        raise ValueError("zero-size array to reduction operation {} which has no identity".format(op.np_name))
    # Output.
    final_shape = reduced_shape(a._shape, raxes, keepdims)
    target = None
    if out is not None:
        if not isinstance(out, ndarray):
            raise TypeError("out must be a cuarray ndarray, got {}".format(type(out)))
        if out._shape != final_shape:
            raise ValueError("output parameter for reduction operation {} has the wrong shape: {} (expected {})"
                             .format(op.np_name, out._shape, final_shape))
        if not out._writeable:
            raise ValueError("output array is read-only")
        y_dtype = out._dtype
        if keepdims:
            kstr = tuple(s for i, s in enumerate(out._strides) if i not in raxes)
            y = ndarray._view(kshape, kstr, out._dtype, out.data, out)
        else:
            y = out
        if _overlaps(y, [a] + [e for _, e in extra] + ([where] if masked else [])):
            target, y = y, _new_c(kshape, y_dtype)
    else:
        y_dtype = res_dtype
        y = _new_c(kshape, y_dtype)
    if n_out:
        names = ("x",) + tuple(n for n, _ in extra)
        arrays = [a] + [e for _, e in extra]
        in_dtypes = tuple((arr._dtype, _compute_for(op, arr._dtype, acc)) for arr in arrays)
        sc = list(scalars)
        if post is None:
            post = (_POST_NANARG if op.name.startswith("nanarg") else "y = a.i") if op.acc == "arg" else _POST_CAST
            if initial is not NOVALUE:
                post = _POST_INITIAL
                sc.append(("_init", initial_scalar(initial, res_dtype, acc) if init is NOVALUE else _scalar(init, acc)))
        d = _definition(op, in_dtypes, names, acc, y_dtype, masked, post, tuple((n, v.dtype) for n, v in sc), tag,
                        wide)
        if masked:
            arrays.append(where_arr)
        launch_scalars = tuple(_launch_scalar(v) for _, v in sc)
        d.run(a._shape, arrays, launch_scalars, y, raxes, keep_order=keep_order)
        if fast_key is not None and a._size and out is None and not masked and not extra and initial is NOVALUE:
            if len(_fast) > 4096:
                _fast.clear()
            # The output is allocated in its final shape: keepdims' length-1 axes leave the C
            # strides of the kept axes (all the launcher knows of y) unchanged.
            _fast[fast_key] = _prepared(d.launcher(a._shape, arrays, y._strides, raxes, keep_order), final_shape,
                                        y_dtype, launch_scalars)
    if target is not None:
        copyto_unchecked(target, y)
        y = target
    if out is not None:
        return out
    if keepdims:
        return ndarray._view(final_shape, _shapes.c_strides(final_shape, y._dtype.itemsize), y._dtype, y.data, y)
    return y


def _compute_for(op, dt, acc):
    """The dtype an input element is computed in before `map`."""
    if op.acc in ("input", "arg", "bool", "int64") or op.name in ("sqdev", "nansqdev"):
        if op.name in ("sqdev", "nansqdev"):
            return dt if dt.char != "e" else numpy.dtype(numpy.float32)
        return dt
    return acc  # sum-like: elements are cast to the accumulator first (int8 -> int64, f2 -> f4)


def initial_scalar(initial, res_dtype, acc):
    """`initial=` as the kernel's accumulator scalar: through the reduction's own dtype first, as
    NumPy casts it to the loop's type (prod of float16 with initial=2**31 starts from inf, so a -0.0
    factor gives NaN; straight to the float32 accumulator it stayed finite: fuzz seed 5 index 196)."""
    return _scalar(_scalar(initial, res_dtype), acc)


def numpy_initial(np_fn, in_dtype, dtype, out_dtype, initial):
    """The value NumPy's reduction `np_fn` starts from for `initial=` (a NumPy scalar), or NumPy's
    error for it: NumPy writes `initial` into its loop's dtype by the dtype's own item assignment
    (a Python int or float past an integer loop's range is OverflowError, NaN ValueError, a NumPy
    integer wraps) and, given `out=`, through the out array (a reduction with `where=` all False
    returns just that). Asked of NumPy on one host element, so every rule and every path (`out=`
    of another dtype, `dtype=`, float16's overflow to inf) is NumPy's own."""
    if in_dtype.kind in "mMV" or (out_dtype is not None and out_dtype.kind in "mMV"):
        return NOVALUE  # (the datetime rows refuse initial= later, with their own TypeError)
    kw = {"where": numpy.zeros(1, bool), "initial": initial}
    if dtype is not None:
        kw["dtype"] = dtype
    if out_dtype is not None:
        kw["out"] = numpy.empty((), out_dtype)
    import warnings

    with warnings.catch_warnings(), numpy.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return numpy.asarray(np_fn(numpy.zeros(1, in_dtype), **kw))[()]


def _widened(acc, out_dtype):
    """The accumulator of a reduction whose loop NumPy runs in `out=`'s dtype (max of uint8 into an
    int64 out starts from initial=-2 as -2): `acc` promoted to it where that keeps the kind's
    exactness (not int64 with uint64 into float64, not real into complex)."""
    w = numpy.promote_types(acc, out_dtype)
    if w.kind == "c" and acc.kind != "c" or w.kind == "f" and acc.kind in "biu" and out_dtype.kind in "biu":
        return acc
    return w if w.kind in "biufc" else acc


def _scalar(value, dt):
    with numpy.errstate(all="ignore"):
        return numpy.asarray(value).astype(dt, casting="unsafe")[()]


def _launch_scalar(v):
    return numpy.float32(v) if v.dtype.char == "e" else v


def _overlaps(y, arrays) -> bool:
    return any(isinstance(a, ndarray) and a._overlaps(y) for a in arrays)


# -- ufunc.reduce -------------------------------------------------------------------------------------
def ufunc_reduce(uf, array, axis=0, dtype=None, out=None, keepdims=False, initial=NOVALUE, where=True):
    """`ufunc.reduce` (see `numpy.ufunc.reduce`) for the reducible ufuncs in UFUNC_OPS."""
    if uf.nin != 2 or uf.nout != 1:
        raise ValueError("reduce only supported for binary functions")
    op = UFUNC_OPS.get(uf.__name__)
    if op is None:
        raise NotImplementedError("{}.reduce is not supported on the GPU (only commutative, associative "
                                  "ufuncs: {})".format(uf.__name__, ", ".join(sorted(UFUNC_OPS))))
    a = as_array(array, uf.__name__ + ".reduce")
    if axis is not None and a._shape != ():
        normalize_axes(axis, a.ndim)  # NumPy checks the axis before the loop's dtypes (AxisError first)
    if isinstance(out, tuple):
        if len(out) != 1:
            raise ValueError("The 'out' tuple must have exactly one entry")
        out = out[0]
    np_uf = uf._np
    has_identity = np_uf.identity is not None
    np_dtype = None if dtype is None else _dtypes.normalize_dtype(dtype)
    if dtype is None and out is not None:
        dtype = out.dtype
    res = result_dtype(np_uf.reduce, a._dtype, None if dtype is None else _dtypes.normalize_dtype(dtype))
    row = Op(op.name, op.map, op.reduce, op.identity, has_identity, op.acc, uf.__name__, np_uf.reduce)
    return reduce(op.name, a, axis, None, out, keepdims, initial, where, res_dtype=res,
                  acc=acc_dtype_for(row, res, res), op=row, np_dtype=np_dtype)
