"""bootstrap on the GPU against scipy.stats: the same bootstrap distribution gives SciPy's intervals
(percentile, basic, BCa with its jackknife; one and two samples, paired, N-D); fresh resamples from
cuarray.random: interval ends and standard error in distribution, and coverage and width over 200
data sets against SciPy's on the same data sets."""

from __future__ import annotations

import types

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

sst = pytest.importorskip("scipy.stats")

import cuarray  # noqa: E402
from cuarray.scipy import stats as cst  # noqa: E402

G = cuarray.asarray


def _mean(x, axis):
    return x.mean(axis=axis)


def _mdiff(x, y, axis):
    return x.mean(axis=axis) - y.mean(axis=axis)


def _same(got, want, what):
    # the same quantiles of the same values; BCa's levels from jackknife sums of <= 30 terms: ulps
    for g, w in zip(got.confidence_interval, want.confidence_interval):
        np.testing.assert_allclose(cuarray.asnumpy(g), w, rtol=1e-11, atol=1e-13, err_msg=what)
    np.testing.assert_allclose(cuarray.asnumpy(got.standard_error), want.standard_error, rtol=1e-11, err_msg=what)


def _prior(res):
    return types.SimpleNamespace(bootstrap_distribution=G(res.bootstrap_distribution))


@pytest.mark.parametrize("method", ["percentile", "basic", "BCa"])
def test_intervals_as_scipy(method):
    rng = np.random.default_rng()
    x, y = rng.standard_normal(30), rng.standard_normal(20) + 1
    for alt in ("two-sided", "less", "greater"):
        kw = dict(n_resamples=0, method=method, alternative=alt)
        prior = sst.bootstrap((x,), _mean, n_resamples=500, rng=rng)
        _same(cst.bootstrap((G(x),), _mean, bootstrap_result=_prior(prior), **kw),
              sst.bootstrap((x,), _mean, bootstrap_result=prior, **kw), (alt, "one"))
        prior = sst.bootstrap((x, y), _mdiff, n_resamples=500, rng=rng)
        _same(cst.bootstrap((G(x), G(y)), _mdiff, bootstrap_result=_prior(prior), batch=7, **kw),
              sst.bootstrap((x, y), _mdiff, bootstrap_result=prior, batch=7, **kw), (alt, "two"))
    z = 2 * x + rng.standard_normal(30)
    kw = dict(n_resamples=0, method=method)
    prior = sst.bootstrap((x, z), _mdiff, n_resamples=500, paired=True, rng=rng)
    _same(cst.bootstrap((G(x), G(z)), _mdiff, bootstrap_result=_prior(prior), paired=True, **kw),
          sst.bootstrap((x, z), _mdiff, bootstrap_result=prior, paired=True, **kw), "paired")
    a = rng.standard_normal((25, 3))
    prior = sst.bootstrap((a,), _mean, n_resamples=500, axis=0, rng=rng)
    _same(cst.bootstrap((G(a),), _mean, bootstrap_result=_prior(prior), axis=0, **kw),
          sst.bootstrap((a,), _mean, bootstrap_result=prior, axis=0, **kw), "N-D")


def test_fresh_resamples_in_distribution():
    rng = np.random.default_rng()
    x = rng.standard_normal(40) * rng.uniform(0.5, 2)
    nb = 4000
    got = cst.bootstrap((G(x),), _mean, n_resamples=nb, rng=7, method="percentile")
    want = sst.bootstrap((x,), _mean, n_resamples=nb, rng=rng, method="percentile")
    assert got.bootstrap_distribution.shape == (nb,)
    se = float(want.standard_error)
    # a 2.5% quantile of nb bootstrap means has sd sqrt(q (1 - q) / nb) / phi(z_q) se = 0.041 se;
    # two independent ones differ with sd 0.058 se: 7 sd is 0.41 se
    for g, w in zip(got.confidence_interval, want.confidence_interval):
        assert abs(float(cuarray.asnumpy(g)) - float(w)) <= 0.41 * se, (g, w, se)
    # a standard deviation from nb draws has relative sd 1/sqrt(2 nb); two: 0.016; 7 sd
    assert abs(float(cuarray.asnumpy(got.standard_error)) / se - 1) <= 7 * np.sqrt(1 / nb)


@pytest.mark.parametrize("method", ["percentile", "BCa"])
def test_coverage_and_width_as_scipy(method):
    rng = np.random.default_rng()
    data = rng.standard_normal((200, 30))  # 200 data sets of a true mean 0
    nb = 2000
    got = cst.bootstrap((G(data),), _mean, n_resamples=nb, axis=-1, rng=11, method=method)
    want = sst.bootstrap((data,), _mean, n_resamples=nb, axis=-1, rng=rng, method=method)
    lo, hi = (cuarray.asnumpy(v) for v in got.confidence_interval)
    lo0, hi0 = want.confidence_interval
    covered, covered0 = np.mean((lo <= 0) & (0 <= hi)), np.mean((lo0 <= 0) & (0 <= hi0))
    # the same data sets: only those whose true mean is within the ends' Monte Carlo noise
    # (~0.1 se, some 2 x 0.2 x phi(1.96) = 2.4% of them) can differ, so the fractions differ by a
    # few sets (sd ~ 0.011); 0.06 is over 5 sd. Widths: each end has sd ~0.06 se in ~3.9 se, so
    # the mean width over 200 sets differs by ~0.2% (sd): 2% is 10 sd.
    assert abs(covered - covered0) <= 0.06, (covered, covered0)
    assert abs(np.mean(hi - lo) / np.mean(hi0 - lo0) - 1) <= 0.02
