"""stats.gaussian_kde without a GPU: the module runs with NumPy and scipy.special standing in for
the cuarray routines (tests/scipy/stats_distn_host.py) and is compared with scipy.stats.gaussian_kde
on fresh random data: densities and log-densities (and their tiling), every bandwidth rule and
weights, the attributes, the integrals, SciPy's errors and messages, resample, marginal and the
signatures."""

import inspect

import numpy as np
import pytest

sst = pytest.importorskip("scipy.stats")


@pytest.fixture(scope="module")
def kde(distn_host):
    return distn_host["_kde"]


def _close(got, want, what, rtol=1e-12, atol=0.0):
    # whitening by the Cholesky factor's inverse (SciPy: a triangular solve) on data of
    # condition <= ~10: the kernels' arguments (<= ~60 here) agree to ~1e-15 of themselves, so
    # the sums of their exponentials to ~1e-13; a log (of a density, of a determinant) is
    # accurate to rounding of its terms, absolutely: it may be near 0
    np.testing.assert_allclose(np.asarray(got), want, rtol=rtol, atol=atol, err_msg=str(what))
    assert np.shape(got) == np.shape(want), (what, np.shape(got), np.shape(want))


def _data(rng, d, n):
    a = np.eye(d) + 0.3 * rng.uniform(-1, 1, (d, d))
    return a @ rng.normal(size=(d, n)) + rng.normal(size=(d, 1))


@pytest.mark.parametrize("d", [1, 2, 3])
def test_values_match_scipy(kde, d):
    rng = np.random.default_rng()
    data, w = _data(rng, d, 40), rng.uniform(0.5, 2.0, 40)
    bws = (None, "silverman", float(rng.uniform(0.2, 1.0)), lambda k: 0.5 * k.scotts_factor())
    for kw in [dict(bw_method=b) for b in bws] + [dict(weights=w), dict(weights=list(w), bw_method="silverman")]:
        ours, ref = kde.gaussian_kde(data, **kw), sst.gaussian_kde(data, **kw)
        what = (d, sorted(kw))
        x = _data(rng, d, 9) * 1.5
        _close(ours(x), ref(x), what, atol=1e-300)  # subnormal densities keep fewer digits
        _close(ours.pdf(x[:, 0]), ref.pdf(x[:, 0]), what, atol=1e-300)  # one point as a 1-D array
        _close(ours.logpdf(x), ref.logpdf(x), what, rtol=1e-13, atol=1e-13)
        _close(ours.logpdf(30 * x), ref.logpdf(30 * x), what, rtol=1e-13, atol=1e-13)  # densities that underflow
        for a in ("factor", "neff", "log_det", "d", "n"):
            _close(getattr(ours, a), getattr(ref, a), (what, a), rtol=1e-13, atol=1e-13)
        for a in ("covariance", "inv_cov", "cho_cov", "weights", "dataset"):
            # sums of n products: entries near 0 by cancellation are exact to rounding of the largest
            want = getattr(ref, a)
            _close(getattr(ours, a), want, (what, a), rtol=1e-12, atol=1e-13 * np.max(np.abs(want)))
        mean, cov = rng.normal(size=d), np.diag(rng.uniform(0.5, 2.0, d))
        _close(ours.integrate_gaussian(mean, cov), ref.integrate_gaussian(mean, cov), what)
        other = _data(rng, d, 15)
        _close(ours.integrate_kde(kde.gaussian_kde(other)), ref.integrate_kde(sst.gaussian_kde(other)), what)
        if d == 1:
            _close(ours.integrate_box_1d(-0.5, 1.0), ref.integrate_box_1d(-0.5, 1.0), what, atol=1e-15)  # ndtr differences
    ours, ref = kde.gaussian_kde(data), sst.gaussian_kde(data)
    ours.set_bandwidth(0.4), ref.set_bandwidth(0.4)
    _close(ours(x), ref(x), "set_bandwidth", atol=1e-300)
    ours.set_bandwidth("silverman"), ref.set_bandwidth("silverman")
    _close(ours.covariance_factor(), ref.covariance_factor(), "silverman factor")
    _close(ours.logpdf(x), ref.logpdf(x), "set_bandwidth silverman", atol=1e-13)


def test_tiles_give_the_whole_sums(kde):
    rng = np.random.default_rng()
    xw, dw, w = rng.normal(size=(2, 23)), rng.normal(size=(2, 31)), rng.uniform(0.1, 1.0, 31)
    for tile in (1, 7, 31, 100):  # blocks of data, of points, both, one
        _close(kde.kernel_sums(xw, dw, w, tile=tile), kde.kernel_sums(xw, dw, w), tile, rtol=1e-14)
        _close(kde.kernel_logsums(5 * xw, dw, np.log(w), tile=tile), kde.kernel_logsums(5 * xw, dw, np.log(w)), tile,
               rtol=1e-14, atol=1e-14)


