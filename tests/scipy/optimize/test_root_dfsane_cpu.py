"""root(method='df-sane') (the real spectral residual loop and its nonmonotone line searches, NumPy
standing in for the device routines) against SciPy's: the La Cruz-Raydan benchmark problems of
SciPy's own tests with their iteration limits, fresh random well-conditioned systems (the roots
compared within what the residual test and the Jacobian's smallest singular value allow, since the
two runs round differently), complex problems, options, statuses and errors."""

import itertools

import numpy as np
import pytest
import scipy.optimize as so
from test_root_krylov_cpu import dominant  # tests/scipy/optimize is on sys.path


def F_1(x, n):
    i = np.arange(2, n + 1)
    return np.concatenate([[np.exp(x[0] - 1) - 1], i * (np.exp(x[1:] - 1) - x[1:])])


def F_2(x, n):
    i = np.arange(2, n + 1)
    return np.concatenate([[np.exp(x[0]) - 1], 0.1 * i * (np.exp(x[1:]) + x[:-1] - 1)])


def F_6(x, n):
    mu = (np.arange(1, n + 1) - 0.5) / n
    return x - 1 / (1 - 0.9 / (2 * n) * (mu[:, None] * x / (mu[:, None] + mu)).sum(axis=1))


def F_10(x, n):
    return np.log(1 + x) - x / n


# (F, x0, n, nit, nfev): the limits of the papers and of dfsane.f that SciPy's test asserts
TABLE = [(F_1, lambda n: np.full(n, n / (n - 1)), 1000, 5, 5), (F_2, lambda n: np.full(n, 1 / n ** 2), 500, 11, 11),
         (F_6, np.ones, 100, 6, 6), (F_10, np.ones, 1000, 5, 5)]


@pytest.mark.parametrize("line_search", ["cruz", "cheng"])
def test_benchmarks_within_scipys_limits(host_optimize, line_search):
    # SciPy's test_performance: scale invariance of the iteration over x and F scalings
    for (F, x0f, n, nit, nfev), (xs, ys) in itertools.product(TABLE, [(1.0, 1.0), (1e-10, 1e10), (1e10, 1.0)]):
        def func(x, n):
            return ys * F(x / xs, n)

        x0 = x0f(n) * xs
        fatol = np.sqrt(n) * 1e-5 * ys + 1e-4 * np.linalg.norm(func(x0, n))
        opts = dict(ftol=0, fatol=fatol, maxfev=nfev + 1, sigma_0=xs / ys, sigma_eps=1e-10 * min(ys / xs, xs / ys),
                    line_search=line_search)
        with np.errstate(over="ignore"):
            r = host_optimize.root(func, x0, args=(n,), method="DF-SANE", options=opts)
        msg = (F.__name__, xs, ys, r.nit, r.nfev, r.message)
        assert r.success and r.nfev <= nfev + 1 and r.nit <= nit, msg
        assert np.linalg.norm(func(r.x, n)) <= fatol, msg
        np.testing.assert_array_equal(r.fun, func(r.x, n))


@pytest.mark.parametrize("line_search,M", [("cruz", 10), ("cruz", 1), ("cheng", 10)])
@pytest.mark.parametrize("sign", [1, -1])
def test_random_systems_as_scipy(host_optimize, line_search, M, sign):
    # the dominant map (Jacobian 3 I + 0.5 G / sqrt(n) + 0.3 diag(sech^2), singular values > 1), or its
    # negative: both reach |F| < ftol |F(x0)|, so |x - x*| <= |F(x)| / 1 for each
    rng = np.random.default_rng()
    n = int(rng.integers(3, 40))
    fp, sigma = dominant(rng, n)

    def f(x):
        return sign * fp(x)

    x0 = rng.standard_normal(n)
    opts = {"line_search": line_search, "M": M, "ftol": 1e-10}
    r = host_optimize.root(f, x0, method="df-sane", options=opts)
    e = so.root(f, x0, method="df-sane", options=opts)
    assert r.success and e.success and r.message == e.message == "successful convergence", (r, e)
    assert r.method == "df-sane" and r.nit >= 1 and r.nfev >= r.nit + 1
    fr, fe = f(r.x), f(e.x)
    assert np.linalg.norm(fr) < 1e-10 * np.linalg.norm(f(x0))
    np.testing.assert_array_equal(r.fun, fr)
    assert np.linalg.norm(r.x - e.x) <= (np.linalg.norm(fr) + np.linalg.norm(fe)) / sigma


