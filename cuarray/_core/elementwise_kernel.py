"""ElementwiseKernel: user-defined elementwise kernels (CuPy-compatible interface).

    squared_diff = cuarray.ElementwiseKernel(
        'float32 x, float32 y', 'float32 z', 'z = (x - y) * (x - y)', 'squared_diff')

Parameters are ``[raw] TYPE NAME``. TYPE is a NumPy dtype name (``float32``, ``int64``, ``bool``)
or a type placeholder (any other identifier, e.g. ``T``) bound from the first argument that uses
it; the placeholder is a C ``typedef`` inside the kernel, so the operation can say ``T d = x - y``.
Inside the operation, input names are the element values, output names are references to the
output elements, ``i`` is the flat index and ``_ind.size()`` the number of elements (so no
parameter may be called ``i``, nor have a name starting with ``_``: ValueError). ``raw``
parameters are plain pointers indexed by the operation (``y[i]``, ``atomicAdd(&y[x], 1)``): a
raw array is seen as its C-contiguous flat buffer (a non-contiguous raw input is copied first; a
non-contiguous raw output is an error).

Structured NumPy scalars (`numpy.void`) are passed by value as C structs with their dtype's layout
(as `RawKernel` passes them, of any size; a C struct of over 16 bytes takes the launch's
pointer-array path, `launch.StructBytes`): declare the parameter with a placeholder (``'S p'``:
the kernel gets a struct of the dtype's fields, ``p.x``) or with a C type the kernel knows
(``'float3 v'``, a CUDA vector type, or a struct of the preamble; NVRTC checks its size against the
dtype's). See `kernel_structs`. Arrays of structured dtypes are arguments the same way: ``'S p'``
gives the element (a struct) and ``'raw S p'`` a pointer to the structs (``p[i].x``); an array
bound to a C type name must be aligned as that type can be (address and strides multiples of the
largest power of two, up to 16, dividing its itemsize).

Code generation, caching and launching are the engine's (`elementwise.Definition`).
"""

from __future__ import annotations

import operator

import numpy

from ..cuda import compiler as _compiler
from ..cuda import launch as _launch
from . import dtypes as _dtypes
from . import kernel_structs as _structs
from . import shapes as _shapes
from .elementwise import Definition, KernelParam
from .copying import copy as _copy
from .ndarray import ndarray

__all__ = ["ElementwiseKernel", "parse_params", "check_kernel_name"]


def _c_identifier(word: str) -> bool:
    # [A-Za-z_][A-Za-z0-9_]* with str methods: the two regexes this module compiled at import
    # were ~230 us of a process's first ElementwiseKernel.
    return word.isascii() and word.isidentifier()


class _ParamSpec:
    __slots__ = ("name", "raw", "dtype", "typevar")

    def __init__(self, name, raw, dtype, typevar):
        self.name = name
        self.raw = raw
        self.dtype = dtype
        self.typevar = typevar


def _type_of(token: str):
    """A dtype for a dtype name, or None when the token is a type placeholder."""
    if _is_placeholder(token):
        return None
    try:
        return _dtypes.normalize_dtype(numpy.dtype(token))
    except TypeError:
        return None


def _is_placeholder(token: str) -> bool:
    return token in ("T", "U", "V", "S", "R", "X", "Y", "Z") or (len(token) == 1 and token.isupper())


def bind_struct(value, name):
    """The structured dtype a placeholder or C type name takes from `value`, a `numpy.void`
    argument of parameter `name`, if the engine can pass it by value."""
    dt = value.dtype
    if dt.fields is None:
        raise TypeError("parameter {!r}: an unstructured void scalar ({}) has no C type; give its dtype "
                        "fields".format(name, dt))
    if dt.itemsize > _structs.MAX_BY_VALUE:
        raise TypeError("parameter {!r}: a struct of {} bytes does not fit CUDA's kernel parameter space; "
                        "pass structs of up to {} bytes by value (a larger one in a device array)".format(
                            name, dt.itemsize, _structs.MAX_BY_VALUE))
    return dt



