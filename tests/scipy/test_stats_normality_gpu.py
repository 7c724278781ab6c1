"""skewtest, kurtosistest, normaltest and jarque_bera on the GPU against SciPy: float64 and
float32 and integer samples, 1-D/N-D, each axis and None, keepdims, alternatives, NaNs propagated
and omitted (slices of different counts), samples too small, result dtypes."""

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

NAMES = ("skewtest", "kurtosistest", "normaltest", "jarque_bera")


def _run(mod, name, a, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return getattr(mod, name)(a, **kw)


def _cmp(got, want, rtol):
    for g, w in zip(got, want):
        g = cuarray.asnumpy(g)
        assert g.shape == np.shape(w), (g.shape, np.shape(w))
        np.testing.assert_allclose(g, w, rtol=rtol, atol=1e-12, equal_nan=True)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("dtype", ["float64", "float32", "int64"])
@pytest.mark.parametrize("shape,axis,keepdims", [((50,), 0, False), ((7, 40), 1, True), ((40, 3, 2), 0, False),
                                                 ((6, 30), None, True), ((5, 9), -1, False)])
def test_as_scipy(name, dtype, shape, axis, keepdims):
    rng = np.random.default_rng()
    a = (rng.standard_normal(shape) * 4 + rng.exponential(size=shape) * 3).astype(dtype)
    kw = {"axis": axis, "keepdims": keepdims}
    if name in ("skewtest", "kurtosistest"):
        kw["alternative"] = ["two-sided", "less", "greater"][rng.integers(3)]
    got, want = _run(cst, name, cuarray.asarray(a), **kw), _run(sst, name, a, **kw)
    # float32: both take the moments in float32, in different orders: the statistic z moves by ~1e-6
    # relative (as on the host), the p-value 2 ndtr(-|z|) by |z| dz, ~1e-5 at |z| ~ 3
    _cmp(got, want, 1e-9 if dtype != "float32" else 1e-4)
    assert cuarray.asnumpy(got[0]).dtype == np.asarray(want[0]).dtype


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("policy", ["propagate", "omit"])
def test_nans_as_scipy(name, policy):
    rng = np.random.default_rng()
    a = rng.standard_normal((30, 5))
    a[rng.random(a.shape) < 0.15] = np.nan
    a[:26, 4] = np.nan  # a slice left too small after omitting
    got, want = _run(cst, name, cuarray.asarray(a), axis=0, nan_policy=policy), _run(sst, name, a, axis=0, nan_policy=policy)
    _cmp(got, want, 1e-9)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("n", [0, 1, 4])
def test_small_sample_warns_as_scipy(name, n):
    """SciPy's own warning is the oracle: it warns for a sample too small for the test (skewtest
    below 8 values, kurtosistest below 5, normaltest below 8), but jarque_bera only for an empty one
    (n = 4 gives a finite statistic, n = 1 a NaN without a warning)."""
    a = np.random.default_rng().standard_normal(n)
    with warnings.catch_warnings(record=True) as got_w:
        warnings.simplefilter("always")
        got = getattr(cst, name)(cuarray.asarray(a))
    with warnings.catch_warnings(record=True) as want_w:
        warnings.simplefilter("always")
        want = getattr(sst, name)(a)
    got_w = [str(w.message) for w in got_w if issubclass(w.category, RuntimeWarning)]
    want_w = [str(w.message) for w in want_w if issubclass(w.category, RuntimeWarning)]
    assert bool(got_w) == bool(want_w), (got_w, want_w)
    _cmp(got, want, 1e-12)
