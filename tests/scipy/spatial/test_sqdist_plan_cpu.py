"""The fused euclidean tiles of cdist/pdist on the CPU: the planner at its boundaries, the padding
rule, and the template compiled by NVRTC for sm_90 and sm_100 (no GPU needed). The GPU comparison
with SciPy is in test_distance_gpu.py; test_distance_cpu.py runs cdist/pdist's tiled path through
the host shim."""

import re

import pytest

from cuarray.cuda import compiler
from cuarray.scipy.spatial import _sqdist_plan as P
from cuarray.scipy.spatial import _sqdist_tiles as T


@pytest.mark.parametrize("k, kp", [(0, 32), (1, 32), (31, 32), (32, 32), (33, 64), (64, 64), (65, 96), (1000, 1024)])
def test_padded_k_is_whole_chunks(k, kp):
    assert P.padded_k(k) == kp and kp % P.KC == 0


@pytest.mark.parametrize("m, n", [(1, 1), (64, 64), (65, 64), (64, 65), (100000, 10000), (3, 200001)])
def test_tiles_cover_the_block(m, n):
    p = P.plan_sqdist(m, n, 64, (9, 0))
    assert p.tiles_n == -(-n // P.TILE_N) and p.tiles == -(-m // P.TILE_M) * p.tiles_n
    # every (row, column) of the result is in exactly one tile: the kernel's numbering
    assert (p.tiles - 1) // p.tiles_n * p.tile_m < m <= ((p.tiles - 1) // p.tiles_n + 1) * p.tile_m
    assert p.block == (P.TILE_M // P.WARP_M) * (P.TILE_N // P.WARP_N) * 32
    assert p.shared_mem == 2 * (P.TILE_M + P.TILE_N) * P.LDS * 8
    assert p.spec == "cuarray_sqdist_tiles<{}, {}, {}, {}, {}, {}>".format(
        P.TILE_M, P.TILE_N, P.WARP_M, P.WARP_N, P.MMA_K, P.MIN_BLOCKS)


def test_no_plan_without_fp64_tensor_cores_or_work():
    # sm_80: m8n8k4 only; GeForce: slow FP64; sm_100: compiles (below), not yet measured on one
    for cc in ((7, 5), (8, 0), (8, 6), (8, 9), (10, 0), (12, 0)):
        assert P.plan_sqdist(10, 10, 8, cc) is None
    assert P.plan_sqdist(10, 10, 8, (9, 0)) is not None
    assert P.plan_sqdist(0, 10, 8, (9, 0)) is None and P.plan_sqdist(10, 0, 8, (9, 0)) is None


def test_no_plan_past_one_launch():
    side = P.TILE_M * (1 << 16)  # (2^16 tile rows) x (2^15 tile columns) = 2^31 tiles
    assert P.plan_sqdist(side, P.TILE_N * (1 << 15), 8, (9, 0)) is None
    assert P.plan_sqdist(side, P.TILE_N * (1 << 15) - P.TILE_N, 8, (9, 0)).tiles < P.MAX_TILES


@pytest.mark.parametrize("tile, warp", [((64, 64), (24, 32)), ((64, 64), (32, 12)), ((96, 64), (64, 32)), ((0, 64), (32, 32))])
def test_bad_tile_refused(tile, warp):
    with pytest.raises(ValueError, match="tile sides"):
        P.plan_sqdist(10, 10, 8, (9, 0), tile, warp=warp)
    with pytest.raises(ValueError, match="m16n8k4, k8 or k16"):
        P.plan_sqdist(10, 10, 8, (9, 0), ks=32)


@pytest.mark.parametrize("tiles, resident, sms, grid", [(1, 3, 132, 1), (10**6, 3, 132, 396), (395, 3, 132, 395), (5, 0, 1, 1)])
def test_persistent_grid(tiles, resident, sms, grid):
    p = P.plan_sqdist(64, 64 * tiles, 8, (9, 0))
    assert P.persistent_grid(p, resident, sms) == grid


def test_shared_memory_fits_the_blocks_it_asks_for():
    # sm_90: 228 KiB an SM, 1 KiB of it reserved a block; 227 KiB a block at most
    p = P.plan_sqdist(10, 10, 8, (9, 0))
    assert P.MIN_BLOCKS * (p.shared_mem + 1024) <= 228 * 1024 and p.shared_mem <= 227 * 1024


@pytest.mark.parametrize("arch", ["sm_90", "sm_100"])
def test_template_compiles_with_tensor_core_products(arch):
    specs = (P.plan_sqdist(10, 10, 8, (9, 0)).spec,) + tuple(
        P.plan_sqdist(10, 10, 8, (9, 0), (64, 64), ks, (32, 32), 3).spec for ks in (4, 8)) + (
        "cuarray_sqdist_rows", "cuarray_sqdist_epilogue")
    cubin, mapping = compiler.compile_cubin(T.SQDIST.source(), arch=arch, name_expressions=specs)
    assert sorted(mapping) == sorted(specs) and len(cubin) > 0
    assert all(re.match(rb"_Z\d+cuarray_sqdist_tiles", mapping[s]) for s in specs[:-2])


def test_planned_tiles_compile_without_local_memory():
    # the planned tile on sm_90: no frame (a spill cost the 16-byte-fragment variant 7%), and
    # registers for MIN_BLOCKS blocks of its threads an SM (65536 registers, 8 a warp at a time)
    from cubin_info import FRAME_SIZE, REGCOUNT, compile_sm90, kernel_attributes  # tests/ is on sys.path

    plan = P.plan_sqdist(10, 10, 8, (9, 0))
    cubin, mapping = compile_sm90(T.SQDIST.source(), (plan.spec,))
    attrs = kernel_attributes(cubin)[mapping[plan.spec].decode()]
    assert attrs.get(FRAME_SIZE, 0) == 0, attrs
    assert attrs[REGCOUNT] * plan.block * P.MIN_BLOCKS <= 65536, attrs



def test_exact_threshold_bounds_the_kept_entries():
    # every pair direct up to DIRECT_K features (s <= 2 N always); past it, an entry kept (s > tau N)
    # has a relative error in its distance of at most (k + 1) u / tau (exact_threshold's bound):
    # 2^-46 up to 31 features, then growing as k
    u = 2.0 ** -53
    for k in range(0, P.DIRECT_K + 1):
        assert P.exact_threshold(k) > 2.0
    for k in (P.DIRECT_K + 1, 8, 30, 31, 32, 64, 255, 1000):
        tau = P.exact_threshold(k)
        assert 0 < tau <= 0.25
        assert (k + 1) * u / tau <= max(2.0 ** -46, (k + 1) * 2.0 ** -51) * (1 + 1e-12)
    assert P.exact_threshold(10**6) == 0.25


def test_epilogue_kernel_compiles_without_local_memory():
    from cubin_info import FRAME_SIZE, compile_sm90, kernel_attributes  # tests/ is on sys.path

    cubin, mapping = compile_sm90(T.SQDIST.source(), ("cuarray_sqdist_epilogue",))
    assert kernel_attributes(cubin)[mapping["cuarray_sqdist_epilogue"].decode()].get(FRAME_SIZE, 0) == 0
