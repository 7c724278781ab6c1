"""ufunc objects (HOT PATH): loop tables, out=/where=/dtype=/casting=, outer.

A ufunc is a table row (see cuarray/_math/*.py): name, number of inputs/outputs, identity, and
the C expression(s) computing `out0...` from `in0...`. The type loops and the promotion rules are
NumPy's own: on the first call with a new combination of input types, NumPy resolves the loop
(`numpy.ufunc.resolve_dtypes`, NEP 50 weak Python scalars included) and the answer is memoised, so
every later call is one dictionary look-up. Errors (no loop, bad casting) are produced by NumPy on
empty arrays of the same dtypes, so their types and texts are NumPy's.

Python scalars are kernel arguments of the loop's input type, never arrays.
"""

from __future__ import annotations

import weakref

import numpy

from . import datetimes as _datetimes
from . import dtypes as _dtypes
from . import host_input as _host_input
from . import reduceat as _reduceat
from . import registry as _registry
from . import scan as _scan
from . import shapes as _shapes
from . import tracing as _tracing
from .nodecore import native as _native
from .copying import copyto_unchecked, copyto_where_unchecked, fill
from .elementwise import EXACT_ROUNDING, RUNTIME_TYPES, Definition, KernelParam, scalar_converter
from .indexing import ufunc_at
from .ndarray import ndarray, _new_c
from .reduction_ops import NOVALUE as _NOVALUE
from .reduction_ops import ufunc_reduce
from .tracing import active as _tracing_active
from .ufunc_examples import EXAMPLES as _EXAMPLES
from .ufunc_launchers import make_fast, make_fast_runtime, make_general
from .ufunc_launchers import weak_bool as _weak_bool
from .dtypes import PY_SCALARS as _PY_SCALARS

__all__ = ["ufunc", "create_ufunc"]

_BOOL = numpy.dtype(bool)

# Mixed-dtype calls (an input stored in another dtype than its loop's: int16 + float32 runs the
# 'ff->f' loop) of up to this many elements run a kernel shared by every stored dtype of those
# inputs, which it loads through a runtime type code (elementwise.KernelParam's `runtime`): one
# NVRTC compile per (op, loop, layout) instead of one per input dtype pair. Larger calls
# keep the kernel specialised on the stored dtypes: it has the vector layout, and its loads are
# not behind a switch (docs/perf-notes.md, "Compile count on varied data": the prediction, and
# scripts/perf/mixed_dtype_kernels.py, which measures both). `_set_shared_limit` changes it.
_SHARED_LIMIT = [1 << 20]
_instances = weakref.WeakSet()  # every ufunc, for `_set_shared_limit` (not all are registered)

_COMPARISONS = frozenset(("equal", "not_equal", "less", "less_equal", "greater", "greater_equal"))
_KIND_KEYS = {"b": "bool", "i": "int", "u": "int", "f": "float", "c": "complex"}


def _is_python_scalar(x) -> bool:
    t = type(x)
    return t is float or t is int or t is bool or t is complex


def _numpy_oracle_error(np_ufunc, in_types, outs, casting, dtype):
    """Re-run the call in NumPy on empty arrays so NumPy raises its own exception, if any."""
    args = []
    for t in in_types:
        if isinstance(t, numpy.dtype):
            args.append(numpy.empty((0,), dtype=t))
        else:
            args.append(t(0) if t is not bool else False)
    kw = {"casting": casting}
    if dtype is not None:
        kw["dtype"] = dtype
    if outs is not None:
        kw["out"] = tuple(numpy.empty((0,), dtype=o) if o is not None else None for o in outs)
    np_ufunc(*args, **kw)


class _Loop:
    """A resolved call signature: the loop's dtypes and the kernel Definitions that run it."""

    __slots__ = ("in_dtypes", "out_dtypes", "scalar_types", "_defs")

    def __init__(self, in_dtypes, out_dtypes):
        self.in_dtypes = in_dtypes
        self.out_dtypes = out_dtypes
        # Scalar value converters: value -> NumPy scalar of the compute type (a datetime's is its
        # int64 count in the loop's unit).
        self.scalar_types = tuple(scalar_converter(d) or d.type for d in in_dtypes)
        self._defs = {}


