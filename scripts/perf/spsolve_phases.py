"""Where `spsolve` of the bench's matrix spends its time (issue 58, bench row sparse-direct-spsolve):
the 2-D Poisson matrix (5-point stencil, k^2 unknowns, float64) solved through cuDSS phase by
phase: ANALYSIS (the reordering on the host and the symbolic factorisation), FACTORIZATION and
SOLVE, each synchronised and timed, for each reordering algorithm cuDSS has, with cuDSS's
single-threaded host code and with its OpenMP threading layer (`libcudss_mtlayer_gomp.so.0`,
shipped beside `libcudss.so.0` in the nvidia-cudss-cu13 wheel), as a general matrix (LU, what
`spsolve` asks for) and, for reference, as symmetric positive definite (Cholesky, which
`spsolve` cannot assume). Then the public `cuarray.sparse.linalg.spsolve` end to end. Each row's
relative residual |A x - b| / |b| is printed.

On the H100 (session 24) `spsolve` took 6.85-7.06 s at k = 1000; cupyx's and SciPy's did not
finish a call within 85-100 s. One GPU call:

    eval "$(bash scripts/cudss_to_device.sh env)"; python scripts/perf/spsolve_phases.py [-k 1000]
"""

from __future__ import annotations

import argparse
import glob
import os
import time

import numpy


def poisson(k):
    import scipy.sparse as sp

    t = sp.diags([-1.0, 4.0, -1.0], [-1, 0, 1], shape=(k, k))
    s = sp.diags([-1.0, -1.0], [-1, 1], shape=(k, k))
    return (sp.kron(sp.identity(k), t) + sp.kron(s, sp.identity(k))).tocsr()


def mt_layer():
    """The OpenMP threading layer's file beside the loaded libcudss, or None."""
    for d in os.environ.get("LD_LIBRARY_PATH", "").split(os.pathsep):
        hits = glob.glob(os.path.join(d, "libcudss_mtlayer_gomp.so*")) if d else []
        if hits:
            return hits[0]
    return None


def phases(cp, A, b, alg, mtype, layer):
    """(analysis, factorization, solve) seconds and the relative residual of one configuration,
    on a fresh handle (a threading layer is set per handle)."""
    from cuarray.cuda.libs import cudss

    lib = cudss.bindings()
    n = A.shape[0]
    h = lib.create()
    try:
        lib.set_stream(h, cp.cuda.get_current_stream().ptr)
        if layer:
            lib.set_threading_layer(h, layer)
        config, data = lib.config_create(), lib.data_create(h)
        v = numpy.array([alg], numpy.int32)
        lib.config_set(config, int(lib.ConfigParam.REORDERING_ALG), v.ctypes.data, v.nbytes)
        indptr, indices, vals = (cp.asarray(A.indptr.astype(numpy.int32)), cp.asarray(A.indices.astype(numpy.int32)),
                                 cp.asarray(A.data))
        x = cp.zeros(n)
        m = lib.matrix_create_csr(n, n, A.nnz, indptr.data.ptr, 0, indices.data.ptr, vals.data.ptr, 10, 10, 1,
                                  int(mtype), int(lib.MatrixViewType.FULL), int(lib.IndexBase.ZERO))
        xd = lib.matrix_create_dn(n, 1, n, x.data.ptr, 1, int(lib.Layout.COL_MAJOR))
        bd = lib.matrix_create_dn(n, 1, n, b.data.ptr, 1, int(lib.Layout.COL_MAJOR))
        times = []
        for phase in (lib.Phase.ANALYSIS, lib.Phase.FACTORIZATION, lib.Phase.SOLVE):
            cp.cuda.synchronize()
            t0 = time.perf_counter()
            lib.execute(h, int(phase), config, data, m, xd, bd)
            cp.cuda.synchronize()
            times.append(time.perf_counter() - t0)
        for d in (m, xd, bd):
            lib.matrix_destroy(d)
        lib.data_destroy(h, data)
        lib.config_destroy(config)
        xh, bh = x.get(), b.get()
        return times, float(numpy.linalg.norm(A @ xh - bh) / numpy.linalg.norm(bh))
    finally:
        lib.destroy(h)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("-k", type=int, default=1000, help="grid side: k^2 unknowns (the bench: 1000)")
    args = ap.parse_args()
    import cuarray as cp
    from cuarray.cuda.libs import cudss
    from cuarray.sparse.linalg import spsolve

    lib = cudss.bindings()
    A = poisson(args.k)
    b = cp.asarray(numpy.random.default_rng(0).random(A.shape[0]))
    layer = mt_layer()
    print("n = {}, nnz = {}; threading layer: {}".format(A.shape[0], A.nnz, layer or "not found"))
    # (NONE, no reordering, is left out: at k = 1000 its LU fill would be ~1e9 entries)
    enum = getattr(lib, "ReorderingAlg", None)
    algs = [(a.name, int(a)) for a in enum if a.name != "NONE"] if enum is not None else [("DEFAULT", 0)]
    rows = [("GENERAL", lib.MatrixType.GENERAL, name, alg, None) for name, alg in algs]
    rows += [("GENERAL", lib.MatrixType.GENERAL, "DEFAULT", 0, layer), ("SPD", lib.MatrixType.SPD, "DEFAULT", 0, None)]
    if layer:
        rows.append(("SPD", lib.MatrixType.SPD, "DEFAULT", 0, layer))
    print("{:8s} {:18s} {:6s} {:>10s} {:>10s} {:>8s} {:>10s}".format(
        "matrix", "reordering", "layer", "analysis", "factor", "solve", "residual"))
    for mname, mtype, aname, alg, lay in rows:
        try:
            (ta, tf, ts), res = phases(cp, A, b, alg, mtype, lay)
            print("{:8s} {:18s} {:6s} {:9.3f}s {:9.3f}s {:7.3f}s {:10.2e}".format(
                mname, aname, "omp" if lay else "-", ta, tf, ts, res))
        except Exception as e:  # (an algorithm this cuDSS refuses for the matrix: say so, go on)
            print("{:8s} {:18s} {:6s} failed: {}: {}".format(mname, aname, "omp" if lay else "-",
                                                            type(e).__name__, str(e)[:80]))
    Ad = cp.sparse.csr_matrix(A)
    for _ in range(2):
        cp.cuda.synchronize()
        t0 = time.perf_counter()
        x = spsolve(Ad, b)
        cp.cuda.synchronize()
        print("spsolve (public) {:.3f} s, residual {:.2e}".format(
            time.perf_counter() - t0, float(numpy.linalg.norm(A @ x.get() - b.get()) / numpy.linalg.norm(b.get()))))


if __name__ == "__main__":
    main()