def test_complex_and_shapes_as_scipy(host_optimize):
    # z^2 - 1 + 2j from SciPy's test; then a complex linear system A z = b, A = 3 I + 0.5 G / sqrt(n)
    # with G complex Gaussian (singular values > 1), on a (2, n/2) grid
    r = host_optimize.root(lambda z: z ** 2 - 1 + 2j, 2.0j, tol=1e-4, method="df-sane")
    assert r.success and abs(r.x ** 2 - 1 + 2j) <= 1e-4 * abs((2j) ** 2 - 1 + 2j)
    assert r.x.dtype == np.complex128 and r.x.shape == ()
    rng = np.random.default_rng()
    n = 2 * int(rng.integers(2, 15))
    a = 3 * np.eye(n) + 0.5 * (rng.standard_normal((n, n)) + 1j * rng.standard_normal((n, n))) / np.sqrt(2 * n)
    b = rng.standard_normal(n) + 1j * rng.standard_normal(n)

    def f(z):
        return (a @ z.ravel() - b).reshape(2, -1)

    seen = []
    r = host_optimize.root(f, np.zeros((2, n // 2), complex), method="df-sane", options={"ftol": 1e-12},
                           callback=lambda x, fx: seen.append((x.dtype, fx.shape)))
    assert r.success and r.x.shape == (2, n // 2) and r.fun.dtype == np.complex128
    np.testing.assert_allclose(r.x.ravel(), np.linalg.solve(a, b), rtol=0, atol=2e-12 * np.linalg.norm(b))
    # the callback sees SciPy's real view: float64, 2 n entries
    assert seen[0] == (np.float64, (2 * n,)) and len(seen) == r.nit + 1
    for dt in (float, complex):  # SciPy's test_shape
        r = host_optimize.root(lambda x, arg: x - arg, np.zeros((2, 2)), args=(np.ones((2, 2), dt),),
                               method="DF-SANE")
        assert r.success and r.x.shape == (2, 2)


def test_options_statuses_and_errors(host_optimize, capsys):
    rng = np.random.default_rng()
    n = 12
    f, _ = dominant(rng, n)
    x0 = rng.standard_normal(n)
    # maxfev: both stop after exactly maxfev calls of fun, unconverged
    for mod in (host_optimize, so):
        r = mod.root(f, x0, method="df-sane", options={"maxfev": 4, "ftol": 0, "fatol": 0})
        assert (r.success, r.message, r.nfev) == (False, "too many function evaluations required", 4), r
    # a max-norm, an eta of our own, sigma_0, root's tol (as ftol)
    calls = []

    def eta(k, x, F):
        calls.append(k)
        return 0.5 ** k

    r = host_optimize.root(f, x0, method="df-sane", options={"fnorm": lambda F: np.abs(F).max(), "fatol": 1e-9,
                                                              "ftol": 0, "eta_strategy": eta, "sigma_0": 0.3})
    assert r.success and np.abs(f(r.x)).max() < 1e-9 and calls == list(range(r.nit))
    r = host_optimize.root(f, x0, method="df-sane", tol=1e-6)
    assert r.success and np.linalg.norm(f(r.x)) < 1e-6 * np.linalg.norm(f(x0))
    r = host_optimize.root(f, x0, method="df-sane", options={"disp": True})
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == r.nit + 1 and lines[0].startswith("iter 0: ||F|| = ") and ", sigma = 1" in lines[0]
    x = host_optimize.root(lambda x: x * x - 4, np.ones(3, np.float32), method="df-sane").x
    assert x.dtype == np.float32
    np.testing.assert_allclose(np.abs(x), 2, rtol=1e-6)  # +-2, whichever the search reaches
    for mod in (host_optimize, so):
        with pytest.raises(ValueError, match="Invalid value 'bogus' for 'line_search'"):
            mod.root(f, x0, method="df-sane", options={"line_search": "bogus"})
        with pytest.warns(RuntimeWarning, match="Method df-sane does not use the jacobian"):
            mod.root(f, x0, method="df-sane", jac=lambda x: np.eye(n))
        with pytest.warns(so.OptimizeWarning, match="Unknown solver options: bogus"):
            mod.root(f, x0, method="df-sane", options={"bogus": 1})
