"""Row tiles (`reduction_plan._ROW_TILE`), longer sub-chunk walks (`_UNROLL_SUB`) and output vectors
(`_OUT_VEC`) without a GPU: which plans take them, their index walks replayed on the host (every
element once, stores once, warp-uniform loops and branches, the block's fixed combining order),
NVRTC compiles of their kernels, and the one-pass skeleton's kernels unchanged byte for byte (their
disk-cache entries stay valid)."""

import hashlib

import numpy
import pytest

from cuarray._core import reduction
from cuarray._core import reduction_plan
from cuarray._core import reduction_ops as R
from cuarray._core.reduction import Stage, plan
from cuarray._core.reduction_kernel import ReductionKernel
from cuarray.cuda import compiler


def _def(op, c):
    dt = numpy.dtype(c)
    if op == "moments":
        return R._definition(R.OPS[op], ((dt, dt),), ("x",), dt, dt, False,
                             "y = cuarray::cast<float>(a.m2 / _val_t(_div))", (("_div", numpy.dtype("d")),), "var")
    o = R.OPS[op]
    res = R.result_dtype(o.np_fn, dt)
    acc = R.acc_dtype_for(o, dt, res)
    post = "y = a.i" if o.acc == "arg" else R._POST_CAST
    return R._definition(o, ((dt, R._compute_for(o, dt, acc)),), ("x",), acc, res, False, post, ())


def test_one_pass_kernels_unchanged():
    """2601 sources of the one-pass skeleton (every group, vector, unroll, sub-chunk and fused form
    over nine reductions), digest taken on the code before row tiles (commit 3195283)."""
    h, n = hashlib.sha256(), 0
    for op, c in [("sum", "f"), ("argmax", "f"), ("nanmax", "d"), ("sum", "e"), ("moments", "f"), ("max", "f"),
                  ("nansum", "d"), ("argmin", "e"), ("sum", "d")]:
        d = _def(op, c)
        for dst in ("out", "part", "fused"):
            for g in (1, 2, 4, 8, 16, 32, 256):
                for vec in (1, 2, 4, 8):
                    for un in (2, 3, 8):
                        for sub in (1, 64):
                            if sub > 1 and g > 1:
                                continue
                            st = Stage("map", dst, g, un, vec, 1, 1, numpy.int32, 256 if dst == "fused" else 0,
                                       8 if dst == "fused" else 0, sub)
                            h.update(d.source(st)[1].encode())
                            n += 1
        h.update(d.source(Stage("part", "out", 256, 8, 1, 2, 1, numpy.int64))[1].encode())
        n += 1
    assert (n, h.hexdigest()) == (2601, "7fa8b7548a0206bf44e6b7ab15a10350d1f8e1eaafeca54974b6815b5c62866d")


def _rows_plan(n_out, n_red, itemsize=4, pitch=None, **kw):
    pitch = n_red if pitch is None else pitch
    return plan((n_out, n_red), [(itemsize * pitch, itemsize)], [itemsize], (itemsize,), (1,), aligned=(True,), **kw)


