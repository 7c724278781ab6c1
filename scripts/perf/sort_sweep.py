"""Sort engine variants in one process (issue 12): block-sort tiles for 16384 x 4096 float32
rows, and onesweep tiles for 64 Mi float32 keys; CuPy alongside when installed."""

import sys

import numpy

import cuarray
from cuarray._core import sort as S
from cuarray._core import sort_plan as P

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _timing import event_us  # noqa: E402

rng = numpy.random.default_rng(0)
rows = cuarray.asarray(rng.random((16384, 4096), dtype=numpy.float32))
flat = cuarray.asarray(rng.random(64 * 2**20, dtype=numpy.float32))
ref_rows = numpy.sort(rows[:64].get(), axis=-1)

RUN_ROWS = "--rows" in sys.argv  # measured once (H100): see sort_plan.BLOCK_TILES
orig_tiles = P.BLOCK_TILES
for tile in [(512, 8, 4), (512, 8, 5), (256, 16, 4), (256, 16, 5), (256, 16, 6), (1024, 4, 4), (128, 32, 4)] if RUN_ROWS else []:
    P.BLOCK_TILES = (tile,)
    try:
        y = cuarray.sort(rows, axis=-1)
        ok = numpy.array_equal(y[:64].get(), ref_rows)
        print("rows tile", tile, "ok" if ok else "WRONG", "%.3f ms" % (event_us(lambda: cuarray.sort(rows, axis=-1), 10) / 1e3), flush=True)
    except Exception as e:
        print("rows tile", tile, "failed", type(e).__name__, str(e)[:200], flush=True)
P.BLOCK_TILES = orig_tiles

orig = P.onesweep_tile
for t, i in [(384, 19), (384, 24), (512, 16), (512, 20), (256, 24), (384, 16)]:
    P.onesweep_tile = lambda kb, vb, ob=4, fl=False, t=t, i=i: (t, i) if (kb, vb) == (4, 0) else orig(kb, vb, ob, fl)
    try:
        print("onesweep f32", (t, i), "%.3f ms" % (event_us(lambda: cuarray.sort(flat), 10) / 1e3), flush=True)
    except Exception as e:
        print("onesweep", (t, i), "failed", type(e).__name__, str(e)[:200], flush=True)
P.onesweep_tile = orig
try:
    import cupy

    c = cupy.asarray(flat.get())
    cr = cupy.asarray(rows.get())
    print("cupy sort f32 %.3f ms" % (event_us(lambda: cupy.sort(c), 10) / 1e3))
    print("cupy rows %.3f ms" % (event_us(lambda: cupy.sort(cr, axis=-1), 5) / 1e3))
except Exception as e:
    print("cupy:", e)
