"""ansari and anderson_ksamp on the GPU against SciPy: ansari's float64/float32/integer samples
(ties), sizes on both sides of the exact/asymptotic switch, broadcast batches, each axis and None,
keepdims, alternatives, SciPy 1.18's methods and a seeded PermutationMethod, NaNs propagated and
omitted; anderson_ksamp's variants and an exact permutation test."""

from __future__ import annotations

import warnings

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

SCIPY_118 = tuple(int(v) for v in __import__("scipy").__version__.split(".")[:2]) >= (1, 18)
ALTERNATIVES = ("two-sided", "less", "greater")
METHODS = ("auto", "exact", "asymptotic") if SCIPY_118 else ("auto",)


def _cmp(got, want, rtol, what):
    for name, g, w in zip(("statistic", "pvalue"), got, want):
        g, w = cuarray.asnumpy(g), np.asarray(w)
        assert g.shape == w.shape and (g.dtype == w.dtype or not SCIPY_118), (what, name, g.shape, w.shape, g.dtype, w.dtype)
        np.testing.assert_allclose(g, w, rtol=rtol, atol=1e-300, equal_nan=True, err_msg=f"{what} {name}")


def _rtol(n, m, dtype):
    # AB: exact sums of (half-)integer scores. Exact p-values: the same host tables as the CPU tests
    # (SciPy's float32 AS 93 counts are ~1e-6 off once N >= 32). Asymptotic: ndtr on the device,
    # a few ulps. float32: SciPy's p-value rounded to float32
    if dtype == "float32":
        return 1e-5
    return 2e-5 if n + m >= 32 else 1e-11


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64"])
@pytest.mark.parametrize("n,m", [(6, 9), (60, 40)])
def test_1d_as_scipy(dtype, n, m):
    rng = np.random.default_rng()
    x, y = rng.standard_normal(n) * 2, rng.standard_normal(m)
    if dtype == "int64":
        x, y = np.round(x * 2), np.round(y * 2)
    x, y = x.astype(dtype), y.astype(dtype)
    for method in METHODS:
        for alternative in ALTERNATIVES:
            kw = {"alternative": alternative, **({"method": method} if SCIPY_118 else {})}
            _cmp(cst.ansari(cuarray.asarray(x), cuarray.asarray(y), **kw), sst.ansari(x, y, **kw),
                 _rtol(n, m, dtype), (dtype, n, m, kw))


@pytest.mark.parametrize("xs,ys,axis,keepdims", [((4, 9), (4, 7), 1, True), ((9, 3), (6, 1), 0, False),
                                                 ((3, 4), (2, 5), None, True), ((2, 3, 8), (3, 5), -1, False)])
def test_batches_as_scipy(xs, ys, axis, keepdims):
    rng = np.random.default_rng()
    x, y = rng.standard_normal(xs), rng.standard_normal(ys) * 1.7
    x_f = np.asfortranarray(x)  # a non-contiguous device layout of the same values
    n = x.size if axis is None else x.shape[axis]
    m = y.size if axis is None else y.shape[axis]
    for ties in (False, True):
        if ties:
            x.flat[-1] = y.flat[-1]
            x_f = np.asfortranarray(x)
        for alternative in ALTERNATIVES:
            kw = {"alternative": alternative, "axis": axis, "keepdims": keepdims}
            _cmp(cst.ansari(cuarray.asarray(x_f), cuarray.asarray(y), **kw), sst.ansari(x, y, **kw),
                 _rtol(n, m, "float64"), (xs, ys, kw, ties))


@pytest.mark.parametrize("policy", ["propagate", "omit"])
def test_nan_policy_as_scipy(policy):
    rng = np.random.default_rng()
    x, y = rng.standard_normal((4, 12)), rng.standard_normal((4, 9))
    x[rng.random((4, 12)) < 0.15] = np.nan
    x[0, 0] = np.nan
    y[1] = np.nan  # emptied by 'omit': NaN with SciPy's warning
    kw = {"axis": 1, "nan_policy": policy}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = cst.ansari(cuarray.asarray(x), cuarray.asarray(y), **kw)
        want = sst.ansari(x, y, **kw)
    _cmp(got, want, 1e-11, policy)  # N <= 21 per slice: SciPy's exact counts are exact


@pytest.mark.skipif(not SCIPY_118, reason="SciPy 1.17's ansari has no `method`")
def test_permutation_method_is_scipys():
    # SciPy's permutations (all 1716, or 300 draws from the seeded generator) of the same data
    rng = np.random.default_rng()
    x, y = rng.standard_normal((2, 7)), rng.standard_normal((2, 6)) * 2
    for n_resamples in (9999, 300):
        for alternative in ALTERNATIVES:
            got = cst.ansari(cuarray.asarray(x), cuarray.asarray(y), alternative, axis=-1,
                             method=sst.PermutationMethod(n_resamples=n_resamples, rng=7))
            want = sst.ansari(x, y, alternative, axis=-1, method=sst.PermutationMethod(n_resamples=n_resamples, rng=7))
            _cmp(got, want, 1e-12, (n_resamples, alternative))


@pytest.mark.parametrize("k", [2, 3])
def test_anderson_ksamp_as_scipy(k):
    # the statistic: SciPy's sums in another order on the device (~1e-15 relative of O(N) terms);
    # the p-value SciPy's interpolation on the host of that statistic (smooth)
    rng = np.random.default_rng()
    samples = [rng.standard_normal(int(rng.integers(5, 30))) + 0.5 * i for i in range(k)]
    samples[0][:2] = np.round(samples[0][:2])  # ties for the midrank and right variants
    samples[1][0] = samples[0][0]
    for kw in ({"variant": "midrank"}, {"variant": "right"}, {"variant": "continuous"}, {"midrank": True}):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = cst.anderson_ksamp([cuarray.asarray(s) for s in samples], **kw)
            want = sst.anderson_ksamp(samples, **kw)
        np.testing.assert_allclose(float(got.statistic), want.statistic, rtol=1e-10, atol=1e-12, err_msg=str(kw))
        np.testing.assert_allclose(float(got.pvalue), want.pvalue, rtol=1e-9, err_msg=str(kw))


def test_anderson_ksamp_exact_permutations_as_scipy():
    # 8! / (3! 3! 2!) = 560 partitions < n_resamples: every one, in both
    rng = np.random.default_rng()
    samples = [rng.standard_normal(s) for s in (3, 3, 2)]
    got = cst.anderson_ksamp([cuarray.asarray(s) for s in samples], variant="midrank", method=sst.PermutationMethod())
    want = sst.anderson_ksamp(samples, variant="midrank", method=sst.PermutationMethod())
    np.testing.assert_allclose(float(got.pvalue), want.pvalue, rtol=1e-14)
