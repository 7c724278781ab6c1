"""distance_transform_edt of a 256^3 volume: axes 0 and 1 have 65536 lines each, strided (inner
> 1). Times the library's rule (a thread per line there, _support.LINES_FILL) against a warp per
line everywhere (the rule disabled in this process by raising LINES_FILL: a measurement only),
and CuPy's EDT where installed. Prints ms (median of 10) per variant.

    python scripts/perf/edt_strided_lines.py
"""

import time

import numpy as np

import cuarray
from cuarray.scipy import ndimage as cnd
from cuarray.scipy.ndimage import _support


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
    rule = _time(lambda: cnd.distance_transform_edt(xd))
    fill = _support.LINES_FILL
    _support.LINES_FILL = 1 << 62  # every line a warp (measurement only)
    try:
        warp = _time(lambda: cnd.distance_transform_edt(xd))
    finally:
        _support.LINES_FILL = fill
    print("edt 256^3: thread per strided line (library) {:.2f} ms, warp per line everywhere {:.2f} ms".format(rule, warp))
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