def _error(fn, *args, **kw):
    try:
        fn(*args, **kw)
    except Exception as exc:  # noqa: BLE001 (SciPy's type and message are what is compared)
        return type(exc).__name__, str(exc)
    return None


def test_errors_are_scipys(kde):
    rng = np.random.default_rng(1)
    data = rng.normal(size=(2, 10))
    cases = [((np.array([1.0]),), {}), ((rng.normal(size=(3, 2)),), {}),
             ((np.vstack([data[0], np.zeros(10)]),), {}),  # in a line: a covariance exactly singular
             ((data,), dict(weights=np.ones(9))), ((data,), dict(weights=np.ones((2, 10)))),
             ((data,), dict(bw_method="nope"))]
    for args, kw in cases:
        want = _error(sst.gaussian_kde, *args, **kw)
        assert want is not None and _error(kde.gaussian_kde, *args, **kw) == want, (kw, want)
    ours, ref = kde.gaussian_kde(data), sst.gaussian_kde(data)
    for m, args in (("evaluate", (np.ones((3, 2)),)), ("logpdf", (np.ones(5),)), ("integrate_box_1d", (0, 1)),
                    ("integrate_gaussian", (np.zeros(3), np.eye(2))), ("integrate_gaussian", (np.zeros(2), np.eye(3))),
                    ("marginal", ([0, 0],)), ("marginal", ([2],)), ("marginal", ([0.5],))):
        want = _error(getattr(ref, m), *args)
        assert want is not None and _error(getattr(ours, m), *args) == want, (m, want)
    assert _error(ours.integrate_kde, kde.gaussian_kde(data[0])) == _error(ref.integrate_kde, sst.gaussian_kde(data[0]))


def test_box_resample_marginal_signatures(kde):
    rng = np.random.default_rng()
    data = _data(rng, 2, 30)
    ours, ref = kde.gaussian_kde(data), sst.gaussian_kde(data)
    lo, hi = np.array([-1.0, -0.5]), np.array([0.5, 1.5])
    # the closed form: Owen's T and Genz's series both to ~1e-16 absolutely (a small mass loses digits)
    _close(ours.integrate_box(lo, hi), ref.integrate_box(lo, hi), "box 2-D", rtol=1e-12, atol=1e-14)
    data3 = _data(rng, 3, 12)
    lo3, hi3 = -np.ones(3), np.ones(3)
    # a weighted mean of 12 estimates each within 15 estimated errors of abseps = 1e-5 (3 standard
    # errors), SciPy's as well: their difference under 1e-4
    np.testing.assert_allclose(kde.gaussian_kde(data3).integrate_box(lo3, hi3, rng=1),
                               sst.gaussian_kde(data3).integrate_box(lo3, hi3), atol=1e-4)
    v = ours.resample(5000, seed=2)
    assert v.shape == (2, 5000) and ours.resample().shape == (2, 30)
    # the sample mean within 6 standard errors of the data's (the kernel adds covariance)
    se = np.sqrt(np.diag(np.cov(data) + ours.covariance) / 5000)
    assert np.all(np.abs(v.mean(1) - data.mean(1)) < 6 * se)
    m1, m2 = ours.marginal(-1), ref.marginal(-1)
    _close(m1.covariance, m2.covariance, "marginal")
    from cuarray.scipy import stats

    for m in ("evaluate", "__call__", "pdf", "logpdf", "integrate_gaussian", "integrate_box_1d", "integrate_box",
              "integrate_kde", "resample", "set_bandwidth", "covariance_factor", "scotts_factor",
              "silverman_factor", "marginal", "__init__"):
        assert inspect.signature(getattr(stats.gaussian_kde, m)) == inspect.signature(getattr(sst.gaussian_kde, m)), m


def test_box_reaching_far_into_a_tail(kde):
    # a data point 7 kernel widths from the box: the lattice's c + x dc rounds past 1 for some
    # shifts (these, with this seed), where ndtri's inf once made the whole integral NaN
    rng = np.random.default_rng(780)
    data3 = _data(rng, 3, 12)
    with np.errstate(all="ignore"):
        got = kde.gaussian_kde(data3).integrate_box(-np.ones(3), np.ones(3), rng=1)
    np.testing.assert_allclose(got, sst.gaussian_kde(data3).integrate_box(-np.ones(3), np.ones(3)), atol=1e-4)
