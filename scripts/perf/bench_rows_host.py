"""Host work per call of host-bound bench rows' operations on the fake device, for one tree:
Python calls (deterministic) and the best of 7 timings of 2000 calls (noisy on a shared machine).

The launch is a hook that does nothing (the fake device's cuda.core-style launch plumbing is not
the GPU's C launcher, and trees differ there), cuBLAS and cuSPARSE make no call. Rows: seed-exp
(exp of 230400 f32), ew-small (16-element add), seed-table1 (arange(1e6).reshape(1000, -1).T * 2),
matmul-host (64x64 f32), sparse-spmv (CSR @ x). Compare a baseline tree from
`git archive <commit> | tar -x -C DIR` (its C cores built: `python setup.py build_ext --inplace`):

    python scripts/perf/bench_rows_host.py --root /tmp/old; python scripts/perf/bench_rows_host.py

Issue 49's before/after (af92b31 against main, three interleaved runs each): equal counts (17,
17, 43/44, 18/19, 65) and times within this machine's noise (exp 1.36-1.38 / 1.39-1.49 us, add
1.22-1.28 / 1.23-1.29, arange.T*2 4.7-6.7 both, spmv 6.6-8.9 both). matmul's extra call and
~0.12 us are the stub's: main reaches it through the observer seam (`library`, its 18 arguments
packed), the old tree by a replaced `gemm`; without an observer the seam is one attribute test.
"""

from __future__ import annotations

import argparse
import os
import sys
import time


def _stub_libraries(fake_device):
    """cuBLAS and cuSPARSE make no call. Through the observer seam where the tree has one; a tree
    from before it (no cuarray.testing.fake_device) has its wrappers replaced in this process."""
    from cuarray.cuda.libs import cublas, cusparse

    if fake_device is not None:
        from cuarray.cuda import _observe

        class NoLibraries(fake_device.FakeCompiles):
            def library(self, name, char, call, args, kwargs):
                return None

        _observe.set_observer(NoLibraries())
    else:  # a baseline tree only (this process is thrown away)
        cublas.gemm = lambda *a, **k: None
    cusparse.SpMatDescr = lambda *a, **k: object()  # (no seam for cuSPARSE: this process only)
    cusparse.spmv = lambda *a, **k: None


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--root", help="import cuarray from this tree")
    args = p.parse_args()
    root = os.path.abspath(args.root) if args.root else os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    sys.path.insert(0, root)
    sys.path.insert(0, os.path.join(root, "scripts", "perf"))
    try:
        from cuarray.testing import fake_device
    except ImportError:  # trees before the fake device moved into the package
        fake_device = None
        from _host_stub import stub_device

        stub_device()
    else:
        fake_device.install()
    from _calls import count_calls

    import numpy as np

    import cuarray as cp
    from cuarray.cuda import launch

    launch.set_launch_hook(lambda raw, stream, config, kernel, a: None)
    _stub_libraries(fake_device)
    x, a16, m = cp.empty(230400, np.float32), cp.empty(16, np.float32), cp.empty((64, 64), np.float32)
    n = 1000
    csr = cp.sparse.csr_matrix((cp.empty(10 * n, np.float32), cp.empty(10 * n, np.int32),
                                cp.empty(n + 1, np.int32)), shape=(n, n))
    v = cp.empty(n, np.float32)
    kept = {}
    cases = {
        "seed-exp: exp(x) 230400 f32": lambda: kept.__setitem__("r", cp.exp(x)),
        "ew-small: a + b 16 el": lambda: a16 + a16,
        "seed-table1: arange(1e6).reshape.T * 2": lambda: cp.arange(10**6).reshape(1000, -1).T * 2,
        "matmul-host: 64x64 @ 64x64": lambda: m @ m,
        "sparse-spmv: csr @ x": lambda: csr @ v,
    }
    print("# cuarray from", os.path.dirname(cp.__file__))
    for name, f in cases.items():
        for _ in range(300):
            f()
        best = float("inf")
        for _ in range(7):
            t = time.perf_counter()
            for _ in range(2000):
                f()
            best = min(best, (time.perf_counter() - t) / 2000)
        print("{:<42} {:>4} calls  {:6.2f} us".format(name, count_calls(f), best * 1e6))


if __name__ == "__main__":
    main()