class _CallSignature:
    """`inspect.signature` of a ufunc whose call is `UfuncCall`'s C slot (which has none): the
    `(*args, **kwargs)` of `ufunc.__call__`, as in the pure-Python build; of the class, None (its
    constructor's, as inspect finds it)."""

    def __get__(self, obj, cls=None):
        if obj is None:
            return None
        import inspect

        p = inspect.Parameter
        return inspect.Signature([p("args", p.VAR_POSITIONAL), p("kwargs", p.VAR_KEYWORD)])


class ufunc(object if _native is None else _native.UfuncCall):
    """A universal function. See `numpy.ufunc`; runs on the GPU for cuarray inputs.

    Examples
    --------
    >>> import cuarray
    >>> isinstance(cuarray.add, cuarray.ufunc), cuarray.add.nin, cuarray.add.nout
    (True, 2, 1)
    >>> int(cuarray.add.reduce(cuarray.arange(5)))
    10
    >>> cuarray.multiply.outer(cuarray.array([1, 2]), cuarray.array([1, 10]))
    array([[ 1, 10],
           [ 2, 20]])
    """

    def __init__(self, name, nin, nout, ops, *, identity=None, doc="", np_name=None, preamble="",
                 np_ufunc=None, kernel_name=None, reduce_finish=None):
        self.__name__ = name
        # (array, axis, keepdims, initial, where, result) -> result, after `reduce`: what NumPy's
        # one-by-one reduction gives that a parallel one cannot in one pass (complex maximum's
        # first NaN, _math/extrema_nan.py)
        self._reduce_finish = reduce_finish
        # its kernels' names: cuarray_<kernel_name>_<dtypes> (a variant of a ufunc, named as the
        # ufunc in messages, keeps kernels of its own name: power's 0.5 rule, _math/arithmetic.py)
        self._kernel_name = kernel_name or name
        self.nin = nin
        self.nout = nout
        self.nargs = nin + nout
        self.identity = identity
        self._ops = ops if isinstance(ops, dict) else {"default": ops}
        # The type oracle: NumPy's ufunc of that name, or a stand-in with NumPy's interface
        # (`types`, `resolve_dtypes`, call) for ufuncs NumPy lacks (cuarray/scipy/special).
        self._np = np_ufunc if np_ufunc is not None else getattr(numpy, np_name or name)
        self._preamble = preamble
        self._loops = {}
        self._fast = {}
        self._general = {}  # two arrays of other shapes or layouts: see ufunc_launchers.make_general
        self.__doc__ = doc or "See `numpy.{}`.".format(np_name or name)
        _instances.add(self)

    def __repr__(self) -> str:
        return "<ufunc '{}'>".format(self.__name__)

    @property
    def types(self) -> list[str]:
        """The type loops, in NumPy's 'ff->f' form, restricted to dtypes cuarray supports."""
        ok = set("?bhilqBHILQefdFD")
        return [t for t in self._np.types if set(t.replace("->", "")) <= ok]

    @property
    def ntypes(self) -> int:
        return len(self.types)

    # -- loop resolution -------------------------------------------------------------------
    def _resolve(self, in_types, dtype, casting) -> _Loop:
        key = (in_types, dtype, casting)
        loop = self._loops.get(key)
        if loop is None:
            try:
                dts = _dtypes.ufunc_loop_dtypes(self._np, in_types, dtype=dtype, casting=casting)
            except Exception:
                _numpy_oracle_error(self._np, in_types, None, casting, dtype)
                raise
            for d in dts:
                if not _dtypes.is_supported(d):
                    raise TypeError("ufunc '{}' resolved to dtype {} which cuarray does not support".format(
                        self.__name__, d))
            loop = self._loops[key] = _Loop(dts[: self.nin], dts[self.nin:])
        return loop

    def _op_for(self, loop: _Loop) -> str:
        if _datetimes.involves(loop.in_dtypes + loop.out_dtypes):  # NaT and units: not int64's loops
            return _datetimes.ufunc_op(self.__name__, loop.in_dtypes, loop.out_dtypes)
        ops = self._ops
        sig = "".join(d.char for d in loop.in_dtypes) + "->" + "".join(d.char for d in loop.out_dtypes)
        op = ops.get(sig)
        if op is None:
            first = loop.in_dtypes[0] if loop.in_dtypes else loop.out_dtypes[0]
            op = ops.get(_KIND_KEYS[first.kind])
            if op is None:
                op = ops.get("float16" if first.char == "e" else "", None) or ops.get("default")
            if op is None:
                raise TypeError("ufunc '{}' has no GPU implementation for the loop {}".format(self.__name__, sig))
        return op

    def _definition(self, loop: _Loop, in_kinds, out_dtypes, masked, shared=False) -> Definition:
        """in_kinds: per input, the stored dtype of an array operand or None for a scalar.
        `shared`: inputs stored in another dtype than the loop's are loaded through a runtime type
        code (one kernel for every such stored dtype); inputs of the loop's dtype, and every
        operand of a call with no such input, keep compile-time types (the same kernels as
        without sharing)."""
        key = (in_kinds, out_dtypes, masked, shared)
        d = loop._defs.get(key)
        if d is None:
            runtime = _runtime_inputs(loop, in_kinds) if shared else ()
            if shared and not any(runtime):
                d = loop._defs[key] = self._definition(loop, in_kinds, out_dtypes, masked)
                return d
            params = []
            for i, (k, ld) in enumerate(zip(in_kinds, loop.in_dtypes)):
                if k is None:
                    params.append(KernelParam("in%d" % i, "scalar", ld, ld))
                else:
                    params.append(KernelParam("in%d" % i, "in", k, ld, runtime=bool(runtime and runtime[i])))
            if masked:
                params.append(KernelParam("_w", "in", numpy.dtype(bool), numpy.dtype(bool)))
            for i, (od, ld) in enumerate(zip(out_dtypes, loop.out_dtypes)):
                params.append(KernelParam("out%d" % i, "out", od, ld))
            op = self._op_for(loop)
            if masked:
                op = "if (!_w) continue;\n    " + op
            parts = [self._kernel_name]
            for i, (k, ld) in enumerate(zip(in_kinds, loop.in_dtypes)):
                # 'sfloat32': a scalar of the loop's type; 'asfloat32': any stored dtype as float32
                parts.append(("s" + ld.name) if k is None else ("as" + ld.name) if runtime and runtime[i] else k.name)
            if any(od != ld for od, ld in zip(out_dtypes, loop.out_dtypes)):
                parts += ["to"] + [od.name for od in out_dtypes]
            name = "cuarray_" + "_".join(parts) + ("_where" if masked else "")
            d = loop._defs[key] = Definition(name, params, op, preamble=self._preamble, options=EXACT_ROUNDING)
        return d

    # -- call ----------------------------------------------------------------------------------
    # The dispatch point. Where `_nodecore` is built, its `UfuncCall` base takes the call (C: the
    # tracer check below without this frame: a traced `exp(l)` 0.70 -> 0.50 us, stubbed)
    # and calls this method, bound as `_eager` (just below), for the rest.
    def __call__(self, *args, **kwargs):
        if _tracing_active:  # a thread traces (lazy mode, fuse, vectorize): is it this one?
            t = _tracing.state.tracer
            if t is not None:
                return t.ufunc(self, args, kwargs)
        # HOT PATH: C-contiguous arrays (and Python scalars) of a type combination seen before
        # reach a prepared launcher with one dictionary look-up (see ufunc_launchers.make_fast).
        if not kwargs:
            nin = self.nin
            if nin == 2 and len(args) == 2:
                a, b = args
                f = self.prepared2(a, b)
                if f is not None:
                    return f(a, b)
            elif nin == 1 and len(args) == 1:
                a = args[0]
                if type(a) is ndarray and (a._c or a._f):
                    f = self._fast.get(a._dtype)
                    if f is not None:
                        return f(a)
            elif len(args) == nin + 1 and self.nout == 1 and type(args[nin]) is ndarray:  # add(a, b, c)
                into = self._prepared_into(args[:nin])
                if into is not None:
                    return into(*args)
        elif len(kwargs) == 1 and len(args) == self.nin and "out" in kwargs:
            o = kwargs["out"]  # add(a, b, out=c), and the in-place operators (c += b)
            if o is None:  # (a routine passing its own out=None through: the plain call)
                return self(*args)
            if type(o) is tuple and len(o) == 1:
                o = o[0]
            if type(o) is ndarray and self.nout == 1:
                into = self._prepared_into(args)
                if into is not None:
                    return into(*args, o)
        return self._call(*args, **kwargs)

    if _native is not None:  # (the C base's call slot is the type's; this body is its eager step)
        _eager = __call__
        del __call__
        __signature__ = _CallSignature()

    def _prepared_into(self, args):
        """The `into` of the contiguous prepared launcher for these inputs (`ufunc_launchers.make_fast`:
        it checks the output and falls back to `_call`), or None: other layouts' launchers
        (`_general`) and the mixed-dtype shared kernels' (`make_fast_runtime`) take no output."""
        if self.nin == 2:
            f = self.prepared2(args[0], args[1])  # (a subclass's restrictions apply: power's)
        else:
            a = args[0]
            f = self._fast.get(a._dtype) if self.nin == 1 and type(a) is ndarray and (a._c or a._f) else None
        return getattr(f, "into", None)

    def prepared2(self, a, b):
        """The prepared launcher of ``self(a, b)`` (no keywords), or None: the one fast-path test
        of binary ufuncs, which ``ufunc.__call__`` and the array operators (``a + b``) share.
        Same-shape C- or F-contiguous arrays, or such an array and a Python float/int, of a type
        combination seen before; two arrays of another layout seen before (`_general`)."""
        ta, tb = type(a), type(b)
        if ta is ndarray:
            if tb is ndarray:
                if a._shape == b._shape and ((a._c and b._c) or (a._f and b._f)):
                    return self._fast.get((a._dtype, b._dtype))
                return self._general.get((a._dtype, b._dtype, a._shape, b._shape, a._strides, b._strides))
            if (tb is float or tb is int) and (a._c or a._f):
                return self._fast.get((a._dtype, tb))
        elif tb is ndarray and (ta is float or ta is int) and (b._c or b._f):
            return self._fast.get((ta, b._dtype))
        return None

    def _call(self, *args, out=None, where=True, casting="same_kind", order="K", dtype=None,
              subok=True, signature=None):
        nin = self.nin
        if len(args) != nin:
            if len(args) > nin and len(args) <= self.nargs and out is None:
                out = args[nin:]
                args = args[:nin]
            else:
                raise TypeError("{}() takes from {} to {} positional arguments but {} {} given".format(
                    self.__name__, nin, self.nargs, len(args), "was" if len(args) == 1 else "were"))
        # Classify inputs: arrays are strong; Python scalars weak (NEP 50); NumPy scalars strong.
        in_types = []
        arrays = []
        for a in args:
            if type(a) is ndarray:
                in_types.append(a._dtype)
                arrays.append(a)
            elif _is_python_scalar(a):
                in_types.append(type(a))
                arrays.append(None)
            elif isinstance(a, numpy.generic):
                in_types.append(_dtypes.normalize_dtype(a.dtype))
                arrays.append(None)
            elif isinstance(a, ndarray):
                in_types.append(a._dtype)
                arrays.append(a)
            else:
                a = _host_input.lazy_value(a)  # a lazy array (cuarray.lazy) outside lazy mode
                if a is None:
                    raise _host_input.reject(args[len(arrays)], self.__name__)
                in_types.append(a._dtype)
                arrays.append(a)
        in_types = tuple(in_types)
        if dtype is not None:
            dtype = _dtypes.normalize_dtype(dtype)
        if signature is not None:
            raise NotImplementedError("signature= is not supported; use dtype=")
        loop = self._resolve(in_types, dtype, casting)
        if out is not None:  # NumPy: scalars' conversion, then the outputs' casting, then broadcasting
            compares = self.__name__ in _COMPARISONS and not all(x is None or x._dtype.kind == "b" for x in arrays)
            for ld, v in zip(loop.in_dtypes, args):
                if type(v) is int:  # (NEP 50's OverflowError; NumPy 2 compares an int array with any int)
                    if ld.kind == "b":
                        _weak_bool(v)
                    elif ld.kind in "iu" and not compares:
                        ld.type(v)
            self._check_out_casting(out, loop, in_types, casting, dtype)

        # Shape.
        shapes = [a._shape for a in arrays if a is not None]
        if not shapes:
            shape = ()
        elif len(shapes) == 1 or all(s == shapes[0] for s in shapes):
            shape = shapes[0]
        else:
            shape = _shapes.broadcast_shapes(*shapes)

        masked = where is not True
        if masked:
            if where is False:
                raise NotImplementedError("where=False is not supported")
            if type(where) is not ndarray:
                raise TypeError("where= must be a cuarray boolean array or True")
            shape = _shapes.broadcast_shapes(shape, where._shape) if where._shape != shape else shape

        # Outputs: checked against the broadcast shape of every operand, the mask's included.
        if out is not None:
            outs = self._check_out(out, shape, loop, in_types, casting, dtype)
            if outs[0]._shape != shape:  # a larger output: the inputs broadcast to it (NumPy)
                shape = outs[0]._shape
                for o in outs[1:]:
                    if o._shape != shape:
                        raise ValueError("non-broadcastable output operand with shape {} doesn't match "
                                         "the broadcast shape {}".format(o._shape, shape))
        else:
            outs = None

        in_kinds = tuple(None if a is None else a._dtype for a in arrays)
        if None in in_kinds:
            if self.__name__ in _COMPARISONS:
                const = self._out_of_range_comparison(loop, args, arrays, shape)
                if const is not None:
                    if outs is None and not masked:
                        return const
                    return self._constant_into(const, outs, masked and where)
            scalars = self._convert_scalars(loop, args, arrays)
        else:
            scalars = ()

        final = None
        if outs is None:
            out_arrays = tuple(self._alloc_out(arrays, shape, od, order) for od in loop.out_dtypes)
            out_dtypes = loop.out_dtypes
        else:
            out_arrays, final = self._avoid_overlap(outs, arrays)
            out_dtypes = tuple(o._dtype for o in out_arrays)
        limit = _SHARED_LIMIT[0]
        d = self._definition(loop, in_kinds, out_dtypes, masked, 0 < limit and _prod(shape) <= limit)
        if (not masked and self.nout == 1 and dtype is None and casting == "same_kind" and order == "K"
                and nin <= 2 and (outs is None or (final is None and out_dtypes == loop.out_dtypes))):
            # (a call into out= of the loop's dtype prepares the same launcher: a loop whose
            # arrays are only ever updated in place, `c += b`, reaches its `into` too)
            self._register_fast(in_types, args, arrays, loop, d)
            if outs is None and nin == 2 and type(args[0]) is ndarray and type(args[1]) is ndarray:
                self._register_general(args[0], args[1], shape, d, out_arrays[0])
        operands = [a for a in arrays if a is not None]
        if masked:
            operands.append(where)
        operands.extend(out_arrays)
        d.run(operands, scalars, shape)
        if final is not None:
            for dst, tmp in zip(final, out_arrays):
                copyto_unchecked(dst, tmp)
            out_arrays = final
        if self.nout == 1:
            return out_arrays[0]
        return out_arrays

    def _register_fast(self, in_types, args, arrays, loop, d) -> None:
        """Prepare the contiguous fast path for this combination of input types.

        The fast key holds only dtypes (arrays) and `int`/`float` (Python scalars), so it is
        registered only from a call whose inputs are exactly those: a NumPy scalar's key entry
        is its dtype, like an array's, and a kernel taking it by value must never serve two
        arrays (that launched a scalar kernel with a pointer in the scalar's slot)."""
        pattern = tuple(a is not None for a in arrays)
        if not any(pattern):
            return
        for a, x in zip(arrays, args):
            if a is None and type(x) is not int and type(x) is not float:
                return
        key = in_types[0] if len(in_types) == 1 else in_types
        if key not in self._fast:
            limit = _SHARED_LIMIT[0]
            in_kinds = tuple(a._dtype if a is not None else None for a in arrays)
            if limit and any(_runtime_inputs(loop, in_kinds)):
                # A mixed call: up to `limit` elements the shared kernel, above it the specialised one.
                out_dtypes = loop.out_dtypes
                big = make_fast(self, loop, self._definition(loop, in_kinds, out_dtypes, False), pattern,
                                 lower=limit)
                small = self._definition(loop, in_kinds, out_dtypes, False, True)
                self._fast[key] = make_fast_runtime(self, loop, small, pattern, big, limit)
            else:
                self._fast[key] = make_fast(self, loop, d, pattern)

    def _register_general(self, a, b, shape, d, out) -> None:
        """Prepare the path of two arrays that are not both C (or both F) contiguous of one
        shape: everything `_call` derived (loop, output dtype and layout, kernel definition)
        depends only on their dtypes, shapes and strides, so that is the key."""
        if a._shape == b._shape and ((a._c and b._c) or (a._f and b._f)):
            return  # the contiguous fast path's case
        general = self._general
        if len(general) > 256:
            general.clear()
        strides = None if out._c else out._strides
        general[(a._dtype, b._dtype, a._shape, b._shape, a._strides, b._strides)] = make_general(
            d, shape, out._dtype, strides)

    def _out_of_range_comparison(self, loop, args, arrays, shape):
        """NumPy 2 compares an int array with an out-of-range Python int as if the scalar were
        +-inf (`uint8_arr == -1` is all False) instead of raising: the result is a constant."""
        if all(a is None or a._dtype.kind == "b" for a in arrays):
            return None  # bool arrays: NumPy's int loop takes the scalar through a C long (raises)
        for pos, (ld, v, a) in enumerate(zip(loop.in_dtypes, args, arrays)):
            if a is None and type(v) is int and ld.kind in "iu":
                side = _dtypes.int_out_of_range(v, ld)
                if side:
                    inf = numpy.inf if side > 0 else -numpy.inf
                    probe = (0.0, inf) if pos == 1 else (inf, 0.0)
                    out = _new_c(shape, _BOOL)
                    fill(out, bool(self._np(*probe)))
                    return out
        return None

    def _constant_into(self, const, outs, where):
        """A comparison's constant answer (`_out_of_range_comparison`) written as the call asked:
        into `out=` (cast), under `where=` (elements where it is False keep their values)."""
        if outs is None:
            return const  # (NumPy leaves the elements the mask skips uninitialised)
        dst = outs[0]
        if where is False:
            copyto_unchecked(dst, const)
        else:
            copyto_where_unchecked(dst, const, where)
        return dst

    def _convert_scalars(self, loop, args, arrays):
        vals = []
        for ld, st, v, a in zip(loop.in_dtypes, loop.scalar_types, args, arrays):
            if a is None:
                # NumPy converts a weak scalar to the loop type first (OverflowError for an
                # out-of-range Python int), then we pass it in the compute type.
                if isinstance(v, numpy.generic):
                    v = v.astype(ld)
                else:
                    v = _weak_bool(v) if ld.kind == "b" else ld.type(v)
                vals.append(st(v))
        return tuple(vals)

    def _alloc_out(self, arrays, shape, dt, order):
        # NumPy's default order 'K': follow the inputs' layout; C when in doubt.
        full = [a for a in arrays if a is not None and a._shape == shape]
        if order in ("K", "A") and full and not any(a._c for a in full):
            if all(a._f for a in full):
                return ndarray(shape, dt, order="F")
            if order == "K":
                strides = _shapes.k_order_strides(shape, full[0]._strides, dt.itemsize)
                return ndarray._new_strided(shape, dt, strides)
        if order == "F":
            return ndarray(shape, dt, order="F")
        return _new_c(shape, dt)

    def _check_out(self, out, shape, loop, in_types, casting, dtype):
        if type(out) is not tuple:
            out = (out,)
        if len(out) != self.nout:
            raise ValueError("The 'out' tuple must have exactly {} entries: one per ufunc output".format(self.nout))
        outs = []
        for o, ld in zip(out, loop.out_dtypes):
            if o is None:
                o = _new_c(shape, ld)
            elif not isinstance(o, ndarray):
                raise TypeError("return arrays must be of ArrayType (cuarray.ndarray), got {}".format(type(o)))
            elif o._shape != shape:
                try:
                    b = _shapes.broadcast_shapes(o._shape, shape)
                except ValueError:
                    b = None
                if b != o._shape:
                    raise ValueError(
                        "non-broadcastable output operand with shape {} doesn't match the broadcast "
                        "shape {}".format(o._shape, shape))
            if not o._writeable:
                raise ValueError("output array is read-only")
            if o._dtype != ld and not numpy.can_cast(ld, o._dtype, casting):
                _numpy_oracle_error(self._np, in_types, tuple(x._dtype if isinstance(x, ndarray) else None for x in out), casting,
                                    dtype)
                raise TypeError("Cannot cast ufunc '{}' output from {!r} to {!r} with casting rule {!r}".format(
                    self.__name__, ld, o._dtype, casting))
            outs.append(o)
        return tuple(outs)

    def _check_out_casting(self, out, loop, in_types, casting, dtype):
        outs = out if type(out) is tuple else (out,)
        for o, ld in zip(outs, loop.out_dtypes):
            if isinstance(o, ndarray) and o._dtype != ld and not numpy.can_cast(ld, o._dtype, casting):
                _numpy_oracle_error(self._np, in_types, tuple(x._dtype if isinstance(x, ndarray) else None
                                                              for x in outs), casting, dtype)

    def _avoid_overlap(self, outs, arrays):
        """Outputs that partly overlap an input are computed into temporaries (NumPy does too)."""
        tmp = []
        need = False
        for o in outs:
            if any(a is not None and a._overlaps(o) and not a._same_elements(o) for a in arrays):
                need = True
                tmp.append(ndarray(o._shape, o._dtype))
            else:
                tmp.append(o)
        if need:
            return tuple(tmp), outs
        return outs, None

    # -- methods -----------------------------------------------------------------------------
    def outer(self, A, B, **kwargs):
        """See `numpy.ufunc.outer`."""
        if self.nin != 2:
            raise ValueError("outer product only supported for binary functions")
        if isinstance(A, ndarray) and isinstance(B, ndarray):
            a = A.reshape(A._shape + (1,) * B.ndim)
            return self(a, B, **kwargs)
        raise TypeError("outer() needs cuarray arrays")

    def reduce(self, array, axis=0, dtype=None, out=None, keepdims=False, initial=_NOVALUE, where=True):
        """See `numpy.ufunc.reduce` (cuarray/_core/reduction_ops.py)."""
        res = ufunc_reduce(self, array, axis, dtype, out, keepdims, initial, where)
        if self._reduce_finish is not None:
            res = self._reduce_finish(array, axis, keepdims, initial, where, res)
        return res

    def accumulate(self, array, axis=0, dtype=None, out=None):
        """See `numpy.ufunc.accumulate` (cuarray/_core/scan.py)."""
        return _scan.ufunc_accumulate(self, array, axis, dtype, out)

    def reduceat(self, array, indices, axis=0, dtype=None, out=None):
        """See `numpy.ufunc.reduceat` (cuarray/_core/reduceat.py)."""
        return _reduceat.ufunc_reduceat(self, array, indices, axis, dtype, out)

    def at(self, a, indices, b=None):
        """See `numpy.ufunc.at`: unbuffered, repeated indices accumulate (cuarray/_core/indexing.py)."""
        return ufunc_at(self, a, indices, b)


