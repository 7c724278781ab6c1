"""The sparse.linalg additions of issue #58 on the GPU against SciPy on the host, at sizes and in
layouts the host-shim tests do not reach: the Krylov solvers on a 4096-unknown convection-diffusion
system (float32/float64/complex, CSR/CSC/operator, (n, 1) and strided right-hand sides), eigs and
eigsh (plain and shift-invert through cuDSS), expm/inv (cuDSS), expm_multiply, onenormest,
LaplacianNd on a large grid, funm_multiply_krylov with a device matrix function, and the
structure helpers. Tests that need cuDSS skip where it is not installed."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.linalg as sl
import scipy.sparse as ssp
import scipy.sparse.linalg as sla

from cuarray.cuda import _backend

from ._util import normal_plus

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
import cuarray.sparse as sp  # noqa: E402
import cuarray.sparse.linalg as cla  # noqa: E402
from cuarray.cuda.libs import cudss  # noqa: E402

G = cuarray.asarray


def _need_cudss():
    why = cudss.unavailable_reason()
    if why is not None:
        pytest.skip("cuDSS is not installed (pip install 'cuarray[cudss]'): {}".format(why.splitlines()[0]))


def _convection_diffusion(m, dtype, c=0.4, shift=0.0):
    """-Laplacian + c * first difference (+ shift I) on an m x m grid: nonsymmetric. Its
    eigenvalues are real and ill conditioned (the similarity to a symmetric matrix has condition
    ((1 + c) / (1 - c)) ** (m / 2)): eigs tests use `normal_plus`."""
    t = ssp.diags([-(1 + c) * np.ones(m - 1), (4 + shift) * np.ones(m), -(1 - c) * np.ones(m - 1)], [-1, 0, 1])
    e = ssp.diags([-np.ones(m - 1), -np.ones(m - 1)], [-1, 1])
    a = (ssp.kron(ssp.eye(m), t) + ssp.kron(e, ssp.eye(m))).tocsr().astype(dtype)
    if np.dtype(dtype).kind == "c":
        a = (a + 0.1j * ssp.eye(m * m)).tocsr().astype(dtype)
    return a


@pytest.mark.parametrize("solver", ["bicg", "qmr", "tfqmr", "lgmres", "gcrotmk"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
def test_krylov_large(solver, dtype):
    # shifted by I/2 so that every solver converges in SciPy too at float32's rtol (unshifted,
    # SciPy's qmr breaks down and its float32 tfqmr stalls)
    h = _convection_diffusion(64, dtype, shift=0.5)
    rng = np.random.default_rng(1)
    b = rng.random(h.shape[0]).astype(dtype)
    rtol = 1e-5 if dtype in ("float32", "complex64") else 1e-9
    x, info = getattr(cla, solver)(sp.csr_matrix(h), G(b), rtol=rtol, maxiter=3000)
    xs, infos = getattr(sla, solver)(h, b, rtol=rtol, maxiter=3000)
    assert info == infos == 0
    assert x.dtype == xs.dtype
    assert np.linalg.norm(h @ x.get() - b) <= 2 * rtol * np.linalg.norm(b)


@pytest.mark.parametrize("solver", ["bicg", "qmr", "tfqmr", "lgmres", "gcrotmk"])
def test_krylov_layouts(solver):
    h = _convection_diffusion(20, "float64")
    n = h.shape[0]
    big = np.random.default_rng(2).random(2 * n)
    a = sp.csr_matrix(h)
    want = ssp.linalg.spsolve(h.tocsc(), big[::2])
    for A in (sp.csc_matrix(h.tocsc()), cla.LinearOperator(h.shape, matvec=lambda v: a @ v,
                                                          rmatvec=lambda v: a.H @ v, dtype=h.dtype)):
        x, info = getattr(cla, solver)(A, G(big)[::2], rtol=1e-10)        # a strided right-hand side
        assert info == 0
        np.testing.assert_allclose(x.get(), want, rtol=1e-7, atol=1e-9)
        x, info = getattr(cla, solver)(A, G(big[::2].reshape(n, 1)), rtol=1e-10)   # (n, 1)
        assert info == 0 and x.shape == (n,)
        np.testing.assert_allclose(x.get(), want, rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("which", ["LM", "LR", "SR", "LI"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
def test_eigs_large(which, dtype):
    # the ends of the spectrum apart: as drawn, the leftmost pairs (and for 'LI' the largest
    # imaginary parts) are crowded, and SciPy's answer depends on its random start
    h = normal_plus(1600, dtype, apart=True)
    k = 6
    w, v = cla.eigs(sp.csr_matrix(h), k=k, which=which)
    wd = np.linalg.eigvals(h.toarray().astype(np.complex128))
    real = np.dtype(dtype).kind == "f"
    im = np.abs if real else (lambda z: z)
    key = {"LM": lambda z: -np.abs(z), "LR": lambda z: -z.real, "SR": lambda z: z.real,
           "LI": lambda z: -im(z.imag)}[which]
    tol = 1e-3 if dtype == "float32" else 1e-8
    np.testing.assert_allclose(np.sort(key(w.get().astype(np.complex128))), np.sort(key(wd))[:k],
                               atol=tol * np.abs(wd).max())
    ws = sla.eigs(h.astype(np.result_type(dtype, np.float64)), k=k, which=which, return_eigenvectors=False)
    np.testing.assert_allclose(np.sort(key(w.get().astype(np.complex128))), np.sort(key(ws)),
                               atol=tol * np.abs(wd).max())
    vh, wh = v.get(), w.get()
    assert np.abs(h @ vh - vh * wh).max() <= 50 * tol * np.abs(wd).max()


def test_shift_invert_cudss():
    _need_cudss()
    h = _convection_diffusion(30, "float64")
    sigma = 3.1
    w = cla.eigs(sp.csr_matrix(h), k=4, sigma=sigma, return_eigenvectors=False).get()
    wd = np.linalg.eigvals(h.toarray())
    np.testing.assert_allclose(np.sort(np.abs(w - sigma)), np.sort(np.abs(wd - sigma))[:4], rtol=1e-9)
    s = (h + h.T).tocsr()
    ws, vs = cla.eigsh(sp.csr_matrix(s), k=4, sigma=sigma)
    np.testing.assert_allclose(ws.get(), np.sort(sla.eigsh(s, k=4, sigma=sigma, return_eigenvectors=False)),
                               rtol=1e-10)
    assert np.abs(s @ vs.get() - vs.get() * ws.get()).max() < 1e-8


@pytest.mark.parametrize("dtype", ["float64", "complex128", "float32"])
def test_expm_inv_cudss(dtype):
    _need_cudss()
    rng = np.random.default_rng(3)
    h = (ssp.random(300, 300, density=0.01, random_state=rng) * 4 + ssp.eye(300)).tocsc().astype(dtype)
    tol = 1e-4 if dtype == "float32" else 1e-11
    got, want = cla.expm(sp.csc_matrix(h)), sla.expm(h)
    assert got.format == "csc" and got.dtype == want.dtype
    np.testing.assert_allclose(got.toarray().get(), want.toarray(), rtol=tol, atol=tol * abs(want).max())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got, want = cla.inv(sp.csc_matrix(h)), sla.inv(h)
    np.testing.assert_allclose(got.toarray().get(), want.toarray(), rtol=tol, atol=tol * abs(want).max())


@pytest.mark.parametrize("bshape", [(4096,), (4096, 4)])
def test_expm_multiply_large(bshape):
    h = -_convection_diffusion(64, "float64") * 0.05
    b = np.random.default_rng(4).random(bshape)
    got, want = cla.expm_multiply(sp.csr_matrix(h), G(b)), sla.expm_multiply(h, b)
    np.testing.assert_allclose(got.get(), want, rtol=1e-11, atol=1e-13)
    got = cla.expm_multiply(sp.csr_matrix(h), G(b), start=0, stop=2, num=9)
    want = sla.expm_multiply(h, b, start=0, stop=2, num=9)
    np.testing.assert_allclose(got.get(), want, rtol=1e-11, atol=1e-13)
    h32, b32 = h.astype(np.float32), b.astype(np.float32)   # SciPy's dtypes (eta is a NumPy float64)
    for kwargs in ({}, {"start": 0, "stop": 1, "num": 3}):
        got, want = cla.expm_multiply(sp.csr_matrix(h32), G(b32), **kwargs), sla.expm_multiply(h32, b32, **kwargs)
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got.get(), want, rtol=1e-5, atol=1e-6)


def test_onenormest_large():
    h = ssp.random(5000, 5000, density=5e-4, random_state=5, format="csr") - ssp.eye(5000) * 0.5
    exact = abs(h).sum(axis=0).max()
    est, v, w = cla.onenormest(sp.csr_matrix(h), compute_v=True, compute_w=True)
    assert 0.5 * exact <= est <= exact * (1 + 1e-12)
    np.testing.assert_allclose(h @ v.get(), w.get(), rtol=1e-12)


def test_laplacian_large_grid():
    lap, ref = cla.LaplacianNd((100, 120), boundary_conditions="periodic", dtype=np.float64), \
        sla.LaplacianNd((100, 120), boundary_conditions="periodic", dtype=np.float64)
    x = np.random.default_rng(6).random((12000, 3))
    np.testing.assert_allclose(lap.matmat(G(x)).get(), ref.matmat(x), atol=1e-12)
    np.testing.assert_allclose(lap.eigenvalues(5).get(), ref.eigenvalues(5), atol=1e-12)
    s = lap.tosparse()
    np.testing.assert_allclose((s @ G(x[:, 0])).get(), ref.matvec(x[:, 0]), atol=1e-12)
    w = cla.eigsh(lap, k=3, which="LA", return_eigenvectors=False)   # the operator in a solver
    np.testing.assert_allclose(np.sort(w.get()), ref.eigenvalues(3), atol=1e-8)


def test_funm_with_a_device_matrix_function():
    from cuarray.scipy.linalg import expm as device_expm   # f runs on the device

    h = (-_convection_diffusion(20, "float64") * 0.1).tocsr()
    b = np.random.default_rng(7).random(400)
    y = cla.funm_multiply_krylov(device_expm, sp.csr_matrix(h), G(b), rtol=1e-12, restart_every_m=10)
    np.testing.assert_allclose(y.get(), sl.expm(h.toarray()) @ b, rtol=1e-9)


def test_structure_helpers_large():
    h = ssp.random(3000, 3000, density=1e-3, random_state=8, format="csr")
    for m in (h, ssp.tril(h, -3).tocsr(), ssp.triu(h, 7).tocsc()):
        a = sp.csr_matrix(m) if m.format == "csr" else sp.csc_matrix(m)
        assert cla.spbandwidth(a) == sla.spbandwidth(m)
        assert cla.is_sptriangular(a) == sla.is_sptriangular(m)
