"""cuarray.scipy.optimize.nnls on the device against SciPy's on fresh random problems of full
column rank (a unique solution): x and the residual norm to the conditioning's accuracy, float32
and integer inputs, SciPy's errors."""

from __future__ import annotations

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

so = pytest.importorskip("scipy.optimize")

import cuarray  # noqa: E402
import cuarray.scipy.optimize as co  # noqa: E402


@pytest.mark.parametrize("shape", [(30, 8), (16, 16), (2000, 150)])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_random_problems(shape, dtype):
    rng = np.random.default_rng()
    m, n = shape
    A = (rng.standard_normal((m, n)) + (3 * np.eye(m, n) if m == n else 0)).astype(dtype)
    b = (A @ rng.standard_normal(n) + rng.standard_normal(m)).astype(dtype)
    x, rn = co.nnls(cuarray.asarray(A), cuarray.asarray(b))
    xr, rr = so.nnls(A, b)
    assert isinstance(x, cuarray.ndarray) and x.dtype == np.float64 and isinstance(rn, float)
    # normal equations: an error about cond(A)^2 eps, cond(A) below ~10 on these shapes
    np.testing.assert_allclose(x.get(), xr, rtol=1e-8, atol=1e-9)
    assert rn == pytest.approx(rr, rel=1e-9)
    assert (x.get() >= 0).all()


def test_edges_and_errors():
    A = cuarray.asarray([[1.0, 0], [1, 0], [0, 1]])
    x, rn = co.nnls(A, cuarray.asarray([2.0, 1, 1]))
    np.testing.assert_allclose(x.get(), [1.5, 1.0], atol=1e-14)
    assert rn == pytest.approx(0.7071067811865475, rel=1e-14)
    x, rn = co.nnls(A, cuarray.asarray([-1, -1, -1]))  # integers: float64, as SciPy
    np.testing.assert_array_equal(x.get(), [0.0, 0.0])
    with pytest.raises(ValueError, match="Incompatible dimensions"):
        co.nnls(A, cuarray.ones(4))
    with pytest.raises(ValueError, match="must not contain infs or NaNs"):
        co.nnls(cuarray.asarray([[1.0, np.inf]]), cuarray.ones(1))
    with pytest.raises(TypeError):
        co.nnls(np.ones((3, 2)), np.ones(3))  # host data is refused, as everywhere in cuarray
