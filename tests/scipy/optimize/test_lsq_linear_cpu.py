"""lsq_linear ('trf' and 'bvls'; the exact solver on a QR of A, lsmr on dense, sparse and
LinearOperator A): the real loops with NumPy standing in for the device routines, against
scipy.optimize.lsq_linear on fresh random problems. The matrices are tall Gaussian ones (m >= 3n:
cond(A) below ~4, a unique minimizer), so any correct run stops near the same x: the loops stop
on tol = 1e-10 (the first-order measure or the relative cost change), which leaves x within about
cond(A) * sqrt(1e-10) ~ 1e-5 of the minimizer at worst; the exact solvers are observed to agree
to 1e-14 and lsmr (its own tolerance 1e-12) to 1e-9. The status and iteration counts follow
which test is met first at its edge, so they are compared only on SciPy's documented examples."""

import inspect

import numpy as np
import pytest
import scipy.optimize as so
import scipy.sparse as sp
from scipy.optimize._lsq.lsq_linear import TERMINATION_MESSAGES
from scipy.sparse.linalg import aslinearoperator

from lsq_compare import EXACT, LSMR, problem as _problem, raises_as_scipy, same_active


def _operand(A, form):
    return {"dense": A, "sparse": sp.csr_array(A), "operator": aslinearoperator(A)}[form]


def _same_solution(r, ref, atol, bounds=(-np.inf, np.inf)):
    np.testing.assert_allclose(r.x, ref.x, rtol=0, atol=atol)
    # the cost is first order in x along the active bounds (|g| there up to ~30, the cost ~10): lsmr's
    # variables on a bound can sit 1e-9 off it
    np.testing.assert_allclose(r.cost, ref.cost, rtol=1e-12 if atol <= EXACT else 1e-8)
    np.testing.assert_allclose(r.fun, ref.fun, rtol=0, atol=10 * atol * max(1.0, np.abs(ref.fun).max()))
    same_active(r, ref, bounds, atol)
    assert r.success and ref.success, (r.message, ref.message)
    assert r.message == TERMINATION_MESSAGES[r.status]


@pytest.mark.parametrize("kind", ["active", "lower"])
@pytest.mark.parametrize("method, solver, form", [
    ("trf", None, "dense"), ("bvls", None, "dense"), ("trf", "lsmr", "dense"), ("trf", None, "sparse"),
    ("trf", None, "operator")])
def test_random_problems(host_optimize, method, solver, form, kind):
    rng = np.random.default_rng()
    m, n = (60, 12) if kind == "active" else (45, 15)
    A, b, bounds = _problem(rng, m, n, kind)
    Ain = _operand(A, form)
    kw = dict(bounds=bounds, method=method, lsq_solver=solver)
    r, ref = host_optimize.lsq_linear(Ain, b, **kw), so.lsq_linear(Ain, b, **kw)
    _same_solution(r, ref, EXACT if form == "dense" and solver is None else LSMR, bounds)
    assert np.any(ref.active_mask != 0)  # a bounded case
    assert r.optimality < 1e-6 and r.nit > 0 and isinstance(r.nit, int)
    # the unconstrained solution comes back as SciPy's (lstsq's 4-tuple or lsmr's 8-tuple)
    assert len(r.unbounded_sol) == len(ref.unbounded_sol)
    np.testing.assert_allclose(r.unbounded_sol[0], ref.unbounded_sol[0], rtol=1e-8, atol=1e-10)


@pytest.mark.parametrize("method, solver", [("trf", None), ("bvls", None), ("trf", "lsmr")])
def test_trf_and_bvls_agree_wide(host_optimize, method, solver):
    """m < n: the minimizer need not be unique; the cost is, and x stays inside the bounds."""
    rng = np.random.default_rng()
    A, b = rng.standard_normal((8, 14)), 3 * rng.standard_normal(8)
    lb = rng.uniform(-0.3, 0, 14)
    ub = lb + rng.uniform(0.1, 0.5, 14)
    r = host_optimize.lsq_linear(A, b, bounds=(lb, ub), method=method, lsq_solver=solver)
    ref = so.lsq_linear(A, b, bounds=(lb, ub), method="bvls")
    np.testing.assert_allclose(r.cost, ref.cost, rtol=1e-8)
    # BVLS's step to the first bound met lands on it to rounding (SciPy's too)
    assert np.all(r.x >= lb - 1e-14) and np.all(r.x <= ub + 1e-14)