def _check_struct_array(a, spec) -> None:
    """An array of structured dtype for parameter `spec` (a placeholder or a C type name): one bound
    to a C type name (CUDA's float3, a preamble's struct) is aligned as that type may need
    (C's alignof divides sizeof: the largest power of two dividing the itemsize, up to 16). A
    placeholder's struct is packed, any address, unless its dtype is aligned (``align=True``):
    then it has the dtype's alignment (`kernel_structs.struct_declaration`)."""
    dt = a.dtype
    if _is_placeholder(spec.typevar):
        align = dt.alignment if dt.isalignedstruct else 1
        hint = "a dtype without align=True gives a packed struct"
    else:
        n = dt.itemsize
        align = min(16, n & -n)
        hint = "declare the parameter with a placeholder, 'S {}', for a packed struct".format(spec.name)
    if align > 1 and (a.data.ptr % align or any(s % align for d, s in zip(a._shape, a._strides) if d > 1)):
        raise ValueError("parameter {!r}: the array of {} is not aligned to {} bytes, as a {} may need ({})".format(
            spec.name, dt, align, spec.typevar, hint))


def scalar_arg(value, dt, name):
    """A scalar argument of parameter `name`, of declared dtype `dt`, as the kernel takes it by value:
    a struct's bytes (`launch.struct_arg`, as RawKernel passes it), or a number of `dt`'s C type."""
    if dt.fields is not None:
        if not isinstance(value, numpy.void) or value.dtype != dt:
            raise TypeError("parameter {!r} is a struct of dtype {}; got {!r}".format(name, dt, value))
        return _launch.struct_arg(value)
    if isinstance(value, numpy.void):
        raise TypeError("parameter {!r} is declared {}, not a struct: a structured scalar goes to a "
                        "parameter declared with a placeholder or a C struct name".format(name, dt))
    return (numpy.float32 if dt.char == "e" else dt.type)(dt.type(value))


def with_type_declarations(bound, preamble: str) -> str:
    """`preamble` with the kernel's type placeholders declared: a typedef for a number, a struct
    of its dtype for a structured scalar; a C type name bound to a struct (CUDA's float3, a
    preamble's struct) gets its size checked after the preamble, which may declare it."""
    typedefs, checks = [], []
    for tv, dt in sorted(bound.items()):
        if dt.fields is None:
            typedefs.append("typedef {} {};\n".format(_dtypes.ctype(dt), tv))
        elif _is_placeholder(tv):
            typedefs.append(_structs.struct_declaration(tv, dt))
        else:
            checks.append(_structs.size_check(tv, dt))
    if checks:
        return "".join(typedefs) + preamble + "\n" + "".join(checks)
    return "".join(typedefs) + preamble


def kinds_key(kinds, bound) -> tuple:
    """The cache key of a call's argument kinds and bound types. The dtypes themselves: their
    equality tells datetime units and struct fields apart (`.char` does not), and hashing them
    costs less than building a string per argument."""
    return tuple(kinds), tuple(sorted(bound.items()))


def check_kernel_name(name) -> str:
    """A kernel name must be a C identifier (it names the CUDA function): ValueError otherwise, as
    CuPy raises at construction."""
    if not isinstance(name, str) or not _c_identifier(name):
        raise ValueError("Invalid kernel name: {!r} (a C identifier is required)".format(name))
    return name


def check_size(size):
    """`size=`: None, or a non-negative int (CuPy's rule; it sets the loop length only when no
    non-raw array argument does)."""
    if size is None:
        return None
    try:
        size = operator.index(size)
    except TypeError:
        raise TypeError("size must be an int, got {}".format(type(size).__name__)) from None
    if size < 0:
        raise ValueError("size must be non-negative, got {}".format(size))
    return size


_INDEX = ("i",)  # ElementwiseKernel's flat index inside the operation


