"""The reduction planner (`_core/reduction_plan.py`) at the boundaries of its tuning table: each
threshold's last shape on one side and first on the other, read from the module's own constants (a
retuned constant moves the boundary, not the test). The planner is pure: it imports nothing of the
device layer."""

from __future__ import annotations

import ast
import pathlib

import numpy as np
import pytest

from cuarray._core import reduction_plan as rp

SM = 132


def rows(n_out, n_red, isz=4, aligned=None):
    """Reduce the rows (axis 1) of a C-contiguous (n_out, n_red) array."""
    return rp.plan((n_out, n_red), [(isz * n_red, isz)], [isz], (isz,), (1,), aligned=aligned, sm_count=SM)


def cols(n_red, n_out, isz=4, aligned=None):
    """Reduce axis 0 of a C-contiguous (n_red, n_out) array (a kept axis is the fast one)."""
    return rp.plan((n_red, n_out), [(isz * n_out, isz)], [isz], (isz,), (0,), aligned=aligned, sm_count=SM)


def test_planner_is_pure():
    """No import of the device layer (cuda/) or of the rest of the engine's launch machinery."""
    tree = ast.parse(pathlib.Path(rp.__file__).read_text())
    mods = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    mods += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    assert not [m for m in mods if "cuda" in m or m in ("elementwise", "reduction")], mods


def test_thread_warp_block_per_row_at_warp_row_and_block_row():
    """Rows of adjacent elements (unaligned: no lane groups): a thread below _WARP_ROW, a warp from
    it, a block from _BLOCK_ROW."""
    assert rows(1000, rp._WARP_ROW - 1).group == 1
    assert rows(1000, rp._WARP_ROW).group == 32
    assert rows(1000, rp._BLOCK_ROW - 1).group == 32
    assert rows(1000, rp._BLOCK_ROW).group == rp.BLOCK
    assert rows(1, 5).group == rp.BLOCK  # one output: a block whatever its length
    assert rows(1000, rp._WARP_ROW - 1).strategy == "cols" and rows(1000, rp._BLOCK_ROW).strategy == "rows"


def test_sub_chunks_from_sub_min_red():
    """Few outputs along a fast kept axis take sub-chunks from _SUB_MIN_RED reduced elements."""
    assert cols(rp._SUB_MIN_RED - 1, 4).sub == 1
    p = cols(rp._SUB_MIN_RED, 4)
    assert p.group == 1 and p.sub == rp.BLOCK // 4
    assert cols(rp._SUB_MIN_RED, rp.BLOCK // 2).sub == 2
    assert cols(rp._SUB_MIN_RED, rp.BLOCK // 2 + 1).sub == 1  # more than BLOCK / 2 outputs: none


def test_split_at_the_rounding_chain():
    """A thread per output over many outputs (the grid full without a split): the reduced index is
    cut into chunks once a thread's accumulators would take more than _MAX_CHAIN elements each."""
    n_out = rp.BLOCK * SM * rp._BLOCKS_PER_SM  # blocks_x == the target: no split for filling
    per = rp._UNROLL_COLS * rp._MAX_CHAIN
    assert cols(per, n_out).split == 1
    p = cols(per + 1, n_out)
    assert p.split == 2 and p.chunk * p.split >= per + 1 and p.chunk % rp._UNROLL_COLS == 0


def test_full_reduction_splits_and_fuses():
    p = rows(1, 1 << 24, aligned=(True,))
    assert p.split > 1 and p.fused and p.grid2 == 1
    assert rows(1, 100).split == 1 and not rows(1, 100).fused


def test_index_type_at_int32_max():
    """32-bit index arithmetic while n_out x n_red stays within _INT32_MAX (a broadcast input: no
    byte extent)."""
    def full(n):
        return rp.plan((n,), [(0,)], [4], (), (0,), sm_count=SM)

    assert full(rp._INT32_MAX).index_t is np.int32
    assert full(rp._INT32_MAX + 1).index_t is np.int64


@pytest.mark.parametrize("n_red,want", [(64, 8), (63, 1)])
def test_lane_groups_need_whole_vectors(n_red, want):
    """Aligned float32 rows: lane groups of about _LANE_VECS 16-byte loads a lane (64 elements: 16
    vectors, 8 lanes of 2); an odd row is not a whole number of vectors (a thread, scalar loads)."""
    p = rows(10_000, n_red, aligned=(True,))
    assert p.group == want and p.vec == (4 if want > 1 else 1)


def test_table_lists_every_constant():
    """The module docstring's table names every tuning constant, with its value."""
    doc = rp.__doc__
    names = [n for n in vars(rp) if (n.startswith("_") and n[1:2].isupper() and n != "_INT32_MAX") or n in ("BLOCK", "FUSE")]
    assert len(names) >= 20
    for n in names:
        line = next((ln for ln in doc.splitlines() if ln.split()[:1] == [n]), None)
        assert line is not None, n
        v = getattr(rp, n)
        assert line.split()[1] in (str(v), "2**20" if v == 2**20 else str(v)), (n, line)
