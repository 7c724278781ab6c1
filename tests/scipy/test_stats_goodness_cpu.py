"""power_divergence, chisquare and f_oneway without a GPU: the modules' computations on NumPy
(stats_tests_host) against scipy.stats over a grid (every lambda_, f_exp given or not, ddof,
axes and None, keepdims, NaNs propagated/omitted/raised, sum_check; f_oneway with 2-4 samples of
different lengths, broadcasting, equal_var both ways, constant samples, too-small samples); the
errors and signatures."""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest

sst = pytest.importorskip("scipy.stats")

from cuarray.scipy import stats as cst  # noqa: E402


@pytest.fixture(scope="module")
def H(stats_host):
    copies = stats_host
    return type("H", (), {"power_divergence": staticmethod(copies["_goodness"].power_divergence),
                          "chisquare": staticmethod(copies["_goodness"].chisquare),
                          "f_oneway": staticmethod(copies["_anova"].f_oneway)})


def _quiet(f, *a, **k):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        out = f(*a, **k)
    return tuple(np.asarray(x) for x in out), [x for x in w if issubclass(x.category, RuntimeWarning)]


def _same(got, want, rtol=1e-10):
    for g, w in zip(got, want):
        assert g.shape == np.shape(w), (g.shape, np.shape(w))
        assert g.dtype == np.asarray(w).dtype, (g.dtype, np.asarray(w).dtype)
        np.testing.assert_allclose(g, w, rtol=rtol, atol=1e-300, equal_nan=True)


LAMBDAS = [None, "pearson", "log-likelihood", "freeman-tukey", "mod-log-likelihood", "neyman", "cressie-read", 0.3, -2]


@pytest.mark.parametrize("lambda_", LAMBDAS)
@pytest.mark.parametrize("shape,axis,keepdims", [((8,), 0, False), ((6, 5), 0, True), ((4, 7), 1, False),
                                                 ((3, 4, 5), None, True), ((3, 4, 5), -1, False)])
def test_power_divergence_as_scipy(H, lambda_, shape, axis, keepdims):
    rng = np.random.default_rng()
    obs = rng.integers(1, 30, shape).astype(float)
    for f_exp in (None, "matched"):
        kw = dict(axis=axis, lambda_=lambda_, keepdims=keepdims, ddof=rng.integers(0, 2))
        if f_exp == "matched":  # totals equal to the observed ones along the axis
            e = rng.uniform(1, 30, shape)
            tot_o = obs.sum(axis=axis, keepdims=True) if axis is not None else obs.sum()
            tot_e = e.sum(axis=axis, keepdims=True) if axis is not None else e.sum()
            kw["f_exp"] = e * tot_o / tot_e
        _same(_quiet(H.power_divergence, obs, **kw)[0], _quiet(sst.power_divergence, obs, **kw)[0])


@pytest.mark.parametrize("dtype", ["float32", "int64", "float64"])
def test_chisquare_dtypes_ddof_and_sum_check(H, dtype):
    rng = np.random.default_rng()
    obs = rng.integers(1, 40, (6, 3)).astype(dtype)
    for kw in ({}, {"ddof": 1}, {"ddof": np.array([0, 1, 2])}, {"axis": None}):
        _same(_quiet(H.chisquare, obs, **kw)[0], _quiet(sst.chisquare, obs, **kw)[0], rtol=1e-5 if dtype == "float32" else 1e-10)
    bad = obs.astype(float) + 1.0
    for mod in (H, sst):
        with pytest.raises(ValueError, match="sum of the observed frequencies"):
            mod.chisquare(obs, bad)
    _same(_quiet(H.chisquare, obs, bad, sum_check=False)[0], _quiet(sst.chisquare, obs, bad, sum_check=False)[0],
          rtol=1e-5 if dtype == "float32" else 1e-10)


@pytest.mark.parametrize("policy", ["propagate", "omit"])
@pytest.mark.parametrize("with_exp", [False, True])
def test_chisquare_nans_as_scipy(H, policy, with_exp):
    rng = np.random.default_rng()
    obs = rng.integers(1, 30, (9, 4)).astype(float)
    obs[rng.random(obs.shape) < 0.2] = np.nan
    kw = {"nan_policy": policy, "axis": 0}
    args = (obs,)
    if with_exp:
        e = rng.uniform(1, 30, obs.shape)
        e *= np.nansum(obs, axis=0) / np.where(np.isnan(obs), 0, e).sum(axis=0)
        args = (obs, e)
        kw["sum_check"] = False
    _same(_quiet(H.chisquare, *args, **kw)[0], _quiet(sst.chisquare, *args, **kw)[0])
    with pytest.raises(ValueError):
        H.chisquare(obs, nan_policy="raise")


