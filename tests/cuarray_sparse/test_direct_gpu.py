"""The cuDSS direct solvers on the GPU against scipy.sparse.linalg (skipped where cuDSS is not
installed: scripts/cudss_to_device.sh installs it on the GPU machine)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.sparse as ssp
import scipy.sparse.linalg as sla

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
import cuarray.sparse as sp  # noqa: E402
import cuarray.sparse.linalg as cla  # noqa: E402
from cuarray.cuda.libs import cudss  # noqa: E402


@pytest.fixture(autouse=True)
def _need_cudss():
    # skips only where cuDSS is absent (an ImportError naming the extra); an installed cuDSS that fails
    # to load or to make a handle raises here, so the tests error loudly instead of skipping
    why = cudss.unavailable_reason()
    if why is not None:
        pytest.skip("cuDSS is not installed (pip install 'cuarray[cudss]'): {}".format(why.splitlines()[0]))


def _poisson(n):
    t = ssp.diags([-np.ones(n - 1), 2 * np.ones(n), -np.ones(n - 1)], [-1, 0, 1])
    return ssp.kronsum(t, t).tocsr()


def _general(n, dtype, seed):
    rng = np.random.default_rng(seed)
    a = ssp.random(n, n, density=0.2, random_state=rng, format="csr") + ssp.eye(n) * 4
    a = a.astype(dtype)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * ssp.random(n, n, density=0.1, random_state=rng, format="csr")
    return a.tocsr()


@pytest.mark.parametrize("dtype", ["float64", "float32", "complex128"])
@pytest.mark.parametrize("fmt", ["csr", "csc"])
def test_spsolve(dtype, fmt):
    h = _general(40, dtype, 1).asformat(fmt)
    a = sp.csr_matrix(h) if fmt == "csr" else sp.csc_matrix(h)
    b = np.random.default_rng(2).random(40).astype(dtype)
    x = cla.spsolve(a, cuarray.asarray(b))
    want = sla.spsolve(h, b)
    tol = 1e-4 if dtype == "float32" else 1e-10
    assert x.dtype == want.dtype and x.shape == want.shape
    np.testing.assert_allclose(x.get(), want, rtol=tol, atol=tol)
    B = np.random.default_rng(3).random((40, 3)).astype(dtype)
    np.testing.assert_allclose(cla.spsolve(a, cuarray.asarray(B)).get(), sla.spsolve(h, B), rtol=tol, atol=tol)
    xc = cla.spsolve(a, cuarray.asarray(B[:, :1]))
    assert xc.shape == (40,)


def test_poisson_and_sparse_rhs():
    h = _poisson(12)
    a = sp.csr_matrix(h)
    b = np.arange(144.0)
    np.testing.assert_allclose(cla.spsolve(a, cuarray.asarray(b)).get(), sla.spsolve(h, b), rtol=1e-10)
    hb = ssp.random(144, 3, density=0.3, random_state=4, format="csc")
    got = cla.spsolve(a, sp.csc_matrix(hb))
    np.testing.assert_allclose(got.toarray().get(), sla.spsolve(h.tocsc(), hb).toarray(), rtol=1e-10, atol=1e-12)


def test_reordering_on_host_threads_from_any_thread():
    # the wheel's GNU OpenMP threading layer: the handles use it where it ships beside libcudss
    # (the analysis of a large matrix on every usable core), and a solve from another Python
    # thread (its own handle, its own OpenMP team) still gives SciPy's answer
    import os
    import threading

    if os.path.isfile(cudss._threading_layer() or ""):
        cla.spsolve(sp.csr_matrix(_poisson(4)), cuarray.ones(16))
        assert cudss._threaded[0] and cudss.host_threads() >= 1
    h = _poisson(300)  # 9e4 unknowns: the reordering's threads have work
    b = np.random.default_rng(5).random(h.shape[0])
    want = sla.spsolve(h.tocsc(), b)
    got = []
    t = threading.Thread(target=lambda: got.append(cla.spsolve(sp.csr_matrix(h), cuarray.asarray(b)).get()))
    t.start()
    t.join()
    np.testing.assert_allclose(got[0], want, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(cla.spsolve(sp.csr_matrix(h), cuarray.asarray(b)).get(), want, rtol=1e-9, atol=1e-12)


def _status(a):
    """cuDSS's INFO, NPIVOTS and smallest pivot for `a` (printed where a singularity check fails)."""
    return cla.SuperLU(a, np.dtype(a.dtype))._f.status()


