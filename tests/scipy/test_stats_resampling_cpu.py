"""The resampling p-values of ttest_ind(method=...) and mannwhitneyu(method=PermutationMethod)
without a GPU: `_resampling.independent_pvalue` run with NumPy in place of cuarray's routines,
with NumPy's t and U statistics, against SciPy's p-values for the same seeded methods (exact
partitions, permutation draws, Monte Carlo samples in one or several batches); method errors."""

from __future__ import annotations

import types

import numpy as np
import pytest

sst = pytest.importorskip("scipy.stats")

from cuarray.scipy import stats as cst  # noqa: E402
from cuarray.scipy.stats import _resampling  # noqa: E402
from cuarray.testing.fake_device import host_packages  # noqa: E402

cst_real = cst

SCIPY_118 = tuple(int(v) for v in __import__("scipy").__version__.split(".")[:2]) >= (1, 18)
ALTS = ["two-sided", "less", "greater"]


def resampling_standins():
    import cuarray._manipulation.joining as joining

    return {_resampling: {"asarray": np.asarray, "take": np.take, "isnan": np.isnan, "abs_": np.abs, "sum_": np.sum,
                          "where": np.where, "concatenate": np.concatenate},
            joining: {"concatenate": np.concatenate}}


def _host(*standins):
    """Private copies of scipy.stats' modules (and of joining: nothing of cuarray patched): the
    resampling module's and the package's."""
    copies = host_packages([cst_real], *standins)
    return types.SimpleNamespace(resampling=copies[_resampling], stats=copies[cst_real])


@pytest.fixture(scope="module")
def numpy_resampling():
    return _host(resampling_standins())


def _t(equal_var):
    return lambda a, b: sst.ttest_ind(a, b, axis=-1, equal_var=equal_var).statistic


def _methods():
    return [sst.PermutationMethod(rng=1), sst.PermutationMethod(n_resamples=300, rng=2),
            sst.PermutationMethod(n_resamples=300, batch=70, random_state=3),
            sst.MonteCarloMethod(n_resamples=500, rng=4), sst.MonteCarloMethod(n_resamples=500, batch=120, rng=5)]


@pytest.mark.skipif(not SCIPY_118, reason="SciPy 1.18's ttest_ind(method=...)")
@pytest.mark.parametrize("alternative", ALTS)
@pytest.mark.parametrize("equal_var", [True, False])
def test_ttest_ind_pvalue_is_scipys(numpy_resampling, alternative, equal_var):
    _resampling = numpy_resampling.resampling  # (the private copy)
    rng = np.random.default_rng(len(alternative) + equal_var)
    for x, y in [(rng.normal(size=(3, 6)), rng.normal(size=(3, 5)) + 0.5),
                 (rng.normal(size=(2, 9)).astype(np.float32), rng.normal(size=(2, 8)).astype(np.float32))]:
        for i, make in enumerate(_methods()):
            want = sst.ttest_ind(x, y, axis=-1, equal_var=equal_var, alternative=alternative, method=make)
            t = _t(equal_var)(x, y)
            got = _resampling.independent_pvalue(x, y, _t(equal_var), _methods()[i], alternative, t)
            assert got.dtype == want.pvalue.dtype
            np.testing.assert_allclose(got, want.pvalue, rtol=1e-12, atol=0)


@pytest.mark.parametrize("alternative", ALTS)
def test_mannwhitneyu_pvalue_is_scipys(numpy_resampling, alternative):
    _resampling = numpy_resampling.resampling  # (the private copy)
    rng = np.random.default_rng(len(alternative))
    x, y = np.round(rng.normal(size=(3, 6)) * 2), np.round(rng.normal(size=(3, 7)) * 2)
    ranks = sst.rankdata(np.concatenate((x, y), axis=-1), axis=-1)
    u1 = ranks[:, :6].sum(-1) - 21
    for i, make in enumerate(_methods()[:3]):
        want = sst.mannwhitneyu(x, y, axis=-1, alternative=alternative, method=make)
        got = _resampling.independent_pvalue(ranks[:, :6], ranks[:, 6:], lambda a, b: a.sum(-1) - 21,
                                             _methods()[i], alternative, u1)
        np.testing.assert_allclose(got, want.pvalue, rtol=1e-12, atol=0)


