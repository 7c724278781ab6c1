"""distance_transform_edt (issue 31): every plan of `_edt._edt` timed in one process on the bench
case's mask (2048^2, background 1%, `cuarray.bench.cases.random_array(..., seed=50) > 0.51`) and
on a 256^3 volume (background 1%, as scripts/perf/edt_strided_lines.py), against the current
kernel (first="envelope", lines="warp": edt_init, then lane 0's envelope on every axis) and
CuPy's EDT where installed. Plans: `first` "scan" (the first axis as a nearest-background scan)
or "envelope"; `lines` "band" (the envelope built by B lanes' bands merged; B from the line length
by default, or fixed) or "warp"; `fill` (band only) "walk" (a lane per run of outputs, one binary
search then a walk) or "search" (a binary search per output, as the warp kernel).

Rows: CUDA-event medians of the distances (what distance_transform_edt does without indices: the
band pass and the scan write the roots in their last pass, the others leave them to edt_sqrt; the
"sqrt apart" row shows what folding the root in saves), the public call with the default plan,
CuPy (its own events). Each plan's distances must equal the current kernel's exactly (unit
sampling: integers, no rounding); "DIFFERS" in the last column is a bug. Then, for the default plan: its indices checked (each names
a background element at the distance found), a sampled case against the current kernel
(allclose), and where the GPU time goes (profile of one call on each case, the current kernel and
the default: a pass each row).

x copy: a float64 copy of the volume's time over the row's (one pass reading and writing f at the
copy rate is 1.0; the default makes a scan and nd - 1 band passes).

Block staging (`staging="block"`, the rows marked so): the band pass moves strided lines (axes
before the last) between f and shared memory a block's adjacent lines together (whole sectors)
instead of a warp per line (one word of 32 sectors a load), outputs staged too; the last axis is
unchanged; "block-in" stages only the loads so (the shared memory, so the occupancy, as before).
If either block row is faster than the default on 256^3 (2048^2 has no strided band pass: the rows
there must equal the default's time), `staging` should default to the faster in `_edt._edt`.

What decides (docs/perf-notes.md, "EDT: a scan for the first axis ..."): the default is scan +
band with B = bands_for(n), filled by walks; the default row slower than "scan + warp" on either
case means lines="warp" should be the default again; "search" faster than "walk" on both cases
flips the fill; a fixed B faster than "B auto" by > 10% on both cases means bands_for should give
that B.

Run on the GPU machine: `python scripts/perf/edt_variants.py`."""

import pathlib
import sys

import numpy

import cuarray as cp
from cuarray.bench.cases import random_array
from cuarray.scipy import ndimage as nd
from cuarray.scipy.ndimage import _edt

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from _timing import event_us  # noqa: E402

CURRENT = dict(first="envelope", lines="warp")
DEFAULT = "scan + band (B auto, walk) [default]"
PLANS = [
    ("current: envelope + warp", CURRENT),
    ("scan + warp", dict(first="scan", lines="warp")),
    ("envelope + band (B auto, walk)", dict(first="envelope", lines="band")),
    (DEFAULT, dict(first="scan", lines="band")),
    ("scan + band (B auto, search)", dict(first="scan", lines="band", fill="search")),
    ("scan + band (B auto, walk), sqrt apart", {"first": "scan", "lines": "band", "sqrt apart": True}),
] + [("scan + band B={} (walk)".format(b), dict(first="scan", lines="band", bands=b)) for b in (2, 4, 8, 16, 32)] + [
    ("default, block staging [new]", dict(first="scan", lines="band", staging="block")),
    ("default, block staging of loads only", dict(first="scan", lines="band", staging="block-in")),
]


def _dist(x, plan, sampling=None, indices=False):
    """(distances, indices or None) by `plan`; "sqrt apart" in it: the squares, then edt_sqrt."""
    samp = [1.0] * x.ndim if sampling is None else sampling
    plan = dict(plan)
    if plan.pop("sqrt apart", False):
        f, idx, _ = _edt._edt(x, samp, indices, **plan)
        return _edt._sqrt(f), idx
    return _edt._distances(x, samp, indices, **plan)


