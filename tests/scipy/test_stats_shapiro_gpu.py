"""shapiro on the GPU against SciPy (1.18's computation): every small-size branch, float64/float32/
integer samples, 1-D/N-D, each axis and None, keepdims, NaNs propagated and omitted, samples too
small, constant samples."""

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

SCIPY_118 = tuple(int(v) for v in __import__("scipy").__version__.split(".")[:2]) >= (1, 18)
pytestmark.append(pytest.mark.skipif(not SCIPY_118, reason="SciPy 1.18's Shapiro-Wilk computation is the oracle"))




def _cmp(got, want, float32=False):
    # float64: W from sums in another order and the GPU's ndtri, a few ulps; the p-value is a
    # function of log(1 - W), multiplying W's error by 1/(1 - W) (< 1e3 for these samples), then by
    # the normal tail's z phi(z)/Phi(-z) (< 10). float32: W to a few float32 ulps, the same way.
    rtols = (1e-12, 1e-9) if not float32 else (2e-6, 1e-3)
    for name, g, w, rtol in zip(("statistic", "pvalue"), got, want, rtols):
        g, w = cuarray.asnumpy(g), np.asarray(w)
        assert g.shape == w.shape and g.dtype == w.dtype, (name, g.shape, w.shape, g.dtype, w.dtype)
        np.testing.assert_allclose(g, w, rtol=rtol, atol=0, equal_nan=True, err_msg=name)


@pytest.mark.parametrize("n", [3, 4, 5, 6, 11, 12, 50])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_sizes_as_scipy(n, dtype):
    x = np.random.default_rng().standard_normal((5, n)).astype(dtype)
    _cmp(cst.shapiro(cuarray.asarray(x), axis=1), sst.shapiro(x, axis=1), dtype == "float32")


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64"])
@pytest.mark.parametrize("shape,axis,keepdims", [((40,), None, False), ((6, 25), 1, True), ((20, 3, 2), 0, False),
                                                 ((5, 9), None, True), ((4, 12), -2, False)])
def test_as_scipy(dtype, shape, axis, keepdims, warned):
    rng = np.random.default_rng()
    a = rng.standard_normal(shape) * 1.2 + rng.exponential(size=shape)
    a = (np.round(a * 5) if dtype == "int64" else a).astype(dtype)
    kw = {"axis": axis, "keepdims": keepdims}
    _cmp(warned(cst.shapiro, cuarray.asarray(a), **kw)[0], warned(sst.shapiro, a, **kw)[0], dtype == "float32")


@pytest.mark.parametrize("policy", ["propagate", "omit"])
@pytest.mark.parametrize("first_clean", [False, True])
def test_nans_as_scipy(policy, first_clean, warned):
    rng = np.random.default_rng()
    a = rng.standard_normal((5, 30))
    a[rng.random(a.shape) < 0.15] = np.nan
    a[0, 0], a[2, 2:] = np.nan, np.nan  # a slice left with two values after omitting
    if first_clean:  # SciPy's result dtypes follow the first slice's
        a[0] = rng.standard_normal(30)
    (got, got_w), (want, want_w) = (warned(f, x, axis=1, nan_policy=policy) for f, x in
                                    ((cst.shapiro, cuarray.asarray(a)), (sst.shapiro, a)))
    _cmp(got, want)
    assert bool(got_w) == bool(want_w), (got_w, want_w)


@pytest.mark.parametrize("shape,axis", [((0,), 0), ((2,), 0), ((4, 0), 1)])
def test_small_samples_as_scipy(shape, axis, warned):
    a = np.random.default_rng().standard_normal(shape)
    (got, got_w), (want, want_w) = (warned(cst.shapiro, cuarray.asarray(a), axis=axis), warned(sst.shapiro, a, axis=axis))
    _cmp(got, want)
    assert bool(got_w) == bool(want_w), (got_w, want_w)


def test_constant_lists_and_errors(warned):
    _cmp(warned(cst.shapiro, cuarray.full(10, 3.0))[0], warned(sst.shapiro, np.full(10, 3.0))[0])
    _cmp(cst.shapiro([1, 2, 2, 3, 9, 4, 4]), sst.shapiro([1, 2, 2, 3, 9, 4, 4]))
    with pytest.raises(ValueError, match="at least length 3"):
        cst.shapiro(cuarray.ones((3, 2)), axis=1)
    with pytest.raises(TypeError):
        cst.shapiro(cuarray.arange(5) + 1j)
