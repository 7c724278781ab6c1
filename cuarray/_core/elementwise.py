"""The elementwise engine: parameter descriptors, code generation, kernel cache, launch.

Everything elementwise (ufuncs, `ElementwiseKernel`, the copies of `copying.py`: between layouts,
`astype`, `fill`) runs through `Definition.run`. What happens per call:

1. Layout: if every array operand has the full shape and all are C-contiguous (or all
   F-contiguous), the kernel is flat ("flat", `_ITEMS` elements a thread), with 16-byte vector
   loads/stores when every pointer is aligned ("vec"). No kernel loops over the grid: the grid
   covers the data in one pass (`Definition.grid`). Otherwise strides are broadcast to the full shape, dimensions are
   collapsed (`shapes.collapse_dims`) and, if what is left is one contiguous run, it is flat again;
   else a strided kernel specialised on the collapsed ndim ("nd").
2. Index type: 32-bit when every offset fits (cheaper index arithmetic), else 64-bit.
3. One dictionary look-up by (definition key, layout, ndim, index type, vector width) gives a
   ready cuda.core Kernel; source generation and NVRTC happen once per key per process (and NVRTC
   once per machine: the compiler's disk cache).

Kernel arguments: pointers (Python ints), then scalars (numpy scalars of their C type), then for the
strided layout one byte stride per (array, dimension) and the dimension sizes, then `_n`.
`KernelParam.declare` writes the C declaration and `Definition._pack` the values, from the same
descriptor list, so they cannot drift apart; `ELEMENTWISE` declares the list around them (its
layouts' trailing parameters) and is the path every elementwise launch of the engine takes.
"""

from __future__ import annotations

import functools
import os
import pathlib
import re
import string

import numpy

from ..cuda import backend as _seam
from ..cuda import caches as _caches
from ..cuda import kernel_family as _kernel_family
from ..cuda import launch as _launch
from ..cuda import stream as _stream
from . import datetimes as _datetimes
from . import device_check as _device_check
from . import dtypes as _dtypes
from . import shapes as _shapes

__all__ = ["KernelParam", "Definition", "compute_ctype", "EXACT_ROUNDING", "cast_expr", "scalar_converter"]

_TEMPLATES = pathlib.Path(__file__).parent / "templates"
_skeletons: dict[str, string.Template] = {}
# Each layout's kernel parameters (`Definition.source` writes them from these): the definition's own
# (`${params}`: `KernelParam.declare`, in `_pack`'s order), the strided layout's byte strides (one
# per array and dimension) and extents, then the element count. Every elementwise launch of the
# engine (ufuncs' prepared paths, fused kernels, `Definition.run`) goes through it.
ELEMENTWISE = _kernel_family.Skeleton("elementwise", ("elementwise.cu", "elementwise_vec.cu",
                                                      "elementwise_serial.cu"), {
    "flat": "(${params}, const ${index_t} _n)",
    "vec": "(${params}, const ${index_t} _n)",
    "serial": "(${params}, const ${index_t} _n)",
    "nd": "(${params}, ${strides}, ${extents}, const ${index_t} _n)",
})

# 32-bit indexing while i + the grid stride cannot overflow: the grid covers the data in one
# pass (launch.grid_one_pass), so the stride is about n and i + stride < 2n must stay below 2^31.
_INT32_MAX = 2**30 - 1
_FLAT_CACHE_MAX = 4096  # prepared (n, aligned) launches kept per kernel before the cache is reset
# Compiler options of the ufuncs' kernels and of fused kernels: no FMA contraction. NVRTC's
# default lets NVVM and then ptxas turn `a * b` followed by `+ c` into one fma (one rounding
# instead of two); within one ufunc that only moves a last bit, but across the nodes of a fused
# kernel it would give other bits than the eager kernels, which store each node's rounded value.
# With it, eager and fused round every node alike, as NumPy does. The kernels are memory-bound:
# the separate multiply and add cost no time.
EXACT_ROUNDING = ("-fmad=false",)
_MULTI_DEVICE = _device_check.active  # [bool]: operands may live on another device
_BLOCK = 256
# Elements per thread of the flat and strided ("nd") kernels (the "vec" kernel moves 16 bytes a
# thread instead): the loads of a thread's elements are in flight together. Measured on an H200
# (bench ew-strided, x[::2]*2 of 1 GiB float32; torch 425 us): 1 item 443 us, 2 423 us, 4 371 us;
# contiguous and transposed cases unchanged. CUARRAY_EW_ITEMS overrides it, for measuring.
_DEFAULT_ITEMS = 4
_ITEMS = int(os.environ.get("CUARRAY_EW_ITEMS", _DEFAULT_ITEMS))


