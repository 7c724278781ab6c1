"""cuarray.scipy.linalg on the GPU against scipy.linalg: fresh random matrices, float32/float64
(complex where the routine takes it), stacks where SciPy batches."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

sla = pytest.importorskip("scipy.linalg")

import cuarray  # noqa: E402
from cuarray.scipy import linalg as cla  # noqa: E402

DTYPES = [np.float32, np.float64, np.complex128]
TOL = {np.float32: 2e-4, np.float64: 1e-10, np.complex128: 1e-10}


def _rng(*key):
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


def _mat(rng, shape, dtype):
    a = rng.normal(size=shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.normal(size=shape)
    # A diagonal of size n lifts a square matrix away from singularity; a right-hand side
    # (n, k) gets the same (n, k) eye, never a (k, k) one broadcast over it.
    return (a + shape[-1] * np.eye(*shape[-2:])).astype(dtype)


def _spd(rng, n, dtype):
    a = _mat(rng, (n, n), dtype)
    return (a @ a.conj().T + n * np.eye(n)).astype(dtype)


G = cuarray.asarray


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [1, 7, 64])
def test_lu_factor_lu_solve(dtype, n):
    rng = _rng("lu", dtype, n)
    a, b = _mat(rng, (n, n), dtype), _mat(rng, (n, 3), dtype)
    lu, piv = cla.lu_factor(G(a))
    wlu, wpiv = sla.lu_factor(a)
    assert lu.dtype == wlu.dtype and piv.dtype == wpiv.dtype
    np.testing.assert_array_equal(piv.get(), wpiv)
    np.testing.assert_allclose(lu.get(), wlu, rtol=TOL[dtype], atol=TOL[dtype])
    for trans in (0, 1, 2):
        np.testing.assert_allclose(cla.lu_solve((lu, piv), G(b), trans=trans).get(),
                                   sla.lu_solve((wlu, wpiv), b, trans=trans), rtol=TOL[dtype], atol=TOL[dtype])
    np.testing.assert_allclose(cla.lu_solve((lu, piv), G(b[:, 0])).get(), sla.lu_solve((wlu, wpiv), b[:, 0]),
                               rtol=TOL[dtype], atol=TOL[dtype])


@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_lu(dtype):
    a = _mat(_rng("plu", dtype), (9, 9), dtype)
    p, l, u = cla.lu(G(a))
    wp, wl, wu = sla.lu(a)
    for got, want in ((p, wp), (l, wl), (u, wu)):
        np.testing.assert_allclose(got.get(), want, atol=1e-10)
    pl, u2 = cla.lu(G(a), permute_l=True)
    np.testing.assert_allclose(pl.get(), sla.lu(a, permute_l=True)[0], atol=1e-10)
    perm, _, _ = cla.lu(G(a), p_indices=True)
    np.testing.assert_array_equal(perm.get(), sla.lu(a, p_indices=True)[0])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("lower", [False, True])
def test_cho_factor_cho_solve(dtype, lower):
    rng = _rng("cho", dtype, lower)
    a, b = _spd(rng, 12, dtype), _mat(rng, (12, 2), dtype)
    c = cla.cho_factor(G(a), lower=lower)
    flag = sla.cho_factor(a, lower=lower)[1]  # SciPy 1.18: a bool array of the batch shape, before: the bool
    assert type(c[1]) is type(flag) and np.shape(c[1]) == np.shape(flag) and bool(c[1]) is lower
    np.testing.assert_allclose(cla.cho_solve(c, G(b)).get(), sla.cho_solve(sla.cho_factor(a, lower=lower), b),
                               rtol=TOL[dtype], atol=TOL[dtype])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("lower", [False, True])
@pytest.mark.parametrize("trans", [0, 1, 2])
@pytest.mark.parametrize("unit", [False, True])
def test_solve_triangular(dtype, lower, trans, unit):
    rng = _rng("tri", dtype, lower, trans, unit)
    a, b = _mat(rng, (20, 20), dtype), _mat(rng, (20, 4), dtype)
    a = np.tril(a) if lower else np.triu(a)
    want = sla.solve_triangular(a, b, trans=trans, lower=lower, unit_diagonal=unit)
    got = cla.solve_triangular(G(a), G(b), trans=trans, lower=lower, unit_diagonal=unit)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got.get(), want, rtol=TOL[dtype], atol=TOL[dtype])


def test_solve_triangular_singular_raises():
    a = np.triu(_mat(_rng("sing"), (5, 5), np.float64))
    a[2, 2] = 0
    with pytest.raises(np.linalg.LinAlgError):
        cla.solve_triangular(G(a), G(np.ones(5)))


@pytest.mark.parametrize("assume_a", ["gen", "sym", "her", "pos", "diagonal", "upper triangular", "lower triangular"])
def test_solve_assume_a(assume_a):
    rng = _rng("solve", assume_a)
    a = _spd(rng, 16, np.float64)
    if assume_a == "diagonal":
        a = np.diag(np.diag(a))
    elif assume_a == "upper triangular":
        a = np.triu(a)
    elif assume_a == "lower triangular":
        a = np.tril(a)
    b = rng.normal(size=(16, 3))
    for bb in (b, b[:, 0]):
        np.testing.assert_allclose(cla.solve(G(a), G(bb), assume_a=assume_a).get(),
                                   sla.solve(a, bb, assume_a=assume_a), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("dtype", DTYPES)
def test_inv_det(dtype):
    a = _mat(_rng("invdet", dtype), (4, 10, 10), dtype)
    np.testing.assert_allclose(cla.inv(G(a)).get(), sla.inv(a), rtol=TOL[dtype], atol=TOL[dtype])
    np.testing.assert_allclose(cla.det(G(a)).get(), sla.det(a), rtol=TOL[dtype] * 10)


def test_eigh_subsets_and_generalized():
    rng = _rng("eigh")
    a = _spd(rng, 30, np.float64)
    b = _spd(rng, 30, np.float64)
    w, v = cla.eigh(G(a))
    np.testing.assert_allclose(w.get(), sla.eigh(a)[0], rtol=1e-10)
    w = cla.eigh(G(a), subset_by_index=[3, 9], eigvals_only=True)
    np.testing.assert_allclose(w.get(), sla.eigh(a, subset_by_index=[3, 9], eigvals_only=True), rtol=1e-10)
    lo, hi = 40.0, 70.0
    w = cla.eigh(G(a), subset_by_value=(lo, hi), eigvals_only=True)
    np.testing.assert_allclose(w.get(), sla.eigh(a, subset_by_value=(lo, hi), eigvals_only=True), rtol=1e-10)
    w, v = cla.eigh(G(a), G(b))
    ww, wv = sla.eigh(a, b)
    np.testing.assert_allclose(w.get(), ww, rtol=1e-9)
    vg = v.get()
    np.testing.assert_allclose(a @ vg, b @ vg * ww, rtol=1e-8, atol=1e-8)  # eigenvectors up to sign


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(3, 3), (64, 64), (5, 20, 20)])
def test_expm(dtype, shape):
    a = (_rng("expm", dtype, shape).normal(size=shape) * 0.7).astype(dtype)
    got = cla.expm(G(a))
    want = sla.expm(a)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got.get(), want, rtol=TOL[dtype] * 10, atol=TOL[dtype])
    big = (a * 20).astype(dtype)  # scaling and squaring
    np.testing.assert_allclose(cla.expm(G(big)).get(), sla.expm(big), rtol=TOL[dtype] * 100)


def test_svd_null_space_orth_procrustes():
    rng = _rng("svd")
    a = rng.normal(size=(8, 5)) @ rng.normal(size=(5, 12))  # rank 5
    np.testing.assert_allclose(cla.svdvals(G(a)).get(), sla.svdvals(a), rtol=1e-10, atol=1e-12)
    ns = cla.null_space(G(a)).get()
    assert ns.shape == sla.null_space(a).shape
    np.testing.assert_allclose(a @ ns, 0, atol=1e-10)
    o = cla.orth(G(a)).get()
    assert o.shape == sla.orth(a).shape
    b = rng.normal(size=(8, 5))
    c = rng.normal(size=(8, 5))
    r, s = cla.orthogonal_procrustes(G(b), G(c))
    wr, ws = sla.orthogonal_procrustes(b, c)
    np.testing.assert_allclose(r.get(), wr, atol=1e-10)
    np.testing.assert_allclose(float(s.get()), ws, rtol=1e-12)


def test_special_matrices():
    rng = _rng("special")
    c, r = rng.normal(size=5), rng.normal(size=7)
    np.testing.assert_array_equal(cla.toeplitz(G(c), G(r)).get(), sla.toeplitz(c, r))
    np.testing.assert_array_equal(cla.toeplitz(G(c)).get(), sla.toeplitz(c))
    np.testing.assert_array_equal(cla.circulant(G(c)).get(), sla.circulant(c))
    np.testing.assert_array_equal(cla.hankel(G(c), G(r)).get(), sla.hankel(c, r))
    np.testing.assert_array_equal(cla.hankel(G(c)).get(), sla.hankel(c))
    np.testing.assert_allclose(cla.hilbert(6).get(), sla.hilbert(6), rtol=1e-15)
    np.testing.assert_allclose(cla.invhilbert(6).get(), sla.invhilbert(6), rtol=1e-15)
    np.testing.assert_array_equal(cla.invhilbert(6, exact=True).get(), sla.invhilbert(6, exact=True).astype(np.int64))
    np.testing.assert_array_equal(cla.hadamard(8).get(), sla.hadamard(8))
    np.testing.assert_allclose(cla.helmert(5, full=True).get(), sla.helmert(5, full=True), rtol=1e-15)
    f, s = rng.uniform(size=4), rng.uniform(size=3)
    np.testing.assert_array_equal(cla.leslie(G(f), G(s)).get(), sla.leslie(f, s))
    p = rng.normal(size=6)
    np.testing.assert_allclose(cla.companion(G(p)).get(), sla.companion(p), rtol=1e-15)
    blocks = [rng.normal(size=(2, 3)), rng.normal(size=(1, 1)), rng.normal(size=4)]
    np.testing.assert_array_equal(cla.block_diag(*[G(x) for x in blocks]).get(), sla.block_diag(*blocks))
    a, b = rng.normal(size=(3, 4)), rng.normal(size=(5, 4))
    np.testing.assert_allclose(cla.khatri_rao(G(a), G(b)).get(), sla.khatri_rao(a, b), rtol=1e-15)
    np.testing.assert_allclose(cla.kron(G(a), G(b)).get(), np.kron(a, b), rtol=1e-15)
