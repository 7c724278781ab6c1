"""The reduction engine: axis planning, strategy choice, code generation, launch.

A reduction maps each input element to an accumulator value (`map_expr`), combines accumulators
(`reduce_expr` over `a` and `b`), and writes each output from its accumulator (`post_map`).
`ReductionDef.run` does, per call:

1. Plan (`plan`, pure Python): the input's axes split into kept and reduced ones; each group is
   collapsed (`shapes.collapse_dims`) where memory allows, giving `n_out` outputs that each reduce
   `n_red` elements through a few (out dims, strides) and (red dims, strides).
2. Strategy, by where the input's smallest stride lies (see `_choose` for the thresholds):
   - the reduced axes are the fast ones (`x.sum(axis=-1)`, full reductions): a warp (rows under
     4096 elements) or a 256-thread block per output, 16-byte vector loads when aligned;
   - a kept axis is the fast one (`x.sum(axis=0)`): a thread per output walks the reduced elements,
     neighbouring threads reading neighbouring addresses (coalesced);
   - when that leaves the GPU under-filled (few outputs: full reductions, `sum(axis=0)` of a wide
     matrix...), the reduced index is cut into chunks over blockIdx.y; partials go to a temporary
     buffer and a second launch of the same skeleton combines them in a fixed order. No atomics:
     results are bit-identical run to run on one device.
3. One dictionary look-up by (definition, stage) gives the compiled kernel (NVRTC once per key).

Kernel arguments, in the order `ReductionDef._declare` writes them and `_pack` fills them: input
pointers and scalars in parameter order, the output pointer, partial in/out pointers, byte strides
of each array over the out dims then the out dim sizes, the same over the red dims, then
`_n_out, _n_red, _chunk` and the partial strides `_pso, _psj, _pdo, _pdc` (in accumulators).
"""

from __future__ import annotations

import math

import numpy

from ..cuda import compiler as _compiler
from ..cuda import device as _device
from ..cuda import launch as _launch
from . import dtypes as _dtypes
from . import shapes as _shapes
from .elementwise import _INT32_MAX, _skeleton, compute_ctype
from .ndarray import ndarray

__all__ = ["ReductionDef", "Plan", "plan", "Stage"]

BLOCK = 256
# Blocks of 256 threads per SM the grid aims for when outputs alone do not fill the GPU (the
# reduced index is then split over blockIdx.y). Two waves of 8 resident blocks: measured on an
# H200 (1 GiB float32; 16384^2 sum(axis=0)), 16 gave sum 1.03 / max 1.03 / axis 0 0.93 x copy
# rate against 0.99 / 0.97 / 0.82 with 8 (one wave: the last blocks leave SMs idle); 32: 0.90.
_BLOCKS_PER_SM = 16
# A warp per output below this many reduced elements, a block above: a 4096-element row is 16
# elements per thread of a block, too few to amortise the block's shared-memory combine, and 128
# per lane of a warp (8 unrolled 16-byte loads each). Reasoned, not yet swept on a device.
_BLOCK_ROW = 4096
# Outputs of fewer elements than this get a thread each even when their elements are adjacent:
# a warp would leave most lanes idle.
_WARP_ROW = 16
# Each accumulator of a thread takes at most this many elements before the work is split into
# chunks (a second pass): bounds the float rounding chain (error ~ chain * eps) well below
# NumPy's pairwise summation on realistic data, for a partial buffer of negligible size.
_MAX_CHAIN = 2048
_MAX_SPLIT = 65535  # grid.y limit
# Independent accumulators (loads in flight) per thread: a thread walking a column issues 8
# coalesced 4-byte loads at once (H200, 16384^2 sum(axis=0): 4 -> 0.80, 8 -> 0.82, 16 -> 0.89 x
# copy rate with one wave, but 16 lost with two waves: 0.84); a row group issues 8 16-byte loads
# per lane (1 GiB argmax 0.93 -> 1.00, sum 0.99 -> 1.03 going from 4 to 8).
_UNROLL_COLS = 8
_UNROLL_ROWS = 8
_MAX_GRID_X = 2**20


class Stage(tuple):
    """What a compiled kernel is specialised on: (src, dst, group, unroll, vec, out_ndim, red_ndim, index_t)
    src: 'map' (inputs through map_expr) or 'part' (partials); dst: 'out' (post_map) or 'part'."""

    __slots__ = ()

    def __new__(cls, src, dst, group, unroll, vec, out_ndim, red_ndim, index_t):
        return tuple.__new__(cls, (src, dst, group, unroll, vec, out_ndim, red_ndim, index_t))


