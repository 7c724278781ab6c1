"""The shared-memory tile passes of the separable filters (templates/filter_tile.cu) on the device:
forced onto every pass (`_filter_kernels.filter1d(plan="tile")`) against scipy.ndimage on fresh
random data (every mode, origins, every dtype the filters take, sizes up to past a tile row,
lines shorter and longer than a block's piece, 1-D/2-D/3-D), bit-equal to the one-output-a-
thread kernel (plan="old"), and the public filters (which pick the tile by themselves on these
shapes) with output= arrays and non-contiguous inputs."""

import numpy as np
import pytest
import scipy.ndimage as snd

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
from cuarray.scipy import ndimage as cnd  # noqa: E402
from cuarray.scipy.ndimage import _boundary  # noqa: E402
from cuarray.scipy.ndimage import _filter_kernels as fk  # noqa: E402
from cuarray.scipy.ndimage import _filter_tile as ft  # noqa: E402
from test_ndimage_filters_gpu import MODES, RNG, data  # noqa: E402  (tests/scipy/ndimage on sys.path)


def check(got, ref, exact=False):
    assert got.dtype == ref.dtype and got.shape == ref.shape, (got.dtype, ref.dtype, got.shape, ref.shape)
    g = got.get()
    if exact or ref.dtype.kind == "b":
        np.testing.assert_array_equal(g, ref)
    elif ref.dtype.kind in "iu":  # SciPy sums in double, truncates; float32 sums round differently
        np.testing.assert_allclose(g.astype(np.float64), ref.astype(np.float64), atol=1, rtol=0)
    else:
        tol = 2e-5 if ref.dtype.char == "f" else 1e-11
        # (the largest finite |value|: a NaN in the data made max() NaN and the scale 1, so sums of
        # hundreds cancelling near 0 met an absolute tolerance of 2e-5)
        scale = max(1.0, float(np.abs(ref[np.isfinite(ref)]).max(initial=0)))
        np.testing.assert_allclose(g, ref, rtol=tol, atol=tol * scale)


def tile_pass(x, op, w, size, axis, origin, mode, cval, out_dt=None, plan="tile"):
    xd = cuarray.asarray(x)
    dt = np.dtype(out_dt or x.dtype)
    return fk.filter1d(xd, dt, op, w, size, axis % x.ndim, size // 2 + origin, _boundary.filter_mode(mode), cval,
                       plan=plan)


SHAPES = [((3, 37), 1), ((1000,), 0), ((2, 2500), -1), ((70, 5), 0), ((3, 70, 33), 1), ((130, 40), 0),
          ((6, 9, 300), 0), ((1, 1), 0)]
# The variants' 16-byte paths need lines (rows: n; strided: the inner extent) of a multiple of 16
# bytes: these are, for every dtype (uint8 and bool included), with several blocks a line / plane
VEC_SHAPES = [((3, 4160), 1), ((96, 64), 0), ((5, 40, 48), 1), ((2, 6, 2048), 2), ((300, 16), 0)]
PLANS = ["tile", "tile-vec", "tile-vec-u", "tile-rows3", "tile-pipe"]  # the tile kernels' variants (VARIANTS)


@pytest.mark.parametrize("plan", PLANS)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("shape,axis", SHAPES + VEC_SHAPES[:3], ids=[str(s) for s in SHAPES + VEC_SHAPES[:3]])
def test_tile_correlate_and_box_ops(shape, axis, mode, plan):
    x = data(shape, np.float64)
    for size, origin in [(1, 0), (4, -2), (9, 1), (33, 0), (70, -3)]:
        w = RNG.normal(size=size)
        check(tile_pass(x, "correlate", w, size, axis, origin, mode, 1.5, plan=plan),
              snd.correlate1d(x, w, axis, mode=mode, cval=1.5, origin=origin))
        o = min(origin, (size - 1) // 2)
        for op, fn in [("uniform", snd.uniform_filter1d), ("min", snd.minimum_filter1d),
                       ("max", snd.maximum_filter1d)]:
            check(tile_pass(x, op, None, size, axis, o, mode, 1.5, plan=plan),
                  fn(x, size, axis, mode=mode, cval=1.5, origin=o), exact=op != "uniform")


DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64, np.float32,
          np.float64]


