"""stats.dirichlet without a GPU: the module runs with NumPy and scipy.special standing in for
the cuarray routines (tests/scipy/stats_distn_host.py) and is compared with scipy.stats.dirichlet
on fresh random alpha and x (K and K - 1 rows, one point and many), SciPy's error messages for
each check, the frozen object, rvs and the signatures."""

import inspect

import numpy as np
import pytest

sst = pytest.importorskip("scipy.stats")


@pytest.fixture(scope="module")
def dirichlet(distn_host):
    return distn_host["_multivariate_dirichlet"].dirichlet


def _close(got, want, what):
    # the same formulas in the same order on NumPy and scipy.special: rounding-level agreement
    # (gammaln and psi of values near their zeros aside: alpha >= 0.3 keeps them away)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-13, atol=1e-13, err_msg=what)
    assert np.shape(got) == np.shape(want), (what, np.shape(got), np.shape(want))


def test_values_match_scipy(dirichlet):
    rng = np.random.default_rng()
    for k in (2, 3, 5):
        alpha = rng.uniform(0.3, 6.0, k)
        x = rng.dirichlet(alpha, 4).T  # (K, n): SciPy's components along the first axis
        for xs in (x, x[:-1], x[:, 0], x[:-1, 0]):
            _close(dirichlet.logpdf(xs, alpha), sst.dirichlet.logpdf(xs, alpha), ("logpdf", k, xs.shape))
            _close(dirichlet.pdf(xs, list(alpha)), sst.dirichlet.pdf(xs, alpha), ("pdf", k, xs.shape))
        for m in ("mean", "var", "cov", "entropy"):
            _close(getattr(dirichlet, m)(alpha), getattr(sst.dirichlet, m)(alpha), (m, k))
        frozen, ref = dirichlet(alpha), sst.dirichlet(alpha)
        _close(frozen.logpdf(x), ref.logpdf(x), "frozen logpdf")
        _close(frozen.cov(), ref.cov(), "frozen cov")
    # a 0 where alpha > 1 (the pdf 0) and alpha = 1 (xlogy's 0 log 0)
    x = np.array([0.0, 0.4, 0.6])
    _close(dirichlet.pdf(x, [2.0, 1.0, 3.0]), sst.dirichlet.pdf(x, [2.0, 1.0, 3.0]), "zero")
    _close(dirichlet.pdf(x, [1.0, 1.0, 3.0]), sst.dirichlet.pdf(x, [1.0, 1.0, 3.0]), "zero, alpha 1")


def _message(fn, *args):
    with pytest.raises(ValueError) as info:
        fn(*args)
    return str(info.value)


@pytest.mark.parametrize("alpha, x", [
    ([1.0, -1.0, 2.0], [0.2, 0.3, 0.5]),          # alpha <= 0
    ([[1.0, 2.0], [3.0, 4.0]], [0.2, 0.8]),       # alpha not 1-D
    ([1.0, 2.0, 3.0], [0.2, 0.3, 0.4, 0.1]),      # x of the wrong length
    ([1.0, 2.0, 3.0], [-0.2, 0.7, 0.5]),          # x < 0
    ([1.0, 2.0, 3.0], [1.2, -0.3, 0.1]),          # x < 0 first, as SciPy
    ([1.0, 2.0, 3.0], [0.2, 0.3, 0.6]),           # off the simplex
    ([0.5, 2.0, 3.0], [0.0, 0.3, 0.7]),           # 0 where alpha < 1
    ([1.0, 2.0, 3.0], [0.2, 0.3]),                # K - 1 rows: the last is 0.5, fine
])
def test_errors_are_scipys(dirichlet, alpha, x):
    x = np.asarray(x)
    try:
        want = sst.dirichlet.logpdf(x, alpha)
    except ValueError as exc:
        assert _message(dirichlet.logpdf, x, alpha) == str(exc)
        return
    _close(dirichlet.logpdf(x, alpha), want, "valid")


def test_rvs_and_signatures(dirichlet):
    v = dirichlet.rvs([1.0, 2.0, 3.0], size=(4, 2), random_state=3)
    assert v.shape == (4, 2, 3) and np.allclose(v.sum(-1), 1.0)
    assert dirichlet.rvs([1.0, 2.0, 3.0]).shape == (1, 3)  # size=1, as SciPy's
    frozen = dirichlet([1.0, 2.0], seed=4)
    assert not np.array_equal(frozen.rvs(3), frozen.rvs(3))  # one generator, as SciPy's frozen
    from cuarray.scipy import stats

    for m in ("logpdf", "pdf", "mean", "var", "cov", "entropy", "rvs"):
        assert inspect.signature(getattr(stats.dirichlet, m)) == inspect.signature(getattr(sst.dirichlet, m)), m
    assert inspect.signature(stats.dirichlet) == inspect.signature(sst.dirichlet)
