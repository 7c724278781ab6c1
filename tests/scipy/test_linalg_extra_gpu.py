"""The last scipy.linalg names of issue 50 on the GPU against SciPy on the host: issymmetric,
ishermitian, rq, qr_multiply, qr_update/insert/delete, diagsvd, cdf2rdf, matmul_toeplitz,
expm_cond, clarkson_woodruff_transform, find_best_blas_type, and the host steps (matrix equation
solvers, eigvals_banded, eigvalsh_tridiagonal): fresh random and edge inputs, float32/float64/
complex64/complex128, batches, non-contiguous views, empty arrays, bad input. Batched results are
compared slice by slice with SciPy's unbatched call."""

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
sps = pytest.importorskip("scipy.sparse")

import cuarray  # noqa: E402
import cuarray.sparse  # noqa: E402
from cuarray.scipy import linalg as cla  # noqa: E402
from cuarray.scipy.linalg import _expm_cond  # noqa: E402

G = cuarray.asarray
DTYPES = [np.float32, np.float64, np.complex64, np.complex128]
TOL = {np.float32: 2e-4, np.float64: 1e-11, np.complex64: 2e-4, np.complex128: 1e-11}
ID = lambda d: np.dtype(d).name  # noqa: E731


def _rng(*key):
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


def _rand(rng, shape, dtype=np.float64):
    a = rng.normal(size=shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.normal(size=shape)
    return a.astype(dtype)


def _close(got, want, tol, dtype=True):
    assert isinstance(got, cuarray.ndarray), type(got)
    want = np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    if dtype:
        assert got.dtype == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_allclose(got.get(), want, rtol=tol, atol=tol * max(1.0, float(np.abs(want).max(initial=0))))


def _per_slice(fn, batch, *arrays):
    outs = [fn(*(np.broadcast_to(a, batch + a.shape[a.ndim - nd:])[i] for a, nd in arrays)) for i in np.ndindex(*batch)]
    if isinstance(outs[0], tuple):
        return tuple(np.stack([o[j] for o in outs]).reshape(batch + outs[0][j].shape) for j in range(len(outs[0])))
    return np.stack(outs).reshape(batch + np.shape(outs[0]))


# -- issymmetric / ishermitian ------------------------------------------------------------------------
@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # bool input (SciPy 1.18 deprecates it)
@pytest.mark.parametrize("dtype", DTYPES + [np.int32, np.bool_], ids=ID)
@pytest.mark.parametrize("fn", ["issymmetric", "ishermitian"])
def test_symmetry(dtype, fn):
    rng = _rng("sym", dtype, fn)
    a = _rand(rng, (6, 6), dtype) if np.dtype(dtype).kind in "fc" else rng.integers(0, 2, (6, 6)).astype(dtype)
    t = a.T.conj() if fn == "ishermitian" else a.T
    s = np.triu(a) + np.tril(t, -1)  # the upper triangle of a, mirrored
    if fn == "ishermitian" and s.dtype.kind == "c":
        s[np.diag_indices(6)] = s.diagonal().real
    for x in (s, a, s[::-1, ::-1], np.asfortranarray(s)):
        for kw in ({}, {"atol": 1e-3}, {"rtol": 1e-3}):
            with np.errstate(all="ignore"):
                got, want = getattr(cla, fn)(G(x), **kw), getattr(sla, fn)(x, **kw)
            assert type(got) is bool and got == want, (kw, got, want)


@pytest.mark.parametrize("fn", ["issymmetric", "ishermitian"])
def test_symmetry_edges_and_batches(fn):
    f = getattr(cla, fn)
    assert f(G(np.array([[np.nan, 1.0], [1.0, 2.0]]))) is getattr(sla, fn)(np.array([[np.nan, 1.0], [1.0, 2.0]]))
    assert f(G(np.array([[1.0, np.nan], [np.nan, 2.0]]))) is False
    assert f(G(np.array([[1 + 1j, 2j], [2j, 1.0]]))) is (fn == "issymmetric")
    assert f(G(np.empty((0, 0)))) is True
    rng = _rng("sym-batch", fn)
    a = _rand(rng, (3, 2, 5, 5), np.complex128)
    a = a + (a.swapaxes(-1, -2).conj() if fn == "ishermitian" else a.swapaxes(-1, -2))
    a[2, 1, 0, 3] += 1e-9
    got = f(G(a)[:, :, ::1, :])
    assert isinstance(got, cuarray.ndarray) and got.dtype == np.bool_ and got.shape == (3, 2)
    np.testing.assert_array_equal(got.get(), _per_slice(getattr(sla, fn), (3, 2), (a, 2)))
    np.testing.assert_array_equal(f(G(a), atol=1e-6).get(), np.ones((3, 2), bool))
    np.testing.assert_array_equal(f(G(np.empty((2, 0, 0)))).get(), [True, True])
    for bad in (np.ones(3), np.ones((2, 3)), np.ones((0, 2, 2))):
        with pytest.raises(ValueError):
            f(G(bad))
    with pytest.warns(DeprecationWarning), pytest.raises(TypeError):
        f(G(np.eye(2, dtype=np.float16)))


# -- rq -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", DTYPES, ids=ID)
@pytest.mark.parametrize("shape", [(4, 7), (7, 4), (6, 6), (1, 5), (5, 1), (40, 64)])
@pytest.mark.parametrize("mode", ["full", "economic", "r"])
def test_rq(dtype, shape, mode):
    a = _rand(_rng("rq", dtype, shape, mode), shape, dtype)
    got, want = cla.rq(G(a), mode=mode), sla.rq(a, mode=mode)
    for g, w in zip(got if mode != "r" else (got,), want if mode != "r" else (want,)):
        _close(g, w, TOL[dtype] * 10)  # LAPACK's own factors: cuSOLVER's geqrf follows its convention


def test_rq_batches_views_empty_and_dtypes():
    a = _rand(_rng("rq-batch"), (2, 3, 8, 10))
    view = G(a)[..., ::2, ::-1]
    for mode in ("full", "economic"):
        got = cla.rq(view, mode=mode)
        want = _per_slice(lambda x: sla.rq(x, mode=mode), (2, 3), (a[..., ::2, ::-1], 2))
        for g, w in zip(got, want):
            _close(g, w, 1e-10)
    for shape in ((0, 3), (3, 0), (2, 0, 3)):
        e = np.ones(shape, np.int64)
        got = cla.rq(G(e))
        want = _per_slice(sla.rq, shape[:-2], (e, 2)) if len(shape) > 2 else sla.rq(e)
        for g, w in zip(got, want):
            assert g.shape == w.shape and g.dtype == w.dtype
    assert cla.rq(G(np.eye(3, dtype=np.int8)))[0].dtype == sla.rq(np.eye(3, dtype=np.int8))[0].dtype == np.float32
    with pytest.raises(ValueError):
        cla.rq(G(np.full((2, 2), np.inf)))
    with pytest.raises(ValueError):
        cla.rq(G(np.eye(2)), mode="raw")


# -- qr_multiply --------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", DTYPES, ids=ID)
@pytest.mark.parametrize("m, n", [(7, 4), (4, 7), (5, 5)])
@pytest.mark.parametrize("mode", ["left", "right"])
@pytest.mark.parametrize("conjugate", [False, True])
@pytest.mark.parametrize("pivoting", [False, True])
def test_qr_multiply(dtype, m, n, mode, conjugate, pivoting):
    rng = _rng("qrm", dtype, m, n, mode, conjugate, pivoting)
    a = _rand(rng, (m, n), dtype)
    c = _rand(rng, (min(m, n), 3) if mode == "left" else (2, m), dtype)
    got, want = cla.qr_multiply(G(a), G(c), mode, pivoting, conjugate), sla.qr_multiply(a, c, mode, pivoting, conjugate)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        _close(g, w, TOL[dtype] * 10)


def test_qr_multiply_vectors_batches_and_empty():
    rng = _rng("qrm-more")
    a = rng.normal(size=(6, 4))
    for mode, c in (("left", rng.normal(size=4)), ("right", rng.normal(size=6)), ("left", rng.normal(size=(6, 2)))):
        over = c.ndim == 2
        got = cla.qr_multiply(G(a), G(c), mode, overwrite_c=over)
        want = sla.qr_multiply(a, c.copy(), mode, overwrite_c=over)
        for g, w in zip(got, want):
            _close(g, w, 1e-11)
    ab, cb = rng.normal(size=(2, 1, 6, 4)), rng.normal(size=(3, 4, 2))
    got = cla.qr_multiply(G(ab), G(cb)[:, :, ::1], "left", pivoting=True)
    want = _per_slice(lambda x, y: sla.qr_multiply(x, y, "left", pivoting=True), (2, 3), (ab, 2), (cb, 2))
    for g, w in zip(got, want):
        _close(g, w, 1e-11)
    got, want = cla.qr_multiply(G(a), G(np.ones((4, 0))), "left"), sla.qr_multiply(a, np.ones((4, 0)), "left")
    assert got[0].shape == want[0].shape and got[0].dtype == want[0].dtype
    with pytest.raises(ValueError):
        cla.qr_multiply(G(a), G(np.ones((6, 2))), "left")
    with pytest.raises(ValueError):
        cla.qr_multiply(G(a), G(np.full((2, 6), np.nan)))


# -- qr_update / qr_insert / qr_delete --------------------------------------------------------------
def _check_qr(got, a, want, tol):
    q, r = got
    for g, w in zip(got, want):
        assert isinstance(g, cuarray.ndarray) and g.shape == w.shape and g.dtype == w.dtype, (g.shape, w.shape)
    q, r = q.get(), r.get()
    np.testing.assert_allclose(q @ r, a, atol=tol * 10 * max(1.0, float(np.abs(a).max())))
    k = q.shape[-1]
    np.testing.assert_allclose(q.conj().swapaxes(-1, -2) @ q, np.broadcast_to(np.eye(k), q.shape[:-2] + (k, k)),
                               atol=tol * 10)
    np.testing.assert_array_equal(np.triu(r), r)


@pytest.mark.parametrize("dtype", DTYPES, ids=ID)
@pytest.mark.parametrize("economic", [False, True])
def test_qr_update_insert_delete(dtype, economic):
    rng = _rng("qru", dtype, economic)
    m, n = 9, 5
    a = _rand(rng, (m, n), dtype)
    q, r = sla.qr(a, mode="economic" if economic else "full")
    Q, R, tol = G(q), G(r), TOL[dtype]
    u, v = _rand(rng, (m, 2), dtype), _rand(rng, (n, 2), dtype)
    _check_qr(cla.qr_update(Q, R, G(u), G(v)), a + u @ v.conj().T, sla.qr_update(q, r, u, v), tol)
    u1, v1 = _rand(rng, (m,), dtype), _rand(rng, (n,), dtype)
    _check_qr(cla.qr_update(Q, R, G(u1), G(v1)), a + np.outer(u1, v1.conj()), sla.qr_update(q, r, u1, v1), tol)
    rows = _rand(rng, (2, n), dtype)
    _check_qr(cla.qr_insert(Q, R, G(rows), 3), np.insert(a, [3, 3], rows, axis=0), sla.qr_insert(q, r, rows, 3), tol)
    cols = _rand(rng, (m, 2), dtype)
    _check_qr(cla.qr_insert(Q, R, G(cols), -1, "col"), np.insert(a, [4, 4], cols, axis=1),
              sla.qr_insert(q, r, cols, -1, "col"), tol)
    _check_qr(cla.qr_delete(Q, R, 2, 3), np.delete(a, [2, 3, 4], axis=0), sla.qr_delete(q, r, 2, 3), tol)
    _check_qr(cla.qr_delete(Q, R, 1, 2, "col"), np.delete(a, [1, 2], axis=1), sla.qr_delete(q, r, 1, 2, "col"), tol)


def test_qr_update_family_batches_views_and_errors():
    rng = _rng("qru-batch")
    a = rng.normal(size=(3, 7, 4))
    q, r = np.linalg.qr(a, mode="complete")
    k = np.array([0, 3, 6])
    got = cla.qr_delete(G(q), G(r)[:, :, ::1], k, 1)
    _check_qr(got, np.stack([np.delete(a[i], k[i], axis=0) for i in range(3)]),
              _per_slice(lambda x, y, kk: sla.qr_delete(x, y, int(kk), 1), (3,), (q, 2), (r, 2), (k, 0)), 1e-11)
    qe, re = sla.qr(a[0], mode="economic")
    with pytest.raises(np.linalg.LinAlgError):
        cla.qr_insert(G(qe), G(re), G(a[0, :, 1].copy()), 0, "col", rcond=1e-10)
    with pytest.raises(ValueError, match="same type"):
        cla.qr_update(G(qe), G(re), G(np.ones(7, np.float32)), G(np.ones(4)))
    with pytest.raises(ValueError, match="out of bounds"):
        cla.qr_delete(G(qe), G(re), 7)


# -- diagsvd, cdf2rdf -------------------------------------------------------------------------------
def test_diagsvd():
    rng = _rng("diagsvd")
    s = rng.normal(size=(2, 3))
    _close(cla.diagsvd(G(s), 5, 3), _per_slice(lambda x: sla.diagsvd(x, 5, 3), (2,), (s, 1)), 0)
    _close(cla.diagsvd(G(s[0]), 3, 6), sla.diagsvd(s[0], 3, 6), 0)
    _close(cla.diagsvd([1, 2], 2, 2), sla.diagsvd([1, 2], 2, 2), 0)
    _close(cla.diagsvd(G(s[0, ::-2]), 2, 2), sla.diagsvd(s[0, ::-2], 2, 2), 0)
    with pytest.raises(ValueError, match="Length of s"):
        cla.diagsvd(G(s[0]), 4, 4)


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=ID)
@pytest.mark.parametrize("n", [1, 3, 8, 33])
def test_cdf2rdf_bit_for_bit(dtype, n):
    rng = _rng("cdf2rdf", dtype, n)
    w, v = np.linalg.eig(rng.normal(size=(n, n)).astype(dtype))
    got, want = cla.cdf2rdf(G(w), G(v)), sla.cdf2rdf(w, v)
    for g, x in zip(got, want):
        _close(g, x, 0)
    wb, vb = np.linalg.eig(rng.normal(size=(2, n, n)))
    for g, x in zip(cla.cdf2rdf(G(wb), G(vb)), sla.cdf2rdf(wb, vb)):
        _close(g, x, 0)
    if n > 1:
        with pytest.raises(ValueError, match="pairs"):
            cla.cdf2rdf(G(np.r_[1j, np.zeros(n - 1)]), G(np.eye(n)))


