"""distance_transform_edt of a 256^3 volume: axes 0 and 1 have 65536 lines each, strided (inner
> 1). Times the library and CuPy's EDT where installed; ms, median of 10. H100, session 12, when
the library ran a warp per line on every axis: 3.97 ms; a thread per strided line (the
prefilter's rule, _support.warp_per_line(..., inner), tried in the EDT then) 5.68 ms; CuPy 1.46 ms.
The library now scans axis 0 and bands the others' envelopes: scripts/perf/edt_variants.py times
each plan.

    python scripts/perf/edt_strided_lines.py
"""

import time

import numpy as np

import cuarray
from cuarray.scipy import ndimage as cnd


def _time(fn, reps=10):
    fn()
    cuarray.cuda.Stream.null.synchronize()
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        cuarray.cuda.Stream.null.synchronize()
        ts.append(time.perf_counter() - t)
    return 1e3 * float(np.median(ts))


def main():
    x = np.random.default_rng(0).random((256, 256, 256)) > 0.01
    xd = cuarray.asarray(x)
    print("edt 256^3: library {:.2f} ms".format(_time(lambda: cnd.distance_transform_edt(xd))))
    try:
        import cupy
        from cupyx.scipy import ndimage as xnd
    except ImportError:
        return
    xc = cupy.asarray(x)
    xnd.distance_transform_edt(xc)
    cupy.cuda.Stream.null.synchronize()
    ts = []
    for _ in range(10):
        t = time.perf_counter()
        xnd.distance_transform_edt(xc)
        cupy.cuda.Stream.null.synchronize()
        ts.append(time.perf_counter() - t)
    print("edt 256^3: CuPy {:.2f} ms".format(1e3 * float(np.median(ts))))


if __name__ == "__main__":
    main()
