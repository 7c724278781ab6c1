"""rank_svd's stacks of small matrices (pinv, matrix_rank) on the host: a private copy of `_svd`
(and of `_solve`) with NumPy stand-ins, its batched Jacobi SVD replaced by NumPy's SVD made a few
ulps off and zeroed below eps of the norm, as cuSOLVER's gesvdjBatched leaves it. A matrix with at
most one nonzero in each row and column takes its exact SVD (LAPACK's): GPU fuzz seed 21 index 198,
pinv(rcond=1e-7) of a stack holding singular values 1 and 1e-7, where NumPy cuts the 1e-7 and the
Jacobi SVD's value of it, a few ulps high, was kept (an entry of -1e7 where NumPy's is 0)."""

from __future__ import annotations

import sys
import pathlib

import numpy as np
import pytest

from cuarray.linalg import _solve, _svd
from cuarray.testing.fake_device import host_modules, numpy_standins

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "fuzz"))
import fuzz_catalog as fc  # noqa: E402
import fuzzlib  # noqa: E402


def _jacobi(a, full_matrices=True, compute_uv=True, algorithm=None, fn="linalg.svd"):
    """gesvdjBatched as the GPU fuzz met it: every singular value but the largest 4 eps high, and
    0 below eps of the largest (a matrix holding NaN: that of its finite entries, whatever it is)."""
    u, s, vh = np.linalg.svd(np.where(np.isfinite(a), a, 0), full_matrices=full_matrices)
    eps = np.finfo(s.dtype).eps
    s = np.where(s < eps * s[..., :1], 0, s * (1 + 4 * eps * (np.arange(s.shape[-1]) > 0)))
    return _svd.SVDResult(u, s, vh) if compute_uv else s


@pytest.fixture(scope="module")
def host():
    copies = host_modules({
        _svd: {**numpy_standins(_svd, "cuarray.linalg"), "_svd": _jacobi},
        _solve: {**numpy_standins(_solve, "cuarray.linalg", {"max": np.max, "diagonal": np.diagonal,
                                                             "copyto_where_unchecked": None}),
                 "_matmul": np.matmul}})
    return copies[_svd], copies[_solve]


def _permuted_diagonals(rng, shape, dt):
    """A stack of scaled permutations (signed, complex phases where complex), magnitudes from 1 down
    to 1e-40 (1e-30 in single precision), some zero."""
    *batch, m, n = shape
    k = min(m, n)
    low = -30 if np.dtype(dt).char in "fF" else -40
    a = np.zeros((int(np.prod(batch)), m, n), dt)
    for x in a:
        s = 10.0 ** rng.choice([0, -1, -7, -12, -16, -20, low], k) * rng.choice([-1, 1], k)
        s[rng.integers(0, k)] = 1.0
        s[rng.random(k) < 0.2] = 0
        x[rng.permutation(m)[:k], rng.permutation(n)[:k]] = s * (rng.choice([1, -1, 1j, -1j], k) if x.dtype.kind == "c" else 1)
    return a.reshape(shape)


@pytest.mark.parametrize("dt", ["float64", "complex128", "float32"])
@pytest.mark.parametrize("shape", [(6, 3, 3), (2, 3, 5, 2), (4, 2, 6)])
def test_permuted_diagonals_of_a_stack_take_their_exact_svd(host, dt, shape):
    svd_copy, _ = host
    rng = np.random.default_rng()
    a = _permuted_diagonals(rng, shape, dt)
    flat = a.reshape((-1,) + shape[-2:])
    flat[0, 0, 0], flat[0, 1, 0] = 3.0, 2.0  # not one nonzero a column: the Jacobi values stay
    flat[-1, 0, 0] = np.nan  # not finite: the Jacobi values stay
    u, s, vh = svd_copy.rank_svd(a, full_matrices=False)
    m, n = shape[-2:]
    pd = np.zeros(a.shape[:-2], bool)
    pd.reshape(-1)[1:-1] = True
    # the exact singular values: the entries' magnitudes (|s| times a phase of +-1, +-1j: exact),
    # in descending order; LAPACK's are these but for an ulp at times (dgesdd's 1e-20 + 1 ulp for
    # [[0, 0, 0], [0, 0, 0.1], [1e-20, 0, 0]])
    mags = np.abs(np.where(np.isfinite(a), a, 0)).sum(axis=-2 if m >= n else -1)
    exact = -np.sort(-mags, axis=-1)[..., :min(m, n)]
    assert np.array_equal(s[pd], exact[pd])
    lapack = np.linalg.svd(np.where(np.isfinite(a), a, 0), compute_uv=False)
    np.testing.assert_allclose(s[pd], lapack[pd], rtol=4 * np.finfo(a.dtype).eps, atol=0)
    assert np.array_equal(s[~pd], _jacobi(a, compute_uv=False)[~pd])
    back = (u * s[..., None, :]) @ vh
    np.testing.assert_array_equal(back[pd], a[pd]) if a.dtype.kind == "f" else \
        np.testing.assert_allclose(back[pd], a[pd], rtol=4 * np.finfo(a.dtype).eps, atol=0)
    assert np.array_equal(svd_copy.rank_svd(a, compute_uv=False)[pd], exact[pd])
    single = svd_copy.rank_svd(a[(0,) * (a.ndim - 2)], full_matrices=False)  # not a stack: gesvd's
    assert np.array_equal(single[1], _jacobi(a[(0,) * (a.ndim - 2)], compute_uv=False))


def test_pinv_of_the_fuzz_case_cuts_as_numpy(host):
    """GPU fuzz seed 21 index 198: pinv(rcond=1e-7) of a (3, 5, 3, 3) complex stack, scaled
    permutations among its matrices; NumPy's zeros are zeros, its values within rounding."""
    _, solve_copy = host
    row = fc.BY_KEY["linalg.pinv(m){rcond,hermitian}"]
    args, kw = row.make(fuzzlib.case_rng(row.key, 21, 198))
    side = fuzzlib.Side(np)
    x, kw = side.build(args[0]), {k: side.build(v) for k, v in kw.items()}
    want = np.linalg.pinv(x, **kw)
    got = solve_copy.pinv(x, **kw)
    assert np.array_equal(got != 0, want != 0)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12 * np.abs(want).max())
    assert row.check(want, got, row, ([x], kw)) is None