# -- matmul_toeplitz ---------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128, np.int64], ids=ID)
@pytest.mark.parametrize("nc, nr, xshape", [(7, 7, (7,)), (9, 5, (5, 3)), (4, 11, (11, 2)), (1, 1, (1,)), (3, 3, (3, 0)),
                                            (1500, 1500, (1500, 4))])
def test_matmul_toeplitz(dtype, nc, nr, xshape):
    rng = _rng("mt", dtype, nc, nr, xshape)
    c, r, x = (_rand(rng, s, dtype) if dtype != np.int64 else rng.integers(-9, 9, s) for s in ((nc,), (nr,), xshape))
    want = sla.matmul_toeplitz((c, r), x)
    _close(cla.matmul_toeplitz((G(c), G(r)), G(x)), want, 1e-9)
    if nc == nr:
        _close(cla.matmul_toeplitz(G(c), G(x)), sla.matmul_toeplitz(c, x), 1e-9)


def test_matmul_toeplitz_batches_and_views():
    rng = _rng("mt-batch")
    c, r, x = rng.normal(size=(2, 1, 6)), rng.normal(size=(3, 5)), rng.normal(size=(5, 8))
    got = cla.matmul_toeplitz((G(c), G(r)), G(x)[:, ::2])
    _close(got, _per_slice(lambda cc, rr: sla.matmul_toeplitz((cc, rr), x[:, ::2]), (2, 3), (c, 1), (r, 1)), 1e-11)
    _close(cla.matmul_toeplitz((list(c[0, 0]), r[0]), G(x)), sla.matmul_toeplitz((c[0, 0], r[0]), x), 1e-11)
    with pytest.raises(ValueError, match="Incompatible"):
        cla.matmul_toeplitz((G(c[0, 0]), G(r[0])), G(x[:4]))


