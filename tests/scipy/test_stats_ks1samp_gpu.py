"""ks_1samp and kstest on the GPU against SciPy: float64/float32/integer samples, 1-D/N-D, each axis
and None, keepdims, alternatives and methods, a cdf given as cuarray's `stats.norm.cdf`, a
distribution's name or a callable with args, NaNs propagated and omitted, empty samples, kstest's
two-sample dispatch and a name as `rvs`."""

from __future__ import annotations


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




def _cmp(got, want, rtol):
    got = (got.statistic, got.pvalue, got.statistic_location, got.statistic_sign)
    want = (want.statistic, want.pvalue, want.statistic_location, want.statistic_sign)
    for name, g, w in zip(("statistic", "pvalue", "location", "sign"), got, want):
        g, w = cuarray.asnumpy(g), np.asarray(w)
        assert g.shape == w.shape and g.dtype == w.dtype, (name, g.shape, w.shape, g.dtype, w.dtype)
        np.testing.assert_allclose(g, w, rtol=rtol, atol=0, equal_nan=True, err_msg=name)


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64"])
@pytest.mark.parametrize("shape,axis,keepdims", [((40,), 0, False), ((6, 25), 1, True), ((20, 3, 2), 0, False),
                                                 ((5, 9), None, True), ((4, 12), -2, False)])
def test_as_scipy(dtype, shape, axis, keepdims, warned):
    rng = np.random.default_rng()
    a = rng.standard_normal(shape) * 1.2 + 0.3
    a = (np.round(a * 4) if dtype == "int64" else a).astype(dtype)
    # float64: the cdf and D differ from SciPy's by a few ulps (the GPU's erfc), so D by ~1e-15
    # and the p-value by its condition 4 n D^2 (< 200 here) times that. float32: ndtr/cdf in float32
    # on both sides can differ by a few float32 ulps (~3e-7), times the same condition.
    rtol = 1e-10 if dtype != "float32" else 1e-4
    for alternative, method in (("two-sided", "auto"), ("two-sided", "asymp"), ("two-sided", "approx"),
                                ("less", "auto"), ("greater", "exact")):
        kw = {"alternative": alternative, "method": method, "axis": axis, "keepdims": keepdims}
        _cmp(warned(cst.ks_1samp, cuarray.asarray(a), cst.norm.cdf, **kw)[0],
             warned(sst.ks_1samp, a, sst.norm.cdf, **kw)[0], rtol)
    kw = {"axis": axis, "keepdims": keepdims}
    _cmp(warned(cst.kstest, cuarray.asarray(a), "norm", **kw)[0], warned(sst.kstest, a, "norm", **kw)[0], rtol)


def test_names_callables_and_args():
    rng = np.random.default_rng()
    x = rng.exponential(size=(3, 30)) * 2.0
    for cdf, args in (("expon", (0.0, 2.0)), ("gamma", (1.5,)), ("logistic", ())):
        _cmp(cst.kstest(cuarray.asarray(x), cdf, args=args, axis=1), sst.kstest(x, cdf, args=args, axis=1), 1e-10)
    got = cst.ks_1samp(cuarray.asarray(x), lambda v, s: 1 - cuarray.exp(-v / s), args=(2.0,), axis=-1)
    want = sst.ks_1samp(x, lambda v, s: 1 - np.exp(-v / s), args=(2.0,), axis=-1)
    _cmp(got, want, 1e-10)
    _cmp(cst.kstest([0.3, 1.2, -0.4, 2.5, 0.9], "norm"), sst.kstest([0.3, 1.2, -0.4, 2.5, 0.9], "norm"), 1e-10)


@pytest.mark.parametrize("policy", ["propagate", "omit"])
def test_nans_as_scipy(policy, warned):
    rng = np.random.default_rng()
    a = rng.standard_normal((5, 30))
    a[rng.random(a.shape) < 0.15] = np.nan
    a[0, 0], a[2] = np.nan, np.nan  # a slice left empty after omitting
    (got, got_w), (want, want_w) = (warned(f, x, cdf, axis=1, nan_policy=policy) for f, x, cdf in
                                    ((cst.ks_1samp, cuarray.asarray(a), cst.norm.cdf), (sst.ks_1samp, a, sst.norm.cdf)))
    _cmp(got, want, 1e-10)
    assert bool(got_w) == bool(want_w), (got_w, want_w)
    b = a[0]  # one sample: SciPy drops its NaNs ('omit') or gives NaN ('propagate')
    _cmp(warned(cst.ks_1samp, cuarray.asarray(b), cst.norm.cdf, nan_policy=policy)[0],
         warned(sst.ks_1samp, b, sst.norm.cdf, nan_policy=policy)[0], 1e-10)


@pytest.mark.parametrize("shape,axis", [((0,), 0), ((3, 0), 1), ((1,), 0)])
def test_small_samples_as_scipy(shape, axis, warned):
    a = np.random.default_rng().standard_normal(shape)
    (got, got_w), (want, want_w) = (warned(cst.ks_1samp, cuarray.asarray(a), cst.norm.cdf, axis=axis),
                                    warned(sst.ks_1samp, a, sst.norm.cdf, axis=axis))
    _cmp(got, want, 1e-10)
    assert bool(got_w) == bool(want_w), (got_w, want_w)


def test_errors_as_scipy():
    x = cuarray.arange(5.0)
    with pytest.raises(np.exceptions.AxisError):
        cst.ks_1samp(x, cst.norm.cdf, axis=1)
    with pytest.raises(TypeError):
        cst.ks_1samp(x + 1j, cst.norm.cdf)
    with pytest.raises(ValueError, match="method"):
        cst.kstest(x, "norm", method="bogus")
    with pytest.raises(AttributeError):
        cst.kstest(x, "no_such_distribution")


def test_kstest_two_samples_and_rvs():
    rng = np.random.default_rng()
    x, y = rng.standard_normal((4, 30)), rng.standard_normal((4, 25)) + 0.5
    _cmp(cst.kstest(cuarray.asarray(x), cuarray.asarray(y), axis=1), sst.kstest(x, y, axis=1), 1e-10)
    res = cst.kstest("norm", "norm", N=50)  # our variates: only their shape and a valid p-value are SciPy's
    assert np.shape(cuarray.asnumpy(res.statistic)) == () and 0 <= float(res.pvalue) <= 1
