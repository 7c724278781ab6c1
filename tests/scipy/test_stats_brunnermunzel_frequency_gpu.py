"""brunnermunzel, cumfreq, relfreq, sigmaclip and theilslopes on the GPU against SciPy: N-D
samples along an axis, ties, both distributions and every alternative, float32, NaNs omitted;
histograms with the default and given limits, weights, integer data on the edges; sigma clipping
with outliers; Theil-Sen slopes with ties, both methods, N-D, NaNs."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

scipy = pytest.importorskip("scipy")
sst = pytest.importorskip("scipy.stats")

import cuarray  # noqa: E402
from cuarray.scipy import stats as cst  # noqa: E402

G = cuarray.asarray
NEW = tuple(int(v) for v in scipy.__version__.split(".")[:2]) >= (1, 18)


def _run(f, *a, **k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return f(*a, **k)


def _cmp(got, want, rtol=1e-9, atol=1e-300, dtypes=True):
    for name, g, w in zip(type(want)._fields if hasattr(want, "_fields") else range(len(want)), got, want):
        g = cuarray.asnumpy(g)
        assert g.shape == np.shape(w), (name, g.shape, np.shape(w))
        if dtypes:
            assert g.dtype == np.asarray(w).dtype, (name, g.dtype, np.asarray(w).dtype)
        np.testing.assert_allclose(g, w, rtol=rtol, atol=atol, equal_nan=True, err_msg=str(name))


def test_brunnermunzel_as_scipy():
    rng = np.random.default_rng()
    x, y = rng.standard_normal((3, 17, 4)), rng.standard_normal((1, 25, 4)) * 2 + 0.3
    for alt in ("two-sided", "less", "greater"):
        for dist in ("t", "normal"):
            # ranks exact; moments and stdtr/ndtr rounding ~1e-15, the p-value's condition a few units
            _cmp(_run(cst.brunnermunzel, G(x), G(y), alt, dist, axis=1),
                 _run(sst.brunnermunzel, x, y, alt, dist, axis=1))
    tx, ty = np.round(x[0, :, 0] * 2), np.round(y[0, :, 0] * 2)  # ties
    _cmp(_run(cst.brunnermunzel, G(tx), G(ty), keepdims=True), _run(sst.brunnermunzel, tx, ty, keepdims=True))
    # float32: SciPy 1.18's on float64 samples (the same ranks); float32 moments ~1e-6 relative
    x32, y32 = x[0].astype(np.float32), y[0].astype(np.float32)
    got = _run(cst.brunnermunzel, G(x32), G(y32))
    assert all(g.dtype == np.float32 for g in got)
    _cmp(got, _run(sst.brunnermunzel, x32.astype(np.float64), y32.astype(np.float64)), rtol=1e-4, dtypes=False)
    xn = x[0].copy()
    xn[rng.random(xn.shape) < 0.2] = np.nan
    for policy in ("propagate", "omit"):
        _cmp(_run(cst.brunnermunzel, G(xn), G(y[0]), nan_policy=policy),
             _run(sst.brunnermunzel, xn, y[0], nan_policy=policy))


@pytest.mark.parametrize("name", ["cumfreq", "relfreq"])
def test_histograms_as_scipy(name):
    rng = np.random.default_rng()
    x = rng.standard_normal(1000)
    w = rng.random(1000)
    f, g = getattr(cst, name), getattr(sst, name)
    for numbins, kw in ((10, {}), (37, {}), (8, {"defaultreallimits": (-1, 1.5)})):
        _cmp(f(G(x), numbins, **kw), g(x, numbins, **kw), rtol=1e-12, dtypes=NEW)
    if NEW or name == "cumfreq":  # SciPy < 1.18's relfreq divided weighted counts by the number of values
        # a bin's weighted count is a difference of running sums: rounding ~ eps * the total weight
        for kw in ({"weights": w}, {"defaultreallimits": (-0.5, 2), "weights": w}):
            _cmp(f(G(x), 12, weights=G(w), **{k: v for k, v in kw.items() if k != "weights"}), g(x, 12, **kw),
                 rtol=1e-12, atol=1e-12 * w.sum(), dtypes=NEW)
    a = np.arange(24) % 7  # integers on the edges
    _cmp(f(G(a), 3, (0, 6)), g(a, 3, (0, 6)), rtol=1e-12, dtypes=NEW)
    if NEW:
        x32 = x.reshape(20, 50).astype(np.float32)
        _cmp(f(G(x32), 9), g(x32, 9), rtol=1e-6)
    with pytest.raises(ValueError, match="must be given as an iterable"):
        f(G(x), 5, (1, 0))


def _bounds_close(got, want, rtol=1e-12):
    """mean -/+ factor * std: the rounding is relative to those terms (within |lower| + |upper|)."""
    scale = abs(float(want.lower)) + abs(float(want.upper))
    np.testing.assert_allclose([float(got.lower), float(got.upper)], [want.lower, want.upper], rtol=rtol,
                               atol=rtol * np.nan_to_num(scale), equal_nan=True)


def test_sigmaclip_as_scipy():
    rng = np.random.default_rng()
    a = np.concatenate([rng.standard_normal(2000), rng.standard_normal(20) * 50]) * 3 + 1
    # factors that stop at hundreds of values (at two or three a bound can equal a value exactly)
    for low, high in ((4.0, 4.0), (2.0, 3.0), (1.5, 2.5)):
        got, want = cst.sigmaclip(G(a), low, high), sst.sigmaclip(a, low, high)
        # the same values kept unless one lies within rounding (~1e-15) of a bound: measure zero here
        np.testing.assert_array_equal(cuarray.asnumpy(got.clipped), want.clipped)
        _bounds_close(got, want)
    if NEW:
        an = a.copy()
        an[::97] = np.nan
        for policy in ("propagate", "omit"):
            got, want = cst.sigmaclip(G(an), 2.0, 2.0, nan_policy=policy), sst.sigmaclip(an, 2.0, 2.0, nan_policy=policy)
            np.testing.assert_array_equal(cuarray.asnumpy(got.clipped), want.clipped)
            _bounds_close(got, want)


def test_theilslopes_as_scipy():
    rng = np.random.default_rng()
    y, x = rng.standard_normal((3, 40, 2)), rng.standard_normal((1, 40, 2))
    y = y + 2 * x

    def cmp(got, want):
        # the same pairwise quotients: order statistics agree to a rounding; the intercept, a
        # difference of medians, to a rounding of its terms
        scale = np.abs(want[0]) + np.abs(want[1]) + 1.0
        for k, (g, w) in enumerate(zip(got, want)):
            g = cuarray.asnumpy(g)
            assert g.shape == np.shape(w) and g.dtype == np.asarray(w).dtype, (k, g.shape, g.dtype, np.shape(w))
            if k == 1:
                g, w = g / scale, w / scale
            np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-12 if k == 1 else 0, equal_nan=True, err_msg=str(k))
    for method in ("separate", "joint"):
        cmp(_run(cst.theilslopes, G(y), G(x), 0.9, method, axis=1), _run(sst.theilslopes, y, x, 0.9, method, axis=1))
    yt, xt = np.round(y[0, :, 0]), np.round(x[0, :, 0] * 2)  # ties: pairs with equal x, Sen's tie terms
    cmp(_run(cst.theilslopes, G(yt), G(xt)), _run(sst.theilslopes, yt, xt))
    cmp(_run(cst.theilslopes, G(yt), keepdims=True), _run(sst.theilslopes, yt, keepdims=True))
    yn = y[0].copy()
    yn[rng.random(yn.shape) < 0.2] = np.nan
    for policy in ("propagate", "omit"):
        cmp(_run(cst.theilslopes, G(yn), G(x[0]), axis=0, nan_policy=policy),
            _run(sst.theilslopes, yn, x[0], axis=0, nan_policy=policy))
