"""Two accumulator sets of a wide accumulator in folded plans (`reduction_plan._FOLD_WIDE_SETS_FROM`,
issue 32): var/std's moments and argmax/argmin's pairs keep one set unless the reduced index is at
least the setting's load rounds an SM; sums keep theirs; the kernels with 2 sets compile for sm_90
in registers (no local memory). GPU side: tests/_statistics/test_out_fold_gpu.py."""

from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_out_fold_cpu import _cols_plan, _def, _registers_and_frames, _replay_fold  # noqa: E402

from cuarray._core import reduction  # noqa: E402
from cuarray._core import reduction_plan  # noqa: E402
from cuarray.cuda import compiler  # noqa: E402

# 132 SMs x 256 threads x 8 loads: the vectors of one load round an SM
ROUND = 132 * 256 * 8


def test_the_default_keeps_one_set():
    assert reduction_plan._FOLD_WIDE_SETS_FROM == 0
    for acc, wide in ((16, True), (32, False)):
        assert _cols_plan(16_000_000, 2, 4, acc_size=acc, wide=wide).accs == 1


@pytest.mark.parametrize("acc, wide", [(16, True), (16, False), (24, True), (32, False)])
def test_two_sets_only_past_the_threshold(monkeypatch, acc, wide):
    monkeypatch.setattr(reduction_plan, "_FOLD_WIDE_SETS_FROM", 8)
    # (n, 2) float32: a vector every 2 rows; the threshold in vectors is 8 rounds an SM
    edge = 2 * 8 * ROUND
    got = {n: _cols_plan(n, 2, 4, acc_size=acc, wide=wide) for n in (1_000_000, edge - 2, edge, 16_000_000)}
    assert [p.accs for p in got.values()] == [1, 1, 2, 2]
    for n, p in got.items():  # the rest of the plan as with one set
        monkeypatch.setattr(reduction_plan, "_FOLD_WIDE_SETS_FROM", 0)
        q = _cols_plan(n, 2, 4, acc_size=acc, wide=wide)
        monkeypatch.setattr(reduction_plan, "_FOLD_WIDE_SETS_FROM", 8)
        assert (p.fold, p.ovec, p.unroll, p.split, p.chunk) == (q.fold, q.ovec, q.unroll, q.split, q.chunk), n
    # fewer SMs: the same rows are more rounds an SM
    assert _cols_plan(1_000_000, 2, 4, acc_size=acc, wide=wide, sm_count=8).accs == 2
    # (n, 4) float16: a vector every 2 rows as well
    assert _cols_plan(1_000_000, 4, 2, acc_size=acc, wide=wide).accs == 1
    assert _cols_plan(edge, 4, 2, acc_size=acc, wide=wide).accs == 2


def test_other_accumulators_keep_their_sets(monkeypatch):
    monkeypatch.setattr(reduction_plan, "_FOLD_WIDE_SETS_FROM", 1)
    assert _cols_plan(16_000_000, 2, 4, acc_size=4).accs == 0  # a sum: one set a load
    assert _cols_plan(16_000_000, 2, 1, acc_size=1).accs == 2  # int8 max: 2 sets of 16 lanes
    assert _cols_plan(16_000_000, 2, 4, acc_size=16, wide=4).accs == 4  # welford-wide4: its own number
    assert _cols_plan(16_000_000, 4, 4, acc_size=16, wide=True).fold == 0  # 16-byte rows: not folded


def test_two_set_walk_replays(monkeypatch):
    """Each set meets its rows in increasing order (argmax's in-order step) and every row once."""
    monkeypatch.setattr(reduction_plan, "_FOLD_WIDE_SETS_FROM", 1)
    p = _cols_plan(100_003, 2, 4, acc_size=32, sm_count=1)
    assert p.accs == 2 and p.fold == 2
    _replay_fold(p, 100_003, 2)


def test_two_set_kernels_fit_registers_without_spills(monkeypatch):
    """var, std's moments and argmax/argmin of (1.6e7, 2) float32 and var of (1.6e7, 4) float16 with
    2 sets, every destination: NVRTC sm_90, at most 96 registers (ptxas: var 64, argmax 74) and no
    local memory in the fused kernels the plans pick; the two-launch forms ('out': one chunk, 'part':
    FUSE off) of var/argmax float32 came out at 48/64 registers with 2 words of the kernel's
    parameters kept in a 16-byte frame outside the loop (sm_90, ptxas of CUDA 12/13): at most that.
    The 2-set kernels are named apart from the 1-set ones (`__acc2`)."""
    monkeypatch.setattr(reduction_plan, "_FOLD_WIDE_SETS_FROM", 1)
    srcs = {}
    for op, c, n_out in (("moments", "f", 2), ("argmax", "f", 2), ("argmin", "f", 2), ("moments", "e", 4)):
        d = _def(op, c)
        p = _cols_plan(16_000_000, n_out, 2 if c == "e" else 4, acc_size=d.acc_size, wide=d.wide)
        assert p.fold == 2 and p.accs == 2
        (st, _, _), = d.stages(p)
        for dst in ("fused", "out", "part"):
            s = st._replace(dst=dst, group2=st.group2 if dst == "fused" else 0,
                            unroll2=st.unroll2 if dst == "fused" else 0)
            name, src = d.source(s)
            assert "__acc2" in name and "_acc_t _acc[2][_V];" in src
            srcs[name] = src
    cubin, _ = compiler.compile_cubin("\n".join(srcs.values()), arch="sm_90")
    info = _registers_and_frames(cubin)
    assert len(info) == len(srcs)
    for name, (regs, frame) in info.items():
        assert regs is not None and regs <= 96 and frame <= (0 if name.endswith("fused32") else 16), (name, regs,
                                                                                                    frame)
    assert sum(n.endswith("fused32") for n in info) == 4
