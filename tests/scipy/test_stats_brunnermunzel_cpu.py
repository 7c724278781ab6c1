"""brunnermunzel without a GPU: the module on NumPy (stats_tests_host) against scipy.stats over a
grid (lengths, ties, N-D broadcasting, axes and None, keepdims, both distributions, every
alternative, float32/int input, NaNs propagated/omitted/raised, empty and one-value samples); the
errors and the signature."""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest

sst = pytest.importorskip("scipy.stats")

from cuarray.scipy import stats as cst  # noqa: E402

ALTERNATIVES = ("two-sided", "less", "greater")


@pytest.fixture(scope="module")
def H(stats_host):
    return stats_host["_brunnermunzel"].brunnermunzel


def _run(f, *a, **k):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        out = f(*a, **k)
    return tuple(np.asarray(x) for x in out), [str(x.message) for x in w if issubclass(x.category, RuntimeWarning)]


def _same(got, want, rtol=1e-10, dtype=None):
    """The statistic and the p-value: ranks are exact, so only the moments' and stdtr's rounding
    (~1e-15 relative; 1e-10 leaves room for the p-value's condition |t| * pdf / p)."""
    for g, w in zip(got, want):
        assert g.shape == np.shape(w), (g.shape, np.shape(w))
        assert g.dtype == (dtype or np.asarray(w).dtype), (g.dtype, np.asarray(w).dtype)
        np.testing.assert_allclose(g, w, rtol=rtol, atol=1e-300, equal_nan=True)


@pytest.mark.parametrize("lengths", [(6, 9), (12, 5), (30, 41)])
@pytest.mark.parametrize("distribution", ["t", "normal"])
def test_1d_as_scipy(H, lengths, distribution):
    rng = np.random.default_rng()
    x, y = rng.standard_normal(lengths[0]), rng.standard_normal(lengths[1]) + 0.5
    for alt in ALTERNATIVES:
        _same(_run(H, x, y, alt, distribution)[0], _run(sst.brunnermunzel, x, y, alt, distribution)[0])
        tx, ty = np.round(x * 2), np.round(y * 2)  # ties in and across the samples
        _same(_run(H, tx, ty, alternative=alt, distribution=distribution)[0],
              _run(sst.brunnermunzel, tx, ty, alternative=alt, distribution=distribution)[0])


@pytest.mark.parametrize("keepdims", [False, True])
def test_nd_broadcast_as_scipy(H, keepdims):
    rng = np.random.default_rng()
    x, y = rng.standard_normal((3, 7, 4)), rng.standard_normal((1, 9, 4)) * 2 + 0.3
    for axis in (1, -2, None):
        for distribution in ("t", "normal"):
            _same(_run(H, x, y, distribution=distribution, axis=axis, keepdims=keepdims)[0],
                  _run(sst.brunnermunzel, x, y, distribution=distribution, axis=axis, keepdims=keepdims)[0])
    z = y[0, :7, :3]  # its batch (7,) broadcasts against x's (3, 7) along the last axis
    _same(_run(H, x, z, axis=-1, keepdims=keepdims)[0], _run(sst.brunnermunzel, x, z, axis=-1, keepdims=keepdims)[0])


@pytest.mark.parametrize("dtype", ["float32", "int64"])
def test_dtypes_as_scipy(H, dtype):
    rng = np.random.default_rng()
    x, y = (rng.standard_normal((12, 3)) * 5).astype(dtype), (rng.standard_normal((15, 3)) * 3 + 1).astype(dtype)
    # SciPy 1.18 keeps float32 (1.17 gave float64): the oracle is SciPy's on float64 samples, the
    # ranks being the same; float32's moments and stdtr keep ~1e-6 relative
    want = _run(sst.brunnermunzel, x.astype(np.float64), y.astype(np.float64))[0]
    _same(_run(H, x, y)[0], want, rtol=1e-4 if dtype == "float32" else 1e-10,
          dtype=np.dtype(np.float32 if dtype == "float32" else np.float64))


@pytest.mark.parametrize("policy", ["propagate", "omit"])
def test_nans_as_scipy(H, policy):
    rng = np.random.default_rng()
    x, y = rng.standard_normal((9, 4)), rng.standard_normal((11, 4)) + 0.5
    x[rng.random(x.shape) < 0.2] = np.nan
    x[0, 0] = np.nan
    for args in ((x, y), (x[:, 0], y[:, 0]), (y, x)):
        _same(_run(H, *args, nan_policy=policy)[0], _run(sst.brunnermunzel, *args, nan_policy=policy)[0])
    with pytest.raises(ValueError):
        H(x, y, nan_policy="raise")


def test_small_samples_as_scipy(H):
    """An empty sample: NaN with SciPy's warning; one value or all values tied: SciPy's inf/NaN and
    the undefined-df warning."""
    for x, y in ((np.arange(5.0), np.zeros(0)), (np.array([1.0]), np.array([2.0, 3.0])),
                 (np.array([1.0, 2.0]), np.array([3.0, 4.0]))):
        got, got_w = _run(H, x, y)
        want, want_w = _run(sst.brunnermunzel, x, y)
        _same(got, want)
        assert bool(got_w) == bool(want_w)
        assert any("degrees of freedom" in m for m in got_w) == any("degrees of freedom" in m for m in want_w)
        _same(_run(H, x, y, distribution="normal")[0], _run(sst.brunnermunzel, x, y, distribution="normal")[0])


def test_errors_as_scipy(H):
    x, y = np.arange(5.0), np.arange(6.0) + 0.5
    for mod in (H, sst.brunnermunzel):
        with pytest.raises(ValueError, match="distribution should be 't' or 'normal'"):
            mod(x, y, distribution="chi2")
        with pytest.raises(ValueError, match="`alternative` must be"):
            mod(x, y, alternative="bigger")
        with pytest.raises(ValueError, match="nan_policy"):
            mod(x, y, nan_policy="drop")


def test_signature_is_scipys():
    ours, theirs = inspect.signature(cst.brunnermunzel), inspect.signature(sst.brunnermunzel)
    assert [(p.name, p.kind, p.default) for p in ours.parameters.values()] == \
        [(p.name, p.kind, p.default) for p in theirs.parameters.values()]
