"""`CensoredData` of device arrays and `fit` of censored data on the GPU against scipy.stats on
seeded samples: the object's arrays, dtypes, repr and str, SciPy's errors, the censored
likelihood at given parameters (the device's sums and special functions differ from SciPy's in
the last bits only: 1e-10), and fits by the likelihood reached (ours at most SciPy's + 1e-6
relative: both Nelder-Mead runs stop within fmin's tolerances of the same optimum)."""

from __future__ import annotations

import importlib.util
import pathlib

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


def _load_host():
    spec = importlib.util.spec_from_file_location("h51_gpu_stats_distn_host",
                                                  pathlib.Path(__file__).parent / "stats_distn_host.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_HOST = _load_host()  # the helpers the CPU tests share
_quiet, _mixed_interval = _HOST.quiet, _HOST.mixed_interval


def _host(d):
    return {a: np.asarray(cuarray.asnumpy(getattr(d, a))) for a in ("_uncensored", "_left", "_right", "_interval")}


def _same(ours, ref, what):
    got = _host(ours)
    for attr, want in _host_ref(ref).items():
        assert got[attr].dtype == want.dtype and got[attr].shape == want.shape, (what, attr, got[attr], want)
        np.testing.assert_array_equal(got[attr], want, err_msg="{} {}".format(what, attr))
    assert repr(ours) == repr(ref), (what, repr(ours), repr(ref))
    assert str(ours) == str(ref), (what, str(ours), str(ref))
    assert len(ours) == len(ref) and ours.num_censored() == ref.num_censored(), what


def _host_ref(ref):
    return {a: getattr(ref, a) for a in ("_uncensored", "_left", "_right", "_interval")}


def test_constructors_match_scipy():
    rng = np.random.default_rng(51)
    u, left, right, iv = rng.normal(size=9), rng.normal(size=4), rng.normal(size=3), _mixed_interval(rng, 20)
    d = cuarray.asarray
    _same(cst.CensoredData(d(u), left=d(left), right=d(right), interval=d(iv)),
          sst.CensoredData(u, left=left, right=right, interval=iv), "all kinds")
    _same(cst.CensoredData(interval=d(iv)[::2]), sst.CensoredData(interval=iv[::2]), "strided interval")
    x, c = rng.normal(size=30), rng.random(30) < 0.3
    _same(cst.CensoredData.right_censored(d(x), d(c)), sst.CensoredData.right_censored(x, c), "right_censored")
    _same(cst.CensoredData.left_censored(d(x.astype(np.float32)), d(c)),
          sst.CensoredData.left_censored(x.astype(np.float32), c), "left_censored float32")
    _same(cst.CensoredData.interval_censored(d(iv[:, 0]), d(iv[:, 1])),
          sst.CensoredData.interval_censored(iv[:, 0], iv[:, 1]), "interval_censored")
    _same(cst.CensoredData(), sst.CensoredData(), "empty")
    _same(cst.CensoredData([1, 2], interval=[[1, 2], [3, 3]]), sst.CensoredData([1, 2], interval=[[1, 2], [3, 3]]),
          "int lists")
    ours, ref = cst.CensoredData(d(u), left=d(left), right=d(right), interval=d(iv)), \
        sst.CensoredData(u, left=left, right=right, interval=iv)
    np.testing.assert_array_equal(cuarray.asnumpy(ours._uncensor()), ref._uncensor())
    _same(ours._supported(-0.5, 0.7), ref._supported(-0.5, 0.7), "_supported")
    _same((ours - 0.25) / 2.0, (ref - 0.25) / 2.0, "arithmetic")


@pytest.mark.parametrize("make", [
    lambda C, d: C(d([1.0, np.nan])), lambda C, d: C(left=d([1.0, np.inf])),
    lambda C, d: C(interval=d([[2.0, 1.0]])), lambda C, d: C(interval=d([[np.inf, np.inf]])),
    lambda C, d: C(interval=d([1.0, 2.0])), lambda C, d: C.right_censored(d([1.0, np.inf]), d([True, False])),
    lambda C, d: C.interval_censored(d([1.0, 2.0]), d([3.0]))])
def test_errors_match_scipy(make):
    with pytest.raises(ValueError) as ref:
        make(sst.CensoredData, np.asarray)
    with pytest.raises(ValueError) as ours:
        make(cst.CensoredData, cuarray.asarray)
    assert str(ours.value) == str(ref.value)


def test_host_arrays_refused():
    with pytest.raises(TypeError):
        cst.CensoredData(np.ones(3))
    with pytest.raises(TypeError):
        cst.CensoredData.right_censored(np.ones(3), [True, False, False])


def _censored(name, seed, n=200):
    """Seeded (ours, SciPy's) data: the upper fifth right-censored, the lower tenth left-censored,
    a third of the rest in unit-width intervals."""
    rng = np.random.default_rng(seed)
    x = {"norm": lambda: rng.normal(1.5, 2.0, n), "gamma": lambda: rng.gamma(2.5, 1.5, n),
         "weibull_min": lambda: rng.weibull(2.5, n) * 30.0, "logistic": lambda: rng.logistic(1.0, 0.7, n),
         "t": lambda: rng.standard_t(5.0, n) + 1.0, "lognorm": lambda: rng.lognormal(0.2, 0.6, n)}[name]()
    q1, q3 = np.quantile(x, [0.1, 0.8])
    width = (q3 - q1) / 4
    mid = (x >= q1) & (x <= q3) & (rng.random(n) < 0.35)
    lo = np.where(x > q3, q3, np.where(x < q1, -np.inf, np.where(mid, x - width * rng.random(n), x)))
    hi = np.where(x > q3, np.inf, np.where(x < q1, q1, np.where(mid, lo + width, x)))
    return cst.CensoredData.interval_censored(cuarray.asarray(lo), cuarray.asarray(hi)), \
        sst.CensoredData.interval_censored(lo, hi)


@pytest.mark.parametrize("name,theta", [("norm", (1.2, 1.8)), ("gamma", (2.0, 0.3, 1.4)), ("t", (4.0, 0.8, 1.1)),
                                        ("weibull_min", (2.0, 0.0, 28.0)), ("lognorm", (0.5, 0.1, 1.2)),
                                        ("gamma", (2.0, 1.0, 1.4))])
def test_censored_likelihood(name, theta):
    ours, ref = _censored(name, 52)
    dist = getattr(cst, name)
    got = dist._penalized_nnlf_censored(list(theta), cst._distn_fit._Censored(ours))
    want = _quiet(getattr(sst, name)._penalized_nnlf, theta, ref)
    np.testing.assert_allclose(float(cuarray.asnumpy(got)), want, rtol=1e-10, err_msg="{} {}".format(name, theta))


@pytest.mark.parametrize("name,kw", [("norm", {}), ("weibull_min", {"floc": 0.0}), ("gamma", {"floc": 0.0}),
                                     ("logistic", {}), ("t", {"f0": 5.0}), ("lognorm", {"floc": 0.0})])
def test_censored_fits(name, kw):
    ours_data, ref_data = _censored(name, 53)
    got = _quiet(getattr(cst, name).fit, ours_data, **kw)
    want = _quiet(getattr(sst, name).fit, ref_data, **kw)
    assert len(got) == len(want) and all(isinstance(v, (float, int)) for v in got), (name, got)
    g, w = (float(_quiet(getattr(sst, name)._penalized_nnlf, p, ref_data)) for p in (got, want))
    assert g <= w + 1e-6 * abs(w), "{} {}: our fit {} reaches {}, SciPy's {} reaches {}".format(name, kw, got, g, want, w)
    for k, v in kw.items():
        assert got[{"floc": -2, "fscale": -1}.get(k, 0)] == v, (name, k, got)


def test_scipy_rules():
    ours, _ = _censored("norm", 54, 50)
    for name in ("norm", "gamma", "t"):
        with pytest.raises(ValueError, match='For censored data, the method must be "MLE".'):
            getattr(cst, name).fit(ours, method="MM")
    with pytest.raises(TypeError):
        cst.norm.nnlf((0.0, 1.0), ours)
    x = np.random.default_rng(55).normal(1.0, 2.0, 100)
    np.testing.assert_allclose(cst.norm.fit(cst.CensoredData(cuarray.asarray(x))), sst.norm.fit(x), rtol=1e-10)


@pytest.mark.parametrize("censored", [False, True])
def test_ecdf(censored):
    """Exact counts and steps; the estimates are short products and the intervals a few
    log/exp/sqrt of them: the device's rounding differs from NumPy's by ulps (1e-12, 1e-10)."""
    rng = np.random.default_rng(56)
    x = np.round(rng.exponential(2.0, 300), 1)  # ties
    c = rng.random(300) < 0.3
    if censored:
        c[np.argmax(x)] = True
        ours = cst.ecdf(cst.CensoredData.right_censored(cuarray.asarray(x), cuarray.asarray(c)))
        ref = sst.ecdf(sst.CensoredData.right_censored(x, c))
    else:
        ours, ref = cst.ecdf(cuarray.asarray(x)), sst.ecdf(x)
    for which in ("cdf", "sf"):
        a, b = getattr(ours, which), getattr(ref, which)
        assert isinstance(a.quantiles, cuarray.ndarray) and isinstance(a.probabilities, cuarray.ndarray)
        np.testing.assert_array_equal(cuarray.asnumpy(a.quantiles), b.quantiles)
        np.testing.assert_allclose(cuarray.asnumpy(a.probabilities), b.probabilities, rtol=1e-12, atol=1e-14,
                                   err_msg=which)
        np.testing.assert_array_equal(cuarray.asnumpy(a._n), b._n)
        np.testing.assert_array_equal(cuarray.asnumpy(a._d), b._d)
        q = b.quantiles
        v = np.concatenate([[-np.inf, np.nan, np.inf], q, q - 0.05, q + 0.05]).reshape(3, -1)
        got = a.evaluate(cuarray.asarray(v))
        assert got.shape == v.shape
        np.testing.assert_allclose(cuarray.asnumpy(got), b.evaluate(v), rtol=1e-12, atol=1e-14, err_msg=which)
        for method in ("linear", "log-log"):
            ca, cb = (_quiet(f.confidence_interval, 0.9, method=method) for f in (a, b))
            for lo_hi in ("low", "high"):
                np.testing.assert_allclose(cuarray.asnumpy(getattr(ca, lo_hi).probabilities),
                                           getattr(cb, lo_hi).probabilities, rtol=1e-10, atol=1e-14,
                                           err_msg="{} {} {}".format(which, method, lo_hi))


def test_ecdf_errors():
    with pytest.raises(ValueError, match="`sample` must not contain nan."):
        cst.ecdf(cuarray.asarray([1.0, np.nan]))
    with pytest.raises(NotImplementedError, match="only uncensored and right-censored"):
        cst.ecdf(cst.CensoredData(cuarray.asarray([1.0, 2.0]), left=cuarray.asarray([0.5])))
    with pytest.raises(TypeError):
        cst.ecdf(np.ones(3))
    with pytest.warns(RuntimeWarning, match="undefined at some observations"):
        cst.ecdf(cuarray.asarray([3.0, 1.0, 2.0, 2.0])).sf.confidence_interval()