def _skeleton(name: str) -> string.Template:
    t = _skeletons.get(name)
    if t is None:
        text = (_TEMPLATES / name).read_text()
        # The file's leading comment documents the holes for readers of the template; generated
        # kernels start at the first line of code.
        lines = text.splitlines(keepends=True)
        while lines and lines[0].startswith("//"):
            lines.pop(0)
        t = _skeletons[name] = string.Template("".join(lines))
    return t


def compute_ctype(dtype: numpy.dtype) -> str:
    """The C type a value of `dtype` is computed in: float16 is computed in float, like NumPy."""
    if dtype.char == "e":
        return "float"
    return _dtypes.ctype(dtype)


def cast_expr(expr: str, src: numpy.dtype, dst: numpy.dtype, to_ctype: str) -> str:
    """C expression of `expr` (a value of dtype `src`) converted to dtype `dst` as the C type
    `to_ctype` (its compute or its stored type): `cuarray::cast`, or the datetime rules'
    conversion where they differ (units, NaT). Code generation only."""
    if src.kind in "Mm" or dst.kind in "Mm":
        special = _datetimes.cast_expr(expr, src, dst)
        if special is not None:
            return special
    return "cuarray::cast<{}>({})".format(to_ctype, expr)


def scalar_converter(dtype: numpy.dtype):
    """The converter of a NumPy scalar of `dtype` to what a kernel takes by value (float16: float32;
    datetime64/timedelta64: the int64 count, which cuda.core's launch requires), or None where the
    scalar is taken as it is. Callers keep it with their cached definition, so a call pays no test
    of its dtype."""
    if dtype.char == "e":
        return numpy.float32
    if dtype.kind in "Mm":
        return _datetimes.scalar_converter(dtype)
    return None


