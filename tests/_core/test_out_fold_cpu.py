"""Folded output vectors (`reduction_plan._OUT_FOLD`, issue 32) without a GPU: which plans take them
(row of outputs 2, 4 or 8 bytes, packed rows, aligned pointer), the kernel's walk replayed on the
host (every row once, each lane's rows in increasing order, the tail rows once, by the last chunk),
the public calls' kernels on the fake device, and NVRTC compiles for sm_90. Kernels of the other
plans: the digests of tests/_core/test_row_tiles_cpu.py and tests/_statistics/test_var_methods_cpu.py.
GPU values: tests/_statistics/test_out_fold_gpu.py."""

from __future__ import annotations

import numpy
import pytest

from cuarray._core import reduction
from cuarray._core import reduction_plan
from cuarray._core import reduction_ops as R
from cuarray._core.reduction import Stage, plan
from cuarray.cuda import compiler
from cubin_info import FRAME_SIZE, REGCOUNT, kernel_attributes  # tests/ is on sys.path


def _def(op, c):
    dt = numpy.dtype(c)
    if op == "moments":
        acc = numpy.dtype("d") if dt.kind in "biu" else (numpy.dtype("f") if dt.char == "e" else dt)
        o = R.OPS[op]
        return R._definition(o, ((dt, R._compute_for(o, dt, acc)),), ("x",), acc, acc if dt.char != "e" else dt,
                             False, "y = cuarray::cast<$Y>(a.m2 / _val_t(_div))", (("_div", numpy.dtype("d")),),
                             "var", True)
    o = R.OPS[op]
    res = R.result_dtype(o.np_fn, dt)
    acc = R.acc_dtype_for(o, dt, res)
    post = "y = a.i" if o.acc == "arg" else R._POST_CAST
    return R._definition(o, ((dt, R._compute_for(o, dt, acc)),), ("x",), acc, res, False, post, ())


def _cols_plan(n_red, n_out, isz, *, row_stride=None, col_stride=None, aligned=True, acc_size=None, wide=False,
               sm_count=132):
    rs = n_out * isz if row_stride is None else row_stride
    cs = isz if col_stride is None else col_stride
    return plan((n_red, n_out), [(rs, cs)], [isz], (isz,), (0,), aligned=(aligned,), sm_count=sm_count,
                acc_size=isz if acc_size is None else acc_size, wide=wide)


@pytest.mark.parametrize("n_red, n_out, isz, acc_size, wide, want", [
    # (fold, ovec lanes, accumulator sets (0: one a load), split)
    (1_000_000, 2, 4, 4, False, (2, 4, 0, 123)),  # sum (n, 2) float32
    (1_000_000, 2, 4, 16, True, (2, 4, 1, 123)),  # var: (mean, m2, n), welford-wide: one set
    (1_000_000, 2, 4, 16, 4, (2, 4, 4, 123)),  # welford-wide4
    (1_000_000, 2, 4, 32, False, (2, 4, 1, 123)),  # argmax pairs
    (16_000_000, 2, 4, 4, False, (2, 4, 0, 1954)),
    # accumulators over 8 bytes: _FOLD_WIDE_BLOCKS_PER_SM (2 an SM), not _BLOCKS_PER_SM (16)
    (16_000_000, 2, 4, 16, True, (2, 4, 1, 261)),
    (16_000_000, 2, 4, 32, False, (2, 4, 1, 261)),
    (4_000_000, 2, 4, 16, True, (2, 4, 1, 245)),
    (64_000_000, 2, 4, 32, False, (2, 4, 1, 261)),
    (1_000_000, 4, 2, 4, False, (2, 8, 4, 123)),  # float16 (n, 4), float32 sums
    (4_000_000, 2, 2, 4, False, (4, 8, 4, 245)),  # float16 (n, 2)
    (4_000_000, 8, 1, 8, False, (2, 16, 1, 977)),  # int8 (n, 8), int64 sums: 4 loads a round
    (4_000_000, 4, 1, 8, False, (4, 16, 1, 489)),
    (8_000_000, 2, 1, 1, False, (8, 16, 2, 245)),  # int8 max: 1-byte lanes count as registers
    (1_000_003, 2, 4, 4, False, (2, 4, 0, 123)),  # a tail row
    (4096, 2, 4, 4, False, (2, 4, 0, 1)),  # one chunk: outputs written directly
])
def test_short_kept_rows_take_folded_vectors(n_red, n_out, isz, acc_size, wide, want):
    p = _cols_plan(n_red, n_out, isz, acc_size=acc_size, wide=wide)
    assert (p.fold, p.ovec, p.accs, p.split) == want
    assert p.unroll == (4 if acc_size <= 8 and p.ovec * max(4, acc_size) >= 128 else 8)  # 4: int8 sums
    assert p.sub == 256 and p.group == 1 and p.grid_x == 1 and p.parts == p.split
    assert p.fold * n_out * isz == 16 and p.ovec == 16 // isz
    nv = n_red // p.fold  # chunks count whole vectors
    assert p.split * p.chunk >= nv and (p.split - 1) * p.chunk < nv
    assert p.split == 1 or p.chunk % (p.unroll * p.sub) == 0


