"""Where the time of the ndimage-signal rows that miss their target goes (issue 31): one call of
each, at the bench's size, under `cuarray.profile()`: the wall time, the GPU time of its kernels
and the top rows (kernels, transfers, syncs, compiles). A wall time far above the GPU sum means
host work (a sync, a transfer, a Python loop); a kernel with a low rate means the kernel.
Run on the GPU machine: `python scripts/perf/ndimage_signal_profile.py [case ...]`."""

import math
import sys
import time

import numpy

import cuarray as cp
import cuarray.scipy.ndimage as nd
import cuarray.scipy.signal as sg


def _rand(shape, dtype="float32", seed=0):
    return cp.asarray(numpy.random.default_rng(seed).random(shape, dtype=numpy.float64).astype(dtype))


def cases():
    img = _rand((4096, 4096), seed=42)
    img2 = _rand((2048, 2048), seed=43)
    coords = (_rand((2, 2048, 2048), seed=44) - 0.5) * 2047
    vol = _rand((256, 256, 256), seed=45)
    mask = _rand((2048, 2048), seed=50) > 0.51
    a = numpy.array([math.comb(8, k) * (-0.5) ** k for k in range(9)])
    b, a = cp.asarray(numpy.full(9, a.sum() / 9)), cp.asarray(a)
    sig = _rand((1000, 100000), "float64", seed=47)
    peaks = _rand(10**7, seed=51)
    x8 = _rand(10**8, seed=52)
    win = numpy.hanning(256)
    return {
        "median_filter": lambda: nd.median_filter(img, size=5),
        "map_coordinates": lambda: nd.map_coordinates(img2, coords, order=3),
        "spline_filter": lambda: nd.spline_filter(img2, 3),
        "zoom": lambda: nd.zoom(vol, 2.0),
        "distance_transform_edt": lambda: nd.distance_transform_edt(mask),
        "lfilter": lambda: sg.lfilter(b, a, sig),
        "find_peaks": lambda: sg.find_peaks(peaks),
        "welch": lambda: sg.welch(x8, window=win),
    }


def main(names):
    table = cases()
    for name in names or table:
        fn = table[name]
        fn()
        cp.cuda.Device().synchronize()
        t0 = time.perf_counter()
        fn()
        cp.cuda.Device().synchronize()
        wall = (time.perf_counter() - t0) * 1e3
        with cp.profile() as prof:
            fn()
        print("== {}: wall {:.2f} ms unprofiled; profiled: wall {:.2f} ms, GPU {:.2f} ms".format(
            name, wall, prof.summary["wall_us"] / 1e3, prof.summary["gpu_us"] / 1e3))
        print(prof.table(sort="gpu_time", limit=8))


if __name__ == "__main__":
    main(sys.argv[1:])
