"""Rank filters on the device against scipy.ndimage, around the small-footprint tile kernel
(rank_tile.cu): every footprint size it takes and the first one past it (the general kernel),
every dtype on both sides of the switch, NaN / infinities / signed zeros / ties (bit-exact,
sign of zero included), boundary modes, origins, non-rectangular footprints, 3-D footprints,
axes=, batches past the grid's z limit, 1-D inputs, scipy.signal's medfilt family. Fresh random
data."""

import numpy as np
import pytest
import scipy.ndimage as snd
import scipy.signal as ssig

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
from cuarray.scipy import ndimage as cnd  # noqa: E402
from cuarray.scipy import signal as csig  # noqa: E402
from cuarray.scipy.ndimage import _rank_tile as rt  # noqa: E402

MODES = ["reflect", "mirror", "nearest", "wrap", "constant", "grid-mirror", "grid-wrap", "grid-constant"]
RNG = np.random.default_rng()
DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64, np.float32,
          np.float64]


def data(shape, dtype):
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return RNG.random(shape) < 0.5
    if dt.kind in "iu":
        lo = 0 if dt.kind == "u" else -60
        return RNG.integers(lo, 60, size=shape).astype(dt)  # ties in every window
    return (RNG.normal(size=shape) * 10).astype(dt)


def same(got, ref):
    """Equal dtype, shape and values; for floats also NaN placement and the sign of zero."""
    assert isinstance(got, cuarray.ndarray)
    assert got.dtype == ref.dtype and got.shape == ref.shape, (got.dtype, ref.dtype, got.shape, ref.shape)
    g = got.get()
    np.testing.assert_array_equal(g, ref)
    if ref.dtype.kind == "f":
        np.testing.assert_array_equal(np.signbit(g), np.signbit(ref))


def both(name, x, *args, **kw):
    """(cuarray's result on x, SciPy's) of the ndimage function `name`."""
    return getattr(cnd, name)(cuarray.asarray(x), *args, **kw), getattr(snd, name)(x, *args, **kw)


