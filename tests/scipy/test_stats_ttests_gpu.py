"""ttest_1samp, ttest_rel, ttest_ind and linregress on the GPU against SciPy: alternatives,
axes, keepdims, float32/float64/int, NaN policies, df and confidence intervals, argument errors."""

from __future__ import annotations

import warnings
import zlib

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

stats = pytest.importorskip("scipy.stats")

import cuarray  # noqa: E402
from cuarray.scipy import stats as cst  # noqa: E402

G = cuarray.asarray
ALTS = ["two-sided", "less", "greater"]


def _rng(*key):
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


def _cmp(got, want, rtol=1e-9):
    g = got.get() if hasattr(got, "get") else np.asarray(got)
    assert np.shape(g) == np.shape(want), (np.shape(g), np.shape(want))
    np.testing.assert_allclose(g, want, rtol=rtol, atol=rtol)


def _res(got, want, rtol, fields=("statistic", "pvalue", "df")):
    for f in fields:
        _cmp(getattr(got, f), getattr(want, f), rtol)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64])
@pytest.mark.parametrize("alternative", ALTS)
def test_ttests(dtype, alternative):
    rng = _rng("t", np.dtype(dtype).char, alternative)
    a = (rng.normal(size=(8, 3)) * 5 + 1).astype(dtype)
    b = (rng.normal(size=(8, 3)) * 5 + 2).astype(dtype)
    c = (rng.normal(size=(11, 3)) * 3).astype(dtype)
    tol = 1e-4 if dtype == np.float32 else 1e-9
    for axis, keepdims in [(0, False), (0, True), (-1, False), (1, True)]:
        kw = dict(axis=axis, alternative=alternative, keepdims=keepdims)
        _res(cst.ttest_1samp(G(a), 0.5, **kw), stats.ttest_1samp(a, 0.5, **kw), tol)
        _res(cst.ttest_rel(G(a), G(b), **kw), stats.ttest_rel(a, b, **kw), tol)
        for equal_var in (True, False):
            _res(cst.ttest_ind(G(a), G(b), equal_var=equal_var, **kw), stats.ttest_ind(a, b, equal_var=equal_var, **kw), tol)
    for equal_var in (True, False):
        _res(cst.ttest_ind(G(a), G(c), equal_var=equal_var, alternative=alternative),
             stats.ttest_ind(a, c, equal_var=equal_var, alternative=alternative), tol)
    got, want = cst.ttest_1samp(G(a), 0.5, alternative=alternative), stats.ttest_1samp(a, 0.5, alternative=alternative)
    for level in (0.9, 0.95):
        gl, wl = got.confidence_interval(level), want.confidence_interval(level)
        _cmp(gl.low, wl.low, tol)
        _cmp(gl.high, wl.high, tol)
    s, p = got  # unpacks as SciPy's
    _cmp(p, want.pvalue, tol)


