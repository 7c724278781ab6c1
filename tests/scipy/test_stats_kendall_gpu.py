"""kendalltau on the GPU against SciPy: exact and asymptotic, ties, variants 'b' and 'c',
alternatives, integer and float32 input, axis and keepdims, NaN policies, constant input."""

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

G = cuarray.asarray


def _cmp(got, want, tol=1e-9):
    for g, w in ((got.statistic, want.statistic), (got.pvalue, want.pvalue)):
        g = g.get()
        assert g.shape == np.shape(w)
        np.testing.assert_allclose(g, w, rtol=tol, atol=tol)


@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
@pytest.mark.parametrize("variant", ["b", "c"])
def test_kendalltau(alternative, variant):
    rng = np.random.default_rng(len(alternative) + ord(variant))
    kw = dict(alternative=alternative, variant=variant)
    for n in (5, 20, 40, 300):
        x = rng.normal(size=n)
        y = 0.4 * x + rng.normal(size=n)
        for method in ("auto", "asymptotic") + (("exact",) if n <= 40 else ()):
            _cmp(cst.kendalltau(G(x), G(y), method=method, **kw), sst.kendalltau(x, y, method=method, **kw))
        xt, yt = np.round(x * 2), np.round(y)  # ties: asymptotic with the tie terms
        _cmp(cst.kendalltau(G(xt), G(yt), **kw), sst.kendalltau(xt, yt, **kw))
        _cmp(cst.kendalltau(G(xt.astype(np.int64)), G(yt.astype(np.int8)), **kw),
             sst.kendalltau(xt.astype(np.int64), yt.astype(np.int8), **kw))
    x2, y2 = rng.normal(size=(4, 9)), rng.normal(size=(4, 9))
    _cmp(cst.kendalltau(G(x2), G(y2), axis=1, **kw), sst.kendalltau(x2, y2, axis=1, **kw))
    _cmp(cst.kendalltau(G(x2), G(y2), axis=0, keepdims=True, **kw), sst.kendalltau(x2, y2, axis=0, keepdims=True, **kw))
    _cmp(cst.kendalltau(G(x2.astype(np.float32)), G(y2.astype(np.float32)), **kw),
         sst.kendalltau(x2.astype(np.float32), y2.astype(np.float32), **kw), 1e-6)


def test_nan_constant_and_errors():
    x, y = np.array([1.0, 2.0, np.nan, 4.0, 5.0, 3.0]), np.array([2.0, 1.0, 3.0, 5.0, 4.0, 6.0])
    for policy in ("propagate", "omit"):
        _cmp(cst.kendalltau(G(x), G(y), nan_policy=policy), sst.kendalltau(x, y, nan_policy=policy))
    with pytest.raises(ValueError):
        cst.kendalltau(G(x), G(y), nan_policy="raise")
    _cmp(cst.kendalltau(G(np.ones(5)), G(y[:5])), sst.kendalltau(np.ones(5), y[:5]))
    with pytest.raises(ValueError):
        cst.kendalltau(G(y), G(y[:4]))
    tied = np.array([1.0, 1.0, 2.0, 3.0, 4.0, 5.0])
    with pytest.raises(ValueError):
        sst.kendalltau(tied, y, method="exact")
    with pytest.raises(ValueError):
        cst.kendalltau(G(tied), G(y), method="exact")
    with pytest.raises(ValueError):
        cst.kendalltau(G(y), G(y), variant="a")
