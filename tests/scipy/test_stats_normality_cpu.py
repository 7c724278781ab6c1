"""skewtest, kurtosistest, normaltest and jarque_bera without a GPU: the module's formulas, its
sample-size rules and `nan_policy` on NumPy (stats_tests_host) against scipy.stats over a grid
(1-D/N-D, each axis and None, keepdims, alternatives, NaNs propagated/omitted/raised, samples too
small, constant slices); the signatures."""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest

sst = pytest.importorskip("scipy.stats")

from cuarray.scipy import stats as cst  # noqa: E402

NAMES = ("skewtest", "kurtosistest", "normaltest", "jarque_bera")


@pytest.fixture(scope="module")
def H(stats_host):
    return stats_host["_normality"]


def _call(mod, name, a, **kw):
    # NumPy's floating-point warnings silenced: the device's arithmetic raises none, so only the
    # warnings the module itself emits (SciPy's too-small one) are compared
    with warnings.catch_warnings(record=True) as w, np.errstate(all="ignore"):
        warnings.simplefilter("always")
        out = getattr(mod, name)(a, **kw)
    return tuple(np.asarray(x) for x in out), [str(x.message) for x in w if issubclass(x.category, RuntimeWarning)]


def _same(got, want, rtol=1e-10):
    for g, w in zip(got, want):
        assert g.shape == np.shape(w), (g.shape, np.shape(w))
        np.testing.assert_allclose(g, w, rtol=rtol, atol=1e-300, equal_nan=True)


def _kw(name, axis, keepdims, alternative):
    kw = {"axis": axis, "keepdims": keepdims}
    if name in ("skewtest", "kurtosistest"):
        kw["alternative"] = alternative
    return kw


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("shape,axis", [((40,), 0), ((40,), None), ((9, 30), 1), ((30, 9), 0), ((4, 20, 3), 1),
                                        ((4, 20, 3), None), ((3, 6), 1), ((20, 3), -2)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_values_as_scipy(H, name, shape, axis, keepdims):
    rng = np.random.default_rng()
    a = rng.standard_normal(shape) * 3 + rng.exponential(size=shape)  # skewed a little
    for alternative in ("two-sided", "less", "greater"):
        kw = _kw(name, axis, keepdims, alternative)
        got, _ = _call(H, name, a, **kw)
        want, _ = _call(sst, name, a, **kw)
        _same(got, want)
        if name in ("normaltest", "jarque_bera"):
            break


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("n", [0, 1, 4, 5, 7, 8])
def test_small_samples_as_scipy(H, name, n):
    """A 1-D sample too small: NaN and SciPy's warning; N-D slices too small: NaN (SciPy's formulas)."""
    a = np.random.default_rng().standard_normal(n)
    got, got_w = _call(H, name, a)
    want, want_w = _call(sst, name, a)
    _same(got, want)
    assert bool(got_w) == bool(want_w), (got_w, want_w)
    if n:
        b = np.random.default_rng().standard_normal((n, 3))
        _same(_call(H, name, b, axis=0)[0], _call(sst, name, b, axis=0)[0])


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("policy", ["propagate", "omit", "raise"])
@pytest.mark.parametrize("shape,axis", [((30,), 0), ((25, 4), 0), ((3, 30), -1), ((5, 30), None)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_nan_policy_as_scipy(H, name, policy, shape, axis, keepdims):
    rng = np.random.default_rng()
    a = rng.standard_normal(shape)
    a[rng.random(shape) < 0.1] = np.nan
    a.flat[0] = np.nan
    kw = {"axis": axis, "nan_policy": policy, "keepdims": keepdims}
    if policy == "raise":
        with pytest.raises(ValueError, match="nan"):
            getattr(H, name)(a, **kw)
        with pytest.raises(ValueError, match="nan"):
            getattr(sst, name)(a, **kw)
        return
    _same(_call(H, name, a, **kw)[0], _call(sst, name, a, **kw)[0])


@pytest.mark.parametrize("name", NAMES)
def test_constant_and_integer_samples(H, name):
    for a in (np.full(20, 3.0), np.arange(30) % 7, np.r_[np.zeros(19), 1.0]):
        _same(_call(H, name, a)[0], _call(sst, name, a)[0])


@pytest.mark.parametrize("name", ["skewtest", "kurtosistest"])
def test_bad_alternative(H, name):
    with pytest.raises(ValueError, match="alternative"):
        getattr(H, name)(np.ones(20), alternative="bogus")
    with pytest.raises(ValueError, match="alternative"):
        getattr(sst, name)(np.ones(20), alternative="bogus")


@pytest.mark.parametrize("name", NAMES)
def test_signature_is_scipys(name):
    ours, theirs = inspect.signature(getattr(cst, name)), inspect.signature(getattr(sst, name))
    assert [(p.name, p.kind, p.default) for p in ours.parameters.values()] == \
        [(p.name, p.kind, p.default) for p in theirs.parameters.values()]


@pytest.mark.parametrize("name", NAMES)
def test_float32_and_integer_dtypes_as_scipy(H, name):
    """float32 samples keep float32 (SciPy 1.17+), integers give float64."""
    rng = np.random.default_rng()
    for a in (rng.standard_normal((40, 3)).astype(np.float32), rng.integers(-20, 20, (40, 3))):
        got, want = _call(H, name, a)[0], _call(sst, name, a)[0]
        assert [g.dtype for g in got] == [np.asarray(w).dtype for w in want]
        # float32: the moments in float32 in another order (z within ~1e-6 relative, p within |z| dz)
        _same(got, want, rtol=1e-4 if a.dtype == np.float32 else 1e-10)
