"""Every sampler against its exact distribution (scipy.stats): 10**6 draws per case, the mean
within 6 standard errors of the true mean, and a goodness-of-fit test -- Kolmogorov-Smirnov for
continuous laws, chi-square on bins of expected count >= 20 for discrete ones -- over three fixed
seeds. Threshold: every p-value > 1e-5 (a correct sampler fails one of the ~150 tests with
probability ~0.15%; a wrong algorithm gives p-values below 1e-30 at this size)."""

from __future__ import annotations

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402

stats = pytest.importorskip("scipy.stats")

N = 10**6
SEEDS = (1, 2, 3)
P_MIN = 1e-5

# (method, args, kwargs, scipy frozen distribution)
CONTINUOUS = [
    ("random", (), {}, lambda: stats.uniform()),
    ("random", (), {"dtype": np.float32}, lambda: stats.uniform()),
    ("uniform", (2.0, 5.0), {}, lambda: stats.uniform(2, 3)),
    ("standard_normal", (), {}, lambda: stats.norm()),
    ("standard_normal", (), {"dtype": np.float32}, lambda: stats.norm()),
    ("normal", (1.0, 2.0), {}, lambda: stats.norm(1, 2)),
    ("standard_exponential", (), {}, lambda: stats.expon()),
    ("standard_exponential", (), {"dtype": np.float32}, lambda: stats.expon()),
    ("exponential", (2.0,), {}, lambda: stats.expon(scale=2)),
    ("standard_gamma", (0.5,), {}, lambda: stats.gamma(0.5)),
    ("standard_gamma", (3.0,), {"dtype": np.float32}, lambda: stats.gamma(3.0)),
    ("gamma", (2.0, 3.0), {}, lambda: stats.gamma(2.0, scale=3.0)),
    ("gamma", (0.05, 1.0), {}, lambda: stats.gamma(0.05)),
    ("beta", (0.5, 0.5), {}, lambda: stats.beta(0.5, 0.5)),
    ("beta", (2.0, 5.0), {}, lambda: stats.beta(2, 5)),
    ("chisquare", (3.0,), {}, lambda: stats.chi2(3)),
    ("noncentral_chisquare", (3.0, 2.0), {}, lambda: stats.ncx2(3, 2)),
    ("noncentral_chisquare", (0.5, 1.0), {}, lambda: stats.ncx2(0.5, 1)),
    ("f", (5.0, 7.0), {}, lambda: stats.f(5, 7)),
    ("noncentral_f", (5.0, 7.0, 2.0), {}, lambda: stats.ncf(5, 7, 2)),
    ("standard_t", (4.0,), {}, lambda: stats.t(4)),
    ("standard_cauchy", (), {}, lambda: stats.cauchy()),
    ("gumbel", (1.0, 2.0), {}, lambda: stats.gumbel_r(1, 2)),
    ("laplace", (1.0, 2.0), {}, lambda: stats.laplace(1, 2)),
    ("logistic", (1.0, 2.0), {}, lambda: stats.logistic(1, 2)),
    ("lognormal", (0.5, 0.8), {}, lambda: stats.lognorm(0.8, scale=np.exp(0.5))),
    ("rayleigh", (2.0,), {}, lambda: stats.rayleigh(scale=2)),
    ("weibull", (1.5,), {}, lambda: stats.weibull_min(1.5)),
    ("pareto", (3.0,), {}, lambda: stats.lomax(3)),
    ("power", (2.5,), {}, lambda: stats.powerlaw(2.5)),
    ("triangular", (0.0, 1.0, 4.0), {}, lambda: stats.triang(0.25, 0, 4)),
    ("vonmises", (0.0, 2.0), {}, lambda: stats.vonmises(2.0)),  # scipy does not wrap a shifted mu
    ("vonmises", (3.0, 0.5), {}, lambda: _wrapped_vonmises(3.0, 0.5)),
    ("vonmises", (0.0, 1e-9), {}, lambda: stats.uniform(-np.pi, 2 * np.pi)),
    ("wald", (1.0, 2.0), {}, lambda: stats.invgauss(0.5, scale=2.0)),
]

