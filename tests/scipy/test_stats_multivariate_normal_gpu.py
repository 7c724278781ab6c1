"""stats.multivariate_normal on the GPU against scipy.stats.multivariate_normal: fresh random
well-conditioned parameters and device points (densities, singular covariances, SciPy's errors),
the cdf against SciPy in one and two dimensions and against exact probabilities beyond (many
points at once), rvs moments, fit and marginal."""

import math

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

sst = pytest.importorskip("scipy.stats")
from scipy import integrate  # noqa: E402
from scipy.special import ndtr  # noqa: E402

import cuarray  # noqa: E402
from cuarray.scipy import stats  # noqa: E402


def _host(v):
    return np.asarray(v.get() if hasattr(v, "get") else v)


def _spd(rng, n):
    # eigenvalues in [0.5, 3]: condition <= 6
    q, _ = np.linalg.qr(rng.normal(size=(n, n)))
    return (q * rng.uniform(0.5, 3.0, n)) @ q.T


def test_densities_match_scipy():
    rng = np.random.default_rng()
    for n in (1, 2, 3, 5):
        mean, cov = rng.normal(size=n), _spd(rng, n)
        for x in (rng.normal(size=n), rng.normal(size=(40, n)), rng.normal(size=(2, 3, n))):
            # the device's Jacobi eigh against LAPACK's: a few ulp of the condition-6 factor, so
            # the quadratic form (<= ~40 here) and the log-determinant agree to ~1e-13 of them
            got = _host(stats.multivariate_normal.logpdf(cuarray.asarray(x), mean, cov))
            want = sst.multivariate_normal.logpdf(x, mean, cov)
            assert got.shape == np.shape(want), (n, x.shape)
            np.testing.assert_allclose(got, want, rtol=1e-11, atol=1e-11, err_msg=str((n, x.shape)))
            np.testing.assert_allclose(_host(stats.multivariate_normal.pdf(cuarray.asarray(x), mean, cov)),
                                       sst.multivariate_normal.pdf(x, mean, cov), rtol=1e-10, atol=1e-300)
        frozen = stats.multivariate_normal(cuarray.asarray(mean), cuarray.asarray(cov))
        np.testing.assert_allclose(frozen.entropy(), sst.multivariate_normal.entropy(mean, cov), rtol=1e-12)
        np.testing.assert_allclose(_host(frozen.cov), cov, rtol=0, atol=0)


def test_singular_and_errors():
    rng = np.random.default_rng()
    b = rng.normal(size=(3, 2))
    cov, mean = b @ b.T, rng.normal(size=3)
    x = mean + rng.normal(size=(4, 2)) @ b.T
    x[1] += 0.1 * np.cross(b[:, 0], b[:, 1])  # off the support's plane
    got = _host(stats.multivariate_normal.logpdf(cuarray.asarray(x), mean, cov, allow_singular=True))
    want = sst.multivariate_normal.logpdf(x, mean, cov, allow_singular=True)
    assert np.isneginf(got[1])
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-9)  # a rank-2 pseudo-inverse; a log: absolutely near 0
    with pytest.raises(np.linalg.LinAlgError, match="symmetric positive definite"):
        stats.multivariate_normal.pdf(cuarray.asarray(x), mean, cov)
    with pytest.raises(ValueError, match="symmetric positive semidefinite"):
        stats.multivariate_normal.pdf(cuarray.asarray(x[:, :2]), [0, 0], [[1.0, 2.0], [2.0, 1.0]])
    with pytest.raises(TypeError):
        stats.multivariate_normal.pdf(x, mean, np.eye(3))  # host x: the host-input rule


def test_cdf_one_and_two_dimensions():
    rng = np.random.default_rng()
    s, r = rng.uniform(0.5, 2.0, 2), rng.uniform(-0.95, 0.95)
    cov = np.array([[s[0] ** 2, r * s[0] * s[1]], [r * s[0] * s[1], s[1] ** 2]])
    x = np.concatenate([rng.normal(0, 2, (30, 2)), [[0.0, 0.0], [0.0, 1.0], [np.inf, 0.5], [-np.inf, 1.0]]])
    lo = x - rng.uniform(0, 2, x.shape)
    # Owen's T closed form against Genz's: both to a few ulp of a probability
    np.testing.assert_allclose(_host(stats.multivariate_normal.cdf(cuarray.asarray(x), [0.2, 0], cov)),
                               sst.multivariate_normal.cdf(x, [0.2, 0], cov), rtol=0, atol=1e-13)
    np.testing.assert_allclose(
        _host(stats.multivariate_normal.cdf(cuarray.asarray(x[:30]), [0.2, 0], cov, lower_limit=cuarray.asarray(lo[:30]))),
        sst.multivariate_normal.cdf(x[:30], [0.2, 0], cov, lower_limit=lo[:30]), rtol=0, atol=1e-13)
    x1 = rng.normal(size=(5, 1))
    np.testing.assert_allclose(_host(stats.multivariate_normal.cdf(cuarray.asarray(x1), 0.3, 2.0)),
                               sst.multivariate_normal.cdf(x1, 0.3, 2.0), rtol=1e-13)


