"""stats.multivariate_normal without a GPU: the modules run with NumPy and scipy.special standing
in for the cuarray routines (tests/scipy/stats_distn_host.py) and are compared with
scipy.stats.multivariate_normal on fresh random parameters and points: densities, entropy,
SciPy's errors and singular covariances, the cdf's pieces against SciPy's private ones (the
reordered Cholesky factor, the lattice sums on the same shifts, the lattice generator) and its
estimates against exact probabilities, rvs, fit, marginal and the signatures."""

import inspect
import math

import numpy as np
import pytest

sst = pytest.importorskip("scipy.stats")
from scipy import integrate  # noqa: E402
from scipy.special import ndtr  # noqa: E402
from scipy.stats import _qmvnt  # noqa: E402
from scipy.stats._qmvnt_cy import _qmvn_inner  # noqa: E402


@pytest.fixture(scope="module")
def mvn(distn_host):
    return distn_host["_multivariate_normal"].multivariate_normal


@pytest.fixture(scope="module")
def qmvn(distn_host):
    return distn_host["_qmvn"]


def _spd(rng, n):
    # eigenvalues in [0.5, 3]: condition <= 6, so the densities keep ~14 digits either way
    q, _ = np.linalg.qr(rng.normal(size=(n, n)))
    return (q * rng.uniform(0.5, 3.0, n)) @ q.T


def test_densities_match_scipy(mvn):
    rng = np.random.default_rng()
    for n in (1, 2, 3, 5):
        mean, cov = rng.normal(size=n), _spd(rng, n)
        for x in (rng.normal(size=n), rng.normal(size=(4, n)), rng.normal(size=(2, 3, n))):
            # numpy's and LAPACK's eigh differ in rounding: the quadratic form (terms <= ~30)
            # and the log-determinant agree to a few ulp of the terms
            for m in ("logpdf", "pdf"):
                got, want = getattr(mvn, m)(x, mean, cov), getattr(sst.multivariate_normal, m)(x, mean, cov)
                np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-13, err_msg=str((m, n, x.shape)))
                assert np.shape(got) == np.shape(want)
        frozen, ref = mvn(mean, cov), sst.multivariate_normal(mean, cov)
        x = rng.normal(size=(3, n))
        np.testing.assert_allclose(frozen.logpdf(x), ref.logpdf(x), rtol=1e-12)
        np.testing.assert_allclose(frozen.entropy(), ref.entropy(), rtol=1e-13)
        np.testing.assert_allclose(mvn.entropy(mean, cov), ref.entropy(), rtol=1e-13)
        assert frozen.dim == ref.dim and np.array_equal(frozen.cov, ref.cov) and np.array_equal(frozen.mean, ref.mean)
    # scalar and 1-D parameters (SciPy's dim rules), 1-D x of a 1-D distribution
    x = rng.normal(size=5)
    np.testing.assert_allclose(mvn.logpdf(x, 0.5, 2.0), sst.multivariate_normal.logpdf(x, 0.5, 2.0), rtol=1e-13)
    np.testing.assert_allclose(mvn.pdf(x[:3], [0, 1, 2], [1, 2, 3]), sst.multivariate_normal.pdf(x[:3], [0, 1, 2], [1, 2, 3]),
                               rtol=1e-13)
    np.testing.assert_allclose(mvn.logpdf(x[:3], cov=2.0 * np.eye(3)), sst.multivariate_normal.logpdf(x[:3], cov=2.0 * np.eye(3)),
                               rtol=1e-13)


def test_singular_covariance(mvn):
    # rank 2 in 3-D: points off the plane get -inf/0, on it the pseudo-determinant density
    rng = np.random.default_rng()
    b = rng.normal(size=(3, 2))
    cov, mean = b @ b.T, rng.normal(size=3)
    x = mean + rng.normal(size=(4, 2)) @ b.T
    x[1] += 0.1 * np.cross(b[:, 0], b[:, 1])
    got, want = mvn.logpdf(x, mean, cov, allow_singular=True), sst.multivariate_normal.logpdf(x, mean, cov, allow_singular=True)
    assert np.isneginf(got[1]) and np.isneginf(want[1])
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10)  # a rank-2 pseudo-inverse; a log: absolutely near 0
    assert mvn.pdf(x, mean, cov, allow_singular=True)[1] == 0.0
    np.testing.assert_allclose(mvn.entropy(mean, cov), sst.multivariate_normal.entropy(mean, cov), rtol=1e-10)
    assert mvn(mean, cov, allow_singular=True).cov_object.rank == 2


def _error(fn, *args, **kw):
    try:
        fn(*args, **kw)
    except Exception as exc:  # noqa: BLE001 (SciPy's type and message are what is compared)
        return type(exc), str(exc)
    return None


