"""The direct solvers' logic on the host shim with a NumPy stand-in for cuDSS's factorisation
(`cudss.Factorization`: dense LU by numpy.linalg): dtypes, shapes, vector and matrix and sparse
right-hand sides, transposed solves, the singular-matrix warning and error, against SciPy. The
cuDSS calls themselves run in test_direct_gpu.py where cuDSS is installed."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.sparse as ssp
import scipy.sparse.linalg as sla

from . import _host_shim
from ._host_cudss import direct_standins
from ._util import D, H


@pytest.fixture
def host_direct(monkeypatch):
    """The host shim's copies (`dev.sp`, `dev.cla`) with `_direct`'s cuDSS factorisation and solve the
    NumPy stand-ins of `_host_cudss`."""
    return _host_shim.on_host(monkeypatch, "direct", direct_standins())


def _general(n, dtype, seed):
    rng = np.random.default_rng(seed)
    a = (ssp.random(n, n, density=0.2, random_state=rng, format="csr") + ssp.eye(n) * 4).astype(dtype)
    return a.tocsr()


@pytest.mark.parametrize("dtype", ["float64", "float32", "complex128", "int64"])
def test_spsolve_dtypes_and_shapes(host_direct, dtype):
    h = _general(20, dtype, 1)
    a = host_direct.sp.csr_matrix(h)
    b = np.arange(1, 21).astype(dtype)
    x, want = host_direct.cla.spsolve(a, D(b)), sla.spsolve(h, b)
    assert H(x).dtype == want.dtype and H(x).shape == want.shape
    np.testing.assert_allclose(H(x), want, rtol=1e-4 if dtype == "float32" else 1e-10)
    B = np.arange(60).reshape(20, 3).astype(dtype)
    np.testing.assert_allclose(H(host_direct.cla.spsolve(a, D(B))), sla.spsolve(h, B),
                               rtol=1e-4 if dtype == "float32" else 1e-10)
    assert H(host_direct.cla.spsolve(a, D(B[:, :1]))).shape == (20,)


def test_sparse_rhs_singular_and_splu(host_direct):
    h = _general(15, "float64", 2)
    a = host_direct.sp.csc_matrix(h.tocsc())
    hb = ssp.random(15, 2, density=0.5, random_state=3, format="csc")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = sla.spsolve(h.tocsc(), hb).toarray()
    got = host_direct.cla.spsolve(a, host_direct.sp.csc_matrix(hb))
    np.testing.assert_allclose(H(got.toarray()), want, rtol=1e-10, atol=1e-12)
    sing = host_direct.sp.csr_matrix(ssp.csr_matrix(np.array([[1.0, 2.0], [2.0, 4.0]])))
    with pytest.warns(host_direct.cla.MatrixRankWarning):
        x = host_direct.cla.spsolve(sing, D(np.ones(2)))
    assert np.isnan(H(x)).all()
    with pytest.raises(RuntimeError, match="singular"):
        host_direct.cla.splu(sing)
    lu = host_direct.cla.splu(a)
    b = np.arange(15.0)
    for trans in ("N", "T", "H"):
        np.testing.assert_allclose(H(lu.solve(D(b), trans=trans)), sla.splu(h.tocsc()).solve(b, trans=trans), rtol=1e-10)
    with pytest.raises(ValueError):
        lu.solve(D(b), trans="X")
    f = host_direct.cla.factorized(a)
    np.testing.assert_allclose(H(f(D(b))), sla.factorized(h.tocsc())(b), rtol=1e-10)
    assert lu.shape == (15, 15) and len(lu.perm_r) == 15
    _check_factors(lu, h.tocsc())


def _check_factors(lu, h):
    # SciPy's contract: Pr A Pc = L U, Pr[perm_r, arange] = 1, Pc[arange, perm_c] = 1
    n = h.shape[0]
    pr = ssp.csc_matrix((np.ones(n), (lu.perm_r, np.arange(n))), shape=(n, n))
    pc = ssp.csc_matrix((np.ones(n), (np.arange(n), lu.perm_c)), shape=(n, n))
    L, U = lu.L.get(), lu.U.get()
    assert ssp.issparse(L) and ssp.issparse(U) and L.format == U.format == "csc"
    assert (ssp.triu(L, 1).nnz, ssp.tril(U, -1).nnz) == (0, 0) and np.all(L.diagonal() == 1)
    np.testing.assert_allclose((L @ U).toarray(), (pr @ h @ pc).toarray(), rtol=1e-12, atol=1e-12)
    assert sorted(lu.perm_r) == list(range(n)) and sorted(lu.perm_c) == list(range(n))


def test_factors_with_options(host_direct):
    h = _general(12, "float64", 7).tocsc()
    for kw in ({}, {"permc_spec": "NATURAL"}, {"permc_spec": "MMD_AT_PLUS_A", "diag_pivot_thresh": 0.1}):
        lu = host_direct.cla.splu(host_direct.sp.csc_matrix(h), **kw)
        _check_factors(lu, h)
        hl = sla.splu(h, **kw)
        np.testing.assert_array_equal(lu.perm_c, hl.perm_c)
        np.testing.assert_array_equal(lu.perm_r, hl.perm_r)
    assert list(host_direct.cla.splu(host_direct.sp.csc_matrix(h), permc_spec="NATURAL").perm_c) == list(range(12))
