"""cramervonmises on the GPU against SciPy: float64/float32/integer samples, 1-D/N-D, each axis
and None, keepdims, cuarray's `stats.norm.cdf`, a distribution's name with args or a callable,
NaNs propagated and omitted, samples too small."""

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




def _cmp(got, want, rtol):
    for name in ("statistic", "pvalue"):
        g, w = cuarray.asnumpy(getattr(got, name)), np.asarray(getattr(want, name))
        assert g.shape == w.shape and g.dtype == w.dtype, (name, g.shape, w.shape, g.dtype, w.dtype)
        # the p-value is 1 - cdf: its error is absolute, a few ulps of 1 in its dtype
        atol = 1e-12 if w.dtype != np.float32 else 1e-6
        np.testing.assert_allclose(g, w, rtol=rtol, atol=atol, equal_nan=True, err_msg=name)


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64"])
@pytest.mark.parametrize("shape,axis,keepdims", [((40,), 0, False), ((6, 25), 1, True), ((20, 3, 2), 0, False),
                                                 ((5, 9), None, True), ((4, 12), -2, False)])
def test_as_scipy(dtype, shape, axis, keepdims, warned):
    rng = np.random.default_rng()
    a = rng.standard_normal(shape) * 1.2 + 0.2
    a = (np.round(a * 4) if dtype == "int64" else a).astype(dtype)
    kw = {"axis": axis, "keepdims": keepdims}
    # float64: the cdf and the Bessel functions of the series differ from SciPy's by a few ulps:
    # the statistic (a sum of squares of differences of order 1/n) by ~1e-14 relative, the p-value
    # by ~1e-13 absolute. float32 (norm.cdf computes in float64: only the sample is rounded, as
    # SciPy's): the same.
    _cmp(warned(cst.cramervonmises, cuarray.asarray(a), cst.norm.cdf, **kw)[0],
         warned(sst.cramervonmises, a, sst.norm.cdf, **kw)[0], 1e-9)
    # 'norm' by name: cuarray's norm.cdf, SciPy's too (not its ndtr shortcut, which is kstest's)
    _cmp(warned(cst.cramervonmises, cuarray.asarray(a), "norm", **kw)[0],
         warned(sst.cramervonmises, a, "norm", **kw)[0], 1e-9)


def test_names_callables_and_args():
    rng = np.random.default_rng()
    x = rng.exponential(size=(3, 30)) * 2.0
    for cdf, args in (("expon", (0.0, 2.0)), ("gamma", (1.5,)), ("logistic", ())):
        _cmp(cst.cramervonmises(cuarray.asarray(x), cdf, args=args, axis=1),
             sst.cramervonmises(x, cdf, args=args, axis=1), 1e-9)
    got = cst.cramervonmises(cuarray.asarray(x), lambda v, s: 1 - cuarray.exp(-v / s), args=(2.0,), axis=-1)
    want = sst.cramervonmises(x, lambda v, s: 1 - np.exp(-v / s), args=(2.0,), axis=-1)
    _cmp(got, want, 1e-9)
    x = [0.3, 1.2, -0.4, 2.5, 0.9]
    _cmp(cst.cramervonmises(x, "norm"), sst.cramervonmises(x, "norm"), 1e-9)


@pytest.mark.parametrize("policy", ["propagate", "omit"])
@pytest.mark.parametrize("first_clean", [False, True])
def test_nans_as_scipy(policy, first_clean, warned):
    rng = np.random.default_rng()
    a = rng.standard_normal((5, 30))
    a[rng.random(a.shape) < 0.15] = np.nan
    a[0, 0], a[2, 1:] = np.nan, np.nan  # a slice left with one value after omitting
    if first_clean:  # SciPy's result dtypes follow the first slice's
        a[0] = rng.standard_normal(30)
    (got, got_w), (want, want_w) = (warned(f, x, cdf, axis=1, nan_policy=policy) for f, x, cdf in
                                    ((cst.cramervonmises, cuarray.asarray(a), cst.norm.cdf),
                                     (sst.cramervonmises, a, sst.norm.cdf)))
    _cmp(got, want, 1e-9)
    assert bool(got_w) == bool(want_w), (got_w, want_w)
    b = rng.standard_normal(20)
    b[3] = np.nan
    _cmp(warned(cst.cramervonmises, cuarray.asarray(b), cst.norm.cdf, nan_policy=policy)[0],
         warned(sst.cramervonmises, b, sst.norm.cdf, nan_policy=policy)[0], 1e-9)


@pytest.mark.parametrize("shape,axis", [((0,), 0), ((1,), 0), ((2,), 0), ((3, 0), 1)])
def test_small_samples_as_scipy(shape, axis, warned):
    a = np.random.default_rng().standard_normal(shape)
    (got, got_w), (want, want_w) = (warned(cst.cramervonmises, cuarray.asarray(a), cst.norm.cdf, axis=axis),
                                    warned(sst.cramervonmises, a, sst.norm.cdf, axis=axis))
    _cmp(got, want, 1e-9)
    assert bool(got_w) == bool(want_w), (got_w, want_w)


def test_errors():
    x = cuarray.arange(5.0)
    with pytest.raises(np.exceptions.AxisError):
        cst.cramervonmises(x, cst.norm.cdf, axis=1)
    with pytest.raises(TypeError):  # SciPy 1.18 returns a complex statistic here (docs/differences.md)
        cst.cramervonmises(x + 1j, cst.norm.cdf)
    with pytest.raises(ValueError, match="two observations"):
        cst.cramervonmises(cuarray.ones((3, 1)), cst.norm.cdf, axis=1)
