"""pearsonr/spearmanr p-values and pearsonr's confidence interval computed on the device (from
cuarray.scipy.special's betainc/stdtr/ndtri) against scipy.stats: every alternative, axis,
N-d input, float32, integers, constant slices, n = 2 and 3, and with SciPy made unimportable (it
is not needed at run time)."""

from __future__ import annotations

import sys
import zlib

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
    pytest.mark.filterwarnings("ignore::RuntimeWarning"),  # SciPy's ConstantInputWarning and errstate
]

stats = pytest.importorskip("scipy.stats")

import cuarray  # noqa: E402
from cuarray.scipy import stats as cst  # noqa: E402

G = cuarray.asarray
ALTERNATIVES = ["two-sided", "less", "greater"]


def _rng(*key):
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


def _close(got, want, rtol, atol=1e-300):
    got = np.asarray(got.get())
    want = np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


@pytest.mark.parametrize("alternative", ALTERNATIVES)
@pytest.mark.parametrize("shape,axis", [((30,), 0), ((12, 5), 0), ((5, 12), 1), ((3, 4, 9), -1), ((4, 9, 3), 1),
                                        ((6, 7), None)])
def test_pearsonr_pvalue_on_device(alternative, shape, axis):
    rng = _rng("pr", alternative, shape, axis)
    x = rng.normal(size=shape)
    y = 0.2 * x + rng.normal(size=shape)
    got = cst.pearsonr(G(x), G(y), alternative=alternative, axis=axis)
    want = stats.pearsonr(x, y, alternative=alternative, axis=axis)
    _close(got.statistic, want.statistic, 1e-12)
    _close(got.pvalue, want.pvalue, 1e-9, 1e-300)
    r, p = got  # unpacks as SciPy's
    assert got.correlation is r
    for level in (0.9, 0.95, 0.99):
        ci, wci = got.confidence_interval(level), want.confidence_interval(level)
        _close(ci.low, wci.low, 1e-9, 1e-12)
        _close(ci.high, wci.high, 1e-9, 1e-12)


def test_pearsonr_extreme_and_small_n():
    rng = _rng("pr-small")
    x = rng.normal(size=(3, 8))
    y = x + 1e-6 * rng.normal(size=(3, 8))  # r within 1e-12 of 1: tiny p-values
    for alternative in ALTERNATIVES:
        got, want = cst.pearsonr(G(x), G(y), axis=1, alternative=alternative), \
            stats.pearsonr(x, y, axis=1, alternative=alternative)
        # SciPy passes (1 + r)/2 to betaincc, whose 1 - x keeps only ~4 digits of 1 - r here;
        # ours passes (1 - r)/2 (exact): the two agree to SciPy's accuracy, not to ours
        _close(got.pvalue, want.pvalue, 2e-3, 1e-300)
    for n in (2, 3):
        got, want = cst.pearsonr(G(x[:, :n]), G(y[:, :n]), axis=1), stats.pearsonr(x[:, :n], y[:, :n], axis=1)
        _close(got.statistic, want.statistic, 1e-12)
        _close(got.pvalue, want.pvalue, 1e-12)
        ci, wci = got.confidence_interval(), want.confidence_interval()
        _close(ci.low, wci.low, 0)
        _close(ci.high, wci.high, 0)


def test_pearsonr_constant_broadcast_float32_and_integers():
    rng = _rng("pr-misc")
    x = rng.normal(size=(4, 10))
    x[1] = 0.1  # constant: NaN statistic and p (mean(x) - x is rounding noise, not 0)
    y = rng.normal(size=(1, 10))  # broadcasts against x's first axis (not along `axis`)
    got, want = cst.pearsonr(G(x), G(y), axis=1), stats.pearsonr(x, y, axis=1)
    _close(got.statistic, want.statistic, 1e-12)
    _close(got.pvalue, want.pvalue, 1e-9)
    x32, y32 = rng.normal(size=40).astype(np.float32), rng.normal(size=40).astype(np.float32)
    got, want = cst.pearsonr(G(x32), G(y32)), stats.pearsonr(x32, y32)
    assert got.statistic.dtype == got.pvalue.dtype == np.asarray(want.statistic).dtype == np.float32
    _close(got.statistic, want.statistic, 1e-5)
    _close(got.pvalue, want.pvalue, 1e-4)
    xi, yi = rng.integers(0, 20, size=25), rng.integers(0, 20, size=25)
    got, want = cst.pearsonr(G(xi), G(yi)), stats.pearsonr(xi, yi)
    assert got.statistic.dtype == np.float64
    _close(got.pvalue, want.pvalue, 1e-9)


@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_spearmanr_pvalue_on_device(alternative):
    rng = _rng("sp", alternative)
    a = rng.normal(size=(25, 4))
    a[:, 1] += a[:, 0]
    got, want = cst.spearmanr(G(a), alternative=alternative), stats.spearmanr(a, alternative=alternative)
    _close(got.statistic, want.statistic, 1e-12)
    # the diagonal: rho = 1 (or 1 - eps), p = 0 (or ~1e-240)
    _close(got.pvalue, want.pvalue, 1e-9, 1e-200)
    x = rng.normal(size=30)
    got = cst.spearmanr(G(x), G(2 * x + 1), alternative=alternative)  # rho = 1: t = inf
    want = stats.spearmanr(x, 2 * x + 1, alternative=alternative)
    _close(got.pvalue, want.pvalue, 1e-12, 1e-200)
    assert got.correlation is got.statistic


def test_p_values_need_no_scipy_at_run_time(monkeypatch):
    rng = _rng("noscipy")
    x, y = rng.normal(size=20), rng.normal(size=20)
    want_p, want_s = stats.pearsonr(x, y).pvalue, stats.spearmanr(x, y).pvalue
    for name in [m for m in sys.modules if m == "scipy" or m.startswith("scipy.")]:
        monkeypatch.setitem(sys.modules, name, None)  # `import scipy...` now raises ImportError
    _close(cst.pearsonr(G(x), G(y)).pvalue, want_p, 1e-9)
    _close(cst.spearmanr(G(x), G(y)).pvalue, want_s, 1e-9)
