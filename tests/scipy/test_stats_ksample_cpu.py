"""bartlett, levene, fligner and kruskal without a GPU: the module on NumPy (stats_tests_host)
against scipy.stats over a grid (2-4 samples of different lengths, N-D broadcasting, axes and
None, keepdims, every center, ties, float32/int input, NaNs propagated/omitted/raised, empty
samples); the errors and signatures."""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest

sst = pytest.importorskip("scipy.stats")

from cuarray.scipy import stats as cst  # noqa: E402

NAMES = ("bartlett", "levene", "fligner", "kruskal", "friedmanchisquare")


@pytest.fixture(scope="module")
def H(stats_host):
    return stats_host["_ksample"]


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


def _equal(name, lengths):
    """friedmanchisquare's samples are paired: one length."""
    return (max(lengths),) * max(len(lengths), 3) if name == "friedmanchisquare" else lengths


def _variants(name):
    if name in ("levene", "fligner"):
        return [{"center": c} for c in ("median", "mean", "trimmed")] + [{"center": "trimmed", "proportiontocut": 0.2}]
    return [{}]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("lengths", [(6, 9), (5, 7, 12), (4, 4, 4, 10)])
def test_1d_as_scipy(H, name, lengths):
    rng = np.random.default_rng()
    samples = [rng.standard_normal(n) * (1 + i) + i for i, n in enumerate(_equal(name, lengths))]
    for kw in _variants(name):
        _same(_run(getattr(H, name), *samples, **kw)[0], _run(getattr(sst, name), *samples, **kw)[0])
    ties = [np.round(s) for s in samples]  # ties for the ranks
    _same(_run(getattr(H, name), *ties)[0], _run(getattr(sst, name), *ties)[0])


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("keepdims", [False, True])
def test_nd_broadcast_as_scipy(H, name, keepdims):
    rng = np.random.default_rng()
    a, b, c = rng.standard_normal((3, 7, 4)), rng.standard_normal((1, 5, 4)) * 2, rng.standard_normal((3, 9, 1)) + 1
    if name == "friedmanchisquare":
        b, c = b[:, :4], c[:, :7]
        b = np.concatenate([b, b[:, :3] + 0.5], axis=1)
    for axis in (1, -2) if name == "friedmanchisquare" else (1, -2, None):  # paired: raveled lengths differ
        for kw in _variants(name)[:2]:
            _same(_run(getattr(H, name), a, b, c, axis=axis, keepdims=keepdims, **kw)[0],
                  _run(getattr(sst, name), a, b, c, axis=axis, keepdims=keepdims, **kw)[0])


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("dtype", ["float32", "int64"])
def test_dtypes_as_scipy(H, name, dtype):
    rng = np.random.default_rng()
    x, y = (rng.standard_normal((12, 3)) * 5).astype(dtype), (rng.standard_normal((15, 3)) * 3).astype(dtype)
    triple = (x, y[:12], (x + y[:12]).astype(dtype))  # friedmanchisquare's: paired
    # SciPy's bartlett of integer samples fails (it writes NaN into an integer count array): the
    # oracle is SciPy's on the float64 samples, which is what ours computes
    args = triple if name == "friedmanchisquare" else (x, y)
    oracle = tuple(s.astype(np.float64) for s in args) if name == "bartlett" and dtype == "int64" else args
    # float32: moments and sums in float32 in another order (~1e-6 relative); ndtri and the tails keep it
    _same(_run(getattr(H, name), *args)[0], _run(getattr(sst, name), *oracle)[0], rtol=1e-4 if dtype == "float32" else 1e-10)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("policy", ["propagate", "omit"])
def test_nans_as_scipy(H, name, policy):
    rng = np.random.default_rng()
    a, b = rng.standard_normal((9, 4)), rng.standard_normal((11, 4)) + 0.5
    a[rng.random(a.shape) < 0.2] = np.nan
    a[0, 0] = np.nan
    groups = ((a, b), (a[:, 0], b[:, 0]))
    if name == "friedmanchisquare":
        c = b[:9] * 2
        groups = ((a, b[:9], c), (a[:, 0], b[:9, 0], c[:, 0]))
    for args in groups:
        _same(_run(getattr(H, name), *args, nan_policy=policy)[0], _run(getattr(sst, name), *args, nan_policy=policy)[0])
    with pytest.raises(ValueError):
        getattr(H, name)(*groups[0], nan_policy="raise")