# (variants 1 and 2 share their staging and output code: every dtype through 2, the variant the
# passes script predicts best, 3, whose rows stage differently, and 4, whose types other than
# float32/float64/int32/int64 min and max stage through registers; each (dtype, op, output, kind,
# variant) is an NVRTC compile of ~0.7 s)
@pytest.mark.parametrize("plan", ["tile", "tile-vec-u", "tile-rows3", "tile-pipe"])
@pytest.mark.parametrize("shape", [(90, 77), (96, 2064)], ids=str)  # (96, 2064): 16-byte lines either way
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("axis", [0, 1])
def test_tile_every_dtype(dtype, axis, shape, plan):
    if plan == "tile-pipe" and np.dtype(dtype).char not in "?Bfd":  # (NVRTC time: one of each staging path)
        pytest.skip("tile-pipe: bool, uint8 (register staging), float32, float64 (cp.async) only")
    x = data(shape, dtype)
    w = RNG.random(7) * 0.1  # sums inside every integer type: no out-of-range casts to compare
    if np.dtype(dtype).kind != "b":
        check(tile_pass(x, "correlate", w, 7, axis, 1, "reflect", 2.5, plan=plan),
              snd.correlate1d(x, w, axis, origin=1))
        check(tile_pass(x, "correlate", w, 7, axis, 0, "constant", 2.5, np.float32, plan=plan),
              snd.correlate1d(x, w, axis, output=np.float32, mode="constant", cval=2.5))
        if np.dtype(dtype).char in "Bhf":  # a float64 output from 1-, 2- and 4-byte inputs
            check(tile_pass(x, "correlate", w, 7, axis, 0, "nearest", 2.5, np.float64, plan=plan),
                  snd.correlate1d(x, w, axis, output=np.float64, mode="nearest"))
        check(tile_pass(x, "uniform", None, 5, axis, 0, "mirror", 0.0, plan=plan),
              snd.uniform_filter1d(x, 5, axis, mode="mirror"))
    for op, fn in [("min", snd.minimum_filter1d), ("max", snd.maximum_filter1d)]:
        check(tile_pass(x, op, None, 4, axis, -1, "constant", 3, plan=plan),
              fn(x, 4, axis, mode="constant", cval=3, origin=-1), exact=True)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.uint8, np.int32], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape,axis", SHAPES + VEC_SHAPES, ids=[str(s) for s in SHAPES + VEC_SHAPES])
def test_tile_equals_old_kernel_bit_for_bit(shape, axis, dtype):
    x = data(shape, dtype)
    # NaN and signed zeros in float inputs: min/max must keep filter1d's order of comparisons
    if np.dtype(dtype).kind == "f" and x.size > 4:
        x.flat[RNG.integers(0, x.size, 3)] = [np.nan, -0.0, 0.0]
    for op, size, origin, mode in [("correlate", 17, 0, "reflect"), ("correlate", 6, -3, "constant"),
                                   ("uniform", 9, 2, "wrap"), ("min", 5, 0, "nearest"), ("max", 8, 3, "mirror")]:
        w = RNG.normal(size=size) if op == "correlate" else None
        old = tile_pass(x, op, w, size, axis, origin, mode, -0.5, plan="old").get()
        plans = ["tile", "tile-half-r", "tile-vec-u", "tile-rows3", "tile-pipe"]
        if x.dtype.kind == "f":  # the other variants on floats only (NVRTC time)
            plans += ["tile-vec", "tile-vec-u-half-r"]
        for plan in plans:
            new = tile_pass(x, op, w, size, axis, origin, mode, -0.5, plan=plan).get()
            np.testing.assert_array_equal(new, old, err_msg="{} {} {} {}".format(plan, op, size, mode))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.uint8], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("mode", MODES)