def parse_params(text: str, reserved=()) -> tuple[_ParamSpec, ...]:
    """'float32 x, raw T y' -> param specs. ValueError naming the bad declaration, or a name that
    is `reserved` (a kernel's own variables, such as ElementwiseKernel's index `i`) or starts with
    '_' (the generated code's names): a parameter `i` shadowed the index in the contiguous loop."""
    if not isinstance(text, str):
        raise TypeError("kernel parameters must be a str such as 'float32 x, T y', got {}".format(
            type(text).__name__))
    if not text.strip():
        return ()
    out = []
    for decl in text.split(","):
        words = decl.split()
        raw = len(words) == 3 and words[0] == "raw"
        if raw:
            words = words[1:]
        if len(words) != 2 or not (_c_identifier(words[0]) and _c_identifier(words[1])):
            raise ValueError("Syntax error in kernel parameter {!r}: expected '[raw] TYPE NAME'".format(decl.strip()))
        tok, name = words
        if tok == "raw" or name == "raw":
            raise ValueError("Syntax error in kernel parameter {!r}: 'raw' is a keyword".format(decl.strip()))
        if name in reserved or name.startswith("_"):
            raise ValueError("Parameter name {!r} is reserved: {}names starting with '_' are the generated "
                             "code's".format(name, "".join("`{}` is the kernel's own variable, ".format(r)
                                                           for r in reserved if r == name)))
        dt = _type_of(tok)
        out.append(_ParamSpec(name, raw, dt, None if dt is not None else tok))
    names = [p.name for p in out]
    if len(set(names)) != len(names):
        raise ValueError("Duplicate parameter name in {!r}".format(text))
    return tuple(out)


_MAX_BINDINGS = 256  # bindings kept per kernel (a call of new shapes each time forgets them all)
_PY_NUMBERS = (bool, int, float, complex)


class _Binding:
    """What a call of an ElementwiseKernel launches, given its arguments' kinds: the engine's
    definition, the loop shape, per input ("in" | "raw" | "scalar", declared dtype, parameter name,
    whether a raw input is copied to C order), per output (raw, declared dtype), and `size` where
    it sets the loop length."""

    __slots__ = ("d", "shape", "ins", "outs", "size")

    def __init__(self, d, shape, ins, outs, size):
        self.d, self.shape, self.ins, self.outs, self.size = d, shape, ins, outs, size


def _call_key(args):
    """What a call's binding depends on, per argument: an array's dtype, shape and C-contiguity, a
    Python number's type, a NumPy scalar's type and dtype, None (an output to allocate); None
    for a call that must be bound afresh (structured data, another argument kind)."""
    key = []
    for a in args:
        t = type(a)
        if t is ndarray:
            if a._dtype.names is not None:
                return None
            key.append((a._dtype, a._shape, a._c))
        elif t in _PY_NUMBERS or a is None:
            key.append(t)
        elif isinstance(a, numpy.generic) and t is not numpy.void:
            key.append((t, a.dtype))
        else:
            return None
    return tuple(key)


