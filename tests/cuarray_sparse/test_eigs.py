"""eigs, and eigsh's and svds's SciPy 1.18 additions, against scipy.sparse.linalg (on the host shim
and on the GPU): every `which`, dtypes, sparse/dense/operator inputs, shift-invert, `rng`, the
dense fallback, ArpackNoConvergence and the argument errors. Eigenvalues are compared as sets
with SciPy's and the dense spectrum; eigenvectors (phase is arbitrary) by residual and norm."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.sparse as ssp
import scipy.sparse.linalg as sla

from ._util import D, H, normal_plus

RTOL = {"float32": 2e-4, "complex64": 2e-4, "float64": 1e-9, "complex128": 1e-9}


def _general(n, dtype, seed):
    h = ssp.random(n, n, density=0.1, random_state=seed) + ssp.diags(np.linspace(0, 3, n))
    if np.dtype(dtype).kind == "c":
        h = h + 1j * ssp.random(n, n, density=0.05, random_state=seed + 1)
    return h.tocsr().astype(dtype)


def _key(w, which, real):
    """ARPACK's ordering key of `which` (smallest first)."""
    w = np.asarray(w, np.complex128)
    im = np.abs(w.imag) if real else w.imag
    return {"LM": -np.abs(w), "SM": np.abs(w), "LR": -w.real, "SR": w.real, "LI": -im, "SI": im}[which]


def _wanted(wd, which, k, real):
    """The k wanted of the dense spectrum for `which` (ARPACK's meanings)."""
    return wd[np.argsort(_key(wd, which, real), kind="stable")[:k]]


def _check_which(got, wd, which, k, real, rtol):
    """`got` are eigenvalues (each near one of the dense spectrum `wd`) and are the k best for
    `which`: their keys are the k smallest keys (ties, e.g. the real eigenvalues under 'SI' of a
    real matrix, may be any of the tied ones)."""
    got = np.asarray(got, np.complex128)
    scale = max(np.abs(wd).max(), 1.0)
    assert all(np.abs(wd - g).min() <= rtol * scale for g in got), (got, wd)
    want_keys = np.sort(_key(wd, which, real))[:k]
    np.testing.assert_allclose(np.sort(_key(got, which, real)), want_keys, atol=rtol * scale)


def _same_set(got, want, rtol):
    """The same multiset of eigenvalues: each wanted one matched to the nearest unused one got."""
    g, w = list(np.asarray(got, np.complex128)), np.asarray(want, np.complex128)
    assert len(g) == len(w), (got, want)
    scale = max(np.abs(w).max(), 1.0)
    for x in w:
        i = int(np.argmin([abs(x - y) for y in g]))
        assert abs(x - g[i]) <= rtol * scale, (got, want)
        g.pop(i)


def _check_pairs(h, w, v, rtol):
    hd = h.toarray()
    w, v = H(w), H(v)
    scale = max(np.abs(w).max(), 1.0)
    assert np.abs(hd @ v - v * w).max() <= 50 * rtol * scale
    np.testing.assert_allclose(np.linalg.norm(v, axis=0), 1.0, rtol=50 * rtol)


