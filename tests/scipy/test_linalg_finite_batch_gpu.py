"""cuarray.scipy.linalg on the GPU against scipy.linalg: `check_finite` (NaN and inf input raise
SciPy's ValueError; check_finite=False computes on; integers pass unchecked), and batching over
leading dimensions (every stack against SciPy slice by slice; lstsq and polar, batched here since
SciPy 1.18, also against SciPy's own batched call when it has one)."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
    pytest.mark.filterwarnings("ignore::FutureWarning"),
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
    pytest.mark.filterwarnings("ignore:logm result may be inaccurate"),
]

sla = pytest.importorskip("scipy.linalg")

import cuarray  # noqa: E402
from cuarray.scipy import linalg as cla  # noqa: E402

G = cuarray.asarray
NAN_MESSAGE = "array must not contain infs or NaNs"
ID = lambda d: np.dtype(d).name  # noqa: E731


def _rng(*key):
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


def _scipy_at_least(major, minor):
    import re

    import scipy

    return tuple(int(x) for x in re.match(r"(\d+)\.(\d+)", scipy.__version__).groups()) >= (major, minor)


def _rand(rng, shape, dtype):
    a = rng.normal(size=shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.normal(size=shape)
    return a.astype(dtype)


def _spd(rng, shape, dtype):
    a = _rand(rng, shape, dtype)
    n = shape[-1]
    return (a @ np.conj(np.swapaxes(a, -1, -2)) + n * np.eye(n)).astype(dtype)


# -- check_finite --------------------------------------------------------------------------------
def _poison(a, bad, rng):
    a = np.array(a, copy=True)
    a.flat[rng.integers(a.size)] = bad
    return a


CALLS = {
    "solve": (lambda m, a, b, c: m.solve(a, b, check_finite=c), 2),
    "solve_triangular": (lambda m, a, b, c: m.solve_triangular(a, b, check_finite=c), 2),
    "inv": (lambda m, a, b, c: m.inv(a, check_finite=c), 1),
    "det": (lambda m, a, b, c: m.det(a, check_finite=c), 1),
    "lu_factor": (lambda m, a, b, c: m.lu_factor(a, check_finite=c), 1),
    "lu": (lambda m, a, b, c: m.lu(a, check_finite=c), 1),
    "cho_factor": (lambda m, a, b, c: m.cho_factor(a, check_finite=c), 1),
    "cholesky": (lambda m, a, b, c: m.cholesky(a, check_finite=c), 1),
    "eigh": (lambda m, a, b, c: m.eigh(a, check_finite=c), 1),
    "eigvalsh": (lambda m, a, b, c: m.eigvalsh(a, check_finite=c), 1),
    "eig": (lambda m, a, b, c: m.eig(a, check_finite=c), 1),
    "svd": (lambda m, a, b, c: m.svd(a, check_finite=c), 1),
    "svdvals": (lambda m, a, b, c: m.svdvals(a, check_finite=c), 1),
    "qr": (lambda m, a, b, c: m.qr(a, check_finite=c), 1),
    "pinv": (lambda m, a, b, c: m.pinv(a, check_finite=c), 1),
    "norm": (lambda m, a, b, c: m.norm(a, check_finite=c), 1),
    "lstsq": (lambda m, a, b, c: m.lstsq(a, b, check_finite=c), 2),
    "null_space": (lambda m, a, b, c: m.null_space(a, check_finite=c), 1),
    "orthogonal_procrustes": (lambda m, a, b, c: m.orthogonal_procrustes(a, b[..., :4], check_finite=c), 2),
    "lu_solve": (lambda m, a, b, c: m.lu_solve(m.lu_factor(a), b, check_finite=c), 1),  # b only, as SciPy
    "cho_solve": (lambda m, a, b, c: m.cho_solve((a, False), b, check_finite=c), 2),
    "orth": (lambda m, a, b, c: m.orth(a), 1),
    "polar": (lambda m, a, b, c: m.polar(a), 1),
}


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf], ids=["nan", "inf", "-inf"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128], ids=ID)
@pytest.mark.parametrize("name", sorted(CALLS))
def test_non_finite_raises_as_scipy(name, dtype, bad):
    call, operands = CALLS[name]
    rng = _rng("finite", name, dtype, bad)
    a = _spd(rng, (4, 4), dtype)
    b = _rand(rng, (4, 4), dtype)
    poisoned = [(_poison(a, bad, rng), b)] + ([(a, _poison(b, bad, rng))] if operands == 2 else [])
    if name == "lu_solve":
        poisoned = [(a, _poison(b, bad, rng))]
    for pa, pb in poisoned:
        with pytest.raises(ValueError, match=NAN_MESSAGE):
            call(sla, pa, pb, True)
        with pytest.raises(ValueError, match=NAN_MESSAGE):
            call(cla, G(pa), G(pb), True)
    # finite input passes the check and agrees with SciPy's
    np.testing.assert_allclose(np.asarray(cla.det(G(a)).get()), sla.det(a), rtol=1e-4)


@pytest.mark.parametrize("n", [5, 40])
@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=ID)
def test_check_finite_false_computes_on(dtype, n):
    """NaN input with check_finite=False gives NaN results, as SciPy's (each call named: the H100
    run failed this test without a traceback). cuSOLVER's getrf drops a NaN of its input (finite
    factors, zeros on U's diagonal: scripts/linalg_nan_getrf.py), so cuarray.linalg's LU makes the
    factors of such a matrix NaN itself (carry_nan); n = 40 is cuSOLVER's path, n = 5 our kernel's."""
    rng = _rng("nocheck", dtype, n)
    a = _poison(_spd(rng, (n, n), dtype), np.nan, rng)
    b = _rand(rng, (n, 2), dtype)
    got = {"det": cla.det(G(a), check_finite=False), "lu_factor": cla.lu_factor(G(a), check_finite=False)[0],
           "lu (U)": cla.lu(G(a), check_finite=False)[2], "solve": cla.solve(G(a), G(b), check_finite=False)}
    t = np.triu(_spd(rng, (n, n), dtype))
    t[0, n - 1] = np.nan  # in the triangle solve_triangular reads
    got["solve_triangular"] = cla.solve_triangular(G(t), G(b), check_finite=False)
    got["lu_solve"] = cla.lu_solve(cla.lu_factor(G(a), check_finite=False), G(b), check_finite=False)
    no_nan = [name for name, v in got.items() if not np.isnan(v.get()).any()]
    assert not no_nan, "no NaN in the result of " + ", ".join(no_nan)


def test_integer_input_is_not_checked_and_agrees():
    rng = _rng("int")
    a = rng.integers(-5, 6, size=(3, 4, 4)) + 20 * np.eye(4, dtype=np.int64)
    b = rng.integers(-5, 6, size=(4, 2))
    np.testing.assert_allclose(cla.solve(G(a), G(b)).get(), np.stack([sla.solve(m, b) for m in a]), rtol=1e-12)
    np.testing.assert_allclose(cla.det(G(a)).get(), sla.det(a), rtol=1e-12)


# -- batches against SciPy, slice by slice ----------------------------------------------------------
def _slices(fn, *arrays):
    """fn applied to each matrix of the (broadcast) batch, the results stacked as SciPy 1.18 does."""
    batch = np.broadcast_shapes(*[x.shape[:-2] for x in arrays])
    arrays = [np.broadcast_to(x, batch + x.shape[-2:]) for x in arrays]
    out = [fn(*[x[idx] for x in arrays]) for idx in np.ndindex(*batch)]
    if isinstance(out[0], tuple):
        return tuple(np.stack([np.asarray(o[k]) for o in out]).reshape(batch + np.shape(out[0][k]))
                     for k in range(len(out[0])))
    return np.stack([np.asarray(o) for o in out]).reshape(batch + np.shape(out[0]))


def _close(got, want, tol):
    got = np.asarray(got.get()) if hasattr(got, "get") else np.asarray(got)
    assert got.shape == np.shape(want), (got.shape, np.shape(want))
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * max(1.0, float(np.max(np.abs(want), initial=0))))


TOL = {np.float32: 2e-3, np.float64: 1e-9, np.complex128: 1e-9}
SQUARE = {
    "solve": (lambda m, a, b: m.solve(a, b), 2),
    "inv": (lambda m, a, b: m.inv(a), 1),
    "det": (lambda m, a, b: m.det(a), 1),
    "lu_solve": (lambda m, a, b: m.lu_solve(m.lu_factor(a), b), 2),
    "cho_solve": (lambda m, a, b: m.cho_solve(m.cho_factor(a), b), 2),
    "cholesky": (lambda m, a, b: m.cholesky(a), 1),
    "solve_triangular": (lambda m, a, b: m.solve_triangular(a, b, lower=True), 2),
    "eigvalsh": (lambda m, a, b: m.eigvalsh(a), 1),
    "svdvals": (lambda m, a, b: m.svdvals(a), 1),
    "expm": (lambda m, a, b: m.expm(a / 10), 1),
    "sqrtm": (lambda m, a, b: m.sqrtm(a), 1),
    "logm": (lambda m, a, b: m.logm(a), 1),
    "pinv": (lambda m, a, b: m.pinv(a), 1),
    "polar-u": (lambda m, a, b: m.polar(a)[0], 1),
    "polar-p-left": (lambda m, a, b: m.polar(a, side="left")[1], 1),
    "procrustes": (lambda m, a, b: m.orthogonal_procrustes(a, b)[0], 2),
}


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128], ids=ID)
@pytest.mark.parametrize("name", sorted(SQUARE))
def test_square_batches_are_scipys_slices(name, dtype):
    call, nargs = SQUARE[name]
    rng = _rng("batch", name, dtype)
    a = _spd(rng, (2, 3, 5, 5), dtype)  # SPD: every routine is defined on it
    b = _rand(rng, (3, 5, 5), dtype)   # a batch that broadcasts against a's
    want = _slices(lambda x, y: call(sla, x, y), a, b) if nargs == 2 else _slices(lambda x: call(sla, x, None), a)
    got = call(cla, G(a), G(b))
    _close(got, want, TOL[dtype])


@pytest.mark.parametrize("dtype", [np.float64, np.complex128, np.float32], ids=ID)
@pytest.mark.parametrize("ashape,bshape", [((2, 3, 7, 4), (7,)), ((2, 3, 7, 4), (7, 2)), ((3, 7, 4), (2, 3, 7, 2)),
                                           ((2, 1, 7, 4), (3, 7, 1)), ((2, 4, 7), (4, 3)), ((2, 5, 5), (5,))],
                         ids=["b1d", "b2d", "b-more-batch", "broadcast", "under", "square"])
def test_lstsq_batched_is_scipys_slices(dtype, ashape, bshape):
    rng = _rng("lstsq-batch", dtype, ashape, bshape)
    a, b = _rand(rng, ashape, dtype), _rand(rng, bshape, dtype)
    a[..., 0, :, -1] = a[..., 0, :, 0]  # the first matrix of each stack row is rank-deficient
    x, res, rank, s = cla.lstsq(G(a), G(b), cond=1e-6)
    m, n = ashape[-2:]
    vector = len(bshape) == 1
    bb = b[:, None] if vector else b
    # (SciPy 1.17's residues vary in shape from slice to slice: not stacked)
    wx, wrank, ws = _slices(lambda p, q: (lambda r: (r[0], r[2], r[3]))(sla.lstsq(p, q, cond=1e-6)), a, bb)
    batch = wrank.shape
    tol = TOL[dtype]
    assert rank.shape == batch and rank.dtype == np.int64
    np.testing.assert_array_equal(rank.get(), wrank)
    _close(s, ws, tol)
    full = wrank == min(m, n)
    wxx = wx[..., 0] if vector else wx
    xs = x.get()
    assert xs.shape == wxx.shape
    np.testing.assert_allclose(xs[full], wxx[full], rtol=tol, atol=tol * 10)
    # residues as SciPy 1.18: the solution's dtype; NaN where rank-deficient; none for m <= n
    if m > n:
        r = bb - np.broadcast_to(a, batch + a.shape[-2:]) @ wx
        want = np.sum(r * np.conj(r), axis=-2).astype(wx.dtype)
        want[wrank < n] = np.nan
        want = want[..., 0] if vector else want
        assert res.dtype == wx.dtype and res.shape == want.shape
        np.testing.assert_allclose(res.get(), want, rtol=max(tol, 1e-6) * 10)
    else:
        assert res.shape == batch + (0,)
    if _scipy_at_least(1, 18):  # SciPy's own batched call
        sx, sres, srank, ss = sla.lstsq(a, b, cond=1e-6)
        assert sx.shape == x.shape and np.shape(sres) == res.shape and np.shape(srank) == rank.shape
        assert ss.shape == s.shape


def test_lstsq_one_matrix_types_and_gelsy():
    rng = _rng("lstsq-one")
    a, b = rng.normal(size=(6, 3)), rng.normal(size=6)
    x, res, rank, s = cla.lstsq(G(a), G(b), lapack_driver="gelsy")
    wx = sla.lstsq(a, b)[0]
    assert isinstance(rank, np.int64) and rank == 3 and s is None and res.shape == (0,)
    np.testing.assert_allclose(x.get(), wx, rtol=1e-10)


@pytest.mark.parametrize("side", ["right", "left"])
def test_polar_batched(side):
    rng = _rng("polar-batch", side)
    for shape in ((2, 3, 4, 4), (3, 5, 3), (2, 3, 5)):
        a = rng.normal(size=shape)
        u, p = cla.polar(G(a), side=side)
        wu, wp = _slices(lambda x: sla.polar(x, side=side), a)
        _close(u, wu, 1e-10)
        _close(p, wp, 1e-10)


def test_eig_generalized_says_what_to_use():
    a = G(np.eye(3))
    with pytest.raises(NotImplementedError, match="eigh"):
        cla.eig(a, a)
    with pytest.raises(NotImplementedError, match="right eigenvectors only"):
        cla.eig(a, left=True)


def test_invhilbert():
    np.testing.assert_allclose(cla.invhilbert(9).get(), sla.invhilbert(9), rtol=1e-12)
    got = cla.invhilbert(14, exact=True)
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got.get(), sla.invhilbert(14, exact=True))
    want = sla.invhilbert(16, exact=True)
    assert (cla.invhilbert(16, exact=True) == want).all()


@pytest.mark.parametrize("l_and_u", [(1, 1), ([2, 1, 0], [0, 1, 2]), (np.array([[1], [0]]), np.array([[1], [2]]))],
                         ids=["ints", "per-matrix", "per-row"])
@pytest.mark.parametrize("bshape", [(5,), (5, 4), (2, 3, 5, 4)])
def test_solve_banded_batched_counts_as_scipy_1_18(l_and_u, bshape):
    # SciPy 1.18 (and 1.17) batch l and u too: one (l, u) per matrix, l + u + 1 rows each
    rng = _rng("banded-batch", str(l_and_u), bshape)
    ab = rng.normal(size=(2, 3, 3, 5))
    b = rng.normal(size=bshape)
    lower, upper = (np.broadcast_to(v, (2, 3)) for v in l_and_u)
    for i, j in np.ndindex(2, 3):
        ab[i, j, upper[i, j]] += 6  # the main diagonal (row u): dominant
    x = cla.solve_banded(l_and_u, G(ab), G(b))
    bb = np.broadcast_to(b, (2, 3) + b.shape) if len(bshape) < 4 else b
    want = np.stack([np.stack([sla.solve_banded((int(lower[i, j]), int(upper[i, j])), ab[i, j], bb[i, j])
                               for j in range(3)]) for i in range(2)])
    _close(x, want, 1e-10)
    for i, j in [(0, 0), (1, 2)]:  # one matrix alone gives the same
        _close(cla.solve_banded((int(lower[i, j]), int(upper[i, j])), G(ab[i, j]), G(bb[i, j])), want[i, j], 1e-10)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_check_finite_float16(bad):
    """float16 operands reach cuarray::isfinite as __half (the integer template said 'finite'
    before its __half overload)."""
    rng = _rng("f16", repr(bad))
    a = _spd(rng, (6, 6), np.float32).astype(np.float16)
    a[rng.integers(6), rng.integers(6)] = bad
    with pytest.raises(ValueError, match=NAN_MESSAGE):
        cla.solve(G(a), G(np.ones(6, np.float16)))
    ok = _spd(rng, (6, 6), np.float32).astype(np.float16)
    np.testing.assert_allclose(cla.solve(G(ok), G(np.ones(6, np.float16))).get(),
                               np.linalg.solve(ok.astype(np.float32), np.ones(6, np.float32)), rtol=2e-3)