def test_power_divergence_bad_lambda(H):
    for mod in (H, sst):
        with pytest.raises(ValueError, match="invalid string for lambda_"):
            mod.power_divergence(np.ones(4), lambda_="bogus")


@pytest.mark.parametrize("equal_var", [True, False])
@pytest.mark.parametrize("lengths,axis", [((5, 8), 0), ((4, 6, 9), 0), ((3, 3, 4, 10), 0), ((6, 7), None)])
def test_f_oneway_1d_as_scipy(H, equal_var, lengths, axis):
    rng = np.random.default_rng()
    samples = [rng.standard_normal(n) + i * 0.4 for i, n in enumerate(lengths)]
    _same(_quiet(H.f_oneway, *samples, axis=axis, equal_var=equal_var)[0],
          _quiet(sst.f_oneway, *samples, axis=axis, equal_var=equal_var)[0])


@pytest.mark.parametrize("equal_var", [True, False])
@pytest.mark.parametrize("keepdims", [False, True])
def test_f_oneway_nd_and_broadcast_as_scipy(H, equal_var, keepdims):
    rng = np.random.default_rng()
    a, b, c = rng.standard_normal((3, 7, 4)), rng.standard_normal((1, 5, 4)) + 0.3, rng.standard_normal((3, 9, 1))
    for axis in (1, -2):
        _same(_quiet(H.f_oneway, a, b, c, axis=axis, equal_var=equal_var, keepdims=keepdims)[0],
              _quiet(sst.f_oneway, a, b, c, axis=axis, equal_var=equal_var, keepdims=keepdims)[0])
    x, y = rng.standard_normal((6, 3)).astype(np.float32), rng.standard_normal((8, 3)).astype(np.float32)
    _same(_quiet(H.f_oneway, x, y, keepdims=keepdims)[0], _quiet(sst.f_oneway, x, y, keepdims=keepdims)[0], rtol=1e-4)


@pytest.mark.parametrize("policy", ["propagate", "omit"])
def test_f_oneway_nans_as_scipy(H, policy):
    rng = np.random.default_rng()
    a, b = rng.standard_normal((7, 5)), rng.standard_normal((9, 5)) + 0.5
    a[rng.random(a.shape) < 0.2] = np.nan
    a[:, 4] = np.nan  # a sample emptied by 'omit' in one slice
    kw = {"nan_policy": policy}
    _same(_quiet(H.f_oneway, a, b, **kw)[0], _quiet(sst.f_oneway, a, b, **kw)[0])
    a1 = a[:, 0]
    _same(_quiet(H.f_oneway, a1, b[:, 0], **kw)[0], _quiet(sst.f_oneway, a1, b[:, 0], **kw)[0])


def test_f_oneway_constant_and_small_samples(H):
    cases = [(np.full(5, 2.0), np.full(4, 3.0)), (np.full(5, 2.0), np.full(4, 2.0)), (np.ones(1), np.ones(1) * 2),
             (np.zeros(0), np.arange(4.0)), (np.arange(3), np.arange(5) + 1)]
    for samples in cases:
        got, got_w = _quiet(H.f_oneway, *samples)
        want, want_w = _quiet(sst.f_oneway, *samples)
        _same(got, want)
        assert bool(got_w) == bool(want_w), (samples, got_w, want_w)
    for mod in (H, sst):
        with pytest.raises(TypeError):
            mod.f_oneway(np.arange(3.0))
        with pytest.raises(TypeError):
            mod.f_oneway(np.arange(3.0), np.arange(4.0), equal_var="yes")


@pytest.mark.parametrize("name", ["power_divergence", "chisquare", "f_oneway"])
def test_signature_is_scipys(name):
    ours, theirs = inspect.signature(getattr(cst, name)), inspect.signature(getattr(sst, name))
    assert [(p.name, p.kind, p.default) for p in ours.parameters.values()] == \
        [(p.name, p.kind, p.default) for p in theirs.parameters.values()]
