"""The sort engine without a GPU: key types, CUB tiling, the digit-pass plan (a NumPy model of
the LSD radix sort with pass skipping against NumPy's stable sort), the scratch layout, the
block-tile choice, and NVRTC compiles of every sort kernel for sm_90."""

from __future__ import annotations

import numpy as np
import pytest

from cuarray._core import sort as S
from cuarray._core import sort_plan as P

SORTABLE = [np.dtype(c) for c in "?bhiqBHIQefd"]
ALL = SORTABLE + [np.dtype("F"), np.dtype("D")]


@pytest.mark.parametrize("dt", SORTABLE, ids=str)
def test_key_ctype_size_matches(dt):
    ct = P.key_ctype(dt)
    assert P.sortable(dt)
    sizes = {"unsigned char": 1, "signed char": 1, "short": 2, "unsigned short": 2, "int": 4,
             "unsigned int": 4, "long long": 8, "unsigned long long": 8}
    raw = S._raw(ct)
    assert sizes[raw] == dt.itemsize
    assert ct.startswith("cuarray::radix_float<") == (dt.kind == "f")


def test_complex_and_others_are_not_radix_keys():
    for dt in ("F", "D", "O", "U3", "M8[s]"):
        assert not P.sortable(np.dtype(dt))
    with pytest.raises(TypeError):
        P.key_ctype(np.dtype("D"))
    with pytest.raises(TypeError):
        P.value_ctype(3)


def test_onesweep_tiles_follow_cub_sm90():
    assert P.onesweep_tile(4, 0) == (384, 20)
    assert P.onesweep_tile(4, 0, is_float=True) == (384, 19)
    assert P.onesweep_tile(4, 0, 8, True) == (384, 18)
    assert P.onesweep_tile(4, 4) == (384, 23)
    assert P.onesweep_tile(8, 0) == (384, 15)
    assert P.onesweep_tile(1, 0) == (512, 19)
    for kb in (1, 2, 4, 8):
        for vb in (0, 1, 2, 4, 8, 16):
            for ob in (4, 8):
                t, i = P.onesweep_tile(kb, vb, ob)
                assert t % 32 == 0 and i >= 1
                assert t * i * max(kb, vb, 4) <= 48 * 1024  # the agent's static shared memory


def test_passes():
    assert [P.passes(b) for b in (1, 2, 4, 8)] == [1, 2, 4, 8]
    assert P.passes(8) <= P.MAX_PASSES


@pytest.mark.parametrize("active", [[1, 1, 1, 1], [0, 1, 0, 1], [1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1],
                                    [1, 1, 1, 0, 0, 0, 0, 1], [0, 1, 1]], ids=str)
def test_plan_buffers(active):
    plan = P.plan_buffers([bool(a) for a in active])
    moves = [m for m in plan if m is not None]
    assert len(moves) == sum(active)
    if moves:
        assert moves[0][0] == "src" and moves[-1][1] == "out"
        for (s0, d0), (s1, d1) in zip(moves, moves[1:]):
            assert s1 == d0 and s1 != d1
        assert all(m[1] != "src" for m in moves)


def _np_keys(x):
    """A NumPy model of the canonical unsigned key (sort_keys.cuh) of a real array."""
    dt = x.dtype
    if dt.kind == "b":
        return x.astype(np.uint8)
    if dt.kind in "iu":
        u = x.view("u{}".format(dt.itemsize))
        if dt.kind == "i":
            u = u ^ np.array(1 << (8 * dt.itemsize - 1), u.dtype)
        return u
    y = x + dt.type(0)  # -0.0 -> +0.0
    ut = np.dtype("u{}".format(dt.itemsize))
    u = y.view(ut)
    sign = ut.type(1 << (8 * dt.itemsize - 1))
    k = np.where(u & sign, ~u, u | sign).astype(ut)
    return np.where(np.isnan(y), ut.type(np.iinfo(ut).max), k).astype(ut)


def _model_radix_argsort(keys: np.ndarray) -> np.ndarray:
    """LSD radix sort in 8-bit digits with the engine's pass skipping (a pass whose digit is the
    same for every key does nothing), stable counting sort per pass."""
    n = keys.size
    bits = 8 * keys.dtype.itemsize
    hist = [np.bincount(((keys >> np.uint64(b)) & np.uint64(255)).astype(np.int64), minlength=256)
            for b in range(0, bits, 8)] if n else []
    active = [bool(h.max() != n) for h in hist]
    perm = np.arange(n)
    cur = keys.astype(np.uint64)
    for p, on in enumerate(active):
        if not on:
            continue
        d = (cur >> np.uint64(8 * p)) & np.uint64(255)
        order = np.argsort(d, kind="stable")  # a counting sort's result
        cur, perm = cur[order], perm[order]
    return perm


