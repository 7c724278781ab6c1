"""`vectorize`: a Python function compiled to one elementwise kernel (NumPy "Functional
programming").

A plain function or lambda whose source can be read is compiled from its source
(`vectorize_compile.py`): the Python CuPy's `vectorize` compiles (`if`/`elif`/`else`, conditional
expressions, `and`/`or`/`not`, comparisons (complex ones ordered as NumPy orders them), `min`/`max`,
`for i in range(...)` and `while` loops with `break`/`continue`, local variables, tuple assignment,
`math` functions, explicit casts (`float(x)`, `numpy.float32(x)`), several return values) becomes
C++. Other callables (ufuncs, `functools.partial`, code typed at the prompt) are traced: called once
with symbolic elements (`_Element`), so only straight-line code of operators and ufuncs compiles.
Either way each operator or ufunc applied to elements is resolved exactly as the ufunc would be
(NumPy's loop for those dtypes, NEP 50 weak Python scalars) and records the ufunc table's C
expression; the program becomes the body of one kernel over the broadcast inputs (cached by its
source, so later calls with the same dtypes reuse the compiled kernel). Python numbers in the body
are kernel arguments, so their values may change between calls.

Unlike NumPy, which runs the function on Python objects and casts the results, the kernel
computes in the element types (float32 stays float32; float16 intermediates are kept in float), and
the output types are those of the returned values over every path (NumPy's are those of the first
element's result).
"""

from __future__ import annotations

import inspect
import re

import numpy

from .._core import dtypes as _dtypes
from .._core import registry as _registry
from .._core import shapes as _shapes
from .._core import tracing as _tracing
from .._core.elementwise import Definition, KernelParam, compute_ctype
from .._core.fusion.codegen import ufunc_statement
from .._core.host_input import as_array
from .._core.ndarray import ndarray
from . import vectorize_compile as _compile
from .._core.dtypes import PY_SCALARS as _PY_SCALARS
from ..cuda import caches as _caches

__all__ = ["vectorize", "build_definition", "body_definition", "compile_definition"]

_WEAK_OF = {"b": bool, "i": int, "f": float, "c": complex}
_DEFAULT_OF = {bool: numpy.dtype("?"), int: numpy.dtype("i8"), float: numpy.dtype("f8"), complex: numpy.dtype("c16")}
_CONTROL_FLOW = ("vectorize: Python control flow on an element (`if`, `while`, `and`, `or`, `not`, "
                 "`min`/`max` of elements) compiles only in the vectorized function's own source, not in a "
                 "function it calls or one whose source cannot be read; use arithmetic, comparisons and "
                 "ufuncs there (e.g. cuarray.where instead of `if`)")


