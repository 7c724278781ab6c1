"""root(method='krylov') and newton_krylov on the device against SciPy's: fresh random well-conditioned
systems (a 1-D and a 2-D Bratu problem, diagonally dominant nonlinear maps), each inner solver,
float32, the result on the device, and SciPy's errors. Device sums round differently from NumPy's, so
the Krylov iterations differ: the roots are compared within what the residual test and the
Jacobian's smallest singular value allow (|x - x*| <= |F(x)|_2 / sigma_min), never nit or nfev."""

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

F_TOL = np.finfo(np.float64).eps ** (1 / 3)  # SciPy's default: |F|_max <= f_tol


def bratu(xp, n, lam):
    """u'' + lam e^u = 0, u(0) = u(1) = 0 at n interior points; for lam <= 1.5 the Jacobian's
    singular values stay above pi^2 - 1.5 e^0.3 > 7 near the root."""
    h2 = (1.0 / (n + 1)) ** 2

    def f(u):
        p = xp.pad(u, 1)
        return (p[2:] - 2 * u + p[:-2]) / h2 + lam * xp.exp(u)

    return f


def bratu2d(xp, lam, h):
    """The same on the unit square (five-point Laplacian): singular values above 2 pi^2 - 3 e^0.3 > 10
    for lam <= 3."""

    def f(u):
        p = xp.pad(u, 1)
        return (p[2:, 1:-1] + p[:-2, 1:-1] + p[1:-1, 2:] + p[1:-1, :-2] - 4 * u) / h ** 2 + lam * xp.exp(u)

    return f


def dominant(rng, n, symmetric=False, dtype=np.float64):
    """f = A x + 0.3 tanh(x) - b, A = 3 I + 0.5 G / sqrt(n): singular values above 1. Returns the
    host and device versions."""
    g = rng.standard_normal((n, n))
    if symmetric:
        g = (g + g.T) / 2
    a = (3 * np.eye(n) + 0.5 * g / np.sqrt(n)).astype(dtype)
    b = rng.standard_normal(n).astype(dtype)
    ad, bd = cuarray.asarray(a), cuarray.asarray(b)
    return (lambda x: a @ x + 0.3 * np.tanh(x) - b), (lambda x: ad @ x + 0.3 * cuarray.tanh(x) - bd)


def _same_root(r, e, fh, sigma):
    assert isinstance(r.x, cuarray.ndarray) and isinstance(r.fun, cuarray.ndarray)
    assert r.success and e.success and r.status == e.status == 1, (r.message, e.message)
    assert r.message == e.message and r.method == e.method and r.nit >= 1 and r.nfev >= r.nit
    x = r.x.get()
    fr, fe = fh(x), fh(e.x)
    assert np.abs(fr).max() <= F_TOL, np.abs(fr).max()
    np.testing.assert_allclose(r.fun.get(), fr.ravel(), rtol=0, atol=1e-9)
    bound = (np.linalg.norm(fr) + np.linalg.norm(fe)) / sigma
    assert np.linalg.norm(x - e.x) <= bound, (np.linalg.norm(x - e.x), bound)


@pytest.mark.parametrize("inner,line_search", [("lgmres", "armijo"), ("bicgstab", "wolfe"), ("cgs", None)])
def test_bratu_as_scipy(inner, line_search):
    rng = np.random.default_rng()
    n, lam = int(rng.integers(30, 60)), float(rng.uniform(0.3, 1.5))
    opts = {"line_search": line_search, "jac_options": {"method": inner}}
    r = co.root(bratu(cuarray, n, lam), cuarray.zeros(n), method="krylov", options=opts)
    e = so.root(bratu(np, n, lam), np.zeros(n), method="krylov", options=opts)
    _same_root(r, e, bratu(np, n, lam), 7.0)


@pytest.mark.parametrize("inner,symmetric", [("gmres", False), ("tfqmr", False), ("minres", True)])
def test_dominant_map_as_scipy(inner, symmetric):
    rng = np.random.default_rng()
    n = int(rng.integers(20, 100))
    fh, fd = dominant(rng, n, symmetric)
    x0 = rng.standard_normal(n)
    opts = {"jac_options": {"method": inner}}
    r = co.root(fd, cuarray.asarray(x0), method="krylov", options=opts)
    e = so.root(fh, x0, method="krylov", options=opts)
    _same_root(r, e, fh, 1.0)


