"""A NumPy stand-in for cuDSS's factorisation (`cudss.Factorization`: dense LU by numpy.linalg), so
the direct solvers and what is built on them (inv, expm, shift-invert) run on the host shim."""

from __future__ import annotations

import types

import numpy as np
import scipy.sparse as ssp

from . import _host_shim


class _FakeFactorization:
    """cuDSS's Factorization answered by a dense solve (the CSR arrays are the host shim's)."""

    def __init__(self, n, indptr, indices, data):
        self.n = n
        a = ssp.csr_matrix((np.asarray(data), np.asarray(indices), np.asarray(indptr)), shape=(n, n)).toarray()
        self.a = a
        self.rank_deficient = n > 0 and np.linalg.matrix_rank(a) < n

    def info(self):
        return 1 if self.rank_deficient else 0

    def singular(self):
        return self.rank_deficient

    def status(self):
        return {"info": self.info()}

    def lu_nnz(self):
        return int(np.count_nonzero(self.a))

    def perm(self, which):
        return np.arange(self.n, dtype=np.int32)

    def solve_into(self, b_ptr, x_ptr, ncols):
        raise AssertionError("replaced by _solve in these tests")


def _solve(f, b, dtype):
    n = b.shape[0]
    cols = np.asarray(b).reshape(n, -1).astype(dtype)
    with np.errstate(all="ignore"):
        x = np.linalg.lstsq(f.a, cols, rcond=None)[0] if f.rank_deficient else np.linalg.solve(f.a, cols)
    x = x.astype(dtype)
    return (x.reshape(n) if b.ndim == 1 else x).view(_host_shim.HostArray)


def direct_standins():
    """`_direct`'s stand-ins for `_host_shim.on_host(monkeypatch, kind, direct_standins())`."""
    from cuarray.sparse.linalg import _direct

    return {_direct: {
        "_cudss": types.SimpleNamespace(Factorization=_FakeFactorization), "_solve": _solve,
        "ascontiguousarray": lambda a: np.ascontiguousarray(a).view(_host_shim.HostArray),
        "ndarray": _host_shim.HostArray}}