@pytest.mark.parametrize("name", NAMES)
def test_empty_sample_and_errors_as_scipy(H, name):
    empty = (np.zeros(0),) * 3 if name == "friedmanchisquare" else (np.arange(5.0), np.zeros(0))
    got, got_w = _run(getattr(H, name), *empty)
    want, want_w = _run(getattr(sst, name), *empty)
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


@pytest.fixture(scope="module")
def C(stats_host):
    return stats_host["_correlation"]


@pytest.mark.parametrize("policy", ["propagate", "omit"])
@pytest.mark.parametrize("keepdims", [False, True])
def test_pointbiserialr_as_scipy(C, policy, keepdims):
    rng = np.random.default_rng()
    x = rng.random((20, 3)) < 0.4
    y = rng.standard_normal((20, 3)) + x
    y[rng.random(y.shape) < 0.1] = np.nan
    for axis in (0, None):
        kw = dict(axis=axis, nan_policy=policy, keepdims=keepdims)
        got, want = C.pointbiserialr(x, y, **kw), sst.pointbiserialr(x, y, **kw)
        _same(tuple(np.asarray(v) for v in got), tuple(np.asarray(v) for v in want))
        np.testing.assert_allclose(np.asarray(got.correlation), np.asarray(want.correlation), rtol=1e-10, equal_nan=True)


def test_pointbiserialr_signature_is_scipys():
    ours, theirs = inspect.signature(cst.pointbiserialr), inspect.signature(sst.pointbiserialr)
    assert [(p.name, p.kind, p.default) for p in ours.parameters.values()] == \
        [(p.name, p.kind, p.default) for p in theirs.parameters.values()]


ONE = {"skewtest": "_normality", "normaltest": "_normality", "jarque_bera": "_normality", "chisquare": "_goodness",
       "power_divergence": "_goodness", "tmin": "_trimmed", "tmax": "_trimmed"}
MANY = {"f_oneway": "_anova", "bartlett": "_ksample", "levene": "_ksample", "kruskal": "_ksample"}


@pytest.mark.parametrize("name", sorted(ONE) + sorted(MANY))
def test_bad_axis_and_complex_as_scipy(stats_host, name):
    """An axis past the dimensions raises NumPy's AxisError (the k-sample tests used to wrap it
    round silently); complex samples raise TypeError where SciPy's p-value functions refuse them,
    instead of losing their imaginary parts."""
    x = np.arange(1.0, 21.0).reshape(4, 5)
    ours = getattr(stats_host[ONE.get(name) or MANY[name]], name)
    args = (x,) if name in ONE else (x, x + 1)
    for mod in (ours, getattr(sst, name)):
        with pytest.raises(np.exceptions.AxisError):
            mod(*args, axis=5)
    if name in MANY:
        # (SciPy's levene takes complex samples through abs; ours refuses them too: docs/differences.md)
        for mod in (ours,) if name == "levene" else (ours, getattr(sst, name)):
            with pytest.raises(TypeError):
                mod(x + 1j, x)


def test_empty_and_complex_tables(stats_host):
    """tmin/tmax of an empty sample are NaN, as SciPy's; chi2_contingency refuses complex counts."""
    for name in ("tmin", "tmax"):
        got = np.asarray(getattr(stats_host["_trimmed"], name)(np.zeros(0)))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = np.asarray(getattr(sst, name)(np.zeros(0)))
        assert got.shape == want.shape and np.isnan(got) and np.isnan(want)
    for mod in (stats_host["_contingency"], sst):
        with pytest.raises(TypeError):
            mod.chi2_contingency(np.array([[1, 2], [3, 4]]) + 1j)


@pytest.mark.parametrize("name", ["levene", "kruskal"])
def test_omit_leaving_a_slice_empty_warns_as_scipy(H, name):
    """SciPy warns when 'omit' leaves a slice of a sample empty (the slice's result NaN)."""
    rng = np.random.default_rng()
    a, b = rng.standard_normal((3, 6)), rng.standard_normal((3, 5))
    b[1] = np.nan
    (got, got_w), (want, want_w) = (_run(getattr(m, name), a, b, axis=1, nan_policy="omit") for m in (H, sst))
    _same(got, want)
    # SciPy's own warning, not NumPy's about the empty slice's mean
    assert [str(w.message) for w in got_w if "omitting" in str(w.message)], [str(w.message) for w in got_w]
    assert [str(w.message) for w in want_w if "omitting" in str(w.message)]