class _Tracer:
    """Records the statements of one traced call. Installed as the thread's tracer
    (`_core/tracing.py`) while the function runs: a ufunc called on an element reaches `ufunc`
    through the ufunc's dispatch point; any other traceable routine on an element is refused."""

    def __init__(self):
        self.lines = []
        self.preambles = []
        self.consts = []  # (name, loop dtype, value converted to the compute type)
        self.ntemp = 0

    def const(self, value, dt: numpy.dtype) -> str:
        v = value.astype(dt) if isinstance(value, numpy.generic) else dt.type(value)
        v = numpy.float32(v) if dt.char == "e" else v
        for name, d, w in self.consts:  # (one kernel argument per distinct value)
            if d == dt and type(w) is type(v) and repr(w) == repr(v):
                return name
        name = "c%d" % len(self.consts)
        self.consts.append((name, dt, v))
        return name

    def ufunc(self, uf, args, kwargs):
        if any(isinstance(a, _Element) for a in args):
            return self.apply(uf, args, **_dtype_only(uf.__name__, kwargs))
        with _tracing.suspended():  # no element: an ordinary call made by the function
            return uf(*args, **kwargs)

    def call(self, name, fn, args, kwargs):
        if name == "clip" and any(isinstance(a, _Element) for a in args + tuple(kwargs.values())):
            # `clip` is `clip`/`minimum`/`maximum` of the element: NumPy's bounds rules, then the ufunc.
            # `cuarray.clip` always passes min=/max= (numpy._NoValue when not given): a keyword
            # bound replaces the positional one only when given, as in the eager `clip`.
            nv = numpy._NoValue
            a, lo, hi = args
            kmin, kmax = kwargs.get("min", nv), kwargs.get("max", nv)
            if kwargs.get("out") is not None or set(kwargs) - {"out", "min", "max"}:
                raise TypeError("vectorize: clip() with out= or keywords inside a vectorized function is not supported")
            if (lo is not nv and kmin is not nv) or (hi is not nv and kmax is not nv):
                raise ValueError("Passed `min` and `a_min` (or `max` and `a_max`), use only one.")
            lo, hi = (kmin if lo is nv else lo), (kmax if hi is nv else hi)
            lo = None if lo is nv else lo
            hi = None if hi is nv else hi
            if isinstance(a, _Element) and a.dtype.kind in "iu":  # NumPy 2: int bounds past the type drop
                info = numpy.iinfo(a.dtype)
                lo = None if type(lo) is int and lo <= info.min else lo
                hi = None if type(hi) is int and hi >= info.max else hi
            if lo is None:
                return a if hi is None else self.apply(_uf("minimum"), (a, hi))
            return self.apply(_uf("maximum"), (a, lo)) if hi is None else self.apply(_uf("clip"), (a, lo, hi))
        if any(isinstance(a, _Element) for a in args):
            raise TypeError("vectorize: {}() of an element cannot be compiled to a kernel; use arithmetic, "
                            "comparisons and ufuncs only".format(name))
        with _tracing.suspended():
            return fn(*args, **kwargs)

    def before_write(self, a) -> None:
        pass

    def routine_input(self) -> None:
        pass

    def apply(self, uf, args, dtype=None):
        if uf.__name__ not in _registry.ufuncs and not hasattr(uf, "_resolve"):
            raise TypeError("vectorize: {!r} is not a ufunc".format(uf))
        if len(args) != uf.nin:
            raise TypeError("vectorize: {}() takes {} arguments inside a vectorized function, got {}".format(
                uf.__name__, uf.nin, len(args)))
        in_types = []
        weak = True
        for a in args:
            if isinstance(a, _Element):
                if a._tracer is not self:
                    raise TypeError("vectorize: an element of another vectorized call was used")
                # A weak element holds a Python number of the source (a range counter, math.sqrt's
                # float): it promotes as a Python scalar does (NEP 50).
                in_types.append(_WEAK_OF.get(a.dtype.kind, a.dtype) if a.weak else a.dtype)
                weak = weak and a.weak
            elif type(a) in _PY_SCALARS:
                in_types.append(type(a))
            elif isinstance(a, numpy.generic):
                weak = False
                in_types.append(_dtypes.normalize_dtype(a.dtype))
            else:
                raise TypeError("vectorize: {}() got an argument of type {} inside a vectorized function; only "
                                "elements and Python/NumPy scalars can be compiled".format(
                                    uf.__name__, type(a).__name__))
        if all(type(t) is type for t in in_types):
            # Python numbers only (a weak element and constants): Python computes in its own types,
            # NumPy's defaults (NumPy resolves some all-Python loops, comparisons, to object).
            in_types = [_DEFAULT_OF[t] for t in in_types]
        if dtype is not None:
            dtype = _dtypes.normalize_dtype(dtype)
        loop = uf._resolve(tuple(in_types), dtype, "same_kind")
        if uf.__name__ == "power" and loop.in_dtypes[0].kind in "iu":
            b = args[1]
            if not isinstance(b, _Element) and b < 0:
                raise ValueError("Integers to negative integer powers are not allowed.")
        if uf._preamble and uf._preamble not in self.preambles:
            self.preambles.append(uf._preamble)
        outs = []
        weak = weak and dtype is None and any(isinstance(a, _Element) for a in args)
        for od in loop.out_dtypes:
            outs.append(_Element(self, od, "t%d" % self.ntemp, weak and od.kind in _WEAK_OF))
            self.ntemp += 1
            self.lines.append("{} {};".format(compute_ctype(od), outs[-1].expr))
        ins = ["cuarray::cast<{}>({})".format(compute_ctype(ld), a.expr if isinstance(a, _Element)
                                              else self.const(a, ld)) for a, ld in zip(args, loop.in_dtypes)]
        # The C of one ufunc application: the same statement a fused kernel's node is.
        self.lines.append(ufunc_statement(uf, loop, ins, [(o.expr, compute_ctype(o.dtype)) for o in outs]))
        return outs[0] if len(outs) == 1 else tuple(outs)


