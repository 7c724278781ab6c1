"""What cuSOLVER's getrf makes of a matrix with a NaN, next to LAPACK's (SciPy's), on the GPU.

tests/scipy/test_linalg_finite_batch_gpu.py::test_check_finite_false_computes_on failed on the H100
run (float32 and float64) without a traceback. Its likely cause: getrf drops the NaN (the factors
come back finite, with zeros on U's diagonal: cuarray.linalg.det's note), so lu_factor's factors had
no NaN; cuarray.scipy.linalg.lu_factor now makes the factors of such a matrix NaN. This script shows
the raw getrf output (before that fix) and each call of the test on its own, so one run settles it.

    python scripts/linalg_nan_getrf.py
"""

from __future__ import annotations

import numpy as np
import scipy.linalg as sla

import cuarray
from cuarray.linalg import _solve
from cuarray.linalg._util import stacked_copy
from cuarray.scipy import linalg as cla


def raw_getrf(a):
    """cuarray.linalg's LU (one cuSOLVER getrf) of `a`, without lu_factor's NaN rule."""
    g = cuarray.asarray(a)
    f = _solve._lu_factor(stacked_copy(g, g.dtype.char, "F"), g.dtype.char)
    return f.lu.get(), f.piv.get(), f.infos.get()


def main():
    rng = np.random.default_rng(0)
    print("{:>8} {:>5} {:>10} | {:>9} {:>9} {:>9} {:>5} | {:>9}".format(
        "dtype", "n", "nan at", "lu NaNs", "U diag 0", "U diag NaN", "info", "LAPACK NaNs"))
    for dtype in (np.float32, np.float64):
        for n in (5, 6, 40):
            for where in ("one", "all"):
                a = rng.normal(size=(n, n))
                a = (a @ a.T + n * np.eye(n)).astype(dtype)
                if where == "all":
                    a[...] = np.nan
                else:
                    a.flat[rng.integers(a.size)] = np.nan
                lu, piv, info = raw_getrf(a)
                d = np.diagonal(lu)
                ref = sla.lu_factor(a, check_finite=False)[0]
                print("{:>8} {:>5} {:>10} | {:>9} {:>9} {:>9} {:>5} | {:>9}".format(
                    np.dtype(dtype).name, n, where, int(np.isnan(lu).sum()), int((d == 0).sum()),
                    int(np.isnan(d).sum()), int(info[0]), int(np.isnan(ref).sum())))
    print()
    # each call of test_check_finite_false_computes_on on its own (n = 40: the cuSOLVER solve path)
    for dtype, n in ((np.float32, 5), (np.float64, 5), (np.float64, 40)):
        a = rng.normal(size=(n, n))
        a = (a @ a.T + n * np.eye(n)).astype(dtype)
        a.flat[rng.integers(a.size)] = np.nan
        b = rng.normal(size=(n, 2)).astype(dtype)
        t = np.triu(np.nan_to_num(a, nan=1.0))
        t[0, n - 1] = np.nan
        G = cuarray.asarray
        calls = {
            "det": lambda: cla.det(G(a), check_finite=False).get(),
            "solve": lambda: cla.solve(G(a), G(b), check_finite=False).get(),
            "lu_factor": lambda: cla.lu_factor(G(a), check_finite=False)[0].get(),
            "solve_triangular": lambda: cla.solve_triangular(G(t), G(b), check_finite=False).get(),
            "lu_solve": lambda: cla.lu_solve(cla.lu_factor(G(a), check_finite=False), G(b), check_finite=False).get(),
            "numpy-level solve": lambda: cuarray.linalg.solve(G(a), G(b)).get(),
            "numpy-level inv": lambda: cuarray.linalg.inv(G(a)).get(),
        }
        for name, call in calls.items():
            try:
                out = call()
                print("{:>8} n={:<3} {:>17}: NaN in result: {}".format(np.dtype(dtype).name, n, name,
                                                                    bool(np.isnan(out).any())))
            except Exception as e:  # noqa: BLE001  (a diagnostic: print whatever it raised)
                print("{:>8} n={:<3} {:>17}: raised {}: {}".format(np.dtype(dtype).name, n, name, type(e).__name__, e))


if __name__ == "__main__":
    main()