def first_n(n, shape=(8, 9)):
    """A footprint of the first n elements of `shape` in C order (rectangular when n fills rows)."""
    fp = np.zeros(shape, bool)
    fp.flat[:n] = True
    return fp[: -(-n // shape[1])]


def on_tile(x, fp):
    return rt.plan(x.shape, fp, (0,) * x.ndim, x.dtype.itemsize) is not None


# Each footprint and rank is its own compile (~0.3-1.5 s of NVRTC, then the disk cache): the median
# at every size, other ranks at a few.
@pytest.mark.parametrize("n", range(3, 66))
def test_float32_every_footprint_size(n):
    x = data((37, 70), np.float32)  # ragged blocks in both directions
    fp = first_n(n)
    assert on_tile(x, fp) == (n <= rt.max_taps(4))
    for k in sorted({n // 2, 1, n - 2} if n in (3, 4, 9, 16, 25, 33, 49, 64, 65) else {n // 2}):
        same(cnd.rank_filter(cuarray.asarray(x), k, footprint=fp), snd.rank_filter(x, k, footprint=fp))


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_dtypes_on_both_sides_of_the_switch(dtype):
    x = data((45, 38), dtype)
    cap = rt.max_taps(np.dtype(dtype).itemsize)
    for n in (9, 25, cap, cap + 1):
        fp = first_n(n)
        assert on_tile(x, fp) == (n <= cap)
        for k in sorted({1, n // 2} if n == 9 else {n // 2}):
            same(cnd.rank_filter(cuarray.asarray(x), k, footprint=fp, mode="constant", cval=7),
                 snd.rank_filter(x, k, footprint=fp, mode="constant", cval=7))


@pytest.mark.parametrize("dtype", [np.int64, np.uint64], ids=lambda d: np.dtype(d).name)
def test_64bit_integers_are_exact(dtype):
    # SciPy selects in double (values past 2^53 round); both kernels select in the input's type
    x = RNG.integers(2**62, 2**62 + 1000, size=(30, 33)).astype(dtype)
    for size in (3, 9):  # tile kernel, general kernel (81 taps)
        k = size * size // 2
        got = cnd.rank_filter(cuarray.asarray(x), k, size=size, mode="nearest").get()
        pad = np.pad(x, size // 2, mode="edge")
        win = np.lib.stride_tricks.sliding_window_view(pad, (size, size)).reshape(x.shape + (-1,))
        np.testing.assert_array_equal(got, np.sort(win, axis=-1)[..., k])


@pytest.mark.parametrize("mode", MODES)
def test_modes_origins_footprints(mode):
    x = data((45, 70), np.float32)
    u = data((45, 70), np.uint8)
    fps = [np.ones((5, 5), bool), np.ones((3, 4), bool), np.array([[0, 1, 0], [1, 1, 1], [0, 1, 1]], bool),
           RNG.random((6, 5)) < 0.5, np.ones((1, 7), bool), np.ones((7, 1), bool)]
    fps[3].flat[:3] = True
    for fp in fps:
        n = int(fp.sum())
        assert on_tile(x, fp)
        for origin in [0, tuple((s - 1) // 2 for s in fp.shape), tuple(-(s // 2) for s in fp.shape)]:
            for arr, k in ((x, n // 2), (u, 1), (u, n - 2)):
                same(cnd.rank_filter(cuarray.asarray(arr), k, footprint=fp, mode=mode, cval=2.5, origin=origin),
                     snd.rank_filter(arr, k, footprint=fp, mode=mode, cval=2.5, origin=origin))
    same(cnd.median_filter(cuarray.asarray(x), size=5, mode=mode), snd.median_filter(x, size=5, mode=mode))
    same(cnd.percentile_filter(cuarray.asarray(u), 30, size=(3, 5), mode=mode, cval=9),
         snd.percentile_filter(u, 30, size=(3, 5), mode=mode, cval=9))


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("mode", ["reflect", "mirror", "nearest", "wrap", "constant"])
def test_nan_inf_signed_zeros_and_ties_bit_exact(dtype, mode):
    # SciPy's value where NaN or both zeros sit in a window is its quickselect's; both kernels
    # run that quickselect there (rank_select.cuh). Blocks with and without NaNs in one array.
    x = RNG.integers(-3, 4, size=(80, 75)).astype(dtype)
    zeros = x == 0
    x[zeros] = np.where(RNG.random(int(zeros.sum())) < 0.5, -0.0, 0.0)
    x[RNG.random(x.shape) < 0.04] = np.inf
    x[RNG.random(x.shape) < 0.04] = -np.inf
    x[:40, :40][RNG.random((40, 40)) < 0.06] = np.nan
    for size in (3, 5, 9):  # 9: 81 taps, the general kernel
        fp = np.ones((size, size), bool)
        assert on_tile(x, fp) == (size * size <= rt.max_taps(x.dtype.itemsize))
        for k in (1, size * size // 2, size * size - 2):
            same(cnd.rank_filter(cuarray.asarray(x), k, size=size, mode=mode, cval=-0.0),
                 snd.rank_filter(x, k, size=size, mode=mode, cval=-0.0))
    fp = np.array([[1, 1, 0], [0, 1, 1], [1, 0, 1]], bool)
    same(cnd.rank_filter(cuarray.asarray(x), 3, footprint=fp, mode=mode, origin=(1, -1)),
         snd.rank_filter(x, 3, footprint=fp, mode=mode, origin=(1, -1)))


@pytest.mark.parametrize("mode", MODES)
def test_three_dimensional_footprints(mode):
    x = data((9, 40, 37), np.float32)
    assert on_tile(x, np.ones((3, 3, 3), bool))
    same(*both("median_filter", x, size=3, mode=mode, cval=1.5))
    ball = np.zeros((3, 3, 3), bool)
    ball[1] = True
    ball[:, 1, 1] = True
    same(*both("rank_filter", x, 3, footprint=ball, mode=mode, origin=(1, 0, -1)))
    u = data((7, 35, 33), np.uint8)
    same(*both("percentile_filter", u, 20, size=(2, 3, 4), mode=mode, cval=3))
    v = data((4, 6, 3, 20, 33), np.float64)  # axes in the middle: pre, mid0, mid, post around them
    same(*both("median_filter", v, size=(3, 2, 3), axes=(1, 3, 4), mode=mode))
    x[2:5, 10:20, 10:20][RNG.random((3, 10, 10)) < 0.1] = np.nan  # the fallback in 3-D
    same(*both("median_filter", x, size=3, mode=mode))


def test_axes_and_batches():
    x = data((3, 40, 4, 37), np.float32)
    xc = cuarray.asarray(x)
    same(cnd.median_filter(xc, size=(3, 5), axes=(1, 3)), snd.median_filter(x, size=(3, 5), axes=(1, 3)))
    same(cnd.median_filter(xc, size=(3, 2), axes=(0, 2), mode="wrap"),
         snd.median_filter(x, size=(3, 2), axes=(0, 2), mode="wrap"))
    same(*both("rank_filter", x, 2, size=7, axes=(1,), mode="mirror"))
    same(*both("rank_filter", x, 1, size=3, axes=(0,), mode="nearest"))
    same(*both("median_filter", x, footprint=np.ones((1, 3, 1, 3), bool)))
    y = data((66000, 2, 3), np.float32)  # 66000 planes: past the grid's z limit of 65535
    same(*both("rank_filter", y, 2, size=(2, 3), axes=(1, 2)))


@pytest.mark.parametrize("mode", ["reflect", "mirror", "nearest", "wrap", "constant"])
def test_one_dimensional_inputs(mode):
    x = data(1000, np.float32)
    xc = cuarray.asarray(x)
    assert on_tile(x, np.ones(7, bool))
    same(cnd.median_filter(xc, size=7, mode=mode), snd.median_filter(x, size=7, mode=mode))
    same(cnd.rank_filter(xc, 2, size=5, mode=mode, origin=-2), snd.rank_filter(x, 2, size=5, mode=mode, origin=-2))
    same(*both("percentile_filter", x, 80, size=11, mode=mode, cval=-1))
    # with NaNs SciPy's 1-D path (a sliding double heap) gives its own values; ours are SciPy's N-D
    # path's, the same input seen as one row of a 2-D array
    x[RNG.random(x.shape) < 0.1] = np.nan
    same(cnd.median_filter(cuarray.asarray(x), size=7, mode=mode).reshape(1, -1),
         snd.median_filter(x[None], size=(1, 7), mode=mode))


def test_layouts_and_outputs():
    x = data((50, 64), np.float32)
    xs = x[::2, ::-1]
    same(cnd.median_filter(cuarray.asarray(x)[::2, ::-1], size=3), snd.median_filter(xs, size=3))
    same(*both("median_filter", x, size=5, output=np.float64))
    i = data((50, 64), np.int16)
    same(*both("rank_filter", i, 4, size=3, output=np.uint8))
    out = cuarray.empty((64, 50), np.float32).T
    res = cnd.median_filter(cuarray.asarray(x), size=(3, 5), output=out)
    assert res is out
    np.testing.assert_array_equal(out.get(), snd.median_filter(x, size=(3, 5)))


def test_signal_medfilt_family():
    x = data((40, 52), np.float64)
    same(csig.medfilt(cuarray.asarray(x), 5), ssig.medfilt(x, 5))
    same(csig.medfilt(cuarray.asarray(x), [3, 7]), ssig.medfilt(x, [3, 7]))
    same(csig.medfilt2d(cuarray.asarray(x), 3), ssig.medfilt2d(x, 3))
    v = data(500, np.float32)
    same(csig.medfilt(cuarray.asarray(v), 9), ssig.medfilt(v, 9))
    dom = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0]])
    same(csig.order_filter(cuarray.asarray(x), dom, 2), ssig.order_filter(x, dom, 2))
