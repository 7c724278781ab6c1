"""stats.dirichlet on the GPU against scipy.stats.dirichlet: fresh random alpha and device x
(K and K - 1 rows, one point and many), the moments, SciPy's errors, the frozen object, rvs."""

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

sst = pytest.importorskip("scipy.stats")
from scipy.special import gammaln  # noqa: E402

import cuarray  # noqa: E402
from cuarray.scipy import stats  # noqa: E402


def _host(v):
    return np.asarray(v.get() if hasattr(v, "get") else v)


def test_values_match_scipy():
    rng = np.random.default_rng()
    for k in (2, 3, 5):
        alpha = rng.uniform(0.3, 6.0, k)
        x = rng.dirichlet(alpha, 6).T
        for xs in (x, x[:-1], x[:, 0], x[:-1, 0]):
            got, want = _host(stats.dirichlet.logpdf(cuarray.asarray(xs), alpha)), sst.dirichlet.logpdf(xs, alpha)
            # the sum of (alpha - 1) log x and of gammaln's: the device's log and gammaln to a few
            # ulp of each term, so the bound is relative to the terms' magnitude, not the sum's
            full = xs if xs.shape[0] == k else np.concatenate([xs, [1 - xs.sum(0)]])  # SciPy's last row
            terms = np.abs((alpha - 1) * np.log(full).T).T.sum(0) + np.abs(gammaln(alpha)).sum() \
                + abs(gammaln(alpha.sum()))
            assert got.shape == np.shape(want)
            np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-13 * np.max(terms), err_msg=str((k, xs.shape)))
            np.testing.assert_allclose(_host(stats.dirichlet.pdf(cuarray.asarray(xs), alpha)),  # exp of it
                                       sst.dirichlet.pdf(xs, alpha), rtol=1e-12 + 2e-13 * np.max(terms))
        for m in ("mean", "var", "cov"):
            np.testing.assert_allclose(_host(getattr(stats.dirichlet, m)(cuarray.asarray(alpha))),
                                       getattr(sst.dirichlet, m)(alpha), rtol=1e-14, atol=1e-16, err_msg=m)
        np.testing.assert_allclose(_host(stats.dirichlet(alpha).entropy()), sst.dirichlet.entropy(alpha),
                                   rtol=1e-11, atol=1e-12)


def test_errors_rvs_frozen():
    with pytest.raises(ValueError, match="normal simplex"):
        stats.dirichlet.pdf(cuarray.asarray([0.2, 0.3, 0.6]), [1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="greater than zero if its alpha"):
        stats.dirichlet.pdf(cuarray.asarray([0.0, 0.3, 0.7]), [0.5, 2.0, 3.0])
    with pytest.raises(ValueError, match="All parameters"):
        stats.dirichlet.mean(cuarray.asarray([1.0, 0.0]))
    with pytest.raises(TypeError):
        stats.dirichlet.pdf(np.array([0.2, 0.8]), [1.0, 2.0])  # host x: the host-input rule
    v = _host(stats.dirichlet.rvs([1.0, 2.0, 3.0], size=(400,), random_state=3))
    assert v.shape == (400, 3) and np.allclose(v.sum(-1), 1.0)
    # the sample mean within 6 standard errors of alpha / alpha0
    se = np.sqrt(sst.dirichlet.var([1.0, 2.0, 3.0]) / 400)
    assert np.all(np.abs(v.mean(0) - sst.dirichlet.mean([1.0, 2.0, 3.0])) < 6 * se)
    frozen = stats.dirichlet([1.0, 2.0], seed=4)
    assert not np.array_equal(_host(frozen.rvs(3)), _host(frozen.rvs(3)))


def test_python_lists_as_scipy():
    """x and alpha as Python lists, as SciPy takes them."""
    x, alpha = [0.2, 0.3, 0.5], [1.5, 2.0, 3.0]
    np.testing.assert_allclose(float(stats.dirichlet.logpdf(x, alpha)), sst.dirichlet.logpdf(x, alpha), rtol=1e-13)