@pytest.mark.parametrize("n_red, n_out, isz, kw", [
    (100_000, 3, 4, {}),  # 12-byte rows: not a divisor of 16
    (100_000, 6, 2, {}),  # 12 bytes
    (100_000, 3, 1, {}),  # 3 bytes
    (100_000, 2, 4, {"aligned": False}),  # a view one row in: pointer off alignment
    (100_000, 2, 4, {"row_stride": -8}),  # x[::-1]
    (100_000, 2, 4, {"row_stride": 16}),  # x[::2]
    (100_000, 2, 4, {"row_stride": 12}),  # x[:, :2] of (n, 3)
    (100_000, 2, 4, {"col_stride": -4, "row_stride": 8}),  # x[:, ::-1]
    (100_000, 2, 8, {}),  # 16-byte rows: plain output vectors
    (2000, 2, 4, {}),  # under _SUB_MIN_RED rows: a thread per output
])
def test_other_layouts_keep_their_plans(n_red, n_out, isz, kw):
    p = _cols_plan(n_red, n_out, isz, **kw)
    assert p.fold == 0
    if (n_out, isz) == (2, 8):
        assert p.ovec == 2


def test_two_inputs_and_broadcasts():
    args = ((100_000, 2), [(8, 4), (8, 4)], [4, 4], (4,), (0,))
    assert plan(*args, aligned=(True, True)).fold == 2
    assert plan(*args, aligned=(True, False)).fold == 0
    assert plan((100_000, 2), [(8, 4), (0, 4)], [4, 4], (4,), (0,), aligned=(True, True)).fold == 0  # a row
    assert plan((100_000, 2), [(8, 4), (4, 0)], [4, 4], (4,), (0,), aligned=(True, True)).fold == 0
    assert plan((100_000, 2), [(8, 4), (4, 2)], [4, 2], (4,), (0,), aligned=(True, True)).fold == 0  # two sizes
    # kept dims that collapse to one (n, 2, 2) float16; reduced dims that collapse (m, k, 2) float32
    assert plan((100_000, 2, 2), [(8, 4, 2)], [2], (4, 2), (0,), aligned=(True,)).fold == 2
    assert plan((100, 1000, 2), [(8000, 8, 4)], [4], (4,), (0, 1), aligned=(True,)).fold == 2
    assert plan((100_000, 2), [(8, 4)], [4], (4,), (0,), aligned=(True,), keep_order=True).fold == 2  # argmax


def test_the_largest_fold_is_a_setting(monkeypatch):
    want = {0: (0, 0, 0), 2: (2, 0, 0), 4: (2, 4, 0), 8: (2, 4, 8)}
    for max_fold, folds in want.items():
        monkeypatch.setattr(reduction_plan, "_OUT_FOLD", max_fold)
        got = tuple(_cols_plan(1_000_000, n_out, isz).fold for n_out, isz in ((2, 4), (2, 2), (2, 1)))
        assert got == folds, max_fold
    monkeypatch.setattr(reduction_plan, "_OUT_FOLD", 0)
    p = _cols_plan(1_000_000, 2, 4)
    assert (p.fold, p.ovec, p.sub) == (0, 0, 128)  # the scalar sub-chunk plan
    monkeypatch.setattr(reduction_plan, "_OUT_FOLD", 8)
    monkeypatch.setattr(reduction_plan, "_FOLD_ROUNDS", 1)  # one load round a thread: twice the chunks
    assert _cols_plan(1_000_000, 2, 4).split == 245  # (123 with two rounds)
    p = _cols_plan(100_003, 2, 4)
    assert (p.fold, p.split, p.chunk) == (2, 25, 2048)
    _replay_fold(p, 100_003, 2)
    assert _cols_plan(1_000_000, 2, 4, row_stride=16).split == 245  # other plans: two rounds still
    monkeypatch.setattr(reduction_plan, "_OUT_VEC", 0)  # every output-vector plan off, folded ones too
    assert _cols_plan(1_000_000, 2, 4).fold == 0