def _cupy_us(fn, reps=30, warmup=3):
    import cupy

    return event_us(fn, reps, warmup, cuda=cupy.cuda)


def _cupy(host):
    try:
        import cupy
        from cupyx.scipy import ndimage as xnd
    except ImportError:
        return None
    xc = cupy.asarray(host)
    return _cupy_us(lambda: xnd.distance_transform_edt(xc))


def _check_indices(x, plan):
    d, idx = _dist(x, plan, indices=True)
    d, idx, m = d.get(), idx.get(), x.get()
    if m[tuple(idx)].any():
        return "indices name a foreground element"
    dist = numpy.sqrt(sum((numpy.indices(m.shape)[k] - idx[k]).astype(numpy.float64) ** 2 for k in range(m.ndim)))
    return "ok" if numpy.array_equal(dist, d) else "indices at another distance"


def case(label, x, host):
    print("== {} (shape {}, background {:.2%})".format(label, x.shape, 1 - host.mean()))
    ref = _dist(x, CURRENT)[0].get()
    base = None
    rows = []
    for name, plan in PLANS:
        us = event_us(lambda: _dist(x, plan))
        got = _dist(x, plan)[0].get()
        same = numpy.array_equal(got, ref)
        ok = "equal" if same else "BAD: DIFFERS ({} elements)".format(int((got != ref).sum()))
        base = us if base is None else base
        rows.append((name, us, ok))
    public = event_us(lambda: nd.distance_transform_edt(x))
    cupy_us = _cupy(host)
    f64 = cp.empty(x.shape, cp.float64)
    g64 = cp.empty(x.shape, cp.float64)
    floor = event_us(lambda: cp.copyto(g64, f64))  # one pass' floor: f read and written once
    print("{:40s} {:>10s} {:>10s} {:>9s} {:>7s}  {}".format("plan", "us", "/ current", "/ CuPy", "x copy",
                                                            "distances == current"))
    for name, us, ok in rows + [("public call (default plan)", public, "")]:
        vs = "{:9.2f}".format(us / cupy_us) if cupy_us else "        -"
        print("{:40s} {:10.1f} {:10.2f} {} {:7.2f}  {}".format(name, us, us / base, vs, floor / us, ok))
    if cupy_us:
        print("{:40s} {:10.1f}".format("CuPy distance_transform_edt", cupy_us))
    best = min(rows, key=lambda r: r[1])
    default = dict((r[0], r[1]) for r in rows)[DEFAULT]
    print("fastest plan: {} ({:.1f} us); default: {:.1f} us".format(best[0], best[1], default))
    print("default plan's indices: {}; block staging's: {}".format(_check_indices(x, {}),
                                                                   _check_indices(x, dict(staging="block"))))
    return ref


def main():
    mask = random_array(cp, (2048, 2048), "float32", seed=50) > 0.51
    case("distance_transform_edt 2048^2 (bench mask)", mask, mask.get())
    vol_host = numpy.random.default_rng(0).random((256, 256, 256)) > 0.01
    vol = cp.asarray(vol_host)
    case("256^3", vol, vol_host)

    # sampled: the meeting points round, so allclose against the current kernel
    small = numpy.random.default_rng(1).random((300, 257, 33)) > 0.05
    xs = cp.asarray(small)
    samp = [1.3, 0.7, 2.1]
    a = _dist(xs, CURRENT, samp)[0].get()
    b = _dist(xs, {}, samp)[0].get()
    print("sampled 300x257x33, default vs current: max rel diff {:.3g} (allclose 1e-12: {})".format(
        float(numpy.max(numpy.abs(a - b) / numpy.maximum(a, 1e-300))), numpy.allclose(a, b, rtol=1e-12, atol=0)))

    for label, x in (("2048^2", mask), ("256^3", vol)):
        for name, plan in (PLANS[0], PLANS[3], PLANS[-2]):  # the first kernel, the default, block staging
            with cp.profile() as prof:
                _dist(x, plan)
            print("== profile, {}, {}: GPU {:.1f} us".format(label, name, prof.summary["gpu_us"]))
            print(prof.table(sort="gpu_time", limit=6))


if __name__ == "__main__":
    main()