def test_ttest_nan_policies_and_errors():
    rng = _rng("tnan")
    a, b = rng.normal(size=(9, 4)), rng.normal(size=(12, 4)) + 0.3
    a[2, 1] = a[5, 3] = b[0, 0] = np.nan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for policy in ("propagate", "omit"):
            # 'propagate': a NaN slice's statistic and p-value are NaN (its df is not compared:
            # SciPy's decorator may set it NaN too); 'omit': df counts each slice's values
            f = ("statistic", "pvalue") if policy == "propagate" else ("statistic", "pvalue", "df")
            _res(cst.ttest_1samp(G(a), 0.1, nan_policy=policy), stats.ttest_1samp(a, 0.1, nan_policy=policy), 1e-9, f)
            _res(cst.ttest_rel(G(a), G(b[:9]), nan_policy=policy), stats.ttest_rel(a, b[:9], nan_policy=policy), 1e-9, f)
            for ev in (True, False):
                _res(cst.ttest_ind(G(a), G(b), equal_var=ev, nan_policy=policy),
                     stats.ttest_ind(a, b, equal_var=ev, nan_policy=policy), 1e-9, f)
    with pytest.raises(ValueError):
        cst.ttest_1samp(G(a), 0.0, nan_policy="raise")
    with pytest.raises(ValueError):
        cst.ttest_ind(G(a), G(b), alternative="bigger")
    for bad in (-0.1, 0.5):
        with pytest.raises(ValueError, match="Trimming percentage"):
            stats.ttest_ind(a, b, trim=bad)
        with pytest.raises(ValueError, match="Trimming percentage"):
            cst.ttest_ind(G(a), G(b), trim=bad)
    # `trim` with NaNs omitted: one test per slice on its non-NaN values, as SciPy (NotImplementedError before)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for axis, keepdims in ((0, False), (0, True), (1, False)):
            _res(cst.ttest_ind(G(a[:4]) if axis else G(a), G(b[:4]) if axis else G(b), trim=0.2, nan_policy="omit",
                               axis=axis, keepdims=keepdims),
                 stats.ttest_ind(a[:4] if axis else a, b[:4] if axis else b, trim=0.2, nan_policy="omit", axis=axis,
                                 keepdims=keepdims), 1e-9)
    # a resampling method with NaNs propagated: SciPy's NaN for the NaN slices and its seeded p-value
    # for the others (one batch of resamples for every slice); with NaNs omitted, one test per slice
    # drawing from the method's generator in slice order, as SciPy (NotImplementedError before)
    methods = (lambda: stats.PermutationMethod(n_resamples=199, rng=1), lambda: stats.MonteCarloMethod(n_resamples=199, rng=2))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for m in methods:
            _res(cst.ttest_ind(G(a), G(b), method=m()), stats.ttest_ind(a, b, method=m()), 1e-9, ("statistic", "pvalue"))
        gens = (lambda: stats.PermutationMethod(n_resamples=99, rng=np.random.default_rng(3)),
                lambda: stats.MonteCarloMethod(n_resamples=99, rng=np.random.default_rng(4)), methods[0])
        for m in gens:
            for alt in ALTS:
                _res(cst.ttest_ind(G(a), G(b), method=m(), nan_policy="omit", alternative=alt),
                     stats.ttest_ind(a, b, method=m(), nan_policy="omit", alternative=alt), 1e-9)
            _res(cst.ttest_ind(G(a.T), G(b.T), axis=1, keepdims=True, method=m(), nan_policy="omit", equal_var=False),
                 stats.ttest_ind(a.T, b.T, axis=1, keepdims=True, method=m(), nan_policy="omit", equal_var=False), 1e-9)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_ttest_ind_trim_and_single_values(dtype):
    """Yuen's trimmed test (trim 0.1 to 0.3: g of 0 to 3 per sample), a NaN slice under
    'propagate' (NaN statistic), axes; a pooled test with one value in a sample (SciPy: its
    variance counts as zero)."""
    rng = _rng("trim", np.dtype(dtype).char)
    a, b = rng.normal(size=(11, 3)).astype(dtype), (rng.normal(size=(7, 3)) + 0.5).astype(dtype)
    a[2, 1] = np.nan
    tol = 1e-4 if dtype == np.float32 else 1e-9
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cases = [(0.1, True, "two-sided"), (0.2, False, "less"), (0.3, True, "greater"), (0.25, False, "two-sided")]
        for trim, ev, alt in cases:
            kw = dict(trim=trim, equal_var=ev, alternative=alt)
            _res(cst.ttest_ind(G(a), G(b), **kw), stats.ttest_ind(a, b, **kw), tol, ("statistic", "pvalue"))
            _res(cst.ttest_ind(G(a.T), G(b.T), axis=1, keepdims=True, **kw),
                 stats.ttest_ind(a.T, b.T, axis=1, keepdims=True, **kw), tol, ("statistic", "pvalue"))
            _res(cst.ttest_ind(G(a[:, 0]), G(b[:, 0]), **kw), stats.ttest_ind(a[:, 0], b[:, 0], **kw), tol)
        one, many = np.array([1.5], dtype), np.array([1.0, 2.0, 4.0, 3.5], dtype)
        _res(cst.ttest_ind(G(one), G(many)), stats.ttest_ind(one, many), tol)
        _res(cst.ttest_ind(G(many), G(one)), stats.ttest_ind(many, one), tol)