def test_tile_rows3_halo_bit_for_bit(mode, dtype):
    # VAR 3 fills the rows' halo from the tile after a barrier (from global memory where the mapped
    # position is not in the tile: wrap on lines of several tile rows): lines of one piece (256),
    # of several blocks (4100), shorter than the filter (20, 2: the halo maps more than once)
    for shape in [(64, 256), (5, 4100), (7, 20), (3, 2)]:
        x = data(shape, dtype)
        if x.dtype.kind == "f":
            x.flat[RNG.integers(0, x.size, 3)] = [np.nan, -0.0, 0.0]
        for op, size, origin in [("correlate", 33, 0), ("correlate", 65, -5), ("max", 9, 4), ("uniform", 6, 2)]:
            w = RNG.normal(size=size) if op == "correlate" else None
            old = tile_pass(x, op, w, size, 1, origin, mode, -0.5, plan="old").get()
            new = tile_pass(x, op, w, size, 1, origin, mode, -0.5, plan="tile-rows3").get()
            np.testing.assert_array_equal(new, old, err_msg="{} {} {}".format(shape, op, size))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int16], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("axis", [0, 1])
def test_tile_variants_on_a_misaligned_view(dtype, axis):
    # a C-contiguous view one element into its allocation: 16-byte lines, but the pointer is not
    # 16-byte aligned, so the variants take their element-wise staging (vflags bit 0 clear)
    flat = cuarray.asarray(data((1 + 64 * 96,), dtype))
    xd = flat[1:].reshape(64, 96)
    x = xd.get()
    a = np.dtype(dtype)
    assert ft.vector_flags(xd.data.ptr, 0, 96, 1 if axis == 1 else 96, a.itemsize, a.itemsize) & 1 == 0
    w = RNG.normal(size=9)
    for op, size in [("correlate", 9), ("max", 6)]:
        ww = w if op == "correlate" else None
        old = fk.filter1d(xd, xd.dtype, op, ww, size, axis, size // 2, _boundary.filter_mode("mirror"), 0.0,
                          plan="old").get()
        for plan in PLANS[1:] + ["tile-vec-u-half-r"]:
            new = fk.filter1d(xd, xd.dtype, op, ww, size, axis, size // 2, _boundary.filter_mode("mirror"), 0.0,
                              plan=plan).get()
            np.testing.assert_array_equal(new, old, err_msg=plan)
        if op == "max":
            np.testing.assert_array_equal(old, snd.maximum_filter1d(x, size, axis, mode="mirror"))


def test_public_filters_take_the_tile_with_output_and_views():
    x = data((96, 130), np.float32)
    f4 = np.dtype("f4")
    assert ft.plan(x.shape, 0, 9, f4, f4, "correlate") is not None
    assert ft.plan(x.shape, 1, 9, f4, f4, "correlate") is not None
    xd = cuarray.asarray(x)
    for sigma in (1.0, 2.5, 4.0):
        check(cnd.gaussian_filter(xd, sigma), snd.gaussian_filter(x, sigma))
    check(cnd.gaussian_filter(xd, 1.5, order=(1, 2), mode=("wrap", "constant"), cval=0.7),
          snd.gaussian_filter(x, 1.5, order=(1, 2), mode=("wrap", "constant"), cval=0.7))
    check(cnd.uniform_filter(xd, (3, 8), origin=(1, -2), mode="nearest"),
          snd.uniform_filter(x, (3, 8), origin=(1, -2), mode="nearest"))
    check(cnd.sobel(xd, 0), snd.sobel(x, 0))
    check(cnd.prewitt(xd, 1, mode="mirror"), snd.prewitt(x, 1, mode="mirror"))
    check(cnd.gaussian_laplace(xd, 2.0), snd.gaussian_laplace(x, 2.0))
    check(cnd.minimum_filter(xd, (5, 3), mode="wrap"), snd.minimum_filter(x, (5, 3), mode="wrap"), exact=True)
    # non-contiguous input (a strided, reversed view) and a transposed output= array
    xs = x[::2, ::-1]
    ref = snd.gaussian_filter(xs, 2.0, output=np.float64)
    out = cuarray.empty((xs.shape[1], xs.shape[0]), np.float64).T
    res = cnd.gaussian_filter(xd[::2, ::-1], 2.0, output=out)
    assert res is out
    check(out, ref)
    out32 = cuarray.empty(xs.shape, np.float32)
    cnd.uniform_filter(xd[::2, ::-1], 5, output=out32, mode="constant", cval=-1.0)
    check(out32, snd.uniform_filter(xs, 5, mode="constant", cval=-1.0))