def _dtype_only(name, kwargs) -> dict:
    """A ufunc's keywords on elements: `dtype=` (the loop's output type, as the ufunc's) only."""
    if set(kwargs) - {"dtype"}:
        raise TypeError("vectorize: {}() with keywords ({}) inside a vectorized function is not supported; "
                        "dtype= is".format(name, ", ".join(sorted(set(kwargs) - {"dtype"}))))
    return kwargs


def _uf(name):
    return _registry.ufuncs[name]


def _binary(name):
    def op(self, other):
        return self._tracer.apply(_uf(name), (self, other))

    def rop(self, other):
        return self._tracer.apply(_uf(name), (other, self))

    return op, rop


class _Element:
    """One element of a vectorized call's input, seen by the traced function."""

    __slots__ = ("_tracer", "dtype", "expr", "weak")
    __array_priority__ = 1000

    def __init__(self, tracer, dtype, expr, weak=False):
        self._tracer = tracer
        self.dtype = dtype
        self.expr = expr
        self.weak = weak  # a Python bool/int/float/complex of the source, held in `dtype`

    def __array_ufunc__(self, np_ufunc, method, *inputs, **kwargs):
        if method != "__call__":
            raise TypeError("vectorize: numpy.{}.{} is not supported inside a vectorized function".format(
                np_ufunc.__name__, method))
        uf = _registry.ufuncs.get(np_ufunc.__name__)
        if uf is None:
            raise TypeError("vectorize: numpy.{} has no cuarray ufunc".format(np_ufunc.__name__))
        return self._tracer.apply(uf, inputs, **_dtype_only(np_ufunc.__name__, kwargs))

    def __bool__(self):
        raise TypeError(_CONTROL_FLOW)

    def _no_host(self, *a):
        raise TypeError("vectorize: an element cannot become a Python number inside a vectorized function "
                        "(`math` functions, int(), float(), indexing with it); use cuarray's ufuncs instead")

    __float__ = __int__ = __complex__ = __index__ = _no_host

    def __array__(self, *a, **k):
        raise TypeError("vectorize: an element cannot become an array; only ufuncs and operators are compiled")

    def __iter__(self):
        raise TypeError("vectorize: an element is a single number, it cannot be iterated")

    __hash__ = None

    __add__, __radd__ = _binary("add")
    __sub__, __rsub__ = _binary("subtract")
    __mul__, __rmul__ = _binary("multiply")
    __truediv__, __rtruediv__ = _binary("divide")
    __floordiv__, __rfloordiv__ = _binary("floor_divide")
    __mod__, __rmod__ = _binary("remainder")
    __pow__, __rpow__ = _binary("power")
    __divmod__, __rdivmod__ = _binary("divmod")
    __and__, __rand__ = _binary("bitwise_and")
    __or__, __ror__ = _binary("bitwise_or")
    __xor__, __rxor__ = _binary("bitwise_xor")
    __lshift__, __rlshift__ = _binary("left_shift")
    __rshift__, __rrshift__ = _binary("right_shift")
    __lt__ = _binary("less")[0]
    __le__ = _binary("less_equal")[0]
    __gt__ = _binary("greater")[0]
    __ge__ = _binary("greater_equal")[0]
    __eq__ = _binary("equal")[0]
    __ne__ = _binary("not_equal")[0]

    def __neg__(self):
        return self._tracer.apply(_uf("negative"), (self,))

    def __pos__(self):
        return self._tracer.apply(_uf("positive"), (self,))

    def __abs__(self):
        return self._tracer.apply(_uf("absolute"), (self,))

    def __invert__(self):
        return self._tracer.apply(_uf("invert"), (self,))

    def conjugate(self):
        return self._tracer.apply(_uf("conjugate"), (self,))

    conj = conjugate


_definitions: dict = {}
_caches.register("vectorize definitions", _definitions)


def _kernel_name(pyfunc) -> str:
    name = re.sub(r"[^0-9A-Za-z_]", "_", getattr(pyfunc, "__name__", "func"))
    return "cuarray_vectorize_" + name[:40]


