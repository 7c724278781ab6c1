"""ranksums and mood without a GPU: the module (`_ranksums`) run with NumPy in place of cuarray's
routines (stats_tests_host) against scipy.stats over a grid (dtypes, ties, broadcasting, each axis,
negative and None, keepdims, alternatives, NaNs propagated/omitted/raised, samples too small,
lists), the errors and the signatures."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

sst = pytest.importorskip("scipy.stats")

from cuarray.scipy import stats as cst  # noqa: E402


@pytest.fixture(scope="module")
def H(stats_host):
    return stats_host["_ranksums"]




SCIPY_118 = tuple(int(v) for v in __import__("scipy").__version__.split(".")[:2]) >= (1, 18)
NAMES = ("ranksums", "mood")


def _same(got, want, float32=False):
    for g, w in zip(got, want):
        g, w = np.asarray(g), np.asarray(w)
        assert g.shape == w.shape and (g.dtype == w.dtype or not SCIPY_118), (g.shape, w.shape, g.dtype, w.dtype)
        # ranks are exact (halves); z and ndtr the same formulas (mood's by Mielke's group sums, in
        # another order): equal to rounding. float32 (mood): SciPy sums squared ranks ~N^2 in float32
        # (~1e-7 relative) and subtracts their mean, so z is off by ~1e-7 N^2 m / sd ~ 1e-5 absolute
        if float32:
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5, equal_nan=True)
        else:
            np.testing.assert_allclose(g, w, rtol=1e-11, atol=1e-14, equal_nan=True)


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64"])
@pytest.mark.parametrize("xs,ys,axis,keepdims", [((20,), (15,), 0, False), ((4, 9), (4, 7), 1, True),
                                                 ((9, 3), (6, 1), 0, False), ((3, 4), (2, 5), None, True),
                                                 ((2, 3, 8), (3, 5), -1, False), ((7, 2), (5, 2), -2, True)])
@pytest.mark.parametrize("name", NAMES)
def test_values_as_scipy(H, dtype, xs, ys, axis, keepdims, name, warned):
    rng = np.random.default_rng()
    x, y = rng.standard_normal(xs), rng.standard_normal(ys) * 1.5 + 0.4
    if dtype == "int64":  # ties
        x, y = np.round(x * 2), np.round(y * 2)
    x, y = x.astype(dtype), y.astype(dtype)
    for alternative in ("two-sided", "less", "greater"):
        kw = {"alternative": alternative, "axis": axis, "keepdims": keepdims}
        _same(warned(getattr(H, name), x, y, **kw)[0], warned(getattr(sst, name), x, y, **kw)[0],
              name == "mood" and dtype == "float32")


@pytest.mark.parametrize("policy", ["propagate", "omit", "raise"])
@pytest.mark.parametrize("xs,ys,axis", [((20,), (12,), 0), ((4, 12), (4, 9), 1), ((3, 10), (2, 6), None)])
@pytest.mark.parametrize("name", NAMES)
def test_nan_policy_as_scipy(H, policy, xs, ys, axis, name, warned):
    rng = np.random.default_rng()
    x, y = rng.standard_normal(xs), rng.standard_normal(ys)
    x[rng.random(xs) < 0.15] = np.nan
    x.flat[0] = np.nan
    if len(xs) == 2 and axis == 1:
        y[1] = np.nan  # a slice left empty after omitting
        x[2, 1:], y[2, 1:] = np.nan, np.nan  # and one left with two values (mood's too small)
    kw = {"axis": axis, "nan_policy": policy}
    fs = (getattr(H, name), getattr(sst, name))
    if policy == "raise":
        for f in fs:
            with pytest.raises(ValueError, match="nan"):
                f(x, y, **kw)
        return
    (got, got_w), (want, want_w) = (warned(f, x, y, **kw) for f in fs)
    _same(got, want)
    assert bool(got_w) == bool(want_w), (got_w, want_w)


@pytest.mark.parametrize("xs,ys", [((0,), (3,)), ((1,), (1,)), ((2,), (1,)), ((2, 0), (2, 3)), ((3, 1), (3, 1))])
@pytest.mark.parametrize("name", NAMES)
def test_small_samples_as_scipy(H, xs, ys, name, warned):
    x, y = np.random.default_rng().standard_normal(xs), np.random.default_rng().standard_normal(ys)
    (got, got_w), (want, want_w) = (warned(f, x, y, axis=-1) for f in (getattr(H, name), getattr(sst, name)))
    if name == "mood" and len(xs) == 2:  # SciPy's mood returns one NaN for the batch (ours: one a slice)
        want = [np.full(xs[:1], w) for w in want]
    _same(got, want)
    assert bool(got_w) == bool(want_w), (got_w, want_w)


def test_lists_and_errors(H):
    _same(H.ranksums([1, 5, 2, 8], [3, 3, 9]), sst.ranksums([1, 5, 2, 8], [3, 3, 9]))
    _same(H.mood([1, 5, 2, 8, 1], [3, 3, 9]), sst.mood([1, 5, 2, 8, 1], [3, 3, 9]))
    x = np.arange(5.0)
    for f in (H.ranksums, sst.ranksums, H.mood, sst.mood):
        with pytest.raises(np.exceptions.AxisError):
            f(x, x, axis=1)
        with pytest.raises(ValueError, match="alternative"):
            f(x, x, alternative="sideways")
    for f in (H.ranksums, H.mood):
        with pytest.raises(TypeError):  # SciPy ranks the complex numbers' real parts silently
            f(x + 1j, x)


@pytest.mark.parametrize("name", NAMES)
def test_signature_as_scipy(name):
    assert inspect.signature(getattr(cst, name)) == inspect.signature(getattr(sst, name))
