"""Small products over a long inner dimension (issue 32): `A @ B` with a small C and a long k, as
one cuBLAS GEMM (cuBLAS/cuBLASLt tiles C: one tile walks all of k), cut into pieces of k
(`_matmul._split_k`: one strided-batched GEMM and a sum over the parts) and as one reduction kernel
of ours (`_long_k`, "lk"; "lk-bN": N blocks an SM, "lk-uN": N rows of k in flight a thread), beside
PyTorch and CuPy when they import, in one process. One line per case, µs of GPU time
(scripts/perf/_timing.py gpu_us: the device alone); `ok`: every cuarray result against NumPy in
float64, BAD otherwise. "default" is whatever `a @ b` takes with the module's settings.

    python scripts/perf/tall_gemm.py [--reps N] [--variants b1,b4,u2,u8] [--sweep]

`--sweep` adds (2, k, 2) and (8, k, 8) rows from k = 1024 up (where `_long_k.MIN_K` comes from).
About 30-60 s on an H100.
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
from cuarray.linalg import _long_k, _matmul  # noqa: E402

CASES = [  # (name, m, k, n, dtype, a transposed: A is r.T of a (k, m) C array)
    ("EM r.T @ X (2,4e5,2) f64", 2, 400_000, 2, "float64", True),
    ("(2,4e5,2) f32", 2, 400_000, 2, "float32", False),
    ("(8,1e6,8) f32", 8, 1_000_000, 8, "float32", True),
    ("(8,1e6,8) f64", 8, 1_000_000, 8, "float64", True),
    ("(4,65536,4) f64", 4, 65_536, 4, "float64", True),
    ("(1,4e6,64) f32", 1, 4_000_000, 64, "float32", False),
    ("(2,1.6e7,2) f32", 2, 16_000_000, 2, "float32", True),
    ("(4,2e5,3) c128", 4, 200_000, 3, "complex128", True),
    ("(3,1e6,5) c64 B F-order", 3, 1_000_000, 5, "complex64", False),
    ("(4,1e6,16) f32", 4, 1_000_000, 16, "float32", False),
    ("(16,1e6,4) f64", 16, 1_000_000, 4, "float64", True),
    ("(1,1e6,32) c64", 1, 1_000_000, 32, "complex64", False),
]
SWEEP = [("({0},{1},{0}) {2}".format(s, k, dt[0] + dt[-2:]), s, k, s, dt, True)
         for s in (2, 8) for dt in ("float64", "float32") for k in (1024, 2048, 4096, 8192, 16384, 32768, 131072)]


class _Settings:
    """Sets the module knobs for one column and puts them back."""
    names = [(_long_k, "MIN_K"), (_long_k, "_BLOCKS_PER_SM"), (_long_k, "_UNROLL"), (_matmul, "_SPLIT_K_MIN")]

    def __init__(self, **kw):
        self.kw = kw

    def __enter__(self):
        self.saved = [getattr(m, n) for m, n in self.names]
        for (m, n) in self.names:
            if n in self.kw:
                setattr(m, n, self.kw[n])
        _long_k._prepared.clear()

    def __exit__(self, *exc):
        for (m, n), v in zip(self.names, self.saved):
            setattr(m, n, v)
        _long_k._prepared.clear()


def columns(variants):
    never = 1 << 62
    cols = [("one GEMM", dict(MIN_K=never, _SPLIT_K_MIN=never)), ("split", dict(MIN_K=never)),
            ("lk", dict(MIN_K=1)), ("default", {})]
    for v in variants:
        if v[0] == "b":
            cols.append(("lk-" + v, dict(MIN_K=1, _BLOCKS_PER_SM=int(v[1:]))))
        elif v[0] == "u":
            cols.append(("lk-" + v, dict(MIN_K=1, _UNROLL=int(v[1:]))))
    return cols


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=30)
    ap.add_argument("--variants", default="b1,b4,b8,u2,u8")
    ap.add_argument("--sweep", action="store_true")
    args = ap.parse_args()
    cols = columns([v for v in args.variants.split(",") if v])
    peers = gpu_peers()
    rng = np.random.default_rng(0)
    head = [c for c, _ in cols] + list(peers)
    print("_long_k MIN_K {}, MAX_SIDE {}, _BLOCKS_PER_SM {}, _UNROLL {}; _SPLIT_K_MIN {}; µs of GPU time".format(
        _long_k.MIN_K, _long_k.MAX_SIDE, _long_k._BLOCKS_PER_SM, _long_k._UNROLL, _matmul._SPLIT_K_MIN))
    print("{:28s} ".format("case") + " ".join("{:>9s}".format(h) for h in head) + "  lk/GEMM  ok")
    for name, m, k, n, dt, at in CASES + (SWEEP if args.sweep else []):
        def rand(shape):
            x = rng.standard_normal(shape)
            return (x + 1j * rng.standard_normal(shape) if np.dtype(dt).kind == "c" else x).astype(dt)
        ha = rand((k, m)).T if at else rand((m, k))
        hb = rand((k, n))
        fb = "F-order" in name
        wide = np.complex128 if np.dtype(dt).kind == "c" else np.float64
        want = ha.astype(wide) @ hb.astype(wide)
        tol = 1e-10 if dt in ("float64", "complex128") else 1e-4
        a = cuarray.asarray(ha.T).T if at else cuarray.asarray(ha)
        b = cuarray.asfortranarray(cuarray.asarray(hb)) if fb else cuarray.asarray(hb)
        times, ok = {}, "ok"
        for label, kw in cols:
            with _Settings(**kw):
                got = (a @ b).get().astype(wide)
                if not np.allclose(got, want, rtol=tol, atol=tol * np.sqrt(k)):
                    ok = "BAD({})".format(label)
                times[label] = gpu_us(lambda: a @ b, args.reps)
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
        print("{:28s} ".format(name) + " ".join("{:9.1f}".format(times[h]) if h in times else "{:>9s}".format("-")
                                               for h in head) + "  {:7.2f}  {}".format(times["lk"] / times["one GEMM"], ok),
              flush=True)


if __name__ == "__main__":
    main()