class Plan:
    """How one reduction runs (pure data; see `plan`)."""

    __slots__ = ("n_out", "n_red", "out_dims", "out_strides", "red_dims", "red_strides", "group",
                 "unroll", "vec", "split", "chunk", "grid_x", "index_t", "group2", "grid2", "unroll2")

    def __repr__(self):
        return "Plan(" + ", ".join("{}={!r}".format(k, getattr(self, k)) for k in self.__slots__) + ")"

    @property
    def strategy(self) -> str:
        """A name for tests and docs: 'full', 'rows' (warp/block per output), 'cols' (thread per output)."""
        if self.n_out == 1 and self.group > 1:
            return "full"
        return "cols" if self.group == 1 else "rows"


def _collapse_ordered(shape, strides_list):
    """Collapse neighbouring axes in their given (logical C) order only; drop length-1 axes."""
    dims, out = [], [[] for _ in strides_list]
    for i, d in enumerate(shape):
        if d == 1:
            continue
        if dims and all(o[-1] == s[i] * d for o, s in zip(out, strides_list)):
            dims[-1] *= d
            for o, s in zip(out, strides_list):
                o[-1] = s[i]
        else:
            dims.append(d)
            for o, s in zip(out, strides_list):
                o.append(s[i])
    return tuple(dims), tuple(map(tuple, out))


def plan(shape, in_strides, in_itemsizes, y_strides, raxes, *, aligned=None, keep_order=False,
         sm_count=132, allow_vec=True) -> Plan:
    """Plan the reduction of arrays of `shape` (strides `in_strides`, one tuple per input, already
    broadcast to `shape`) over the axes `raxes` into an output with byte strides `y_strides` over
    the kept axes. `aligned[k]`: input k's pointer is 16-byte aligned. `keep_order`: the reduced
    index `_j` must be the C-order flat index over the reduced axes (arg reductions)."""
    nd = len(shape)
    rset = set(raxes)
    kaxes = [i for i in range(nd) if i not in rset]
    raxes = sorted(rset)
    kshape = tuple(shape[i] for i in kaxes)
    rshape = tuple(shape[i] for i in raxes)
    p = Plan()
    p.n_out = math.prod(kshape)
    p.n_red = math.prod(rshape)
    n_in = len(in_strides)
    if p.n_out == 0:
        p.out_dims, p.out_strides = (0,), ((0,),) * (n_in + 1)
    else:
        ks = (tuple(y_strides),) + tuple(tuple(s[i] for i in kaxes) for s in in_strides)
        p.out_dims, p.out_strides = _shapes.collapse_dims(kshape, ks)
    rs = tuple(tuple(s[i] for i in raxes) for s in in_strides)
    if p.n_red == 0:
        p.red_dims, p.red_strides = (), ((),) * n_in
    elif keep_order:
        p.red_dims, p.red_strides = _collapse_ordered(rshape, rs)
    else:
        p.red_dims, p.red_strides = _shapes.collapse_dims(rshape, rs)
    _choose(p, in_itemsizes, aligned, sm_count, allow_vec)
    return p


