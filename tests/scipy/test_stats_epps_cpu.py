"""epps_singleton_2samp without a GPU: the module (`_epps`) run with NumPy in place of cuarray's
routines (stats_tests_host) against scipy.stats: float64/float32, broadcast batches, each axis and
None, keepdims, other `t`, non-finite values, NaNs propagated/omitted/raised, samples too small,
SciPy's rank warning, the errors and the signature."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

sst = pytest.importorskip("scipy.stats")

from cuarray.scipy import stats as cst  # noqa: E402

SCIPY_118 = tuple(int(v) for v in __import__("scipy").__version__.split(".")[:2]) >= (1, 18)


@pytest.fixture(scope="module")
def H(stats_host):
    return stats_host["_epps"]


def epps_cond(x, y, axis=0, t=(0.4, 0.8)):
    """The condition number of each slice's estimated covariance (what `pinv` inverts)."""
    x, y = np.moveaxis(np.asarray(x, float), axis, -1), np.moveaxis(np.asarray(y, float), axis, -1)
    nx, ny = x.shape[-1], y.shape[-1]
    t = np.asarray(t, float)
    batch = np.broadcast_shapes(x.shape[:-1], y.shape[:-1])
    x, y = np.broadcast_to(x, batch + (nx,)), np.broadcast_to(y, batch + (ny,))
    sigma = sst.iqr(np.concatenate((x, y), -1), axis=-1, keepdims=True) / 2
    ts = t.reshape((-1,) + (1,) * x.ndim) / sigma

    def cov(v):
        g = np.moveaxis(np.concatenate((np.cos(ts * v), np.sin(ts * v)), 0), 0, -2)
        c = g - g.mean(-1, keepdims=True)
        return c @ np.swapaxes(c, -1, -2) / v.shape[-1]
    n = nx + ny
    return np.linalg.cond(n / nx * cov(x) + n / ny * cov(y))


def same(got, want, cond, eps=np.finfo(np.float64).eps):
    """w is a quadratic form in the pseudo-inverse of the covariance: relative error ~cond * eps
    (observed below 0.5 cond eps against SciPy's own order of sums); the chi-square tail's relative
    error is w / 2 times w's."""
    g, w = (np.asarray(v, dtype=float) for v in got), (np.asarray(v, dtype=float) for v in want)
    (gw, gp), (ww, wp) = g, w
    rtol = 100 * np.asarray(cond) * eps
    assert gw.shape == ww.shape and (np.isnan(ww) == np.isnan(gw)).all(), (gw, ww)
    fin = ~np.isnan(ww)
    r = np.broadcast_to(rtol, ww.shape)
    assert np.all(np.abs(gw - ww)[fin] <= (r * np.abs(ww))[fin]), (gw, ww, rtol)
    assert np.all(np.abs(gp - wp)[fin] <= (r * np.maximum(1, ww) * np.abs(wp))[fin] + 1e-300), (gp, wp, rtol)


@pytest.mark.parametrize("xs,ys,axis,keepdims", [((20,), (15,), 0, False), ((4, 9), (4, 30), 1, True),
                                                 ((12, 3), (8, 1), 0, False), ((3, 4), (2, 5), None, True),
                                                 ((2, 3, 9), (3, 6), -1, False)])
def test_as_scipy(H, xs, ys, axis, keepdims):
    rng = np.random.default_rng()
    x, y = rng.standard_normal(xs), rng.standard_normal(ys) * 1.5 + 0.3
    for t in ((0.4, 0.8), [0.2, 0.5, 1.1]):
        kw = {"t": t, "axis": axis, "keepdims": keepdims}
        got, want = H.epps_singleton_2samp(x, y, **kw), sst.epps_singleton_2samp(x, y, **kw)
        assert np.shape(got.statistic) == np.shape(want.statistic)
        cond = epps_cond(x.ravel(), y.ravel(), 0, t) if axis is None else epps_cond(x, y, axis, t)
        same(got, want, np.reshape(cond, np.shape(want.statistic)) if keepdims else cond)


def test_float32_as_scipy(H):
    rng = np.random.default_rng()
    x, y = rng.standard_normal(30).astype(np.float32), rng.standard_normal(20).astype(np.float32)
    got, want = H.epps_singleton_2samp(x, y), sst.epps_singleton_2samp(x, y)
    assert np.asarray(got.statistic).dtype == np.float32 and (np.asarray(want.statistic).dtype == np.float32 or not SCIPY_118)
    same(got, want, epps_cond(x, y), np.finfo(np.float32).eps)


def test_non_finite_and_nan_policy_as_scipy(H, warned):
    rng = np.random.default_rng()
    x, y = rng.standard_normal((4, 12)), rng.standard_normal((4, 10))
    x[0, 3], y[1, 2] = np.inf, -np.inf  # those slices NaN
    x[2, 1] = np.nan
    for policy in ("propagate", "omit"):
        (got, gw), (want, ww) = (warned(f, x, y, axis=1, nan_policy=policy) for f in (H.epps_singleton_2samp, sst.epps_singleton_2samp))
        x2 = np.where(np.isfinite(x), x, 0.0)
        same(got, want, np.where(np.isnan(want.statistic), 1.0, epps_cond(x2, np.where(np.isfinite(y), y, 0.0), 1)) * 10)
        assert bool(gw) == bool(ww)
    for f in (H.epps_singleton_2samp, sst.epps_singleton_2samp):
        with pytest.raises(ValueError, match="nan"):
            f(x, y, axis=1, nan_policy="raise")


@pytest.mark.parametrize("nx,ny", [(4, 10), (10, 3), (5, 5)])
def test_small_samples_as_scipy(H, nx, ny, warned):
    rng = np.random.default_rng()
    x, y = rng.standard_normal(nx), rng.standard_normal(ny)
    (got, gw), (want, ww) = (warned(f, x, y) for f in (H.epps_singleton_2samp, sst.epps_singleton_2samp))
    assert gw == ww
    same(got, want, epps_cond(x, y) if min(nx, ny) > 4 else 1.0)


def test_rank_warning_and_errors_as_scipy(H):
    rng = np.random.default_rng()
    x, y = rng.standard_normal(20), rng.standard_normal(15)
    for f in (H.epps_singleton_2samp, sst.epps_singleton_2samp):
        with pytest.warns(UserWarning, match="does not have full rank"):
            f(x, y, t=(0.4, 0.4))
        with pytest.raises(ValueError, match="positive elements only"):
            f(x, y, t=(0.4, -0.8))
        with pytest.raises(ValueError, match="t must be 1d"):
            f(x, y, t=[[0.4, 0.8]])


def test_signature_as_scipy():
    assert inspect.signature(cst.epps_singleton_2samp) == inspect.signature(sst.epps_singleton_2samp)