@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.float32, np.float64], ids=lambda d: np.dtype(d).name)
def test_public_3d_volume(dtype):
    x = data((40, 72, 66), dtype)
    xd = cuarray.asarray(x)
    check(cnd.gaussian_filter(xd, 1.3), snd.gaussian_filter(x, 1.3))
    check(cnd.gaussian_filter(xd, 2.0, axes=(0, 2), mode="mirror"), snd.gaussian_filter(x, 2.0, axes=(0, 2),
                                                                                       mode="mirror"))
    check(cnd.uniform_filter(xd, 5, mode="grid-wrap"), snd.uniform_filter(x, 5, mode="grid-wrap"))
    check(cnd.maximum_filter(xd, 3), snd.maximum_filter(x, 3), exact=True)


# Variant 4 ("tile-pipe", filter_tile_pipe.cu): a one-wave grid of blocks each walking a range of
# tiles with the next one's copies in flight; the strided pass copies the rows the next tile of its
# column strip shares. Lines of 2 .. 4100 (one tile, several, a block's range ending inside a
# strip), taps 3 / 33 / 65 (65 float64 taps along a strided axis plan variant 3), every axis of
# 2-D and 3-D arrays: the same bits as the old kernel and as variant 3.
PIPE_SHAPES = [((5, 2), 1), ((3, 7), 1), ((9, 256), 1), ((3, 4100), 1), ((2, 2049), 1), ((4100, 3), 0),
               ((300, 40), 0), ((257, 64), 0), ((2, 3), 0), ((6, 33, 70), 0), ((6, 33, 70), 1), ((6, 33, 70), 2),
               ((16, 16, 256), 2), ((2, 600, 64), 1), ((2, 600, 64), 0)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("mode", MODES)
def test_tile_pipe_bit_for_bit(mode, dtype):
    for shape, axis in PIPE_SHAPES:
        x = data(shape, dtype)
        if x.size > 4:
            x.flat[RNG.integers(0, x.size, 3)] = [np.nan, -0.0, 0.0]
        for op, size, origin in [("correlate", 3, 0), ("correlate", 33, 1), ("correlate", 65, -2),
                                 ("uniform", 33, 0), ("max", 65, 3), ("min", 3, -1)]:
            w = RNG.normal(size=size) if op == "correlate" else None
            old = tile_pass(x, op, w, size, axis, origin, mode, -0.5, plan="old").get()
            v3 = tile_pass(x, op, w, size, axis, origin, mode, -0.5, plan="tile-rows3").get()
            v4 = tile_pass(x, op, w, size, axis, origin, mode, -0.5, plan="tile-pipe").get()
            msg = "{} axis {} {} {} {}".format(shape, axis, op, size, origin)
            np.testing.assert_array_equal(v4, old, err_msg=msg)
            np.testing.assert_array_equal(v4, v3, err_msg=msg)


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=lambda d: np.dtype(d).name)
def test_tile_pipe_every_split_of_the_tiles(dtype, monkeypatch):
    # the one-wave grid on fewer SMs than the device has (more tiles a block, ranges crossing strips)
    # and on more (a block a tile, past one wave): the same bits; the driver's occupancy of the pipe
    # kernels is what Plan.per_sm promises (no second wave at the planned grid)
    from cuarray.cuda import launch

    f = np.dtype(dtype)
    for axis, kind in ((1, "rows"), (0, "cols")):
        tp = ft.plan((4096, 4096), axis, 33, f, f, "correlate", variant=4)
        k = fk.TILE.kernel(ft.kernel_name(kind, f, f, f, 0, False, tp.r, 4)).kernel
        assert launch.blocks_per_sm(k, 256, tp.shared) >= tp.per_sm, (kind, tp)
    x = data((3, 700, 96), dtype)
    w = RNG.normal(size=33)
    ref = [tile_pass(x, "correlate", w, 33, axis, 0, "reflect", 0.0, plan="tile-rows3").get() for axis in range(3)]
    for sms in (1, 3, 7, 5000):
        monkeypatch.setattr(fk._device, "_sm_count", lambda device_id, sms=sms: sms)
        for axis in range(3):
            got = tile_pass(x, "correlate", w, 33, axis, 0, "reflect", 0.0, plan="tile-pipe").get()
            np.testing.assert_array_equal(got, ref[axis], err_msg="{} SMs, axis {}".format(sms, axis))


