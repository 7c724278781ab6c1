"""Per-operation wall time of cg's building blocks on the GPU (µs per call, each followed by a
host read as in a solver iteration, and back to back without one): which dot product to use,
and what an SpMV and the fused updates cost. Run on a GPU: python scripts/perf/sparse_cg_ops.py"""

from __future__ import annotations

import sys
import time

import numpy as np

import cuarray as cp
import cuarray.sparse as sp
from cuarray.sparse.linalg import _kernels


def timed(name, f, n=300):
    for _ in range(10):
        f()
    cp.cuda.Device().synchronize()
    t0 = time.perf_counter()
    for _ in range(n):
        f()
    cp.cuda.Device().synchronize()
    t1 = time.perf_counter()
    for _ in range(n):
        r = f()
        if r is not None and getattr(r, "ndim", 1) == 0:
            float(r)
        else:
            cp.cuda.Device().synchronize()
    t2 = time.perf_counter()
    print("{:34s} {:8.1f} us back to back   {:8.1f} us with a read".format(name, (t1 - t0) / n * 1e6,
                                                                         (t2 - t1) / n * 1e6))


def main(k=1000):
    n = k * k
    x = cp.asarray(np.random.default_rng(0).random(n))
    y = cp.asarray(np.random.default_rng(1).random(n))
    s = cp.asarray(np.array(1.5))
    t = sp.diags([cp.asarray(-np.ones(k - 1)), cp.asarray(2 * np.ones(k)), cp.asarray(-np.ones(k - 1))], [-1, 0, 1],
                 format="csr")
    i = sp.identity(k, format="csr")
    a = (sp.kron(i, t, format="csr") + sp.kron(t, i, format="csr")).tocsr()
    timed("vdot", lambda: cp.vdot(x, y))
    timed("sum(multiply)", lambda: cp.sum(cp.multiply(x, y)))
    timed("x @ y", lambda: cp.matmul(x, y))
    timed("spmv (Poisson, {} unknowns)".format(n), lambda: a @ x)
    timed("axpy2 fused", lambda: _kernels.axpy2(s, s, x, y, x.copy(), y.copy()))
    timed("multiply(0-d, x)", lambda: cp.multiply(s, x))
    timed("float(0-d) alone", lambda: s.sum())


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
