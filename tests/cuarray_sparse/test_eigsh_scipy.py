"""eigsh where SciPy answers and where it raises (on the host shim and the GPU): k and ncv from 1
and k + 1 up to n, every `which`, real and complex (Hermitian) dtypes, dense, sparse and operator
inputs; the eigenvalues are the true ones (SciPy's where ARPACK converges), the exceptions SciPy's:
ARPACK's info -13 for one eigenvalue from both ends, eigs's rules for a complex matrix (SciPy
gives those to eigs: k < n - 1, ncv > k + 1, the dense path for k >= n - 1)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.sparse as ssp
import scipy.sparse.linalg as sla

from ._util import D, H


def _hermitian(n, dtype, seed):
    rng = np.random.default_rng(seed)
    m = rng.normal(size=(n, n)) + (1j * rng.normal(size=(n, n)) if np.dtype(dtype).kind == "c" else 0)
    return (m + m.conj().T).astype(dtype)


def _wanted(w, k, which):
    """The k eigenvalues `which` asks for, ascending (w ascending)."""
    if which == "LA":
        return w[-k:]
    if which == "SA":
        return w[:k]
    if which == "LM":
        return np.sort(w[np.argsort(-np.abs(w), kind="stable")[:k]])
    high = (k + 1) // 2  # BE: half from each end, the odd one from the high end
    return np.sort(np.r_[w[:k - high], w[len(w) - high:]])


def _as(form, dev, m):
    if form == "dense":
        return D(m)
    if form == "csr":
        return dev.sp.csr_matrix(ssp.csr_matrix(m))
    return dev.cla.aslinearoperator(D(m))


@pytest.mark.parametrize("dtype", ["float64", "complex128", "float32"])
@pytest.mark.parametrize("form", ["dense", "csr", "op"])
def test_k_ncv_which_grid(dev, dtype, form):
    """Every k with SciPy's default ncv and with ncv = 2 k + 2, every `which`: the true
    eigenvalues (ARPACK's too: SciPy converges on all of these)."""
    n = 12
    m = _hermitian(n, dtype, 80)
    w = np.linalg.eigvalsh(m.astype(np.complex128 if dtype == "complex128" else np.float64))
    tol = 1e-4 if dtype == "float32" else 1e-9
    for k in range(1, n - 1):
        for ncv in (None, min(2 * k + 2, n)):
            for which in ("LM", "LA", "SA", "BE"):
                if which == "BE" and (dtype == "complex128" or k == 1) or ncv is not None and ncv <= k + 1:
                    continue
                got = dev.cla.eigsh(_as(form, dev, m), k=k, ncv=ncv, which=which, return_eigenvectors=False, rng=1)
                assert H(got).dtype == np.dtype(dtype.replace("complex128", "float64"))
                np.testing.assert_allclose(np.sort(H(got)), _wanted(w, k, which), rtol=tol, atol=tol,
                                           err_msg="k={} ncv={} which={}".format(k, ncv, which))


def test_the_lead_cases_30(dev):
    """30 x 30, few Lanczos vectors: SciPy's answers (k, ncv) = (2, 4), (3, 7), (1, None), (5, 11)."""
    m = _hermitian(30, "float64", 81)
    for k, ncv in ((2, 4), (3, 7), (1, None), (5, 11), (4, 9)):
        want = sla.eigsh(m, k=k, ncv=ncv, return_eigenvectors=False)
        got = dev.cla.eigsh(D(m), k=k, ncv=ncv, return_eigenvectors=False, rng=0)
        np.testing.assert_allclose(np.sort(H(got)), np.sort(want), rtol=1e-9, err_msg=str((k, ncv)))
        w, v = dev.cla.eigsh(D(m), k=k, ncv=ncv, rng=0)
        np.testing.assert_allclose(m @ H(v), H(v) * H(w), atol=1e-8)


def _same_error(call_ours, call_theirs):
    with pytest.raises(Exception) as theirs:
        call_theirs()
    with pytest.raises(Exception) as ours:
        call_ours()
    assert isinstance(ours.value, type(theirs.value)), (ours.value, theirs.value)
    return ours.value, theirs.value


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_one_eigenvalue_from_both_ends_is_arpacks_error(dev, dtype):
    m = _hermitian(10, dtype, 82)
    ours, theirs = _same_error(lambda: dev.cla.eigsh(D(m), k=1, which="BE"), lambda: sla.eigsh(m, k=1, which="BE"))
    assert isinstance(ours, sla.ArpackError) and str(ours) == str(theirs)


def test_complex_follows_eigs_rules(dev):
    n = 8
    m = _hermitian(n, "complex128", 83)
    w = np.linalg.eigvalsh(m)
    # k = n - 1: eigs's dense path, SciPy's warning and every eigenvalue (real parts)
    with pytest.warns(RuntimeWarning, match="k >= N - 1"):
        got = dev.cla.eigsh(D(m), k=n - 1, return_eigenvectors=False)
    with pytest.warns(RuntimeWarning):
        want = sla.eigsh(m, k=n - 1, return_eigenvectors=False)
    assert H(got).shape == want.shape == (n,) and H(got).dtype == want.dtype == np.float64
    np.testing.assert_allclose(np.sort(H(got)), w, rtol=1e-10)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        _same_error(lambda: dev.cla.eigsh(dev.sp.csr_matrix(ssp.csr_matrix(m)), k=n - 1),
                    lambda: sla.eigsh(ssp.csr_matrix(m), k=n - 1))
    for kw in (dict(k=3, ncv=4), dict(k=2, which="BE"), dict(k=2, sigma=0.5, mode="buckling"), dict(k=0)):
        _same_error(lambda: dev.cla.eigsh(D(m), **kw), lambda: sla.eigsh(m, **kw))
    got = dev.cla.eigsh(D(m), k=3, ncv=5, which="LR", return_eigenvectors=False)  # eigs's name for LA
    np.testing.assert_allclose(np.sort(H(got)), w[-3:], rtol=1e-10)


def test_real_errors_as_scipy(dev):
    m = _hermitian(9, "float64", 84)
    for kw in (dict(k=3, ncv=3), dict(k=0), dict(k=2, maxiter=0), dict(k=2, which="XX")):
        _same_error(lambda: dev.cla.eigsh(D(m), **kw), lambda: sla.eigsh(m, **kw))
    with pytest.warns(RuntimeWarning):  # k >= n: the dense eigh of a dense array, as SciPy
        got = dev.cla.eigsh(D(m), k=9, return_eigenvectors=False)
    np.testing.assert_allclose(np.sort(H(got)), np.linalg.eigvalsh(m), rtol=1e-10)


def _masked(dtype):
    """CuPy's TestEigsh matrix: uniform [0, 10) entries (seed 0), those whose mask draw (the same
    seed, scale 1) exceeds 0.33 zeroed, times its conjugate transpose elementwise."""
    rs = np.random.RandomState(0)
    dt = np.dtype(dtype)
    a = (rs.rand(30, 30) + 1j * rs.rand(30, 30)) * 10 if dt.kind == "c" else rs.rand(30, 30) * 10
    a = a.astype(dt)
    a[np.random.RandomState(0).rand(30, 30).astype(np.float32) > 0.33] = 0
    return a * a.conj().T


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("which", ["LM", "LA", "SA"])
def test_masked_matrices_as_scipy(dev, dtype, which):
    a = _masked(dtype)
    tol = 1e-5 if dtype in ("float32", "complex64") else 1e-12
    for k in (3, 6, 12):
        want = np.sort(sla.eigsh(ssp.csr_matrix(a), k=k, which=which, return_eigenvectors=False))
        w, x = dev.cla.eigsh(dev.sp.csr_matrix(ssp.csr_matrix(a)), k=k, which=which)
        np.testing.assert_allclose(np.sort(H(w)), want, rtol=tol, atol=tol, err_msg="k={}".format(k))
        res = np.linalg.norm(a @ H(x) - H(x) * H(w)) / np.linalg.norm(H(w))
        assert res < tol, res
