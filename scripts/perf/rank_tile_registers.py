"""Registers and spills of the rank tile kernel (templates/rank_tile.cu) per dtype and footprint,
as ptxas reports them for sm_90: where the taps caps of _rank_tile._MAX_TAPS come from
(docs/perf-notes.md, "Rank filters over small footprints"). Needs `nvcc` (no GPU). Each row twice:
as built, and with the NaN / signed-zero fallback removed (the fast path alone; the fallback's
calls of scipy_select are what ptxas reports as stack and spill).
Run: `python scripts/perf/rank_tile_registers.py [float32 uint8 ...]`."""

import re
import subprocess
import sys
import tempfile

import numpy

from cuarray._core import dtypes as _dtypes
from cuarray.scipy.ndimage import _rank_tile as rt


def ptxas_info(dtype, footprint, k=None, fast_only=False):
    dt = numpy.dtype(dtype)
    pl = rt.plan((100,) * footprint.ndim, footprint, (0,) * footprint.ndim, dt.itemsize)
    if pl is None:
        return "general kernel (past the cap)"
    n = len(pl.taps)
    k = n // 2 if k is None else k
    c = _dtypes.ctype(dt)
    src = rt.source(pl, k)
    if fast_only:
        src = src.replace("const bool scipy_way = odd_values<T>::need_scipy(any);", "const bool scipy_way = false;")
    src += ("\ntemplate __global__ void cuarray_ndimage::rank_tile<{c}, {c}, {n}, {k}, int>"
            "(const {c}*, {c}*, int, int, int, int, int, int, int, int, {c});\n").format(c=c, n=n, k=k)
    with tempfile.TemporaryDirectory() as d:
        with open(d + "/k.cu", "w") as f:
            f.write(src)
        r = subprocess.run(["nvcc", "-arch=sm_90", "-cubin", "-Xptxas", "-v", d + "/k.cu", "-o", d + "/k.cubin"],
                           capture_output=True, text=True)
    if r.returncode:
        return "nvcc failed: " + r.stderr[-300:]
    regs = re.search(r"Used (\d+) registers", r.stderr)
    spill = re.search(r"(\d+) bytes spill stores", r.stderr)
    pair = "pairs" if rt.pairing(pl, k) is not None else "single"
    return "{} taps, {}: {} registers, {} bytes spilled".format(n, pair, regs and regs.group(1),
                                                             spill and spill.group(1))


def main(dtypes):
    for dtype in dtypes or ("float32", "float64", "uint8", "int16", "int32", "int64"):
        for shape in ((3, 3), (5, 5), (7, 7), (8, 8), (3, 3, 3)):
            fp = numpy.ones(shape, bool)
            label = "x".join(map(str, shape))
            print("{:>8} {:>5}  as built: {}".format(dtype, label, ptxas_info(dtype, fp)))
            print("{:>8} {:>5}  fast path: {}".format(dtype, label, ptxas_info(dtype, fp, fast_only=True)))


if __name__ == "__main__":
    main(sys.argv[1:])