@pytest.mark.parametrize("solver", [None, "lsmr"])
def test_unconstrained_solution_inside_bounds(host_optimize, solver):
    rng = np.random.default_rng()
    A, b, bounds = _problem(rng, 30, 6, "inactive")
    r, ref = (f(A, b, bounds=bounds, lsq_solver=solver) for f in (host_optimize.lsq_linear, so.lsq_linear))
    assert (r.status, r.nit, r.success, r.message) == (ref.status, ref.nit, ref.success, ref.message) == \
        (3, 0, True, "The unconstrained solution is optimal.")
    _same_solution(r, ref, EXACT if solver is None else LSMR, bounds)
    np.testing.assert_allclose(r.optimality, ref.optimality, atol=1e-8)
    assert r.active_mask.dtype == ref.active_mask.dtype
    r = host_optimize.lsq_linear(A, b)  # no bounds
    np.testing.assert_allclose(r.x, np.linalg.lstsq(A, b, rcond=None)[0], atol=1e-12)


def test_scipy_examples(host_optimize):
    """SciPy's docstring examples: the same path, so SciPy's status, nit and active_mask."""
    A = sp.random_array((10**3, 10**2), density=1e-2, rng=np.random.default_rng(0)).tocsr() \
        if hasattr(sp, "random_array") else sp.random(10**3, 10**2, density=1e-2, random_state=0, format="csr")
    rng = np.random.default_rng(0)
    b = rng.standard_normal(10**3)
    lb = rng.standard_normal(10**2)
    kw = dict(bounds=(lb, lb + 1), lsmr_tol="auto")
    r, ref = host_optimize.lsq_linear(A, b, **kw), so.lsq_linear(A, b, **kw)
    np.testing.assert_allclose(r.cost, ref.cost, rtol=1e-9)
    np.testing.assert_allclose(r.x, ref.x, atol=1e-6)
    A = np.array([[0.7, 0.8, 0.8], [1.1, 0.3, 0.2], [0.6, 0.4, 0.6], [0.2, 0.9, 0.6]])
    b = np.array([1.0, 0.5, 0.7, 0.2])
    for method in ("trf", "bvls"):
        kw = dict(bounds=([0.1, 0, -1], [0.4, 1, 1]), method=method)
        r, ref = host_optimize.lsq_linear(A, b, **kw), so.lsq_linear(A, b, **kw)
        _same_solution(r, ref, EXACT, kw["bounds"])
        assert (r.status, r.nit) == (ref.status, ref.nit)


def test_max_iter_and_verbose(host_optimize, capsys):
    rng = np.random.default_rng()
    A, b, bounds = _problem(rng, 40, 10, "active")
    for method in ("trf", "bvls"):
        r = host_optimize.lsq_linear(A, b, bounds=bounds, method=method, max_iter=1)
        ref = so.lsq_linear(A, b, bounds=bounds, method=method, max_iter=1)
        assert r.nit == ref.nit and (r.status == 0) == (ref.status == 0)
    capsys.readouterr()
    host_optimize.lsq_linear(A, b, bounds=bounds, verbose=2)
    ours = capsys.readouterr().out.splitlines()
    so.lsq_linear(A, b, bounds=bounds, verbose=2)
    theirs = capsys.readouterr().out.splitlines()
    assert ours[0] == theirs[0] and ours[-2] == theirs[-2]  # the header and the message
    assert ours[-1].startswith("Number of iterations ") and len(ours) > 3


def _raises_as_scipy(host_optimize, A, b, **kw):
    raises_as_scipy(host_optimize.lsq_linear, so.lsq_linear, A, b, **kw)


@pytest.mark.parametrize("kw", [
    {"method": "dogbox"}, {"lsq_solver": "qr"}, {"verbose": 3}, {"method": "bvls", "lsq_solver": "lsmr"},
    {"max_iter": 0}, {"bounds": ([0, 0], [1, 1])}, {"bounds": (0, 1, 2)}, {"bounds": ([0, 0, 0], [0, 1, 1])},
    {"lsmr_maxiter": 0}, {"lsmr_tol": -1.0}, {"lsmr_tol": "x"}, {"lsmr_tol": 1},
])
def test_bad_input_as_scipy(host_optimize, kw):
    _raises_as_scipy(host_optimize, np.ones((4, 3)), np.ones(4), **kw)


def test_bad_shapes_as_scipy(host_optimize):
    _raises_as_scipy(host_optimize, np.ones((4, 3)), np.ones(5))
    _raises_as_scipy(host_optimize, np.ones((4, 3)), np.ones((4, 1)))
    _raises_as_scipy(host_optimize, np.ones((2, 4, 3)), np.ones(4))
    _raises_as_scipy(host_optimize, sp.csr_array(np.eye(3)), np.ones(3), method="bvls")
    _raises_as_scipy(host_optimize, sp.csr_array(np.eye(3)), np.ones(3), lsq_solver="exact")
    _raises_as_scipy(host_optimize, aslinearoperator(np.eye(3)), np.ones(3), method="bvls")


def test_signature():
    import cuarray.scipy.optimize as ours

    assert inspect.signature(ours.lsq_linear) == inspect.signature(so.lsq_linear)
