"""Issue 30: float32 loops of special functions evaluated in float (templates/bessel_float.cuh:
i0e, i1e; templates/gamma_float.cuh: gammaln for x >= 0) against the evaluations they replace
(i0e, i1e: in double, as SciPy's 'f->f' loops; gammaln: CUDA's lgammaf for x >= 0), timed in one
process at the bench's size (256 Mi values in (0, 1), as cuarray/bench/cases/scipy_special.py)
next to cupyx.scipy.special and torch.special, with the accuracy of the values the GPU computed.

Rows, per function and dtype: microseconds of the double evaluation ("old"; the float64 rows have
only the one evaluation), of the library's loop ("new"), of CuPy and PyTorch (CUDA-event medians),
the new loop's fraction of the copy rate (one read and one write an element), and the max error
in float32 ulps and the fraction correctly rounded against SciPy's float64 values, for the new
and the old loop, over 4 Mi arguments covering the evaluation's intervals (i0e/i1e: |x| < 2,
[2, 4), >= 4, log-spaced magnitudes 1e-44..1e38, both signs; gammaln: (0, 3), [3, 1e4), within
1e-3 of the roots 1 and 2, log-spaced magnitudes; x >= 0 only, below 0 both loops compute in
double) computed on the GPU. float64 rows: one evaluation (the library's), its max relative error
in units of 2^-52. The host build (tests/scipy/test_special_float_cpu.py) measured the new loops
at <= 1.8 ulp; a GPU figure above 2 means the device rounds differently from the host build
(a bug: the evaluation is written to give the same bits).

What decides: keep the float loop if "new" is faster than "old" and its max ulp <= 2 (target:
>= 0.9 of the copy rate, <= CuPy and PyTorch).

    PYTHONPATH=. python scripts/perf/special_float_variants.py [--n-mi 256]
"""

import argparse
import os
import statistics
import sys

import numpy

FUNCS = ("i0e", "i1e", "gammaln")


def _peer_us(name, mod, fn, x, reps=10):
    if name == "cupy":
        ev, sync, elapsed = mod.cuda.Event, mod.cuda.Device().synchronize, mod.cuda.get_elapsed_time
    else:
        ev = lambda: mod.cuda.Event(enable_timing=True)  # noqa: E731
        sync, elapsed = mod.cuda.synchronize, lambda a, b: a.elapsed_time(b)
    for _ in range(3):
        fn(x)
    sync()
    ts = []
    for _ in range(reps):
        a, b = ev(), ev()
        a.record()
        fn(x)
        b.record()
        b.synchronize()
        ts.append(elapsed(a, b) * 1e3)
    return statistics.median(ts)


def _ulps(got, want):
    fin = numpy.isfinite(want)
    w32 = want[fin].astype(numpy.float32)
    ulp = numpy.spacing(numpy.maximum(numpy.abs(w32), numpy.float32(numpy.finfo(numpy.float32).tiny)))
    err = numpy.abs(got[fin].astype(numpy.float64) - want[fin]) / ulp.astype(numpy.float64)
    return float(err.max()), float(numpy.mean(got[fin] == w32))


def _accuracy_args(f, n=4 * 2**20):
    rng = numpy.random.default_rng()
    q = n // 4
    if f == "gammaln":
        x = numpy.concatenate([rng.uniform(0, 3, q), rng.uniform(3, 1e4, q),
                               rng.choice([1.0, 2.0], q) + rng.uniform(-1e-3, 1e-3, q),
                               10.0 ** rng.uniform(-44, 36, n - 3 * q)])
        return x.astype(numpy.float32)
    x = numpy.concatenate([rng.uniform(0, 2, q), rng.uniform(2, 4, q), rng.uniform(4, 1e4, q),
                           10.0 ** rng.uniform(-44, 38.5, n - 3 * q)]).astype(numpy.float32)
    return x * numpy.where(rng.random(n) < 0.5, -1, 1).astype(numpy.float32)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n-mi", type=int, default=256)
    a = ap.parse_args()
    n = a.n_mi * 2**20
    sys.path.insert(0, os.path.dirname(__file__))
    import scipy.special

    import cuarray
    from cuarray._core.ufunc import ufunc
    from cuarray.scipy import special
    from cuarray.scipy.special import _bessel, _gamma
    from cuarray.scipy.special._ufunc import LoopTable, header
    from _timing import event_us
    from special_peers import _peer_modules

    loops = ("d->d", "f->f")
    old = {
        "i0e": ufunc("i0e_double_eval", 1, 1, _bessel.I0E_DOUBLE, preamble=header("bessel.cuh"),
                     np_ufunc=LoopTable("i0e", 1, 1, loops)),
        "i1e": ufunc("i1e_double_eval", 1, 1, _bessel.I1E_DOUBLE, preamble=header("bessel.cuh"),
                     np_ufunc=LoopTable("i1e", 1, 1, loops)),
        "gammaln": ufunc("gammaln_lgammaf", 1, 1, _gamma.GAMMALN_LGAMMAF, preamble=header("gamma.cuh"),
                         np_ufunc=LoopTable("gammaln", 1, 1, loops)),
    }
    peers = _peer_modules()
    host = numpy.random.default_rng(30).random(n)
    acc_x = {f: _accuracy_args(f) for f in FUNCS}
    print("{:8s} {:8s} {:>9s} {:>9s} {:>9s} {:>9s} {:>6s} {:>8s} {:>7s} {:>8s} {:>7s}".format(
        "func", "dtype", "old us", "new us", "cupy us", "torch us", "copy", "new ulp", "new cr", "old ulp",
        "old cr"))
    for dt in ("float32", "float64"):
        x = cuarray.asarray(host.astype(dt))
        y = cuarray.empty_like(x)
        copy_us = event_us(lambda: cuarray.copyto(y, x), reps=10)
        pxs = {p: (mod.asarray(host.astype(dt)) if p == "cupy" else mod.from_numpy(host.astype(dt)).cuda())
               for p, (mod, _) in peers.items()}
        for f in FUNCS:
            new_f = getattr(special, f)
            new_us = event_us(lambda: new_f(x), reps=10)
            old_us = event_us(lambda: old[f](x), reps=10) if dt == "float32" else float("nan")
            peer_us = {}
            for p, (mod, sp) in peers.items():
                g = getattr(sp, f, None)
                peer_us[p] = _peer_us(p, mod, g, pxs[p]) if g is not None else float("nan")
            ax = acc_x[f].astype(dt)
            want = getattr(scipy.special, f)(ax.astype(numpy.float64))
            if dt == "float32":
                nu, nc = _ulps(new_f(cuarray.asarray(ax)).get(), want)
                ou, oc = _ulps(old[f](cuarray.asarray(ax)).get(), want)
            else:  # float64: relative error in units of 2^-52, no rounding-to-float32 column
                got = new_f(cuarray.asarray(ax)).get()
                fin = numpy.isfinite(want) & (want != 0)
                nu, nc = float(numpy.max(numpy.abs(got[fin] / want[fin] - 1)) / 2.0**-52), float("nan")
                ou = oc = float("nan")
            print("{:8s} {:8s} {:9.1f} {:9.1f} {:9.1f} {:9.1f} {:6.2f} {:8.2f} {:7.3f} {:8.2f} {:7.3f}".format(
                f, dt, old_us, new_us, peer_us.get("cupy", float("nan")), peer_us.get("torch", float("nan")),
                copy_us / new_us, nu, nc, ou, oc), flush=True)


if __name__ == "__main__":
    main()