class vectorize:
    """Compile a Python function of elements into one elementwise kernel. See `numpy.vectorize`
    and this module's docstring for what the function may do; `signature=` is not supported.

    Examples
    --------
    >>> import cuarray
    >>> f = cuarray.vectorize(lambda x, y: x * y + 1)   # one elementwise kernel
    >>> f(cuarray.arange(4), 2)
    array([1, 3, 5, 7])
    """

    def __init__(self, pyfunc=numpy._NoValue, otypes=None, doc=None, excluded=None, cache=False, signature=None):
        if signature is not None:
            raise NotImplementedError("vectorize: signature= (generalized ufuncs) is not supported")
        self.pyfunc = pyfunc
        self.cache = cache
        self.signature = signature
        if isinstance(otypes, str):
            otypes = list(otypes)
        self.otypes = None if otypes is None else tuple(numpy.dtype(t) for t in otypes)
        for t in self.otypes or ():
            if t not in _dtypes.SUPPORTED_DTYPES:
                raise ValueError("Invalid otype specified: {}".format(t))
        self.excluded = set(excluded) if excluded is not None else set()
        self._programs = {}  # compiled sources, see `_compiled`
        if doc is None and pyfunc is not numpy._NoValue:
            doc = getattr(pyfunc, "__doc__", None)
        self.__doc__ = doc

    def __call__(self, *args, **kwargs):
        if self.pyfunc is numpy._NoValue:  # used as @vectorize(otypes=...)
            self.pyfunc = args[0]
            if self.__doc__ is None:
                self.__doc__ = getattr(args[0], "__doc__", None)
            return self
        return self._call(args, kwargs)

    def _call(self, args, kwargs):
        tracer = _Tracer()
        arrays = []
        call_args = []
        for i, a in enumerate(args):
            if i in self.excluded:
                call_args.append(a)
            else:
                call_args.append(self._element(tracer, arrays, a))
        call_kwargs = {}
        for k, v in kwargs.items():
            call_kwargs[k] = v if k in self.excluded else self._element(tracer, arrays, v)
        if any(a.dtype.kind in "Mm" for a in arrays):  # their unit casts are the eager engine's only
            raise TypeError("vectorize does not take datetime64/timedelta64 arrays on the GPU")
        shape = _shapes.broadcast_shapes(*[a.shape for a in arrays]) if arrays else ()
        size = 1
        for d in shape:
            size *= d
        if size == 0 and self.otypes is None:
            raise ValueError("cannot call `vectorize` on size 0 inputs unless `otypes` is set")
        src = _compile.function_source(self.pyfunc)
        if src is not None:
            return self._compiled(tracer, arrays, call_args, call_kwargs, shape)
        prev = _tracing.install(tracer)
        try:
            res = self.pyfunc(*call_args, **call_kwargs)
        except TypeError as e:
            if "_Element" in str(e) or "unsupported input" in str(e):
                raise TypeError("vectorize: {} called a function that cannot be compiled to a kernel (only "
                                "operators, ufuncs and Python scalars can): {}".format(
                                    getattr(self.pyfunc, "__name__", "the function"), e)) from e
            raise
        finally:
            _tracing.uninstall(prev)
        results = res if isinstance(res, tuple) else (res,)
        outs = [self._result(tracer, r) for r in results]
        if self.otypes is not None and len(self.otypes) != len(outs):
            raise ValueError("Invalid number of outputs: otypes has {}, the function returned {}".format(
                len(self.otypes), len(outs)))
        out_dts = self.otypes or tuple(o.dtype for o in outs)
        d = build_definition(_kernel_name(self.pyfunc), tracer, [a.dtype for a in arrays], outs, out_dts)
        out_arrays = [ndarray(shape, dt) for dt in out_dts]
        d.run(tuple(arrays) + tuple(out_arrays), tuple(v for _, _, v in tracer.consts), shape)
        return tuple(out_arrays) if isinstance(res, tuple) else out_arrays[0]

    def _compiled(self, tracer, arrays, call_args, call_kwargs, shape):
        # A program is reused while its input dtypes, the Python values passed for excluded
        # arguments and every name its source read are the same objects (`_compile.reads_hold`):
        # compiling the source costs 0.3-5 ms, a dictionary look-up does not.
        passed = tuple(None if isinstance(a, _Element) else a for a in call_args)
        # (keyword order kept: the elements v0.. follow it)
        kw = tuple((k, None if isinstance(v, _Element) else v) for k, v in call_kwargs.items())
        key = (tuple(a.dtype for a in arrays), tuple(isinstance(a, _Element) for a in call_args),
               tuple(k for k, _ in kw))
        hit = self._programs.get(key)
        if hit is not None:
            d, out_dts, is_tuple, consts, reads, was_passed, was_kw = hit
            if (all(x is y for x, y in zip(passed, was_passed)) and all(x[1] is y[1] for x, y in zip(kw, was_kw))
                    and _compile.reads_hold(self.pyfunc, reads)):
                return self._launch(d, arrays, out_dts, is_tuple, consts, shape)
        d, out_dts, is_tuple, reads = compile_definition(self.pyfunc, tracer, [a.dtype for a in arrays], call_args,
                                                         call_kwargs, self.otypes, with_reads=True)
        consts = tuple(v for _, _, v in tracer.consts)
        if reads is not None:
            if len(self._programs) > 64:
                self._programs.clear()
            self._programs[key] = (d, out_dts, is_tuple, consts, reads, passed, kw)
        return self._launch(d, arrays, out_dts, is_tuple, consts, shape)

    @staticmethod
    def _launch(d, arrays, out_dts, is_tuple, consts, shape):
        out_arrays = [ndarray(shape, dt) for dt in out_dts]
        d.run(tuple(arrays) + tuple(out_arrays), consts, shape)
        return tuple(out_arrays) if is_tuple else out_arrays[0]

    @staticmethod
    def _element(tracer, arrays, value):
        a = as_array(value, "vectorize")
        arrays.append(a)
        return _Element(tracer, a.dtype, "v%d" % (len(arrays) - 1))

    @staticmethod
    def _result(tracer, r):
        if isinstance(r, _Element):
            return r
        if type(r) in _PY_SCALARS or isinstance(r, numpy.generic):
            dt = _dtypes.normalize_dtype(numpy.asarray(r).dtype)
            return _Element(tracer, dt, tracer.const(r, dt))
        raise TypeError("vectorize: the function returned a {}; it must return elements or numbers".format(
            type(r).__name__))