DISCRETE = [
    ("poisson", (3.0,), lambda: stats.poisson(3.0)),
    ("poisson", (50.0,), lambda: stats.poisson(50.0)),
    ("poisson", (1e5,), lambda: stats.poisson(1e5)),
    ("binomial", (20, 0.3), lambda: stats.binom(20, 0.3)),
    ("binomial", (1000, 0.4), lambda: stats.binom(1000, 0.4)),
    ("binomial", (100, 0.97), lambda: stats.binom(100, 0.97)),
    ("negative_binomial", (5.0, 0.4), lambda: stats.nbinom(5, 0.4)),
    ("geometric", (0.2,), lambda: stats.geom(0.2)),
    ("hypergeometric", (20, 30, 15), lambda: stats.hypergeom(50, 20, 15)),
    ("logseries", (0.7,), lambda: stats.logser(0.7)),
    ("zipf", (2.5,), lambda: stats.zipf(2.5)),
    ("integers", (0, 10), lambda: stats.randint(0, 10)),
]


class _wrapped_vonmises:
    """von Mises(mu, kappa) folded onto [-pi, pi), as NumPy returns it."""

    def __init__(self, mu, kappa):
        self.d = stats.vonmises(kappa)
        self.mu = mu

    def cdf(self, x):  # scipy's von Mises cdf grows by 1 per turn beyond [-pi, pi]
        return self.d.cdf(x - self.mu) - self.d.cdf(-np.pi - self.mu)

    def mean(self):
        return np.nan  # not checked (circular)

    def var(self):
        return np.nan


def _ids(table):
    return ["{}{}{}".format(t[0], t[1], "-f32" if len(t) == 4 and t[2] else "") for t in table]


def _mean_ok(x, dist):
    m, v = dist.mean(), dist.var()
    if not (np.isfinite(m) and np.isfinite(v)):
        return True
    return abs(x.mean() - m) < 6 * np.sqrt(v / x.size) + 1e-12


@pytest.mark.parametrize("method,args,kw,dist", CONTINUOUS, ids=_ids(CONTINUOUS))
def test_continuous(method, args, kw, dist):
    d = dist()
    for seed in SEEDS:
        x = getattr(cuarray.random.default_rng(seed), method)(*args, size=N, **kw).get()
        assert x.dtype == np.dtype(kw.get("dtype", np.float64))
        assert np.isfinite(x).all()
        x = x.astype(np.float64)
        assert _mean_ok(x, d), (seed, x.mean(), d.mean())
        p = stats.kstest(x, d.cdf).pvalue
        assert p > P_MIN, (seed, p)


def _chisq_pvalue(x, dist):
    lo, hi = int(dist.ppf(1e-7)), int(dist.isf(1e-7)) + 1
    ks = np.arange(lo, hi + 1)
    expected = x.size * dist.pmf(ks)
    keep = ks[expected >= 20]
    a, b = keep.min(), keep.max()
    inner = np.bincount(x[(x >= a) & (x <= b)] - a, minlength=b - a + 1)
    obs = [np.sum(x < a)] + list(inner) + [np.sum(x > b)]
    exp = [x.size * dist.cdf(a - 1)] + list(x.size * dist.pmf(np.arange(a, b + 1))) + [x.size * dist.sf(b)]
    obs, exp = np.array(obs, float), np.array(exp, float)
    m = exp >= 1e-3
    exp = exp[m] * obs[m].sum() / exp[m].sum()
    return stats.chisquare(obs[m], exp).pvalue


@pytest.mark.parametrize("method,args,dist", DISCRETE, ids=_ids(DISCRETE))
def test_discrete(method, args, dist):
    d = dist()
    for seed in SEEDS:
        x = getattr(cuarray.random.default_rng(seed), method)(*args, size=N).get()
        assert x.dtype == np.int64
        assert _mean_ok(x, d), (seed, x.mean(), d.mean())
        p = _chisq_pvalue(x, d)
        assert p > P_MIN, (seed, p)


def test_gamma_extremes_finite():
    g = cuarray.random.default_rng(0)
    assert float(g.standard_gamma(0.0, size=10).max()) == 0.0
    x = g.standard_gamma(1e-3, size=10**5).get()
    assert (x >= 0).all() and np.isfinite(x).all()
    assert g.binomial(0, 0.5, size=5).get().tolist() == [0] * 5
    assert g.binomial(7, 1.0, size=5).get().tolist() == [7] * 5
    assert g.poisson(0.0, size=5).get().tolist() == [0] * 5
    assert g.geometric(1.0, size=5).get().tolist() == [1] * 5


