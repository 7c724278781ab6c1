"""cuarray.scipy.integrate's Radau and BDF on the device against scipy.integrate's on the host, on
stiff problems (Robertson, Van der Pol mu = 1000, a linear system with a known solution, a complex
one for BDF): the solutions at t_eval agree within what rtol allows (rounding may change the
steps, so nfev is not compared), with the Jacobian as a callable, a device array or forward
differences; dense output; bad input gets SciPy's exceptions."""

from __future__ import annotations

import importlib.util
import pathlib

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

si = pytest.importorskip("scipy.integrate")

import cuarray  # noqa: E402
from cuarray.scipy import integrate as ci  # noqa: E402


def _load(name):
    spec = importlib.util.spec_from_file_location("integrate_gpu_" + name, pathlib.Path(__file__).parent / (name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SP = _load("stiff_problems")
HOST, A = SP.problems(np)
RTOL, ATOL = 1e-6, 1e-9
METHODS = ["Radau", "BDF"]


@pytest.fixture(scope="module")
def dev():
    """The problems on the device (built at run time: collection needs no device)."""
    problems, a = SP.problems(cuarray)
    return problems, a


def H(x):
    return cuarray.asnumpy(x)


def close(res, ref, tol=1e3):
    """Within tol times the local error allowance of SciPy's solution (see the CPU test)."""
    assert res.status == ref.status == 0 and res.success, res.message
    assert isinstance(res.y, cuarray.ndarray) and res.y.shape == ref.y.shape, (res.y.shape, ref.y.shape)
    np.testing.assert_array_equal(H(res.t), ref.t)
    np.testing.assert_allclose(H(res.y), ref.y, rtol=tol * RTOL, atol=tol * ATOL)


CASES = [("robertson", "callable"), ("robertson", "fd"), ("vdp1000", "callable"), ("linear", "array"),
         ("linear", "fd")]


@pytest.mark.parametrize("name,jac", CASES)
@pytest.mark.parametrize("method", METHODS)
def test_stiff_problems_match_scipy(dev, method, name, jac):
    DEV, A_DEV = dev
    fun, jac_fun, t_span, y0, t_eval, exact = DEV[name]
    hfun, hjac = HOST[name][:2]
    dj, hj = {"callable": (jac_fun, hjac), "fd": (None, None), "array": (A_DEV, A)}[jac]
    kw = dict(method=method, rtol=RTOL, atol=ATOL, t_eval=t_eval)
    res = ci.solve_ivp(fun, t_span, cuarray.asarray(y0), jac=dj, **kw)
    ref = si.solve_ivp(hfun, t_span, np.array(y0), jac=hj, **kw)
    close(res, ref)
    assert res.nlu >= 1 and res.nfev > 0
    if exact is not None:
        np.testing.assert_allclose(H(res.y), exact(t_eval), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("method", METHODS)
def test_dense_output_and_backward(dev, method):
    DEV, A_DEV = dev
    fun, _, _, y0, _, exact = DEV["linear"]
    res = ci.solve_ivp(fun, [0, 3], cuarray.asarray(y0), method=method, rtol=RTOL, atol=ATOL, jac=A_DEV,
                       dense_output=True)
    assert res.njev == 0
    tq = np.sort(np.random.default_rng().uniform(0, 3, 9))
    np.testing.assert_allclose(H(res.sol(tq)), exact(tq), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(H(res.sol(cuarray.asarray(tq))), exact(tq), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(H(res.sol(float(tq[0]))), exact(tq[:1])[:, 0], rtol=1e-4, atol=1e-5)
    y3 = cuarray.asarray(exact(np.array([3.0]))[:, 0])
    back = ci.solve_ivp(fun, [3, 0], y3, method=method, rtol=1e-8, atol=1e-10, jac=A_DEV, t_eval=[3.0, 2.9])
    np.testing.assert_allclose(H(back.y), exact(np.array([3.0, 2.9])), rtol=1e-5, atol=1e-9)


def test_bdf_complex():
    lam = np.array([-1 + 10j, -1e3 + 1j, -5e3])
    lam_d = cuarray.asarray(lam)
    y0 = np.random.default_rng().normal(size=3) + 1j
    t_eval = np.linspace(0, 2, 5)
    res = ci.solve_ivp(lambda t, y: lam_d * y, [0, 2], cuarray.asarray(y0), method="BDF", rtol=RTOL, atol=ATOL,
                       t_eval=t_eval)
    ref = si.solve_ivp(lambda t, y: lam * y, [0, 2], y0, method="BDF", rtol=RTOL, atol=ATOL, t_eval=t_eval)
    assert res.y.dtype == np.complex128
    close(res, ref)
    np.testing.assert_allclose(H(res.y), y0[:, None] * np.exp(lam[:, None] * t_eval), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("method", METHODS)
def test_bad_input(dev, method):
    DEV = dev[0]
    fun, _, _, y0, _, _ = DEV["linear"]
    y0 = cuarray.asarray(y0)
    with pytest.raises(ValueError, match="`jac` is expected to have shape"):
        ci.solve_ivp(fun, [0, 1], y0, method=method, jac=cuarray.eye(2))
    with pytest.raises(ValueError, match="`jac` is expected to have shape"):
        ci.solve_ivp(fun, [0, 1], y0, method=method, jac=lambda t, y: cuarray.eye(4))
    if method == "Radau":
        with pytest.raises(ValueError, match="complex"):
            ci.solve_ivp(fun, [0, 1], y0 + 1j, method=method)


@pytest.mark.parametrize("method", METHODS)
def test_jac_sparsity_and_sparse_jac(method):
    """`jac_sparsity` (host array or cuarray sparse) groups the difference columns; a cuarray
    sparse `jac` is taken: both reach SciPy's solution, the Jacobian kept sparse as SciPy keeps it
    (SuperLU): cuDSS's LU where cuDSS is installed, else gtsv2's solves (it is tridiagonal)."""
    from cuarray import sparse
    from cuarray.cuda.libs import cudss

    n = 40
    d2 = (n + 1) ** 2
    J = (np.eye(n, k=-1) - 2 * np.eye(n) + np.eye(n, k=1)) * d2

    def make(xp):
        def fun(t, y):
            z = xp.zeros((1,) + y.shape[1:])
            p = xp.concatenate([z, y, z])
            return (p[:-2] - 2 * p[1:-1] + p[2:]) * d2 + float(np.sin(t))
        return fun
    # y away from 0: the differences' increments are sqrt(eps) |y|, their rounding error in J about
    # eps |f| / (sqrt(eps) |y|), under 1e-4 of J's entries here
    y0 = np.random.default_rng().uniform(0.5, 1, n)
    kw = dict(method=method, rtol=RTOL, atol=ATOL, t_eval=np.linspace(0, 0.2, 5))
    ref = si.solve_ivp(make(np), [0, 0.2], y0, jac=J, **kw)
    Jd = cuarray.asarray(J)
    for jkw in (dict(jac_sparsity=J != 0, vectorized=True), dict(jac_sparsity=sparse.csr_matrix(Jd)),
                dict(jac=sparse.csr_matrix(Jd)), dict(jac=lambda t, y: sparse.csr_matrix(Jd))):
        res = ci.solve_ivp(make(cuarray), [0, 0.2], cuarray.asarray(y0), **kw, **jkw)
        close(res, ref)
        solver = getattr(ci, method)(make(cuarray), 0, cuarray.asarray(y0), 0.2,
                                     **{k: v for k, v in jkw.items() if k != "vectorized"})
        assert sparse.issparse(solver.J) and solver.J.shape == (n, n)
        assert solver.sparse_lu_kind == ("cudss" if cudss.available() else "tridiagonal")
        np.testing.assert_allclose(cuarray.asnumpy(solver.J.toarray()), J, rtol=1e-5, atol=1e-3)


@pytest.mark.parametrize("n", [1, 2, 3, 50, 20000])
@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_tridiagonal_lu_without_cudss(n, dtype):
    """The iteration matrix's solve without cuDSS (`TridiagonalLU`, gtsv2; n <= 2 the dense path)
    equals LAPACK's banded solve on the host: a diagonally dominant tridiagonal matrix (diagonal
    4 + [-1, 1], off diagonals of size <= 1), condition number below 3, so 1e-12 is many times
    its rounding."""
    import scipy.linalg
    import scipy.sparse

    from cuarray import sparse
    from cuarray.scipy.integrate._sparse_jac import TridiagonalLU

    rng = np.random.default_rng()

    def draw(size):
        x = rng.uniform(-1, 1, size)
        return (x + 1j * rng.uniform(-1, 1, size)) / 2 if dtype == np.complex128 else x
    a = scipy.sparse.diags([draw(n - 1), 4 + draw(n), draw(n - 1)], [-1, 0, 1], format="csc") if n > 1 else \
        scipy.sparse.csc_matrix(4 + draw(1)[:, None])
    b = draw(n)
    ab = np.zeros((3, n), dtype=dtype)
    ab[0, 1:], ab[1], ab[2, :-1] = a.diagonal(1), a.diagonal(0), a.diagonal(-1)
    want = scipy.linalg.solve_banded((1, 1), ab, b)
    lu = TridiagonalLU.of(sparse.csc_matrix((cuarray.asarray(a.data), cuarray.asarray(a.indices),
                                          cuarray.asarray(a.indptr)), shape=a.shape))
    got = cuarray.asnumpy(lu.solve(cuarray.asarray(b)))
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("method", METHODS)
def test_large_tridiagonal_without_cudss(method):
    """A 1e6-point heat equation's first mode (tridiagonal sparse `jac`) by the solve used without
    cuDSS (the solver's `sparse_lu_kind` set as `_implicit` sets it where cuDSS is absent): a few
    steps at rtol 1e-6 stay within 1e-4 of the exact decay exp(lam t) (BDF's/Radau's local errors
    are about rtol |y| a step); no n x n matrix is made (1e6 x 1e6 would not fit)."""
    from cuarray import sparse

    n = 10**6
    d2 = float((n + 1) ** 2)
    x = np.arange(1, n + 1) / (n + 1)
    J = sparse.diags([d2, -2.0 * d2, d2], [-1, 0, 1], shape=(n, n), format="csc")
    lam = -4 * d2 * np.sin(np.pi / (2 * (n + 1))) ** 2
    y0 = cuarray.asarray(np.sin(np.pi * x))
    solver = getattr(ci, method)(lambda t, y: J @ y, 0.0, y0, 1.0, jac=J, rtol=RTOL, atol=ATOL)
    solver.sparse_lu_kind = "tridiagonal"
    for _ in range(3):
        solver.step()
        assert solver.status == "running"
    np.testing.assert_allclose(cuarray.asnumpy(solver.y), np.sin(np.pi * x) * np.exp(lam * solver.t), rtol=1e-4, atol=1e-9)