def compile_definition(pyfunc, tracer, in_dtypes, call_args, call_kwargs, otypes=None, with_reads=False):
    """The kernel of one call of a function whose source is known: (Definition, output dtypes,
    whether the function returns a tuple). `call_args`/`call_kwargs` hold the tracer's elements
    (`_Element`, named v0.. in `in_dtypes` order) and the excluded arguments. Needs no device."""
    bound = inspect.signature(pyfunc).bind(*call_args, **call_kwargs)
    bound.apply_defaults()
    prev = _tracing.install(tracer)
    try:
        op, computed, is_tuple, reads = _compile.compile_body(tracer, _Element, pyfunc, dict(bound.arguments),
                                                              otypes)
    finally:
        _tracing.uninstall(prev)
    out_dts = tuple(otypes or computed)
    d = body_definition(_kernel_name(pyfunc), tracer, in_dtypes, computed, out_dts, op)
    return (d, out_dts, is_tuple, reads) if with_reads else (d, out_dts, is_tuple)


def build_definition(name, tracer, in_dtypes, outs, out_dts) -> Definition:
    """The kernel of a traced call: inputs v0.., constants c0.., outputs r0.. (cached by source)."""
    body = tracer.lines + ["r{} = {};".format(k, o.expr) for k, o in enumerate(outs)]
    return body_definition(name, tracer, in_dtypes, [o.dtype for o in outs], out_dts, "\n    ".join(body))


def body_definition(name, tracer, in_dtypes, out_computed, out_dts, op) -> Definition:
    """The kernel running `op` (C++ reading v0.. and c0.., writing r0.. of the `out_computed` types)."""
    params = [KernelParam("v%d" % i, "in", dt) for i, dt in enumerate(in_dtypes)]
    params += [KernelParam(n, "scalar", dt, dt) for n, dt, _ in tracer.consts]
    params += [KernelParam("r%d" % k, "out", dt, c) for k, (dt, c) in enumerate(zip(out_dts, out_computed))]
    preamble = "\n".join(tracer.preambles)
    key = (name, tuple(p.key() for p in params), op, preamble)
    d = _definitions.get(key)
    if d is None:
        if len(_definitions) > 4096:
            _definitions.clear()
        d = _definitions[key] = Definition(name, params, op, preamble=preamble)
    return d