class KernelParam:
    """One kernel argument. `kind` is 'in', 'out' (written), 'scalar' (by value) or 'raw'.

    `dtype` is the stored dtype of an array argument, or the dtype of a scalar's value;
    `compute` the dtype the operation sees (a ufunc loop's type; float16 computes in float).
    `by_ref` outputs are references into memory (ElementwiseKernel semantics: the operation may
    read them); other outputs are write-only locals stored after the operation (ufunc semantics).
    `ctype`: the C type of a scalar or an array of structured dtype (a struct the source declares:
    `kernel_structs`; its elements are loaded and stored as that struct, no cast); None for the
    numeric types, whose C names `dtypes` knows. An engine kernel meeting a structured dtype without
    one (a ufunc's, a reduction's) is refused here, when its definition is built: TypeError.
    `runtime` (inputs only, `RUNTIME_TYPES`): the stored dtype is a kernel argument, not a
    compile-time type: the source declares a `void` pointer and an `int <name>_t` type code
    (`code`, passed right after the pointer) and loads through `cuarray::load_as`. The key leaves
    the stored dtype out, so one kernel serves every stored dtype (mixed-dtype ufunc
    calls); such a kernel has no vector layout.
    """

    __slots__ = ("name", "kind", "dtype", "compute", "by_ref", "ctype", "runtime", "code")

    def __init__(self, name, kind, dtype, compute=None, by_ref=False, ctype=None, runtime=False):
        if ctype is None and dtype.names is not None:
            _dtypes.normalize_dtype(dtype)  # raises: nothing computes on structs
        self.name = name
        self.kind = kind
        self.dtype = dtype
        self.compute = dtype if compute is None else compute
        self.by_ref = by_ref
        self.ctype = ctype
        self.runtime = runtime
        self.code = None
        if runtime:
            if kind != "in" or ctype is not None or dtype not in RUNTIME_TYPES or self.compute.kind in "Mm":
                raise ValueError("a runtime-typed operand is a numeric input: {} {}".format(kind, dtype))
            self.code = RUNTIME_TYPES[dtype]

    @property
    def is_array(self) -> bool:
        return self.kind != "scalar"

    def key(self):
        # dtype.str, not .char: datetime64 units share one character ('M8[s]', 'M8[ms]'); a
        # struct's str is only '|V<n>': its fields and offsets are in str(dtype).
        if self.ctype is not None:
            return (self.name, self.kind, str(self.dtype), str(self.compute), self.by_ref, self.ctype)
        if self.runtime:  # any stored dtype: one kernel
            return (self.name, self.kind, "*", self.compute.str, self.by_ref, self.ctype)
        return (self.name, self.kind, self.dtype.str, self.compute.str, self.by_ref, self.ctype)

    def _stored_ctype(self) -> str:
        return self.ctype if self.ctype is not None else _dtypes.ctype(self.dtype)

    # -- C declarations ------------------------------------------------------------------
    def declare(self) -> str:
        if self.kind == "scalar":
            return "const {} {}".format(self.ctype or compute_ctype(self.compute), self.name)
        if self.runtime:
            return "const void* __restrict__ {n}_ptr, const int {n}_t".format(n=self.name)
        st = self._stored_ctype()
        if self.kind == "in":
            return "const {}* __restrict__ {}_ptr".format(st, self.name)
        if self.kind == "raw":
            return "{}* {}".format(st, self.name)
        return "{}* __restrict__ {}_ptr".format(st, self.name)

    def _elem(self, layout: str) -> str:
        st = self._stored_ctype()
        if layout == "nd":
            if self.kind == "in":
                return "*(const {st}*)((const char*){n}_ptr + _off_{n})".format(st=st, n=self.name)
            return "*({st}*)((char*){n}_ptr + _off_{n})".format(st=st, n=self.name)
        return "{}_ptr[i]".format(self.name)

    def load(self, layout: str) -> str:
        """C statement(s) making the local variable the operation uses."""
        if self.kind == "in":
            if self.ctype is not None:  # a struct, as it is
                return "const {} {} = {};".format(self.ctype, self.name, self._elem(layout))
            ct = compute_ctype(self.compute)
            if self.runtime:
                if layout == "nd":
                    at = "(const char*){n}_ptr + _off_{n}, 0".format(n=self.name)
                else:
                    at = "{}_ptr, i".format(self.name)
                return "const {ct} {n} = cuarray::load_as<{ct}>({at}, {n}_t);".format(ct=ct, n=self.name, at=at)
            value = cast_expr(self._elem(layout), self.dtype, self.compute, ct)
            return "const {} {} = {};".format(ct, self.name, value)
        if self.kind == "out":
            if self.by_ref:
                return "{}& {} = {};".format(self._stored_ctype(), self.name, self._elem(layout))
            return "{} {};".format(self.ctype or compute_ctype(self.compute), self.name)
        return ""

    def store(self, layout: str) -> str:
        if self.kind == "out" and not self.by_ref:
            if self.ctype is not None:
                return "{} = {};".format(self._elem(layout), self.name)
            return "{} = {};".format(self._elem(layout), self.stored_value(_dtypes.ctype(self.dtype)))
        return ""

    def stored_value(self, to_ctype: str) -> str:
        """The C expression an output's computed value is stored as (every layout's store)."""
        name = self.name
        if self.compute.char == "e" and self.dtype.char != "e":
            # A float16 loop computes in float and its result is a half: rounded to half first,
            # then cast to the wider output (NumPy's 'e->e' loop, then the cast to out=).
            name = "cuarray::cast<__half>({})".format(name)
        return cast_expr(name, self.compute, self.dtype, to_ctype)


