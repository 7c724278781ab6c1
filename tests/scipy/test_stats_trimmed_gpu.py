"""tmean, tvar, tstd, tsem, tmin and tmax on the GPU against SciPy: limits at either end, open or
closed, axes and None, keepdims, float32 and integer input, NaNs propagated and omitted."""

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

NAMES = ("tmean", "tvar", "tstd", "tsem", "tmin", "tmax")


def _run(f, *a, **k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return f(*a, **k)


def _kw(name, limits, inclusive):
    if name in ("tmin", "tmax"):
        return {("lowerlimit" if name == "tmin" else "upperlimit"): limits[0 if name == "tmin" else 1],
                "inclusive": inclusive[0]}
    return {"limits": limits, "inclusive": inclusive}


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("dtype", ["float64", "float32", "int32"])
def test_as_scipy(name, dtype):
    rng = np.random.default_rng()
    a = (np.round(rng.standard_normal((7, 50)), 1) * (1 if dtype[0] == "f" else 10)).astype(dtype)
    for limits, inclusive in (((-0.5, 1.0), (True, True)), ((None, 0.3), (True, False)), ((-1.0, None), (False, True))):
        kw = _kw(name, limits, inclusive)
        for axis, keepdims in ((1, False), (0, True), (None, False)):
            got = cuarray.asnumpy(_run(getattr(cst, name), cuarray.asarray(a), axis=axis, keepdims=keepdims, **kw))
            want = np.asarray(_run(getattr(sst, name), a, axis=axis, keepdims=keepdims, **kw))
            assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, got.dtype, want.shape, want.dtype)
            # float32: sums of up to 350 values in another order, ~1e-6 relative; a mean near 0 of
            # values near 1 cancels: a sum's rounding bound n eps max|x| absolute beside it
            eps = np.finfo(np.float32 if dtype == "float32" else np.float64).eps
            np.testing.assert_allclose(got, want, rtol=1e-5 if dtype == "float32" else 1e-12,
                                       atol=a.size * eps * float(np.abs(a).max()), equal_nan=True)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("policy", ["propagate", "omit"])
def test_nans_as_scipy(name, policy):
    rng = np.random.default_rng()
    a = rng.standard_normal((20, 6))
    a[rng.random(a.shape) < 0.2] = np.nan
    kw = {**_kw(name, (-1.0, 1.5), (True, True)), "nan_policy": policy, "axis": 0}
    got = cuarray.asnumpy(_run(getattr(cst, name), cuarray.asarray(a), **kw))
    # a mean near 0 cancels: a sum's rounding bound n eps max|x| absolute beside the relative one
    atol = a.size * np.finfo(np.float64).eps * float(np.nanmax(np.abs(a)))
    np.testing.assert_allclose(got, np.asarray(_run(getattr(sst, name), a, **kw)), rtol=1e-12, atol=atol, equal_nan=True)