def test_newton_krylov_2d_callback_and_norm():
    rng = np.random.default_rng()
    nx, ny = (int(v) for v in rng.integers(6, 14, 2))
    lam, h = float(rng.uniform(0.5, 3)), 1 / (max(nx, ny) + 1)
    seen = []
    x = co.newton_krylov(bratu2d(cuarray, lam, h), cuarray.zeros((nx, ny)),
                         callback=lambda x, f: seen.append(isinstance(x, cuarray.ndarray) and x.shape == (nx * ny,)))
    e = so.newton_krylov(bratu2d(np, lam, h), np.zeros((nx, ny)))
    assert isinstance(x, cuarray.ndarray) and x.shape == (nx, ny) and seen and all(seen)
    fh = bratu2d(np, lam, h)
    fr, fe = fh(x.get()), fh(e)
    assert np.abs(fr).max() <= F_TOL
    assert np.linalg.norm(x.get() - e) <= (np.linalg.norm(fr) + np.linalg.norm(fe)) / 10
    # the termination norm may be the caller's, on the device
    x = co.newton_krylov(bratu2d(cuarray, lam, h), cuarray.zeros((nx, ny)), tol_norm=cuarray.linalg.norm, f_tol=1e-7)
    assert np.linalg.norm(fh(x.get())) <= 1e-7


def test_float32():
    rng = np.random.default_rng()
    fh, fd = dominant(rng, 30, dtype=np.float32)
    x = co.newton_krylov(fd, cuarray.zeros(30, dtype=cuarray.float32), f_tol=1e-4)
    assert x.dtype == np.float32
    assert np.abs(fh(x.get())).max() <= 1e-4
    e = so.newton_krylov(lambda x: fh(x.astype(np.float64)), np.zeros(30))
    fr, fe = fh(x.get().astype(np.float64)), fh(e)
    assert np.linalg.norm(x.get() - e) <= np.linalg.norm(fr) + np.linalg.norm(fe)  # sigma >= 1


def test_errors_as_scipy():
    x0 = cuarray.zeros(3)
    with pytest.raises(ValueError, match="Invalid line search"):
        co.root(lambda x: x * x - 1 + x, x0, method="krylov", options={"line_search": "bogus"})
    with pytest.raises(ValueError, match="Unknown parameter foo"):
        co.newton_krylov(lambda x: x * x - 1 + x, x0, foo=1)
    with pytest.raises(ValueError, match="Jacobian inversion yielded zero vector"):
        co.root(lambda x: cuarray.ones(3), x0, method="krylov")
    with pytest.raises(ValueError, match="Function returned non-finite results"):
        co.root(lambda x: cuarray.sqrt(x) - 1, x0, method="krylov")
    with pytest.raises(co.NoConvergence) as info:
        co.newton_krylov(lambda x: cuarray.exp(x) + 1, cuarray.ones((2, 2)), maxiter=2)
    assert isinstance(info.value.args[0], cuarray.ndarray) and info.value.args[0].shape == (2, 2)
    r = co.root(lambda x: x * x - 1 + x, x0, method="krylov", options={"nit": 2})
    assert (r.status, r.success, r.nit) == (2, False, 3), r


@pytest.mark.parametrize("method", ["anderson", "linearmixing", "diagbroyden", "excitingmixing"])
def test_mixing_methods_as_scipy(method):
    # -f of the dominant map: a Jacobian near -3 I, whose sign the scalar and diagonal models share
    rng = np.random.default_rng()
    n = int(rng.integers(10, 60))
    fh, fd = dominant(rng, n)
    x0 = rng.standard_normal(n)
    r = co.root(lambda x: -fd(x), cuarray.asarray(x0), method=method)
    e = so.root(lambda x: -fh(x), x0, method=method)
    assert r.method == e.method == method
    _same_root(r, e, lambda x: -fh(x), 1.0)
    x = getattr(co, method)(lambda x: -fd(x), cuarray.asarray(x0))
    assert isinstance(x, cuarray.ndarray) and np.abs(fh(x.get())).max() <= F_TOL