@pytest.mark.parametrize("dtype", ["float64", "float32", "complex128"])
@pytest.mark.parametrize("dense", [
    [[1.0, 2.0], [2.0, 4.0]],                                    # rank 1
    [[1.0, 0.0, 2.0], [0.0, 0.0, 0.0], [3.0, 0.0, 1.0]],         # a zero row and column
    [[1.0, 0.5, 2.0], [2.0, 1.0, 4.0], [4.0, 2.0, 8.0]],         # rank 1 (exact in any pivot order)
    [[1.0, 0.0, 2.0], [0.0, 0.0, 1.0], [3.0, 0.0, 1.0]],         # a zero column only
])
def test_singular(dense, dtype):
    h = ssp.csr_matrix(np.array(dense, dtype=dtype))
    a = sp.csr_matrix(h)
    with pytest.warns(sla.MatrixRankWarning):
        want = sla.spsolve(h, np.ones(h.shape[0]))
    with pytest.warns(cla.MatrixRankWarning):
        x = cla.spsolve(a, cuarray.asarray(np.ones(h.shape[0])))
    assert np.isnan(x.get()).all() and np.isnan(want).all(), _status(a)
    with pytest.raises(RuntimeError, match="singular"):
        sla.splu(h.tocsc())
    with pytest.raises(RuntimeError, match="singular"):
        cla.splu(a)
    assert cuarray.ones(3).sum().get() == 3  # the library stays usable


@pytest.mark.parametrize("scale", [1.0, 1e-20, 1e20])
def test_nonsingular_at_any_scale_is_not_singular(scale):
    # cuDSS's default pivot epsilon (1e-13) would perturb every pivot of the 1e-20 matrix
    h = (_general(30, "float64", 8) * scale).tocsr()
    a = sp.csr_matrix(h)
    b = np.random.default_rng(9).random(30)
    with warnings.catch_warnings():
        warnings.simplefilter("error", cla.MatrixRankWarning)
        x = cla.spsolve(a, cuarray.asarray(b))
    np.testing.assert_allclose(x.get(), sla.spsolve(h, b), rtol=1e-10, err_msg=str(_status(a)))


def test_splu_factorized_spilu():
    h = _general(30, "float64", 5).tocsc()
    a = sp.csc_matrix(h)
    lu, hlu = cla.splu(a), sla.splu(h)
    b = np.random.default_rng(6).random((30, 2))
    for trans in ("N", "T", "H"):
        np.testing.assert_allclose(lu.solve(cuarray.asarray(b), trans=trans).get(), hlu.solve(b, trans=trans),
                                   rtol=1e-10)
    assert lu.shape == (30, 30) and lu.nnz > 0, _status(a)
    # SciPy's contract for the factors and permutations: Pr A Pc = L U
    pr = ssp.csc_matrix((np.ones(30), (lu.perm_r, np.arange(30))), shape=(30, 30))
    pc = ssp.csc_matrix((np.ones(30), (np.arange(30), lu.perm_c)), shape=(30, 30))
    L, U = lu.L.get(), lu.U.get()
    assert (ssp.triu(L, 1).nnz, ssp.tril(U, -1).nnz) == (0, 0)
    np.testing.assert_allclose((L @ U).toarray(), (pr @ h @ pc).toarray(), rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(lu.perm_r, hlu.perm_r)
    np.testing.assert_array_equal(lu.perm_c, hlu.perm_c)
    f = cla.factorized(a)
    np.testing.assert_allclose(f(cuarray.asarray(b[:, 0])).get(), sla.factorized(h)(b[:, 0]), rtol=1e-10)
    ilu = cla.spilu(a)
    np.testing.assert_allclose(ilu.solve(cuarray.asarray(b[:, 0])).get(), hlu.solve(b[:, 0]), rtol=1e-10)


def test_errors():
    with pytest.raises(ValueError, match="square"):
        cla.spsolve(sp.csr_matrix(ssp.random(3, 4, density=0.5, format="csr")), cuarray.ones(3))
    with pytest.raises(ValueError, match="dimension mismatch"):
        cla.spsolve(sp.csr_matrix(_poisson(3)), cuarray.ones(4))


@pytest.mark.parametrize("dtype", ["float32", "complex128"])
def test_superlu_factors_satisfy_scipys_contract(dtype):
    h = _general(25, dtype, 11).tocsc()
    lu, hlu = cla.splu(sp.csc_matrix(h), permc_spec="MMD_AT_PLUS_A"), sla.splu(h, permc_spec="MMD_AT_PLUS_A")
    L, U = lu.L.get(), lu.U.get()
    assert L.dtype == hlu.L.dtype and U.dtype == hlu.U.dtype
    n = h.shape[0]
    pr = ssp.csc_matrix((np.ones(n), (lu.perm_r, np.arange(n))), shape=(n, n))
    pc = ssp.csc_matrix((np.ones(n), (np.arange(n), lu.perm_c)), shape=(n, n))
    tol = 1e-5 if dtype == "float32" else 1e-12
    np.testing.assert_allclose((L @ U).toarray(), (pr @ h @ pc).toarray(), rtol=tol, atol=tol)
    np.testing.assert_array_equal(lu.perm_c, hlu.perm_c)
