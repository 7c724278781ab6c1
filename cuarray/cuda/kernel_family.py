"""Kernel families: one object per `.cu` template that declares its kernels' parameters once,
owns compiling and caching them, and packs their arguments from the declaration.

A family is the template's source (a callable returning the full text NVRTC compiles, read once)
and one C signature per kernel, written as in the template::

    EDT = KernelFamily("cuarray_ndimage_edt", edt_source, namespace="cuarray_ndimage", kernels=(
        "edt_init<T>(const T* in, double* f, long long* idx, const long long* shape, int nd, "
        "long long total)",
        ...))

`family.get(*specs, options=())` compiles (or fetches) the kernels named by `specs` (name
expressions inside the namespace: ``"edt_init<float>"``, ``"edt_pass"``) together in one module,
exactly as a hand-written ``compiler.compile_module(source, name_expressions=...)`` did, and returns
one `Kernel` per spec. Every family shares one cache (`_cache`), keyed by family, specs, options and
device: no module keeps its own. `Kernel.launch(grid, block, *args, shared_mem=0, stream=None)`
packs `args` by the declaration and hands them to `launch.launch`, the one launch path.

Packing (the hot path: `Kernel.launch` is a function made once per specialisation that converts
each value inline, no source work per call): a pointer parameter takes an address (``x.data.ptr``,
0 for none) and travels as given (a Python int: an 8-byte pointer); a value parameter becomes the
NumPy scalar of its C type (``numpy.int64(n)`` for ``long long n``), template types resolved by the
specialisation (``T`` of ``edt_init<float>`` is float32). A value already of that NumPy type
passes unchanged, so a caller that must cast as C casts (float to int) converts first. A wrong
argument count is a TypeError (`pack` names the kernel and its parameters).

tests/cuda/test_kernel_family_cpu.py parses every registered family's template signatures and
checks them against these declarations, so a template and its declaration cannot drift apart.

The kernels the engine generates from its own templates (scans, elementwise layouts) are declared
the same way, once per template, by a `Skeleton`: their launches go through it (tests/test_rules.py).
"""

from __future__ import annotations

import re
import threading

import numpy

from . import backend as _seam
from . import caches as _caches
from . import compiler as _compiler
from . import device as _device
from . import launch as _launch

__all__ = ["KernelFamily", "Kernel", "Param", "Skeleton", "families", "generated", "parse_signature", "split_top",
           "CTYPES"]

# C type name -> NumPy dtype (the value parameters' carriers; pointer parameters are Python ints)
CTYPES = {
    "bool": numpy.dtype(numpy.bool_), "char": numpy.dtype(numpy.int8), "signed char": numpy.dtype(numpy.int8),
    "unsigned char": numpy.dtype(numpy.uint8), "short": numpy.dtype(numpy.int16),
    "unsigned short": numpy.dtype(numpy.uint16), "int": numpy.dtype(numpy.int32),
    "unsigned int": numpy.dtype(numpy.uint32), "unsigned": numpy.dtype(numpy.uint32),
    "long long": numpy.dtype(numpy.int64), "unsigned long long": numpy.dtype(numpy.uint64),
    "long": numpy.dtype(numpy.int64), "unsigned long": numpy.dtype(numpy.uint64),
    "float": numpy.dtype(numpy.float32), "double": numpy.dtype(numpy.float64),
    "__half": numpy.dtype(numpy.float16), "half": numpy.dtype(numpy.float16),
    "int8_t": numpy.dtype(numpy.int8), "uint8_t": numpy.dtype(numpy.uint8),
    "int16_t": numpy.dtype(numpy.int16), "uint16_t": numpy.dtype(numpy.uint16),
    "int32_t": numpy.dtype(numpy.int32), "uint32_t": numpy.dtype(numpy.uint32),
    "int64_t": numpy.dtype(numpy.int64), "uint64_t": numpy.dtype(numpy.uint64),
    "size_t": numpy.dtype(numpy.uint64), "ptrdiff_t": numpy.dtype(numpy.int64),
    "complex<float>": numpy.dtype(numpy.complex64), "complex<double>": numpy.dtype(numpy.complex128),
    "cuarray::complex<float>": numpy.dtype(numpy.complex64),
    "cuarray::complex<double>": numpy.dtype(numpy.complex128),
}
_QUALIFIERS = ("const", "volatile", "__restrict__", "__restrict", "restrict")
_families: list = []
# The one compile cache: (family, specs, options, variant, device id) -> tuple of Kernels, and
# ("generated", key, device id) -> the kernel of an engine-generated source (`generated`); the
# selected backend's (`_select`).
_cache: dict = _seam.CUDA.table("kernel families")
_guard = threading.Lock()


