"""Timings of cuarray.scipy.linalg's routines without a cuSOLVER counterpart: qr(pivoting=True)
(geqp3's algorithm one column at a time), sqrtm and logm (eigh path for symmetric input;
geev + Denman-Beavers / inverse scaling and squaring otherwise), solve_banded (dense LU), against
SciPy on the host, with the error of each result against SciPy's. Prints one row per (routine,
n). Run: python scripts/perf/scipy_linalg_iterative.py [sizes...]  (default 256 1024 2048)"""

from __future__ import annotations

import sys
import time

import numpy
import scipy.linalg as sla

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _timing import event_us  # noqa: E402

import cuarray  # noqa: E402
from cuarray.scipy import linalg as cla  # noqa: E402


def _host_s(fn, reps=3):
    fn()
    t = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        t.append(time.perf_counter() - t0)
    return sorted(t)[len(t) // 2]


def _cases(n):
    rng = numpy.random.default_rng(n)
    a = rng.standard_normal((n, n))
    spd = a @ a.T / n + numpy.eye(n)
    shifted = a / numpy.sqrt(n) + 3 * numpy.eye(n)  # eigenvalues in the right half plane
    ab = rng.standard_normal((5, n))
    ab[2] += 10
    b = rng.standard_normal((n, 8))
    return [
        ("qr pivoting", lambda m: m.qr(A(m, a), pivoting=True)[1], a),
        ("qr (no pivoting)", lambda m: m.qr(A(m, a))[1], a),
        ("sqrtm spd (eigh)", lambda m: m.sqrtm(A(m, spd)), spd),
        ("sqrtm general (DB)", lambda m: m.sqrtm(A(m, shifted)), shifted),
        ("logm spd (eigh)", lambda m: m.logm(A(m, spd)), spd),
        ("logm general (ISS)", lambda m: m.logm(A(m, shifted)), shifted),
        ("solve_banded l=u=2", lambda m: m.solve_banded((2, 2), A(m, ab), A(m, b)), None),
    ]


_DEV = {}


def A(m, h):
    """The input for module `m`: the host array for SciPy, a cached device copy for cuarray."""
    if m is sla:
        return h
    key = id(h)
    if key not in _DEV:
        _DEV[key] = cuarray.asarray(h)
    return _DEV[key]


def main(sizes):
    print("{:22} {:>6} {:>12} {:>12} {:>8} {:>10}".format("routine", "n", "cuarray ms", "scipy ms", "ratio", "rel err"))
    for n in sizes:
        _DEV.clear()
        for name, fn, _ in _cases(n):
            got = fn(cla)
            want = fn(sla)
            err = float(numpy.abs(cuarray.asnumpy(got) - want).max() / max(1e-300, numpy.abs(want).max()))
            reps = 3 if n >= 1024 else 10
            t_gpu = event_us(lambda: fn(cla), reps=reps, warmup=1) / 1e3
            t_cpu = _host_s(lambda: fn(sla)) * 1e3
            print("{:22} {:>6} {:>12.2f} {:>12.2f} {:>8.2f} {:>10.1e}".format(name, n, t_gpu, t_cpu, t_gpu / t_cpu, err))


if __name__ == "__main__":
    main([int(v) for v in sys.argv[1:]] or [256, 1024, 2048])
