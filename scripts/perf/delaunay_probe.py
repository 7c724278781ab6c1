"""The 2-D Delaunay triangulation on the GPU (cuarray/scipy/spatial/_delaunay_gpu.py) against CuPy's
(cupyx.scipy.spatial.Delaunay, 2-D) and SciPy's Qhull, float64 points in one process (issue 58's row:
1e6 uniform points; --kinds adds gaussian, clustered, a thin annulus (a long hull), points sorted
by x, a jittered lattice, points far from the origin, tiny coordinates, an exact lattice). Per size: the core alone (`delaunay_2d`: simplices and neighbours),
the whole `Delaunay(x)` (the derived arrays included), CuPy's `Delaunay(x).simplices`, SciPy's; host
wall time with the device synced, the median of --reps after a warm-up; and whether the triangle
sets agree with SciPy's (at 1e6 Qhull's own result can differ on a near-cocircular quad).

    python scripts/perf/delaunay_probe.py [--sizes 100000,1000000] [--reps 5] [--kinds uniform,annulus]
"""

import argparse
import statistics
import time

import numpy

import cuarray
from cuarray.scipy import spatial as cs
from cuarray.scipy.spatial import _delaunay_gpu


def _points(kind, n):
    r = numpy.random.default_rng(8)
    if kind == "uniform":
        return r.random((n, 2))
    if kind == "gaussian":
        return r.normal(size=(n, 2))
    if kind == "clustered":  # 1000 tight clusters
        c = r.random((1000, 2)) * 100.0
        return c[r.integers(0, 1000, n)] + r.normal(size=(n, 2)) * 1e-2
    if kind == "annulus":
        a, rad = r.random(n) * 2 * numpy.pi, 1.0 + 1e-3 * r.random(n)
        return numpy.stack([rad * numpy.cos(a), rad * numpy.sin(a)], 1)
    if kind == "sorted":
        p = r.random((n, 2))
        return p[numpy.argsort(p[:, 0])]
    if kind == "lattice":  # a jittered square lattice
        k = int(numpy.ceil(numpy.sqrt(n)))
        g = numpy.stack(numpy.meshgrid(numpy.arange(k), numpy.arange(k)), -1).reshape(-1, 2)[:n].astype(float)
        return g + r.uniform(-0.25, 0.25, g.shape)
    if kind == "offset":  # far from the origin: coordinates 1e6 + [0, 1)
        return 1e6 + r.random((n, 2))
    if kind == "tiny":  # coordinates ~1e-150 (differences past 2^-200 go to Qhull)
        return r.random((n, 2)) * 1e-150
    if kind == "exact-lattice":  # cocircular everywhere: Qhull answers
        k = int(numpy.ceil(numpy.sqrt(n)))
        return numpy.stack(numpy.meshgrid(numpy.arange(k), numpy.arange(k)), -1).reshape(-1, 2)[:n].astype(float)
    raise ValueError(kind)


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
    ap.add_argument("--kinds", default="uniform")
    args = ap.parse_args()
    import scipy.spatial as ss

    try:
        import cupy
        import cupyx.scipy.spatial as xs
    except ImportError:
        cupy = None
    for kind, n in ((k, int(s)) for k in args.kinds.split(",") for s in args.sizes.split(",")):
        h = _points(kind, n)
        x = cuarray.asarray(h)
        sync = cuarray.cuda.synchronize
        core = _time(lambda: _delaunay_gpu.delaunay_2d(x), sync, args.reps)
        whole = _time(lambda: cs.Delaunay(x).simplices, sync, args.reps)
        tri = cs.Delaunay(x)
        row = "{:>9} n={:>8}: cuarray core {:8.1f} ms, Delaunay(x) {:8.1f} ms ({})".format(
            kind, n, core, whole, "GPU" if tri._h is None else "Qhull")
        if cupy is not None:
            xc = cupy.asarray(h)
            try:
                t = _time(lambda: xs.Delaunay(xc).simplices, cupy.cuda.runtime.deviceSynchronize, args.reps)
                row += ", CuPy {:8.1f} ms".format(t)
            except Exception as e:  # noqa: BLE001 - a peer's failure is a result here
                row += ", CuPy failed ({})".format(type(e).__name__)
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