# -- expm_cond ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", DTYPES, ids=ID)
@pytest.mark.parametrize("n", [1, 2, 5, 12])
def test_expm_cond(dtype, n):
    a = _rand(_rng("expm_cond", dtype, n), (n, n), dtype) * 0.7
    got, want = cla.expm_cond(G(a)), sla.expm_cond(a)
    assert isinstance(got, cuarray.ndarray) and got.shape == () and got.dtype == np.float64
    np.testing.assert_allclose(float(got), want, rtol=1e-4 if np.dtype(dtype).char in "fF" else 1e-9)


def test_expm_cond_batches_chunks_and_errors(monkeypatch):
    a = _rand(_rng("expm_cond-batch"), (2, 4, 4))
    want = [sla.expm_cond(x) for x in a]
    np.testing.assert_allclose(cla.expm_cond(G(a)).get(), want, rtol=1e-9)
    monkeypatch.setattr(_expm_cond, "CHUNK_BYTES", 3 * 8 * (2 * 4) ** 2 * 8)  # 3 derivatives a batch: 6 batches
    assert _expm_cond.chunk_size(4, 8) == 3
    np.testing.assert_allclose(cla.expm_cond(G(a)[:, ::-1, ::-1]).get(), [sla.expm_cond(x[::-1, ::-1]) for x in a],
                               rtol=1e-9)
    for bad in (np.ones((2, 3)), np.empty((0, 0)), np.full((2, 2), np.nan)):
        with pytest.raises(ValueError):
            cla.expm_cond(G(bad))


