"""The scipy.linalg names added for issue 50, without a GPU (part 2): qr_update/qr_insert/qr_delete,
expm_cond and clarkson_woodruff_transform on their device code paths with NumPy standing in
(linalg_host_standins.py, beside this file), and the host steps (the matrix equation solvers,
eigvals_banded, eigvalsh_tridiagonal) against scipy.linalg: values, shapes, dtypes, batches,
random streams and errors."""

from __future__ import annotations

import numpy as np
import pytest

sla = pytest.importorskip("scipy.linalg")
sps = pytest.importorskip("scipy.sparse")

import linalg_host_standins as hs  # noqa: E402  (tests/scipy, beside this file)
from cuarray.scipy.linalg import _decomp_update, _expm_cond, _host_lapack, _sketches, _solvers  # noqa: E402

DTYPES = [np.float32, np.float64, np.complex64, np.complex128]
ID = lambda d: np.dtype(d).name  # noqa: E731


@pytest.fixture(scope="module")
def host():
    return hs.copies()


def _rand(rng, shape, dtype=np.float64):
    a = rng.normal(size=shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.normal(size=shape)
    return a.astype(dtype)


def _tol(dtype):
    return 1e-4 if np.dtype(dtype).char in "fF" else 1e-12


def _is_qr_of(q, r, a, want, tol):
    """(q, r) is a QR factorisation of `a` with SciPy's shapes and dtype (`want` its factors)."""
    for g, w in zip((q, r), want):
        assert g.shape == w.shape and g.dtype == w.dtype, (g.shape, w.shape, g.dtype, w.dtype)
    np.testing.assert_allclose(q @ r, a, atol=tol * 10 * max(1.0, float(np.abs(a).max(initial=0))))
    k = q.shape[-1]
    np.testing.assert_allclose(q.conj().swapaxes(-1, -2) @ q, np.broadcast_to(np.eye(k), q.shape[:-2] + (k, k)),
                               atol=tol * 10)
    np.testing.assert_array_equal(np.triu(r), r)


# -- qr_update / qr_insert / qr_delete --------------------------------------------------------------
def _factors(rng, m, n, dtype, economic):
    a = _rand(rng, (m, n), dtype)
    q, r = sla.qr(a, mode="economic" if economic else "full")
    return a, q, r


@pytest.mark.parametrize("dtype", DTYPES, ids=ID)
@pytest.mark.parametrize("economic", [False, True])
@pytest.mark.parametrize("m, n, p", [(6, 4, 1), (6, 4, 2), (4, 4, 3), (4, 6, 1)])
def test_qr_update(host, dtype, economic, m, n, p):
    if economic and m <= n:
        pytest.skip("economic factors are (M, N), (N, N) with M > N")
    rng = np.random.default_rng([m, n, p, economic])
    a, q, r = _factors(rng, m, n, dtype, economic)
    u, v = (_rand(rng, (m,), dtype), _rand(rng, (n,), dtype)) if p == 1 else (_rand(rng, (m, p), dtype), _rand(rng, (n, p), dtype))
    q1, r1 = host[_decomp_update].qr_update(q, r, u, v)
    uv = np.outer(u, v.conj()) if p == 1 else u @ v.conj().T
    _is_qr_of(q1, r1, a + uv, sla.qr_update(q, r, u, v), _tol(dtype))


@pytest.mark.parametrize("dtype", DTYPES, ids=ID)
@pytest.mark.parametrize("economic", [False, True])
@pytest.mark.parametrize("which", ["row", "col"])
@pytest.mark.parametrize("k, p", [(0, 1), (2, 2), (-1, 1), (6, 1), (3, 3)])
def test_qr_insert(host, dtype, economic, which, k, p):
    m, n = 6, 3
    if which == "col" and k > n or which == "col" and k < -n:
        pytest.skip("k out of bounds for columns")
    rng = np.random.default_rng([k + 10, p, economic, which == "row"])
    a, q, r = _factors(rng, m, n, dtype, economic)
    shape = ((n,) if which == "row" else (m,)) if p == 1 else ((p, n) if which == "row" else (m, p))
    u = _rand(rng, shape, dtype)
    q1, r1 = host[_decomp_update].qr_insert(q, r, u, k, which)
    kk = k + (m if which == "row" else n) if k < 0 else k
    full = np.insert(a, [kk] * p, u if which == "col" or p > 1 else u[None, :], axis=0 if which == "row" else 1) \
        if p > 1 or which == "row" else np.insert(a, kk, u, axis=1)
    _is_qr_of(q1, r1, full, sla.qr_insert(q, r, u, k, which), _tol(dtype))


@pytest.mark.parametrize("dtype", DTYPES, ids=ID)
@pytest.mark.parametrize("economic", [False, True])
@pytest.mark.parametrize("which", ["row", "col"])
@pytest.mark.parametrize("k, p", [(0, 1), (1, 2), (-2, 2), (0, 3)])
def test_qr_delete(host, dtype, economic, which, k, p):
    m, n = 6, 4
    rng = np.random.default_rng([k + 10, p, economic, which == "row"])
    a, q, r = _factors(rng, m, n, dtype, economic)
    q1, r1 = host[_decomp_update].qr_delete(q, r, k, p, which)
    kk = k + (m if which == "row" else n) if k < 0 else k
    _is_qr_of(q1, r1, np.delete(a, range(kk, kk + p), axis=0 if which == "row" else 1),
              sla.qr_delete(q, r, k, p, which), _tol(dtype))


def test_qr_update_family_batches_with_per_matrix_k(host):
    rng = np.random.default_rng(9)
    a = rng.normal(size=(2, 3, 6, 4))
    q, r = np.linalg.qr(a, mode="complete")
    k = np.array([0, 2, 5])  # one k per matrix along the last batch axis
    up = host[_decomp_update]
    q1, r1 = up.qr_delete(q, r, k, 1)
    want = np.stack([np.stack([np.delete(a[i, j], k[j], axis=0) for j in range(3)]) for i in range(2)])
    np.testing.assert_allclose(q1 @ r1, want, atol=1e-12)
    assert q1.shape == (2, 3, 5, 5) and r1.shape == (2, 3, 5, 4)
    u = rng.normal(size=(3, 4))  # a row per batch of the last axis, '1|2': a 2-d u is one (p, N) block
    q1, r1 = up.qr_insert(q, r, u[None, :, None, :], k, "row")
    want = np.stack([np.stack([np.insert(a[i, j], k[j], u[j], axis=0) for j in range(3)]) for i in range(2)])
    np.testing.assert_allclose(q1 @ r1, want, atol=1e-12)
    uu, vv = rng.normal(size=(6, 2)), rng.normal(size=(4, 2))
    q1, r1 = up.qr_update(q, r, uu, vv)
    np.testing.assert_allclose(q1 @ r1, a + uu @ vv.T, atol=1e-12)
    assert q1.shape == (2, 3, 6, 6)


def test_qr_update_family_one_row_cases_are_scipys(host):
    up = host[_decomp_update]
    q, r = np.array([[-1.0]]), np.array([[2.0, 3.0]])
    for got, want in ((up.qr_update(q, r, np.array([5.0]), np.array([1.0, 2.0])),
                       sla.qr_update(q, r, np.array([5.0]), np.array([1.0, 2.0]))),
                      (up.qr_insert(q, r, np.array([5.0]), 1, "col"), sla.qr_insert(q, r, np.array([5.0]), 1, "col")),
                      (up.qr_delete(np.eye(3)[:, :1] * 0.6, np.array([[2.0]]), 1, 1),
                       sla.qr_delete(np.eye(3)[:, :1] * 0.6, np.array([[2.0]]), 1, 1))):
        for g, w in zip(got, want):
            assert g.dtype == w.dtype and g.shape == w.shape
            np.testing.assert_allclose(g, w, rtol=1e-15)


def test_qr_insert_column_in_span_raises_linalgerror(host):
    rng = np.random.default_rng(10)
    a, q, r = _factors(rng, 6, 3, np.float64, True)
    near = a[:, 0] + 1e-3 * rng.normal(size=6)
    # (columns in the span to rounding: an estimate near 1e-16 either side of the default, epsilon;
    # rcond=1e-10 makes the outcome certain)
    for u, kw in ((a[:, 1], {"rcond": 1e-10}), (near, {"rcond": 1e-2}),
                  (np.stack([rng.normal(size=6), a[:, 2]], axis=1), {"rcond": 1e-10})):
        with pytest.raises(np.linalg.LinAlgError, match="lies in the span of Q"):
            host[_decomp_update].qr_insert(q, r, u, 1, "col", **kw)
        with pytest.raises(np.linalg.LinAlgError, match="lies in the span of Q"):
            sla.qr_insert(q, r, u, 1, "col", **kw)
    q1, r1 = host[_decomp_update].qr_insert(q, r, near, 1, "col", rcond=1e-5)  # above this rcond: inserted
    np.testing.assert_allclose(q1 @ r1, np.insert(a, 1, near, axis=1), atol=1e-12)


_Q, _R = sla.qr(np.arange(1.0, 16.0).reshape(5, 3) ** 1.5)
_QE, _RE = sla.qr(np.arange(1.0, 16.0).reshape(5, 3) ** 1.5, mode="economic")
UPDATE_ERRORS = [
    ("qr_update", (_Q.astype(int), _R.astype(int), np.ones(5, int), np.ones(3, int)), {}),
    ("qr_update", (_Q, _R.astype(np.float32), np.ones(5), np.ones(3)), {}),
    ("qr_update", (_Q, _R, np.ones(5, np.float32), np.ones(3)), {}),
    ("qr_update", (_Q[0], _R, np.ones(5), np.ones(3)), {}),
    ("qr_update", (_Q[:, :4], _R, np.ones(5), np.ones(3)), {}),
    ("qr_update", (_Q[:4, :4], _R[:4], np.ones(5), np.ones(3)), {}),
    ("qr_update", (_Q, _R, np.ones(5), np.ones(4)), {}),
    ("qr_update", (_Q, _R, np.ones((5, 1)), np.ones(3)), {}),
    ("qr_update", (_Q, _R, np.ones((5, 2)), np.ones((3, 1))), {}),
    ("qr_update", (_Q, _R, np.ones((5, 4)), np.ones((3, 4))), {}),
    ("qr_update", (_Q, _R, np.full(5, np.nan), np.ones(3)), {}),
    ("qr_update", (_Q * np.inf, _R, np.ones(5), np.ones(3)), {}),
    ("qr_insert", (_Q, _R, np.ones(3), 6), {}),
    ("qr_insert", (_Q, _R, np.ones(3), -6), {}),
    ("qr_insert", (_Q, _R, np.ones(3), 0), {"which": "diag"}),
    ("qr_insert", (_Q, _R, np.ones(3), 0), {"rcond": 1e-3}),
    ("qr_insert", (_Q, _R, np.ones(5), 0), {"which": "col", "rcond": 1e-3}),
    ("qr_insert", (_Q, _R, np.ones(4), 0), {}),
    ("qr_insert", (_Q, _R, np.ones((2, 4)), 0), {}),
    ("qr_insert", (_Q, _R, np.ones(4), 0), {"which": "col"}),
    ("qr_insert", (_Q, _R, np.ones(5), 4), {"which": "col"}),
    ("qr_insert", (_Q, _R, np.float64(1.0), 0), {}),
    ("qr_insert", (_Q, _R, np.ones(3, np.float32), 0), {}),
    ("qr_insert", (_Q, _R, np.ones(5, np.float32), 0), {"which": "col"}),
    ("qr_insert", (_Q, _R, np.full(3, np.inf), 0), {}),
    ("qr_delete", (_Q, _R, 5), {}),
    ("qr_delete", (_Q, _R, -6), {}),
    ("qr_delete", (_Q, _R, 4, 2), {}),
    ("qr_delete", (_Q, _R, 0, 0), {}),
    ("qr_delete", (_Q, _R, 3), {"which": "col"}),
    ("qr_delete", (_Q, _R, 1, 3), {"which": "col"}),
    ("qr_delete", (_Q, _R, 0), {"which": "both"}),
    ("qr_delete", (_QE, _RE, 0, 6), {}),
]


@pytest.mark.parametrize("fn, args, kw", UPDATE_ERRORS, ids=["{}-{}".format(e[0], i) for i, e in enumerate(UPDATE_ERRORS)])
def test_qr_update_family_errors_are_scipys(host, fn, args, kw):
    with pytest.raises(ValueError) as want:
        getattr(sla, fn)(*args, **kw)
    with pytest.raises(ValueError) as got:
        getattr(host[_decomp_update], fn)(*args, **kw)
    assert str(got.value) == str(want.value)


# -- expm_cond ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", DTYPES + [np.int64], ids=ID)
@pytest.mark.parametrize("n", [1, 2, 4])
def test_expm_cond_is_scipys(host, dtype, n):
    rng = np.random.default_rng(n)
    a = _rand(rng, (n, n), dtype) if dtype != np.int64 else rng.integers(-2, 3, (n, n))
    got, want = host[_expm_cond].expm_cond(a), sla.expm_cond(a)
    assert np.asarray(got).dtype == np.float64 and np.shape(got) == ()
    np.testing.assert_allclose(got, want, rtol=1e-5 if np.dtype(dtype).char in "fF" else 1e-12)


def test_expm_cond_batches_and_chunks(host, monkeypatch):
    rng = np.random.default_rng(11)
    a = rng.normal(size=(2, 3, 3))
    want = [sla.expm_cond(x) for x in a]
    ec = host[_expm_cond]
    np.testing.assert_allclose(ec.expm_cond(a), want, rtol=1e-12)
    monkeypatch.setattr(ec, "CHUNK_BYTES", 1)  # one Frechet derivative per batch: the same norm
    assert ec.chunk_size(3, 8) == 1
    np.testing.assert_allclose(ec.expm_cond(a), want, rtol=1e-12)


@pytest.mark.parametrize("n, itemsize, want", [(1, 8, 1), (3, 8, 9), (100, 16, 52), (400, 16, 3), (2000, 8, 1)])
def test_expm_cond_chunk_size(n, itemsize, want):
    assert _expm_cond.chunk_size(n, itemsize) == want


@pytest.mark.parametrize("bad", [np.ones(3), np.ones((2, 3)), np.full((2, 2), np.nan), np.empty((0, 0)),
                                 np.ones((0, 2, 2)), np.float64(1.0)])
def test_expm_cond_errors_are_scipys(host, bad):
    with pytest.raises(ValueError) as got:
        host[_expm_cond].expm_cond(bad)
    with pytest.raises(ValueError) as want:
        sla.expm_cond(bad)
    if bad.ndim <= 2:  # (SciPy 1.17 does not batch: its error for the stack differs)
        assert str(got.value) == str(want.value)


# -- clarkson_woodruff_transform ---------------------------------------------------------------------
A = np.arange(60.0).reshape(12, 5) ** 1.3


def _global(seed):
    np.random.seed(seed)


@pytest.mark.parametrize("how", ["rng-int", "rng-generator", "rng-seedsequence", "positional-int", "seed-int",
                                 "positional-randomstate", "positional-generator", "seed-randomstate", "global"])
def test_cwt_draws_scipys_sketch(host, how):
    def call(fn):
        if how == "global":
            _global(5)
            return fn(A, 4)
        if how.startswith("rng"):
            value = {"rng-int": 5, "rng-generator": np.random.default_rng(5),
                     "rng-seedsequence": np.random.SeedSequence(5)}[how]
            return fn(A, 4, rng=value)
        value = {"int": 5, "randomstate": np.random.RandomState(5), "generator": np.random.default_rng(5)}[how.split("-")[1]]
        return fn(A, 4, value) if how.startswith("positional") else fn(A, 4, seed=value)

    got, want = call(host[_sketches].clarkson_woodruff_transform), call(sla.clarkson_woodruff_transform)
    assert got.dtype == want.dtype and got.shape == want.shape == (4, 5)
    np.testing.assert_allclose(got, want, rtol=1e-15)


@pytest.mark.parametrize("dtype, want", [(np.float32, np.float64), (np.int32, np.int64), (np.complex64, np.complex128),
                                         (np.float64, np.float64)])
def test_cwt_dtypes_are_scipys(host, dtype, want):
    got = host[_sketches].clarkson_woodruff_transform(A.astype(dtype), 3, rng=1)
    ref = sla.clarkson_woodruff_transform(A.astype(dtype), 3, rng=1)
    assert got.dtype == ref.dtype == want
    np.testing.assert_allclose(got, ref, rtol=1e-6)


def test_cwt_batches_share_one_sketch(host):
    a = np.arange(2 * 3 * 12 * 2, dtype=np.float64).reshape(2, 3, 12, 2)
    got = host[_sketches].clarkson_woodruff_transform(a, 4, rng=2)
    s = sla.clarkson_woodruff_transform(np.eye(12), 4, rng=2)  # S itself, for the same seed
    assert got.shape == (2, 3, 4, 2)
    np.testing.assert_allclose(got, s @ a, rtol=1e-15)
    np.testing.assert_array_equal(host[_sketches].clarkson_woodruff_transform(np.ones((0, 2)), 2, rng=2), np.zeros((2, 2)))


# SciPy 1.18's classes: (A.T @ S.T).T keeps CSR and CSC (1.17's S @ A gave CSC for all).
@pytest.mark.parametrize("fmt, cls", [("csr_matrix", "csr_matrix"), ("csc_matrix", "csc_matrix"),
                                      ("coo_matrix", "csc_matrix"), ("csr_array", "csr_array")])
def test_cwt_sparse_input_keeps_scipys_class(host, fmt, cls):
    m = getattr(sps, fmt)(A)
    got, want = host[_sketches].clarkson_woodruff_transform(m, 3, rng=3), sla.clarkson_woodruff_transform(m, 3, rng=3)
    assert type(got) is getattr(sps, cls)
    np.testing.assert_allclose(got.toarray(), want.toarray(), rtol=1e-15)


@pytest.mark.parametrize("args, kw, err", [((A, 2, 1), {"rng": 2}, TypeError), ((A, 2), {"seed": 1, "rng": 2}, TypeError),
                                           ((A, 2, 1, 2), {}, TypeError), ((A, 2), {"random_state": 1}, TypeError),
                                           ((A, 2), {"seed": "x"}, ValueError), ((A, 0), {"rng": 2}, ValueError),
                                           ((np.ones(3), 2), {"rng": 2}, IndexError),
                                           ((np.ones((0, 3, 2)), 2), {"rng": 2}, ValueError)])
def test_cwt_errors_are_scipys(host, args, kw, err):
    with pytest.raises(err):
        host[_sketches].clarkson_woodruff_transform(*args, **kw)
    with pytest.raises(err):
        sla.clarkson_woodruff_transform(*args, **kw)


# -- host steps: matrix equation solvers, banded and tridiagonal eigenvalues -------------------------
def _stable(rng, n, dtype=np.float64):
    return _rand(rng, (n, n), dtype) - 3 * n * np.eye(n)


def _solver_calls(rng, dtype):
    a, b = _stable(rng, 4, dtype), _stable(rng, 3, dtype)
    q, q4 = _rand(rng, (4, 3), dtype), _rand(rng, (4, 4), dtype)
    bb = _rand(rng, (4, 2), dtype)
    qh, rh = q4 @ q4.conj().T + np.eye(4), np.eye(2) * 2
    a_d = a / (8 * 4)
    return [("solve_sylvester", (a, b, q), {}), ("solve_continuous_lyapunov", (a, q4), {}),
            ("solve_lyapunov", (a, q4), {}), ("solve_discrete_lyapunov", (a_d, q4), {}),
            ("solve_discrete_lyapunov", (a_d, q4), {"method": "bilinear"}),
            ("solve_continuous_are", (a, bb, qh, rh), {}), ("solve_continuous_are", (a, bb, qh, rh), {"balanced": False}),
            ("solve_continuous_are", (a, bb, qh, rh, np.eye(4) * 2, bb * 0.1), {}),
            ("solve_discrete_are", (a_d, bb, qh, rh), {}), ("solve_discrete_are", (a_d, bb, qh, rh, np.eye(4), None), {})]


@pytest.mark.parametrize("dtype", [np.float64, np.complex128], ids=ID)
def test_solvers_are_scipys_host_calls(host, dtype):
    for name, args, kw in _solver_calls(np.random.default_rng(12), dtype):
        got, want = getattr(host[_solvers], name)(*args, **kw), getattr(sla, name)(*args, **kw)
        assert got.dtype == want.dtype and got.shape == want.shape, name
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("name, args", [
    ("solve_sylvester", (np.ones((2, 3)), np.eye(2), np.ones((2, 2)))),
    ("solve_continuous_lyapunov", (np.eye(2), np.eye(3))),
    ("solve_discrete_lyapunov", (np.eye(2) * 0.5, np.eye(2), "qz")),
    ("solve_continuous_are", (np.eye(2), np.ones((2, 1)), np.eye(2), np.zeros((1, 1)))),
    ("solve_continuous_are", (np.eye(2), np.ones((2, 1)), np.array([[1.0, 2.0], [0.0, 1.0]]), np.eye(1))),
    ("solve_discrete_are", (np.eye(2), np.ones((3, 1)), np.eye(2), np.eye(1))),
    ("solve_continuous_are", (np.zeros((2, 2)), np.zeros((2, 1)), np.eye(2), np.eye(1))),
])
def test_solver_errors_are_scipys(host, name, args):
    with pytest.raises((ValueError, np.linalg.LinAlgError)) as want:
        getattr(sla, name)(*args)
    with pytest.raises(type(want.value)) as got:
        getattr(host[_solvers], name)(*args)
    assert str(got.value) == str(want.value)


def test_banded_and_tridiagonal_eigenvalues_are_scipys(host):
    rng = np.random.default_rng(13)
    d, e = rng.normal(size=6), rng.normal(size=5)
    band = np.stack([np.r_[0.0, e], d])
    hl = host[_host_lapack]
    for got, want in ((hl.eigvalsh_tridiagonal(d, e), sla.eigvalsh_tridiagonal(d, e)),
                      (hl.eigvalsh_tridiagonal(d, e, select="i", select_range=(1, 3)),
                       sla.eigvalsh_tridiagonal(d, e, select="i", select_range=(1, 3))),
                      (hl.eigvals_banded(band), sla.eigvals_banded(band)),
                      (hl.eigvals_banded(band, select="v", select_range=(-1, 1)),
                       sla.eigvals_banded(band, select="v", select_range=(-1, 1)))):
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)
