"""ks_2samp without a GPU: its device part (`_ks._rows`, the NaN paths, omit by distinct counts)
run with NumPy in place of cuarray's routines against SciPy (statistic, p-value, location, sign
and their dtypes), the host p-value against SciPy's, the argument errors and the signature."""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest

sst = pytest.importorskip("scipy.stats")

from cuarray.scipy import stats as cst  # noqa: E402
from cuarray.scipy.stats import _ks, _rank_tests  # noqa: E402


SCIPY_118 = tuple(int(v) for v in __import__("scipy").__version__.split(".")[:2]) >= (1, 18)
# SciPy 1.17 returned float64 results (and a float64 sign) for every input: 1.18's are the contract
needs_118 = pytest.mark.skipif(not SCIPY_118, reason="SciPy 1.18's result dtypes")


class _H(np.ndarray):
    def get(self):
        return np.asarray(self)


def _h(f):
    return lambda *a, **k: np.asarray(f(*a, **k)).view(_H)


@pytest.fixture
def numpy_ks(monkeypatch):
    names = {
        "as_literal_or_array": lambda x, fn: np.asarray(x).view(_H), "full": _h(np.full), "asarray": _h(np.asarray),
        "isnan": _h(np.isnan), "take": _h(np.take), "take_along_axis": _h(np.take_along_axis),
        "concatenate": _h(np.concatenate), "moveaxis": _h(np.moveaxis), "cumsum": _h(np.cumsum),
        "where": _h(np.where), "argmax": _h(np.argmax), "argmin": _h(np.argmin), "argsort": _h(np.argsort),
        "any_": _h(np.any), "all_": _h(np.all), "sum_": _h(np.sum), "broadcast_to": _h(np.broadcast_to),
        "rankdata": _h(lambda a, method, axis: sst.rankdata(a, method, axis=axis)),
    }
    for mod in (_ks, _rank_tests):
        for name, fn in names.items():
            if hasattr(mod, name):
                monkeypatch.setattr(mod, name, fn)


def _same(got, want):
    assert len(got) == 2
    for g, w in zip((got.statistic, got.pvalue, got.statistic_location, got.statistic_sign),
                    (want.statistic, want.pvalue, want.statistic_location, want.statistic_sign)):
        g, w = np.asarray(g), np.asarray(w)
        assert g.shape == w.shape and g.dtype == w.dtype, (g.shape, w.shape, g.dtype, w.dtype)
        np.testing.assert_allclose(g, w, rtol=1e-12, atol=0)


def _both(*args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cst.ks_2samp(*args, **kw), sst.ks_2samp(*args, **kw)


@needs_118
@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
@pytest.mark.parametrize("method", ["auto", "exact", "asymp"])
def test_ks_2samp_matches_scipy(numpy_ks, alternative, method):
    rng = np.random.default_rng(len(alternative) * 3 + len(method))
    x, y = rng.normal(size=(9, 4)), rng.normal(size=(12, 4)) + 0.3
    _same(*_both(x, y, alternative, method))
    _same(*_both(x.T, y.T, alternative, method, axis=1, keepdims=True))
    _same(*_both(x, y[:, :1], alternative, method, axis=0))
    _same(*_both(x, y, alternative, method, axis=None, keepdims=True))
    xt, yt = np.round(rng.normal(size=(3, 15))), np.round(rng.normal(size=(3, 15)))  # ties, equal sizes
    _same(*_both(xt, yt, alternative, method, axis=-1))
    _same(*_both(xt.astype(np.float32), yt.astype(np.float32), alternative, method, axis=-1))
    _same(*_both(rng.integers(0, 9, 11), rng.integers(0, 9, 7), alternative, method))
    _same(*_both([1.0], [2.0], alternative, method))


@needs_118
@pytest.mark.parametrize("policy", ["propagate", "omit"])
def test_nan(numpy_ks, policy):
    rng = np.random.default_rng(5)
    x, y = rng.normal(size=(8, 5)), rng.normal(size=(7, 5))
    x[2, 0] = y[1, 0] = np.nan
    x[:, 3] = np.nan
    x[4, 4] = np.nan
    for alt in ("two-sided", "less", "greater"):
        _same(*_both(x, y, alt, nan_policy=policy))
        _same(*_both(x.T.astype(np.float32), y.T.astype(np.float32), alt, axis=1, nan_policy=policy, keepdims=True))
    _same(*_both(x[:, 0], y[:, 0], nan_policy=policy))
    with pytest.raises(ValueError, match="nan"):
        cst.ks_2samp(x, y, nan_policy="raise")


@needs_118
def test_empty(numpy_ks):
    _same(*_both(np.ones((2, 0)), np.ones((2, 3)), axis=1))


def test_errors(numpy_ks):
    with pytest.raises(ValueError, match="mode"):
        cst.ks_2samp([1.0, 2.0], [1.0, 3.0], method="fast")
    with pytest.raises(ValueError, match="alternative"):
        cst.ks_2samp([1.0, 2.0], [1.0, 3.0], alternative="bigger")
    with pytest.raises(ValueError, match="nan_policy"):
        cst.ks_2samp([1.0, 2.0], [1.0, 3.0], nan_policy="skip")


@pytest.mark.parametrize("n1,n2", [(5, 5), (30, 30), (7, 13), (40, 25), (300, 200)])
def test_pvalue_is_scipys(n1, n2):
    rng = np.random.default_rng(n1 + n2)
    x, y = rng.normal(size=n1), rng.normal(size=n2) + 0.2
    for alt in ("two-sided", "less", "greater"):
        for method in ("auto", "exact", "asymp"):
            want = sst.ks_2samp(x, y, alt, method)
            got = _ks.pvalue(np.float64(want.statistic), n1, n2, method, alt)
            np.testing.assert_allclose(got, want.pvalue, rtol=1e-12, atol=0)


def test_signature_is_scipys():
    assert inspect.signature(cst.ks_2samp) == inspect.signature(sst.ks_2samp)