def _equicorrelated(x, rho):
    """P(X <= x) of unit normals of common correlation rho: X_i = sqrt(rho) Z + sqrt(1 - rho) E_i."""
    def f(z):
        return math.exp(-z * z / 2) / math.sqrt(2 * math.pi) * np.prod(ndtr((x - math.sqrt(rho) * z) / math.sqrt(1 - rho)))
    return integrate.quad(f, -12, 12, epsabs=1e-14, epsrel=1e-12, limit=200)[0]


def test_cdf_estimates_many_points():
    rng = np.random.default_rng()
    for n in (3, 5):
        rho = rng.uniform(0.1, 0.8)
        cov = np.full((n, n), rho) + (1 - rho) * np.eye(n)
        x = rng.normal(0.5, 1.0, (20, n))
        want = np.array([_equicorrelated(xi, rho) for xi in x])
        # est_error is 3 standard errors of 10 batch means: 5 abseps is 15 estimated errors (a
        # Student t_9 past 15: ~1e-7 a point); SciPy's own estimate is as far on its side
        got = _host(stats.multivariate_normal.cdf(cuarray.asarray(x), np.zeros(n), cov, rng=7))
        assert got.shape == (20,)
        np.testing.assert_allclose(got, want, rtol=0, atol=5e-5, err_msg=str((n, rho)))
        np.testing.assert_allclose(got[:3], sst.multivariate_normal.cdf(x[:3], np.zeros(n), cov), rtol=0, atol=1e-4)
        d = rng.uniform(0.5, 2.0, n)  # independent: the estimate is exact
        np.testing.assert_allclose(_host(stats.multivariate_normal.cdf(cuarray.asarray(x), np.zeros(n), d)),
                                   np.prod(ndtr(x / np.sqrt(d)), -1), rtol=1e-12)
    cov = np.full((3, 3), 0.5) + 0.5 * np.eye(3)
    frozen = stats.multivariate_normal(np.zeros(3), cov, seed=1)
    np.testing.assert_allclose(_host(frozen.cdf(cuarray.zeros(3))), 0.25, atol=5e-5)  # 1 / (n + 1)
    lo = cuarray.asarray([-np.inf, -np.inf, 1.0])
    want = _equicorrelated(np.array([0.0, 0.0, 1.0]), 0.5) - 0.25
    np.testing.assert_allclose(_host(frozen.cdf(cuarray.zeros(3), lower_limit=lo)), -want, atol=5e-5)
    assert np.iscomplexobj(_host(frozen.logcdf(cuarray.zeros(3), lower_limit=lo)))


def test_rvs_fit_marginal():
    rng = np.random.default_rng()
    mean, cov = rng.normal(size=3), _spd(rng, 3)
    v = _host(stats.multivariate_normal.rvs(mean, cov, size=4000, random_state=3))
    assert v.shape == (4000, 3)
    # the sample mean within 6 standard errors; the covariance within 0.25 (its entries'
    # standard errors are <= 3 sqrt(2 / 4000) ~ 0.07)
    assert np.all(np.abs(v.mean(0) - mean) < 6 * np.sqrt(np.diag(cov) / 4000))
    assert np.max(np.abs(np.cov(v.T) - cov)) < 0.25
    frozen = stats.multivariate_normal(mean, cov, seed=4)
    assert not np.array_equal(_host(frozen.rvs(2)), _host(frozen.rvs(2)))
    got = stats.multivariate_normal.fit(cuarray.asarray(v))
    for g, w in zip(got, sst.multivariate_normal.fit(v)):
        np.testing.assert_allclose(_host(g), w, rtol=1e-11, atol=1e-13)
    m = frozen.marginal([2, 0])
    np.testing.assert_array_equal(_host(m.cov), cov[np.ix_([2, 0], [2, 0])])
    np.testing.assert_array_equal(_host(m.mean), mean[[2, 0]])


def test_python_lists_as_scipy():
    """Points, mean and cov as Python lists, as SciPy takes them."""
    x, mean, cov = [[0.1, -0.4], [1.0, 2.0]], [0.0, 0.5], [[2.0, 0.3], [0.3, 1.0]]
    np.testing.assert_allclose(stats.multivariate_normal.logpdf(x, mean, cov).get(),
                               sst.multivariate_normal.logpdf(x, mean, cov), rtol=1e-13)