def _choose(p: Plan, itemsizes, aligned, sm_count, allow_vec) -> None:
    n_out, n_red = p.n_out, p.n_red
    main = 0
    s_red = abs(p.red_strides[main][-1]) if p.red_dims else 0
    s_out = min((abs(s) for s, d in zip(p.out_strides[1 + main], p.out_dims) if d > 1), default=None)
    if n_red <= 1 or n_out == 0:
        group = 1
    elif s_out is not None and s_out < s_red and s_out <= 16:
        group = 1  # a kept axis is the fast one: thread per output, coalesced over outputs
    elif n_red < _WARP_ROW and n_out > 1:
        group = 1
    elif n_red >= _BLOCK_ROW or n_out == 1:
        group = BLOCK
    else:
        group = 32
    vec = 1
    if allow_vec and group > 1 and len(p.red_dims) == 1:
        sizes = {isz for isz, s in zip(itemsizes, p.red_strides) if s[0] != 0}
        ok = len(sizes) == 1 and all(s[0] in (0, isz) for isz, s in zip(itemsizes, p.red_strides))
        if ok:
            isz = sizes.pop()
            v = 16 // isz
            if v > 1 and n_red >= v * group:
                for k, (isz_k, s) in enumerate(zip(itemsizes, p.red_strides)):
                    if s[0] == 0:
                        continue
                    if aligned is None or not aligned[k] or any(st % 16 for st in p.out_strides[1 + k]):
                        break
                else:
                    vec = v
    unroll = _UNROLL_COLS if group == 1 else _UNROLL_ROWS
    p.group, p.vec, p.unroll = group, vec, unroll
    gpb = BLOCK // group
    blocks_x = -(-n_out // gpb) if n_out else 0
    target = sm_count * _BLOCKS_PER_SM
    split = 1
    if n_red > 0 and blocks_x:
        step = group * unroll * vec  # elements one unrolled iteration of a group covers
        if blocks_x < target:
            split = -(-target // blocks_x)
        split = max(split, -(-n_red // (group * unroll * _MAX_CHAIN)))
        split = min(split, -(-n_red // (2 * step)), _MAX_SPLIT)
        split = max(split, 1)
    if split > 1:
        step = group * unroll * vec
        chunk = -(-n_red // split)
        chunk = -(-chunk // step) * step
        split = -(-n_red // chunk)
    else:
        chunk = n_red
    p.split, p.chunk = split, chunk
    p.grid_x = max(1, min(blocks_x, _MAX_GRID_X))
    # Second pass over the partials: [chunk][out] for thread-per-output (coalesced over outputs),
    # [out][chunk] otherwise.
    if split > 1:
        if group == 1:
            p.group2 = 1
        elif n_out == 1 or split >= _BLOCK_ROW:
            p.group2 = BLOCK
        else:
            p.group2 = 32 if split >= _WARP_ROW else 1
        p.unroll2 = _UNROLL_COLS if p.group2 == 1 else _UNROLL_ROWS
        p.grid2 = max(1, min(-(-n_out // (BLOCK // p.group2)), _MAX_GRID_X))
    else:
        p.group2 = p.grid2 = p.unroll2 = 0
    # 32-bit indices when every byte offset and index product fits.
    big = n_out * max(n_red, split) > _INT32_MAX
    if not big:
        for k in range(len(p.red_strides)):
            ext = sum((d - 1) * abs(s) for d, s in zip(p.out_dims, p.out_strides[1 + k]))
            ext += sum((d - 1) * abs(s) for d, s in zip(p.red_dims, p.red_strides[k]))
            if ext + 16 * BLOCK * unroll > _INT32_MAX:
                big = True
                break
        ext = sum((d - 1) * abs(s) for d, s in zip(p.out_dims, p.out_strides[0]))
        big = big or ext > _INT32_MAX
    p.index_t = numpy.int64 if big else numpy.int32


# --------------------------------------------------------------------------------------------


class ReductionDef:
    """A reduction over fixed parameters; caches its kernels.

    `params`: KernelParams of kind 'in' (arrays, broadcast to the input shape) and 'scalar';
    `out`: the KernelParam (kind 'out') of the result `y`; `acc_ctype`/`acc_size`: the C type of the
    accumulator and an upper bound of its size in bytes; `identity`: a C expression of that type.
    """

    __slots__ = ("name", "params", "out", "acc_ctype", "acc_size", "map_expr", "reduce_expr",
                 "identity", "post_map", "preamble", "options", "user_source", "key", "_kernels",
                 "_arrays", "step")

    def __init__(self, name, params, out, acc_ctype, acc_size, map_expr, reduce_expr, identity, post_map,
                 preamble="", options=(), user_source=None, step=None):
        self.name = name
        self.params = tuple(params)
        self.out = out
        self.acc_ctype = acc_ctype
        self.acc_size = acc_size
        self.map_expr = map_expr
        self.reduce_expr = reduce_expr
        self.identity = identity
        self.post_map = post_map
        self.preamble = preamble
        self.options = tuple(options)
        self.user_source = user_source
        # `step`: optional C statement folding one element into `ACC` in a thread's own (in
        # index order) loop, when cheaper than `ACC = reduce(ACC, map)`; `{acc}` marks ACC.
        self.step = step
        self._arrays = tuple(p for p in self.params if p.kind == "in")
        self.key = (name, tuple(p.key() for p in self.params), out.key(), acc_ctype, map_expr, reduce_expr,
                    identity, post_map, preamble, self.options, step)
        self._kernels = {}

    # -- code generation -------------------------------------------------------------------
    def _declare(self, st: Stage) -> list:
        it = "int" if st[7] is numpy.int32 else "long long"
        decls = [p.declare() for p in self.params] + [self.out.declare()]
        decls += ["const _acc_t* __restrict__ _part_in", "_acc_t* __restrict__ _part_out"]
        names = [p.name for p in self._arrays] + [self.out.name]
        decls += ["const {} _os{}_{}".format(it, n, d) for n in names for d in range(st[5])]
        decls += ["const {} _od{}".format(it, d) for d in range(st[5])]
        decls += ["const {} _rs{}_{}".format(it, p.name, d) for p in self._arrays for d in range(st[6])]
        decls += ["const {} _rd{}".format(it, d) for d in range(st[6])]
        decls += ["const {} {}".format(it, n) for n in ("_n_out", "_n_red", "_chunk", "_pso", "_psj", "_pdo", "_pdc")]
        return decls

    def kernel_name(self, st: Stage) -> str:
        src, dst, group, unroll, vec, ond, rnd, index_t = st
        parts = [self.name, "g{}".format(group), "o{}r{}".format(ond, rnd)]
        if vec > 1:
            parts.append("vec{}".format(vec))
        if src == "part":
            parts.append("pass2")
        elif dst == "part":
            parts.append("split")
        if index_t is numpy.int64:
            parts.append("i64")
        return "__".join(parts)

    def source(self, st: Stage) -> tuple[str, str]:
        """(kernel name, CUDA source) for one specialisation. Pure: needs no device."""
        src, dst, group, unroll, vec, ond, rnd, index_t = st
        it = "int" if index_t is numpy.int32 else "long long"
        kname = self.kernel_name(st)
        names = [p.name for p in self._arrays] + [self.out.name]
        lines = []
        if ond:
            lines.append("{} _q = _o;".format(it))
            for d in range(ond - 1, 0, -1):
                lines.append("const {t} _k{d} = _q % _od{d}; _q /= _od{d};".format(t=it, d=d))
            lines.append("const {} _k0 = _q;".format(it))
        for n in names:
            terms = " + ".join("_k{d} * _os{n}_{d}".format(d=d, n=n) for d in range(ond)) or "0"
            lines.append("const {} _ob_{} = {};".format(it, n, terms))
        out_indexer = "\n    ".join(lines)
        red, load = [], []
        if src == "map":
            if rnd > 1:
                red.append("{} _p = _j;".format(it))
                for d in range(rnd - 1, 0, -1):
                    red.append("const {t} _m{d} = _p % _rd{d}; _p /= _rd{d};".format(t=it, d=d))
                red.append("const {} _m0 = _p;".format(it))
            for p in self._arrays:
                if rnd == 1:
                    red.append("const {t} _off_{n} = _ob_{n} + _j * _rs{n}_0;".format(t=it, n=p.name))
                else:
                    terms = "".join(" + _m{d} * _rs{n}_{d}".format(d=d, n=p.name) for d in range(rnd))
                    red.append("const {} _off_{n} = _ob_{n}{};".format(it, terms, n=p.name))
                load.append(self._load(p, "_off_" + p.name))
            mapped = self.map_expr
            step = self.step
        else:
            mapped = "_part_in[_o * _pso + _j * _psj]"
            step = None
        if step is None:
            step = "{acc} = _reduce({acc}, (%s));" % mapped
        vload, lane_load = [], []
        if vec > 1:
            for p in self._arrays:
                # Arrays with reduced stride 0 (broadcast along the row) read their one element.
                vt = "cuarray::vec<{}, {}>".format(_dtypes.ctype(p.dtype), vec)
                vload.append(
                    "const {vt} _v{n} = _rs{n}_0 ? *(const {vt}*)((const char*){n}_ptr + _ob_{n} + _jvu * {b}) : {vt}();"
                    .format(vt=vt, n=p.name, b=vec * p.dtype.itemsize))
                lane_load.append("const {ct} {n} = _rs{n}_0 ? cuarray::cast<{ct}>(_v{n}.v[_k]) : cuarray::cast<{ct}>("
                                 "*(const {st}*)((const char*){n}_ptr + _ob_{n}));".format(
                                     ct=compute_ctype(p.compute), n=p.name, st=_dtypes.ctype(p.dtype)))
        if dst == "out":
            store = "{t}& {n} = *({t}*)((char*){n}_ptr + _ob_{n});\n      const _acc_t a = _t;\n      {pm};".format(
                t=_dtypes.ctype(self.out.dtype), n=self.out.name, pm=self.post_map)
        else:
            store = "_part_out[_o * _pdo + (long long)blockIdx.y * _pdc] = _t;"
        includes = []
        if any(p.dtype.char == "e" or p.compute.char == "e" for p in self.params + (self.out,)):
            includes += ["#define CUARRAY_HAS_HALF 1", "#include <cuda_fp16.h>"]
        includes += ['#include "cuarray/common.cuh"', '#include "cuarray/ops.cuh"']
        fields = dict(
            includes="\n".join(includes), preamble=self.preamble, acc_t=self.acc_ctype, block=BLOCK, name=kname,
            params=",\n    ".join(self._declare(st)), index_t=it, reduce_expr=self.reduce_expr, group=group,
            unroll=unroll, out_indexer=out_indexer, identity=self.identity, vec=vec,
            vload="\n          ".join(vload), lane_load="\n            ".join(lane_load),
            red_indexer="\n        ".join(red), load="\n        ".join(load), map=mapped, store=store,
            step_u=step.format(acc="_acc[_u]"), step_0=step.format(acc="_acc[0]"),
        )
        return kname, _skeleton("reduction.cu").substitute(fields)

    @staticmethod
    def _load(p, off) -> str:
        ct = compute_ctype(p.compute)
        return "const {ct} {n} = cuarray::cast<{ct}>(*(const {st}*)((const char*){n}_ptr + {off}));".format(
            ct=ct, n=p.name, st=_dtypes.ctype(p.dtype), off=off)

    def _kernel(self, st: Stage):
        kern = self._kernels.get(st)
        if kern is None:
            kern = _shared_kernels.get((self.key, st))
            if kern is None:
                kname, src = self.source(st)
                module = _compiler.compile_module(src, options=self.options, user_source=self.user_source, name=kname)
                kern = module.get_function(kname).kernel
                _shared_kernels[(self.key, st)] = kern
            self._kernels[st] = kern
        return kern

    def stages(self, p: Plan) -> list:
        """The (Stage, grid, role) launches a plan makes, in order."""
        ond, rnd = len(p.out_dims), len(p.red_dims)
        if p.split == 1:
            return [(Stage("map", "out", p.group, p.unroll, p.vec, ond, rnd, p.index_t), (p.grid_x, 1), "only")]
        return [(Stage("map", "part", p.group, p.unroll, p.vec, ond, rnd, p.index_t), (p.grid_x, p.split), "first"),
                (Stage("part", "out", p.group2, p.unroll2, 1, ond, rnd, p.index_t), (p.grid2, 1), "second")]

    # -- launch ----------------------------------------------------------------------------
    def run(self, shape, arrays, scalars, y, raxes, keep_order=False) -> None:
        """Reduce `arrays` (ndarrays for the 'in' params, each broadcastable to `shape`) over
        `raxes` into `y` (shape: `shape` without `raxes`). `scalars`: C-typed values in order."""
        in_strides = []
        for a in arrays:
            st = a._strides if a._shape == shape else _shapes.broadcast_to_strides(a._shape, a._strides, shape)
            in_strides.append(st)
        aligned = tuple(a.data.ptr % 16 == 0 for a in arrays)
        sms = _device._sm_count(_device.get_device_id())
        key = (shape, tuple(in_strides), tuple(a._dtype.itemsize for a in arrays), y._strides, tuple(raxes),
               aligned, keep_order, sms)
        p = _plans.get(key)
        if p is None:
            if len(_plans) > 4096:
                _plans.clear()
            p = _plans[key] = plan(shape, in_strides, key[2], y._strides, raxes, aligned=aligned,
                                   keep_order=keep_order, sm_count=sms)
        if p.n_out == 0:
            return
        part = None
        if p.split > 1:
            part = ndarray((p.n_out * p.split * self.acc_size,), numpy.uint8)
        for st, grid, role in self.stages(p):
            args = self._pack(st, p, arrays, scalars, y, part, role)
            _launch.launch(self._kernel(st), grid, BLOCK, args)

    def _pack(self, st, p: Plan, arrays, scalars, y, part, role) -> tuple:
        it = st[7]
        out = []
        ia = isc = 0
        for prm in self.params:
            if prm.kind == "scalar":
                out.append(scalars[isc])
                isc += 1
            else:
                out.append(arrays[ia].data.ptr)
                ia += 1
        out.append(y.data.ptr)
        pptr = part.data.ptr if part is not None else 0
        out.append(pptr if role == "second" else 0)
        out.append(pptr if role == "first" else 0)
        ostr = p.out_strides[1:] + p.out_strides[:1]  # inputs, then y
        for s in ostr:
            out.extend(it(v) for v in s)
        out.extend(it(d) for d in p.out_dims)
        for s in p.red_strides:
            out.extend(it(v) for v in s)
        out.extend(it(d) for d in p.red_dims)
        if p.group == 1:  # partials laid out [chunk][out]
            pdo, pdc = 1, p.n_out
        else:  # [out][chunk]
            pdo, pdc = p.split, 1
        if role == "second":
            n_red = chunk = p.split
        else:
            n_red, chunk = p.n_red, p.chunk
        out += [it(p.n_out), it(n_red), it(chunk), it(pdo), it(pdc), it(pdo), it(pdc)]
        return tuple(out)


_shared_kernels: dict = {}
_plans: dict = {}