def test_method_errors(numpy_resampling):
    _resampling, cst = numpy_resampling.resampling, numpy_resampling.stats  # (the private copies)
    x = np.arange(5.0)
    for bad in ("permutation", sst.BootstrapMethod()):
        with pytest.raises(ValueError, match="method"):
            cst.ttest_ind(x, x, method=bad)
    with pytest.raises(TypeError, match="rvs"):
        _resampling.independent_pvalue(x[None], x[None], None, sst.MonteCarloMethod(), "less", x[:1])
    with pytest.raises(ValueError, match="two or more"):
        _resampling.independent_pvalue(x[None, :1], x[None], None, sst.PermutationMethod(), "less", x[:1])
    with pytest.raises(ValueError, match="n_resamples"):
        _resampling.independent_pvalue(x[None], x[None], None, sst.PermutationMethod(n_resamples=1.5), "less", x[:1])


class _H(np.ndarray):
    def get(self):
        return np.asarray(self)


def _h(f):
    return lambda *a, **k: np.asarray(f(*a, **k)).view(_H)


@pytest.fixture(scope="module")
def numpy_tests():
    import scipy.special as sp

    from cuarray.scipy.stats import _omit, _rank_tests, _ttests
    names = {
        "as_literal_or_array": lambda x, fn: np.asarray(x).view(_H), "as_parameter": lambda x, fn: np.asarray(x),
        "isnan": _h(np.isnan), "any_": _h(np.any), "full": _h(np.full), "broadcast_to": _h(np.broadcast_to),
        "expand_dims": _h(np.expand_dims), "concatenate": _h(np.concatenate), "moveaxis": _h(np.moveaxis),
        "sort": _h(np.sort), "sqrt": _h(np.sqrt), "sum_": _h(np.sum), "where": _h(np.where), "mean": _h(np.mean),
        "var": _h(np.var), "nanmean": _h(np.nanmean), "nanvar": _h(np.nanvar), "stdtr": _h(sp.stdtr),
        "stdtrit": _h(sp.stdtrit), "take": _h(np.take), "take_along_axis": _h(np.take_along_axis),
        "argsort": _h(np.argsort), "maximum": _h(np.maximum), "ndtr": _h(sp.ndtr), "asarray": _h(np.asarray),
        "rankdata": _h(lambda a, method="average", axis=None: sst.rankdata(a, method, axis=axis)),
        "has_nan": lambda arrays: any(np.isnan(a).any() for a in arrays),
    }
    return _host(resampling_standins(), {mod: {n: f for n, f in names.items() if hasattr(mod, n)}
                                         for mod in (_ttests, _rank_tests, _omit)})


@pytest.mark.skipif(not SCIPY_118, reason="SciPy 1.18's ttest_ind(method=...)")
def test_whole_functions_are_scipys(numpy_tests):
    """ttest_ind and mannwhitneyu themselves (axis, broadcasting, keepdims, trim) with a method."""
    cst = numpy_tests.stats  # (the private copy)
    rng = np.random.default_rng(8)
    x, y = rng.normal(size=(6, 3)), rng.normal(size=(5, 1)) + 0.4
    for alt in ALTS:
        for kw in (dict(), dict(equal_var=False), dict(trim=0.2), dict(keepdims=True)):
            for i in range(5):
                want = sst.ttest_ind(x, y, alternative=alt, method=_methods()[i], **kw)
                got = cst.ttest_ind(x, y, alternative=alt, method=_methods()[i], **kw)
                for g, w in ((got.statistic, want.statistic), (got.pvalue, want.pvalue), (got.df, want.df)):
                    assert np.shape(g) == np.shape(w)
                    np.testing.assert_allclose(g, w, rtol=1e-12, atol=0)
        xr, yr = np.round(x * 2), np.round(y * 2)
        for i in range(3):
            want = sst.mannwhitneyu(xr, yr, alternative=alt, method=_methods()[i])
            got = cst.mannwhitneyu(xr, yr, alternative=alt, method=_methods()[i])
            np.testing.assert_allclose(got.statistic, want.statistic, rtol=1e-12, atol=0)
            np.testing.assert_allclose(got.pvalue, want.pvalue, rtol=1e-12, atol=0)
