"""wilcoxon without a GPU: its device part (signed ranks, zero methods, tie term, the normal
approximation, the permutation test's sign-pattern product, the NaN paths) run with NumPy in place
of cuarray's routines against SciPy; the host's exact null distribution against SciPy's; argument
errors and the signature."""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest

sst = pytest.importorskip("scipy.stats")
special = pytest.importorskip("scipy.special")

from cuarray.scipy import stats as cst  # noqa: E402
from cuarray.scipy.stats import _rank_tests, _wilcoxon  # noqa: E402

SCIPY_118 = tuple(int(v) for v in __import__("scipy").__version__.split(".")[:2]) >= (1, 18)
needs_118 = pytest.mark.skipif(not SCIPY_118, reason="SciPy 1.18's wilcoxon (its 'auto' permutation test)")
ZERO = ["wilcox", "pratt", "zsplit"]
ALTS = ["two-sided", "less", "greater"]


class _H(np.ndarray):
    def get(self):
        return np.asarray(self)


def _h(f):
    return lambda *a, **k: np.asarray(f(*a, **k)).view(_H)


@pytest.fixture
def numpy_wx(monkeypatch):
    names = {
        "as_literal_or_array": lambda x, fn: np.asarray(x).view(_H), "full": _h(np.full), "asarray": _h(np.asarray),
        "isnan": _h(np.isnan), "take": _h(np.take), "take_along_axis": _h(np.take_along_axis),
        "moveaxis": _h(np.moveaxis), "where": _h(np.where), "argsort": _h(np.argsort), "any_": _h(np.any),
        "sum_": _h(np.sum), "broadcast_to": _h(np.broadcast_to), "matmul": _h(np.matmul), "abs_": _h(np.abs),
        "sign_": _h(np.sign), "sqrt": _h(np.sqrt), "ndtr": _h(special.ndtr),
        "rankdata": _h(lambda a, method="average", axis=None: sst.rankdata(a, method, axis=axis)),
    }
    for mod in (_wilcoxon, _rank_tests):
        for name, fn in names.items():
            if hasattr(mod, name):
                monkeypatch.setattr(mod, name, fn)


def _same(got, want, z=False):
    pairs = [(got.statistic, want.statistic), (got.pvalue, want.pvalue)]
    if z:
        pairs.append((got.zstatistic, want.zstatistic))
    for g, w in pairs:
        g, w = np.asarray(g), np.asarray(w)
        assert g.shape == w.shape and g.dtype == w.dtype, (g.shape, w.shape, g.dtype, w.dtype)
        np.testing.assert_allclose(g, w, rtol=1e-5 if g.dtype == np.float32 else 1e-12, atol=0)


def _both(*args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cst.wilcoxon(*args, **kw), sst.wilcoxon(*args, **kw)


@needs_118
@pytest.mark.parametrize("zero_method", ZERO)
@pytest.mark.parametrize("alternative", ALTS)
@pytest.mark.parametrize("method", ["auto", "exact", "asymptotic"])
def test_wilcoxon_matches_scipy(numpy_wx, zero_method, alternative, method):
    rng = np.random.default_rng(len(zero_method) * 9 + len(alternative) * 3 + len(method))
    kw = dict(zero_method=zero_method, alternative=alternative, method=method)
    z = method == "asymptotic"
    x, y = rng.normal(size=(12, 3)), rng.normal(size=(12, 3)) + 0.3       # no ties: exact under 'auto'
    _same(*_both(x, y, **kw), z)
    _same(*_both(x.T, y.T, axis=1, keepdims=True, **kw), z)
    _same(*_both(x, y, axis=None, **kw), z)
    xt = np.round(rng.normal(size=(4, 11)) * 2)                           # ties and zeros: permutation
    _same(*_both(xt, axis=1, **kw), z)
    _same(*_both(xt.astype(np.float32), axis=1, **kw), z)
    for c in (True, False):
        _same(*_both(np.round(rng.normal(size=(20, 2)) * 3), correction=c, **kw), z)   # ties, > 13
        _same(*_both(rng.normal(size=60), correction=c, **kw), z)                     # > 50: asymptotic
    _same(*_both(rng.integers(-5, 6, 9), **kw), z)
    _same(*_both(np.zeros(4), **kw), z)


@needs_118
@pytest.mark.parametrize("policy", ["propagate", "omit"])
def test_nan(numpy_wx, policy):
    rng = np.random.default_rng(11)
    x = np.round(rng.normal(size=(12, 5)) * 2)
    x[:, 0] = rng.normal(size=12)          # no ties
    x[3, 0] = np.nan                       # count 11, exact
    x[[1, 2], 1] = np.nan                  # count 10, ties: permutation
    x[:, 3] = np.nan                       # nothing left
    for zm in ZERO:
        for alt in ALTS:
            _same(*_both(x, zero_method=zm, alternative=alt, nan_policy=policy))
            _same(*_both(x, zero_method=zm, alternative=alt, nan_policy=policy, method="asymptotic"), True)
    _same(*_both(x[:, 0], nan_policy=policy))
    with pytest.raises(ValueError, match="nan"):
        cst.wilcoxon(x, nan_policy="raise")


@needs_118
def test_permutation_method(numpy_wx):
    """Every sign pattern, and SciPy's drawn flips (Generator, in one batch or several; a
    RandomState seed), each side given a fresh method with the same seed."""
    rng = np.random.default_rng(3)
    x = np.round(rng.normal(size=(3, 9)) * 2)
    makers = [lambda: sst.PermutationMethod(), lambda: sst.PermutationMethod(n_resamples=600),
              lambda: sst.PermutationMethod(n_resamples=100, rng=7),
              lambda: sst.PermutationMethod(n_resamples=100, batch=30, rng=8),
              lambda: sst.PermutationMethod(n_resamples=90, random_state=9)]
    for alt in ALTS:
        for zm in ZERO:
            for make in makers:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    want = sst.wilcoxon(x, axis=1, method=make(), alternative=alt, zero_method=zm)
                _same(cst.wilcoxon(x, axis=1, method=make(), alternative=alt, zero_method=zm), want)


@pytest.mark.parametrize("n", [0, 1, 5, 12, 30])
def test_exact_pvalue_is_scipys(n):
    rng = np.random.default_rng(n)
    for _ in range(5):
        x = rng.normal(size=n) if n else np.ones(0)
        if n == 0:
            continue
        want = {a: sst.wilcoxon(x, alternative=a, method="exact") for a in ALTS}
        for a in ALTS:
            rp = want["greater"].statistic
            np.testing.assert_allclose(_wilcoxon.exact_pvalue(float(rp), n, a), want[a].pvalue, rtol=1e-12, atol=0)
    assert sum(_wilcoxon.signed_rank_counts(n)) == 2 ** n


def test_errors(numpy_wx):
    x = np.array([1.0, -2.0, 3.0])
    for kw, msg in [(dict(zero_method="none"), "zero_method"), (dict(correction=2), "correction"),
                    (dict(alternative="bigger"), "alternative"), (dict(method="fast"), "method"),
                    (dict(nan_policy="skip"), "nan_policy")]:
        with pytest.raises(ValueError, match=msg):
            cst.wilcoxon(x, **kw)
    with pytest.raises(ValueError, match="same length"):
        cst.wilcoxon(x, x[:2])
    with pytest.raises(ValueError, match="real"):
        cst.wilcoxon(x + 1j)


def test_signature_is_scipys():
    assert inspect.signature(cst.wilcoxon) == inspect.signature(sst.wilcoxon)