# Stored dtypes a runtime-typed operand may have -> type code (cuarray/load_as.cuh's cases: the
# index in SUPPORTED_DTYPES). Not float16: cuda_fp16.h in every shared kernel cost ~10 ms of
# NVRTC each (a float16 input keeps the specialised kernel); not datetimes: their conversions
# depend on units.
RUNTIME_TYPES = {dt: numpy.int32(k) for k, dt in enumerate(_dtypes.SUPPORTED_DTYPES) if dt.char != "e"}

_NOT_IDENTIFIER = re.compile(r"[^A-Za-z0-9_]")


def kernel_identifier(name: str) -> str:
    """`name` as a C identifier: dtype names in kernel names may hold a unit in brackets
    ('datetime64[ns]' -> 'datetime64_ns', as `dtypes.short_name` spells it)."""
    if _NOT_IDENTIFIER.search(name) is None:
        return name
    return _NOT_IDENTIFIER.sub("_", name.replace("]", ""))


def _is_word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def uses_index(code: str) -> bool:
    """Whether `code` names the loop index `i` or `_ind` as a whole word (what the regex
    ``\\b(i|_ind)\\b`` finds), with string searches: compiling that regex was ~80 us of the first
    kernel definition of every process (the first ElementwiseKernel call)."""
    for word in ("i", "_ind"):
        n = len(word)
        at = code.find(word)
        while at >= 0:
            end = at + n
            if (at == 0 or not _is_word(code[at - 1])) and (end == len(code) or not _is_word(code[end])):
                return True
            at = code.find(word, at + 1)
    return False


def _index_ctype(index_t) -> str:
    return "int" if index_t is numpy.int32 else "long long"


# Every live Definition's and FlatLaunch's own tables, reached through the cache registry
# (`cuda/caches.py`: `clear_caches`, the fake device) with no scan of the heap.
_live_definitions = _caches.instances("elementwise kernels and strided plans", lambda d: (d._kernels, d._strided))
_live_flat_launches = _caches.instances("elementwise flat launches", lambda f: (f.cfgs,))


