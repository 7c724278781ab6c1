"""cuDSS's phases on issue 58's spsolve row (the 2-D Poisson matrix of a 1000 x 1000 grid, 1e6
unknowns, float64): analysis (reordering and symbolic factorisation), factorisation and solve,
seconds each, with cuDSS's default configuration and the variants it offers for the analysis (the
reordering algorithm; host threads through its GNU OpenMP threading layer). spsolve took 5.84 s
there on an H200 (CuPy 111 s, SciPy 13.5 s).

Prediction: the analysis (nested dissection on the host, one thread) is most of the 5.8 s; host
threads or AMD cut it, factorisation and solve on the device are well under a second.

Run on the GPU machine with cuDSS installed (scripts/cudss_to_device.sh):
  PYTHONPATH=$PWD python scripts/perf/cudss_phases.py
"""

import os
import time

import numpy

import cuarray
from cuarray.bench.cases.sparse_direct import _poisson
from cuarray.cuda.libs import cudss


def _phases(lib, n, indptr, indices, data, b, x, reordering=None, threads=None):
    h = cudss.handle()
    if threads:
        lib.set_threading_layer(h, "libcudss_mtlayer_gomp.so.0")
    config, state = lib.config_create(), lib.data_create(h)
    if reordering is not None:
        v = numpy.array([int(getattr(lib.ReorderingAlg, reordering))], numpy.int32)
        lib.config_set(config, int(lib.ConfigParam.REORDERING_ALG), v.ctypes.data, v.nbytes)
    if threads:
        v = numpy.array([threads], numpy.int32)
        lib.config_set(config, int(lib.ConfigParam.HOST_NTHREADS), v.ctypes.data, v.nbytes)
    a = lib.matrix_create_csr(n, n, int(indices.shape[0]), indptr.data.ptr, 0, indices.data.ptr, data.data.ptr,
                              cudss._R_32I, cudss._R_32I, 1, int(lib.MatrixType.GENERAL),
                              int(lib.MatrixViewType.FULL), int(lib.IndexBase.ZERO))
    xd = lib.matrix_create_dn(n, 1, n, x.data.ptr, 1, int(lib.Layout.COL_MAJOR))
    bd = lib.matrix_create_dn(n, 1, n, b.data.ptr, 1, int(lib.Layout.COL_MAJOR))
    out = []
    for phase in ("ANALYSIS", "FACTORIZATION", "SOLVE"):
        cuarray.cuda.Device().synchronize()
        t = time.perf_counter()
        lib.execute(h, int(getattr(lib.Phase, phase)), config, state, a, xd, bd)
        cuarray.cuda.Device().synchronize()
        out.append(time.perf_counter() - t)
    for m in (a, xd, bd):
        lib.matrix_destroy(m)
    lib.data_destroy(h, state)
    lib.config_destroy(config)
    return out


def main():
    lib = cudss.bindings()
    h = _poisson(1000)
    n = h.shape[0]
    indptr, indices = cuarray.asarray(h.indptr.astype(numpy.int32)), cuarray.asarray(h.indices.astype(numpy.int32))
    data = cuarray.asarray(h.data)
    bh = numpy.random.default_rng(8).random(n)
    b, x = cuarray.asarray(bh), cuarray.empty(n)
    print("host cores:", os.cpu_count())
    for label, kw in (("default", {}), ("default again", {}), ("AMD", {"reordering": "AMD"}),
                      ("COLAMD", {"reordering": "COLAMD"}), ("threads 16", {"threads": 16}),
                      ("threads 8", {"threads": 8})):
        try:
            ta, tf, ts = _phases(lib, n, indptr, indices, data, b, x, **kw)
        except Exception as e:  # noqa: BLE001 (a variant this cuDSS does not take)
            print("{:<14} failed: {}: {}".format(label, type(e).__name__, e))
            continue
        res = float(numpy.abs(h @ x.get() - bh).max())
        print("{:<14} analysis {:6.3f} s  factorization {:6.3f} s  solve {:6.3f} s  residual {:.1e}".format(
            label, ta, tf, ts, res), flush=True)


if __name__ == "__main__":
    main()
