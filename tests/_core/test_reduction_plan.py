"""The reduction engine without a GPU: axis planning (checked by replaying each plan on the host),
strategy choice, result dtypes against NumPy, and NVRTC compiles of the generated kernels."""

import math

import numpy
import pytest
from numpy.exceptions import AxisError

from cuarray._core import reduction_ops as R
from cuarray._core import reduction
from cuarray._core import reduction_plan
from cuarray._core.reduction import Stage, plan
from cuarray._core.reduction_kernel import ReductionKernel
from cuarray.cuda import compiler


def _unravel(i, dims):
    out = []
    for d in reversed(dims):
        out.append(i % d)
        i //= d
    return list(reversed(out))


def _replay_sum(p, buf, base, dtype):
    """Sum as the kernels would walk it: chunks, partials, second pass; returns {y offset: value}."""
    isz = numpy.dtype(dtype).itemsize
    res = {}
    for o in range(p.n_out):
        k = _unravel(o, p.out_dims) if p.out_dims else []
        ob = sum(a * b for a, b in zip(k, p.out_strides[1]))
        oy = sum(a * b for a, b in zip(k, p.out_strides[0]))
        partials = []
        for c in range(p.split):
            acc = 0.0
            for j in range(c * p.chunk, min((c + 1) * p.chunk, p.n_red)):
                m = _unravel(j, p.red_dims) if p.red_dims else []
                off = base + ob + sum(a * b for a, b in zip(m, p.red_strides[0]))
                acc += float(numpy.frombuffer(buf[off:off + isz].tobytes(), dtype)[0])
            partials.append(acc)
        res[oy] = sum(partials)
    return res


CASES = [
    ((6, 5), (slice(None), slice(None)), None, (0,)),
    ((6, 5), (slice(None), slice(None)), None, (1,)),
    ((6, 5), (slice(None), slice(None)), None, (0, 1)),
    ((4, 3, 5), (slice(None), slice(None, None, -1), slice(None)), None, (1,)),
    ((4, 3, 5), (slice(None), slice(None), slice(None, None, 2)), (2, 0, 1), (0, 2)),
    ((2, 3, 4, 5), (slice(None),) * 4, (3, 1, 0, 2), (1, 3)),
    ((7,), (slice(None, None, -2),), None, (0,)),
    ((3, 1, 4), (slice(None),) * 3, None, (1,)),
    ((3, 0, 4), (slice(None),) * 3, None, (1,)),
]