def families() -> tuple:
    """Every KernelFamily created so far (the drift test imports the modules that define them)."""
    return tuple(_families)


def forget_families(gone) -> None:
    """Leave the families `gone` out of `families()` from now on: a private copy's of a module that
    declares families (the fake device's `host_modules`), so that each name lists its real module's."""
    ids = {id(f) for f in gone}
    with _guard:
        _families[:] = [f for f in _families if id(f) not in ids]


def split_top(text: str, sep: str = ",") -> list:
    """`text` split at `sep` outside <>, () and []."""
    out, depth, cur = [], 0, []
    for ch in text:
        if ch in "<([":
            depth += 1
        elif ch in ">)]":
            depth -= 1
        if ch == sep and depth == 0:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    tail = "".join(cur)
    if tail.strip() or out:
        out.append(tail)
    return [s.strip() for s in out]


def normalize_type(ctype: str) -> str:
    """A C type with `__restrict__` dropped and whitespace collapsed ("const T *" -> "const T*")."""
    t = re.sub(r"\b(__restrict__|__restrict)\b", " ", ctype)
    t = re.sub(r"\s*\*\s*", "*", t)
    t = re.sub(r"\s*&\s*", "&", t)
    t = re.sub(r"\s*([<>,])\s*", r"\1", t)
    return " ".join(t.split()).replace(" *", "*")


def parse_param(text: str) -> tuple:
    """(normalized C type, name) of one parameter declaration such as ``const T* __restrict__ in``."""
    m = re.match(r"^(.*?)([A-Za-z_][A-Za-z_0-9]*)\s*(\[\s*\d*\s*\])?$", text.strip(), re.S)
    if m is None or not m.group(1).strip():
        raise ValueError("cannot read the parameter {!r}".format(text))
    ctype = m.group(1) + ("*" if m.group(3) else "")
    return normalize_type(ctype), m.group(2)


def parse_signature(sig: str) -> tuple:
    """(name, template parameter names, ((C type, name), ...)) of ``name<T, int OP>(params)``."""
    m = re.match(r"^\s*([A-Za-z_][A-Za-z_0-9]*)\s*(?:<(.*?)>)?\s*\((.*)\)\s*$", sig, re.S)
    if m is None:
        raise ValueError("cannot read the kernel signature {!r}".format(sig))
    tparams = tuple(p.split("=")[0].split()[-1] for p in split_top(m.group(2) or ""))
    params = tuple(parse_param(p) for p in split_top(m.group(3)) if p != "void")
    return m.group(1), tparams, params


def _required(sig: str) -> int:
    """How many template parameters of `sig` have no default (``WIN = 32``)."""
    m = re.match(r"^\s*[A-Za-z_][A-Za-z_0-9]*\s*<(.*?)>\s*\(", sig, re.S)
    return sum("=" not in p for p in split_top(m.group(1))) if m else 0


def _as_given(value):
    return value


class Param:
    """One declared kernel parameter: its C type (normalized), name, whether it is a pointer and
    the alignment its pointee needs (bytes; 0 where the type's size is not known here)."""

    __slots__ = ("ctype", "name", "pointer", "base")

    def __init__(self, ctype: str, name: str):
        self.ctype = ctype
        self.name = name
        self.pointer = ctype.endswith("*")
        base = ctype.rstrip("*")
        for q in _QUALIFIERS:
            base = re.sub(r"\b{}\b".format(q), " ", base)
        self.base = " ".join(base.split())

    def alignment(self, targs: dict) -> int:
        dt = CTYPES.get(targs.get(self.base, self.base))
        if dt is None:
            return 0
        return dt.itemsize

    def converter(self, targs: dict):
        """The callable turning a Python argument into what the launch takes: `int` for a pointer,
        the NumPy scalar type of a numeric value; a value of a type this module cannot size (a
        trait's member type, ``typename keys<T>::key_t``) passes as the caller gives it (a NumPy
        scalar of the right width, or `launch.struct_arg`)."""
        if self.pointer:
            return int
        dt = CTYPES.get(targs.get(self.base, self.base))
        return _as_given if dt is None else dt.type

    def __repr__(self) -> str:
        return "Param({!r}, {!r})".format(self.ctype, self.name)