def test_dirichlet_and_multinomial():
    g = cuarray.random.default_rng(1)
    alpha = cuarray.asarray(np.array([1.0, 2.0, 3.0]))
    x = g.dirichlet(alpha, size=200000).get()
    assert x.shape == (200000, 3) and np.allclose(x.sum(axis=1), 1)
    assert np.allclose(x.mean(axis=0), [1 / 6, 2 / 6, 3 / 6], atol=3e-3)
    pv = cuarray.asarray(np.array([0.2, 0.3, 0.5]))
    m = g.multinomial(100, pv, size=100000).get()
    assert m.shape == (100000, 3) and m.dtype == np.int64 and (m.sum(axis=1) == 100).all()
    assert np.allclose(m.mean(axis=0), [20, 30, 50], atol=0.15)
    with pytest.raises(ValueError, match="alpha < 0"):
        g.dirichlet(cuarray.asarray(np.array([1.0, -1.0])))


@pytest.mark.parametrize("method", ["svd", "eigh", "cholesky"])
def test_multivariate_normal(method):
    """Sample mean and covariance against the parameters (2e5 draws of 3 correlated variables)."""
    rng = np.random.default_rng(7)
    m = rng.standard_normal((3, 3))
    cov = m @ m.T + 0.5 * np.eye(3)
    mean = np.array([1.0, -2.0, 0.5])
    g = cuarray.random.default_rng(11)
    x = g.multivariate_normal(cuarray.asarray(mean), cuarray.asarray(cov), size=200000, method=method).get()
    assert x.shape == (200000, 3) and x.dtype == np.float64
    scale = np.sqrt(np.diag(cov))
    assert np.all(np.abs(x.mean(axis=0) - mean) < 5 * scale / np.sqrt(200000))
    assert np.allclose(np.cov(x.T), cov, atol=0.03 * scale.max() ** 2)
    one = g.multivariate_normal(cuarray.asarray(mean), cuarray.asarray(cov), method=method)
    assert one.shape == (3,)
    assert g.multivariate_normal(cuarray.asarray(mean), cuarray.asarray(cov), size=(4, 5), method=method).shape == (4, 5, 3)


def test_multivariate_normal_bad_covariance():
    g = cuarray.random.default_rng(0)
    mean, bad = cuarray.asarray(np.zeros(2)), cuarray.asarray(np.array([[1.0, 2.0], [2.0, 1.0]]))
    with pytest.warns(RuntimeWarning, match="positive-semidefinite"):
        g.multivariate_normal(mean, bad)
    for method in ("svd", "eigh"):
        with pytest.raises(ValueError, match="positive-semidefinite"):
            g.multivariate_normal(mean, bad, check_valid="raise", method=method)
    with pytest.raises(cuarray.linalg.LinAlgError):
        g.multivariate_normal(mean, bad, method="cholesky")
    with pytest.raises(ValueError, match="same length"):
        g.multivariate_normal(cuarray.asarray(np.zeros(3)), cuarray.asarray(np.eye(2)))


@pytest.mark.parametrize("method", ["marginals", "count"])
def test_multivariate_hypergeometric(method):
    g = cuarray.random.default_rng(3)
    colors = [5, 10, 0, 25]
    x = g.multivariate_hypergeometric(colors, 12, size=100000, method=method).get()
    assert x.shape == (100000, 4) and x.dtype == np.int64
    assert (x.sum(axis=1) == 12).all() and (x <= np.array(colors)).all() and (x >= 0).all()
    assert np.allclose(x.mean(axis=0), 12 * np.array(colors) / 40, atol=0.03)
    ref = np.random.default_rng(3).multivariate_hypergeometric(colors, 12, size=100000, method=method)
    assert np.allclose(x.var(axis=0), ref.var(axis=0), rtol=0.05, atol=0.01)
    assert g.multivariate_hypergeometric(colors, 12).shape == (4,)
    assert g.multivariate_hypergeometric([2, 3], 0).get().tolist() == [0, 0]
    assert g.multivariate_hypergeometric([], 0, size=3).shape == (3, 0)