@pytest.mark.parametrize("shape,index,perm,raxes", CASES, ids=lambda x: str(x))
def test_plan_replays_to_numpy_sum(shape, index, perm, raxes):
    host = numpy.random.default_rng(0).standard_normal(shape).astype(numpy.float32)
    view = host[index]
    if perm is not None:
        view = view.transpose(perm)
    base = view.__array_interface__["data"][0] - host.__array_interface__["data"][0]
    kshape = tuple(d for i, d in enumerate(view.shape) if i not in raxes)
    y_strides = tuple(numpy.empty(kshape, numpy.float32).strides)
    p = plan(view.shape, [view.strides], [4], y_strides, raxes, aligned=(True,), sm_count=2)
    expect = view.sum(axis=raxes, dtype=numpy.float64)
    got = _replay_sum(p, host.view(numpy.uint8).ravel(), base, numpy.float32)
    flat = numpy.zeros(max(1, math.prod(kshape)))
    for off, v in got.items():
        flat[off // 4] = v
    numpy.testing.assert_allclose(flat[: expect.size].reshape(expect.shape), expect, rtol=1e-6, atol=1e-6)


def test_split_chunks_replay():
    # Few outputs on a small GPU: the reduced index is split over blockIdx.y.
    host = numpy.random.default_rng(1).standard_normal((3000, 3)).astype(numpy.float32)
    p = plan(host.shape, [host.strides], [4], (4,), (0,), aligned=(True,), sm_count=4)
    assert p.group == 1 and p.split > 1 and p.chunk % p.unroll == 0
    got = _replay_sum(p, host.view(numpy.uint8).ravel(), 0, numpy.float32)
    numpy.testing.assert_allclose([got[0], got[4], got[8]], host.sum(0, dtype=numpy.float64), rtol=1e-6)


def test_strategies():
    n = 16384
    c = (n * 4, 4)
    p = plan((n, n), [c], [4], (4,), (0,), aligned=(True,))
    assert p.strategy == "cols" and p.split > 1 and p.group2 == 1       # sum(axis=0): thread per column
    p = plan((n, n), [c], [4], (4,), (1,), aligned=(True,))
    assert p.strategy == "rows" and p.group == 256 and p.vec == 4 and p.split == 1
    p = plan((n, 100), [(400, 4)], [4], (4,), (1,), aligned=(True,))
    assert p.group == 8 and p.vec == 4                                    # 8 lanes per short row (_LANE_VECS 2)
    p = plan((n, 100), [(400, 4)], [4], (4,), (1,), aligned=(False,))
    assert p.group == 32 and p.vec == 1                                   # misaligned: a warp per row
    p = plan((2**28,), [(4,)], [4], (), (0,), aligned=(True,))
    assert p.strategy == "full" and p.vec == 4 and p.split > 100 and p.group2 == 256
    p = plan((2**28,), [(4,)], [4], (), (0,), aligned=(False,))
    assert p.vec == 1                                                    # misaligned: scalar loads
    p = plan((n, n), [(4, n * 4)], [4], (), (0, 1), aligned=(True,))
    assert p.red_dims == (n * n,) and p.vec == 4                         # a.T.sum(): one flat run
    p = plan((n, n), [(4, n * 4)], [4], (), (0, 1), aligned=(True,), keep_order=True)
    assert p.red_dims == (n, n)                                          # argmax keeps C order
    p = plan((5, 0), [(0, 4)], [4], (4,), (1,))
    assert p.n_red == 0 and p.split == 1
    p = plan((2**31 // 4 + 10,), [(4,)], [4], (), (0,), aligned=(True,))
    assert p.index_t is numpy.int64


DTYPES = [numpy.dtype(c) for c in "?bhiqBHIQefdFD"]


@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_result_dtypes_match_numpy(dt):
    for op in ("sum", "prod", "max", "min", "any", "all", "nansum"):
        fn = R.OPS[op].np_fn
        assert R.result_dtype(fn, dt) == numpy.asarray(fn(numpy.ones(2, dt))).dtype
    acc = R.acc_dtype_for(R.OPS["sum"], dt, R.result_dtype(numpy.sum, dt))
    assert acc == {"e": numpy.dtype("f4"), "?": numpy.dtype("i8")}.get(dt.char, numpy.sum(numpy.ones(1, dt)).dtype)


def test_helpers():
    assert R.reduced_shape((2, 3, 4), (1,), True) == (2, 1, 4)
    assert R.reduced_shape((2, 3, 4), (0, 2), False) == (3,)
    assert R.normalize_axes(None, 3) == (0, 1, 2)
    assert R.normalize_axes(-1, 3) == (2,)
    with pytest.raises(AxisError):
        R.normalize_axes(3, 3)


def _sources():
    """A sample of every op kind x dtype kind x stage (the full product is ~500 kernels)."""
    stages = [Stage("map", "out", 256, 4, 4, 0, 1, numpy.int32), Stage("map", "part", 1, 8, 1, 2, 2, numpy.int64),
              Stage("part", "out", 32, 4, 1, 1, 1, numpy.int32)]
    rows = [("sum", "f"), ("sum", "e"), ("sum", "?"), ("prod", "D"), ("max", "F"), ("min", "b"), ("nanmax", "d"),
            ("nanmin", "F"), ("any", "e"), ("all", "H"), ("count_nonzero", "D"), ("argmax", "e"), ("argmin", "F"),
            ("nanargmax", "d"), ("nansum", "F"), ("nanprod", "f"), ("count_notnan", "e")]
    out = []
    for k, (op, c) in enumerate(rows):
        dt = numpy.dtype(c)
        o = R.OPS[op]
        res = R.result_dtype(o.np_fn, dt)
        acc = R.acc_dtype_for(o, dt, res)
        post = "y = a.i" if o.acc == "arg" else R._POST_CAST
        d = R._definition(o, ((dt, R._compute_for(o, dt, acc)),), ("x",), acc, res, k % 3 == 0, post, ())
        out.append(d.source(stages[k % 3])[1])
    o = R.OPS["sqdev"]
    d = R._definition(o, ((numpy.dtype("F"), numpy.dtype("F")), (numpy.dtype("F"), numpy.dtype("F"))), ("x", "m"),
                      numpy.dtype("f4"), numpy.dtype("f4"), False, "y = cuarray::cast<$Y>(::sqrt(a / _acc_t(_div)))",
                      (("_div", numpy.dtype("f8")),), tag="std")
    out.append(d.source(stages[0])[1])
    uf = R.UFUNC_OPS["bitwise_xor"]
    d = R._definition(uf, ((numpy.dtype("u2"), numpy.dtype("u2")),), ("x",), numpy.dtype("u2"), numpy.dtype("u2"),
                      False, R._POST_INITIAL, (("_init", numpy.dtype("u2")),))
    out.append(d.source(stages[1])[1])
    return out


def test_generated_kernels_compile():
    # One NVRTC call for the whole sample: each kernel's types live in its own namespace.
    cubin, _ = compiler.compile_cubin("\n".join(_sources()), arch="sm_90")
    assert cubin[:4] == b"\x7fELF"


def test_reduction_kernel_source_compiles():
    k = ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm")
    from cuarray._core.elementwise import KernelParam

    F4 = numpy.dtype("f4")
    d = k._definition([("in", F4, F4)], {"T": F4}, F4, "float", 4)
    name, src = d.source(Stage("map", "out", 32, 4, 4, 1, 1, numpy.int32))
    assert name == "l2norm_float32__g32__o1r1__vec4"
    assert "typedef float T;" in src and "y = sqrt(a);" in src and "${" not in src
    compiler.compile_cubin(src, arch="sm_90")
    assert isinstance(KernelParam, type)


def test_map_expr_with_braces_compiles():
    # A map expression may use braced initialisers; the generator must not read them as holes.
    k = ReductionKernel("T x", "T y", "T{x} * T{2}", "a + b", "y = a", "0", "twice_sum")
    F4 = numpy.dtype("f4")
    d = k._definition([("in", F4, F4)], {"T": F4}, F4, "float", 4)
    for st in (Stage("map", "out", 32, 4, 4, 1, 1, numpy.int32), Stage("map", "out", 256, 1, 1, 1, 2, numpy.int64)):
        name, src = d.source(st)
        assert "T{x} * T{2}" in src
        compiler.compile_cubin(src, arch="sm_90")


def test_fused_plans_and_kernels_compile():
    # Split reductions whose second pass is one block's short work run as one launch.
    p = plan((100_000,), [(4,)], [4], (), (0,), aligned=(True,))
    assert p.split > 1 and p.fused
    p = plan((1000, 100), [(400, 4)], [4], (4,), (0,), aligned=(True,))
    assert p.strategy == "cols" and p.split > 1 and p.grid2 == 1 and p.fused
    p = plan((16384, 16384), [(65536, 4)], [4], (4,), (0,), aligned=(True,))
    assert p.split > 1 and not p.fused                                   # many outputs: second launch
    p = plan((100_000,), [(4,)], [4], (), (0,), aligned=(True,), allow_fuse=False)
    assert not p.fused
    stages = [Stage("map", "fused", 256, 8, 4, 0, 1, numpy.int32, 256, 8),
              Stage("map", "fused", 1, 8, 1, 1, 1, numpy.int32, 1, 8),
              Stage("map", "fused", 32, 8, 1, 1, 2, numpy.int64, 32, 8)]
    rows = [("sum", "f"), ("sum", "?"), ("prod", "D"), ("max", "e"), ("any", "d"), ("argmax", "f"),
            ("nanargmin", "d"), ("count_nonzero", "F"), ("all", "b")]
    out = []
    for k, (op, c) in enumerate(rows):
        dt = numpy.dtype(c)
        o = R.OPS[op]
        res = R.result_dtype(o.np_fn, dt)
        acc = R.acc_dtype_for(o, dt, res)
        post = "y = a.i" if o.acc == "arg" else R._POST_CAST
        d = R._definition(o, ((dt, R._compute_for(o, dt, acc)),), ("x",), acc, res, k % 4 == 3, post, ())
        name, src = d.source(stages[k % 3])
        assert "__fused" in name and "load_cg(_part_out" in src and "${" not in src
        out.append(src)
    cubin, _ = compiler.compile_cubin("\n".join(out), arch="sm_90")
    assert cubin[:4] == b"\x7fELF"


@pytest.mark.parametrize("n_red, strategy", [(2, "cols"), (15, "cols"), (63, "cols"), (64, "rows"), (4096, "rows")])
def test_short_contiguous_rows_get_a_thread_each(n_red, strategy):
    """Rows under 64 elements that 16-byte loads cannot take (odd lengths: rows misaligned): a
    thread per output (a warp per 16-element row was 3.6x slower on an H100: the `_WARP_ROW`
    sweep in scripts/perf/shapes_sweep.py)."""
    n_out = 1 << 20
    p = plan((n_out, n_red), [(4 * n_red, 4)], [4], (4,), (1,), aligned=(True,), sm_count=132)
    assert p.strategy == strategy
    p = plan((n_out, n_red), [(4 * n_red, 4)], [4], (4,), (1,), aligned=(False,), sm_count=132)
    assert p.vec == 1 and p.strategy == strategy


@pytest.mark.parametrize("n_red, n_out", [(1_000_000, 4), (1_000_000, 32), (4_000_000, 2), (5000, 100), (70_001, 3)])
def test_few_outputs_along_a_fast_kept_axis_are_sub_chunked(monkeypatch, n_red, n_out):
    """`sum(axis=0)` of (n_red, n_out), n_out small: sub-chunks of a block share each chunk (the
    kernel's mapping, mirrored here): every element is read once, by a thread of its own output,
    into a partial of its own; a warp's threads read consecutive addresses; the partials stay few.
    Output vectors off (tests/_core/test_row_tiles_cpu.py has theirs)."""
    monkeypatch.setattr(reduction_plan, "_OUT_VEC", 0)
    p = plan((n_red, n_out), [(4 * n_out, 4)], [4], (4,), (0,), aligned=(True,), sm_count=132)
    assert p.group == 1 and p.sub > 1 and p.sub * n_out <= 256 and p.grid_x == 1
    assert p.parts == p.split * p.sub and p.parts * n_out <= reduction_plan._SUB_PARTS + p.sub * n_out
    gpb = 256 // p.sub
    seen = numpy.zeros((n_out, n_red), dtype=numpy.int8)
    for c in range(p.split):
        r0, r1 = c * p.chunk, min((c + 1) * p.chunk, n_red)
        for t in range(256):
            o, lane = t % gpb, t // gpb
            if o >= n_out:
                continue
            assert c * p.sub + lane < p.parts
            seen[o, r0 + lane:r1:p.sub] += 1
    assert seen.min() == 1 and seen.max() == 1  # every element of every output exactly once
    # warp 0: threads 0..31 read rows r0 + t // gpb, columns t % gpb: consecutive addresses
    offs = [(t // gpb) * 4 * n_out + (t % gpb) * 4 for t in range(32) if t % gpb < n_out]
    assert offs == sorted(offs) and (gpb != n_out or offs == list(range(0, 4 * len(offs), 4)))


def test_sub_chunked_kernels_compile(monkeypatch):
    monkeypatch.setattr(reduction_plan, "_OUT_VEC", 0)
    p = plan((1_000_000, 4), [(16, 4)], [4], (4,), (0,), aligned=(True,), sm_count=132)
    d = R._definition(R.OPS["sum"], ((numpy.dtype("f"), numpy.dtype("f")),), ("x",), numpy.dtype("f"),
                      numpy.dtype("f"), False, R._POST_CAST, ())
    srcs = {}
    for st, grid, role in d.stages(p):
        name, src = d.source(st)
        assert "${" not in src
        if role in ("first", "fused"):
            assert "sub{}".format(p.sub) in name and "blockIdx.y * {} + _lane".format(p.sub) in src
        srcs[name] = src
    for fused in (True, False):  # both forms of the second pass
        st = d.stages(p)[0][0]._replace(dst="fused" if fused else "part", group2=256, unroll2=8)
        name, src = d.source(st)
        srcs[name] = src
    assert len(srcs) >= 2
    cubin, _ = compiler.compile_cubin("\n".join(srcs.values()), arch="sm_90")
    assert cubin[:4] == b"\x7fELF"


def _replay_rows(p, n_out, n_red):
    """The pass skeleton's walk of a row plan (group G lanes, `vec`-element loads), mirrored: the
    (output, element) pairs each thread folds and stores, per block and thread; checks that every
    element of every output is folded once, into its own output, that groups past the end store
    nothing and read only valid elements (the clamped last output), and that every lane of a warp
    makes the same number of output-loop rounds when G > 1 (the shuffles need the whole warp)."""
    G, vec, gpb = p.group, p.vec, 256 // p.group
    assert p.split == 1 and p.sub == 1 and p.rows == 0
    seen = numpy.zeros((n_out, n_red), dtype=numpy.int64)
    stores = numpy.zeros(n_out, dtype=numpy.int64)
    for bx in range(p.grid_x):
        rounds = {}
        for t in range(256):
            o = bx * gpb + t // G
            lane = t % G
            k = 0
            while (o - (t & 31) // G < n_out) if 1 < G < 32 else (o < n_out):
                q = min(o, n_out - 1) if 1 < G < 32 else o
                folded = []
                jv = lane
                v1 = n_red // vec if vec > 1 else 0
                while jv < v1:
                    folded += range(jv * vec, jv * vec + vec)
                    jv += G
                j = v1 * vec + lane
                while j < n_red:
                    folded.append(j)
                    j += G
                if o < n_out:
                    seen[q, folded] += 1
                    stores[o] += lane == 0
                else:
                    assert 1 < G < 32 and q == n_out - 1  # recomputes a real output, stores nothing
                o += p.grid_x * gpb
                k += 1
            rounds[t] = k
        for w in range(8 if G > 1 else 0):  # a thread per row has no shuffles
            assert len({rounds[t] for t in range(32 * w, 32 * w + 32)}) == 1
    assert seen.min() == 1 and seen.max() == 1 and numpy.all(stores == 1)


@pytest.mark.parametrize("n_red", [2, 4, 8, 12, 16, 20, 32, 40, 64, 96, 100, 128, 200])
@pytest.mark.parametrize("itemsize", [4, 8, 2])
@pytest.mark.parametrize("lane_vecs", [1, 2, 4])
def test_short_aligned_rows_get_lane_groups_with_vector_loads(monkeypatch, n_red, itemsize, lane_vecs):
    """Rows of adjacent, 16-byte aligned elements: a power-of-two group of lanes per row, each lane
    about `_LANE_VECS` 16-byte loads; n_out not a multiple of the groups per warp (the last warp's
    tail groups). The one-pass skeleton's plans: row tiles off (tested below)."""
    monkeypatch.setattr(reduction_plan, "_LANE_VECS", lane_vecs)
    monkeypatch.setattr(reduction_plan, "_ROW_TILE", 0)
    v = 16 // itemsize
    n_out = 1000 + 7
    if (n_red * itemsize) % 16:
        pytest.skip("rows not 16-byte aligned")
    p = plan((n_out, n_red), [(itemsize * n_red, itemsize)], [itemsize], (itemsize,), (1,), aligned=(True,),
             sm_count=2)
    assert p.vec == v and p.group & (p.group - 1) == 0 and 1 <= p.group <= 32
    if n_red < 32 * v * lane_vecs:
        assert p.group * v * lane_vecs <= n_red < 2 * p.group * v * lane_vecs or p.group == 1
    _replay_rows(p, n_out, n_red)


def test_lane_groups_off_and_other_layouts(monkeypatch):
    p = plan((1000, 16), [(64, 4)], [4], (4,), (1,), aligned=(True,))
    assert (p.group, p.vec) == (2, 4)
    p = plan((1000, 16), [(128, 4)], [4], (4,), (1,), aligned=(True,))  # x[:, :16] of (1000, 32)
    assert (p.group, p.vec) == (2, 4)
    p = plan((1000, 16), [(68, 4)], [4], (4,), (1,), aligned=(True,))  # rows 68 bytes apart
    assert (p.group, p.vec) == (1, 1)
    p = plan((1000, 16), [(128, 8)], [4], (4,), (1,), aligned=(True,))  # x[:, ::2]
    assert (p.group, p.vec) == (1, 1)
    p = plan((1000, 16), [(-64, 4)], [4], (4,), (1,), aligned=(True,))  # x[::-1]
    assert p.vec == 4
    p = plan((1000, 16), [(64, -4)], [4], (4,), (1,), aligned=(True,))  # x[:, ::-1]
    assert p.vec == 1
    p = plan((1000, 16), [(64, 4)], [4], (4,), (1,), aligned=(True,), keep_order=True)  # argmax
    assert (p.group, p.vec) == (2, 4)
    p = plan((1000, 4), [(16, 4), (0, 4)], [4, 4], (4,), (1,), aligned=(True, True))  # x, and a row broadcast
    assert p.vec == 4
    p = plan((1000, 4), [(16, 4), (16, 4)], [4, 8], (4,), (1,), aligned=(True, True))  # mixed item sizes
    assert p.vec == 1
    monkeypatch.setattr(reduction_plan, "_LANE_VECS", 0)
    p = plan((1000, 16), [(64, 4)], [4], (4,), (1,), aligned=(True,))
    assert (p.group, p.vec) == (1, 1)
    p = plan((1000, 64), [(256, 4)], [4], (4,), (1,), aligned=(True,))
    assert (p.group, p.vec) == (32, 1)


@pytest.mark.nvrtc_fast
def test_lane_group_kernels_compile():
    """Groups of 1 (vector loads), 2, 4, 8, 16 lanes: sum, argmax (in-order step), nanmax, a fused
    producer through ReductionKernel, 32- and 64-bit indices, float64 and float16."""
    srcs = {}
    rows = [("sum", "f"), ("argmax", "f"), ("nanmax", "d"), ("sum", "e"), ("nansum", "d"), ("argmin", "e")]
    for k, (op, c) in enumerate(rows):
        dt = numpy.dtype(c)
        o = R.OPS[op]
        res = R.result_dtype(o.np_fn, dt)
        acc = R.acc_dtype_for(o, dt, res)
        post = "y = a.i" if o.acc == "arg" else R._POST_CAST
        d = R._definition(o, ((dt, R._compute_for(o, dt, acc)),), ("x",), acc, res, False, post, ())
        for g in (1, 2, 4, 8, 16):
            st = Stage("map", "out", g, 8, 16 // dt.itemsize, 1 + k % 2, 1, numpy.int32 if k % 3 else numpy.int64)
            name, src = d.source(st)
            assert "${" not in src
            if g > 1:
                assert "_o - (int)((threadIdx.x & 31) / _G) < _n_out" in src and "if (_o < _n_out)" in src
            srcs[name] = src
    # the other groups' code is as it was: no warp-uniform loop, no clamp
    d = R._definition(R.OPS["sum"], ((numpy.dtype("f"), numpy.dtype("f")),), ("x",), numpy.dtype("f"),
                      numpy.dtype("f"), False, R._POST_CAST, ())
    for g in (1, 32, 256):
        src = d.source(Stage("map", "out", g, 8, 4, 1, 1, numpy.int32))[1]
        assert "_o < _n_out;" in src and "(threadIdx.x & 31) / _G" not in src and "_n_out - 1" not in src
    k = ReductionKernel("T x", "T y", "exp(x)", "a + b", "y = a", "0", "sumexp_rows")
    F8 = numpy.dtype("f8")
    kd = k._definition([("in", F8, F8)], {"T": F8}, F8, "double", 8)
    name, src = kd.source(Stage("map", "out", 4, 8, 2, 1, 1, numpy.int32))
    srcs[name] = src
    cubin, _ = compiler.compile_cubin("\n".join(srcs.values()), arch="sm_90")
    assert cubin[:4] == b"\x7fELF"


@pytest.mark.parametrize("shape, axis, unroll", [((2, 4_000_000), 0, 2), ((3, 1000), 0, 3), ((7, 100), 0, 7),
                                                 ((4_000_000, 3), 1, 3), ((1000, 5), 1, 5), ((8, 1000), 0, 8),
                                                 ((1000, 9), 1, 8)])
def test_short_walks_unroll_by_their_length(monkeypatch, shape, axis, unroll):
    """A thread walking fewer elements than _UNROLL_COLS takes them in one unrolled round; the
    replay still sums every element once."""
    shape = (shape[0], min(shape[1], 1000)) if axis == 0 else (min(shape[0], 1000), shape[1])
    host = numpy.random.default_rng(3).standard_normal(shape).astype(numpy.float32)
    p = plan(host.shape, [host.strides], [4], (4,), (axis,), aligned=(True,), sm_count=132)
    assert p.group == 1 and p.vec == 1 and p.unroll == unroll
    got = _replay_sum(p, host.view(numpy.uint8).ravel(), 0, numpy.float32)
    want = host.sum(axis=axis, dtype=numpy.float64)
    numpy.testing.assert_allclose([got[4 * i] for i in range(want.size)], want, rtol=1e-6, atol=1e-6)
    monkeypatch.setattr(reduction_plan, "_SHORT_UNROLL", 0)
    assert plan(host.shape, [host.strides], [4], (4,), (axis,), aligned=(True,)).unroll == 8


def test_odd_unrolls_compile():
    srcs = {}
    for k, (op, c) in enumerate([("sum", "f"), ("argmax", "d"), ("nanmin", "e")]):
        dt = numpy.dtype(c)
        o = R.OPS[op]
        res = R.result_dtype(o.np_fn, dt)
        acc = R.acc_dtype_for(o, dt, res)
        post = "y = a.i" if o.acc == "arg" else R._POST_CAST
        d = R._definition(o, ((dt, R._compute_for(o, dt, acc)),), ("x",), acc, res, False, post, ())
        for u in (2, 3, 5, 7):
            srcs.setdefault(u, []).append(d.source(Stage("map", "out", 1, u, 1, 1, 1,
                                                         numpy.int32 if u % 2 else numpy.int64))[1])
    for u, group in srcs.items():  # one module per unroll: the kernel name does not hold it
        cubin, _ = compiler.compile_cubin("\n".join(group), arch="sm_90")
        assert cubin[:4] == b"\x7fELF"


ND_CASES = [
    ((64, 1024, 256), (0, 2), None, None),           # mean(axis=(0, 2))
    ((8, 30, 16), (0, 2), None, None),
    ((6, 5, 12), (0, 2), (slice(None, None, -1), slice(None), slice(None)), None),  # reversed outer dim
    ((4, 3, 8, 8), (0, 1, 3), None, (1, 0, 2, 3)),   # transposed outer dims
    ((5, 7, 6), (0, 2), None, None),                 # last dim 6: not a multiple of 4 -> scalar
    ((5, 7, 8), (0, 2), (slice(None), slice(None), slice(None, None, 2)), None),  # strided last dim
]


@pytest.mark.parametrize("shape, raxes, index, perm", ND_CASES, ids=str)
def test_vector_loads_over_several_reduced_dims(shape, raxes, index, perm):
    """The kernel's vector index -> bytes mapping over non-collapsing reduced dims (mirrored from
    `_pass`): vector jv's `vec` elements are exactly the flat reduced elements jv*vec .. jv*vec+vec-1
    (the C order argmax relies on), each 16-byte aligned; the plan's replay sums every element once."""
    host = numpy.random.default_rng(4).standard_normal(shape).astype(numpy.float32)
    view = host if index is None else host[index]
    if perm is not None:
        view = view.transpose(perm)
    base = view.__array_interface__["data"][0] - host.__array_interface__["data"][0]
    kshape = tuple(d for i, d in enumerate(view.shape) if i not in raxes)
    y_strides = tuple(numpy.empty(kshape, numpy.float32).strides)
    p = plan(view.shape, [view.strides], [4], y_strides, raxes, aligned=(True,), keep_order=True)
    rd, rs = p.red_dims, p.red_strides[0]
    ok = len(rd) > 1 and rs[-1] == 4 and rd[-1] % 4 == 0 and all(s % 16 == 0 for s in rs[:-1] + p.out_strides[1])
    assert p.vec == (4 if ok else 1)
    if p.vec == 4:
        last, v = len(rd) - 1, 4
        for jv in range(min(p.n_red // v, 2000)):
            pv = jv
            mv = [0] * len(rd)
            mv[last] = pv % (rd[last] // v)
            pv //= rd[last] // v
            for d in range(last - 1, 0, -1):
                mv[d] = pv % rd[d]
                pv //= rd[d]
            mv[0] = pv
            off = sum(mv[d] * rs[d] for d in range(last)) + mv[last] * 16
            want = [sum(a * b for a, b in zip(_unravel(jv * v + k, rd), rs)) for k in range(v)]
            assert want == [off + 4 * k for k in range(v)] and off % 16 == 0
    if host.size > 100_000:
        return  # the replay walks every element in Python
    got = _replay_sum(p, host.view(numpy.uint8).ravel(), base, numpy.float32)
    expect = view.sum(axis=raxes, dtype=numpy.float64)
    flat = numpy.zeros(max(1, math.prod(kshape)))
    for o, val in got.items():
        flat[o // 4] = val
    numpy.testing.assert_allclose(flat[: expect.size].reshape(expect.shape), expect, rtol=1e-5, atol=1e-5)


def test_vector_loads_over_several_dims_compile(monkeypatch):
    srcs = {}
    for k, (op, c) in enumerate([("sum", "f"), ("argmax", "f"), ("nanmax", "d"), ("sum", "e")]):
        dt = numpy.dtype(c)
        o = R.OPS[op]
        res = R.result_dtype(o.np_fn, dt)
        acc = R.acc_dtype_for(o, dt, res)
        post = "y = a.i" if o.acc == "arg" else R._POST_CAST
        d = R._definition(o, ((dt, R._compute_for(o, dt, acc)),), ("x",), acc, res, False, post, ())
        for g, rnd in ((256, 2), (32, 3), (4, 2)):
            name, src = d.source(Stage("map", "out", g, 8, 16 // dt.itemsize, 1, rnd,
                                       numpy.int64 if g == 32 else numpy.int32))
            assert "_mv{} * {}".format(rnd - 1, 16) in src and "${" not in src
            srcs[name] = src
    o = R.OPS["sqdev"]  # var: x and its broadcast mean, two inputs
    F = numpy.dtype("f4")
    d = R._definition(o, ((F, F), (F, F)), ("x", "m"), F, F, False, R._POST_CAST, ())
    name, src = d.source(Stage("map", "out", 256, 8, 4, 1, 2, numpy.int32))
    assert "_rsm_1 ?" in src
    srcs[name] = src
    cubin, _ = compiler.compile_cubin("\n".join(srcs.values()), arch="sm_90")
    assert cubin[:4] == b"\x7fELF"
    monkeypatch.setattr(reduction_plan, "_VEC_ND", 0)
    assert plan((64, 1024, 256), [(2**20, 1024, 4)], [4], (4,), (0, 2), aligned=(True,)).vec == 1


@pytest.mark.parametrize("n_red, pitch", [(10, 16), (6, 8), (13, 16), (50, 64), (3, 4), (70, 128)])
def test_lane_groups_on_padded_rows(n_red, pitch):
    """x[:, :n_red] of a (rows, pitch) float32 array: rows 16-byte aligned, lengths not a multiple
    of the vector (the scalar tail after the vectors)."""
    p = plan((1003, n_red), [(4 * pitch, 4)], [4], (4,), (1,), aligned=(True,), sm_count=2)
    assert p.vec == (4 if n_red >= 4 else 1)
    _replay_rows(p, 1003, n_red)
