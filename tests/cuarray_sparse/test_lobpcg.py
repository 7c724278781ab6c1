"""lobpcg against scipy.sparse.linalg.lobpcg (on the host shim and the GPU): largest and
smallest, a preconditioner, a generalized problem, constraints, the dense fallback."""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest
import scipy.sparse as ssp
import scipy.linalg as hla
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
        "to_host": np.asarray,
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


# -- SciPy's own answers on the problems of SciPy's (and CuPy's) lobpcg tests: lobpcg runs SciPy's
# iteration step for step, so values, eigenvectors (up to sign) and dtypes agree also where the
# iteration stops before converging (maxiter, a loose tol).
def _uniform(shape, seed, dtype=np.float32):
    return (np.random.RandomState(seed).rand(*shape) * 10).astype(dtype)


def _signed(V):
    """Eigenvectors with a fixed sign each (their product with a fixed random vector >= 0)."""
    V = H(V)
    return V * np.where(V.T @ _uniform((V.shape[0], 1), 123) >= 0, 1, -1).T


def _rod(n):
    """The fixed-free elastic rod's stiffness and mass matrices (a generalized problem)."""
    k, mass = 2.1e11 * 1e-4 * n, 7.85e3 * 1e-4 / n / 6
    off = np.ones(n - 1)
    A = k * (np.diag(np.r_[2 * np.ones(n - 1), 1]) - np.diag(off, 1) - np.diag(off, -1))
    B = mass * (np.diag(np.r_[4 * np.ones(n - 1), 2]) + np.diag(off, 1) + np.diag(off, -1))
    return A, B


def _mikota(n):
    y = np.arange(n - 1, 0, -1)
    return np.diag(np.arange(2 * n - 1, 0, -2)) - np.diag(y, -1) - np.diag(y, 1), np.diag(1.0 / np.arange(1, n + 1))