@pytest.mark.parametrize("which", ["LM", "LR", "SR", "LI", "SI"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
def test_eigs_which(dev, which, dtype):
    n, k = 120, 4
    h = _general(n, dtype, 71)
    real = np.dtype(dtype).kind == "f"
    if real and which == "SI":
        pytest.skip("ill-posed: dozens of real eigenvalues tie at |imag| = 0 (ARPACK does not converge either)")
    wd = np.linalg.eigvals(h.toarray().astype(np.complex128))
    w, v = dev.cla.eigs(dev.sp.csr_matrix(h), k=k, which=which)
    assert H(w).dtype == np.result_type(dtype, np.complex64) and H(v).dtype == H(w).dtype
    assert H(w).shape == (k,) and H(v).shape == (n, k)
    _check_which(H(w), wd, which, k, real, RTOL[dtype])
    ws = sla.eigs(h.astype(np.result_type(dtype, np.float64)), k=k, which=which, return_eigenvectors=False)
    _check_which(ws, wd, which, k, real, 1e-9)   # SciPy's answer passes the same test
    _check_pairs(h, w, v, RTOL[dtype])
    w2 = dev.cla.eigs(dev.sp.csr_matrix(h), k=k, which=which, return_eigenvectors=False)
    _same_set(H(w2), H(w), RTOL[dtype])


@pytest.mark.parametrize("which, dtype, seed", [("SR", "float64", 32), ("LM", "complex128", 5)])
@pytest.mark.parametrize("rng", [0, 1])
def test_eigs_crowded_end(dev, which, dtype, seed, rng):
    # Close eigenvalues at the wanted end (a permuted near-normal matrix). A restart that kept
    # k + 0.35 (ncv - k) Ritz vectors, not ARPACK's k + min(nconv, (ncv - k) / 2), stalled on the
    # 'SR' one (ArpackNoConvergence) and converged to other eigenvalues than the 'LM' ones (1e-2
    # off), silently.
    h = normal_plus(600, dtype, seed)
    w, v = dev.cla.eigs(dev.sp.csr_matrix(h), k=6, which=which, rng=rng)
    wd = np.linalg.eigvals(h.toarray())
    _check_which(H(w), wd, which, 6, dtype == "float64", 1e-9)
    _check_pairs(h, w, v, 1e-9)


@pytest.mark.parametrize("kind", ["csc", "dense", "operator"])
def test_eigs_inputs_v0_rng(dev, kind):
    n, k = 80, 3
    h = _general(n, "float64", 72)
    a = dev.sp.csr_matrix(h)
    A = {"csc": dev.sp.csc_matrix(h.tocsc()), "dense": D(h.toarray()),
         "operator": dev.cla.LinearOperator(h.shape, matvec=lambda x: a @ x, dtype=h.dtype)}[kind]
    wd = np.linalg.eigvals(h.toarray())
    _check_which(sla.eigs(h, k=k, return_eigenvectors=False), wd, "LM", k, True, 1e-9)
    w1, v1 = dev.cla.eigs(A, k=k, rng=5)
    w2, v2 = dev.cla.eigs(A, k=k, rng=np.random.default_rng(5))
    w3, v3 = dev.cla.eigs(A, k=k, rng=6)
    # The same generator, the same start: the same Ritz values and vectors, phases included (a
    # Ritz vector's phase follows the start vector), where the products are deterministic. The
    # GPU's CSC product (cuSPARSE's transposed CSR product) sums with atomics, in an order that
    # changes between runs: one run in ~500 then restarted differently and converged to vectors
    # 1e-7 apart with two signs flipped. There, each pair is checked on its own.
    np.testing.assert_allclose(H(w1), H(w2), rtol=1e-13)
    if dev == "gpu" and kind == "csc":
        _check_pairs(h, w1, v1, 1e-9)
        _check_pairs(h, w2, v2, 1e-9)
    else:
        np.testing.assert_allclose(H(v1), H(v2), rtol=0, atol=1e-10)
    assert not np.allclose(H(v1), H(v3), rtol=0, atol=1e-6)  # another start: other phases
    _check_which(H(w1), wd, "LM", k, True, 1e-9)
    w, v = dev.cla.eigs(A, k=k, v0=D(np.ones(n)), ncv=12)
    _check_which(H(w), wd, "LM", k, True, 1e-9)
    _check_pairs(h, w, v, 1e-9)


def test_eigs_exact_invariant_subspace(dev):
    # A = I: every Arnoldi step but the first breaks down exactly; SciPy's docstring example.
    h = ssp.identity(13, format="csr")
    w, v = dev.cla.eigs(dev.sp.csr_matrix(h), k=6)
    np.testing.assert_allclose(H(w), np.ones(6), atol=1e-12)
    _check_pairs(h, w, v, 1e-12)
    h = ssp.diags(np.arange(1.0, 31.0)).tocsr()
    w = dev.cla.eigs(dev.sp.csr_matrix(h), k=3, v0=D(np.eye(30)[0] + np.eye(30)[1]), return_eigenvectors=False)
    _same_set(H(w), [28.0, 29.0, 30.0], 1e-10)


@pytest.mark.parametrize("sigma", [0.0, 1.3])
def test_eigs_shift_invert(ddev, sigma):
    n, k = 60, 3
    h = _general(n, "float64", 73) + ssp.eye(60) * 0.05
    w, v = ddev.cla.eigs(ddev.sp.csr_matrix(h.tocsr()), k=k, sigma=sigma)
    wd = np.linalg.eigvals(h.toarray())
    _check_which(H(w) - sigma, wd - sigma, "SM", k, True, 1e-9)   # the k nearest sigma
    _check_which(sla.eigs(h, k=k, sigma=sigma, return_eigenvectors=False) - sigma, wd - sigma, "SM", k, True, 1e-9)
    _check_pairs(h, w, v, 1e-9)


def test_eigs_opinv(dev):
    n, k, sigma = 50, 3, 0.7
    h = _general(n, "float64", 74)
    inv = np.linalg.inv(h.toarray() - sigma * np.eye(n))
    op = dev.cla.LinearOperator((n, n), matvec=lambda x: D(inv) @ x, dtype=np.float64)
    w = dev.cla.eigs(dev.sp.csr_matrix(h), k=k, sigma=sigma, OPinv=op, return_eigenvectors=False)
    wd = np.linalg.eigvals(h.toarray())
    _check_which(H(w) - sigma, wd - sigma, "SM", k, True, 1e-9)
    # OPpart 'r' with a real sigma is SciPy's default mode 3 (the operator is real)
    w = dev.cla.eigs(dev.sp.csr_matrix(h), k=k, sigma=sigma, OPinv=op, OPpart="r", return_eigenvectors=False)
    _check_which(H(w) - sigma, wd - sigma, "SM", k, True, 1e-9)
    _check_which(sla.eigs(h, k=k, sigma=sigma, OPpart="r", return_eigenvectors=False) - sigma, wd - sigma, "SM", k,
                 True, 1e-9)
    # a dense A: the shift-invert operator is the inverse of A - sigma I
    w = dev.cla.eigs(D(h.toarray()), k=k, sigma=sigma, return_eigenvectors=False)
    _check_which(H(w) - sigma, wd - sigma, "SM", k, True, 1e-9)


def test_eigs_dense_fallback(dev):
    h = _general(6, "float64", 75)
    with pytest.warns(RuntimeWarning, match="k >= N - 1"):
        w, v = dev.cla.eigs(D(h.toarray()), k=5)
    _same_set(H(w), np.linalg.eigvals(h.toarray()), 1e-10)
    assert H(w).dtype == np.complex128
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        with pytest.raises(TypeError):
            dev.cla.eigs(dev.sp.csr_matrix(h), k=5)
        with pytest.raises(TypeError):
            dev.cla.eigs(dev.cla.aslinearoperator(dev.sp.csr_matrix(h)), k=5)


def test_eigs_errors(dev):
    a = dev.sp.csr_matrix(_general(30, "float64", 76))
    cases = [({"k": 0}, ValueError), ({"which": "LA"}, ValueError), ({"ncv": 4, "k": 3}, ValueError),
             ({"maxiter": 0}, ValueError), ({"OPinv": a}, ValueError), ({"OPpart": "r"}, ValueError),
             ({"Minv": a}, ValueError), ({"sigma": 1.0, "OPpart": "x"}, ValueError),
             ({"sigma": 1.0, "OPpart": "i"}, ValueError), ({"M": a}, NotImplementedError),
             ({"sigma": 1 + 1j}, NotImplementedError)]
    for kwargs, exc in cases:
        with pytest.raises(exc):
            dev.cla.eigs(a, **kwargs)
        if exc is ValueError:  # SciPy agrees
            with pytest.raises(ValueError):
                sla.eigs(_general(30, "float64", 76), **kwargs)
    with pytest.raises(ValueError, match="square"):
        dev.cla.eigs(dev.sp.csr_matrix(ssp.random(4, 5, density=0.5, format="csr")), k=1)


def test_no_convergence(dev):
    h = _general(100, "float64", 77)
    a = dev.sp.csr_matrix(h)
    for call in (lambda: dev.cla.eigs(a, k=6, maxiter=1, tol=1e-15),
                 lambda: dev.cla.eigsh(dev.sp.csr_matrix((h + h.T).tocsr()), k=6, maxiter=1, ncv=8)):
        with pytest.raises(sla.ArpackNoConvergence) as err:
            call()
        assert isinstance(err.value, dev.cla.ArpackNoConvergence)
        assert isinstance(err.value, dev.cla.ArpackError) and isinstance(err.value, RuntimeError)
        assert "No convergence" in str(err.value)
        vals, vecs = H(err.value.eigenvalues), H(err.value.eigenvectors)
        assert vals.shape[0] == vecs.shape[1] < 6


@pytest.mark.parametrize("which", ["LM", "SM", "LA", "SA", "BE"])
def test_eigsh_which_and_rng(dev, which):
    n, k = 100, 5
    t = ssp.diags([-np.ones(n - 1), np.linspace(1, 4, n), -np.ones(n - 1)], [-1, 0, 1]).tocsr()
    w = dev.cla.eigsh(dev.sp.csr_matrix(t), k=k, which=which, rng=3, return_eigenvectors=False)
    _same_set(H(w), sla.eigsh(t, k=k, which=which, return_eigenvectors=False), 1e-8)
    w, v = dev.cla.eigsh(dev.sp.csr_matrix(t), k=k, which=which, rng=np.random.default_rng(3))
    assert np.all(np.diff(H(w)) >= 0)
    _check_pairs(t, w, v, 1e-9)


@pytest.mark.parametrize("sigma", [0.0, 2.05])
def test_eigsh_shift_invert(ddev, sigma):
    n, k = 80, 4
    t = ssp.diags([-np.ones(n - 1), np.linspace(1, 4, n), -np.ones(n - 1)], [-1, 0, 1]).tocsr()
    w, v = ddev.cla.eigsh(ddev.sp.csr_matrix(t), k=k, sigma=sigma)
    _same_set(H(w), sla.eigsh(t, k=k, sigma=sigma, return_eigenvectors=False), 1e-9)
    _check_pairs(t, w, v, 1e-9)


def test_eigsh_errors(dev):
    t = ssp.diags([np.ones(19), np.linspace(1, 4, 20), np.ones(19)], [-1, 0, 1]).tocsr()
    a = dev.sp.csr_matrix(t)
    for kwargs, exc in [({"which": "LR"}, ValueError), ({"maxiter": 0}, ValueError), ({"OPinv": a}, ValueError),
                        ({"Minv": a}, ValueError), ({"sigma": 1.0, "mode": "bogus"}, ValueError),
                        ({"sigma": 1.0, "mode": "cayley"}, NotImplementedError), ({"M": a}, NotImplementedError)]:
        with pytest.raises(exc):
            dev.cla.eigsh(a, k=3, **kwargs)
    with pytest.raises(ValueError, match="BE"):
        dev.cla.eigsh(dev.sp.csr_matrix(t.astype(np.complex128)), k=3, which="BE")


def test_svds_options(dev):
    h = ssp.random(40, 25, density=0.3, random_state=78, format="csr")
    a = dev.sp.csr_matrix(h)
    sd = np.linalg.svd(h.toarray(), compute_uv=False)
    s = dev.cla.svds(a, k=3, which="SM", return_singular_vectors=False)
    np.testing.assert_allclose(np.sort(H(s)), np.sort(sd[-3:]), rtol=1e-6)
    u, s, vh = dev.cla.svds(a, k=3, rng=1)
    np.testing.assert_allclose(H(s), np.sort(sd[:3]), rtol=1e-8)
    np.testing.assert_allclose(h @ H(vh).T, H(u) * H(s), atol=1e-8)
    u2, s2, vh2 = dev.cla.svds(a, k=3, random_state=1)  # SciPy's keyword-only alias of rng
    np.testing.assert_allclose(H(s2), H(s), rtol=1e-12)
    u, s, vh = dev.cla.svds(a, k=3, return_singular_vectors="u")
    assert vh is None and H(u).shape == (40, 3)
    u, s, vh = dev.cla.svds(dev.sp.csr_matrix(h.T.tocsr()), k=3, return_singular_vectors="vh")
    assert u is None and H(vh).shape == (3, 40)
    np.testing.assert_allclose(H(s), np.sort(sd[:3]), rtol=1e-8)
    s = dev.cla.svds(a, k=2, solver="lobpcg", return_singular_vectors=False, maxiter=200)
    np.testing.assert_allclose(np.sort(H(s)), np.sort(sd[:2]), rtol=1e-5)


def test_svds_errors(dev):
    h = ssp.random(20, 10, density=0.3, random_state=79, format="csr")
    a = dev.sp.csr_matrix(h)
    for kwargs in [{"k": 10}, {"k": 0}, {"which": "LA"}, {"solver": "magic"}, {"tol": -1.0}, {"maxiter": 0},
                   {"ncv": 2, "k": 3}, {"return_singular_vectors": "x"}, {"v0": D(np.ones(20))}]:
        with pytest.raises(ValueError):
            dev.cla.svds(a, **kwargs)
        with pytest.raises(ValueError):
            sla.svds(h, **{k: (np.ones(20) if k == "v0" else v) for k, v in kwargs.items()})
