"""bartlett, levene, fligner and kruskal without a GPU: the module on NumPy (stats_tests_host)
against scipy.stats over a grid (2-4 samples of different lengths, N-D broadcasting, axes and
None, keepdims, every center, ties, float32/int input, NaNs propagated/omitted/raised, empty
samples); the errors and signatures."""

from __future__ import annotations

import importlib.util
import inspect
import pathlib
import warnings

import numpy as np
import pytest

sst = pytest.importorskip("scipy.stats")

from cuarray.scipy import stats as cst  # noqa: E402

NAMES = ("bartlett", "levene", "fligner", "kruskal")


@pytest.fixture(scope="module")
def H():
    spec = importlib.util.spec_from_file_location("stats_tests_host", pathlib.Path(__file__).parent / "stats_tests_host.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.host_stats_tests()["_ksample"]


def _run(f, *a, **k):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        out = f(*a, **k)
    return tuple(np.asarray(x) for x in out), [x for x in w if issubclass(x.category, RuntimeWarning)]


def _same(got, want, rtol=1e-10):
    for g, w in zip(got, want):
        assert g.shape == np.shape(w), (g.shape, np.shape(w))
        assert g.dtype == np.asarray(w).dtype, (g.dtype, np.asarray(w).dtype)
        np.testing.assert_allclose(g, w, rtol=rtol, atol=1e-300, equal_nan=True)


def _variants(name):
    if name in ("levene", "fligner"):
        return [{"center": c} for c in ("median", "mean", "trimmed")] + [{"center": "trimmed", "proportiontocut": 0.2}]
    return [{}]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("lengths", [(6, 9), (5, 7, 12), (4, 4, 4, 10)])
def test_1d_as_scipy(H, name, lengths):
    rng = np.random.default_rng()
    samples = [rng.standard_normal(n) * (1 + i) + i for i, n in enumerate(lengths)]
    for kw in _variants(name):
        _same(_run(getattr(H, name), *samples, **kw)[0], _run(getattr(sst, name), *samples, **kw)[0])
    ties = [np.round(s) for s in samples]  # ties for the ranks
    _same(_run(getattr(H, name), *ties)[0], _run(getattr(sst, name), *ties)[0])


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("keepdims", [False, True])
def test_nd_broadcast_as_scipy(H, name, keepdims):
    rng = np.random.default_rng()
    a, b, c = rng.standard_normal((3, 7, 4)), rng.standard_normal((1, 5, 4)) * 2, rng.standard_normal((3, 9, 1)) + 1
    for axis in (1, -2, None):
        for kw in _variants(name)[:2]:
            _same(_run(getattr(H, name), a, b, c, axis=axis, keepdims=keepdims, **kw)[0],
                  _run(getattr(sst, name), a, b, c, axis=axis, keepdims=keepdims, **kw)[0])


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("dtype", ["float32", "int64"])
def test_dtypes_as_scipy(H, name, dtype):
    rng = np.random.default_rng()
    x, y = (rng.standard_normal((12, 3)) * 5).astype(dtype), (rng.standard_normal((15, 3)) * 3).astype(dtype)
    # SciPy's bartlett of integer samples fails (it writes NaN into an integer count array): the
    # oracle is SciPy's on the float64 samples, which is what ours computes
    oracle = (x.astype(np.float64), y.astype(np.float64)) if name == "bartlett" and dtype == "int64" else (x, y)
    # float32: moments and sums in float32 in another order (~1e-6 relative); ndtri and the tails keep it
    _same(_run(getattr(H, name), x, y)[0], _run(getattr(sst, name), *oracle)[0], rtol=1e-4 if dtype == "float32" else 1e-10)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("policy", ["propagate", "omit"])
def test_nans_as_scipy(H, name, policy):
    rng = np.random.default_rng()
    a, b = rng.standard_normal((9, 4)), rng.standard_normal((11, 4)) + 0.5
    a[rng.random(a.shape) < 0.2] = np.nan
    a[0, 0] = np.nan
    for args in ((a, b), (a[:, 0], b[:, 0])):
        _same(_run(getattr(H, name), *args, nan_policy=policy)[0], _run(getattr(sst, name), *args, nan_policy=policy)[0])
    with pytest.raises(ValueError):
        getattr(H, name)(a, b, nan_policy="raise")


@pytest.mark.parametrize("name", NAMES)
def test_empty_sample_and_errors_as_scipy(H, name):
    got, got_w = _run(getattr(H, name), np.arange(5.0), np.zeros(0))
    want, want_w = _run(getattr(sst, name), np.arange(5.0), np.zeros(0))
    _same(got, want)
    assert bool(got_w) and bool(want_w)
    with pytest.raises(ValueError):
        getattr(H, name)(np.arange(5.0))
    with pytest.raises((ValueError, IndexError)):  # SciPy's kruskal of one sample fails before its own ValueError
        getattr(sst, name)(np.arange(5.0))
    if name in ("levene", "fligner"):
        for mod in (H, sst):
            with pytest.raises(ValueError, match="center must be"):
                getattr(mod, name)(np.arange(5.0), np.arange(6.0), center="mode")


@pytest.mark.parametrize("name", NAMES)
def test_signature_is_scipys(name):
    ours, theirs = inspect.signature(getattr(cst, name)), inspect.signature(getattr(sst, name))
    assert [(p.name, p.kind, p.default) for p in ours.parameters.values()] == \
        [(p.name, p.kind, p.default) for p in theirs.parameters.values()]
