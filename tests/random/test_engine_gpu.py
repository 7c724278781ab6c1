"""GPU tests of the engine: the device Philox against the NumPy model bit for bit (through
random()), reproducibility (same seed, prefixes, launch independence), independence of seeds,
spawned streams and consecutive draws, integers at every dtype edge, shapes/dtypes/out=."""

from __future__ import annotations

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
from cuarray.random import _bit_generator  # noqa: E402


def _model_words(seed, draw, groups, blocks=1):
    """The words of groups 0..groups-1, `blocks` Philox blocks each: (groups, 4 * blocks) uint32."""
    k0, k1, _ = cuarray.random.Philox(seed).next_draw()
    ctr = np.zeros((groups, blocks, 4), np.uint32)
    ctr[:, :, 0] = np.arange(blocks, dtype=np.uint32)[None, :]
    ctr[:, :, 1] = np.arange(groups, dtype=np.uint32)[:, None]
    ctr[:, :, 3] = draw
    return _bit_generator.philox4x32_10(ctr, (k0, k1)).reshape(groups, 4 * blocks)


def test_float32_bits_match_model():
    n = 4 * 1000 + 3
    got = cuarray.random.default_rng(42).random(n, dtype=np.float32).get()
    w = _model_words(42, 0, 1001).reshape(-1)[:n]
    want = (w >> 8).astype(np.float32) * np.float32(2.0**-24)
    assert np.array_equal(got, want)


def test_float64_bits_match_model():
    n = 4 * 500
    got = cuarray.random.default_rng(7).random(n).get()
    w = _model_words(7, 0, 500, blocks=2).astype(np.uint64).reshape(500, 4, 2)
    u64 = w[..., 0] | (w[..., 1] << np.uint64(32))
    want = (u64 >> np.uint64(11)).astype(np.float64) * 2.0**-53
    assert np.array_equal(got, want.reshape(-1))


def test_second_draw_uses_next_counter():
    g = cuarray.random.default_rng(3)
    g.random(10, dtype=np.float32)
    got = g.random(8, dtype=np.float32).get()
    w = _model_words(3, 1, 2).reshape(-1)
    assert np.array_equal(got, (w >> 8).astype(np.float32) * np.float32(2.0**-24))


@pytest.mark.parametrize("method,args", [("random", ()), ("standard_normal", ()), ("gamma", (2.5,)),
                                         ("poisson", (30.0,)), ("binomial", (50, 0.3)), ("integers", (0, 1000))])
def test_same_seed_same_numbers_and_prefixes(method, args):
    a = getattr(cuarray.random.default_rng(11), method)(*args, size=100003).get()
    b = getattr(cuarray.random.default_rng(11), method)(*args, size=100003).get()
    c = getattr(cuarray.random.default_rng(11), method)(*args, size=1001).get()
    d = getattr(cuarray.random.default_rng(12), method)(*args, size=100003).get()
    assert np.array_equal(a, b)
    assert np.array_equal(a[:1001], c)  # a value depends on its position, not on the draw's size
    assert np.mean(a != d) > 0.5


def test_spawned_and_consecutive_streams_uncorrelated():
    n = 10**6
    kids = cuarray.random.default_rng(5).spawn(3)
    xs = [k.random(n).get() for k in kids]
    g = cuarray.random.default_rng(5)
    xs += [g.random(n).get(), g.random(n).get()]
    bound = 5 / np.sqrt(n)
    for i in range(len(xs)):
        for j in range(i + 1, len(xs)):
            assert abs(np.corrcoef(xs[i], xs[j])[0, 1]) < bound, (i, j)
    x = xs[0]  # neighbours within one stream
    assert abs(np.corrcoef(x[:-1], x[1:])[0, 1]) < bound
    assert abs(np.corrcoef(x[:-4], x[4:])[0, 1]) < bound


def test_numpy_seed_sequence_and_philox_accepted():
    ss = np.random.SeedSequence(99)
    a = cuarray.random.default_rng(ss).random(5).get()
    b = cuarray.random.Generator(cuarray.random.Philox(99)).random(5).get()
    assert np.array_equal(a, b)


