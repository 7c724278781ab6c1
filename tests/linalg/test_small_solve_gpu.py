"""The small-system kernel behind `solve` and `inv` for n <= 16 (linalg/_small_solve.py) and the
lower-triangle cholesky, against NumPy with fresh random data: every order 1..16, stacks whose
size is no multiple of a block's systems, broadcast A or B (read with step 0, not copied), views
that are copied first, single precision and complex, matrices that need row swaps, exactly
singular members of a stack (NumPy's LinAlgError), ill-conditioned systems (backward error),
empty stacks and zero right-hand sides, NaN input."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
import cuarray.linalg as la  # noqa: E402
from cuarray.linalg import _small_solve  # noqa: E402

DTYPES = [np.dtype(c) for c in "fdFD"]


def _rng(request):
    return np.random.default_rng(zlib.crc32(request.node.nodeid.encode()))


def _rand(shape, dt, rng):
    x = rng.standard_normal(shape)
    if dt.kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dt)


def _tol(dt):
    return 2e-4 if dt.char in "fF" else 1e-11


def _check(ours, want, dt, what):
    ours = ours.get()
    assert ours.dtype == want.dtype and ours.shape == want.shape, (what, ours.dtype, ours.shape)
    scale = max(1.0, float(np.abs(want).max(initial=0)))
    np.testing.assert_allclose(ours, want, rtol=_tol(dt), atol=_tol(dt) * scale, err_msg=what)


@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_every_order_and_width(request, dt):
    rng = _rng(request)
    for n in range(1, _small_solve.MAX_N + 1):
        for batch in ((), (1,), (17,), (3, 5)):
            a = _rand(batch + (n, n), dt, rng) + n * np.eye(n, dtype=dt)
            for k in (1, 3, n):
                b = _rand(batch + (n, k), dt, rng)
                x = la.solve(cuarray.asarray(a), cuarray.asarray(b))
                _check(x, np.linalg.solve(a, b), dt, "solve n={} k={} batch={}".format(n, k, batch))
                assert x.flags.c_contiguous
            _check(la.inv(cuarray.asarray(a)), np.linalg.inv(a), dt, "inv n={} batch={}".format(n, batch))


def test_random_matrices_need_row_swaps(request):
    # No diagonal boost: partial pivoting decides the order of elimination, as in LAPACK.
    rng = _rng(request)
    for n in (2, 5, 8, 16):
        a = rng.standard_normal((300, n, n))
        b = rng.standard_normal((300, n, 1))  # NumPy 2: a (batch, n) b would be a matrix
        a[:, 0, 0] = 0.0  # the first pivot must come from another row
        _check(la.solve(cuarray.asarray(a), cuarray.asarray(b)), np.linalg.solve(a, b),
               np.dtype("d"), "n={}".format(n))
    perm = np.eye(8)[rng.permutation(8)]
    b = rng.standard_normal(8)
    _check(la.solve(cuarray.asarray(perm), cuarray.asarray(b)), np.linalg.solve(perm, b), np.dtype("d"), "perm")


def test_large_stack_and_vector_rhs(request):
    rng = _rng(request)
    a = rng.standard_normal((100_003, 3, 3)) + 3 * np.eye(3)
    b = rng.standard_normal((100_003, 3))
    # NumPy 2: a 1-D b is a vector only for a 2-D a; here b is (batch, n) -> (batch, n, 1) stacks.
    x = la.solve(cuarray.asarray(a), cuarray.asarray(b[..., None]))
    _check(x, np.linalg.solve(a, b[..., None]), np.dtype("d"), "100003 x 3x3")


@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_broadcast_operands(request, dt):
    rng = _rng(request)
    n = 6
    a1 = _rand((n, n), dt, rng) + n * np.eye(n, dtype=dt)
    bs = _rand((40, n, 2), dt, rng)
    _check(la.solve(cuarray.asarray(a1), cuarray.asarray(bs)), np.linalg.solve(a1, bs), dt, "one A, stacked B")
    as_ = _rand((40, n, n), dt, rng) + n * np.eye(n, dtype=dt)
    b1 = _rand((n, 2), dt, rng)
    _check(la.solve(cuarray.asarray(as_), cuarray.asarray(b1)), np.linalg.solve(as_, b1), dt, "stacked A, one B")
    a13 = as_[:1]
    b4 = _rand((4, 40, n, 2), dt, rng)
    _check(la.solve(cuarray.asarray(as_), cuarray.asarray(b4)), np.linalg.solve(as_, b4), dt, "B with more axes")
    _check(la.solve(cuarray.asarray(a13), cuarray.asarray(bs)), np.linalg.solve(a13, bs), dt, "A of (1, n, n)")
    bv = _rand((n,), dt, rng)
    _check(la.solve(cuarray.asarray(a1), cuarray.asarray(bv)), np.linalg.solve(a1, bv), dt, "vector b")


@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_views_and_other_dtypes(request, dt):
    rng = _rng(request)
    n = 5
    a = _rand((8, n, n), dt, rng) + n * np.eye(n, dtype=dt)
    b = _rand((8, n, 3), dt, rng)
    da, db = cuarray.asarray(a), cuarray.asarray(b)
    cases = [
        (da.mT, db, np.swapaxes(a, -1, -2), b, "transposed A"),
        (da[::2], db[::2], a[::2], b[::2], "every other matrix"),
        (da, db[..., ::-1], a, b[..., ::-1], "reversed B columns"),
        (da[..., ::-1, :], db, a[..., ::-1, :], b, "reversed A rows"),
    ]
    for ga, gb, ha, hb, what in cases:
        _check(la.solve(ga, gb), np.linalg.solve(ha, hb), dt, what)
    ai = rng.integers(-5, 6, (4, n, n)) + 20 * np.eye(n, dtype=np.int64)
    bi = rng.integers(-5, 6, (4, n, 1))
    _check(la.solve(cuarray.asarray(ai), cuarray.asarray(bi)), np.linalg.solve(ai, bi), np.dtype("d"), "int")
    bf = _rand((8, n, 3), np.dtype("f"), rng)
    want = np.linalg.solve(a, bf)
    _check(la.solve(da, cuarray.asarray(bf)), want, want.dtype, "mixed precision")


@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_exactly_singular_members_raise(request, dt):
    rng = _rng(request)
    n = 8
    a = _rand((50, n, n), dt, rng) + n * np.eye(n, dtype=dt)
    b = _rand((50, n, 1), dt, rng)
    # Exactly singular in floating point: a repeated row is not (elimination leaves a pivot of
    # rounding size, and LAPACK answers without an error for float64: seen on the H100).
    for kind in ("zero row", "zero column", "zero matrix"):
        s = a.copy()
        if kind == "zero row":
            s[37, 3] = 0
        elif kind == "zero column":
            s[37, :, 6] = 0
        else:
            s[37] = 0
        with pytest.raises(np.linalg.LinAlgError):
            np.linalg.solve(s, b)
        with pytest.raises(la.LinAlgError, match="Singular matrix"):
            la.solve(cuarray.asarray(s), cuarray.asarray(b))
        with pytest.raises(la.LinAlgError, match="Singular matrix"):
            la.inv(cuarray.asarray(s))
    with pytest.raises(la.LinAlgError, match="Singular matrix"):
        la.solve(cuarray.zeros((1, 1), dtype=dt), cuarray.ones((1,), dtype=dt))
    # The stack without the singular member still solves (the flag is per call, not sticky).
    _check(la.solve(cuarray.asarray(a), cuarray.asarray(b)), np.linalg.solve(a, b), dt, "after singular")


def test_ill_conditioned_is_backward_stable(request):
    # Hilbert matrices (cond ~1e10 at n = 8, ~1e18 at 13): solutions differ from LAPACK's in the
    # digits the conditioning destroys, but partial pivoting keeps the residual at rounding level.
    rng = _rng(request)
    for n in (6, 8, 12, 16):
        i = np.arange(n)
        h = 1.0 / (i[:, None] + i[None, :] + 1)
        stack = np.stack([h, h * rng.uniform(0.5, 2.0)])
        b = rng.standard_normal((2, n, 2))
        x = la.solve(cuarray.asarray(stack), cuarray.asarray(b)).get()
        res = np.abs(stack @ x - b).max() / (np.abs(stack).max() * np.abs(x).max() * n)
        assert res < 1e-13, (n, res)


def test_empty_and_zero_columns():
    for ashape, bshape in [((0, 4, 4), (0, 4, 2)), ((5, 3, 3), (5, 3, 0)), ((3, 3), (3, 0)), ((0, 2, 2), (2,))]:
        a = np.ones(ashape) + np.eye(ashape[-1])
        b = np.ones(bshape)
        want = np.linalg.solve(a, b)
        got = la.solve(cuarray.asarray(a), cuarray.asarray(b))
        assert got.shape == want.shape and got.dtype == want.dtype
    got = la.inv(cuarray.ones((0, 3, 3)))
    assert got.shape == (0, 3, 3)


def test_nan_gives_nan_without_error():
    a = np.full((4, 4, 4), np.nan)
    x = la.solve(cuarray.asarray(a), cuarray.ones((4, 4, 1))).get()
    assert np.isnan(x).all()
    # A NaN pivot is not a zero one (LAPACK's i?amax keeps a NaN on the diagonal as the pivot):
    # no LinAlgError; NumPy's NaN entries are NaN here too. Reference BLAS skips an update whose
    # pivot-row element is zero, so NaN spreads to fewer entries there than in this kernel, which
    # updates every entry (x[1, 3] is NaN here, 1.0 in NumPy: docs/linalg.md).
    part = np.eye(4)[None].repeat(3, 0)
    part[1, 2, 2] = np.nan
    x = la.solve(cuarray.asarray(part), cuarray.ones((3, 4, 1))).get()
    want = np.linalg.solve(part, np.ones((3, 4, 1)))
    assert np.isnan(x[np.isnan(want)]).all()
    assert np.isfinite(x[[0, 2]]).all()


def test_cond_of_singular_does_not_raise():
    s = cuarray.asarray(np.array([[1.0, 2.0], [2.0, 4.0]]))
    with np.errstate(all="ignore"):
        want = np.linalg.cond(s.get(), 1)
    assert float(la.cond(s, 1).get()) >= min(want, 1e15)


@pytest.mark.parametrize("dt", DTYPES, ids=str)
@pytest.mark.parametrize("n", [1, 7, 40, 300])
def test_cholesky_reads_only_its_triangle(request, dt, n):
    # NumPy reads the lower triangle for upper=False and the upper one for upper=True: garbage in
    # the other must not change the factor, whichever triangle potrf works on.
    rng = _rng(request)
    for batch in ((), (3,)):
        m = _rand(batch + (n, n), dt, rng)
        p = m @ np.conj(np.swapaxes(m, -1, -2)) + n * np.eye(n, dtype=dt)
        junk = _rand(batch + (n, n), dt, rng) * 100
        lo = np.tril(p) + np.triu(junk, 1)
        up = np.triu(p) + np.tril(junk, -1)
        _check(la.cholesky(cuarray.asarray(lo)), np.linalg.cholesky(p), dt, "lower {}".format(batch))
        _check(la.cholesky(cuarray.asarray(up), upper=True), np.linalg.cholesky(p, upper=True), dt,
               "upper {}".format(batch))
        tview = cuarray.asarray(np.ascontiguousarray(np.swapaxes(lo, -1, -2))).mT
        _check(la.cholesky(tview), np.linalg.cholesky(p), dt, "transposed view")
        tup = cuarray.asarray(np.ascontiguousarray(np.swapaxes(up, -1, -2))).mT
        _check(la.cholesky(tup, upper=True), np.linalg.cholesky(p, upper=True), dt, "transposed view upper")