class Kernel:
    """One compiled kernel of a family: `.kernel` (cuda.core's Kernel), `.pack(args)` and
    `.launch(grid, block, *args, shared_mem=0, stream=None, cooperative=False)`.

    `launch` is a function made once per specialisation from the declaration (`_launcher`): the
    arguments are converted inline, as a hand-written tuple would be, so a launch costs what the
    hand-packed one did. Pointers pass as given there (addresses: Python ints); `pack` converts
    them with `int` as well (what the tests compare)."""

    __slots__ = ("kernel", "name", "params", "_convs", "alignments", "launch")

    def __init__(self, kernel, name: str, params: tuple, targs: dict):
        self.kernel = kernel
        self.name = name
        self.params = params
        self._convs = tuple(p.converter(targs) for p in params)
        self.alignments = tuple(p.alignment(targs) if p.pointer else 0 for p in params)
        self.launch = _launcher(kernel, params, self._convs)

    def pack(self, args) -> tuple:
        convs = self._convs
        if len(args) != len(convs):
            raise TypeError("{} takes {} arguments ({}), got {}".format(
                self.name, len(convs), ", ".join(p.name for p in self.params), len(args)))
        return tuple([c(a) for c, a in zip(convs, args)])

    def __repr__(self) -> str:
        return "<Kernel {}>".format(self.name)


def _launcher(kernel, params: tuple, convs: tuple):
    """``launch(grid, block, a0, ..., shared_mem=0, stream=None, cooperative=False)`` for one
    kernel: a Python function (made once, from the declaration; no CUDA source) that builds the
    argument tuple with each value through its converter and calls `launch.launch`."""
    names = ["a{}".format(i) for i in range(len(params))]
    packed = ", ".join(n if p.pointer else "c{}({})".format(i, n) for i, (n, p) in enumerate(zip(names, params)))
    src = ("def launch(grid, block, {args}{sep}shared_mem=0, stream=None, cooperative=False):\n"
           "    _launch.launch(kernel, grid, block, ({packed}{comma}), shared_mem, stream, cooperative)\n").format(
        args=", ".join(names), sep=", " if names else "", packed=packed, comma="," if len(names) == 1 else "")
    scope = {"_launch": _launch, "kernel": kernel}
    scope.update(("c{}".format(i), c) for i, c in enumerate(convs))
    exec(compile(src, "<kernel_family launcher>", "exec"), scope)  # noqa: S102 (generated from the declaration)
    return scope["launch"]