# -- clarkson_woodruff_transform ---------------------------------------------------------------------
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128, np.int32], ids=ID)
@pytest.mark.parametrize("shape, k", [((50, 7), 10), ((1000, 3), 40), ((5, 4), 8), ((0, 3), 2)])
def test_cwt_is_scipys_sketch(dtype, shape, k):
    rng = _rng("cwt", dtype, shape, k)
    a = _rand(rng, shape, dtype) if dtype != np.int32 else rng.integers(-50, 50, shape).astype(dtype)
    for call in (lambda f, x: f(x, k, rng=7), lambda f, x: f(x, k, 7), lambda f, x: f(x, k, seed=np.random.RandomState(7))):
        _close(call(cla.clarkson_woodruff_transform, G(a)), call(sla.clarkson_woodruff_transform, a), 1e-12)
    np.random.seed(3)
    want = sla.clarkson_woodruff_transform(a, k)
    np.random.seed(3)
    _close(cla.clarkson_woodruff_transform(G(a), k), want, 1e-12)


def test_cwt_batches_views_and_sparse():
    rng = _rng("cwt-batch")
    a = rng.normal(size=(2, 3, 20, 4))
    s = sla.clarkson_woodruff_transform(np.eye(20), 6, rng=11)
    _close(cla.clarkson_woodruff_transform(G(a)[..., ::1, ::-1], 6, rng=11), s @ a[..., ::-1], 1e-12)
    m = sps.random(30, 6, density=0.3, format="csr", random_state=1)
    got = cla.clarkson_woodruff_transform(cuarray.sparse.csr_matrix(m), 5, rng=4)
    want = sla.clarkson_woodruff_transform(m, 5, rng=4)
    assert cuarray.sparse.issparse(got) and got.format == "csr"  # SciPy 1.18's class for CSR input
    np.testing.assert_allclose(got.toarray().get(), want.toarray(), rtol=1e-12)
    with pytest.raises(TypeError, match="multiple values"):
        cla.clarkson_woodruff_transform(G(a[0, 0]), 6, 1, rng=2)


