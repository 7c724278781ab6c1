"""stats.gaussian_kde on the GPU against scipy.stats.gaussian_kde: fresh random device data in one
to three dimensions, bandwidth rules and weights, densities and log-densities (with data larger
than a tile), the integrals, errors, resample."""

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

sst = pytest.importorskip("scipy.stats")

import cuarray  # noqa: E402
from cuarray.scipy import stats  # noqa: E402


def _host(v):
    return np.asarray(v.get() if hasattr(v, "get") else v)


def _data(rng, d, n):
    a = np.eye(d) + 0.3 * rng.uniform(-1, 1, (d, d))  # condition <= ~10
    return a @ rng.normal(size=(d, n)) + rng.normal(size=(d, 1))


@pytest.mark.parametrize("d", [1, 2, 3])
def test_values_match_scipy(d):
    rng = np.random.default_rng()
    data, w = _data(rng, d, 200), rng.uniform(0.5, 2.0, 200)
    for kw in (dict(), dict(bw_method="silverman"), dict(bw_method=0.4), dict(weights=w)):
        dev = {k: cuarray.asarray(v) if isinstance(v, np.ndarray) else v for k, v in kw.items()}
        ours, ref = stats.gaussian_kde(cuarray.asarray(data), **dev), sst.gaussian_kde(data, **kw)
        x = _data(rng, d, 50) * 1.5
        # the kernels' arguments (<= ~60) to ~1e-15 of themselves on the device as in SciPy's
        # loops: their exponentials' sums to ~1e-13, logs of them to ~1e-13 absolutely
        np.testing.assert_allclose(_host(ours(cuarray.asarray(x))), ref(x), rtol=1e-11, atol=1e-300,  # subnormals
                                   err_msg=str(kw))
        np.testing.assert_allclose(_host(ours.logpdf(cuarray.asarray(20 * x))), ref.logpdf(20 * x), rtol=1e-12,
                                   atol=1e-12, err_msg=str(kw))
        np.testing.assert_allclose(ours.factor, ref.factor, rtol=1e-13)
        np.testing.assert_allclose(ours.neff, ref.neff, rtol=1e-12)
        # sums of n products: entries near 0 by cancellation are exact to rounding of the largest
        np.testing.assert_allclose(_host(ours.covariance), ref.covariance, rtol=1e-12,
                                   atol=1e-12 * np.max(np.abs(ref.covariance)))
        np.testing.assert_allclose(_host(ours.inv_cov), ref.inv_cov, rtol=1e-11, atol=1e-12 * np.max(np.abs(ref.inv_cov)))
        mean, cov = rng.normal(size=d), np.diag(rng.uniform(0.5, 2.0, d))
        np.testing.assert_allclose(_host(ours.integrate_gaussian(mean, cov)), ref.integrate_gaussian(mean, cov), rtol=1e-11)
        other = _data(rng, d, 30)
        np.testing.assert_allclose(_host(ours.integrate_kde(stats.gaussian_kde(cuarray.asarray(other)))),
                                   ref.integrate_kde(sst.gaussian_kde(other)), rtol=1e-11)
        if d == 1:
            np.testing.assert_allclose(_host(ours.integrate_box_1d(-0.5, 1.0)), ref.integrate_box_1d(-0.5, 1.0), rtol=1e-12,
                                       atol=1e-15)  # differences of ndtr's
        if d == 2:
            lo, hi = np.array([-1.0, -0.5]), np.array([0.5, 1.5])
            np.testing.assert_allclose(_host(ours.integrate_box(lo, hi)), ref.integrate_box(lo, hi), rtol=1e-11,
                                       atol=1e-14)  # Owen's T and Genz's series: ~1e-16 absolutely


def test_large_data_errors_resample():
    rng = np.random.default_rng()
    data = rng.normal(size=(2, 20000))  # 1000 points x 20000 data: 2e7 kernels, 5 tiles of 2^22
    ours, ref = stats.gaussian_kde(cuarray.asarray(data)), sst.gaussian_kde(data)
    x = rng.normal(size=(2, 1000)) * 2
    np.testing.assert_allclose(_host(ours(cuarray.asarray(x))), ref(x), rtol=1e-11)
    np.testing.assert_allclose(_host(ours.logpdf(cuarray.asarray(x[:, :300]))), ref.logpdf(x[:, :300]), rtol=1e-12,
                               atol=1e-12)
    with pytest.raises(np.linalg.LinAlgError, match="lower-dimensional subspace"):
        stats.gaussian_kde(cuarray.asarray(np.vstack([data[0, :50], np.zeros(50)])))  # exactly singular
    with pytest.raises(ValueError, match="points have dimension 3"):
        ours(cuarray.ones((3, 4)))
    with pytest.raises(TypeError):
        stats.gaussian_kde(data)  # host data: the host-input rule
    small = stats.gaussian_kde(cuarray.asarray(data[:, :200]))
    v = _host(small.resample(4000, seed=3))
    assert v.shape == (2, 4000)
    se = np.sqrt(np.diag(np.cov(data[:, :200]) + _host(small.covariance)) / 4000)
    assert np.all(np.abs(v.mean(1) - data[:, :200].mean(1)) < 6 * se)
