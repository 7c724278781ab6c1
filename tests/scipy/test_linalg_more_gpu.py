"""cuarray.scipy.linalg on the GPU against scipy.linalg, for the routines added after the first
set: qr (modes, pivoting), solve_banded, sqrtm, logm, rectangular lu, inv(assume_a), the batched
special matrices and decompositions, with stacks, float32/complex, empty and non-contiguous input."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
    pytest.mark.filterwarnings("ignore::FutureWarning"),
    pytest.mark.filterwarnings("ignore:logm result may be inaccurate"),
]

sla = pytest.importorskip("scipy.linalg")

import cuarray  # noqa: E402
from cuarray.scipy import linalg as cla  # noqa: E402

G = cuarray.asarray


def _scipy_at_least(major, minor):
    import re

    import scipy

    return tuple(int(x) for x in re.match(r"(\d+)\.(\d+)", scipy.__version__).groups()) >= (major, minor)
DTYPES = [np.float32, np.float64, np.complex64, np.complex128]
TOL = {np.float32: 3e-4, np.float64: 1e-10, np.complex64: 3e-4, np.complex128: 1e-10}
ID = lambda d: np.dtype(d).name  # noqa: E731


def _rng(*key):
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


def _rand(rng, shape, dtype):
    a = rng.normal(size=shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.normal(size=shape)
    return a.astype(dtype)


def _close(got, want, tol, scale=1.0):
    assert got.dtype == np.asarray(want).dtype, (got.dtype, np.asarray(want).dtype)
    assert got.shape == np.shape(want)
    np.testing.assert_allclose(got.get(), want, rtol=tol, atol=tol * scale)


# -- qr ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", DTYPES, ids=ID)
@pytest.mark.parametrize("shape", [(6, 4), (4, 6), (7, 7), (3, 5, 4)])
@pytest.mark.parametrize("mode", ["full", "r", "economic", "raw"])
@pytest.mark.parametrize("pivoting", [False, True])
def test_qr(dtype, shape, mode, pivoting):
    a = _rand(_rng("qr", dtype, shape, mode, pivoting), shape, dtype)
    got = cla.qr(G(a), mode=mode, pivoting=pivoting)
    want = sla.qr(a, mode=mode, pivoting=pivoting)
    assert isinstance(got, tuple) and len(got) == len(want)
    tol = TOL[dtype] * 10
    if mode == "raw":
        (h, tau), r = got[:2]
        (wh, wtau), wr = want[:2]
        _close(h, wh, tol, 10)
        _close(tau, wtau, tol)
        _close(r, wr, tol, 10)
    else:
        for g, w in zip(got[:len(got) - pivoting], want[:len(want) - pivoting]):
            _close(g, w, tol, 10)
    if pivoting:
        assert got[-1].dtype == np.int32
        np.testing.assert_array_equal(got[-1].get(), want[-1])


def test_qr_pivoting_reconstructs_and_is_rank_revealing():
    rng = _rng("qrp")
    a = rng.normal(size=(30, 6)) @ rng.normal(size=(6, 20))
    q, r, p = cla.qr(G(a), pivoting=True)
    qh, rh, ph = q.get(), r.get(), p.get()
    np.testing.assert_allclose(qh @ rh, a[:, ph], atol=1e-10)
    d = np.abs(np.diag(rh))
    assert np.all(np.diff(d[:6]) <= 1e-12) and d[6:].max() < 1e-10 * d[0]


@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (0, 0), (2, 0, 3)])
def test_qr_empty(shape):
    a = np.ones(shape)
    for pivoting in (False, True):
        got, want = cla.qr(G(a), pivoting=pivoting), sla.qr(a, pivoting=pivoting)
        if pivoting and not _scipy_at_least(1, 18):
            # SciPy 1.18 (followed here) gives one arange(n), whatever the batch; 1.17 one per matrix.
            want = want[:-1] + (np.arange(shape[-1]),)
        for g, w in zip(got, want):
            assert g.shape == w.shape
        if pivoting:
            np.testing.assert_array_equal(got[-1].get(), want[-1])


def test_qr_lwork_is_deprecated():
    a = _rand(_rng("qr-lwork"), (6, 4), np.float64)
    for lwork in (None, -1, 100):
        with pytest.warns(DeprecationWarning, match="lwork"):
            q, r = cla.qr(G(a), lwork=lwork)
        _close(q, sla.qr(a)[0], 1e-10)
    with pytest.raises(ValueError):
        cla.qr(G(a), lwork=3)


def test_qr_noncontiguous_and_int():
    a = _rng("qr-nc").integers(-5, 5, size=(12, 10))
    view = a[::2, ::-1]
    q, r = cla.qr(G(a)[::2, ::-1])
    wq, wr = sla.qr(view)
    _close(q, wq, 1e-10)
    _close(r, wr, 1e-10, 10)


# -- solve_banded ------------------------------------------------------------------------------------
def _banded(rng, l, u, n, dtype):
    ab = _rand(rng, (l + u + 1, n), dtype)
    ab[u] += 4 * (l + u + 1)  # diagonally dominant
    return ab


@pytest.mark.parametrize("dtype", DTYPES, ids=ID)
@pytest.mark.parametrize("lu", [(0, 0), (1, 1), (2, 0), (0, 3), (2, 5)])
@pytest.mark.parametrize("nrhs", [None, 3])
def test_solve_banded(dtype, lu, nrhs):
    rng = _rng("banded", dtype, lu, nrhs)
    ab = _banded(rng, *lu, 23, dtype)
    b = _rand(rng, (23,) if nrhs is None else (23, nrhs), dtype)
    _close(cla.solve_banded(lu, G(ab), G(b)), sla.solve_banded(lu, ab, b), TOL[dtype] * 10)


@pytest.mark.parametrize("dtype", DTYPES, ids=ID)
@pytest.mark.parametrize("n", [3, 4, 256, 5000, 100003])
@pytest.mark.parametrize("nrhs", [None, 3, 70])
def test_solve_banded_tridiagonal(dtype, n, nrhs):
    # one tridiagonal matrix of 3 rows or more: cuSPARSE's gtsv2 (O(n); the dense path would
    # assemble n^2, 160 GB at 1e5 complex); a first row that is not diagonally dominant (as
    # not-a-knot's) takes its pivoting, the rest keeps the system well conditioned; 70 columns: the
    # dense LU up to 16384 rows, gtsv2 past that
    rng = _rng("tridiagonal", dtype, n, nrhs)
    ab = _rand(rng, (3, n), dtype)
    ab[1] += 4
    ab[1, 0], ab[2, 0] = 0.25, 2.0  # |A[0, 0]| < |A[1, 0]|: the first column pivots
    b = _rand(rng, (n,) if nrhs is None else (n, nrhs), dtype)
    _close(cla.solve_banded((1, 1), G(ab), G(b)), sla.solve_banded((1, 1), ab, b), TOL[dtype] * 10)


def test_solve_banded_tridiagonal_singular_then_usable():
    # gtsv2 reports no singular pivot: its non-finite result goes to the dense path, SciPy's error
    ab = np.ones((3, 300))
    ab[:, 100] = 0  # a zero column: singular (the dense path's LinAlgError, as SciPy's)
    with pytest.raises(np.linalg.LinAlgError):
        sla.solve_banded((1, 1), ab, np.ones(300))
    with pytest.raises(np.linalg.LinAlgError):
        cla.solve_banded((1, 1), G(ab), G(np.ones(300)))
    ok = np.ones((3, 300))
    ok[1] = 4
    _close(cla.solve_banded((1, 1), G(ok), G(np.ones(300))), sla.solve_banded((1, 1), ok, np.ones(300)), 1e-12)


def test_solve_banded_stack_small_empty():
    rng = _rng("banded-stack")
    ab = np.stack([_banded(rng, 1, 2, 9, np.float64) for _ in range(3)])
    b = rng.normal(size=(3, 9, 2))
    _close(cla.solve_banded((1, 2), G(ab), G(b)), sla.solve_banded((1, 2), ab, b), 1e-10)
    one = np.array([[2.0], [5.0]])
    _close(cla.solve_banded((1, 0), G(one), G(np.array([3.0]))), sla.solve_banded((1, 0), one, np.array([3.0])), 1e-15)
    e = cla.solve_banded((0, 0), G(np.ones((1, 0))), G(np.ones(0)))
    assert e.shape == (0,) and e.dtype == np.float64
    with pytest.raises(np.linalg.LinAlgError):
        cla.solve_banded((1, 1), G(np.zeros((3, 4))), G(np.ones(4)))


# -- sqrtm / logm ------------------------------------------------------------------------------------
def _matfun_cases():
    rng = _rng("mf")
    n = 24
    a = rng.normal(size=(n, n))
    return {
        "spd": a @ a.T + np.eye(n),
        "symmetric-indefinite": a + a.T,  # Hermitian path with negative eigenvalues: complex result
        "shifted": a + 2 * np.sqrt(n) * np.eye(n),
        "general": a,  # negative real eigenvalues: complex result through the rotation
        "complex": a + 1j * rng.normal(size=(n, n)) + 2 * np.sqrt(n) * np.eye(n),
        "hermitian": (a + 1j * rng.normal(size=(n, n))) @ (a + 1j * rng.normal(size=(n, n))).conj().T + np.eye(n),
        "stack": np.stack([a + 6 * np.eye(n), a @ a.T + np.eye(n), 3 * a + 20 * np.eye(n)]),
        "1x1": np.array([[4.0]]),
        "1x1-negative": np.array([[-4.0]]),
    }


CASES = _matfun_cases()


@pytest.mark.parametrize("case", sorted(CASES))
def test_sqrtm(case):
    a = CASES[case]
    got, want = cla.sqrtm(G(a)), sla.sqrtm(a)
    _close(got, want, 1e-9, np.abs(want).max())


@pytest.mark.parametrize("case", sorted(CASES))
def test_logm(case):
    a = CASES[case]
    got, want = cla.logm(G(a)), sla.logm(a)
    _close(got, want, 1e-8, np.abs(want).max())


@pytest.mark.parametrize("dtype", [np.float32, np.complex64, np.int64, np.float16], ids=ID)
@pytest.mark.parametrize("spectrum", ["complex", "real"])
def test_sqrtm_logm_dtypes(dtype, spectrum):
    # SciPy's logm of a float32/float16 matrix is complex128 when it has a non-real eigenvalue (its
    # single-precision Schur form leaves an imaginary part above _maybe_real's tolerance), float64
    # when every eigenvalue is real and positive.
    rng = _rng("mf-dt", dtype, spectrum)
    a = rng.integers(-3, 4, size=(8, 8)) + 12 * np.eye(8)
    if spectrum == "real":  # non-symmetric, eigenvalues 1..8
        s = rng.integers(-2, 3, size=(8, 8)) + 6 * np.eye(8)
        a = np.linalg.solve(s, np.diag(np.arange(1.0, 9.0)) @ s)
        if np.dtype(dtype).kind == "i":
            a = np.round(a * 4)
    a = a.astype(dtype)
    s, ws = cla.sqrtm(G(a)), sla.sqrtm(a)
    assert s.dtype == ws.dtype
    np.testing.assert_allclose(s.get(), ws, rtol=2e-3, atol=2e-3)
    lg, wl = cla.logm(G(a)), sla.logm(a)
    assert lg.dtype == wl.dtype
    np.testing.assert_allclose(lg.get(), wl, rtol=2e-3, atol=2e-3)


def test_logm_float32_stack_mixed_spectra():
    # one matrix with a complex pair, one with a real spectrum: SciPy stacks per-matrix results,
    # so the stack is complex128
    rng = _rng("logm-mixed")
    a = np.stack([rng.integers(-3, 4, size=(6, 6)) + 12 * np.eye(6), np.diag(np.arange(1.0, 7.0)) + np.triu(
        rng.normal(size=(6, 6)), 1)]).astype(np.float32)
    got, want = cla.logm(G(a)), sla.logm(a)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got.get(), want, rtol=2e-3, atol=2e-3)


def test_sqrtm_logm_empty_and_noncontiguous():
    assert cla.sqrtm(G(np.ones((0, 0), np.float32))).dtype == sla.sqrtm(np.ones((0, 0), np.float32)).dtype
    assert cla.logm(G(np.ones((2, 0, 0)))).shape == (2, 0, 0)
    a = CASES["shifted"]
    _close(cla.sqrtm(G(a).T), sla.sqrtm(a.T), 1e-9, 10)
    _close(cla.logm(G(a)[::-1, ::-1]), sla.logm(a[::-1, ::-1]), 1e-9, 10)


def test_sqrtm_logm_errors():
    for fn, exc in (("sqrtm", np.linalg.LinAlgError), ("logm", ValueError)):
        for bad in (np.ones(3), np.ones((2, 3))):
            with pytest.raises(exc):
                getattr(cla, fn)(G(bad))
            with pytest.raises(exc):
                getattr(sla, fn)(bad)


# -- lu (rectangular), inv(assume_a), det ------------------------------------------------------------
@pytest.mark.parametrize("dtype", DTYPES, ids=ID)
@pytest.mark.parametrize("shape", [(7, 4), (4, 7), (2, 6, 3)])
def test_lu_rectangular(dtype, shape):
    a = _rand(_rng("lur", dtype, shape), shape, dtype)
    if len(shape) == 2:
        lu, piv = cla.lu_factor(G(a))
        wlu, wpiv = sla.lu_factor(a)
        np.testing.assert_array_equal(piv.get(), wpiv)
        _close(lu, wlu, TOL[dtype] * 10, 10)
    for kw in ({}, {"permute_l": True}, {"p_indices": True}):
        for g, w in zip(cla.lu(G(a), **kw), sla.lu(a, **kw)):
            if w.dtype.kind == "i":
                np.testing.assert_array_equal(g.get(), w)
            else:
                _close(g, w, TOL[dtype] * 10, 10)


@pytest.mark.parametrize("dtype", DTYPES + [np.int64], ids=ID)
@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (2, 0, 4), (0, 3, 3), (1, 1), (3, 1, 1)])
def test_lu_empty_and_1x1(dtype, shape):
    a = (_rand(_rng("lu-e", dtype, shape), shape, dtype) * 4).astype(dtype)
    for kw in ({}, {"permute_l": True}, {"p_indices": True}):
        got, want = cla.lu(G(a), **kw), sla.lu(a, **kw)
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert g.dtype == w.dtype and g.shape == w.shape, (kw, g.dtype, w.dtype, g.shape, w.shape)
            np.testing.assert_array_equal(g.get(), w)


@pytest.mark.parametrize("assume_a", [None, "general", "diagonal", "upper triangular", "lower triangular", "pos",
                                      "sym", "her"])
@pytest.mark.parametrize("lower", [False, True])
def test_inv_assume_a(assume_a, lower):
    rng = _rng("inv", assume_a, lower)
    a = rng.normal(size=(3, 9, 9)) + 1j * rng.normal(size=(3, 9, 9))
    a = a @ np.swapaxes(a.conj(), -1, -2) + 9 * np.eye(9)
    if assume_a == "diagonal":
        a = a * np.eye(9)
    elif assume_a == "upper triangular":
        a = np.triu(a)
    elif assume_a == "lower triangular":
        a = np.tril(a)
    elif assume_a in ("pos", "sym", "her"):
        # garbage in the triangle that is not read
        junk = rng.normal(size=a.shape)
        a = np.where(np.tri(9, k=-1, dtype=bool) if not lower else np.tri(9, k=-1, dtype=bool).T, junk, a)
    if assume_a == "sym":
        a = a.real
    _close(cla.inv(G(a), assume_a=assume_a, lower=lower), sla.inv(a, assume_a=assume_a, lower=lower), 1e-10)


@pytest.mark.parametrize("dtype", DTYPES, ids=ID)
def test_det_is_double(dtype):
    a = _rand(_rng("det", dtype), (4, 6, 6), dtype)
    _close(cla.det(G(a)), sla.det(a), 1e-4 if np.dtype(dtype).char in "fF" else 1e-10)


@pytest.mark.parametrize("assume_a", ["sym", "her", "pos"])
@pytest.mark.parametrize("lower", [False, True])
def test_solve_reads_one_triangle(assume_a, lower):
    rng = _rng("solve-tri", assume_a, lower)
    a = rng.normal(size=(10, 10)) + 1j * (assume_a != "sym") * rng.normal(size=(10, 10))
    a = a @ a.conj().T + 10 * np.eye(10)
    junk = rng.normal(size=a.shape)
    a = np.where(np.tri(10, k=-1, dtype=bool) if not lower else np.tri(10, k=-1, dtype=bool).T, junk, a)
    b = rng.normal(size=(10, 2))
    _close(cla.solve(G(a), G(b), assume_a=assume_a, lower=lower), sla.solve(a, b, assume_a=assume_a, lower=lower),
           1e-10)


def test_solve_and_solve_triangular_batching_rule():
    rng = _rng("batchrule")
    a = rng.normal(size=(4, 5, 5)) + 5 * np.eye(5)
    b1 = rng.normal(size=5)
    _close(cla.solve(G(a), G(b1)), sla.solve(a, b1), 1e-10)
    b2 = rng.normal(size=(4, 5, 2))
    _close(cla.solve(G(a), G(b2)), sla.solve(a, b2), 1e-10)
    t = np.triu(a)
    _close(cla.solve_triangular(G(t), G(b1)), sla.solve_triangular(t, b1), 1e-10)
    _close(cla.solve_triangular(G(t), G(b2[0])), sla.solve_triangular(t, b2[0]), 1e-10)
    with pytest.raises(ValueError):
        sla.solve(a, b2[:, :, 0])
    with pytest.raises(ValueError):
        cla.solve(G(a), G(b2[:, :, 0]))


# -- eigh (stacks, types), decompositions over stacks ------------------------------------------------
@pytest.mark.parametrize("type_", [1, 2, 3])
def test_eigh_generalized_types(type_):
    rng = _rng("eigh-type", type_)
    a = rng.normal(size=(12, 12))
    a = a + a.T
    b = rng.normal(size=(12, 12))
    b = b @ b.T + 12 * np.eye(12)
    w, v = cla.eigh(G(a), G(b), type=type_)
    ww, wv = sla.eigh(a, b, type=type_)
    _close(w, ww, 1e-9, 10)
    vg = v.get()
    np.testing.assert_allclose(np.abs(vg), np.abs(wv), atol=1e-8)  # eigenvectors up to sign


def test_eigh_stack_subsets():
    rng = _rng("eigh-stack")
    a = rng.normal(size=(3, 10, 10))
    a = a + np.swapaxes(a, -1, -2)
    w = cla.eigh(G(a), subset_by_index=(2, 6), eigvals_only=True)
    _close(w, sla.eigh(a, subset_by_index=(2, 6), eigvals_only=True), 1e-10)
    counts = {int(np.sum(x <= 0)) for x in np.linalg.eigvalsh(a)}
    if len(counts) == 1:
        w, v = cla.eigh(G(a), subset_by_value=(-np.inf, 0.0))
        want = sla.eigh(a, subset_by_value=(-np.inf, 0.0))
        _close(w, want[0], 1e-10)
    else:  # SciPy cannot stack subsets of different lengths either
        with pytest.raises(ValueError):
            cla.eigh(G(a), subset_by_value=(-np.inf, 0.0))
    # the same matrix three times: equal counts
    same = np.broadcast_to(a[0], a.shape)
    w, v = cla.eigh(G(same.copy()), subset_by_value=(-1.0, 2.0))
    ww, wv = sla.eigh(same, subset_by_value=(-1.0, 2.0))
    _close(w, ww, 1e-10)
    np.testing.assert_allclose(np.abs(v.get()), np.abs(wv), atol=1e-9)


def test_null_space_orth_procrustes_stacks():
    rng = _rng("ns-stack")
    a = rng.normal(size=(3, 6, 4)) @ rng.normal(size=(3, 4, 9))  # rank 4 each
    ns = cla.null_space(G(a)).get()
    assert ns.shape == sla.null_space(a).shape
    np.testing.assert_allclose(a @ ns, 0, atol=1e-10)
    o = cla.orth(G(a))
    assert o.shape == sla.orth(a).shape
    b, c = rng.normal(size=(2, 7, 5)), rng.normal(size=(2, 7, 5))
    r, s = cla.orthogonal_procrustes(G(b), G(c))
    wr, ws = sla.orthogonal_procrustes(b, c)
    _close(r, wr, 1e-10)
    _close(s, ws, 1e-12)


def test_special_matrices_batched():
    rng = _rng("sm-batch")
    c, r = rng.normal(size=(2, 4)), rng.normal(size=(2, 6))
    np.testing.assert_array_equal(cla.toeplitz(G(c), G(r)).get(), sla.toeplitz(c, r))
    np.testing.assert_array_equal(cla.toeplitz(G(c)).get(), sla.toeplitz(c))
    np.testing.assert_array_equal(cla.circulant(G(c)).get(), sla.circulant(c))
    f, s = rng.uniform(size=(3, 5)), rng.uniform(size=(3, 4))
    np.testing.assert_array_equal(cla.leslie(G(f), G(s)).get(), sla.leslie(f, s))
    p = rng.normal(size=(2, 5))
    np.testing.assert_allclose(cla.companion(G(p)).get(), sla.companion(p), rtol=1e-15)
    a, b = rng.normal(size=(2, 3, 4)), rng.normal(size=(2, 5, 4))
    np.testing.assert_allclose(cla.khatri_rao(G(a), G(b)).get(), sla.khatri_rao(a, b), rtol=1e-15)
    ci = rng.integers(-9, 9, size=5)
    np.testing.assert_array_equal(cla.toeplitz(G(ci)).get(), sla.toeplitz(ci))
    assert cla.toeplitz(G(ci)).dtype == sla.toeplitz(ci).dtype


def test_lu_solve_and_cho_solve_batching_rule():
    rng = _rng("lus-batch")
    a = rng.normal(size=(3, 4, 4)) + 4 * np.eye(4)
    f, wf = cla.lu_factor(G(a)), sla.lu_factor(a)
    # a b stacked deeper than the factors: (2, 3) blocks against 3 factorisations, broadcast
    for b in (rng.normal(size=4), rng.normal(size=(3, 4, 2)), rng.normal(size=(2, 3, 4, 2)),
              rng.normal(size=(2, 1, 4, 3))):
        for trans in (0, 1):
            _close(cla.lu_solve(f, G(b), trans=trans), sla.lu_solve(wf, b, trans=trans), 1e-10)
    with pytest.raises(ValueError):
        cla.lu_solve(f, G(rng.normal(size=(3, 4))))
    spd = a @ np.swapaxes(a, -1, -2)
    for lower in (False, True):
        c, wc = cla.cho_factor(G(spd), lower=lower), sla.cho_factor(spd, lower=lower)
        # the flag: one per matrix (SciPy >= 1.17 for stacks; 1.18 a 0-d array for one matrix)
        assert np.shape(c[1]) == np.shape(wc[1]) and np.all(np.asarray(c[1]) == np.asarray(wc[1]))
        single = cla.cho_factor(G(spd[0]), lower=lower)[1]
        assert np.shape(single) == () and bool(single) == lower
        if _scipy_at_least(1, 18):
            assert type(single) is type(sla.cho_factor(spd[0], lower=lower)[1])
        for b in (rng.normal(size=4), rng.normal(size=(3, 4, 2)), rng.normal(size=(2, 3, 4, 2))):
            _close(cla.cho_solve(c, G(b)), sla.cho_solve(wc, b), 1e-9)


@pytest.mark.parametrize("name", ["cosm", "sinm", "tanm", "coshm", "sinhm", "tanhm"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128, np.int64], ids=ID)
def test_trig_matfuncs(name, dtype):
    rng = _rng("trig", name, dtype)
    a = (rng.normal(size=(2, 6, 6)) * (3 if np.dtype(dtype).kind == "i" else 0.4))
    if np.dtype(dtype).kind == "c":
        a = a + 0.3j * rng.normal(size=a.shape)
    a = a.astype(dtype)
    got, want = getattr(cla, name)(G(a)), getattr(sla, name)(a)
    tol = 1e-4 if np.dtype(dtype).char == "f" else 1e-9
    _close(got, want, tol, np.abs(want).max())


@pytest.mark.parametrize("lower", [False, True])
def test_cholesky_eigvalsh_solveh_banded(lower):
    rng = _rng("chol", lower)
    a = rng.normal(size=(3, 7, 7)) + 1j * rng.normal(size=(3, 7, 7))
    a = a @ np.swapaxes(a.conj(), -1, -2) + 7 * np.eye(7)
    _close(cla.cholesky(G(a), lower=lower), sla.cholesky(a, lower=lower), 1e-10)
    _close(cla.eigvalsh(G(a), lower=lower), sla.eigvalsh(a, lower=lower), 1e-10)
    with pytest.raises(np.linalg.LinAlgError):
        cla.cholesky(G(-np.eye(3)))
    u, n = 2, 9
    ab = rng.normal(size=(u + 1, n)) + 1j * rng.normal(size=(u + 1, n))
    ab[0 if lower else u] = np.abs(ab[0 if lower else u]) + 10  # the (real, dominant) diagonal
    b = rng.normal(size=(n, 2))
    _close(cla.solveh_banded(G(ab), G(b), lower=lower), sla.solveh_banded(ab, b, lower=lower), 1e-10)
    _close(cla.solveh_banded(G(ab), G(b[:, 0]), lower=lower), sla.solveh_banded(ab, b[:, 0], lower=lower), 1e-10)


@pytest.mark.parametrize("side", ["right", "left"])
@pytest.mark.parametrize("shape", [(6, 4), (4, 6), (5, 5)])
def test_polar(side, shape):
    a = _rng("polar", side, shape).normal(size=shape)
    u, p = cla.polar(G(a), side=side)
    wu, wp = sla.polar(a, side=side)
    _close(u, wu, 1e-10)
    _close(p, wp, 1e-10)


@pytest.mark.parametrize("dtype", DTYPES, ids=ID)
def test_eig_eigvals(dtype):
    rng = _rng("eig", dtype)
    a = _rand(rng, (2, 6, 6), dtype)
    w, v = cla.eig(G(a))
    ww, wv = sla.eig(a)
    assert w.dtype == ww.dtype and v.dtype == wv.dtype
    order = lambda x: np.argsort(np.round(x, 4), axis=-1)  # noqa: E731  (eigenvalue order is unspecified)
    wg = w.get()
    tol = 1e-3 if np.dtype(dtype).char in "fF" else 1e-9
    np.testing.assert_allclose(np.take_along_axis(wg, order(wg), -1), np.take_along_axis(ww, order(ww), -1), rtol=tol, atol=tol)
    vg = v.get()
    np.testing.assert_allclose(a @ vg, vg * wg[..., None, :], atol=tol * 10)
    t = np.triu(a[0]).real.astype(dtype if np.dtype(dtype).kind == "f" else np.float64)
    w, v = cla.eig(G(t))
    assert w.dtype == sla.eig(t)[0].dtype and v.dtype == sla.eig(t)[1].dtype  # real vectors, complex values
    assert v.dtype.kind == "f"
    assert cla.eigvals(G(t), homogeneous_eigvals=True).shape == sla.eigvals(t, homogeneous_eigvals=True).shape
    # SciPy's rule is over the whole stack: one matrix with a complex pair makes every vector complex
    rot = np.array([[0.0, -1.0], [1.0, 0.0]])
    mixed = np.stack([np.triu(a[0].real), np.kron(np.eye(3), rot)]).astype(t.dtype)
    assert cla.eig(G(mixed))[1].dtype == sla.eig(mixed)[1].dtype
    # a complex input keeps complex vectors even when every eigenvalue is real
    tc = t.astype(np.complex128)
    assert cla.eig(G(tc))[1].dtype == sla.eig(tc)[1].dtype
    assert cla.eig(G(t[:0, :0]))[1].dtype == sla.eig(t[:0, :0])[1].dtype


def test_pinv_norm_lstsq():
    rng = _rng("pinv")
    a = rng.normal(size=(3, 7, 4)) @ rng.normal(size=(3, 4, 5))  # rank 4
    _close(cla.pinv(G(a)), sla.pinv(a), 1e-9, 10)
    b, r = cla.pinv(G(a[0]), return_rank=True)
    assert r == sla.pinv(a[0], return_rank=True)[1]
    _close(cla.pinv(G(a[0]), atol=0.5), sla.pinv(a[0], atol=0.5), 1e-9, 10)
    m = rng.normal(size=(6, 5))
    for ord_ in (None, "fro", 1, 2, np.inf, -1):
        np.testing.assert_allclose(float(cla.norm(G(m), ord_).get()), sla.norm(m, ord_), rtol=1e-12)
    for bb in (rng.normal(size=6), rng.normal(size=(6, 2))):
        x, res, rank, s = cla.lstsq(G(m), G(bb))
        wx, wres, wrank, ws = sla.lstsq(m, bb)
        _close(x, wx, 1e-10)
        np.testing.assert_allclose(np.asarray(res.get()), wres, rtol=1e-10)
        assert rank == wrank and isinstance(rank, np.int64)  # SciPy 1.18's type (1.17: int)
        if _scipy_at_least(1, 18):
            assert type(rank) is type(wrank)
        _close(s, ws, 1e-12)
    x, res, rank, s = cla.lstsq(G(m.T), G(rng.normal(size=5)))
    assert res.shape == (0,) and rank == 5


@pytest.mark.parametrize("dtype", [np.float64, np.complex128, np.float32], ids=ID)
@pytest.mark.parametrize("driver", [None, "gelss", "gelsy"])
def test_lstsq_residues_as_scipy_1_18(dtype, driver):
    # SciPy 1.18: residues in the solution's dtype, NaN for a rank-deficient overdetermined system,
    # none with 'gelsy' (1.17 as NumPy: real, and empty when rank-deficient)
    rng = _rng("lstsq-118", dtype, driver)
    full_rank = _rand(rng, (8, 3), dtype)
    deficient = (_rand(rng, (8, 2), dtype) @ _rand(rng, (2, 3), dtype)).astype(dtype)
    for a in (full_rank, deficient):
        for b in (_rand(rng, (8,), dtype), _rand(rng, (8, 2), dtype)):
            # cond far from both ranks' singular values: the rank cannot hinge on rounding
            x, res, rank, s = cla.lstsq(G(a), G(b), cond=1e-3, lapack_driver=driver)
            wx, wres, wrank, ws = sla.lstsq(a, b, cond=1e-3, lapack_driver=driver)
            assert rank == wrank
            if not _scipy_at_least(1, 18):
                if driver == "gelsy":
                    wres = np.zeros((0,), dtype=wx.dtype)
                elif wrank < 3:
                    wres = np.full(b.shape[1:], np.nan, dtype=wx.dtype)
                else:
                    wres = np.asarray(wres).astype(wx.dtype)
            wres = np.asarray(wres)
            assert res.dtype == wres.dtype and res.shape == wres.shape, (res.dtype, wres.dtype, res.shape, wres.shape)
            tol = 1e-3 if np.dtype(dtype).char in "fF" else 1e-9
            np.testing.assert_allclose(np.asarray(res.get()), wres, rtol=tol)
            if rank == 3:
                _close(x, wx, tol, 10)


@pytest.mark.parametrize("name", ["lu", "lu_factor", "qr", "inv", "det", "svd", "eigh", "expm", "sqrtm", "logm",
                                  "cosm", "cholesky"])
@pytest.mark.parametrize("dtype", [np.float16, np.bool_], ids=ID)
def test_non_lapack_dtypes_are_deprecated_as_scipy_1_18(name, dtype):
    import warnings

    a = (np.eye(4) * 3 + 0.5).astype(dtype) if dtype != np.bool_ else np.eye(4, dtype=bool)
    with pytest.warns(DeprecationWarning, match="deprecated in SciPy 1.18.0"):
        getattr(cla, name)(G(a))
    for ok in (np.float32, np.int64):  # integers and LAPACK dtypes do not warn (SciPy's rule)
        with warnings.catch_warnings():
            warnings.filterwarnings("error", message=".*deprecated in SciPy 1.18", category=DeprecationWarning)
            getattr(cla, name)(G(a.astype(ok)))
