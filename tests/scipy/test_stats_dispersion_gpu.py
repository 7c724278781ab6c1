"""sem, variation, gstd, iqr, median_abs_deviation, trimboth, trim1, scoreatpercentile and
percentileofscore on the GPU against SciPy: axes, keepdims, ddof, float32/float64/int, empty
slices, NaN policies, non-contiguous views, argument errors."""

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


def _rng(*key):
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


def _cmp(got, want, rtol=1e-10):
    g = got.get() if hasattr(got, "get") else np.asarray(got)
    assert np.shape(g) == np.shape(want), (np.shape(g), np.shape(want))
    np.testing.assert_allclose(g, want, rtol=rtol, atol=rtol)


CASES = {
    "sem": (lambda m, a, **k: m.sem(a, **k)),
    "sem-ddof0": (lambda m, a, **k: m.sem(a, ddof=0, **k)),
    "variation": (lambda m, a, **k: m.variation(a, **k)),
    "variation-ddof1": (lambda m, a, **k: m.variation(a, ddof=1, **k)),
    "gstd": (lambda m, a, **k: m.gstd(a, **k)),
    "iqr": (lambda m, a, **k: m.iqr(a, **k)),
    "iqr-normal": (lambda m, a, **k: m.iqr(a, rng=(10, 80), scale="normal", interpolation="midpoint", **k)),
    "mad": (lambda m, a, **k: m.median_abs_deviation(a, **k)),
    "mad-normal": (lambda m, a, **k: m.median_abs_deviation(a, scale="normal", **k)),
}


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64])
def test_reductions(case, dtype):
    rng = _rng(case, np.dtype(dtype).char)
    a = (np.abs(rng.normal(size=(6, 5))) * 10 + 1).astype(dtype)
    tol = 2e-5 if dtype == np.float32 else 1e-10
    call = CASES[case]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for axis in (0, 1, -1, None):
            for keepdims in (False, True):
                _cmp(call(cst, G(a), axis=axis, keepdims=keepdims), call(stats, a, axis=axis, keepdims=keepdims), tol)
        _cmp(call(cst, G(a)[::-1, ::2], axis=0), call(stats, a[::-1, ::2], axis=0), tol)
        if dtype != np.int64:
            b = a.copy()
            b[1, 2] = b[4, 0] = np.nan
            for policy in ("propagate", "omit"):
                for axis in (0, 1, None):
                    _cmp(call(cst, G(b), axis=axis, nan_policy=policy), call(stats, b, axis=axis, nan_policy=policy), tol)
            with pytest.raises(ValueError):
                call(cst, G(b), nan_policy="raise")


def test_empty_and_errors():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        e = np.ones((0, 3))
        _cmp(cst.iqr(G(e), axis=0), stats.iqr(e, axis=0))
        _cmp(cst.median_abs_deviation(G(e)), stats.median_abs_deviation(e))
        _cmp(cst.variation(G(np.ones((2, 3))), ddof=2), stats.variation(np.ones((2, 3)), ddof=2))
        _cmp(cst.sem(G(np.ones((3, 0))), axis=1), stats.sem(np.ones((3, 0)), axis=1))
    with pytest.raises(ValueError):
        cst.iqr(G(np.ones(3)), scale="bad")
    with pytest.raises(TypeError):
        cst.iqr(G(np.ones(3)), rng=(1, 2, 3))
    with pytest.raises(ValueError):
        cst.iqr(G(np.ones(3)), interpolation="bad")


@pytest.mark.parametrize("p", [0.0, 0.1, 0.25, 0.4])
def test_trim(p):
    rng = _rng("trim", p)
    a = rng.normal(size=(10, 7))
    for axis in (0, 1, None):
        _cmp(cuarray.sort(cst.trimboth(G(a), p, axis=axis), axis=-1 if axis is None else axis),
             np.sort(stats.trimboth(a, p, axis=axis), axis=-1 if axis is None else axis))
        for tail in ("left", "right"):
            _cmp(cuarray.sort(cst.trim1(G(a), p, tail, axis=axis), axis=-1 if axis is None else axis),
                 np.sort(stats.trim1(a, p, tail, axis=axis), axis=-1 if axis is None else axis))
    with pytest.raises(ValueError):
        cst.trimboth(G(a), 0.5)
    with pytest.raises(ValueError):
        cst.trim1(G(a), 0.1, tail="middle")


def test_percentiles():
    rng = _rng("pct")
    a = rng.normal(size=(20, 3))
    for per in (0, 37.5, 100, [10, 50, 90]):
        for method in ("fraction", "lower", "higher"):
            for axis in (None, 0, 1):
                _cmp(cst.scoreatpercentile(G(a), per, interpolation_method=method, axis=axis),
                     stats.scoreatpercentile(a, per, interpolation_method=method, axis=axis))
    _cmp(cst.scoreatpercentile(G(a[:, 0]), 50, limit=(-0.5, 1.0)), stats.scoreatpercentile(a[:, 0], 50, limit=(-0.5, 1.0)))
    with pytest.raises(ValueError):
        cst.scoreatpercentile(G(a), 50, interpolation_method="linear")
    x = np.round(rng.normal(size=30) * 3)
    scores = [-10.0, 0.0, 1.0, 2.5, 10.0]
    for kind in ("rank", "weak", "strict", "mean"):
        _cmp(cst.percentileofscore(G(x), scores, kind=kind), stats.percentileofscore(x, scores, kind=kind))
        _cmp(cst.percentileofscore(G(x), 1.0, kind=kind), stats.percentileofscore(x, 1.0, kind=kind))
        _cmp(cst.percentileofscore(G(x.astype(np.int64)), 1, kind=kind), stats.percentileofscore(x.astype(np.int64), 1, kind=kind))
    xn = np.append(x, np.nan)
    for policy in ("propagate", "omit"):
        _cmp(cst.percentileofscore(G(xn), [1.0, np.nan], nan_policy=policy),
             stats.percentileofscore(xn, [1.0, np.nan], nan_policy=policy))
    _cmp(cst.percentileofscore(G(x), [1.0, np.nan]), stats.percentileofscore(x, [1.0, np.nan]))
    with pytest.raises(ValueError):
        cst.percentileofscore(G(xn), 1.0, nan_policy="raise")
    with pytest.raises(ValueError):
        cst.percentileofscore(G(x), 1.0, kind="bad")