class KernelFamily:
    """The kernels of one template: `source` (a callable returning the text to compile, called
    once), their C signatures (`kernels`), the C++ namespace they live in ('' for none) and the
    module name NVRTC and the profiler show.

    A template with holes (a user's function, a footprint's macros) is a family whose `source`
    takes arguments: `get(..., variant=(args...))` compiles `source(*args)` (on a cache miss only;
    the variant is part of the key), and `example`, the arguments of one such source, is what
    `source()` with none builds (the drift test reads it)."""

    def __init__(self, name: str, source, kernels, *, namespace: str = "", example=()):
        self.name = name
        self._source_fn = source
        self._source = None
        self.example = example  # a tuple, or a callable returning one
        self.namespace = namespace
        self.signatures = tuple(kernels)
        self.decls = {}
        for sig in self.signatures:
            kname, tparams, params = parse_signature(sig)
            if kname in self.decls:
                raise ValueError("kernel {} declared twice in family {}".format(kname, name))
            self.decls[kname] = (tparams, tuple(Param(t, n) for t, n in params), _required(sig))
        _families.append(self)

    def source(self, *variant) -> str:
        """The text compiled for `variant` (none: the family's own source, or its example's)."""
        if variant:
            return self._source_fn(*variant)
        if self._source is None:
            ex = self.example() if callable(self.example) else self.example
            self._source = self._source_fn(*ex)
        return self._source

    def name_expression(self, spec: str) -> str:
        """The name expression NVRTC takes for `spec` (the namespace prefixed where it is not)."""
        if not self.namespace or spec.startswith(self.namespace + "::"):
            return spec
        return "{}::{}".format(self.namespace, spec)

    def _bind(self, spec: str) -> tuple:
        """(declared params, {template parameter: C type}) of a spec such as "edt_init<float>"."""
        if self.namespace and spec.startswith(self.namespace + "::"):
            spec = spec[len(self.namespace) + 2:]
        base, _, rest = spec.partition("<")
        base = base.strip()
        decl = self.decls.get(base)
        if decl is None:
            raise KeyError("family {} declares no kernel {!r}".format(self.name, base))
        tparams, params, required = decl
        targs = split_top(rest[:rest.rindex(">")]) if rest else []
        if not required <= len(targs) <= len(tparams):
            raise TypeError("{} takes {} template arguments, got {!r}".format(base, len(tparams), spec))
        return params, {normalize_type(p): normalize_type(a) for p, a in zip(tparams, targs)}

    def get(self, *specs, options=(), variant=()) -> tuple:
        """One `Kernel` per spec, compiled together in one module (cached for every family)."""
        key = (self, specs, options, variant, _device.get_device_id())
        ks = _cache.get(key)
        if ks is None:
            ks = self._build(key, specs, options, variant)
        return ks

    def _build(self, key, specs, options, variant) -> tuple:
        bound = [self._bind(s) for s in specs]  # an undeclared kernel fails before compiling
        names = tuple(self.name_expression(s) for s in specs)
        handles = load_kernels(self, names, options, variant)
        ks = tuple(Kernel(h, n, params, targs) for h, n, (params, targs) in zip(handles, names, bound))
        with _guard:
            _cache[key] = ks
        return ks

    def member(self, specs: tuple, spec: str, options=(), variant=()) -> Kernel:
        """`get(*specs)[specs.index(spec)]` without the others: the module is the same one (every
        spec compiled together, one cache key), but only `spec` is looked up in it and gets a
        launcher. For a module of many kernels used one at a time (cuarray.random's core module:
        a first draw built 31 launchers and looked up 31 kernels for one)."""
        key = (self, specs, options, variant, _device.get_device_id(), spec)
        k = _cache.get(key)
        if k is None:
            whole = _cache.get(key[:5])
            if whole is not None:
                k = whole[specs.index(spec)]
            else:
                params, targs = self._bind(spec)
                name = self.name_expression(spec)
                names = tuple(self.name_expression(s) for s in specs)
                (h,) = load_kernels(self, names, options, variant, pick=(name,))
                k = Kernel(h, name, params, targs)
            with _guard:
                _cache[key] = k
        return k

    def kernel(self, spec: str, options=(), variant=()) -> Kernel:
        """`get(spec)[0]`: one kernel in a module of its own."""
        return self.get(spec, options=options, variant=variant)[0]

    def packer(self, spec: str) -> Kernel:
        """A Kernel with no compiled code (kernel None): the declaration's packing, for tests."""
        params, targs = self._bind(spec)
        return Kernel(None, self.name_expression(spec), params, targs)

    def __repr__(self) -> str:
        return "<KernelFamily {} ({} kernels)>".format(self.name, len(self.decls))


class Skeleton:
    """The kernels the engine generates from its templates (`_core/templates/`: scan.cu,
    elementwise.cu, ...): each kind's C parameters declared once, as the template's ``extern "C"``
    function lists them (a hole's type by its name: ``in_t`` for ``${ns}::in_t``; ``${params}``
    where a definition declares its own operands, `KernelParam.declare`, and ``${strides}`` /
    ``${extents}`` for the strided layout's per-dimension values). tests/cuda/test_kernel_family_cpu.py
    checks each declaration against the template's text and against generated sources.

    It is the one launch path of those kernels. `bind(kind, kernel)` is a `Kernel` that packs a
    fixed parameter list by the declaration (the scans); `launch` is `launch.launch` and `enqueue`
    is `launch.enqueue` itself (kept equal to it: `launch.hold_enqueue`), for the elementwise
    kernels, whose operands `Definition._pack` orders from the same descriptors that write the
    source's parameter list: no wrapper, so a ufunc's prepared launch costs what it did."""

    __slots__ = ("name", "templates", "signatures", "params", "launch", "enqueue")

    def __init__(self, name: str, templates, kinds: dict):
        self.name = name
        self.templates = tuple(templates)
        self.signatures = dict(kinds)
        self.params = {}  # kind -> its Params, where the list is fixed (no hole of a definition's)
        for kind, sig in kinds.items():
            if "${" not in sig:
                self.params[kind] = tuple(Param(t, n) for t, n in parse_signature(kind + sig)[2])
        self.launch = _launch.launch
        _launch.hold_enqueue(self)

    def bind(self, kind: str, kernel, types=None) -> Kernel:
        """A `Kernel` over the generated `kernel` of `kind` (a fixed parameter list): its `launch`
        packs the arguments by the declaration; `types` names the holes' C types (alignments)."""
        return Kernel(kernel, "{}:{}".format(self.name, kind), self.params[kind], types or {})

    def __repr__(self) -> str:
        return "<Skeleton {} ({})>".format(self.name, ", ".join(self.signatures))


