"""nnls (the real active-set loop, NumPy standing in for the device routines) against
scipy.optimize.nnls on fresh random problems with full column rank, where the solution is unique:
the same x and residual norm to the conditioning's accuracy, and SciPy's errors."""

import inspect

import numpy as np
import pytest
import scipy.optimize as so


@pytest.mark.parametrize("shape", [(30, 8), (12, 12), (200, 40), (1, 1)])
def test_random_problems(host_optimize, shape):
    rng = np.random.default_rng()
    m, n = shape
    A = rng.standard_normal((m, n)) + (3 * np.eye(m, n) if m == n else 0)  # square: well conditioned
    b = rng.standard_normal(m) * 2
    x, rn = host_optimize.nnls(A, b)
    xr, rr = so.nnls(A, b)
    np.testing.assert_allclose(x, xr, rtol=1e-8, atol=1e-10)
    assert rn == pytest.approx(rr, rel=1e-10, abs=1e-12)
    assert np.all(x >= 0) and isinstance(rn, float)
    assert 0 < (x > 0).sum() <= n or not (A.T @ b > 0).any()


def test_examples_and_edges(host_optimize):
    A = np.array([[1.0, 0], [1, 0], [0, 1]])  # SciPy's docstring examples
    for b in ([2.0, 1, 1], [-1.0, -1, -1]):
        x, rn = host_optimize.nnls(A, np.array(b))
        xr, rr = so.nnls(A, np.array(b))
        np.testing.assert_allclose(x, xr, atol=1e-14)
        assert rn == pytest.approx(rr, rel=1e-14)
    x, rn = host_optimize.nnls(A, np.array([[2.0], [1], [1]]))  # b as one column
    np.testing.assert_allclose(x, [1.5, 1.0])
    x, rn = host_optimize.nnls(np.zeros((3, 0)), np.array([3.0, 4, 0]))
    assert x.shape == (0,) and rn == 5.0
    rng = np.random.default_rng()
    A, b = rng.standard_normal((20, 6)), rng.standard_normal(20)
    np.testing.assert_allclose(host_optimize.nnls(A, b, maxiter=50)[0], so.nnls(A, b, maxiter=50)[0], atol=1e-10)


def test_errors(host_optimize):
    nnls = host_optimize.nnls
    with pytest.raises(ValueError, match="Expected a 2D array"):
        nnls(np.ones(3), np.ones(3))
    with pytest.raises(ValueError, match="Expected a 1D array"):
        nnls(np.ones((3, 2)), np.ones((3, 2)))
    with pytest.raises(ValueError, match="Incompatible dimensions"):
        nnls(np.ones((3, 2)), np.ones(4))
    with pytest.raises(ValueError, match="must not contain infs or NaNs"):
        nnls(np.array([[1.0, np.nan]]), np.ones(1))
    rng = np.random.default_rng()
    A = rng.standard_normal((40, 12))
    b = A @ rng.standard_normal(12) + 0.1 * rng.standard_normal(40)  # some coefficients positive: least >= 2
    # the iteration count is SciPy's (every least-squares solve) on a tall problem, where the
    # active-set path is the same: the smallest maxiter that succeeds is SciPy's
    least = next(k for k in range(1, 100) if _succeeds(so.nnls, A, b, k))
    with pytest.raises(RuntimeError, match="Maximum number of iterations reached"):
        nnls(A, b, maxiter=least - 1)
    np.testing.assert_allclose(nnls(A, b, maxiter=least)[0], so.nnls(A, b)[0], atol=1e-10)


def _succeeds(f, A, b, k):
    try:
        f(A, b, maxiter=k)
    except RuntimeError:
        return False
    return True


def test_signature():
    import cuarray.scipy.optimize as ours

    want = ["A", "b", "maxiter"]  # SciPy 1.18's (1.17 adds the deprecated no-op `atol`)
    got = inspect.signature(ours.nnls)
    assert list(got.parameters) == want
    ref = [p for p in inspect.signature(so.nnls).parameters if p != "atol"]
    assert ref == want
    assert got.parameters["maxiter"].kind == inspect.Parameter.KEYWORD_ONLY
