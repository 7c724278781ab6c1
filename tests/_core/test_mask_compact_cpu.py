"""The tile compaction of `x[mask]` on the host: every instantiation compiles with NVRTC for sm_90,
and a NumPy model of the two kernels (tile counts; ballot ranks within a tile) reproduces x[mask],
including masks whose length is not a multiple of the tile or of 4 and bool bytes other than 0/1."""

import numpy as np
import pytest

from cuarray._core import mask_compact as mc
from cuarray.cuda import compiler

rng = np.random.default_rng()


@pytest.mark.parametrize("offset_bytes", [4, 8])
def test_every_instantiation_compiles(offset_bytes):
    names = {nm for size in mc._WORDS for nm in mc.kernel_names(size, offset_bytes)}
    names |= {nm for k in range(1, mc.MAX_COORD_DIMS + 1) for nm in mc.coords_kernel_names(k, offset_bytes)}
    names = sorted(names)
    cubin, mapping = compiler.compile_cubin(mc._TEMPLATE.read_text(), arch="sm_90", name_expressions=names)
    assert cubin and set(mapping) == set(names)


def model(x, mask_bytes):
    """The kernels' arithmetic: per tile, rows of 4 x 256 bytes; thread t of a row owns bytes
    4t..4t+3; ranks are the warp prefix of per-thread counts plus the (row, warp) offsets."""
    n = mask_bytes.size
    threads, rows = 256, 4
    tiles = -(-n // mc.TILE)
    padded = np.zeros(tiles * mc.TILE, np.uint8)
    padded[:n] = mask_bytes
    hits = (padded != 0).reshape(tiles, rows, threads, 4)
    counts = hits.sum(axis=(1, 2, 3))
    incl = np.cumsum(counts)
    out = np.empty(int(incl[-1]) if tiles else 0, x.dtype)
    per_thread = hits.sum(axis=3)                               # (tiles, rows, threads)
    warp_counts = per_thread.reshape(tiles, rows, 8, 32).sum(axis=3)   # (tiles, rows, warps)
    row_warp_offset = np.cumsum(warp_counts.reshape(tiles, 32), axis=1) - warp_counts.reshape(tiles, 32)
    lane_rank = np.cumsum(per_thread.reshape(tiles, rows, 8, 32), axis=3) - per_thread.reshape(tiles, rows, 8, 32)
    for t in range(tiles):
        base_off = incl[t - 1] if t else 0
        for j in range(rows):
            for th in range(threads):
                w, lane = divmod(th, 32)
                r = base_off + row_warp_offset[t, j * 8 + w] + lane_rank[t, j, w, lane]
                pos = t * mc.TILE + j * 4 * threads + 4 * th
                for b in range(4):
                    if hits[t, j, th, b]:
                        out[r] = x[pos + b]
                        r += 1
    return counts, out


@pytest.mark.parametrize("n", [1, 3, 4095, 4096, 4097, 3 * 4096 + 5])
def test_model_reproduces_mask_indexing(n):
    x = rng.standard_normal(n).astype(np.float32)
    mask = (rng.random(n) < rng.choice([0.05, 0.5, 0.95])).astype(np.uint8)
    mask[mask == 1] = rng.choice([1, 2, 255], size=int(mask.sum()))  # any nonzero byte is True
    counts, out = model(x, mask)
    np.testing.assert_array_equal(out, x[mask != 0])
    _, flat = model(np.arange(n), mask)  # the coordinates kernel emits the mask index instead
    np.testing.assert_array_equal(flat, np.flatnonzero(mask))
    assert counts.max(initial=0) <= mc.TILE
