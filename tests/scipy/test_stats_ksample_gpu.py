"""bartlett, levene, fligner and kruskal on the GPU against SciPy: samples of different lengths,
N-D broadcasting along the other axes, every center, ties, float32, NaNs omitted (one test a
slice), an empty sample."""

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

G = cuarray.asarray
NAMES = ("bartlett", "levene", "fligner", "kruskal")


def _run(f, *a, **k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return f(*a, **k)


def _cmp(got, want, rtol=1e-9):
    for g, w in zip(got, want):
        g = cuarray.asnumpy(g)
        assert g.shape == np.shape(w) and g.dtype == np.asarray(w).dtype, (g.shape, g.dtype, np.shape(w), np.asarray(w).dtype)
        np.testing.assert_allclose(g, w, rtol=rtol, atol=1e-300, equal_nan=True)


@pytest.mark.parametrize("name", NAMES)
def test_as_scipy(name):
    rng = np.random.default_rng()
    a, b, c = rng.standard_normal((3, 17, 4)), rng.standard_normal((1, 25, 4)) * 2, rng.standard_normal((3, 30, 1)) + 1
    kws = [{"center": "median"}, {"center": "mean"}, {"center": "trimmed"}] if name in ("levene", "fligner") else [{}]
    for kw in kws:
        _cmp(_run(getattr(cst, name), G(a), G(b), G(c), axis=1, **kw), _run(getattr(sst, name), a, b, c, axis=1, **kw))
    x, y = np.round(rng.standard_normal(40) * 3), np.round(rng.standard_normal(50) * 2)  # ties
    _cmp(_run(getattr(cst, name), G(x), G(y)), _run(getattr(sst, name), x, y))
    # float32: moments and sums in another order, ~1e-6 relative; p-values keep |stat| times that
    x32, y32 = x.astype(np.float32) + 0.25, y.astype(np.float32)
    _cmp(_run(getattr(cst, name), G(x32), G(y32)), _run(getattr(sst, name), x32, y32), rtol=1e-4)


@pytest.mark.parametrize("name", NAMES)
def test_nans_and_empty_as_scipy(name):
    rng = np.random.default_rng()
    a, b = rng.standard_normal((12, 3)), rng.standard_normal((15, 3)) + 0.5
    a[rng.random(a.shape) < 0.2] = np.nan
    for policy in ("propagate", "omit"):
        _cmp(_run(getattr(cst, name), G(a), G(b), nan_policy=policy), _run(getattr(sst, name), a, b, nan_policy=policy))
    with pytest.warns(RuntimeWarning):
        got = getattr(cst, name)(G(np.arange(5.0)), G(np.zeros(0)))
    _cmp(got, _run(getattr(sst, name), np.arange(5.0), np.zeros(0)))


def test_friedmanchisquare_and_pointbiserialr_as_scipy():
    rng = np.random.default_rng()
    a, b, c = rng.standard_normal((4, 30)), np.round(rng.standard_normal((4, 30))), rng.standard_normal((1, 30)) + 0.3
    _cmp(_run(cst.friedmanchisquare, G(a), G(b), G(c), axis=1), _run(sst.friedmanchisquare, a, b, c, axis=1))
    x = rng.random((40, 3)) < 0.4
    y = rng.standard_normal((40, 3)) + x
    y[rng.random(y.shape) < 0.1] = np.nan
    _cmp(_run(cst.pointbiserialr, G(x), G(y), nan_policy="omit"), _run(sst.pointbiserialr, x, y, nan_policy="omit"))