def test_cwt_device_generator_draws_a_countsketch():
    # Drawn on the device: SciPy's distribution, not its values. S (the sketch of the identity) has
    # one +-1 per column; rows and signs are uniform.
    n, k = 4000, 8
    s = cla.clarkson_woodruff_transform(cuarray.eye(n, dtype=np.float32), k, rng=cuarray.random.default_rng(5)).get()
    assert s.shape == (k, n) and s.dtype == np.float64
    assert np.array_equal(np.abs(s).sum(axis=0), np.ones(n)) and set(np.unique(s)) <= {-1.0, 0.0, 1.0}
    counts = np.abs(s).sum(axis=1)
    chi2 = ((counts - n / k) ** 2 / (n / k)).sum()
    assert chi2 < 30  # 7 degrees of freedom: p < 1e-4 when uniform
    assert abs(s.sum()) < 5 * np.sqrt(n)


# -- find_best_blas_type, host steps -----------------------------------------------------------------
def test_find_best_blas_type_reads_device_arrays():
    for arrays in ((np.ones((3, 4)),), (np.ones((3, 4)).T,), (np.ones(4, np.complex64), np.ones(4)),
                   (np.ones((2, 2), np.float32).T, np.ones(3, np.int8))):
        assert cla.find_best_blas_type(tuple(G(x) for x in arrays)) == sla.find_best_blas_type(arrays)


