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
   - short aligned rows that are a whole number of 16-byte vectors per lane take a row tile (a
     lane loads several rows' vectors before its first add; `_ROW_TILE`), and a few adjacent
     outputs along a fast kept axis take output vectors (a thread loads 16 bytes of outputs a
     reduced element, the block combines its sub-chunks; `_OUT_VEC`): passes of their own in
     reduction.cu;
   - a kept row of 2, 4 or 8 bytes packed row after row (`var(axis=0)` of (n, 2) float32) takes
     folded output vectors: a 16-byte load carries 16 / row rows of outputs, a thread folds them
     together at its end (`_OUT_FOLD`);
   - when that leaves the GPU under-filled (few outputs: full reductions, `sum(axis=0)` of a wide
     matrix...), the reduced index is cut into chunks over blockIdx.y; partials go to a temporary
     buffer and a second pass of the same skeleton combines them in a fixed order. No float
     atomics: results are bit-identical run to run on one device. When one block can do the
     second pass about as fast as a second launch (few outputs), it is fused: the last block of
     the grid to finish (an integer counter per stream, see `_workspace`) runs it, same order.
3. The plan, its compiled kernels (NVRTC once per key), LaunchConfigs and every argument but the
   pointers become a `_Launcher`, kept per definition under (shape, strides, output strides, axes,
   alignment, device): a repeated call is one look-up and the launch(es). The public functions add
   a look-up before all of this (`reduction_ops.fast_key`).

Kernel arguments, in the order `ReductionDef._declare` writes them: input pointers and scalars in
parameter order, the output pointer, partial in/out pointers, then (`_tail`) byte strides of each
array over the out dims then the out dim sizes, the same over the red dims, then
`_n_out, _n_red, _chunk` (a folded plan's chunk counts 16-byte vectors) and the partial strides
`_pso, _psj, _pdo, _pdc` (in accumulators); a fused kernel takes its counter last.
"""

from __future__ import annotations

import functools
import string
import threading

import numpy

from ..cuda import backend as _seam
from ..cuda import caches as _caches
from ..cuda import kernel_family as _kernel_family
from ..cuda import device as _device
from ..cuda import launch as _launch
from ..cuda import memory as _memory
from ..cuda import stream as _stream
from . import datetimes as _datetimes
from . import device_check as _device_check
from . import dtypes as _dtypes
from . import reduction_passes as _passes
from . import reduction_plan as _rp
from . import shapes as _shapes
from .elementwise import _skeleton, compute_ctype, kernel_identifier
from .reduction_plan import BLOCK, Plan, Stage, plan

__all__ = ["ReductionDef", "Plan", "plan", "Stage", "one_launch_workspace", "stream_workspace"]


# --------------------------------------------------------------------------------------------


# Every live ReductionDef's own tables, reached through the cache registry (`cuda/caches.py`).
_live_definitions = _caches.instances("reduction kernels and launchers", lambda r: (r._kernels, r._launchers))


class ReductionDef:
    """A reduction over fixed parameters; caches its kernels.

    `params`: KernelParams of kind 'in' (arrays, broadcast to the input shape) and 'scalar';
    `out`: the KernelParam (kind 'out') of the result `y`; `acc_ctype`/`acc_size`: the C type of the
    accumulator and an upper bound of its size in bytes; `identity`: a C expression of that type.
    `wide`: output-vector plans keep a sum's loads in flight with fewer accumulator sets than loads
    (`Plan.accs`; var's moments, whose 16-32 byte accumulators otherwise cut a round to 1-2 loads):
    True for the sets that fit 128 bytes, or a number of sets.
    """

    __slots__ = ("name", "params", "out", "acc_ctype", "acc_size", "map_expr", "reduce_expr",
                 "identity", "post_map", "preamble", "options", "user_source", "key", "_kernels",
                 "_arrays", "step", "_launchers", "_in_first", "half", "wide", "__weakref__")

    def __init__(self, name, params, out, acc_ctype, acc_size, map_expr, reduce_expr, identity, post_map,
                 preamble="", options=(), user_source=None, step=None, half=False, wide=False):
        self.name = kernel_identifier(name)
        # `half`: as `elementwise.Definition`'s (__half in the code with no float16 param).
        self.half = half
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
        self.wide = wide  # a planner choice: the kernels of a plan are keyed by its Stage
        self._arrays = tuple(p for p in self.params if p.kind == "in")
        self.key = (name, tuple(p.key() for p in self.params), out.key(), acc_ctype, map_expr, reduce_expr,
                    identity, post_map, preamble, self.options, step)
        self._kernels = {}
        self._launchers = {}
        _live_definitions.add(self)
        kinds = [p.kind for p in self.params]
        self._in_first = kinds == sorted(kinds)  # 'in' < 'scalar': every array before every scalar

    # -- code generation -------------------------------------------------------------------
    def _declare(self, st: Stage) -> list:
        it = "int" if st.index_t is numpy.int32 else "long long"
        decls = [p.declare() for p in self.params] + [self.out.declare()]
        decls += ["const _acc_t* __restrict__ _part_in", "_acc_t* __restrict__ _part_out"]
        names = [p.name for p in self._arrays] + [self.out.name]
        decls += ["const {} _os{}_{}".format(it, n, d) for n in names for d in range(st.out_ndim)]
        decls += ["const {} _od{}".format(it, d) for d in range(st.out_ndim)]
        decls += ["const {} _rs{}_{}".format(it, p.name, d) for p in self._arrays for d in range(st.red_ndim)]
        decls += ["const {} _rd{}".format(it, d) for d in range(st.red_ndim)]
        decls += ["const {} {}".format(it, n) for n in ("_n_out", "_n_red", "_chunk", "_pso", "_psj", "_pdo", "_pdc")]
        if st.dst == "fused":
            decls.append("unsigned int* __restrict__ _counter")
        return decls

    def kernel_name(self, st: Stage) -> str:
        src, dst, group, unroll, vec, ond, rnd, index_t, group2 = st[:9]
        parts = [self.name, "g{}".format(group), "o{}r{}".format(ond, rnd)]
        if st.sub > 1:
            parts.append("sub{}".format(st.sub))
        if st.rows:
            parts.append("tile{}x{}".format(st.rows, st.mvec))
        if st.ovec:
            parts.append("ovec{}".format(st.ovec))
        if st.fold:
            parts.append("fold{}".format(st.fold))
        if st.accs:
            parts.append("acc{}".format(st.accs))
        if vec > 1:
            parts.append("vec{}".format(vec))
        if src == "part":
            parts.append("pass2")
        elif dst == "part":
            parts.append("split")
        elif dst == "fused":
            parts.append("fused{}".format(group2))
        if index_t is numpy.int64:
            parts.append("i64")
        return "__".join(parts)

    def source(self, st: Stage) -> tuple[str, str]:
        """(kernel name, CUDA source) for one specialisation. Pure: needs no device."""
        src, dst, group, unroll, vec, ond, rnd, index_t, group2, unroll2, sub, rows, mvec, ovec, fold, accs = st
        it = "int" if index_t is numpy.int32 else "long long"
        kname = self.kernel_name(st)
        kernel_t, pass_t, finish_t, tile_t, body_t, cols_t, fold_t = _templates()
        if rows:
            pass1 = _passes.tile_pass(self, tile_t, body_t, group, mvec, rows, vec, ond, it, BLOCK)
        elif fold:
            pass1 = _passes.fold_pass(self, fold_t, "part" if dst == "fused" else dst, unroll, ovec, fold, it, BLOCK,
                                      accs)
        elif ovec:
            pass1 = _passes.cols_pass(self, cols_t, "part" if dst == "fused" else dst, unroll, ovec, sub, it, BLOCK,
                                      accs)
        else:
            pass1 = self._pass(pass_t, src, "part" if dst == "fused" else dst, group, unroll, vec, ond, rnd, it, sub)
        finish = ""
        if dst == "fused":
            finish = finish_t.substitute(pass2=self._pass(pass_t, "fused", "out", group2, unroll2, 1, ond, rnd, it,
                                                          1, parts_per_block=1 if ovec else sub))
        includes = []
        if self.half or any(p.dtype.char == "e" or p.compute.char == "e" for p in self.params + (self.out,)):
            includes += ["#define CUARRAY_HAS_HALF 1", "#include <cuda_fp16.h>"]
        includes += ['#include "cuarray/common.cuh"', '#include "cuarray/ops.cuh"']
        if any(p.dtype.kind in "Mm" for p in self.params + (self.out,)):
            includes.append(_datetimes.HEADER)
        fields = dict(
            includes="\n".join(includes), preamble=self.preamble, acc_t=self.acc_ctype, block=BLOCK, name=kname,
            params=",\n    ".join(self._declare(st)), index_t=it, reduce_expr=self.reduce_expr, pass1=pass1,
            finish=finish,
        )
        return kname, kernel_t.substitute(fields)

    def _pass(self, pass_t, src, dst, group, unroll, vec, ond, rnd, it, sub=1, parts_per_block=1) -> str:
        """One pass of the skeleton: `src` 'map' (inputs), 'part' (partials of an earlier launch)
        or 'fused' (partials of this launch's other blocks, `parts_per_block` from each block);
        `dst` 'out' or 'part'; `sub` sub-chunks per block (a partial each)."""
        subwarp = 1 < group < 32  # several groups per warp: see the template's <o_cond>
        out_indexer = "\n      ".join(_passes.out_indexer(self, ond, it, subwarp))
        red, load = [], []
        step = None
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
        elif src == "part":
            mapped = "_part_in[_o * _pso + _j * _psj]"
        else:
            mapped = "cuarray::load_cg(_part_out + (_o * _pdo + _j * _pdc))"
        if step is None:
            # `mapped` may hold braces (T{...}): escape them for the .format(acc=...) below.
            step = "{acc} = _reduce({acc}, (%s));" % mapped.replace("{", "{{").replace("}", "}}")
        vload, lane_load = [], []
        if vec > 1:
            last = rnd - 1
            if rnd > 1:
                # Vector _jvu of a reduced index over several dims, the last one contiguous and a
                # multiple of `vec` long (planner): its position in the other dims, then bytes.
                vload.append("{} _pv = _jvu;".format(it))
                vload.append("const {t} _mv{d} = _pv % (_rd{d} / {v}); _pv /= _rd{d} / {v};".format(
                    t=it, d=last, v=vec))
                for d in range(last - 1, 0, -1):
                    vload.append("const {t} _mv{d} = _pv % _rd{d}; _pv /= _rd{d};".format(t=it, d=d))
                vload.append("const {} _mv0 = _pv;".format(it))
            for p in self._arrays:
                # Arrays with reduced stride 0 (broadcast along the row) read their one element.
                vt = "cuarray::vec<{}, {}>".format(_dtypes.ctype(p.dtype), vec)
                b = vec * p.dtype.itemsize
                if rnd > 1:
                    off = "_ob_{n}".format(n=p.name) + "".join(
                        " + _mv{d} * _rs{n}_{d}".format(d=d, n=p.name) for d in range(last)) + " + _mv{} * {}".format(
                        last, b)
                else:
                    off = "_ob_{n} + _jvu * {b}".format(n=p.name, b=b)
                vload.append(
                    "const {vt} _v{n} = _rs{n}_{l} ? *(const {vt}*)((const char*){n}_ptr + {off}) : {vt}();"
                    .format(vt=vt, n=p.name, l=last, off=off))
                lane_load.append("const {ct} {n} = _rs{n}_{l} ? cuarray::cast<{ct}>(_v{n}.v[_k]) : cuarray::cast<{ct}>("
                                 "*(const {st}*)((const char*){n}_ptr + _ob_{n}));".format(
                                     ct=compute_ctype(p.compute), n=p.name, st=_dtypes.ctype(p.dtype), l=last))
        if dst == "out":
            store = "{t}& {n} = *({t}*)((char*){n}_ptr + _ob_{n});\n        const _acc_t a = _t;\n        {pm};".format(
                t=_dtypes.ctype(self.out.dtype), n=self.out.name, pm=self.post_map)
        elif sub > 1:
            store = "_part_out[_o * _pdo + ((long long)blockIdx.y * {} + _lane) * _pdc] = _t;".format(sub)
        else:
            store = "_part_out[_o * _pdo + (long long)blockIdx.y * _pdc] = _t;"
        if subwarp:
            store = "if (_o < _n_out) {\n          " + store + "\n        }"
        if src == "fused":  # one block walks every output and the whole reduced index (the chunks)
            r0, r1, o0, ostep = "0", "({})gridDim.y * {}".format(it, parts_per_block), "0", "1"
        else:
            r0, r1 = "({})blockIdx.y * _chunk".format(it), "min(_r0 + _chunk, _n_red)"
            o0, ostep = "({})blockIdx.x".format(it), "({})gridDim.x".format(it)
        fields = dict(
            block=BLOCK, index_t=it, group=group, unroll=unroll, out_indexer=out_indexer, identity=self.identity,
            vec=vec, vload="\n            ".join(vload), lane_load="\n              ".join(lane_load),
            red_indexer="\n          ".join(red), load="\n          ".join(load), store=store,
            step_u=step.format(acc="_acc[_u]"), step_0=step.format(acc="_acc[0]"), r0=r0, r1=r1, o0=o0, ostep=ostep,
            sub=sub,
            o_cond="_o - (int)((threadIdx.x & 31) / _G) < _n_out" if subwarp else "_o < _n_out",
        )
        return pass_t.substitute(fields)

    @staticmethod
    def _load(p, off) -> str:
        ct = compute_ctype(p.compute)
        return "const {ct} {n} = cuarray::cast<{ct}>(*(const {st}*)((const char*){n}_ptr + {off}));".format(
            ct=ct, n=p.name, st=_dtypes.ctype(p.dtype), off=off)

    def _kernel(self, st: Stage):
        kern = self._kernels.get(st)
        if kern is None:
            kern = self._kernels[st] = _kernel_family.generated(
                ("reduction", self.key, st), functools.partial(self.source, st), options=self.options,
                user_source=self.user_source)
        return kern

    def stages(self, p: Plan) -> list:
        """The (Stage, grid, role) launches a plan makes, in order."""
        ond, rnd = len(p.out_dims), len(p.red_dims)
        if p.ovec:  # output vectors: the sub-chunk count and unroll are the kernel's
            if p.parts == 1:
                return [(Stage("map", "out", 1, p.unroll, 1, ond, rnd, p.index_t, sub=p.sub, ovec=p.ovec,
                               accs=p.accs, fold=p.fold), (p.grid_x, 1), "only")]
            if p.fused:
                return [(Stage("map", "fused", 1, p.unroll, 1, ond, rnd, p.index_t, p.group2, p.unroll2, p.sub,
                               ovec=p.ovec, accs=p.accs, fold=p.fold), (p.grid_x, p.split), "fused")]
        if p.parts == 1:
            if p.rows:
                return [(Stage("map", "out", p.group, 1, p.vec, ond, rnd, p.index_t, rows=p.rows, mvec=p.mvec),
                         (p.grid_x, 1), "only")]
            return [(Stage("map", "out", p.group, p.unroll, p.vec, ond, rnd, p.index_t), (p.grid_x, 1), "only")]
        if p.fused:
            return [(Stage("map", "fused", p.group, p.unroll, p.vec, ond, rnd, p.index_t, p.group2, p.unroll2, p.sub),
                     (p.grid_x, p.split), "fused")]
        return [(Stage("map", "part", p.group, p.unroll, p.vec, ond, rnd, p.index_t, sub=p.sub, ovec=p.ovec,
                       accs=p.accs, fold=p.fold), (p.grid_x, p.split), "first"),
                (Stage("part", "out", p.group2, p.unroll2, 1, ond, rnd, p.index_t), (p.grid2, 1), "second")]

    # -- launch ----------------------------------------------------------------------------
    def run(self, shape, arrays, scalars, y, raxes, keep_order=False) -> None:
        """Reduce `arrays` (ndarrays for the 'in' params, each broadcastable to `shape`) over
        `raxes` into `y` (shape: `shape` without `raxes`). `scalars`: C-typed values in order."""
        if _device_check.active[0]:
            _device_check.check(arrays)
            _device_check.check((y,))
        launcher = self.launcher(shape, arrays, y._strides, raxes, keep_order)
        if self._in_first:
            head = tuple(a.data.ptr for a in arrays) + tuple(scalars)
        else:
            head, ia, isc = [], 0, 0
            for prm in self.params:
                if prm.kind == "scalar":
                    head.append(scalars[isc])
                    isc += 1
                else:
                    head.append(arrays[ia].data.ptr)
                    ia += 1
        launcher(tuple(head), y.data.ptr)

    def launcher(self, shape, arrays, y_strides, raxes, keep_order=False):
        """The prepared launch(es) of this reduction for arrays laid out like `arrays` (shape and
        strides, 16-byte alignment of their pointers) and an output of byte strides `y_strides`
        over the kept axes, on the current device: a `_Launcher`, planned and compiled once per key."""
        in_strides = []
        for a in arrays:
            st = a._strides if a._shape == shape else _shapes.broadcast_to_strides(a._shape, a._strides, shape)
            in_strides.append(st)
        aligned = tuple(a.data.ptr % 16 == 0 for a in arrays)
        dev = _device.get_device_id()
        key = (shape, tuple(in_strides), y_strides, tuple(raxes), aligned, keep_order, dev, _rp.FUSE)
        lau = self._launchers.get(key)
        if lau is None:
            if len(self._launchers) > 1024:
                self._launchers.clear()
            p = plan(shape, in_strides, tuple(a._dtype.itemsize for a in arrays), y_strides, raxes,
                     aligned=aligned, keep_order=keep_order, sm_count=_device._sm_count(dev), acc_size=self.acc_size,
                     wide=self.wide)
            lau = self._launchers[key] = self._prepare(p)
        return lau

    def _prepare(self, p: Plan):
        if p.n_out == 0:
            return _no_launch
        lau = _Launcher()
        lau.plan = p
        lau.steps = tuple((self._kernel(st), _launch.launch_config(grid, BLOCK), self._tail(st, p, role))
                          for st, grid, role in self.stages(p))
        lau.part_bytes = p.n_out * p.parts * self.acc_size if p.parts > 1 else 0
        lau.fused = p.fused
        return lau

    def _tail(self, st, p: Plan, role) -> tuple:
        """The kernel arguments after (inputs and scalars, y, part_in, part_out): strides, sizes."""
        it = st.index_t
        out = []
        ostr = p.out_strides[1:] + p.out_strides[:1]  # inputs, then y
        for s in ostr:
            out.extend(it(v) for v in s)
        out.extend(it(d) for d in p.out_dims)
        for s in p.red_strides:
            out.extend(it(v) for v in s)
        out.extend(it(d) for d in p.red_dims)
        if p.group == 1 and p.sub == 1:  # partials laid out [chunk][out]
            pdo, pdc = 1, p.n_out
        else:  # [out][chunk]
            pdo, pdc = p.parts, 1
        if role == "second":
            n_red = chunk = p.parts
        else:
            n_red, chunk = p.n_red, p.chunk
        out += [it(p.n_out), it(n_red), it(chunk), it(pdo), it(pdc), it(pdo), it(pdc)]
        return tuple(out)


class _Launcher:
    """A plan made ready to launch: per launch the compiled kernel, its LaunchConfig and the
    arguments after the pointers (`tail`), plus the size of the partials buffer. Called with the
    leading arguments (input pointers and scalars, in parameter order) and the output's pointer;
    does one allocation when the plan splits, and one or two launches on the current stream."""

    __slots__ = ("plan", "steps", "part_bytes", "fused")

    def __call__(self, head, y_ptr) -> None:
        stream = _stream.get_current_stream()
        cs = _stream.core_stream(stream)
        fn = _launch.enqueue  # cuda.core's launch, or the launch hook's wrapper
        steps = self.steps
        nbytes = self.part_bytes
        if not nbytes:
            kern, cfg, tail = steps[0]
            fn(cs, cfg, kern, *head, y_ptr, 0, 0, *tail)
            return
        if self.fused:
            ws = _stream_workspace(stream, nbytes)
            kern, cfg, tail = steps[0]
            fn(cs, cfg, kern, *head, y_ptr, 0, ws[1], *tail, ws[0])
            return
        part = _memory.alloc(nbytes)  # freed in stream order when this returns
        pptr = part.ptr
        (k1, c1, t1), (k2, c2, t2) = steps
        fn(cs, c1, k1, *head, y_ptr, 0, pptr, *t1)
        fn(cs, c2, k2, *head, y_ptr, pptr, 0, *t2)


def _no_launch(head, y_ptr) -> None:
    """The launcher of an empty output."""


# The fused kernels' workspace, per (device, stream): (counter pointer, partials pointer, partials
# bytes, partials MemoryPointer). The counter (the "last block done" test) is a 4-byte word, zero
# between kernels (the last block resets it), never freed. The partials are only used inside one
# kernel. Kernels of one stream run one after the other, so they share both; kernels of other
# streams have their own. A stream keeps its workspace (a few KiB) for the life of the process.
_workspaces: dict = {}
_counter_slabs: dict = _seam.CUDA.table("counter slabs")  # device -> [MemoryPointer of _SLAB words, next free word]
_SLAB = 1024


def _workspace_bytes() -> int:
    """Device bytes of the workspaces' partials and of the counter slabs."""
    return sum(ws[2] for ws in list(_workspaces.values())) + 4 * _SLAB * len(_counter_slabs)


# (A cleared workspace's partials go back to the pool in its stream's order; the counter slabs stay:
# their words are handed out for good, one per workspace, and the next workspace takes a new one.)
_caches.register("reduction workspaces", _workspaces, nbytes=_workspace_bytes)


_workspace_lock = threading.Lock()


def _stream_workspace(stream, nbytes: int) -> tuple:
    """The workspace of the current device and `stream`, with partials of at least `nbytes`."""
    sptr = stream.ptr
    if sptr == 2:  # the per-thread default stream is another stream in each thread
        sptr = _stream.ptds_pool_key()
    ws = _workspaces.get((_device.get_device_id(), sptr))
    if ws is None or ws[2] < nbytes:
        ws = _workspace(sptr, nbytes)
    return ws


def stream_workspace(stream) -> tuple:
    """`stream`'s workspace on the current device, made if it has none: (counter pointer,
    partials pointer, partials bytes, partials memory). A CUDA-graph capture (fusion/graph_replay.py)
    makes it before capturing (making it synchronises) and holds the memory its graph's kernels use."""
    return _stream_workspace(stream, 1)


def one_launch_workspace(nbytes: int) -> tuple:
    """(counter pointer, partials pointer) of the current stream's workspace, for a kernel of
    another module that finishes its own reduction the way the fused plans do: every block writes
    its partial (at most `nbytes` in all), the last block to finish combines them and sets the
    counter back to zero."""
    ws = _stream_workspace(_stream.get_current_stream(), nbytes)
    return ws[0], ws[1]


def _workspace(stream_ptr: int, nbytes: int) -> tuple:
    """The workspace of the current device and stream `stream_ptr` (the pool's key of the stream:
    per thread for the per-thread default stream), with partials of at least `nbytes` (a larger one
    replaces the old, freed in stream order). Under a lock: two streams' first fused reductions at
    once, from two threads, must not be given the same counter word."""
    key = (_device.get_device_id(), stream_ptr)
    with _workspace_lock:
        ws = _workspaces.get(key)
        counter = _new_counter(key[0]) if ws is None else ws[0]
        if ws is None or ws[2] < nbytes:
            size = max(4096, 1 << (nbytes - 1).bit_length())
            mem = _memory.alloc(size)
            ws = _workspaces[key] = (counter, mem.ptr, size, mem)
    return ws


def _new_counter(dev: int) -> int:
    slab = _counter_slabs.get(dev)
    if slab is None or slab[1] == _SLAB:
        mem = _memory.alloc(_SLAB * 4)
        mem.memset(0, _SLAB * 4)
        _device.synchronize()  # zero before any stream's kernel reads it
        slab = _counter_slabs[dev] = [mem, 0]
    ptr = slab[0].ptr + 4 * slab[1]
    slab[1] += 1
    return ptr


def _select(prev, new) -> None:
    """The backend seam (`cuda.backend.on_select`): the counter slabs are `new`'s; a backend's own
    `counter_slab` ((slab, first word): words no memset zeroes, the fake device's) is device 0's."""
    global _counter_slabs
    with _workspace_lock:
        slabs = new.table("counter slabs")
        if new.counter_slab is not None and 0 not in slabs:
            slabs[0] = list(new.counter_slab)
        _counter_slabs = slabs


_seam.on_select(_select)


_template_parts: tuple = ()


def _templates():
    """reduction.cu split at its `// @@` lines: (kernel, one pass, fused finish, row tile, row tile's body,
    output vectors, folded output vectors) Templates. Built
    whole, then published by one assignment: threads racing on the first reduction each see three
    parts (filling a shared list in place gave a second thread six)."""
    global _template_parts
    if not _template_parts:
        text = _skeleton("reduction.cu").template
        pieces, cur = [], []
        for line in text.splitlines(keepends=True):
            if line.startswith("// @@"):
                pieces.append("".join(cur))
                cur = []
            else:
                cur.append(line)
        pieces.append("".join(cur))
        _template_parts = tuple(string.Template(t) for t in pieces)
    return _template_parts
