"""broyden1, broyden2, root(method='broyden1'|'broyden2'|'df-sane') on the device against SciPy's:
fresh random well-conditioned systems (the dominant map A x + 0.3 tanh(x) - b, A = 3 I + 0.5 G / sqrt(n),
singular values above 1, or its negative), complex and float32 problems, options, statuses and
errors. Device sums round differently from NumPy's, so the iterations differ: roots are compared
within what the residual test and the smallest singular value allow (|x - x*| <= |F(x)|_2 / sigma),
never nit or nfev (except where a count stops the run)."""

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

F_TOL = np.finfo(np.float64).eps ** (1 / 3)  # SciPy's default for the Broyden methods: |F|_max <= f_tol


def dominant(rng, n, sign=1.0, dtype=np.float64):
    """sign * (A x + 0.3 tanh(x) - b): the host and the device versions, and sigma = 1."""
    a = (3 * np.eye(n) + 0.5 * rng.standard_normal((n, n)) / np.sqrt(n)).astype(dtype)
    b = rng.standard_normal(n).astype(dtype)
    ad, bd = cuarray.asarray(a), cuarray.asarray(b)
    return (lambda x: sign * (a @ x + 0.3 * np.tanh(x) - b)), (lambda x: sign * (ad @ x + 0.3 * cuarray.tanh(x) - bd))


def _close_roots(x, e, fh, sigma=1.0):
    fr, fe = fh(x), fh(e)
    bound = (np.linalg.norm(fr) + np.linalg.norm(fe)) / sigma
    assert np.linalg.norm(x - e) <= bound, (np.linalg.norm(x - e), bound)


@pytest.mark.parametrize("method,reduction,max_rank", [("broyden1", "restart", None), ("broyden2", "simple", 4),
                                                       ("broyden1", "svd", 5), ("broyden2", ("svd", 2), 5)])
def test_broyden_root_as_scipy(method, reduction, max_rank):
    # -f: a Jacobian near -3 I, of the sign of Broyden's starting -1/alpha
    rng = np.random.default_rng()
    n = int(rng.integers(5, 30))  # the sizes the CPU copy's tests draw
    fh, fd = dominant(rng, n, -1.0)
    x0 = rng.standard_normal(n)
    opts = {"jac_options": {"reduction_method": reduction, "max_rank": max_rank}}
    r = co.root(fd, cuarray.asarray(x0), method=method, options=opts)
    e = so.root(fh, x0, method=method, options=opts)
    assert isinstance(r.x, cuarray.ndarray) and isinstance(r.fun, cuarray.ndarray)
    assert r.success and e.success and r.status == e.status == 1 and r.message == e.message, (r.message, e.message)
    assert r.method == method and r.nit >= 1 and r.nfev >= r.nit
    x = r.x.get()
    assert np.abs(fh(x)).max() <= F_TOL
    np.testing.assert_allclose(r.fun.get(), fh(x), rtol=0, atol=1e-9)
    _close_roots(x, e.x, fh)


@pytest.mark.parametrize("name", ["broyden1", "broyden2"])
def test_broyden_functions_grid_float32_and_errors(name):
    rng = np.random.default_rng()
    fh, fd = dominant(rng, 6, -1.0)
    x0 = rng.standard_normal((2, 3))
    x = getattr(co, name)(lambda z: fd(z.ravel()).reshape(2, 3), cuarray.asarray(x0), alpha=0.2)
    e = getattr(so, name)(lambda z: fh(z.ravel()).reshape(2, 3), x0, alpha=0.2)
    assert isinstance(x, cuarray.ndarray) and x.shape == e.shape == (2, 3)
    assert np.abs(fh(x.get().ravel())).max() <= F_TOL
    _close_roots(x.get().ravel(), e.ravel(), fh)
    # float32: the iterate stays float32; |F| reaches 1e-4 above the float32 rounding of F (~1e-5)
    fh32, fd32 = dominant(rng, 8, -1.0, np.float32)
    x = getattr(co, name)(fd32, cuarray.zeros(8, dtype=cuarray.float32), f_tol=1e-4)
    assert x.dtype == np.float32 and np.abs(fh32(x.get())).max() <= 1e-4
    with pytest.raises(ValueError, match="Unknown rank reduction method 'bogus'"):
        getattr(co, name)(fd, cuarray.zeros(6), reduction_method="bogus")
    with pytest.raises(co.NoConvergence):
        getattr(co, name)(lambda z: cuarray.exp(z) + 1, cuarray.ones(3), maxiter=2)


@pytest.mark.parametrize("line_search,sign", [("cruz", 1.0), ("cheng", -1.0)])
def test_df_sane_as_scipy(line_search, sign):
    rng = np.random.default_rng()
    n = int(rng.integers(5, 40))  # the sizes the CPU copy's tests draw
    fh, fd = dominant(rng, n, sign)
    x0 = rng.standard_normal(n)
    opts = {"line_search": line_search, "ftol": 1e-10}
    r = co.root(fd, cuarray.asarray(x0), method="df-sane", options=opts)
    e = so.root(fh, x0, method="df-sane", options=opts)
    assert isinstance(r.x, cuarray.ndarray) and isinstance(r.fun, cuarray.ndarray)
    assert r.success and e.success and r.message == e.message == "successful convergence", (r.message, e.message)
    assert r.method == "df-sane" and r.nfev >= r.nit + 1
    x = r.x.get()
    assert np.linalg.norm(fh(x)) < 1e-10 * np.linalg.norm(fh(x0))
    _close_roots(x, e.x, fh)


def test_df_sane_complex_float32_and_errors():
    # A z = b, A = 3 I + 0.5 G / sqrt(2 n), G complex Gaussian: singular values above 1
    rng = np.random.default_rng()
    n = 12
    a = 3 * np.eye(n) + 0.5 * (rng.standard_normal((n, n)) + 1j * rng.standard_normal((n, n))) / np.sqrt(2 * n)
    b = rng.standard_normal(n) + 1j * rng.standard_normal(n)
    ad, bd = cuarray.asarray(a), cuarray.asarray(b)
    r = co.root(lambda z: ad @ z - bd, cuarray.zeros(n, dtype=cuarray.complex128), method="df-sane",
                options={"ftol": 1e-12})
    assert r.success and r.x.dtype == np.complex128 and r.x.shape == (n,)
    np.testing.assert_allclose(r.x.get(), np.linalg.solve(a, b), rtol=0, atol=2e-12 * np.linalg.norm(b))
    r = co.root(lambda z: z ** 2 - 1 + 2j, cuarray.asarray(2.0j), tol=1e-4, method="df-sane")
    assert r.success and abs(complex(r.x.get()) ** 2 - 1 + 2j) <= 1e-4 * abs(-5 + 2j)
    fh, fd = dominant(rng, 8, 1.0, np.float32)
    r = co.root(fd, cuarray.zeros(8, dtype=cuarray.float32), method="df-sane", options={"ftol": 1e-5})
    assert r.success and r.x.dtype == np.float32
    assert np.linalg.norm(fh(r.x.get())) < 1e-5 * np.linalg.norm(fh(np.zeros(8, np.float32)))
    r = co.root(fd, cuarray.zeros(8, dtype=cuarray.float32), method="df-sane",
                options={"maxfev": 3, "ftol": 0, "fatol": 0})
    assert (r.success, r.message, r.nfev) == (False, "too many function evaluations required", 3)
    with pytest.raises(ValueError, match="Invalid value 'bogus' for 'line_search'"):
        co.root(fd, cuarray.zeros(8), method="df-sane", options={"line_search": "bogus"})