@pytest.mark.parametrize("dtype", [np.float64, np.complex128], ids=ID)
def test_solvers_device_in_device_out(dtype):
    rng = _rng("solvers", dtype)
    a, b = _rand(rng, (5, 5), dtype) - 8 * np.eye(5), _rand(rng, (3, 3), dtype) - 8 * np.eye(3)
    q, q5, bb = _rand(rng, (5, 3), dtype), _rand(rng, (5, 5), dtype), _rand(rng, (5, 2), dtype)
    qh, rh = q5 @ q5.conj().T + np.eye(5), 2 * np.eye(2)
    calls = [("solve_sylvester", (a, b, q), {}), ("solve_continuous_lyapunov", (a, q5), {}),
             ("solve_lyapunov", (a, q5), {}), ("solve_discrete_lyapunov", (a / 40, q5), {}),
             ("solve_discrete_lyapunov", (a / 40, q5), {"method": "bilinear"}),
             ("solve_continuous_are", (a, bb, qh, rh), {}), ("solve_discrete_are", (a / 40, bb, qh, rh), {}),
             ("solve_continuous_are", (a, bb, qh, rh, 2 * np.eye(5), 0.1 * bb), {"balanced": False})]
    for name, args, kw in calls:
        got = getattr(cla, name)(*(G(x) for x in args), **kw)
        _close(got, getattr(sla, name)(*args, **kw), 0)
    ab = np.stack([a, a.T])  # SciPy's own batching, through the host step
    _close(cla.solve_continuous_lyapunov(G(ab), G(q5)), sla.solve_continuous_lyapunov(ab, q5), 0)
    with pytest.raises(ValueError):
        cla.solve_continuous_are(G(a), G(bb), G(qh), G(np.zeros((2, 2))))
    with pytest.raises(np.linalg.LinAlgError):
        cla.solve_continuous_are(G(np.zeros((2, 2))), G(np.zeros((2, 1))), G(np.eye(2)), G(np.eye(1)))


def test_banded_and_tridiagonal_eigenvalues():
    rng = _rng("eigvals-band")
    d, e = rng.normal(size=7), rng.normal(size=6)
    band = np.stack([np.r_[0.0, e], d])
    _close(cla.eigvalsh_tridiagonal(G(d), G(e)), sla.eigvalsh_tridiagonal(d, e), 0)
    _close(cla.eigvalsh_tridiagonal(G(d), G(e), select="i", select_range=(2, 4)),
           sla.eigvalsh_tridiagonal(d, e, select="i", select_range=(2, 4)), 0)
    _close(cla.eigvals_banded(G(band)), sla.eigvals_banded(band), 0)
    _close(cla.eigvals_banded(G(band[::-1]), lower=True), sla.eigvals_banded(band[::-1], lower=True), 0)