class Definition:
    """An elementwise operation over a fixed list of KernelParams; caches its kernels.

    `name` becomes the kernel's name prefix (readable in profilers); `key` identifies the C code
    (two Definitions with the same key share kernels).
    """

    __slots__ = ("name", "params", "operation", "preamble", "loop_prep", "after_loop", "key",
                 "options", "_kernels", "_arrays", "_nin_arrays", "user_source", "_vec", "_c_index",
                 "_out_first", "_flat", "_strided", "half", "runtime", "__weakref__")

    def __init__(self, name, params, operation, preamble="", loop_prep="", after_loop="",
                 options=(), user_source=None, half=False):
        self.name = kernel_identifier(name)
        # `half`: the code uses __half although no param is float16 (a fused kernel's interior
        # node), so cuda_fp16.h must be included all the same.
        self.half = half
        self.params = tuple(params)
        self.operation = operation
        self.preamble = preamble
        self.loop_prep = loop_prep
        self.after_loop = after_loop
        self.options = tuple(options)
        self.user_source = user_source
        self.key = (name, tuple(p.key() for p in self.params), operation, preamble, loop_prep,
                    after_loop, self.options)
        self._kernels = {}
        self._strided = {}
        self._arrays = tuple(p for p in self.params if p.kind in ("in", "out"))
        self._nin_arrays = sum(1 for p in self.params if p.kind == "in")
        # Vector width: 16 bytes of the widest array operand; no vectors when the operation can
        # see `i`-dependent state we cannot split (raw params, by-reference outputs).
        widest = max((p.dtype.itemsize for p in self._arrays), default=16)
        vec = 16 // widest
        # A masked kernel (`where=`, a `_w` param) must not write masked lanes: no vector stores.
        if any(p.kind == "raw" or p.by_ref or p.name == "_w" for p in self.params) or after_loop or loop_prep:
            vec = 1
        if any(p.ctype is not None for p in self._arrays):
            vec = 1  # struct elements (any size, any address) are loaded one at a time
        self.runtime = any(p.runtime for p in self.params)
        if self.runtime:
            vec = 1  # a runtime-typed operand's width is not known when compiling
        self._vec = vec
        # When the operation can see the loop index (`i`, `_ind`, raw pointers), `i` must be the
        # C-order index of the output, so axes keep their order when dimensions are collapsed.
        # Otherwise (every ufunc) axes are reordered to follow memory, for coalescing.
        code = " ".join((operation, loop_prep, after_loop))
        self._c_index = uses_index(code) or any(p.kind == "raw" for p in self.params)
        # collapse_dims orders axes by its first operand: give it the outputs first.
        n = len(self._arrays)
        outs = [k for k, p in enumerate(self._arrays) if p.kind == "out"]
        self._out_first = tuple(outs + [k for k in range(n) if k not in outs])
        self._flat = FlatLaunch(self, [p.dtype.itemsize for p in self._arrays])
        _live_definitions.add(self)

    # -- code generation -------------------------------------------------------------------
    def source(self, layout: str, ndim: int, index_t) -> tuple[str, str]:
        """(kernel name, CUDA source) for one specialisation. Pure: needs no device."""
        it = _index_ctype(index_t)
        arrays = self._arrays
        decls = string.Template(ELEMENTWISE.signatures[layout][1:-1]).substitute(
            params=", ".join(p.declare() for p in self.params), index_t=it,
            strides=", ".join("const {} _s{}_{}".format(it, p.name, d) for p in arrays for d in range(ndim)),
            extents=", ".join("const {} _d{}".format(it, d) for d in range(ndim)))
        suffix = {"flat": "", "vec": "__vec{}".format(self._vec), "nd": "__nd{}".format(ndim),
                  "serial": "__serial"}[layout]
        if layout in ("flat", "nd") and _ITEMS != _DEFAULT_ITEMS:
            suffix += "__k{}".format(_ITEMS)
        kname = self.name + suffix
        if index_t is numpy.int64:
            kname += "__i64"
        indexer = ""
        if layout == "nd":
            lines = ["{} _r = i;".format(it)]
            for d in range(ndim - 1, 0, -1):
                lines.append("const {t} _c{d} = _r % _d{d}; _r /= _d{d};".format(t=it, d=d))
            lines.append("const {} _c0 = _r;".format(it))
            for p in arrays:
                terms = " + ".join("_c{d} * _s{n}_{d}".format(d=d, n=p.name) for d in range(ndim))
                lines.append("const {} _off_{} = {};".format(it, p.name, terms))
            indexer = "\n    ".join(lines)
        flat_or_nd = "nd" if layout == "nd" else "flat"
        load = "\n    ".join(s for s in (p.load(flat_or_nd) for p in self.params) if s)
        store = "\n    ".join(s for s in (p.store(flat_or_nd) for p in self.params) if s)
        includes = []
        # (a runtime-typed operand's stored dtype is never float16: RUNTIME_TYPES)
        if self.half or any(
                (p.dtype.char == "e" and not p.runtime) or p.compute.char == "e" for p in self.params):
            includes += ["#define CUARRAY_HAS_HALF 1", "#include <cuda_fp16.h>"]
        includes += ['#include "cuarray/common.cuh"', '#include "cuarray/ops.cuh"']
        if self.runtime:
            includes.append('#include "cuarray/load_as.cuh"')
        if any((p.dtype.kind in "Mm" and not p.runtime) or p.compute.kind in "Mm" for p in self.params):
            includes.append(_datetimes.HEADER)
        fields = dict(
            includes="\n".join(includes), preamble=self.preamble, name=kname, params=decls,
            loop_prep=self.loop_prep, index_t=it, indexer=indexer, load=load,
            operation=self.operation, store=store, after_loop=self.after_loop, items=_ITEMS,
            unroll="#pragma unroll 1" if self.runtime else "#pragma unroll",
        )
        if layout == "vec":
            v = self._vec
            vload, vdecl, lane_load, lane_store, vstore = [], [], [], [], []
            for p in arrays:
                st = _dtypes.ctype(p.dtype)
                ct = compute_ctype(p.compute)
                vt = "cuarray::vec<{}, {}>".format(st, v)
                if p.kind == "in":
                    vload.append("const {vt} _v{n} = reinterpret_cast<const {vt}*>({n}_ptr)[_v];".format(vt=vt, n=p.name))
                    lane_load.append("const {ct} {n} = {e};".format(
                        ct=ct, n=p.name, e=cast_expr("_v{}.v[_k]".format(p.name), p.dtype, p.compute, ct)))
                else:
                    vdecl.append("{} _v{};".format(vt, p.name))
                    lane_load.append("{} {};".format(ct, p.name))
                    lane_store.append("_v{}.v[_k] = {};".format(p.name, p.stored_value(st)))
                    vstore.append("reinterpret_cast<{vt}*>({n}_ptr)[_v] = _v{n};".format(vt=vt, n=p.name))
            fields.update(vec=v, vload="\n    ".join(vload), vdecl="\n    ".join(vdecl),
                          lane_load="\n      ".join(lane_load), lane_store="\n      ".join(lane_store),
                          vstore="\n    ".join(vstore))
            src = _skeleton("elementwise_vec.cu").substitute(fields)
        elif layout == "serial":
            src = _skeleton("elementwise_serial.cu").substitute(fields)
        else:
            src = _skeleton("elementwise.cu").substitute(fields)
        return kname, src

    def _kernel(self, layout: str, ndim: int, index_t):
        k = (layout, ndim, index_t)
        kern = self._kernels.get(k)
        if kern is None:
            kern = self._kernels[k] = _kernel_family.generated(
                ("elementwise", self.key, k), functools.partial(self.source, layout, ndim, index_t),
                options=self.options, user_source=self.user_source)
        return kern

    def grid(self, layout: str, n: int) -> int:
        """Blocks of `_BLOCK` threads covering `n` elements in one pass (no loop in the kernels)."""
        if layout == "vec":
            v = self._vec
            return _launch.grid_one_pass(n // v + n % v, _BLOCK)
        return _launch.grid_one_pass(-(-n // _ITEMS), _BLOCK)

    # -- launch ----------------------------------------------------------------------------
    def run(self, arrays, scalars, shape, raw=(), size=None, serial=False):
        """Launch over `shape`. `arrays`: ndarrays for the 'in'/'out' params in param order
        (each broadcastable to `shape`); `scalars`: C-typed values for 'scalar' params in order;
        `raw`: ndarrays for 'raw' params in order (passed as plain pointers). `serial`: one thread
        walks every element in order (for updates that must happen one after another, e.g.
        `ufunc.at` on 16-byte elements, which have no atomic compare-and-swap); flat layouts only."""
        if _MULTI_DEVICE[0]:
            _device_check.check(arrays)
            _device_check.check(raw)
        n = _prod(shape) if size is None else size
        if n == 0:
            return
        # Flat when every operand is the full shape and all share C (or all F) contiguity.
        flat = True
        allc = allf = True
        for a in arrays:
            if a._shape != shape:
                flat = False
                break
            allc = allc and a._c
            allf = allf and a._f
        if flat and not (allc or (allf and not self._c_index)):
            flat = False
        if flat:
            ptrs = [a.data.ptr for a in arrays]
            if serial:
                index_t = index_type(n)
                ELEMENTWISE.launch(self._kernel("serial", 1, index_t), 1, 1,
                                   self._pack(ptrs, scalars, raw) + (index_t(n),))
                return
            kern, cfg, n_c = self._flat.prepare(n, ptrs)
            ELEMENTWISE.enqueue(_stream.current_core_stream(), cfg, kern, *self._pack(ptrs, scalars, raw), n_c)
            return
        if serial:
            raise ValueError("serial launches need a flat layout")
        self._run_strided(arrays, scalars, shape, raw, n)

    def _run_strided(self, arrays, scalars, shape, raw, n):
        # HOT PATH for broadcasts and views: the layout (collapsed dims, index type, kernel, grid,
        # stride and extent arguments) depends only on the shapes, strides and dtypes, so a
        # combination seen before skips its derivation (~6 us of Python a call).
        key = (shape, tuple((a._shape, a._strides, a._dtype) for a in arrays))
        plan = self._strided.get(key)
        if plan is None:
            if len(self._strided) > 1024:
                self._strided.clear()
            plan = self._strided[key] = self._strided_plan(arrays, shape, n)
        ptrs = [a.data.ptr for a in arrays]
        kern, grid, extra = plan
        if kern is None:
            # Collapsed to one contiguous run (e.g. `a.T * 2` into a 'K'-ordered output): the
            # vector kernel when every address allows it.
            v = self._vec
            layout = "flat"
            if v > 1 and n >= v and all(p % (a._dtype.itemsize * v) == 0 for a, p in zip(arrays, ptrs)):
                layout = "vec"
            kern, grid = self._kernel(layout, 1, type(extra[0])), self.grid(layout, n)
        ELEMENTWISE.launch(kern, grid, _BLOCK, self._pack(ptrs, scalars, raw) + extra)

    def _strided_plan(self, arrays, shape, n) -> tuple:
        """(kernel, grid, trailing arguments) of a launch over `shape`; kernel and grid are None
        when the operands collapse to one contiguous run (their alignment picks the kernel)."""
        strides_list = []
        for a in arrays:
            st = a._strides
            if a._shape != shape:
                st = _shapes.broadcast_to_strides(a._shape, st, shape)
            strides_list.append(st)
        order = self._out_first
        if self._c_index:
            cshape, cstrides = _shapes.collapse_dims_c_order(shape, tuple(strides_list[k] for k in order))
        else:
            cshape, cstrides = _shapes.collapse_dims(shape, tuple(strides_list[k] for k in order))
        back = [0] * len(order)
        for pos, k in enumerate(order):
            back[k] = cstrides[pos]
        cstrides = back
        ndim = len(cshape)
        if ndim == 0 or (ndim == 1 and all(s[0] == a._dtype.itemsize for s, a in zip(cstrides, arrays))):
            index_t = index_type(n)
            return None, None, (index_t(n),)
        # 32-bit offsets when every operand's byte extent and the element count fit.
        big = n > _INT32_MAX
        if not big:
            for st in cstrides:
                ext = 0
                for d, s in zip(cshape, st):
                    ext += (d - 1) * abs(s)
                if ext > _INT32_MAX:
                    big = True
                    break
        index_t = numpy.int64 if big else numpy.int32
        extra = []
        for st in cstrides:
            extra.extend(index_t(s) for s in st)
        extra.extend(index_t(d) for d in cshape)
        extra.append(index_t(n))
        return self._kernel("nd", ndim, index_t), self.grid("nd", n), tuple(extra)

    def _pack(self, ptrs, scalars, raw) -> tuple:
        """Values in C parameter order (the order of `self.params`)."""
        out = []
        ia = isc = ir = 0
        for p in self.params:
            k = p.kind
            if k == "scalar":
                out.append(scalars[isc])
                isc += 1
            elif k == "raw":
                out.append(raw[ir].data.ptr)
                ir += 1
            else:
                out.append(ptrs[ia])
                ia += 1
                if p.runtime:
                    out.append(p.code)
        return tuple(out)



def index_type(n: int):
    """The index type of a kernel over `n` elements: int32 up to `_INT32_MAX`, else int64."""
    return numpy.int32 if n <= _INT32_MAX else numpy.int64


class FlatLaunch:
    """The launch policy of a kernel over `n` elements of contiguous operands, the one every
    contiguous elementwise launch follows: the ufuncs' prepared path, fused kernels, `arange`,
    and `Definition.run`'s flat case.

    - Vectorisation: the "vec" layout (16 bytes a thread) when `n` is at least the vector width
      and every operand's address is a multiple of its itemsize times the width, else "flat".
    - Index width: int32 up to `_INT32_MAX` (`index_type`).
    - Grid: one pass of `_BLOCK`-thread blocks (`Definition.grid`).

    `prepare` caches (kernel, launch config, n in the index type) under `n` when aligned and
    `-n - 1` when not, so a hot caller with one mask for every operand (`mask`, not None) tests
    the OR of its addresses and looks the cache up inline, with no call:
    ``cfgs.get(n if n >= vec and not orp & mask else -n - 1)``, and calls `prepare` on a miss
    (building np.int32(n) and a config each call would cost ~0.7 us).
    """

    __slots__ = ("_defn", "vec", "masks", "mask", "cfgs", "__weakref__")

    def __init__(self, defn: Definition, itemsizes):
        v = self.vec = defn._vec
        self._defn = defn
        self.masks = tuple(s * v - 1 for s in itemsizes)  # per operand, in `prepare`'s pointer order
        # One mask for every operand (one itemsize, the common case): the addresses' OR is tested
        # once instead of a loop over them (~0.3 us of host time a call).
        self.mask = self.masks[0] if v > 1 and len(set(self.masks)) == 1 else None
        self.cfgs = {}
        _live_flat_launches.add(self)

    def aligned(self, n: int, ptrs) -> bool:
        """Whether the vector layout serves `n` elements at these addresses."""
        if self.vec <= 1 or n < self.vec:
            return False
        for p, m in zip(ptrs, self.masks):
            if p & m:
                return False
        return True

    def prepare(self, n: int, ptrs) -> tuple:
        """(kernel, launch config, n as the index type) for `n` > 0 elements at `ptrs`."""
        aligned = self.aligned(n, ptrs)
        key = n if aligned else -n - 1
        hit = self.cfgs.get(key)
        if hit is None:
            if len(self.cfgs) > _FLAT_CACHE_MAX:
                self.cfgs.clear()
            layout = "vec" if aligned else "flat"
            d, index_t = self._defn, index_type(n)
            hit = self.cfgs[key] = (d._kernel(layout, 1, index_t),
                                    _launch.launch_config(d.grid(layout, n), _BLOCK, 0), index_t(n))
        return hit

    def bind(self, n: int, scalars):
        """The engine's prepared launch for a caller that memoises its plans (arange): the vector
        layout over `n` elements with `scalars` fixed, as ``go(ptr0, ...)`` enqueueing it on the
        current stream with no set-up per call. Valid for addresses with ``ptr_i & masks[i] == 0``
        (the caller tests them; pool blocks always pass). None where it does not apply: `n` past
        int32 or shorter than a vector, or a definition whose scalars do not all come before its
        arrays (or that has raw or runtime-typed operands)."""
        d = self._defn
        kinds = [p.kind for p in d.params]
        ns = kinds.count("scalar")
        zeros = (0,) * len(self.masks)
        if (n > _INT32_MAX or not self.aligned(n, zeros) or "raw" in kinds or "scalar" in kinds[ns:]
                or any(p.runtime for p in d.params) or len(scalars) != ns):
            return None
        kern, cfg, n_c = self.prepare(n, zeros)
        head, cs = tuple(scalars), _stream.current_core_stream
        if len(zeros) == 1:
            def go(p):
                ELEMENTWISE.enqueue(cs(), cfg, kern, *head, p, n_c)
        else:
            def go(*ptrs):
                ELEMENTWISE.enqueue(cs(), cfg, kern, *head, *ptrs, n_c)
        return go


def _prod(shape) -> int:
    n = 1
    for s in shape:
        n *= s
    return n


_compiled_kernel = Definition._kernel


def _select(prev, new) -> None:
    """The backend seam (`cuda.backend.on_select`): a Definition's kernels are `new`'s
    `engine_kernel`'s where it has one (the fake device's placeholders, which no Definition keeps),
    else compiled from its source. Bound into the class here, once, so a launch pays nothing for it."""
    Definition._kernel = _compiled_kernel if new.engine_kernel is None else new.engine_kernel


_seam.on_select(_select)
