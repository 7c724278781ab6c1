"""cumfreq, relfreq and sigmaclip without a GPU: the module on NumPy (stats_tests_host) against
scipy.stats: numbins, the default limits and given ones (values outside, on the last edge),
weights, float32/int input, N-D input (raveled), empty input; sigmaclip's iteration over
fresh data with outliers, bounds, dtypes and NaN policies; the errors and the signatures. SciPy
1.18 changed the histogram (edges by linspace, a constant sample's zero-width bins, the dtypes
kept, `relfreq` of N-D input) and added sigmaclip's `nan_policy`: those checks skip on older
SciPy."""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest

scipy = pytest.importorskip("scipy")
sst = pytest.importorskip("scipy.stats")

from cuarray.scipy import stats as cst  # noqa: E402

NEW = tuple(int(v) for v in scipy.__version__.split(".")[:2]) >= (1, 18)
OLD_REASON = "SciPy < 1.18 bins by numpy.histogram and has no sigmaclip nan_policy"


def _comparable(name, kw):
    """SciPy < 1.18's relfreq divided weighted counts by the number of values, 1.18's by the weights' sum."""
    return NEW or name != "relfreq" or "weights" not in kw


@pytest.fixture(scope="module")
def F(stats_host):
    return stats_host["_frequency"]


