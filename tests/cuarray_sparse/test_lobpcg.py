"""lobpcg against scipy.sparse.linalg.lobpcg (on the host shim and the GPU): largest and
smallest, a preconditioner, a generalized problem, constraints, the dense fallback."""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest
import scipy.sparse as ssp
import scipy.sparse.linalg as sla

import cuarray.sparse.linalg as cla

from . import _host_shim
from ._util import D, H


def _host_lobpcg(monkeypatch):
    """The host copies with _lobpcg's own stand-ins too."""
    from cuarray.sparse.linalg import _lobpcg

    return _host_shim.on_host(monkeypatch, "lobpcg", {_lobpcg: {
        "as_array": lambda x, fn=None: np.asarray(x).view(_host_shim.HostArray),
        "from_host": lambda x: np.asarray(x).view(_host_shim.HostArray),
        "to_host": np.asarray, "ndarray": _host_shim.HostArray,
        "eye": lambda n, dtype=None: np.eye(n, dtype=dtype).view(_host_shim.HostArray)}})


@pytest.fixture
def lob(dev, monkeypatch):
    return _host_lobpcg(monkeypatch) if dev == "host" else dev


def _laplacian(n):
    return ssp.diags([-np.ones(n - 1), 2 * np.ones(n), -np.ones(n - 1)], [-1, 0, 1]).tocsr()


@pytest.mark.parametrize("largest", [True, False])
def test_lobpcg_standard(lob, largest):
    n, k = 100, 3
    h = _laplacian(n)
    X = np.random.default_rng(60).random((n, k))
    want = np.linalg.eigvalsh(h.toarray())
    want = want[::-1][:k] if largest else want[:k]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        lam, V = lob.cla.lobpcg(lob.sp.csr_matrix(h), D(X), largest=largest, tol=1e-7, maxiter=2000)
    np.testing.assert_allclose(H(lam), want, rtol=1e-5, atol=1e-7)
    r = h @ H(V) - H(V) * H(lam)
    assert np.linalg.norm(r, axis=0).max() < 1e-4


def test_lobpcg_preconditioned_generalized_constraints(lob):
    n, k = 80, 2
    h = _laplacian(n)
    b = ssp.diags(np.linspace(1, 2, n)).tocsr()
    X = np.random.default_rng(61).random((n, k))
    m = ssp.diags(1.0 / h.diagonal()).tocsr()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        lam, _ = lob.cla.lobpcg(lob.sp.csr_matrix(h), D(X), B=lob.sp.csr_matrix(b), M=lob.sp.csr_matrix(m),
                                largest=False, tol=1e-8, maxiter=3000)
        want, _ = sla.lobpcg(h, X, B=b, M=m, largest=False, tol=1e-8, maxiter=3000)
    np.testing.assert_allclose(np.sort(H(lam)), np.sort(want), rtol=1e-5)
    Y = np.linalg.eigh(h.toarray())[1][:, :1]  # the smallest eigenvector as a constraint
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        lam, _ = lob.cla.lobpcg(lob.sp.csr_matrix(h), D(X), Y=D(Y), largest=False, tol=1e-8, maxiter=3000)
    np.testing.assert_allclose(np.sort(H(lam)), np.linalg.eigvalsh(h.toarray())[1:3], rtol=1e-5)


def test_lobpcg_dense_fallback_and_errors(lob):
    h = _laplacian(10)
    X = np.random.default_rng(62).random((10, 3))
    with pytest.warns(UserWarning, match="dense eigensolver"):
        lam, V = lob.cla.lobpcg(lob.sp.csr_matrix(h), D(X))
    with pytest.warns(UserWarning):
        want, _ = sla.lobpcg(h, X)
    np.testing.assert_allclose(H(lam), want, rtol=1e-10)
    with pytest.raises(ValueError):
        lob.cla.lobpcg(lob.sp.csr_matrix(h), None)
    with pytest.raises(ValueError):
        lob.cla.lobpcg(lob.sp.csr_matrix(h), D(X[:, 0]))


def test_signature():
    assert inspect.signature(cla.lobpcg) == inspect.signature(sla.lobpcg)