INT_DTYPES = [np.dtype(c) for c in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")]


@pytest.mark.parametrize("dt", INT_DTYPES, ids=str)
def test_integers_edges(dt):
    info = np.iinfo(dt)
    g = cuarray.random.default_rng(int(dt.num))
    for lo, hi in [(info.max - 1, info.max), (info.min, info.min + 1), (info.min, info.min + 2)]:
        x = g.integers(lo, hi, size=20000, dtype=dt, endpoint=True).get()
        assert x.dtype == dt
        assert set(np.unique(x).tolist()) == set(range(int(lo), int(hi) + 1))
    x = g.integers(info.min, info.max, size=200000, dtype=dt, endpoint=True).get()
    assert x.min() >= info.min and x.max() <= info.max
    if dt.itemsize == 1:
        assert x.min() == info.min and x.max() == info.max
    # exclusive high at the dtype's end
    x = g.integers(info.max - 3, int(info.max) + 1, size=20000, dtype=dt).get()
    assert set(np.unique(x).tolist()) == set(range(int(info.max) - 3, int(info.max) + 1))
    # the sign/top bit is uniform over the full range
    x = g.integers(info.min, info.max, size=200000, dtype=dt, endpoint=True).get()
    top = (x.view(np.dtype("u" + str(dt.itemsize))) >> (8 * dt.itemsize - 1)).mean()
    assert abs(top - 0.5) < 0.01


def test_integers_unbiased_awkward_range():
    from scipy import stats

    r = 3 * 2**30  # a multiply-shift without rejection would be ~1/3 off in the lowest third
    x = cuarray.random.default_rng(1).integers(0, r, size=10**6, dtype=np.int64).get()
    counts = np.bincount(x // 2**30, minlength=3)
    assert stats.chisquare(counts).pvalue > 1e-5
    y = cuarray.random.default_rng(2).integers(-5, 5, size=10**6).get()
    counts = np.bincount(y + 5, minlength=10)
    assert len(counts) == 10 and stats.chisquare(counts).pvalue > 1e-5
    z = cuarray.random.default_rng(3).integers(0, 3 * 2**62, size=10**6, dtype=np.uint64).get()
    assert stats.chisquare(np.bincount((z >> np.uint64(62)).astype(np.int64), minlength=3)).pvalue > 1e-5


def test_integers_bool_and_array_bounds():
    g = cuarray.random.default_rng(4)
    b = g.integers(0, 2, size=1000, dtype=bool).get()
    assert b.dtype == bool and 300 < b.sum() < 700
    lo = cuarray.asarray(np.array([0, 10, -100], np.int64))
    hi = cuarray.asarray(np.array([[5], [6]], np.int64)) + cuarray.asarray(np.array([0, 10, 0], np.int64))
    x = g.integers(lo, hi, size=(1000, 2, 3)).get()
    assert x.shape == (1000, 2, 3) and x.dtype == np.int64
    lon, hin = np.array([0, 10, -100]), np.array([[5], [6]]) + np.array([0, 10, 0])
    assert (x >= lon).all() and (x < hin).all()
    assert (x.min(axis=0) == np.broadcast_to(lon, (2, 3))).all() and (x.max(axis=0) == hin - 1).all()
    with pytest.raises(ValueError, match="low >= high"):
        g.integers(cuarray.asarray(np.array([0, 5])), cuarray.asarray(np.array([3, 5])))
    with pytest.raises(ValueError, match="low is out of bounds for uint8"):
        g.integers(cuarray.asarray(np.array([0, -1])), 200, dtype=np.uint8)


@pytest.mark.parametrize("call", [
    lambda xp, g: g.normal(xp.zeros((3, 1)), xp.ones((4,))),
    lambda xp, g: g.normal(0.0, xp.ones((4,)), size=(2, 4)),
    lambda xp, g: g.uniform(xp.zeros((2, 1)), 5.0, size=(3, 2, 4)),
    lambda xp, g: g.gamma(xp.full((5,), 2.0)),
    lambda xp, g: g.binomial(xp.full((2, 3), 10), 0.5),
    lambda xp, g: g.poisson(3.0),
    lambda xp, g: g.poisson(3.0, size=7),
    lambda xp, g: g.standard_normal((2, 0, 3)),
    lambda xp, g: g.random(size=(), dtype=xp.float32),
    lambda xp, g: g.integers(5, size=(2, 2), dtype=xp.int16),
    lambda xp, g: g.triangular(0.0, xp.full((3,), 0.5), 1.0),
    lambda xp, g: g.hypergeometric(10, 5, xp.full((2,), 3)),
])
def test_shapes_and_dtypes_like_numpy(call):
    want = np.asarray(call(np, np.random.default_rng(0)))
    got = call(cuarray, cuarray.random.default_rng(0))
    assert isinstance(got, cuarray.ndarray)
    assert got.shape == want.shape and got.dtype == want.dtype


def test_array_parameters_per_element():
    g = cuarray.random.default_rng(8)
    loc = cuarray.asarray(np.array([0.0, 10.0, 100.0, -5.0]))
    x = g.normal(loc, 0.01, size=(20000, 4)).get()
    assert np.allclose(x.mean(axis=0), [0, 10, 100, -5], atol=0.01)
    lam = cuarray.asarray(np.array([0.5, 5.0, 50.0]))
    y = g.poisson(lam, size=(200000, 3)).get()
    assert np.allclose(y.mean(axis=0), [0.5, 5, 50], rtol=0.02)
    with pytest.raises(ValueError, match="scale < 0"):
        g.normal(0.0, cuarray.asarray(np.array([1.0, -1.0])))
    with pytest.raises(ValueError, match="p < 0, p > 1 or p is NaN"):
        g.binomial(5, cuarray.asarray(np.array([0.5, np.nan])))


def test_out_and_empty():
    g = cuarray.random.default_rng(9)
    out = cuarray.empty((100, 3), dtype=np.float32)
    r = g.random(dtype=np.float32, out=out)
    assert r is out and 0 <= float(out.min()) and float(out.max()) < 1
    out64 = cuarray.empty((10,))
    g.standard_normal(out=out64)
    with pytest.raises(ValueError):
        g.random(size=(3,), out=cuarray.empty((4,)))
    with pytest.raises(TypeError):
        g.random(out=cuarray.empty((4,), dtype=np.float32))
    assert g.normal(size=0).shape == (0,)
    assert g.integers(0, 5, size=(0, 3)).shape == (0, 3)