@pytest.mark.parametrize("alternative", ALTS)
def test_linregress(alternative):
    rng = _rng("lr", alternative)
    x = rng.normal(size=(12, 3))
    y = 0.7 * x + rng.normal(size=(12, 3))
    fields = ("slope", "intercept", "rvalue", "pvalue", "stderr", "intercept_stderr")
    _res(cst.linregress(G(x[:, 0]), G(y[:, 0]), alternative), stats.linregress(x[:, 0], y[:, 0], alternative), 1e-9, fields)
    for axis, keepdims in [(0, False), (0, True), (1, False)]:
        _res(cst.linregress(G(x), G(y), alternative, axis=axis, keepdims=keepdims),
             stats.linregress(x, y, alternative, axis=axis, keepdims=keepdims), 1e-9, fields)
    _res(cst.linregress(G(x[:2, 0]), G(y[:2, 0])), stats.linregress(x[:2, 0], y[:2, 0]), 1e-9, fields)
    xn, yn = x[:, 0].copy(), y[:, 0].copy()
    xn[3], yn[7] = np.nan, np.nan
    _res(cst.linregress(G(xn), G(yn), nan_policy="omit"), stats.linregress(xn, yn, nan_policy="omit"), 1e-9, fields)
    with pytest.raises(ValueError):
        cst.linregress(G(np.ones(5)), G(y[:5, 0]))
    with pytest.raises(ValueError):
        cst.linregress(G(np.ones(0)), G(np.ones(0)))
    slope, intercept, r, p, se = cst.linregress(G(x[:, 0]), G(y[:, 0]))  # five fields, as SciPy's


@pytest.mark.parametrize("equal_var", [True, False])
@pytest.mark.parametrize("alternative", ALTS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_ttest_ind_from_stats(dtype, alternative, equal_var):
    rng = _rng("from_stats", dtype, alternative, equal_var)
    m1, s1, m2, s2 = (rng.normal(size=(4, 1)).astype(dtype), rng.random(5).astype(dtype) + 0.1,
                      rng.normal(size=5).astype(dtype), rng.random((4, 1)).astype(dtype))
    n1, n2 = rng.integers(1, 30, size=5), np.array([[1], [2], [7], [40]])
    kw = dict(equal_var=equal_var, alternative=alternative)
    tol = 2e-5 if dtype == np.float32 else 1e-9
    with np.errstate(all="ignore"):
        _res(cst.ttest_ind_from_stats(G(m1), G(s1), G(n1), G(m2), G(s2), G(n2), **kw),
             stats.ttest_ind_from_stats(m1, s1, n1, m2, s2, n2, **kw), tol, ("statistic", "pvalue"))
        # a strided view, Python scalars, a zero variance on both sides (t = 0/0: NaN, as SciPy)
        _res(cst.ttest_ind_from_stats(G(m1[::2]), 1.5, 12, 0.25, G(s2[::2]), 9, **kw),
             stats.ttest_ind_from_stats(m1[::2], 1.5, 12, 0.25, s2[::2], 9, **kw), tol, ("statistic", "pvalue"))
        _res(cst.ttest_ind_from_stats(1.0, 0.0, 4, 1.0, 0.0, 6, **kw),
             stats.ttest_ind_from_stats(1.0, 0.0, 4, 1.0, 0.0, 6, **kw), 1e-12, ("statistic", "pvalue"))
    for host_n1, host_n2, dev in ((n1, n2, True), (12, 9, False)):  # int64 arrays promote float32; Python ints not
        got = cst.ttest_ind_from_stats(G(m1), G(s1), G(host_n1) if dev else host_n1, G(m2), G(s2),
                                       G(host_n2) if dev else host_n2, **kw)
        with np.errstate(all="ignore"):
            want = stats.ttest_ind_from_stats(m1, s1, host_n1, m2, s2, host_n2, **kw)
        assert got.statistic.dtype == want.statistic.dtype and got.pvalue.dtype == want.pvalue.dtype
    with pytest.raises(ValueError):
        cst.ttest_ind_from_stats(G(m1), G(s1), 3, G(m2), G(s2), 4, alternative="bogus")