def test_public_filters_with_the_pipe_as_auto(monkeypatch):
    # plan "auto" with AUTO_VARIANT = 4 (what the lead flips after measuring): output= arrays,
    # views, 2-D and 3-D, the same bits as with 3
    x2 = data((130, 300), np.float32)
    x3 = data((20, 70, 66), np.float64)
    calls = [
        lambda xd: cnd.gaussian_filter(xd, 4.0),
        lambda xd: cnd.gaussian_filter(xd, 1.5, order=(1, 0), mode="wrap"),
        lambda xd: cnd.uniform_filter(xd, 5, mode="nearest"),
        lambda xd: cnd.gaussian_filter(xd[::2, ::-1], 2.0, output=cuarray.empty((xd.shape[1], 65), np.float64).T),
        lambda xd: cnd.uniform_filter(xd[1:, 3:], 7, output=cuarray.empty((129, 297), np.float32), mode="constant",
                                      cval=-1.0),
        lambda xd: cnd.maximum_filter(xd, 5, mode="mirror"),
    ]
    calls3 = [lambda xd: cnd.gaussian_filter(xd, 4.0), lambda xd: cnd.gaussian_filter(xd, 2.0, axes=(0, 2)),
              lambda xd: cnd.uniform_filter(xd[:, ::2], 5, mode="grid-wrap")]
    want = []
    for x, cs in ((x2, calls), (x3, calls3)):
        xd = cuarray.asarray(x)
        want.append([c(xd).get() for c in cs])
    monkeypatch.setattr(ft, "AUTO_VARIANT", 4)
    for (x, cs), ws in zip(((x2, calls), (x3, calls3)), want):
        xd = cuarray.asarray(x)
        for i, (c, ref) in enumerate(zip(cs, ws)):
            got = c(xd)
            np.testing.assert_array_equal(got.get(), ref, err_msg="call {}".format(i))
    check(cnd.gaussian_filter(cuarray.asarray(x2), 4.0), snd.gaussian_filter(x2, 4.0))


def test_tile_pipe_64_bit_indices():
    # past 2**30 elements the passes take 64-bit indices (reflect's period 2 n in range); 4 GiB of
    # float32 in, two outputs (12 GiB), compared on the device
    free, _ = cuarray.cuda.Device().mem_info
    if free < 16 << 30:
        pytest.skip("needs 16 GiB of free device memory")
    xd = cuarray.random.default_rng(1).standard_normal((1 << 18, 1 << 12), dtype=np.float32)
    w = RNG.normal(size=9)
    for axis in (0, 1):
        a = fk.filter1d(xd, xd.dtype, "correlate", w, 9, axis, 4, _boundary.filter_mode("reflect"), 0.0,
                        plan="tile-rows3")
        b = fk.filter1d(xd, xd.dtype, "correlate", w, 9, axis, 4, _boundary.filter_mode("reflect"), 0.0,
                        plan="tile-pipe")
        assert bool(cuarray.array_equal(a, b)), axis
        del a, b