def _quiet(f, *a, **k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return f(*a, **k)


def _same_hist(got, want, rtol=1e-12, dtype=np.float64):
    """Counts are exact; frequencies, weighted counts and the limits carry a few roundings."""
    assert type(got).__name__ == type(want).__name__ and got._fields == want._fields
    for name, g, w in zip(got._fields, got, want):
        g = np.asarray(g)
        assert g.shape == np.shape(w), (name, g.shape, np.shape(w))
        assert g.dtype == (np.int64 if name == "extrapoints" else dtype), (name, g.dtype)
        if NEW:
            assert g.dtype == np.asarray(w).dtype, (name, g.dtype, np.asarray(w).dtype)
        np.testing.assert_allclose(g, w, rtol=rtol, atol=1e-300, equal_nan=True, err_msg=name)


@pytest.mark.parametrize("name", ["cumfreq", "relfreq"])
@pytest.mark.parametrize("numbins", [1, 4, 10, 33])
def test_histogram_as_scipy(F, name, numbins):
    rng = np.random.default_rng()
    x = rng.standard_normal(rng.integers(2, 200))
    w = rng.random(x.size)
    for kw in ({}, {"weights": w}, {"defaultreallimits": (-1, 1.5)}, {"defaultreallimits": (-0.5, 0.5), "weights": w}):
        if numbins == 1 and "defaultreallimits" not in kw and x.size > 1:
            kw = dict(kw, defaultreallimits=(x.min(), x.max()))  # SciPy's default limits divide by numbins - 1
        if _comparable(name, kw):
            _same_hist(_quiet(getattr(F, name), x, numbins, **kw), _quiet(getattr(sst, name), x, numbins, **kw))


@pytest.mark.parametrize("name", ["cumfreq", "relfreq"])
def test_edges_ints_and_empty_as_scipy(F, name):
    """Integer data on the edges (each bin closed on the left, the last on both sides), values
    outside the limits, an empty sample (SciPy's limits 0 and 1)."""
    a = np.arange(12) % 7
    for kw in ({}, {"defaultreallimits": (0, 6)}, {"defaultreallimits": (1, 4)}, {"weights": np.arange(12.0)},
               {"defaultreallimits": (2, 8), "weights": np.arange(12.0) % 3}):
        if _comparable(name, kw):
            _same_hist(_quiet(getattr(F, name), a, 3, **kw), _quiet(getattr(sst, name), a, 3, **kw))
    _same_hist(_quiet(getattr(F, name), np.zeros(0), 5), _quiet(getattr(sst, name), np.zeros(0), 5))


@pytest.mark.skipif(not NEW, reason=OLD_REASON)
@pytest.mark.parametrize("name", ["cumfreq", "relfreq"])
def test_scipy_118_rules(F, name):
    rng = np.random.default_rng()
    x = rng.standard_normal((6, 5)).astype(np.float32)
    # float32 kept: the same sorted places and float32 edges; frequencies within float32 rounding
    _same_hist(_quiet(getattr(F, name), x, 6), _quiet(getattr(sst, name), x, 6), rtol=1e-6, dtype=np.float32)
    _same_hist(_quiet(getattr(F, name), x, 6, (-1, 1)), _quiet(getattr(sst, name), x, 6, (-1, 1)), rtol=1e-6,
               dtype=np.float32)
    _same_hist(_quiet(getattr(F, name), np.full(7, 3.0), 4), _quiet(getattr(sst, name), np.full(7, 3.0), 4))


def test_histogram_errors(F):
    x = np.arange(5.0)
    for mod in ((F, sst) if NEW else (F,)):
        for limits in ((1, 0), (2, 2), (0, 1, 2), 3):
            with pytest.raises(ValueError, match="must be given as an iterable"):
                mod.cumfreq(x, 3, limits)
        with pytest.raises(ValueError, match="must be non-negative"):
            mod.relfreq(x, 3, (0, 4), weights=-np.ones(5))
        with pytest.raises(ValueError, match="must have real dtype"):
            mod.relfreq(x + 1j, 3, (0, 4))


def _bounds_close(got, want, rtol):
    """mean -/+ factor * std: each bound's rounding is relative to those terms (both within
    |lower| + |upper|), not to the bound, which may lie near 0."""
    scale = np.abs(want[1]) + np.abs(want[2])
    np.testing.assert_allclose([np.asarray(v) for v in got[1:]], want[1:], rtol=rtol,
                               atol=rtol * np.nan_to_num(scale), equal_nan=True)


# Factors that stop the clipping at many values: where it shrinks the sample to two or three (a low
# or high factor of 1, or 1.5 on both sides) a bound can equal a value in exact arithmetic (two
# values a < b: mean - std = a), and the kept set then rests on the last bit of the mean and std.
@pytest.mark.parametrize("bounds", [(4.0, 4.0), (2.0, 3.0), (1.5, 2.5), (3.0, 2.0)])
@pytest.mark.parametrize("dtype", ["float64", "float32", "int64"])
def test_sigmaclip_as_scipy(F, bounds, dtype):
    rng = np.random.default_rng()
    a = np.concatenate([rng.standard_normal((20, 10)).ravel(), rng.standard_normal(6) * 40])
    a = (a * (1000 if dtype == "int64" else 10)).astype(dtype)  # integers: mostly distinct values
    got, want = F.sigmaclip(a, *bounds), sst.sigmaclip(a, *bounds)
    # the kept values are the same values unless one lies within rounding of a bound (measure zero for
    # these continuous draws; float32's mean and std agree to ~1e-6 relative, the bounds with them)
    np.testing.assert_array_equal(np.asarray(got.clipped), want.clipped)
    assert np.asarray(got.clipped).dtype == want.clipped.dtype
    for g, w in zip(got[1:], want[1:]):
        assert np.asarray(g).dtype == np.asarray(w).dtype
    _bounds_close(got, want, 1e-5 if dtype == "float32" else 1e-12)


def test_sigmaclip_edges_as_scipy(F):
    for a in (np.full(9, 3.0), np.zeros(0), np.array([[1.0, 2.0], [3.0, 40.0]]), np.arange(5.0)):
        got, want = _quiet(F.sigmaclip, a, 1.0, 1.0), _quiet(sst.sigmaclip, a, 1.0, 1.0)
        np.testing.assert_array_equal(np.asarray(got.clipped), want.clipped)
        np.testing.assert_allclose([np.asarray(v) for v in got[1:]], want[1:], rtol=1e-14, equal_nan=True)
    got, want = _quiet(F.sigmaclip, np.arange(5.0), -1.0, -1.0), _quiet(sst.sigmaclip, np.arange(5.0), -1.0, -1.0)
    assert np.asarray(got.clipped).size == want.clipped.size == 0  # nothing within: emptied, NaN bounds
    np.testing.assert_array_equal([np.asarray(v) for v in got[1:]], want[1:])


@pytest.mark.skipif(not NEW, reason=OLD_REASON)
def test_sigmaclip_nan_policy_as_scipy(F):
    rng = np.random.default_rng()
    a = rng.standard_normal(50)
    a[rng.integers(0, 50, 4)] = np.nan
    for policy in ("propagate", "omit"):
        got, want = F.sigmaclip(a, 2.0, 2.0, nan_policy=policy), sst.sigmaclip(a, 2.0, 2.0, nan_policy=policy)
        np.testing.assert_array_equal(np.asarray(got.clipped), want.clipped)
        _bounds_close(got, want, 1e-12)
    for mod in (F, sst):
        with pytest.raises(ValueError, match="contains nan"):
            mod.sigmaclip(a, nan_policy="raise")


@pytest.mark.parametrize("name", ["cumfreq", "relfreq", "sigmaclip"])
def test_signature_is_scipys(name):
    if name == "sigmaclip" and not NEW:
        pytest.skip("SciPy 1.18 added sigmaclip's nan_policy; ours has 1.18's signature")
    ours, theirs = inspect.signature(getattr(cst, name)), inspect.signature(getattr(sst, name))
    assert [(p.name, p.kind, p.default) for p in ours.parameters.values()] == \
        [(p.name, p.kind, p.default) for p in theirs.parameters.values()]
