"""spearmanr(nan_policy='omit') with NaNs in 2-D input (SciPy's masked-array path: every pair of
variables over its complete observations) without a GPU: `_correlation._omit_pairwise` and
`_omit.omit_reduce` run with NumPy in place of cuarray's routines, against SciPy."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

sst = pytest.importorskip("scipy.stats")
special = pytest.importorskip("scipy.special")

from cuarray.scipy import stats as cst  # noqa: E402
from cuarray.scipy.stats import _correlation, _descriptive, _omit  # noqa: E402


class _H(np.ndarray):
    def get(self):
        return np.asarray(self)


def _h(f):
    return lambda *a, **k: np.asarray(f(*a, **k)).view(_H)


@pytest.fixture
def numpy_spearman(monkeypatch):
    names = {
        "as_literal_or_array": lambda x, fn: np.asarray(x).view(_H), "full": _h(np.full), "asarray": _h(np.asarray),
        "take": _h(np.take), "isnan": _h(np.isnan), "any_": _h(np.any), "all_": _h(np.all),
        "concatenate": _h(np.concatenate), "sqrt": _h(np.sqrt), "sum_": _h(np.sum), "where": _h(np.where),
        "mean": _h(np.mean), "stdtr": _h(special.stdtr), "abs_": _h(np.abs), "empty": _h(np.empty),
        "take_along_axis": _h(np.take_along_axis), "broadcast_to": _h(np.broadcast_to),
        "expand_dims": _h(np.expand_dims), "moveaxis": _h(np.moveaxis), "argsort": _h(np.argsort),
        "rankdata": _h(lambda a, method="average", axis=None: sst.rankdata(a, method, axis=axis)),
        "has_nan": lambda arrays: any(np.isnan(np.asarray(a, dtype=float)).any() for a in arrays),
    }
    for mod in (_correlation, _omit, _descriptive):
        for name, fn in names.items():
            if hasattr(mod, name):
                monkeypatch.setattr(mod, name, fn)


def _same(got, want):
    for g, w in ((got.statistic, want.statistic), (got.pvalue, want.pvalue)):
        g, w = np.asarray(g), np.asarray(w)
        assert g.shape == w.shape and g.dtype == w.dtype, (g.shape, w.shape, g.dtype, w.dtype)
        np.testing.assert_allclose(g, w, rtol=1e-12, atol=0)


@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
def test_spearmanr_omit_2d(numpy_spearman, alternative):
    rng = np.random.default_rng(len(alternative))
    a = rng.normal(size=(12, 4))
    a[[1, 5], 0] = np.nan
    a[3, 2] = np.nan
    a[[3, 7, 8], 3] = np.nan
    b = rng.normal(size=(12, 2))
    b[0, 1] = np.nan
    kw = dict(nan_policy="omit", alternative=alternative)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cases = [((a,), {}), ((a.T,), dict(axis=1)), ((a[:, :2],), {}), ((a, b), {}), ((a.T, b.T), dict(axis=1)),
                 ((a[:, 0], b[:, 1]), {}), ((a[:, :1], b), {}), ((a.astype(np.float32),), {})]
        for args, extra in cases:
            _same(cst.spearmanr(*args, **extra, **kw), sst.spearmanr(*args, **extra, **kw))


def test_spearmanr_omit_errors(numpy_spearman):
    a = np.array([1.0, np.nan, 3.0, 4.0])
    with pytest.raises(ValueError):
        cst.spearmanr(a, nan_policy="omit")
    with pytest.raises(ValueError, match="3 entries"):  # one complete pair
        cst.spearmanr(np.array([1.0, 2.0, np.nan]), np.array([np.nan, 2.0, 3.0]), nan_policy="omit")