class ElementwiseKernel:
    """A user-defined elementwise kernel. See `cupy.ElementwiseKernel`.

    Call with the inputs, then optionally the outputs; ``size=`` sets the loop length when no
    non-raw array gives a shape. Returns the output (a tuple when there are several).

    Examples
    --------
    >>> import cuarray
    >>> squared_diff = cuarray.ElementwiseKernel(
    ...     "float32 x, float32 y", "float32 z", "z = (x - y) * (x - y)", "squared_diff")
    >>> x = cuarray.asarray([1.0, 2.0, 3.0], dtype=cuarray.float32)
    >>> squared_diff(x, x[::-1])
    array([4., 0., 4.], dtype=float32)
    """

    def __init__(self, in_params, out_params, operation, name="kernel", reduce_dims=True,
                 preamble="", no_return=False, return_tuple=False, loop_prep="", after_loop="",
                 options=()):
        check_kernel_name(name)
        self.in_params = parse_params(in_params, _INDEX)
        self.out_params = parse_params(out_params, _INDEX)
        clash = {p.name for p in self.in_params} & {p.name for p in self.out_params}
        if clash:
            raise ValueError("Parameter names used as both input and output: {}".format(sorted(clash)))
        if not isinstance(operation, str):
            raise TypeError("operation must be a str of CUDA code, got {}".format(type(operation).__name__))
        self.nin = len(self.in_params)
        self.nout = len(self.out_params)
        self.nargs = self.nin + self.nout
        self.operation = operation
        self.name = name
        self.preamble = preamble
        self.loop_prep = loop_prep
        self.after_loop = after_loop
        self.options = tuple(options)
        self.no_return = no_return
        self.return_tuple = return_tuple
        self._defs: dict = {}
        self._bindings: dict = {}  # _call_key(args) -> _Binding (see __call__)

    def __repr__(self) -> str:
        return "<ElementwiseKernel {!r}>".format(self.name)

    def __call__(self, *args, size=None, stream=None, block_size=None):
        # HOT PATH: arguments of the types, dtypes, shapes and contiguity of an earlier call (no
        # struct, no placeholder bound by a Python number's value) reuse that call's binding: the
        # argument checks and type binding below depend on nothing else.
        key = _call_key(args) if size is None else None
        if key is not None:
            b = self._bindings.get(key)
            if b is not None:
                return self._run(b, args)
        b, reusable = self._bind(args, size)
        if reusable and key is not None:
            if len(self._bindings) >= _MAX_BINDINGS:
                self._bindings.clear()
            self._bindings[key] = b
        return self._run(b, args)

    def _bind(self, args, size):
        """The checks of a call and what it launches: (`_Binding`, whether a call with the same
        `_call_key` may reuse it). Raises CuPy's errors for wrong arguments."""
        if len(args) not in (self.nin, self.nargs):
            raise TypeError("Wrong number of arguments for {!r}: expected {} or {}, got {}".format(
                self.name, self.nin, self.nargs, len(args)))
        size = check_size(size)
        ins = args[: self.nin]
        outs = list(args[self.nin:]) if len(args) == self.nargs else [None] * self.nout
        reusable = True

        # Bind type placeholders from the arguments, inputs first, in order.
        bound: dict[str, numpy.dtype] = {}
        for spec, a in list(zip(self.in_params, ins)) + list(zip(self.out_params, outs)):
            if spec.typevar is None or a is None or spec.typevar in bound:
                continue
            if isinstance(a, ndarray):
                bound[spec.typevar] = a.dtype
            elif isinstance(a, numpy.void):
                bound[spec.typevar] = bind_struct(a, spec.name)
            elif isinstance(a, numpy.generic):
                bound[spec.typevar] = _dtypes.normalize_dtype(a.dtype)
        for spec, a in zip(self.in_params, ins):
            if spec.typevar is not None and spec.typevar not in bound and a is not None:
                if isinstance(a, (bool, int, float, complex)):
                    # (a Python int's dtype depends on its value: 2**63 is uint64's)
                    bound[spec.typevar] = _dtypes.normalize_dtype(numpy.asarray(a).dtype)
                    reusable = False
                else:
                    raise TypeError("Unsupported argument type {} for parameter {!r}".format(type(a), spec.name))

        def dtype_of(spec):
            if spec.dtype is not None:
                return spec.dtype
            dt = bound.get(spec.typevar)
            if dt is None:
                raise TypeError("Cannot determine the type {!r} of parameter {!r}: pass an array or a "
                                "typed scalar that uses it".format(spec.typevar, spec.name))
            return dt

        # Shape from the non-raw array arguments (broadcast).
        shapes = [a._shape for spec, a in zip(self.in_params, ins) if not spec.raw and isinstance(a, ndarray)]
        shapes += [o._shape for spec, o in zip(self.out_params, outs) if not spec.raw and isinstance(o, ndarray)]
        if shapes:
            shape = _shapes.broadcast_shapes(*shapes) if len(set(shapes)) > 1 else shapes[0]
            if size is not None:  # CuPy's rules and messages, for size= and its absence
                raise ValueError("Specified 'size' can be used only if all of the ndarray are 'raw'.")
        elif size is not None:
            shape = (int(size),)
        else:
            raise ValueError("Loop size is undecided.")

        steps_in, kinds = [], []
        for spec, a in zip(self.in_params, ins):
            dt = dtype_of(spec)
            if dt.names is not None:
                reusable = False  # (a struct array's alignment is checked per address)
            if spec.raw:
                if not isinstance(a, ndarray):
                    raise TypeError("raw parameter {!r} needs a cuarray array, got {}".format(spec.name, type(a)))
                if dt.names is not None:
                    _check_struct_array(a, spec)
                steps_in.append(("raw", dt, spec.name, not a._c))
                kinds.append(("raw", a.dtype, dt))
            elif isinstance(a, ndarray):
                if dt.names is not None:
                    _check_struct_array(a, spec)
                steps_in.append(("in", dt, spec.name, False))
                kinds.append(("in", a.dtype, dt))
            elif isinstance(a, (bool, int, float, complex, numpy.generic)):
                scalar_arg(a, dt, spec.name)  # (its errors here, before anything is allocated)
                steps_in.append(("scalar", dt, spec.name, False))
                kinds.append(("scalar", dt, dt))
            else:
                raise TypeError("Unsupported argument type {} for parameter {!r}".format(type(a), spec.name))
        steps_out = []
        for spec, o in zip(self.out_params, outs):
            dt = dtype_of(spec)
            if dt.names is not None:
                reusable = False
            if o is None:
                if spec.raw and size is None:  # CuPy: a raw output is allocated only with size=
                    raise ValueError("Output array size is Undecided")
            elif not isinstance(o, ndarray):
                raise TypeError("output {!r} must be a cuarray array, got {}".format(spec.name, type(o)))
            else:
                if dt.names is not None:
                    _check_struct_array(o, spec)
                if spec.raw and not o._c:
                    raise ValueError("raw output {!r} must be C-contiguous".format(spec.name))
                if not spec.raw and o._shape != shape:
                    raise ValueError("Out shape is mismatched: {} vs the broadcast shape {}".format(o._shape, shape))
                if not spec.raw and o.dtype != dt:
                    raise TypeError("Type is mismatched: output {!r} is {} but the kernel declares {}".format(
                        spec.name, o.dtype, dt))
            steps_out.append((spec.raw, dt))
            stored = dt if o is None else o.dtype
            kinds.append(("raw", stored, dt) if spec.raw else ("out", stored, dt))

        key = kinds_key(kinds, bound)
        d = self._defs.get(key)
        if d is None:
            d = self._defs[key] = self._definition(kinds, bound)
        any_array = any(k == "in" for k, _, _, _ in steps_in) or not all(raw for raw, _ in steps_out)
        return _Binding(d, shape, tuple(steps_in), tuple(steps_out), None if any_array else size), reusable

    def _run(self, b, args):
        """Launch the bound call on `args`: raw inputs that are not C-contiguous copied, scalars
        converted to their parameters' types, outputs not given allocated."""
        arrays, raws, scalars = [], [], []
        for (kind, dt, name, copy), a in zip(b.ins, args):
            if kind == "in":
                arrays.append(a)
            elif kind == "raw":
                raws.append(_copy(a) if copy else a)
            else:
                scalars.append(scalar_arg(a, dt, name))
        given = len(args) == self.nargs
        outs = list(args[self.nin:]) if given else [None] * self.nout
        out_arrays = []
        for k, (raw, dt) in enumerate(b.outs):
            o = outs[k]
            if o is None:
                o = outs[k] = ndarray(b.shape, dt)
            (raws if raw else out_arrays).append(o)
        try:
            b.d.run(arrays + out_arrays, tuple(scalars), b.shape, raw=raws, size=b.size)
        except _compiler.CompileError as e:  # a struct's C type that is not its dtype's: TypeError
            err = _structs.layout_error(e)
            if err is None:
                raise
            raise err from e
        if self.no_return:
            return None
        if self.nout == 1 and not self.return_tuple:
            return outs[0]
        return tuple(outs)

    def _definition(self, kinds, bound) -> Definition:
        params = []
        specs = self.in_params + self.out_params
        for spec, (kind, stored, declared) in zip(specs, kinds):
            if declared.fields is not None:  # a struct (scalar or array): its C type is the parameter's type name
                params.append(KernelParam(spec.name, kind, declared, declared, by_ref=kind == "out", ctype=spec.typevar))
            elif kind == "raw":
                params.append(KernelParam(spec.name, "raw", declared, declared))
            elif kind == "out":
                params.append(KernelParam(spec.name, "out", stored, declared, by_ref=True))
            else:
                params.append(KernelParam(spec.name, kind, stored if kind == "in" else declared, declared))
        type_names = "_".join(dt.name for _, _, dt in kinds)
        name = "{}_{}".format(self.name, type_names) if type_names else self.name
        return Definition(name, params, self.operation, preamble=with_type_declarations(bound, self.preamble),
                          loop_prep=self.loop_prep, after_loop=self.after_loop, options=self.options,
                          user_source=self.operation)