@pytest.mark.parametrize("kw", [
    dict(mean=[0.0, 0.0], cov=[[1.0, 1.0], [1.0, 1.0]]),                 # singular, not allowed
    dict(mean=[0.0, 0.0], cov=[[1.0, 2.0], [2.0, 1.0]]),                 # indefinite
    dict(mean=[0.0, 0.0], cov=np.eye(3)),                                 # dimension mismatch
    dict(mean=[0.0, 0.0], cov=np.ones((2, 3))),                           # not square
    dict(mean=[0.0, 0.0], cov=np.ones((2, 2, 2))),                        # 3-D
    dict(mean=[[0.0, 0.0]], cov=np.eye(2)),                               # 2-D mean
    dict(mean=[0.0, 0.0], cov=[[1.0, np.nan], [np.nan, 1.0]]),            # not finite
    dict(mean=[0.0, 0.0], cov=[[1.0, 1.0], [1.0, 1.0]], allow_singular=True),  # fine
])
def test_errors_are_scipys(mvn, kw):
    x = np.array([0.3, -0.2])
    want = _error(sst.multivariate_normal.logpdf, x, **kw)
    assert _error(mvn.logpdf, x, **kw) == want
    if want is None:
        np.testing.assert_allclose(mvn.logpdf(x, **kw), sst.multivariate_normal.logpdf(x, **kw), rtol=1e-12)


def test_cdf_pieces_match_scipys(qmvn):
    rng = np.random.default_rng()
    for n in (3, 4, 6):
        cov = _spd(rng, n)
        hi = rng.normal(size=n)
        lo = np.where(rng.random(n) < 0.5, -np.inf, hi - rng.uniform(0.5, 3.0, n))
        cho, l2, h2 = qmvn.permuted_cholesky(cov, lo[None], hi[None])
        c1, l1, h1 = _qmvnt._permuted_cholesky(cov, lo, hi)
        # the same elimination in the same order: rounding of a condition-6 factor
        np.testing.assert_allclose(cho[0], c1, rtol=1e-12, atol=1e-13)
        np.testing.assert_allclose(l2[0], l1, rtol=1e-12, atol=1e-13)
        np.testing.assert_allclose(h2[0], h1, rtol=1e-12, atol=1e-13)
        q, m = _qmvnt._cbc_lattice(n - 1, 400)
        rndm = rng.random(size=(10, n))
        p1, e1, n1 = _qmvn_inner(q, rndm, int(m), 10, c1, l1, h1)
        p2, e2, n2 = qmvn.qmvn_inner(q, rndm[None], m, cho, l2, h2)
        # the same sums of the same products; ndtri near 0/1 amplifies the factor's rounding
        np.testing.assert_allclose(p2[0], p1, rtol=1e-10, atol=1e-15)
        np.testing.assert_allclose(e2[0], e1, rtol=1e-6, atol=1e-15)
        assert n2 == n1
    for dim, m in ((3, 797), (5, 1234), (2, 200)):  # sizes where numpy.fft's argmin ties match scipy.fft's
        q1, p1 = _qmvnt._cbc_lattice(dim, m)
        q2, p2 = qmvn.cbc_lattice(dim, m)
        assert p1 == p2 and np.allclose(q1, q2, rtol=0, atol=1e-15), (dim, m, q1, q2)


def test_bivariate_is_scipys(mvn):
    with np.errstate(all="ignore"):  # NumPy's warnings of inf - inf in branches `where` drops
        _bivariate(mvn)


