"""tmean, tvar, tstd, tsem, tmin and tmax without a GPU: the module on NumPy (stats_tests_host)
against scipy.stats over a grid (limits open and closed at either end, axes and None, keepdims,
ddof, float32/int input, NaNs propagated/omitted/raised, slices with no value within the limits);
the errors and signatures."""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest

sst = pytest.importorskip("scipy.stats")

from cuarray.scipy import stats as cst  # noqa: E402

NAMES = ("tmean", "tvar", "tstd", "tsem", "tmin", "tmax")


@pytest.fixture(scope="module")
def H(stats_host):
    return stats_host["_trimmed"]


def _run(f, *a, **k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.asarray(f(*a, **k))


def _same(got, want, rtol=1e-12, atol=0.0):
    assert got.shape == np.shape(want), (got.shape, np.shape(want))
    assert got.dtype == np.asarray(want).dtype, (got.dtype, np.asarray(want).dtype)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, equal_nan=True)


def _sum_atol(a):
    """A sum's rounding in another order, as a mean's absolute bound: n eps max|x| (a mean near 0
    of values near 1 cancels, where a relative tolerance alone asks more than either order gives)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return a.size * np.finfo(np.float64).eps * float(np.nanmax(np.abs(a)))


def _kwargs(name, limits, inclusive):
    if name in ("tmin", "tmax"):
        return {("lowerlimit" if name == "tmin" else "upperlimit"): None if limits is None else limits[0 if name == "tmin" else 1],
                "inclusive": inclusive[0]}
    return {"limits": limits, "inclusive": inclusive}


LIMITS = [None, (-0.5, 1.0), (None, 0.3), (-1.0, None), (0.0, 0.0)]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("limits", LIMITS)
@pytest.mark.parametrize("inclusive", [(True, True), (False, True), (True, False)])
def test_as_scipy(H, name, limits, inclusive):
    rng = np.random.default_rng()
    a = np.round(rng.standard_normal((6, 40)), 1)  # values on the limits too
    kw = _kwargs(name, limits, inclusive)
    for axis, keepdims in ((0, False), (1, True), (None, False), (None, True), (-1, False)):
        try:
            want = _run(getattr(sst, name), a, axis=axis, keepdims=keepdims, **kw)
        except ValueError as e:
            with pytest.raises(ValueError, match=str(e)):
                getattr(H, name)(a, axis=axis, keepdims=keepdims, **kw)
            continue
        _same(_run(getattr(H, name), a, axis=axis, keepdims=keepdims, **kw), want, atol=_sum_atol(a))


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("dtype", ["float32", "int64", "int8"])
def test_dtypes_as_scipy(H, name, dtype):
    a = np.random.default_rng().integers(-20, 20, (30, 4)).astype(dtype)
    for limits in (None, (-5, 9)):
        kw = _kwargs(name, limits, (True, True))
        # SciPy's tmean sums an integer sample in its own dtype where no value is left out (int8 wraps
        # past 127): the oracle is SciPy's on the float64 sample, as NumPy's mean accumulates
        oracle = a.astype(np.float64) if name == "tmean" and a.dtype.kind == "i" else a
        # float32: sums of 30 values in another order
        _same(_run(getattr(H, name), a, **kw), _run(getattr(sst, name), oracle, **kw),
              rtol=1e-6 if dtype == "float32" else 1e-12)
    if name in ("tvar", "tstd", "tsem"):
        kw = {"ddof": 0}
        _same(_run(getattr(H, name), a, **kw), _run(getattr(sst, name), a, **kw), rtol=1e-6 if dtype == "float32" else 1e-12)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("policy", ["propagate", "omit"])
def test_nans_as_scipy(H, name, policy):
    rng = np.random.default_rng()
    a = rng.standard_normal((12, 5))
    a[rng.random(a.shape) < 0.2] = np.nan
    a[:, 3] = np.nan
    for limits in (None, (-1.0, 1.5)):
        kw = {**_kwargs(name, limits, (True, True)), "nan_policy": policy}
        _same(_run(getattr(H, name), a, axis=0, **kw), _run(getattr(sst, name), a, axis=0, **kw), atol=_sum_atol(a))
    with pytest.raises(ValueError):
        getattr(H, name)(a, nan_policy="raise")


def test_slices_with_no_value_within_the_limits(H):
    a = np.array([[1.0, 5.0], [2.0, 6.0], [3.0, 7.0]])
    for name, kw in (("tmin", {"lowerlimit": 4.0}), ("tmax", {"upperlimit": 4.0}), ("tmean", {"limits": (4, 10), "axis": 0}),
                     ("tvar", {"limits": (4, 10)}), ("tsem", {"limits": (4, 10)})):
        _same(_run(getattr(H, name), a, **kw), _run(getattr(sst, name), a, **kw))
    ai = a.astype(np.int64)
    _same(_run(H.tmin, ai, lowerlimit=4), _run(sst.tmin, ai, lowerlimit=4))


@pytest.mark.parametrize("name", NAMES)
def test_signature_is_scipys(name):
    ours, theirs = inspect.signature(getattr(cst, name)), inspect.signature(getattr(sst, name))
    assert [(p.name, p.kind, p.default) for p in ours.parameters.values()] == \
        [(p.name, p.kind, p.default) for p in theirs.parameters.values()]
