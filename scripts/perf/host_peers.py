"""Issue 32's two host-time rows on a GPU, cuarray against its peers (run by the lead):

1. matmul-host: host time per call of a 64x64 float32 `a @ b` (5000 calls, one sync; min of 7),
   cuarray, CuPy and PyTorch in this process.
2. The first call of an ElementwiseKernel in a fresh process with a warm disk cache, cuarray and
   CuPy (PyTorch has none): per library, one child process fills its kernel cache, then each of
   N fresh children times `lib.ElementwiseKernel` (attribute), the construction, and the first
   call up to a synchronize (so the module load is in it). Children print one line each.

    python scripts/perf/host_peers.py [--n 15]

The host-only parts (no module load, device stubbed) are in host_matmul_ewk.py.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time


def _host_us(fn, sync, n=5000, reps=7):
    for _ in range(500):
        fn()
    sync()
    best = None
    for _ in range(reps):
        t = time.perf_counter()
        for _ in range(n):
            fn()
        sync()
        dt = (time.perf_counter() - t) / n * 1e6
        best = dt if best is None else min(best, dt)
    return best


def matmul_rows():
    import numpy as np

    rows = []
    import cuarray as ca

    a = ca.asarray(np.random.rand(64, 64).astype(np.float32))
    b = ca.asarray(np.random.rand(64, 64).astype(np.float32))
    sync = ca.cuda.Device().synchronize
    rows.append(("cuarray", _host_us(lambda: a @ b, sync), _host_us(lambda: ca.matmul(a, b), sync)))
    try:
        import cupy

        ca_, cb_ = cupy.asarray(a.get()), cupy.asarray(b.get())
        s = cupy.cuda.Device().synchronize
        rows.append(("cupy", _host_us(lambda: ca_ @ cb_, s), _host_us(lambda: cupy.matmul(ca_, cb_), s)))
    except ImportError:
        pass
    try:
        import torch

        ta, tb = torch.rand(64, 64, device="cuda"), torch.rand(64, 64, device="cuda")
        s = torch.cuda.synchronize
        rows.append(("torch", _host_us(lambda: ta @ tb, s), _host_us(lambda: torch.matmul(ta, tb), s)))
    except ImportError:
        pass
    print("matmul-host, 64x64 float32, us per call (5000 calls + sync, min of 7):")
    print("  {:<8} {:>8} {:>12}".format("library", "a @ b", "matmul(a,b)"))
    for name, op, fn in rows:
        print("  {:<8} {:>8.2f} {:>12.2f}".format(name, op, fn))


def child(lib):
    import numpy as np

    m = __import__(lib)
    x = m.asarray(np.arange(1 << 16, dtype=np.float32))
    y = m.asarray(np.ones(1 << 16, dtype=np.float32))
    sync = m.cuda.Device().synchronize
    sync()
    t0 = time.perf_counter()
    ek = m.ElementwiseKernel
    t1 = time.perf_counter()
    k = ek("T x, T y", "T z", "z = (x - y) * (x - y)", "sqdiff_first_call")
    t2 = time.perf_counter()
    k(x, y)
    sync()
    t3 = time.perf_counter()
    print("FIRST {:.1f} {:.1f} {:.1f}".format((t1 - t0) * 1e6, (t2 - t1) * 1e6, (t3 - t2) * 1e6))


def first_call_rows(n):
    print("first ElementwiseKernel call, fresh process, warm disk cache, us (median of {} processes):".format(n))
    print("  {:<8} {:>10} {:>10} {:>12} {:>8}".format("library", "attribute", "construct", "call+sync", "total"))
    for lib in ("cuarray", "cupy"):
        try:
            __import__(lib)
        except ImportError:
            continue
        d = tempfile.mkdtemp(prefix="first-ewk-")
        env = dict(os.environ, CUARRAY_CACHE_DIR=d, CUPY_CACHE_DIR=d)
        cmd = [sys.executable, os.path.abspath(__file__), "--child", lib]
        subprocess.run(cmd, env=env, check=True, capture_output=True)  # compiles, fills the cache
        rows = []
        for _ in range(n):
            out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
            rows.append([float(v) for v in out.split()[-3:]])
        med = [statistics.median(r[i] for r in rows) for i in range(3)]
        tot = statistics.median(sum(r) for r in rows)
        print("  {:<8} {:>10.0f} {:>10.0f} {:>12.0f} {:>8.0f}".format(lib, *med, tot))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--child")
    p.add_argument("--n", type=int, default=15)
    args = p.parse_args()
    if args.child:
        child(args.child)
        return
    matmul_rows()
    first_call_rows(args.n)


if __name__ == "__main__":
    main()