@pytest.mark.parametrize("n_out, n_red, itemsize, want", [
    (4_000_000, 4, 4, (1, 1, 8)), (16_000_000, 4, 4, (1, 1, 8)), (2_000_000, 8, 4, (1, 2, 4)),
    (1_000_000, 16, 4, (2, 2, 4)), (4_000_000, 16, 4, (2, 2, 4)), (400_000, 2, 8, (1, 1, 4)),
    (2_000_000, 8, 8, (2, 2, 4)), (500_000, 64, 4, (8, 2, 4)), (1_000_000, 12, 4, (1, 3, 2)),
    (1000, 8, 2, (1, 1, 1)), (7, 4, 4, (1, 1, 1)), (200_000, 4, 4, (1, 1, 2)), (600_000, 4, 4, (1, 1, 8)),
])
def test_short_aligned_rows_take_row_tiles(n_out, n_red, itemsize, want):
    """Rows per group: max(1, _ROW_TILE / M), fewer (a power of two) while the grid would be under
    2 blocks an SM (132 SMs: 67 584 rows of one vector for 8 rows a thread)."""
    p = _rows_plan(n_out, n_red, itemsize)
    assert (p.group, p.mvec, p.rows) == want and p.vec == 16 // itemsize
    assert p.parts == 1 and p.group * p.mvec * p.vec == n_red
    assert p.grid_x == -(-n_out // (256 // p.group * p.rows))


@pytest.mark.parametrize("n_red, pitch, itemsize", [(100, 100, 4), (40, 40, 4), (3, 3, 4), (16, 17, 4), (6, 6, 4),
                                                    (64, 64, 4), (200, 200, 4)])
def test_rows_without_an_exact_tile_keep_the_one_pass_plan(n_red, pitch, itemsize):
    """Rows not a whole number of vectors, vectors not shared evenly by the lane group, or more than
    8 vectors a lane (rows of 100, 40: 25 and 10 vectors over 8 lanes), unaligned rows."""
    p = _rows_plan(10_000, n_red, itemsize, pitch)
    if (n_red, pitch) == (64, 64):
        assert p.rows  # 16 vectors over 8 lanes: a tile
        return
    assert p.rows == 0 and p.mvec == 0


def test_row_tiles_off_and_other_layouts(monkeypatch):
    n = 1_000_000
    p = plan((n, 16), [(128, 8)], [4], (4,), (1,), aligned=(True,))  # x[:, ::2]
    assert p.rows == 0
    p = plan((n, 16), [(-64, 4)], [4], (4,), (1,), aligned=(True,))  # x[::-1]
    assert p.rows == 4
    p = plan((n, 16), [(64, 4)], [4], (4,), (1,), aligned=(False,))  # not 16-byte aligned
    assert p.rows == 0
    p = plan((3000, 2000, 16), [(128000, 64, 4)], [4], (8000, 4), (2,), aligned=(True,))  # two kept dims
    assert p.rows == 4 and len(p.out_dims) == 1
    p = plan((3000, 2000, 16), [(256000, 64, 4)], [4], (8000, 4), (2,), aligned=(True,))  # kept dims apart
    assert p.rows == 4 and len(p.out_dims) == 2
    p = plan((n, 4, 4), [(64, 16, 4)], [4], (4,), (1, 2), aligned=(True,))  # reduced dims collapse
    assert p.rows == 4 and len(p.red_dims) == 1
    p = plan((n, 2, 8), [(128, 64, 4)], [4], (4,), (1, 2), aligned=(True,))  # two reduced dims: no tile
    assert p.rows == 0
    p = plan((n, 16), [(64, 4)], [4], (4,), (1,), aligned=(True,), keep_order=True)  # argmax
    assert p.rows == 4
    p = plan((1000, 16), [(64, 4)], [4], (4,), (1,), aligned=(True,))  # few rows: one a group
    assert p.rows == 1
    monkeypatch.setattr(reduction_plan, "_ROW_TILE", 0)
    p = plan((n, 16), [(64, 4)], [4], (4,), (1,), aligned=(True,))
    assert (p.group, p.vec, p.rows) == (2, 4, 0)
    for tile, rows in ((1, 1), (4, 2), (16, 8)):
        monkeypatch.setattr(reduction_plan, "_ROW_TILE", tile)
        assert plan((n, 16), [(64, 4)], [4], (4,), (1,), aligned=(True,)).rows == rows


def _replay_tile(p, n_out, grid_x=None):
    """The tile pass's walk (reduction.cu @@tile@@) on the host: every row read and stored once, rows
    past the end clamped and not stored, the loop and the full/tail branch the same for a warp."""
    G, Rr = p.group, p.rows
    gpb = 256 // G
    grid_x = p.grid_x if grid_x is None else grid_x
    stores = numpy.zeros(n_out, dtype=numpy.int64)
    for bx in range(grid_x):
        trace = {}
        for t in range(256):
            ot = bx * gpb * Rr + t // G
            lane = t % G
            path = []
            while ot - (t & 31) // G < n_out:
                full = ot - (t & 31) // G + (32 // G - 1) + (Rr - 1) * gpb < n_out
                path.append(full)
                for r in range(Rr):
                    o = ot + r * gpb
                    q = min(o, n_out - 1)
                    assert 0 <= q < n_out
                    if full:
                        assert o < n_out  # the full branch stores without a test
                    if lane == 0 and o < n_out:
                        stores[o] += 1
                ot += grid_x * gpb * Rr
            trace[t] = path
        for w in range(8):
            assert len({tuple(trace[t]) for t in range(32 * w, 32 * w + 32)}) == 1
    assert numpy.all(stores == 1)


@pytest.mark.parametrize("n_out", [2, 3, 31, 32, 33, 255, 257, 2048, 2049, 5000])
@pytest.mark.parametrize("n_red, itemsize", [(4, 4), (16, 4), (64, 4), (2, 8), (12, 4), (128, 4)])
def test_tile_walk_replays(n_out, n_red, itemsize):
    p = _rows_plan(n_out, n_red, itemsize)
    assert p.rows
    _replay_tile(p, n_out)
    for rows in (2, 8):  # several rows a group whatever the size (the kernel takes any)
        p.rows = rows
        p.grid_x = -(-n_out // (256 // p.group * rows))
        _replay_tile(p, n_out)
        _replay_tile(p, n_out, grid_x=max(1, p.grid_x // 3))  # a capped grid: the loop's later rounds


@pytest.mark.nvrtc_fast
def test_tile_kernels_compile():
    """Groups of 1-32 lanes, 1-8 vectors a lane, 1-16 rows; sum, argmax, nanmax, var (moments),
    nansum, argmin over float32/64/16, int32/64, complex64; 32- and 64-bit indices, two kept dims,
    a fused producer and a second input broadcast along the row (ReductionKernel)."""
    srcs = {}
    rows = [("sum", "f"), ("argmax", "f"), ("nanmax", "d"), ("sum", "e"), ("moments", "f"), ("nansum", "d"),
            ("argmin", "e"), ("sum", "i"), ("max", "l"), ("sum", "F"), ("moments", "d")]
    shapes = [(1, 1, 8), (1, 2, 4), (2, 2, 4), (4, 1, 8), (8, 2, 4), (16, 1, 16), (32, 3, 2), (1, 8, 1), (2, 5, 1)]
    for k, (op, c) in enumerate(rows):
        d = _def(op, c)
        isz = numpy.dtype(c).itemsize
        for i, (g, m, r) in enumerate(shapes[k % 3::3] if k > 1 else shapes):
            it = numpy.int64 if (k + i) % 3 == 0 else numpy.int32
            st = Stage("map", "out", g, 1, 16 // isz, 1 + (k + i) % 2, 1, it, rows=r, mvec=m)
            name, src = d.source(st)
            assert "${" not in src and "tile{}x{}".format(r, m) in name
            srcs[name] = src
    F8 = numpy.dtype("f8")
    k = ReductionKernel("T x", "T y", "exp(x)", "a + b", "y = a", "0", "sumexp_tile")
    kd = k._definition([("in", F8, F8)], {"T": F8}, F8, "double", 8)
    name, src = kd.source(Stage("map", "out", 1, 1, 2, 1, 1, numpy.int32, rows=8, mvec=1))
    srcs[name] = src
    F4 = numpy.dtype("f4")
    k2 = ReductionKernel("T x, T m", "T y", "(x - m) * (x - m)", "a + b", "y = a", "0", "sqdev_tile")
    kd2 = k2._definition([("in", F4, F4), ("in", F4, F4)], {"T": F4}, F4, "float", 4)
    name, src = kd2.source(Stage("map", "out", 2, 1, 4, 1, 1, numpy.int32, rows=4, mvec=2))
    srcs[name] = src
    cubin, _ = compiler.compile_cubin("\n".join(srcs.values()), arch="sm_90")
    assert cubin[:4] == b"\x7fELF"


def test_tile_plans_launch_one_tile_stage():
    p = _rows_plan(1_000_000, 16)
    d = _def("sum", "f")
    assert p.rows == 4
    (st, grid, role), = d.stages(p)
    assert (st.rows, st.mvec, st.group, st.vec, grid, role) == (4, 2, 2, 4, (p.grid_x, 1), "only")
    assert "__tile4x2__" in d.kernel_name(st)


@pytest.mark.parametrize("n_red, n_out", [(1_000_000, 4), (16_000_000, 4), (1_000_000, 32), (400_000, 2),
                                          (70_001, 3)])
def test_sub_chunked_walks_take_unroll_sub(monkeypatch, n_red, n_out):
    monkeypatch.setattr(reduction_plan, "_OUT_VEC", 0)  # the scalar sub-chunk layout
    p = plan((n_red, n_out), [(4 * n_out, 4)], [4], (4,), (0,), aligned=(True,), sm_count=132)
    assert p.sub > 1 and p.unroll == reduction_plan._UNROLL_SUB
    assert p.chunk % (p.unroll * p.sub) == 0 or p.split == 1
    assert p.split * p.chunk >= n_red and (p.split - 1) * p.chunk < n_red
    monkeypatch.setattr(reduction_plan, "_UNROLL_SUB", 0)
    assert plan((n_red, n_out), [(4 * n_out, 4)], [4], (4,), (0,), aligned=(True,)).unroll == reduction_plan._UNROLL_COLS
    monkeypatch.setattr(reduction_plan, "_UNROLL_SUB", 32)
    p = plan((n_red, n_out), [(4 * n_out, 4)], [4], (4,), (0,), aligned=(True,))
    assert p.unroll == 32 and p.split * p.chunk >= n_red


def test_sub_chunked_walk_replays_with_unroll_sub(monkeypatch):
    """The kernel's sub-chunk walk with 32 accumulators (thread t: output t % gpb, elements from
    t / gpb in steps of sub, unrolled rounds then the remainder), every element once."""
    monkeypatch.setattr(reduction_plan, "_UNROLL_SUB", 32)
    monkeypatch.setattr(reduction_plan, "_OUT_VEC", 0)
    n_red, n_out = 70_001, 3
    p = plan((n_red, n_out), [(4 * n_out, 4)], [4], (4,), (0,), aligned=(True,), sm_count=132)
    U, S = p.unroll, p.sub
    gpb = 256 // S
    seen = numpy.zeros((n_out, n_red), dtype=numpy.int64)
    for c in range(p.split):
        r0, r1 = c * p.chunk, min((c + 1) * p.chunk, n_red)
        for t in range(256):
            o, lane = t % gpb, t // gpb
            if o >= n_out:
                continue
            j0 = r0 + lane
            while j0 + (U - 1) * S < r1:
                seen[o, j0:j0 + U * S:S] += 1
                j0 += U * S
            while j0 < r1:
                seen[o, j0] += 1
                j0 += S
    assert seen.min() == 1 and seen.max() == 1


def test_sub_chunked_kernels_with_unroll_sub_compile():
    for un in (16, 32):  # the unroll is not in the kernel's name: one translation unit each
        srcs = [_def(op, c).source(Stage("map", "part", 1, un, 1, 1, 1, numpy.int32, sub=64))[1]
                for op, c in [("sum", "f"), ("moments", "f"), ("argmax", "d"), ("nansum", "e")]]
        compiler.compile_cubin("\n".join(srcs), arch="sm_90")


# -- output vectors ---------------------------------------------------------------------------------

@pytest.mark.parametrize("n_red, n_out, itemsize, want", [
    (1_000_000, 4, 4, (4, 256)), (16_000_000, 4, 4, (4, 256)), (1_000_000, 32, 4, (4, 32)),
    (400_000, 2, 8, (2, 256)), (1_000_000, 8, 4, (4, 128)), (100_000, 16, 8, (2, 32)), (50_000, 64, 2, (8, 32)),
    (1_000_000, 128, 4, (4, 8)),
])
def test_few_aligned_outputs_take_output_vectors(n_red, n_out, itemsize, want):
    p = plan((n_red, n_out), [(itemsize * n_out, itemsize)], [itemsize], (itemsize,), (0,), aligned=(True,),
             sm_count=132)
    assert (p.ovec, p.sub) == want and p.group == 1 and p.vec == 1 and p.grid_x == 1
    assert p.parts == p.split  # one partial a block and output
    assert p.split * p.chunk >= n_red and (p.split - 1) * p.chunk < n_red
    assert p.split == 1 or p.chunk % (p.unroll * p.sub) == 0
    assert p.unroll * p.ovec * 4 <= 128 and p.unroll >= 1


@pytest.mark.parametrize("shape, strides, itemsize, aligned", [
    ((100_000, 3), (12, 4), 4, True),  # 3 outputs: not a multiple of the vector
    ((100_000, 6), (24, 4), 4, True),  # rows 24 bytes apart: not every row aligned
    ((100_000, 4), (16, 4), 4, False),  # pointer not aligned
    ((100_000, 4), (16, -4), 4, True),  # x[:, ::-1]
    ((100_000, 4), (32, 8), 4, True),  # x[:, ::2]
    ((100_000, 4), (16, 4), 16, True),  # complex128: one output a load already
    ((100_000, 256), (1024, 4), 4, True),  # 256 outputs: not sub-chunked
])
def test_output_vectors_need_adjacent_aligned_outputs(shape, strides, itemsize, aligned):
    p = plan(shape, [strides], [itemsize], (itemsize,), (0,), aligned=(aligned,), sm_count=132)
    assert p.ovec == 0


def test_output_vectors_other_layouts(monkeypatch):
    p = plan((100_000, 4), [(-16, 4)], [4], (4,), (0,), aligned=(True,))  # x[::-1]
    assert p.ovec == 4
    p = plan((100_000, 8), [(64, 4)], [4], (4,), (0,), aligned=(True,))  # x[:, :8] of (n, 16)
    assert p.ovec == 4
    p = plan((100_000, 4), [(16, 4)], [4], (4,), (0,), aligned=(True,), keep_order=True)  # argmax
    assert p.ovec == 4
    p = plan((100_000, 4), [(16, 4), (16, 4)], [4, 4], (4,), (0,), aligned=(True, True))  # two inputs
    assert p.ovec == 4
    p = plan((100_000, 4), [(16, 4), (0, 4)], [4, 4], (4,), (0,), aligned=(True, True))  # a row broadcast
    assert p.ovec == 4
    p = plan((100_000, 4), [(16, 4), (4, 0)], [4, 4], (4,), (0,), aligned=(True, True))  # broadcast along outputs
    assert p.ovec == 0
    p = plan((100_000, 4), [(16, 4)], [4], (4,), (0,), aligned=(True,), acc_size=16)  # var's (mean, m2, n)
    assert (p.ovec, p.unroll) == (4, 2)
    monkeypatch.setattr(reduction_plan, "_OUT_VEC", 0)
    p = plan((100_000, 4), [(16, 4)], [4], (4,), (0,), aligned=(True,))
    assert (p.ovec, p.sub) == (0, 64)


def _replay_cols(p, n_red, n_out, V):
    """The @@cols@@ walk: thread t of chunk c takes vector t % gpb and rows r0 + t / gpb + k * sub
    (unrolled rounds, then the rest); every element once; the block's partial per output is the
    fixed fold (accumulators, then lanes by shuffles 16..gpb apart, then warps in order)."""
    S = p.sub
    gpb = 256 // S
    U = p.unroll
    n_vo = n_out // V
    seen = numpy.zeros((n_out, n_red), dtype=numpy.int64)
    for c in range(p.split):
        r0, r1 = c * p.chunk, min((c + 1) * p.chunk, n_red)
        for t in range(256):
            ov, lane = t % gpb, t // gpb
            if ov >= n_vo:
                continue
            j0 = r0 + lane
            while j0 + (U - 1) * S < r1:
                for u in range(U):
                    seen[ov * V:ov * V + V, j0 + u * S] += 1
                j0 += U * S
            while j0 < r1:
                seen[ov * V:ov * V + V, j0] += 1
                j0 += S
        # warp 0's first load: rows r0 + t / gpb, vectors t % gpb, 16 bytes each: when the vectors
        # fill the row (n_vo == gpb), 512 contiguous bytes
        offs = [(r0 + t // gpb) * n_out * (16 // V) + (t % gpb) * 16 for t in range(32) if t % gpb < n_vo]
        assert offs == sorted(offs)
        if n_vo == gpb:
            assert offs == [offs[0] + 16 * i for i in range(32)]
    assert seen.min() == 1 and seen.max() == 1
    # The lanes of a warp that share a vector are gpb apart (gpb <= 32 divides 32): shuffles down
    # by 16, 8, ..., gpb fold all of them onto the lowest, lane ov of the warp, which writes the
    # warp's value to shared memory at (warp * gpb + ov) * V + k; the output o = ov * V + k reads
    # warps 0..7 at w * gpb * V + o: the same cell.
    assert gpb <= 32 and 32 % gpb == 0
    for w in range(8):
        for ov in range(gpb):
            lanes = [t for t in range(32 * w, 32 * w + 32) if t % gpb == ov]
            assert len(lanes) == 32 // gpb and all(b - a == gpb for a, b in zip(lanes, lanes[1:]))
            assert lanes[0] % 32 == ov < gpb
            for k in range(V):
                assert (w * gpb + ov) * V + k == w * gpb * V + ov * V + k < 8 * gpb * V


@pytest.mark.parametrize("n_red, n_out, V", [(70_001, 4, 4), (100_003, 8, 4), (9000, 32, 4), (50_001, 2, 2),
                                             (4096, 4, 4), (300_007, 16, 8)])
def test_output_vector_walk_replays(n_red, n_out, V):
    isz = 16 // V
    p = plan((n_red, n_out), [(isz * n_out, isz)], [isz], (isz,), (0,), aligned=(True,), sm_count=132)
    assert p.ovec == V
    _replay_cols(p, n_red, n_out, V)
    p = plan((n_red, n_out), [(isz * n_out, isz)], [isz], (isz,), (0,), aligned=(True,), sm_count=2)
    _replay_cols(p, n_red, n_out, V)  # fewer, longer chunks


def test_output_vector_stages_and_names():
    d = _def("sum", "f")
    p = plan((16_000_000, 4), [(16, 4)], [4], (4,), (0,), aligned=(True,), sm_count=132)
    assert p.fused
    (st, grid, role), = d.stages(p)
    assert (st.ovec, st.sub, st.dst, role, grid) == (4, 256, "fused", "fused", (1, p.split))
    name, src = d.source(st)
    assert "__ovec4__" in name and "const int _r1 = (int)gridDim.y * 1;" in src  # one partial a block
    p = plan((1_000_000, 32), [(128, 4)], [4], (4,), (0,), aligned=(True,), sm_count=132)
    stages = d.stages(p)
    assert [r for _, _, r in stages] == (["fused"] if p.fused else ["first", "second"])
    assert stages[0][0].ovec == 4
    p = plan((4096, 4), [(16, 4)], [4], (4,), (0,), aligned=(True,), sm_count=132)  # one block: no partials
    assert p.ovec == 4 and p.parts == 1
    (st, grid, role), = d.stages(p)
    assert (st.dst, st.ovec, st.sub, role, grid) == ("out", 4, 256, "only", (1, 1))
    name, src = d.source(st)
    assert "__ovec4" in name and "y = cuarray::cast<float>(a);" in src


@pytest.mark.nvrtc_fast
def test_output_vector_kernels_compile():
    """Every destination (outputs, partials, fused), float32/64/16, int32, argmax/argmin (index
    steps), var (moments), nansum, a ReductionKernel with two inputs, 32- and 64-bit indices."""
    srcs = {}
    rows = [("sum", "f"), ("argmax", "f"), ("moments", "f"), ("sum", "d"), ("nansum", "e"), ("max", "i"),
            ("argmin", "d"), ("moments", "d")]
    for k, (op, c) in enumerate(rows):
        d = _def(op, c)
        V = 16 // numpy.dtype(c).itemsize
        for i, (dst, extra) in enumerate((("out", (0, 0)), ("part", (0, 0)), ("fused", (32, 8)), ("fused", (256, 8)))):
            sub = (256, 128, 32, 8)[(k + i) % 4]
            st = Stage("map", dst, 1, (8, 2, 1)[(k + i) % 3], 1, 1, 1, numpy.int64 if (k + i) % 3 == 0 else numpy.int32,
                       *extra, sub, ovec=V)
            name, src = d.source(st)
            assert "${" not in src
            srcs[name] = src
    F4 = numpy.dtype("f4")
    k2 = ReductionKernel("T x, T m", "T y", "(x - m) * (x - m)", "a + b", "y = a", "0", "sqdev_cols")
    kd2 = k2._definition([("in", F4, F4), ("in", F4, F4)], {"T": F4}, F4, "float", 4)
    name, src = kd2.source(Stage("map", "part", 1, 8, 1, 1, 1, numpy.int32, sub=256, ovec=4))
    srcs[name] = src
    cubin, _ = compiler.compile_cubin("\n".join(srcs.values()), arch="sm_90")
    assert cubin[:4] == b"\x7fELF"


@pytest.mark.nvrtc_fast
def test_narrow_and_integer_inputs_compile():
    """One-byte and two-byte inputs (16 or 8 to a vector: bool, uint8, int16) and int32, summed and
    through var's float64 moments, as row tiles and output vectors."""
    srcs = {}
    F8 = numpy.dtype("f8")
    for c, ov in (("i", 4), ("B", 16), ("?", 16), ("h", 8)):
        dt = numpy.dtype(c)
        mom = R._definition(R.OPS["moments"], ((dt, F8),), ("x",), F8, F8, False, "y = a.m2 / _val_t(_div)",
                            (("_div", F8),), "var")
        o = R.OPS["sum"]
        res = R.result_dtype(o.np_fn, dt)
        acc = R.acc_dtype_for(o, dt, res)
        d = R._definition(o, ((dt, R._compute_for(o, dt, acc)),), ("x",), acc, res, False, R._POST_CAST, ())
        for rdef in (mom, d):
            name, src = rdef.source(Stage("map", "out", 1, 1, 16 // dt.itemsize, 1, 1, numpy.int32, rows=8, mvec=1))
            srcs[name] = src
        name, src = mom.source(Stage("map", "fused", 1, 1, 1, 1, 1, numpy.int32, 32, 8, 256, ovec=ov))
        srcs[name] = src
        name, src = d.source(Stage("map", "part", 1, 8, 1, 1, 1, numpy.int32, sub=64, ovec=ov))
        srcs[name] = src
    cubin, _ = compiler.compile_cubin("\n".join(srcs.values()), arch="sm_90")
    assert cubin[:4] == b"\x7fELF"