def _bivariate(mvn):
    rng = np.random.default_rng()
    s = rng.uniform(0.5, 2.0, 2)
    for r in (rng.uniform(-0.99, 0.99), 0.0, 0.999):
        cov = np.array([[s[0] ** 2, r * s[0] * s[1]], [r * s[0] * s[1], s[1] ** 2]])
        x = np.concatenate([rng.normal(0, 2, (20, 2)), [[0.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [np.inf, 0.5], [-np.inf, 1.0]]])
        lo = x - rng.uniform(0, 2, x.shape)
        # Owen's T closed form against Genz's series: both to a few ulp of the probability
        np.testing.assert_allclose(mvn.cdf(x, [0, 0], cov), sst.multivariate_normal.cdf(x, [0, 0], cov), rtol=0, atol=1e-14)
        got = mvn.cdf(x[:20], [0.1, 0], cov, lower_limit=lo[:20])
        np.testing.assert_allclose(got, sst.multivariate_normal.cdf(x[:20], [0.1, 0], cov, lower_limit=lo[:20]), atol=1e-14)
    x = rng.normal(size=(4, 1))
    np.testing.assert_allclose(mvn.cdf(x, 0.3, 2.0), sst.multivariate_normal.cdf(x, 0.3, 2.0), rtol=1e-14)


def _equicorrelated(x, rho):
    """P(X <= x) of unit normals of common correlation rho: X_i = sqrt(rho) Z + sqrt(1 - rho) E_i."""
    def f(z):
        return math.exp(-z * z / 2) / math.sqrt(2 * math.pi) * np.prod(ndtr((x - math.sqrt(rho) * z) / math.sqrt(1 - rho)))
    return integrate.quad(f, -12, 12, epsabs=1e-14, epsrel=1e-12, limit=200)[0]


def test_cdf_estimates_are_exact_within_abseps(mvn):
    rng = np.random.default_rng()
    for n in (3, 5):
        rho = rng.uniform(0.1, 0.8)
        cov = np.full((n, n), rho) + (1 - rho) * np.eye(n)
        x = rng.normal(0.5, 1.0, (3, n))
        want = [_equicorrelated(xi, rho) for xi in x]
        # est_error is 3 standard errors of 10 batch means: 5 abseps is 15 estimated errors, a
        # Student t with 9 degrees of freedom past 15 has probability ~1e-7
        got = mvn.cdf(x, np.zeros(n), cov, abseps=1e-5)
        np.testing.assert_allclose(got, want, rtol=0, atol=5e-5, err_msg=str((n, rho)))
        np.testing.assert_allclose(mvn.logcdf(x[0], np.zeros(n), cov), math.log(want[0]), atol=5e-5 / want[0])
        # independent components: the reordered integrand is constant, the estimate exact
        d = rng.uniform(0.5, 2.0, n)
        np.testing.assert_allclose(mvn.cdf(x, np.zeros(n), d), np.prod(ndtr(x / np.sqrt(d)), -1), rtol=1e-13)
    # orthant of equicorrelation 1/2: 1 / (n + 1); one end swapped: the sign flips, log complex
    cov = np.full((3, 3), 0.5) + 0.5 * np.eye(3)
    np.testing.assert_allclose(mvn.cdf(np.zeros(3), np.zeros(3), cov), 0.25, atol=5e-5)
    lo = np.array([-np.inf, -np.inf, 1.0])
    frozen = mvn(np.zeros(3), cov, seed=1)
    got = frozen.cdf(np.zeros(3), lower_limit=lo)
    want = _equicorrelated(np.array([0.0, 0.0, 1.0]), 0.5) - 0.25
    np.testing.assert_allclose(got, -want, atol=5e-5)
    assert np.iscomplexobj(frozen.logcdf(np.zeros(3), lower_limit=lo))


def test_rvs_fit_marginal_and_signatures(mvn):
    rng = np.random.default_rng()
    mean, cov = rng.normal(size=3), _spd(rng, 3)
    v = mvn.rvs(mean, cov, size=4000, random_state=3)
    assert v.shape == (4000, 3)
    # sample mean within 6 standard errors; sample covariance within 0.25 (4000 draws: its
    # entries' standard errors are <= 3 sqrt(2 / 4000) ~ 0.07)
    assert np.all(np.abs(v.mean(0) - mean) < 6 * np.sqrt(np.diag(cov) / 4000))
    assert np.max(np.abs(np.cov(v.T) - cov)) < 0.25
    assert mvn.rvs(mean, cov).shape == (3,) and mvn.rvs(0.0, 2.0, size=(2, 5)).shape == (2, 5)
    frozen = mvn(mean, cov, seed=4)
    assert not np.array_equal(frozen.rvs(2), frozen.rvs(2))  # one generator, as SciPy's frozen
    for got, want in zip(mvn.fit(v), sst.multivariate_normal.fit(v)):
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-14)
    assert _error(mvn.fit, v, fix_cov=-np.eye(3)) == _error(sst.multivariate_normal.fit, v, fix_cov=-np.eye(3))
    assert _error(mvn.fit, v, fix_mean=[1, 2]) == _error(sst.multivariate_normal.fit, v, fix_mean=[1, 2])
    m1, m2 = mvn.marginal([2, 0], mean, cov), sst.multivariate_normal.marginal([2, 0], mean, cov)
    np.testing.assert_array_equal(m1.cov, m2.cov)
    np.testing.assert_array_equal(frozen.marginal(-1).mean, sst.multivariate_normal(mean, cov).marginal(-1).mean)
    for dims in ([0, 0], [3], [], [0.5]):
        assert _error(mvn.marginal, dims, mean, cov) == _error(sst.multivariate_normal.marginal, dims, mean, cov)
    from cuarray.scipy import stats

    for m in ("logpdf", "pdf", "cdf", "logcdf", "rvs", "entropy", "fit", "marginal"):
        assert inspect.signature(getattr(stats.multivariate_normal, m)) == \
            inspect.signature(getattr(sst.multivariate_normal, m)), m
    assert inspect.signature(stats.multivariate_normal) == inspect.signature(sst.multivariate_normal)
    from cuarray.scipy.stats._multivariate_normal import multivariate_normal_frozen as ours
    from scipy.stats._multivariate import multivariate_normal_frozen as theirs

    for m in ("__init__", "logpdf", "pdf", "cdf", "logcdf", "rvs", "entropy", "marginal"):
        assert inspect.signature(getattr(ours, m)) == inspect.signature(getattr(theirs, m)), m