# -- variant 5 ("tile-rows-short"): a thread piece a whole line, lines up to ft.SHORT_MAX --------------
SHORT_NS = [2, 3, 7, 16, 33, 100, 128, 255, 256, 257, 511, 1000, 1024]


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_short_rows_bit_identical_to_rows3_and_old(dt):
    # every mode, lines of 2..1024 (odd ones: the scalar staging and output paths; multiples of 4:
    # 16-byte ones), 3 / 33 / 65 taps, origins; the same bits as variant 3 and filter1d
    for n in SHORT_NS:
        x = data((5, n), dt)
        for size, origin in [(3, 0), (33, 0), (33, 5), (65, -7)]:
            w = RNG.normal(size=size)
            for mode in MODES:
                args = (x, "correlate", w, size, 1, origin, mode, 1.5)
                got = tile_pass(*args, plan="tile-rows-short").get()
                for ref_plan in ("tile-rows3", "old"):
                    np.testing.assert_array_equal(got, tile_pass(*args, plan=ref_plan).get(),
                                                  err_msg="{} n={} size={} {}".format(mode, n, size, ref_plan))
            if size == 33:
                check(tile_pass(x, "correlate", w, size, 1, origin, "reflect", 0.0, plan="tile-rows-short"),
                      snd.correlate1d(x, w, 1, mode="reflect", origin=origin))


@pytest.mark.parametrize("op", ["uniform", "min", "max"])
def test_short_rows_box_ops(op):
    x = data((4, 7, 256), np.float32)
    for n in (5, 64, 256):
        xs = x[..., :n].copy()
        for size, origin in [(3, 1), (33, 0)]:
            for mode in MODES:
                args = (xs, op, None, size, 2, origin, mode, -0.5)
                np.testing.assert_array_equal(tile_pass(*args, plan="tile-rows-short").get(),
                                              tile_pass(*args, plan="old").get())


def test_short_rows_3d_views_and_conversions():
    # 3-D, a strided view (copied), a view at an odd element offset (unaligned lines: scalar
    # staging), float32 in -> float64 out, uint8 in -> float32 out, and a pass the plan leaves to
    # variant 3 (lines of 1025, a strided axis)
    x = data((6, 9, 256), np.float32)
    w = RNG.normal(size=33)
    for src in (x, x[:, ::2, :], x[1:, 1:, 3:]):
        xs = cuarray.asarray(src)
        for out_dt in (np.float32, np.float64):
            got = fk.filter1d(xs, np.dtype(out_dt), "correlate", w, 33, 2, 16, _boundary.filter_mode("mirror"), 0.0,
                              plan="tile-rows-short")
            ref = fk.filter1d(xs, np.dtype(out_dt), "correlate", w, 33, 2, 16, _boundary.filter_mode("mirror"), 0.0,
                              plan="tile-rows3")
            np.testing.assert_array_equal(got.get(), ref.get())
    u = data((3, 5, 96), np.uint8)
    np.testing.assert_array_equal(tile_pass(u, "correlate", w, 33, 2, 0, "wrap", 0.0, np.float32,
                                            plan="tile-rows-short").get(),
                                  tile_pass(u, "correlate", w, 33, 2, 0, "wrap", 0.0, np.float32, plan="old").get())
    for shape, axis in (((3, 1025), 1), ((40, 6, 20), 1)):
        y = data(shape, np.float32)
        np.testing.assert_array_equal(tile_pass(y, "correlate", w, 33, axis, 0, "nearest", 0.0,
                                                plan="tile-rows-short").get(),
                                      tile_pass(y, "correlate", w, 33, axis, 0, "nearest", 0.0, plan="old").get())
