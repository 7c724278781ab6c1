"""ranksums on the GPU against SciPy: float64/float32/integer samples (ties), broadcast batches,
each axis and None, keepdims, alternatives, NaNs propagated and omitted, empty samples."""

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


def _run(f, *args, **kw):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        out = f(*args, **kw)
    return out, [str(x.message) for x in w if issubclass(x.category, RuntimeWarning)
                 and "encountered" not in str(x.message)]


def _cmp(got, want):
    for name, g, w in zip(("statistic", "pvalue"), got, want):
        g, w = cuarray.asnumpy(g), np.asarray(w)
        assert g.shape == w.shape and g.dtype == w.dtype, (name, g.shape, w.shape, g.dtype, w.dtype)
        # the ranks are exact (halves) and z one rounding from them; the normal tail by the GPU's
        # erfc differs from SciPy's by a few ulps
        np.testing.assert_allclose(g, w, rtol=1e-12, atol=0, equal_nan=True, err_msg=name)


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64"])
@pytest.mark.parametrize("xs,ys,axis,keepdims", [((30,), (25,), 0, False), ((5, 12), (5, 9), 1, True),
                                                 ((12, 3), (8, 1), 0, False), ((3, 4), (2, 5), None, True),
                                                 ((2, 3, 9), (3, 6), -1, False)])
def test_as_scipy(dtype, xs, ys, axis, keepdims):
    rng = np.random.default_rng()
    x, y = rng.standard_normal(xs), rng.standard_normal(ys) + 0.4
    if dtype == "int64":
        x, y = np.round(x * 2), np.round(y * 2)
    x, y = x.astype(dtype), y.astype(dtype)
    for alternative in ("two-sided", "less", "greater"):
        kw = {"alternative": alternative, "axis": axis, "keepdims": keepdims}
        _cmp(_run(cst.ranksums, cuarray.asarray(x), cuarray.asarray(y), **kw)[0],
             _run(sst.ranksums, x, y, **kw)[0])


@pytest.mark.parametrize("policy", ["propagate", "omit"])
def test_nans_as_scipy(policy):
    rng = np.random.default_rng()
    x, y = rng.standard_normal((4, 15)), rng.standard_normal((4, 11))
    x[rng.random(x.shape) < 0.15] = np.nan
    x[0, 0], y[2] = np.nan, np.nan  # a slice left empty after omitting
    (got, got_w), (want, want_w) = (_run(f, a, b, axis=1, nan_policy=policy) for f, a, b in
                                    ((cst.ranksums, cuarray.asarray(x), cuarray.asarray(y)), (sst.ranksums, x, y)))
    _cmp(got, want)
    assert bool(got_w) == bool(want_w), (got_w, want_w)


@pytest.mark.parametrize("xs,ys", [((0,), (3,)), ((1,), (1,)), ((2, 0), (2, 3))])
def test_small_samples_as_scipy(xs, ys):
    rng = np.random.default_rng()
    x, y = rng.standard_normal(xs), rng.standard_normal(ys)
    (got, got_w), (want, want_w) = (_run(cst.ranksums, cuarray.asarray(x), cuarray.asarray(y), axis=-1),
                                    _run(sst.ranksums, x, y, axis=-1))
    _cmp(got, want)
    assert bool(got_w) == bool(want_w), (got_w, want_w)


def test_lists_and_errors():
    _cmp(cst.ranksums([1, 5, 2, 8], [3, 3, 9]), sst.ranksums([1, 5, 2, 8], [3, 3, 9]))
    x = cuarray.arange(5.0)
    with pytest.raises(np.exceptions.AxisError):
        cst.ranksums(x, x, axis=1)
    with pytest.raises(TypeError):
        cst.ranksums(x + 1j, x)