if _native is not None:  # what `UfuncCall`'s call reads: the tracing state and the eager step
    _native.configure_ufunc_call(_tracing.active, _tracing.state, ufunc._eager)


def _runtime_inputs(loop: _Loop, in_kinds) -> tuple:
    """Per input, whether a kernel shared across stored dtypes loads it through a runtime type code:
    an array stored in another numeric dtype than its loop's (datetime loops and operands keep
    compile-time types: their conversions depend on units)."""
    if _datetimes.involves(loop.in_dtypes + loop.out_dtypes):
        return ()
    return tuple(k is not None and k != ld and k in RUNTIME_TYPES for k, ld in zip(in_kinds, loop.in_dtypes))


def _prod(shape) -> int:
    n = 1
    for s in shape:
        n *= s
    return n


def _set_shared_limit(n: int) -> int:
    """Private switch (tests, scripts/perf/mixed_dtype_kernels.py): mixed-dtype calls of up to `n`
    elements run the shared kernels; 0 restores the kernels specialised on every input dtype. Returns
    the previous limit. Forgets every ufunc's prepared launchers and kernel definitions,
    which were chosen under the old limit (compiled kernels stay cached)."""
    prev = _SHARED_LIMIT[0]
    _SHARED_LIMIT[0] = int(n)
    for uf in list(_instances):
        uf._fast.clear()
        uf._general.clear()
        uf._loops.clear()
    return prev


def create_ufunc(name, nin, nout, ops, *, identity=None, doc="", np_name=None, preamble="",
                 reduce_finish=None) -> ufunc:
    """One table row -> one ufunc (see cuarray/_math/*.py)."""
    # The docstring's Examples section is a static string of ufunc_examples (no work at import).
    doc = (doc or "See `numpy.{}`.".format(np_name or name)) + _EXAMPLES.get(name, "")
    uf = ufunc(name, nin, nout, ops, identity=identity, doc=doc, np_name=np_name, preamble=preamble,
               reduce_finish=reduce_finish)
    return _registry.register_ufunc(uf)  # numpy.<name>(gpu arrays) runs it (numpy_protocol)
