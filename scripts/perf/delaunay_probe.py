"""The 2-D Delaunay triangulation on the GPU (cuarray/scipy/spatial/_delaunay_gpu.py) against CuPy's
(cupyx.scipy.spatial.Delaunay, 2-D) and SciPy's Qhull, uniform random float64 points, in one process
(issue 58's row: 1e6 points). Per size: the core alone (`delaunay_2d`: simplices and neighbours),
the whole `Delaunay(x)` (the derived arrays included), CuPy's `Delaunay(x).simplices`, SciPy's; host
wall time with the device synced, the median of --reps after a warm-up; and whether the triangle
sets agree with SciPy's (at 1e6 Qhull's own result can differ on a near-cocircular quad).

    python scripts/perf/delaunay_probe.py [--sizes 100000,1000000] [--reps 5]
"""

import argparse
import statistics
import time

import numpy

import cuarray
from cuarray.scipy import spatial as cs
from cuarray.scipy.spatial import _delaunay_gpu


def _time(fn, sync, reps):
    fn()
    sync()
    out = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        sync()
        out.append(time.perf_counter() - t)
    return statistics.median(out) * 1e3


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sizes", default="100000,1000000")
    ap.add_argument("--reps", type=int, default=5)
    args = ap.parse_args()
    import scipy.spatial as ss

    try:
        import cupy
        import cupyx.scipy.spatial as xs
    except ImportError:
        cupy = None
    for n in (int(s) for s in args.sizes.split(",")):
        h = numpy.random.default_rng(8).random((n, 2))
        x = cuarray.asarray(h)
        sync = cuarray.cuda.synchronize
        core = _time(lambda: _delaunay_gpu.delaunay_2d(x), sync, args.reps)
        whole = _time(lambda: cs.Delaunay(x).simplices, sync, args.reps)
        tri = cs.Delaunay(x)
        row = "n={:>8}: cuarray core {:8.1f} ms, Delaunay(x) {:8.1f} ms ({})".format(
            n, core, whole, "GPU" if tri._h is None else "Qhull")
        if cupy is not None:
            xc = cupy.asarray(h)
            t = _time(lambda: xs.Delaunay(xc).simplices, cupy.cuda.runtime.deviceSynchronize, args.reps)
            row += ", CuPy {:8.1f} ms".format(t)
        t0 = time.perf_counter()
        want = ss.Delaunay(h)
        row += ", SciPy {:8.1f} ms".format((time.perf_counter() - t0) * 1e3)
        mine = numpy.sort(tri.simplices.get(), axis=1)
        theirs = numpy.sort(want.simplices, axis=1)
        a = {tuple(r) for r in mine.tolist()}
        b = {tuple(r) for r in theirs.tolist()}
        row += "; triangles {} / SciPy {}, differing {}".format(len(a), len(b), len(a ^ b))
        print(row, flush=True)


if __name__ == "__main__":
    main()