def _fiedler(n, start):
    col = np.zeros(n)
    col[1] = 1
    T = hla.toeplitz(col)
    V = np.cos(np.outer(np.arange(n) + 0.5, np.pi * np.arange(n) / n))
    X = {"small": V[:, :2], "large": V[:, -2:],
         "approx": np.vstack((np.ones(n), np.r_[np.ones(n // 2), -np.ones(n - n // 2)])).T}[start]
    return np.diag(T.sum(axis=1)) - T, X


def _case(name, sp, C):
    """(args, kwargs) of lobpcg for one case; `sp` the sparse module, `C` makes arrays."""
    if name in ("rod", "mikota"):
        A, B = (_rod if name == "rod" else _mikota)(10)
        return (C(A), C(hla.orth(_uniform((10, 10), 0)))), dict(B=C(B), tol=1e-5, maxiter=30, largest=False)
    if name == "identity":
        return (C(np.identity(10)), C(np.ones((10, 1)))), {}
    if name == "diagonal-B-M-Y":
        vals = np.arange(1, 101, dtype=float)
        return (sp.diags([C(vals)], [0], (100, 100)), C(_uniform((100, 4), 1234))), dict(
            B=sp.eye(100), M=sp.diags([C(1.0 / vals)], [0], (100, 100)), Y=C(np.eye(100, 3)), tol=1e-4, maxiter=40,
            largest=False)
    if name.startswith("fiedler"):
        _, start, n = name.split("-")
        A, X = _fiedler(int(n), start)
        return (C(A), C(X)), dict(largest=False)
    if name == "float32-loose":
        A = sp.diags([C(-np.arange(1, 51, dtype=float))], [0], (50, 50)).astype(np.float32)
        return (A, C(_uniform((50, 4), 3))), dict(tol=1e-3, maxiter=50)
    raise AssertionError(name)


CASES = ["rod", "mikota", "identity", "diagonal-B-M-Y", "fiedler-small-8", "fiedler-approx-8", "fiedler-small-12",
         "fiedler-large-12", "fiedler-approx-12", "float32-loose"]


@pytest.mark.parametrize("name", CASES)
def test_scipys_cases_give_scipys_answers(lob, name):
    args, kw = _case(name, ssp, np.asarray)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        want = sla.lobpcg(*args, **kw)
        args, kw = _case(name, lob.sp, D)
        got = lob.cla.lobpcg(*args, **kw)
    tol = 1e-3 if name == "float32-loose" else 1e-5
    assert H(got[0]).dtype == want[0].dtype and H(got[1]).dtype == want[1].dtype
    np.testing.assert_allclose(H(got[0]), want[0], rtol=tol, atol=tol, err_msg="eigenvalues")
    np.testing.assert_allclose(_signed(got[1]), _signed(want[1]), rtol=tol, atol=tol, err_msg="eigenvectors")


def test_histories_as_scipy(lob):
    """maxiter=None is 20 iterations: the histories hold the values up to the best iterate plus
    the final ones (SciPy's truncation), an entry of one value per column. In float64: in float32
    this problem at tol=1e-8 runs 20 iterations in rounding noise, where the last bits of a BLAS
    call decide whether an iterate breaks down (the residual jumps 10x and the run keeps an
    earlier best). SciPy itself breaks down from X of seed 5 here (18 entries, 6.8 last) where
    the port does not, and the port broke down from this seed on the GPU machine's NumPy and
    SciPy, with NumPy stand-ins too, where SciPy did not."""
    A = ssp.diags([-np.arange(1, 51, dtype=float)], [0], (50, 50)).astype(np.float64)
    X = _uniform((50, 4), 1566950023)
    with warnings.catch_warnings(record=True) as theirs:
        warnings.simplefilter("always", UserWarning)
        w, _, lh, rh = sla.lobpcg(A, X, tol=1e-8, maxiter=None, retLambdaHistory=True, retResidualNormsHistory=True)
    with warnings.catch_warnings(record=True) as ours:
        warnings.simplefilter("always", UserWarning)
        got = lob.cla.lobpcg(lob.sp.csr_matrix(A), D(X), tol=1e-8, maxiter=None, retLambdaHistory=True,
                             retResidualNormsHistory=True)
    # where they part, the warnings say why (a failed Cholesky or eigh stops SciPy's loop early)
    why = "\ncuarray's warnings: {}\nSciPy's: {}\ncuarray's residual norms:\n{}\nSciPy's:\n{}".format(
        [str(m.message)[:120] for m in ours], [str(m.message)[:120] for m in theirs],
        np.array([H(r) for r in got[3]]), np.array(rh))
    assert len(got) == 4 and len(got[2]) == len(lh) > 20 and len(got[3]) == len(rh), why
    np.testing.assert_allclose(H(got[0]), w, rtol=1e-5)
    np.testing.assert_allclose(H(got[2][-1]), lh[-1], rtol=1e-5)
    assert H(got[3][0]).shape == rh[0].shape == (4,)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        one = lob.cla.lobpcg(lob.sp.csr_matrix(A), D(X[:, :1]), maxiter=3, retLambdaHistory=True)
    assert H(one[2][0]).shape == ()  # one column: 0-d entries (SciPy squeezes)


# lobpcg over dtypes and sparsity of A, B and the preconditioner (CuPy's TestLOBPCGForDiagInput's
# grid, sampled): results and their dtypes as SciPy's.
DIAG = [(True, True, "float32", True, None, "float32", "float64", "csr"),
        (False, True, "float64", False, "float32", "float32", "float32", "coo"),
        (True, False, "float32", True, "float64", "float64", "float32", "csc"),
        (False, False, "float64", True, "float32", "float64", "float64", "csr"),
        (True, True, "float64", False, "float64", "float32", "float64", "csc"),
        (True, False, "float32", False, None, "float64", "float64", "coo")]


@pytest.mark.parametrize("a_sparse,b_sparse,a_dtype,m_sparse,m_dtype,x_dtype,y_dtype,fmt", DIAG)
def test_diagonal_inputs_dtypes_as_scipy(lob, a_sparse, b_sparse, a_dtype, m_sparse, m_dtype, x_dtype, y_dtype, fmt):
    def run(sp, la, C):
        n, vals = 40, np.arange(1, 41, dtype=float)
        A = sp.diags([C(vals * vals)], [0], (n, n), format=fmt).astype(a_dtype)
        B = sp.diags([C(vals)], [0], (n, n), format=fmt)
        A, B = (A if a_sparse else A.toarray()), (B if b_sparse else B.toarray())
        M = None
        if m_dtype is not None:
            Md = sp.diags([C(1.0 / vals)], [0], (n, n), format=fmt)
            Md = Md if m_sparse else Md.toarray()
            M = la.LinearOperator(matvec=lambda x: Md @ x, matmat=lambda x: Md @ x, shape=(n, n), dtype=m_dtype)
        X, Y = C(_uniform((n, 4), 1234, x_dtype)), C(np.eye(n, 3, dtype=y_dtype))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            return la.lobpcg(A, X, B=B, M=M, Y=Y, tol=1e-4, maxiter=100, largest=False)

    want, got = run(ssp, sla, np.asarray), run(lob.sp, lob.cla, D)
    for g, w in zip(got, (want[0], _signed(want[1]))):
        assert H(g).dtype == w.dtype
    np.testing.assert_allclose(H(got[0]), want[0], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(_signed(got[1]), _signed(want[1]), rtol=1e-5, atol=1e-5)
