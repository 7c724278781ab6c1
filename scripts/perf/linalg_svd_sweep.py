"""The svd algorithm sweep of docs/perf-notes.md, in one process: gesvd, gesvdj, gesvdp and the
QR-first variants on square, tall and wide float64 matrices, against CuPy's svd (gesvd), with
accuracy (reconstruction, orthogonality, singular values against gesvd's). Prints one table row
per (shape, algorithm, full_matrices). Run: python scripts/perf/linalg_svd_sweep.py"""

from __future__ import annotations

import sys
import time

import numpy

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _timing import event_us  # noqa: E402

import cuarray  # noqa: E402
from cuarray.linalg import _svd  # noqa: E402

try:
    import cupy
except ImportError:  # pragma: no cover
    cupy = None

SHAPES = [(4096, 4096), (1024, 1024), (8192, 1024), (1024, 8192), (256, 256)]


def _acc(a, res, s_ref):
    u, s, vh = (cupy.asarray(x) for x in res)
    ca = cupy.asarray(a)
    k = s.shape[-1]
    rec = float(cupy.linalg.norm(ca - (u[:, :k] * s) @ vh[:k]) / cupy.linalg.norm(ca))
    orth = float(cupy.abs(u.conj().T @ u - cupy.eye(u.shape[1])).max())
    sv = float(cupy.abs(s - cupy.asarray(s_ref)).max() / cupy.asarray(s_ref)[0])
    return rec, orth, sv


def main():
    rng = numpy.random.default_rng(5)
    print("shape        algo        full  time_ms  cupy_ms  ratio   recon    orth     s_err")
    for m, n in SHAPES:
        h = rng.standard_normal((m, n))
        a = cuarray.asarray(h)
        reps = 2 if m * n >= 4096 * 4096 else 5
        s_ref = _svd._svd(a, False, False, "gesvd")
        cp_ms = None
        if cupy is not None:
            ca = cupy.asarray(h)
            cp_ms = event_us(lambda: cupy.linalg.svd(ca, full_matrices=True), reps=reps, warmup=1) / 1e3
        for full in (True, False):
            for algo in _svd.ALGORITHMS:
                if full and algo.startswith("qr+"):
                    continue
                try:
                    t0 = time.perf_counter()
                    ms = event_us(lambda: _svd._svd(a, full, True, algo), reps=reps, warmup=1) / 1e3
                    rec, orth, sv = _acc(a, _svd._svd(a, full, True, algo), s_ref)
                except Exception as e:  # noqa: BLE001 - a routine missing from this cuSOLVER is a row
                    print("{:>5}x{:<6} {:<11} {!s:<5} failed: {}: {}".format(m, n, algo, full, type(e).__name__, e))
                    continue
                ratio = ms / cp_ms if cp_ms else float("nan")
                print("{:>5}x{:<6} {:<11} {!s:<5} {:8.1f} {:8.1f} {:6.2f} {:8.1e} {:8.1e} {:8.1e}  ({:.0f} s)".format(
                    m, n, algo, full, ms, cp_ms or float("nan"), ratio, rec, orth, sv, time.perf_counter() - t0))
        print("  chosen now:", _svd.choose_algorithm(max(m, n), min(m, n), True, True),
              "(full)", _svd.choose_algorithm(max(m, n), min(m, n), False, True), "(reduced)", flush=True)
    if cupy is not None:
        ca = cupy.asarray(rng.standard_normal((4096, 4096)))
        print("cupy eigh 4096: {:.1f} ms".format(event_us(lambda: cupy.linalg.eigh(ca), reps=3, warmup=1) / 1e3))


if __name__ == "__main__":
    main()