def _replay_fold(p, n_red, n_out):
    """The @@fold@@ walk on the host: thread t of chunk c takes vectors r0 + t + m * 256 (rounds of
    `unroll`, then the rest), lane k of vector J is row J * F + k // n_out, output k % n_out; thread 0
    of the last chunk takes the rows past the last whole vector. Every (row, output) once, and each
    accumulator (set, lane) of a thread meets its rows in increasing order."""
    F, U, S, V = p.fold, p.unroll, 256, p.ovec
    sets = p.accs or U
    nv = n_red // F
    seen = numpy.zeros((n_red, n_out), dtype=numpy.int64)
    for c in range(p.split):
        r0, r1 = c * p.chunk, min((c + 1) * p.chunk, nv)
        for t in range(S):
            last = {}  # (set, lane) -> last row

            def step(s, k, j):
                assert j > last.get((s, k), -1)
                last[s, k] = j
                seen[j, k % n_out] += 1

            j0 = r0 + t
            while j0 + (U - 1) * S < r1:
                for u in range(U):
                    for k in range(V):
                        step(u % sets, k, (j0 + u * S) * F + k // n_out)
                j0 += U * S
            while j0 < r1:
                for k in range(V):
                    step(0, k, j0 * F + k // n_out)
                j0 += S
            if t == 0 and c == p.split - 1 and nv * F < n_red:
                for k in range(V):
                    j = nv * F + k // n_out
                    if j < n_red:
                        step(0, k, j)
    assert seen.min() == 1 and seen.max() == 1


@pytest.mark.parametrize("n_red, n_out, isz, acc", [(70_001, 2, 4, 4), (100_003, 2, 4, 16), (50_001, 4, 2, 4),
                                                    (40_007, 2, 1, 8), (65_539, 4, 1, 8), (4097, 2, 4, 4),
                                                    (9000, 2, 2, 4)])
def test_fold_walk_replays(n_red, n_out, isz, acc):
    p = _cols_plan(n_red, n_out, isz, acc_size=acc, wide=acc == 16)
    assert p.fold > 1
    _replay_fold(p, n_red, n_out)
    p = _cols_plan(n_red, n_out, isz, acc_size=acc, wide=acc == 16, sm_count=2)  # fewer, longer chunks
    _replay_fold(p, n_red, n_out)


def test_fold_stages_and_names():
    d = _def("sum", "f")
    p = _cols_plan(1_000_000, 2, 4)
    (st, grid, role), = d.stages(p)
    assert (st.fold, st.ovec, st.sub, st.dst, role, grid) == (2, 4, 256, "fused", "fused", (1, p.split))
    name, src = d.source(st)
    assert "__ovec4__fold2__" in name and "constexpr int _F = 2;" in src
    assert "const int _r1 = (int)gridDim.y * 1;" in src  # the fused pass: one partial a block
    p = _cols_plan(4096, 2, 4)
    (st, grid, role), = d.stages(p)
    assert (st.dst, role, grid) == ("out", "only", (1, 1))
    assert "y = cuarray::cast<float>(a);" in d.source(st)[1]
    assert st._replace(fold=0) == Stage(*st[:-2], accs=st.accs)  # `fold` after `ovec`, `accs` last


@pytest.fixture
def fake_reductions(recorded_launches, monkeypatch):
    """The fake device (132 SMs) with reduction kernels as (name, stage) placeholders; the launches
    recorded; the reduction fast path emptied after."""
    from cuarray.cuda import device

    monkeypatch.setattr(reduction.ReductionDef, "_kernel", lambda self, st: (self.kernel_name(st), st))
    monkeypatch.setattr(reduction, "_new_counter", lambda dev: 1 << 39)
    monkeypatch.setattr(reduction, "_workspaces", {})
    monkeypatch.setattr(R, "_fast", {})
    monkeypatch.setitem(device._SM_COUNT, 0, 132)
    yield recorded_launches
    R.clear_fast_path()


def test_public_calls_take_folded_vectors(fake_reductions):
    """var/sum/argmax(axis=0) of (n, 2) float32 on the fake device: the folded kernel; a view one
    row in (pointer 8 bytes off alignment) keeps the scalar sub-chunk plan."""
    import cuarray as cp

    a = cp.ndarray((1_000_001, 2), numpy.float32)
    names = []
    for f in (lambda x: cp.var(x, axis=0), lambda x: x.sum(axis=0), lambda x: x.argmax(axis=0),
              lambda x: cp.nanmax(x, axis=0)):
        for x in (a, a[1:]):
            n = len(fake_reductions)
            f(x)
            names.append([c[2][0] for c in fake_reductions[n:] if isinstance(c[2], tuple)
                          and isinstance(c[2][0], str)])
    for i, ks in enumerate(names):
        assert ks, i
        assert ("__fold2__" in ks[0]) == (i % 2 == 0), (i, ks)
    assert names[0][0].startswith("cuarray_var_float32") and "__acc1__" in names[0][0]


@pytest.mark.nvrtc_fast
def test_fold_kernels_compile():
    """sum, prod, max, min, argmax, argmin, nanmax, nansum, var over float32, float16, int8, uint8,
    int16, bool (any); every destination (outputs, partials, fused), 32- and 64-bit indices."""
    srcs = {}
    rows = [("sum", "f", 2), ("argmax", "f", 2), ("moments", "f", 2), ("max", "f", 2), ("nanmax", "f", 2),
            ("nansum", "e", 2), ("sum", "e", 4), ("argmin", "e", 2), ("moments", "e", 2), ("sum", "b", 2),
            ("prod", "B", 4), ("max", "b", 8), ("argmax", "B", 8), ("min", "h", 4), ("any", "?", 8),
            ("moments", "b", 2), ("nanmin", "f", 2), ("argmin", "f", 2), ("prod", "i", 2)]
    for k, (op, c, fold) in enumerate(rows):
        d = _def(op, c)
        V = 16 // numpy.dtype(c).itemsize
        for i, (dst, extra) in enumerate((("out", (0, 0)), ("part", (0, 0)), ("fused", (32, 8)))):
            accs = (0, 1, 2)[(k + i) % 3]
            st = Stage("map", dst, 1, 8, 1, 1, 1, numpy.int64 if (k + i) % 4 == 0 else numpy.int32, *extra, 256,
                       ovec=V, accs=accs, fold=fold)
            name, src = d.source(st)
            assert "${" not in src and "__fold{}".format(fold) in name
            srcs[name] = src
    cubin, _ = compiler.compile_cubin("\n".join(srcs.values()), arch="sm_90")
    assert cubin[:4] == b"\x7fELF"


def _registers_and_frames(cubin: bytes) -> dict:
    """{kernel: (registers, frame bytes)} of the cuarray kernels in `cubin` (tests/cubin_info.py); a
    frame of 0: no local memory, so no spills."""
    return {k: (v.get(REGCOUNT), v.get(FRAME_SIZE, 0)) for k, v in kernel_attributes(cubin).items()
            if k.startswith("cuarray_")}


def test_fold_kernels_fit_registers_without_spills():
    """The planned fused kernels of the perf script's rows: at most 96 registers a thread (ptxas kept
    them at 64-80 on sm_90; 8 blocks of 256 threads an SM need <= 32, 2 blocks <= 128) and no local
    memory (no spills)."""
    srcs = []
    rows = [("moments", "f", 1_000_000, 2), ("sum", "f", 1_000_000, 2), ("max", "f", 1_000_000, 2),
            ("argmax", "f", 1_000_000, 2), ("sum", "e", 1_000_000, 4), ("moments", "e", 1_000_000, 4),
            ("sum", "b", 4_000_000, 8), ("max", "B", 16_000_000, 2), ("sum", "e", 4_000_000, 2)]
    for op, c, n_red, n_out in rows:
        d = _def(op, c)
        isz = numpy.dtype(c).itemsize
        p = _cols_plan(n_red, n_out, isz, acc_size=d.acc_size, wide=d.wide)
        assert p.fold
        (st, _, _), = d.stages(p)
        srcs.append(d.source(st)[1])
    cubin, _ = compiler.compile_cubin("\n".join(srcs), arch="sm_90")
    info = _registers_and_frames(cubin)
    assert len(info) == len(srcs)
    for name, (regs, frame) in info.items():
        assert regs is not None and regs <= 96 and frame == 0, (name, regs, frame)


def test_public_wide_accumulators_take_fewer_longer_chunks(fake_reductions):
    """var and argmax(axis=0) of (1.6e7, 2) float32 on the fake device (132 SMs): 261 chunks
    (_FOLD_WIDE_BLOCKS_PER_SM: 2 blocks an SM), where the sum of the same array keeps 1954 (16 an
    SM): the public path passes the accumulator's size to the planner."""
    import cuarray as cp

    a = cp.ndarray((16_000_000, 2), numpy.float32)
    grids = {}
    for name, f in (("var", lambda x: cp.var(x, axis=0)), ("argmax", lambda x: x.argmax(axis=0)),
                    ("std", lambda x: cp.std(x, axis=0)), ("sum", lambda x: x.sum(axis=0))):
        n = len(fake_reductions)
        f(a)
        grids[name] = [c[1][1] for c in fake_reductions[n:] if isinstance(c[2], tuple)
                       and isinstance(c[2][0], str) and "__fold2__" in c[2][0]]
    assert grids == {"var": [(1, 261)], "argmax": [(1, 261)], "std": [(1, 261)], "sum": [(1, 1954)]}
