"""ranksums and mood on the GPU against SciPy: float64/float32/integer samples (ties), broadcast
batches, each axis and None, keepdims, alternatives, NaNs propagated and omitted, samples too
small."""

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




NAMES = ("ranksums", "mood")


def _cmp(got, want, float32=False):
    for name, g, w in zip(("statistic", "pvalue"), got, want):
        g, w = cuarray.asnumpy(g), np.asarray(w)
        assert g.shape == w.shape and g.dtype == w.dtype, (name, g.shape, w.shape, g.dtype, w.dtype)
        # the ranks are exact (halves) and z a few roundings from them (mood's by Mielke's group
        # sums in another order); the normal tail by the GPU's erfc differs from SciPy's by a few
        # ulps. float32 (mood): SciPy sums squared ranks ~N^2 in float32 (~1e-7 relative) and
        # subtracts their mean, so its z is off by ~1e-7 N^2 m / sd ~ 1e-5 absolute
        if float32:
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5, equal_nan=True, err_msg=name)
        else:
            np.testing.assert_allclose(g, w, rtol=1e-11, atol=1e-14, equal_nan=True, err_msg=name)


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64"])
@pytest.mark.parametrize("xs,ys,axis,keepdims", [((30,), (25,), 0, False), ((5, 12), (5, 9), 1, True),
                                                 ((12, 3), (8, 1), 0, False), ((3, 4), (2, 5), None, True),
                                                 ((2, 3, 9), (3, 6), -1, False)])
@pytest.mark.parametrize("name", NAMES)
def test_as_scipy(dtype, xs, ys, axis, keepdims, name, warned):
    rng = np.random.default_rng()
    x, y = rng.standard_normal(xs), rng.standard_normal(ys) * 1.5 + 0.4
    if dtype == "int64":
        x, y = np.round(x * 2), np.round(y * 2)
    x, y = x.astype(dtype), y.astype(dtype)
    for alternative in ("two-sided", "less", "greater"):
        kw = {"alternative": alternative, "axis": axis, "keepdims": keepdims}
        _cmp(warned(getattr(cst, name), cuarray.asarray(x), cuarray.asarray(y), **kw)[0],
             warned(getattr(sst, name), x, y, **kw)[0], name == "mood" and dtype == "float32")


@pytest.mark.parametrize("policy", ["propagate", "omit"])
@pytest.mark.parametrize("name", NAMES)
def test_nans_as_scipy(policy, name, warned):
    rng = np.random.default_rng()
    x, y = rng.standard_normal((4, 15)), rng.standard_normal((4, 11))
    x[rng.random(x.shape) < 0.15] = np.nan
    x[0, 0], y[2] = np.nan, np.nan  # a slice left empty after omitting
    x[3, 1:], y[3, 1:] = np.nan, np.nan  # one left with two values (mood's too small)
    (got, got_w), (want, want_w) = (warned(f, a, b, axis=1, nan_policy=policy) for f, a, b in
                                    ((getattr(cst, name), cuarray.asarray(x), cuarray.asarray(y)),
                                     (getattr(sst, name), x, y)))
    _cmp(got, want)
    assert bool(got_w) == bool(want_w), (got_w, want_w)


@pytest.mark.parametrize("xs,ys", [((0,), (3,)), ((1,), (1,)), ((2,), (1,)), ((2, 0), (2, 3))])
@pytest.mark.parametrize("name", NAMES)
def test_small_samples_as_scipy(xs, ys, name, warned):
    rng = np.random.default_rng()
    x, y = rng.standard_normal(xs), rng.standard_normal(ys)
    (got, got_w), (want, want_w) = (warned(getattr(cst, name), cuarray.asarray(x), cuarray.asarray(y), axis=-1),
                                    warned(getattr(sst, name), x, y, axis=-1))
    if name == "mood" and len(xs) == 2:  # SciPy's mood returns one NaN for the batch (ours: one a slice)
        want = [np.full(xs[:1], w) for w in want]
    _cmp(got, want)
    assert bool(got_w) == bool(want_w), (got_w, want_w)


def test_lists_and_errors():
    _cmp(cst.ranksums([1, 5, 2, 8], [3, 3, 9]), sst.ranksums([1, 5, 2, 8], [3, 3, 9]))
    _cmp(cst.mood([1, 5, 2, 8, 1], [3, 3, 9]), sst.mood([1, 5, 2, 8, 1], [3, 3, 9]))
    x = cuarray.arange(5.0)
    for f in (cst.ranksums, cst.mood):
        with pytest.raises(np.exceptions.AxisError):
            f(x, x, axis=1)
        with pytest.raises(TypeError):
            f(x + 1j, x)