def _compiled_kernels(family: KernelFamily, names: tuple, options: tuple, variant: tuple = (), pick=None) -> tuple:
    """cuda.core Kernels for the name expressions `pick` (default: all of `names`) of `family` (its
    source for `variant`), all `names` compiled in one module (`compiler.compile_module`: the disk
    cache, NVRTC on a miss). A backend's `family_kernels` stands in for it
    (`_select`: the fake device's recorder gives placeholders named by the expressions)."""
    mod = _compiler.compile_module(family.source(*variant), name_expressions=names, options=options,
                                   name=family.name)
    return tuple(mod.get_function(n).kernel for n in (names if pick is None else pick))


load_kernels = _compiled_kernels  # (the selected backend's: `_select`)


def generated(key, build, *, options=(), user_source=None):
    """The cuda.core Kernel of a source the engine builds per operation (elementwise, reduction and
    scan kernels, ElementwiseKernel/ReductionKernel ones): `key` names everything the source is
    built from (the definition's key and the specialisation, its options included: callers tag
    it with their module, ``("elementwise", ...)``); `build()` returns (kernel name, source) and runs
    on a miss only (building a source costs more than this look-up). Kept in the families' one
    cache under (key, device); the compiler below keeps the module by the source's hash, options
    and arch, and on disk."""
    ck = ("generated", key, _device.get_device_id())
    kern = _cache.get(ck)
    if kern is None:
        kname, src = build()
        kern = load_generated(src, kname, options, user_source)
        with _guard:
            _cache[ck] = kern
    return kern


def load_generated(source: str, kname: str, options: tuple = (), user_source=None):
    """The kernel `kname` (an ``extern "C"`` function) of a generated `source`, compiled and loaded
    (`compiler.compile_module`: its memory and disk caches, NVRTC on a miss)."""
    mod = _compiler.compile_module(source, options=options, user_source=user_source, name=kname)
    return mod.get_function(kname).kernel


def clear() -> None:
    """Forget every family's compiled kernels (the next `get` compiles or reads the disk cache)."""
    with _guard:
        _cache.clear()


# (read at each call: the selected backend's table)
_caches.register("kernel families", count=lambda: len(_cache), clear=clear)


def _select(prev, new) -> None:
    """The backend seam (`backend.on_select`): the kernels loaded and their loader are `new`'s."""
    global _cache, load_kernels
    with _guard:
        _cache = new.table("kernel families")
    load_kernels = _compiled_kernels if new.family_kernels is None else new.family_kernels


_seam.on_select(_select)


_TEMPLATE_TAIL = re.compile(r"template\s*<(?P<t>[^{};]*)>\s*$")


def _balanced(text: str, i: int) -> int:
    """The index just past the parenthesis that closes the one at text[i]."""
    depth = 0
    while True:
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        i += 1
        if depth == 0:
            return i


def _skip_bounds(text: str, i: int) -> int:
    while True:
        while text[i].isspace():
            i += 1
        if not text.startswith("__launch_bounds__", i):
            return i
        i = _balanced(text, text.index("(", i))


def _strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def template_signatures(source: str) -> dict:
    """{kernel name: (template parameter names, ((C type, name), ...))} of every ``__global__``
    function in `source` (a template's text): what the drift test checks declarations against."""
    text = _strip_comments(source)
    out = {}
    for m in re.finditer(r"\b__global__\b", text):
        i = _skip_bounds(text, m.end())
        if not text.startswith("void", i):
            continue
        i = _skip_bounds(text, i + 4)
        nm = re.match(r"[A-Za-z_][A-Za-z_0-9]*", text[i:])
        if nm is None:
            continue
        name = nm.group(0)
        i = text.index("(", i)
        body = text[i + 1:_balanced(text, i) - 1]
        head = text[max(text.rfind(";", 0, m.start()), text.rfind("}", 0, m.start())) + 1:m.start()]
        head = re.sub(r'extern\s*"C"', "", head)
        t = _TEMPLATE_TAIL.search(head)
        tparams = tuple(p.split("=")[0].split()[-1] for p in split_top(t.group("t"))) if t else ()
        params = tuple(parse_param(p) for p in split_top(body) if p not in ("", "void"))
        out.setdefault(name, []).append((tparams, params))
    return out
