"""Small products over a long inner dimension (`linalg._matmul._split_k`, issue 32): `A @ B` with
m n <= 64 and k >= 2**18, as one GEMM (cuBLAS/cuBLASLt tiles C: one tile walks all of k) and cut
into pieces of k (one strided-batched GEMM and a sum over the parts: "default" the module's
settings, "p<N>" N parts of at least 1024), beside PyTorch and
CuPy when they import, in one process. One line per case, µs of GPU time (scripts/perf/_timing.py
gpu_us: the device alone); `ok`: every cuarray result against NumPy in float64, BAD otherwise.

    python scripts/perf/tall_gemm.py [--parts 64,128,256,512] [--reps N]

About 20-40 s on an H100.
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _peers import gpu_peers  # noqa: E402
from _timing import gpu_us  # noqa: E402

import cuarray  # noqa: E402
from cuarray.linalg import _matmul  # noqa: E402

CASES = [  # (name, m, k, n, dtype, a transposed: A is r.T of a (k, m) C array)
    ("EM r.T @ X (2,4e5,2) f64", 2, 400_000, 2, "float64", True),
    ("(2,4e5,2) f32", 2, 400_000, 2, "float32", False),
    ("(8,1e6,8) f32", 8, 1_000_000, 8, "float32", True),
    ("(8,1e6,8) f64", 8, 1_000_000, 8, "float64", True),
    ("(4,65536,4) f64", 4, 65_536, 4, "float64", True),
    ("(1,4e6,64) f32", 1, 4_000_000, 64, "float32", False),
    ("(2,1.6e7,2) f32", 2, 16_000_000, 2, "float32", True),
    ("(4,2e5,3) c128", 4, 200_000, 3, "complex128", True),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--parts", default="64,128,256,512")
    ap.add_argument("--reps", type=int, default=30)
    args = ap.parse_args()
    parts = [int(p) for p in args.parts.split(",")]
    peers = gpu_peers()
    rng = np.random.default_rng(0)
    saved = _matmul._SPLIT_K_MIN, _matmul._SPLIT_K_PARTS, _matmul._SPLIT_K_MIN_PART
    head = ["one GEMM", "default"] + ["p{}".format(p) for p in parts] + list(peers)
    print("_SPLIT_K_MIN {}, _SPLIT_K_MAX_OUT {}, _SPLIT_K_MIN_PART {}, _SPLIT_K_PARTS {}; µs of GPU time".format(
        _matmul._SPLIT_K_MIN, _matmul._SPLIT_K_MAX_OUT, _matmul._SPLIT_K_MIN_PART, _matmul._SPLIT_K_PARTS))
    print("{:28s} ".format("case") + " ".join("{:>9s}".format(h) for h in head) + "  def/one  ok")
    for name, m, k, n, dt, at in CASES:
        def rand(shape):
            x = rng.standard_normal(shape)
            return (x + 1j * rng.standard_normal(shape) if np.dtype(dt).kind == "c" else x).astype(dt)
        ha = rand((k, m)).T if at else rand((m, k))
        hb = rand((k, n))
        wide = np.complex128 if np.dtype(dt).kind == "c" else np.float64
        want = ha.astype(wide) @ hb.astype(wide)
        tol = 1e-10 if dt in ("float64", "complex128") else 1e-4
        a = cuarray.asarray(ha.T).T if at else cuarray.asarray(ha)
        b = cuarray.asarray(hb)
        times, ok = {}, "ok"
        settings = [("one GEMM", 1 << 62, saved[1], saved[2]), ("default",) + saved] + \
            [("p{}".format(p), saved[0], p, 1024) for p in parts]
        for label, mn, p, part in settings:
            _matmul._SPLIT_K_MIN, _matmul._SPLIT_K_PARTS, _matmul._SPLIT_K_MIN_PART = mn, p, part
            got = (a @ b).get().astype(wide)
            if not np.allclose(got, want, rtol=tol, atol=tol * np.sqrt(k)):
                ok = "BAD"
            times[label] = gpu_us(lambda: a @ b, args.reps)
        _matmul._SPLIT_K_MIN, _matmul._SPLIT_K_PARTS, _matmul._SPLIT_K_MIN_PART = saved
        for lib, (mod, cuda) in peers.items():
            try:
                if lib == "torch":
                    ta = mod.as_tensor(np.ascontiguousarray(ha.T), device="cuda").T if at else mod.as_tensor(ha, device="cuda")
                    tb = mod.as_tensor(hb, device="cuda")
                else:
                    ta = mod.asarray(np.ascontiguousarray(ha.T)).T if at else mod.asarray(ha)
                    tb = mod.asarray(hb)
                times[lib] = gpu_us(lambda: ta @ tb, args.reps, cuda=cuda)
            except Exception as exc:  # noqa: BLE001
                print("  {} {}: {}".format(lib, name, exc), file=sys.stderr)
        best = times["default"]
        print("{:28s} ".format(name) + " ".join("{:9.1f}".format(times[h]) if h in times else "{:>9s}".format("-")
                                               for h in head) + "  {:8.2f}  {}".format(best / times["one GEMM"], ok),
              flush=True)


if __name__ == "__main__":
    main()