@pytest.mark.parametrize("dt", SORTABLE, ids=str)
def test_model_radix_matches_numpy_stable(dt):
    rng = np.random.default_rng(dt.num)
    if dt.kind == "f":
        x = rng.standard_normal(3000).astype(dt)
        x[::7] = np.nan
        x[::11] = -np.nan
        x[::13] = 0.0
        x[::17] = -0.0
        x[::19] = np.inf
        x[::23] = -np.inf
    elif dt.kind == "b":
        x = rng.integers(0, 2, 3000).astype(bool)
    else:
        info = np.iinfo(dt)
        x = rng.integers(info.min, info.max, 3000, dtype=dt, endpoint=True)
        x[::5] = rng.integers(0, 9, x[::5].size)  # ties, and digits shared by many keys
    np.testing.assert_array_equal(_model_radix_argsort(_np_keys(x)), np.argsort(x, kind="stable"))


def test_model_skips_shared_digits():
    x = np.arange(1000, dtype=np.int64) % 200
    keys = _np_keys(x)
    hist = [np.bincount(((keys >> np.uint64(b)) & np.uint64(255)).astype(np.int64), minlength=256) for b in range(0, 64, 8)]
    assert sum(h.max() != x.size for h in hist) == 1  # only the low digit varies: 7 passes skipped
    np.testing.assert_array_equal(_model_radix_argsort(keys), np.argsort(x, kind="stable"))


@pytest.mark.parametrize("n,kb,ob", [(1, 4, 4), (10**6, 4, 4), (3 * 2**28, 4, 4), (2**33, 8, 8)])
def test_scratch_layout(n, kb, ob):
    t, i = P.onesweep_tile(kb, 0, ob)
    sc = P.scratch(n, kb, t * i, ob)
    assert sc.plan == 0 and sc.bins >= 304
    assert sc.bins % 256 == 0 and sc.counters % 256 == 0 and sc.lookback % 256 == 0
    assert sc.counters >= sc.bins + sc.portions * sc.npasses * 256 * ob
    assert sc.lookback >= sc.counters + 4 * sc.portions * sc.npasses
    assert sc.lookback_stride >= sc.blocks * 256 * 4
    assert sc.portions * sc.portion >= n and sc.portion % (t * i) == 0 and sc.portion < 2**28
    assert sc.zeroed == sc.total - sc.bins


def test_block_tiles():
    assert P.block_tile(1, 4, 0) == P.BLOCK_TILES[0]
    assert P.block_tile(4096, 4, 4)[:2] == (256, 16)
    assert P.block_tile(8192, 4, 4)[:2] == (512, 16)
    assert P.block_tile(8192, 8, 4) is None
    assert P.block_tile(8193, 4, 0) is None
    for L in (1, 100, 1000, 4096, 5000):
        for kb in (1, 2, 4, 8):
            tile = P.block_tile(L, kb, 4)
            if tile is not None:
                assert tile[0] * tile[1] >= L and tile[0] * tile[1] * max(kb, 4) <= 32 * 1024


@pytest.mark.parametrize("dt", ALL, ids=str)
def test_every_sort_kernel_compiles_for_sm90(dt):
    from cuarray.cuda import compiler

    names = S.all_kernel_names(dt)
    assert names
    cubin, mapping = compiler.compile_cubin(S._TEMPLATE.read_text(), arch="sm_90", name_expressions=names,
                                            name="cuarray_sort")
    assert cubin and set(mapping) == set(names)


_TOOLKIT_CCCL = sorted(__import__("glob").glob("/usr/local/cuda*/include/cccl/cub/version.cuh"))


@pytest.mark.skipif(not _TOOLKIT_CCCL, reason="no CUDA toolkit CCCL here")
@pytest.mark.parametrize("dt", [np.dtype(c) for c in "efqD"], ids=str)
def test_kernels_compile_with_toolkit_cccl(dt):
    """The device machines' CCCL is a CUDA toolkit's (3.0 with CUDA 13.0), older than the wheel's."""
    from cuarray.cuda import compiler

    inc = _TOOLKIT_CCCL[-1].rsplit("/cub/", 1)[0]
    names = S.all_kernel_names(dt)
    cubin, mapping = compiler.compile_cubin(S._TEMPLATE.read_text(), arch="sm_90", name_expressions=names,
                                            name="cuarray_sort", options=("-I" + inc,))
    assert cubin and set(mapping) == set(names)
