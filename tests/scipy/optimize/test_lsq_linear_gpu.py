"""cuarray.scipy.optimize.lsq_linear on the device against SciPy's on fresh tall Gaussian problems
(m >= 4n: cond(A) below ~3, a unique minimizer): x, cost and the residuals to the stopping
tolerance's reach (tol = 1e-10 leaves x within ~1e-6 of the minimizer at worst; the host runs of
the same loops agree with SciPy to 1e-12 for the exact solver, 1e-9 for lsmr), dense, sparse and
LinearOperator A, and SciPy's errors. Status and iteration counts follow rounding at the stopping
tests' edges and are not compared."""

from __future__ import annotations

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

so = pytest.importorskip("scipy.optimize")
sp = pytest.importorskip("scipy.sparse")

import cuarray  # noqa: E402
import cuarray.scipy.optimize as co  # noqa: E402
from cuarray import sparse as csparse  # noqa: E402
from cuarray.sparse.linalg import aslinearoperator  # noqa: E402
from lsq_compare import problem, same_active  # noqa: E402


def _get(a):
    return a.get() if isinstance(a, cuarray.ndarray) else np.asarray(a)


@pytest.mark.parametrize("method, solver, form, dtype", [
    ("trf", None, "dense", np.float64), ("bvls", None, "dense", np.float64), ("trf", "lsmr", "dense", np.float64),
    ("trf", None, "sparse", np.float64), ("trf", None, "operator", np.float64),
    # a float32 dense A is solved in float64 (SciPy's on the same float32 values, cast, is the oracle)
    ("trf", None, "dense", np.float32), ("bvls", None, "dense", np.float32)])
def test_random_problems(method, solver, form, dtype):
    rng = np.random.default_rng()
    A, b, bounds = problem(rng, 200, 40, "active")
    A, b = A.astype(dtype), b.astype(dtype)
    dA = cuarray.asarray(A)
    Ain = {"dense": dA, "sparse": csparse.csr_matrix(dA), "operator": aslinearoperator(dA)}[form]
    ref_A = {"dense": A, "sparse": sp.csr_array(A), "operator": A}[form]
    r = co.lsq_linear(Ain, cuarray.asarray(b), bounds=bounds, method=method, lsq_solver=solver)
    ref = so.lsq_linear(ref_A.astype(np.float64), b.astype(np.float64), bounds=bounds, method=method,
                        lsq_solver=solver)
    assert isinstance(r.x, cuarray.ndarray) and isinstance(r.fun, cuarray.ndarray) and isinstance(r.cost, float)
    assert r.success, r.message
    atol = 1e-6  # tol's reach on x (see the module's docstring)
    np.testing.assert_allclose(r.x.get(), ref.x, rtol=0, atol=atol, err_msg=f"{r.message} / {ref.message}")
    # the cost is first order in x along the active bounds (|g| there up to ~30, the cost ~10)
    np.testing.assert_allclose(r.cost, ref.cost, rtol=1e-6)
    np.testing.assert_allclose(r.fun.get(), ref.fun, rtol=0, atol=1e-4)  # |A dx| <= sqrt(m) |A|_max |dx|
    x = r.x.get()
    assert np.all(x >= bounds[0] - 1e-12) and np.all(x <= bounds[1] + 1e-12)
    assert _get(r.active_mask).shape == (40,) and np.any(ref.active_mask != 0)
    same_active(r, ref, bounds, atol)
    np.testing.assert_allclose(_get(r.unbounded_sol[0]), ref.unbounded_sol[0], rtol=1e-6, atol=1e-8)


def test_unconstrained_and_no_bounds():
    rng = np.random.default_rng()
    A = rng.standard_normal((100, 10))
    b = rng.standard_normal(100)
    r = co.lsq_linear(cuarray.asarray(A), cuarray.asarray(b))
    ref = so.lsq_linear(A, b)
    assert (r.status, r.nit, r.success) == (ref.status, ref.nit, ref.success) == (3, 0, True)
    np.testing.assert_allclose(r.x.get(), ref.x, atol=1e-12)
    np.testing.assert_allclose(r.cost, ref.cost, rtol=1e-12)
    assert r.unbounded_sol[2] == ref.unbounded_sol[2] == 10


def test_errors_as_scipy():
    A, b = np.ones((4, 3)), np.ones(4)
    for kw in ({"method": "dogbox"}, {"lsq_solver": "qr"}, {"method": "bvls", "lsq_solver": "lsmr"},
               {"bounds": ([0, 0], [1, 1])}, {"bounds": ([0, 0, 0], [0, 1, 1])}, {"max_iter": 0}):
        with pytest.raises(ValueError) as ref:
            so.lsq_linear(A, b, **kw)
        with pytest.raises(ValueError) as ours:
            co.lsq_linear(cuarray.asarray(A), cuarray.asarray(b), **kw)
        assert str(ours.value) == str(ref.value), kw
    with pytest.raises(ValueError, match="Inconsistent shapes between `A` and `b`"):
        co.lsq_linear(cuarray.asarray(A), cuarray.ones(5))
    with pytest.raises(ValueError, match="can't be used with `A` being sparse"):
        co.lsq_linear(csparse.csr_matrix(cuarray.eye(3)), cuarray.ones(3), method="bvls")
