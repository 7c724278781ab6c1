"""mannwhitneyu on the GPU against SciPy: exact and asymptotic (with and without continuity),
'auto' on both sides of SciPy's choice, ties, alternatives, axes, broadcasting, keepdims,
float32/int input, NaN policies, argument errors."""

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
ALTS = ["two-sided", "less", "greater"]


def _cmp(got, want, tol=1e-9):
    for g, w in zip(got, want):
        g = g.get()
        assert g.shape == np.shape(w), (g.shape, np.shape(w))
        np.testing.assert_allclose(g, w, rtol=tol, atol=tol)


@pytest.mark.parametrize("alternative", ALTS)
@pytest.mark.parametrize("method", ["auto", "exact", "asymptotic"])
def test_mannwhitneyu(alternative, method):
    rng = np.random.default_rng(len(alternative) * 10 + len(method))
    x, y = rng.normal(size=(6, 3)), rng.normal(size=(8, 3)) + 0.5  # small, no ties: exact under 'auto'
    kw = dict(alternative=alternative, method=method)
    _cmp(cst.mannwhitneyu(G(x), G(y), **kw), sst.mannwhitneyu(x, y, **kw))
    _cmp(cst.mannwhitneyu(G(x.T), G(y.T), axis=1, keepdims=True, **kw), sst.mannwhitneyu(x.T, y.T, axis=1, keepdims=True, **kw))
    xl, yl = rng.normal(size=(20, 2)), rng.normal(size=(15, 1))  # large: asymptotic; y broadcast
    _cmp(cst.mannwhitneyu(G(xl), G(yl), **kw), sst.mannwhitneyu(xl, yl, **kw))
    if method != "exact":
        xt, yt = np.round(rng.normal(size=7)), np.round(rng.normal(size=5))  # ties: asymptotic under 'auto'
        for cont in (True, False):
            _cmp(cst.mannwhitneyu(G(xt), G(yt), use_continuity=cont, **kw), sst.mannwhitneyu(xt, yt, use_continuity=cont, **kw))
    xf = x.astype(np.float32)
    _cmp(cst.mannwhitneyu(G(xf), G(y.astype(np.float32)), **kw), sst.mannwhitneyu(xf, y.astype(np.float32), **kw), 1e-5)
    xi, yi = rng.permutation(20)[:6], rng.permutation(20)[:5] + 20
    _cmp(cst.mannwhitneyu(G(xi), G(yi), **kw), sst.mannwhitneyu(xi, yi, **kw))


def test_nan_and_errors():
    x, y = np.array([1.0, 2.0, np.nan, 4.0]), np.array([3.0, 5.0, 6.0])
    _cmp(cst.mannwhitneyu(G(x), G(y)), sst.mannwhitneyu(x, y))
    with pytest.raises(ValueError):
        cst.mannwhitneyu(G(x), G(y), nan_policy="raise")
    with pytest.raises(ValueError):
        cst.mannwhitneyu(G(y), G(y), alternative="bigger")
    with pytest.raises(ValueError):
        cst.mannwhitneyu(G(y), G(y), method="fast")
    with pytest.raises(ValueError):
        cst.mannwhitneyu(G(y), G(np.ones(0)))


@pytest.mark.parametrize("alternative", ALTS)
@pytest.mark.parametrize("method", ["auto", "exact", "asymptotic"])
def test_mannwhitneyu_omit(alternative, method):
    """nan_policy='omit' with NaNs: each slice's own counts, 'auto' per slice (a pair of counts
    with tied and untied slices), a slice whose x is all NaN (SciPy: NaN), axis 0 and 1."""
    import warnings

    rng = np.random.default_rng(len(alternative) * 7 + len(method))
    x, y = rng.normal(size=(10, 5)), rng.normal(size=(9, 5)) + 0.4
    x[:, 1], x[:, 4] = np.round(x[:, 1]), np.round(x[:, 4] * 2)  # ties
    y[:, 1], y[:, 4] = np.round(y[:, 1]), np.round(y[:, 4] * 2)
    x[3, 0] = y[0, 0] = np.nan          # counts (9, 8), no ties
    x[[1, 6], 1] = np.nan               # counts (8, 9), ties
    x[:, 3] = np.nan                    # no x values left
    x[5, 4] = y[2, 4] = np.nan          # counts (9, 8) again, ties
    kw = dict(alternative=alternative, method=method, nan_policy="omit")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = sst.mannwhitneyu(x, y, **kw)
        want_t = sst.mannwhitneyu(x.T, y.T, axis=1, keepdims=True, **kw)
    _cmp(cst.mannwhitneyu(G(x), G(y), **kw), want)
    _cmp(cst.mannwhitneyu(G(x.T), G(y.T), axis=1, keepdims=True, **kw), want_t)
    _cmp(cst.mannwhitneyu(G(x[:, 0]), G(y[:, 0]), **kw), sst.mannwhitneyu(x[:, 0], y[:, 0], **kw))
