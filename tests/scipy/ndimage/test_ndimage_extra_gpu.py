"""geometric_transform, vectorized_filter and watershed_ift on the device against scipy.ndimage on
the host: every mode and order, dtypes, 1-D to 3-D, non-contiguous views, output arrays, the
ElementwiseKernel mapping, batches under batch_memory, edges and bad input. Fresh random data."""

import re

import numpy as np
import pytest
import scipy
import scipy.ndimage as snd

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
from cuarray.scipy import ndimage as cnd  # noqa: E402

MODES = ["constant", "grid-constant", "nearest", "reflect", "grid-mirror", "mirror", "wrap", "grid-wrap"]
FILTER_MODES = ["reflect", "constant", "nearest", "mirror", "wrap", "grid-mirror", "grid-constant", "grid-wrap",
                "valid"]
RNG = np.random.default_rng()
OLD_SCIPY = tuple(int(v) for v in scipy.__version__.split(".")[:2]) < (1, 18)


def skip_old_reflect(mode, order, shape):
    # SciPy 1.18 fixed the reflect-kind spline prefilter of lines of 2-16 samples (scipy#24615);
    # cuarray follows 1.18, so an older SciPy is no oracle there (test_ndimage_interp_cpu.py has
    # the 1.18 transcription that checks those lines without a device).
    if OLD_SCIPY and mode in ("reflect", "grid-mirror") and order >= 2 and any(2 <= n <= 16 for n in shape):
        pytest.skip("SciPy < 1.18 prefilters reflect-mode lines of 2-16 samples wrongly (scipy#24615)")


def close(got, ref, tol=None, f32_tol=1e-4):
    assert isinstance(got, cuarray.ndarray)
    assert got.dtype == ref.dtype and got.shape == ref.shape, (got.dtype, ref.dtype, got.shape, ref.shape)
    g = got.get()
    if ref.dtype.kind in "iub":
        if ref.dtype.kind == "b":
            np.testing.assert_array_equal(g, ref)
            return
        # interpolation to integers: a value within rounding of .5 may round either way (FMA)
        np.testing.assert_allclose(g.astype(float), ref.astype(float), atol=1, rtol=0)
        assert np.mean(g != ref) < 0.01
    else:
        tol = tol or (f32_tol if ref.dtype.char in "fFe" else 1e-9)
        np.testing.assert_allclose(g, ref, rtol=tol, atol=tol * max(1.0, float(np.abs(ref).max(initial=0))))


def equal(got, ref):
    assert isinstance(got, cuarray.ndarray)
    assert got.dtype == ref.dtype and got.shape == ref.shape, (got.dtype, ref.dtype, got.shape, ref.shape)
    np.testing.assert_array_equal(got.get(), ref)


# -- geometric_transform ---------------------------------------------------------------------------
def warp2(p):
    return (0.9 * p[0] + 0.15 * np.sin(p[1]) - 1.2, p[1] * 0.8 + 0.05 * p[0] * p[1] / 7 + 0.6)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("order", [0, 1, 2, 3, 4, 5])
def test_geometric_transform_every_mode_and_order(mode, order):
    x = RNG.normal(size=(17, 19)) * 10
    d = cuarray.asarray(x)
    for prefilter in (True, False):
        for oshape in (None, (13, 24)):
            kw = dict(output_shape=oshape, order=order, mode=mode, cval=-2.5, prefilter=prefilter)
            close(cnd.geometric_transform(d, warp2, **kw), snd.geometric_transform(x, warp2, **kw))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int16, np.uint8, np.complex64, np.complex128])
def test_geometric_transform_dtypes_views_and_outputs(dtype):
    x = RNG.normal(size=(18, 22, 6)) * 40
    if np.dtype(dtype).kind == "c":
        x = x + 1j * RNG.normal(size=x.shape) * 40
    x = (np.abs(x) if np.dtype(dtype).kind == "u" else x).astype(dtype)
    xs = x[::1, ::-1, 1:]  # a non-contiguous view (lines of 18, 22 and 5)
    ds = cuarray.asarray(x)[::1, ::-1, 1:]

    def m(p):
        return (p[0] * 0.7 + 1.3, 21 - p[1] * 1.1, p[2] * 0.5 + 0.25)

    for order, mode in ((1, "constant"), (3, "mirror"), (2, "wrap"), (5, "nearest")):
        close(cnd.geometric_transform(ds, m, order=order, mode=mode), snd.geometric_transform(xs, m, order=order,
                                                                                             mode=mode))
    odt = np.complex128 if x.dtype.kind == "c" else np.float64
    close(cnd.geometric_transform(ds, m, output=odt), snd.geometric_transform(xs, m, output=odt))
    out = cuarray.zeros((xs.shape[2], xs.shape[1], xs.shape[0]), odt).transpose(2, 1, 0)  # strided
    assert cnd.geometric_transform(ds, m, output=out, order=3, mode="grid-wrap") is out
    close(out, snd.geometric_transform(xs, m, output=odt, order=3, mode="grid-wrap"))


def test_geometric_transform_ranks_and_extra_arguments():
    x1 = RNG.normal(size=40)
    x3 = RNG.normal(size=(17, 18, 19))
    # (no coordinate within 0.007 of a half-integer: order 0 rounds there, and the kernel's
    # `17.3 - r * 0.353` may be one FMA where the lambda rounds twice)
    # 1-D input, 2-D output; 3-D input, 1-D output; extra positional and keyword arguments
    kw = dict(output_shape=(6, 9), extra_arguments=(0.5,), extra_keywords={"b": -0.25})
    close(cnd.geometric_transform(cuarray.asarray(x1), lambda p, a, b=0: (p[0] * 6 + p[1] * a + b,), **kw),
          snd.geometric_transform(x1, lambda p, a, b=0: (p[0] * 6 + p[1] * a + b,), **kw))
    for order, mode in ((0, "reflect"), (3, "grid-constant"), (4, "grid-mirror")):
        close(cnd.geometric_transform(cuarray.asarray(x3), lambda p: (p[0] * 0.31 + 0.013, 17.3 - p[0] * 0.353, p[0] % 5 * 3.7 + 0.05),
                                      output_shape=(50,), order=order, mode=mode, cval=1.5),
              snd.geometric_transform(x3, lambda p: (p[0] * 0.31 + 0.013, 17.3 - p[0] * 0.353, p[0] % 5 * 3.7 + 0.05),
                                      output_shape=(50,), order=order, mode=mode, cval=1.5))
    close(cnd.geometric_transform(cuarray.asarray(x3), lambda p: (p[2], p[0] + 0.5, p[1] - 0.5), order=3),
          snd.geometric_transform(x3, lambda p: (p[2], p[0] + 0.5, p[1] - 0.5), order=3))


@pytest.mark.parametrize("shape", [(1,), (3,), (2, 5), (4, 3, 2)], ids=str)
@pytest.mark.parametrize("order", [0, 1, 3, 5])
@pytest.mark.parametrize("mode", MODES)
def test_geometric_transform_small_inputs(shape, order, mode):
    skip_old_reflect(mode, order, shape)
    x = RNG.normal(size=shape)

    def m(p):
        return tuple(c * 0.6 - 0.3 for c in p)

    close(cnd.geometric_transform(cuarray.asarray(x), m, order=order, mode=mode, cval=0.5),
          snd.geometric_transform(x, m, order=order, mode=mode, cval=0.5))


def test_geometric_transform_many_points_and_no_points():
    x = RNG.normal(size=(64, 70))
    m = (lambda p: (p[0] * 0.21 + 0.3, p[1] * 0.23 - 0.2))
    close(cnd.geometric_transform(cuarray.asarray(x), m, output_shape=(300, 301)),  # 90300 points: two host chunks
          snd.geometric_transform(x, m, output_shape=(300, 301)))
    got = cnd.geometric_transform(cuarray.asarray(x), m, output_shape=(0, 4))
    assert isinstance(got, cuarray.ndarray) and got.shape == (0, 4)


WARP_K = cuarray.ElementwiseKernel(
    "int64 r, int64 c, float64 f, float64 s", "float64 y, float64 x",
    "y = 0.9 * r + 0.15 * sin((double)c) - f; x = c * s + 0.05 * r * c / 7 + 0.6", "gt_warp_k")
HALF_F32 = cuarray.ElementwiseKernel("int64 r, int64 c", "float32 y, float32 x", "y = r * 0.5f + 0.25f; x = c * 0.75f - 1",
                                     "gt_half_f32")
LINE3 = cuarray.ElementwiseKernel("int64 r", "float64 a, float64 b, float64 c",
                                  "a = r * 0.31 + 0.013; b = 17.3 - r * 0.353; c = (r % 5) * 3.7 + 0.05", "gt_line3")


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("order", [0, 1, 3, 5])
def test_geometric_transform_elementwise_kernel(mode, order):
    x = RNG.normal(size=(17, 19)) * 10
    field = RNG.uniform(-1, 1, size=(13, 1))  # broadcast along the second output axis
    kw = dict(output_shape=(13, 24), order=order, mode=mode, cval=2.0)
    ref = snd.geometric_transform(x, lambda p: (0.9 * p[0] + 0.15 * np.sin(p[1]) - field[p[0], 0],
                                                p[1] * 0.8 + 0.05 * p[0] * p[1] / 7 + 0.6), **kw)
    close(cnd.geometric_transform(cuarray.asarray(x), WARP_K, extra_arguments=(cuarray.asarray(field), 0.8), **kw),
          ref)
    close(cnd.geometric_transform(cuarray.asarray(x), HALF_F32, **kw),
          snd.geometric_transform(x, lambda p: (p[0] * 0.5 + 0.25, p[1] * 0.75 - 1), **kw))
    x3 = RNG.normal(size=(17, 18, 19))
    # (no coordinate within 0.007 of a half-integer: order 0 rounds there, and the kernel's
    # `17.3 - r * 0.353` may be one FMA where the lambda rounds twice)
    close(cnd.geometric_transform(cuarray.asarray(x3), LINE3, output_shape=(50,), order=order, mode=mode),
          snd.geometric_transform(x3, lambda p: (p[0] * 0.31 + 0.013, 17.3 - p[0] * 0.353, p[0] % 5 * 3.7 + 0.05), output_shape=(50,),
                                  order=order, mode=mode))


def test_geometric_transform_bad_input():
    x = RNG.normal(size=(5, 6))
    d = cuarray.asarray(x)
    with pytest.raises(TypeError):
        cnd.geometric_transform(x, lambda p: p)  # host data
    for bad in (lambda p: list(p), lambda p: p[:1], lambda p: (p[0], "1")):
        with pytest.raises(TypeError):
            snd.geometric_transform(x, bad)
        with pytest.raises(TypeError):
            cnd.geometric_transform(d, bad)
    with pytest.raises(ValueError):
        cnd.geometric_transform(d, 3)
    with pytest.raises(RuntimeError):
        cnd.geometric_transform(d, lambda p: p, order=7)
    with pytest.raises(RuntimeError):
        cnd.geometric_transform(d, lambda p: p, extra_arguments=[1])
    with pytest.raises(TypeError, match="takes 2 inputs"):
        cnd.geometric_transform(d, WARP_K)
    with pytest.raises(TypeError, match="extra_keywords"):
        cnd.geometric_transform(d, HALF_F32, extra_keywords={"a": 1})
    with pytest.raises(ValueError):  # an extra argument broadcasting past the output grid
        cnd.geometric_transform(d, WARP_K, extra_arguments=(cuarray.zeros((2, 5, 6)), 1.0))
    assert cnd.geometric_transform(d, lambda p: p, order=1).shape == (5, 6)  # still usable


# -- vectorized_filter -----------------------------------------------------------------------------
def data(shape, dtype):
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return RNG.random(shape) < 0.5
    if dt.kind in "iu":
        return RNG.integers(0 if dt.kind == "u" else -50, 100, size=shape).astype(dt)
    x = RNG.normal(size=shape) * 10
    if dt.kind == "c":
        x = x + 1j * RNG.normal(size=shape)
    return x.astype(dt)


def _peak_to_peak(w, axis):  # array methods: works on both libraries' arrays
    return w.max(axis=axis) - w.min(axis=axis)


FUNCTIONS = [(np.mean, np.mean), (np.median, np.median), (cuarray.max, np.max), (cuarray.mean, np.mean),
             (_peak_to_peak, _peak_to_peak)]


def vf_close(got, ref, dtype):
    tol = 1e-5 if np.dtype(dtype).char in "fF" else (1e-2 if np.dtype(dtype).char == "e" else 1e-12)
    if ref.dtype.kind in "iub":
        equal(got, ref)
    else:
        close(got, ref, tol=tol)


@pytest.mark.parametrize("mode", FILTER_MODES)
@pytest.mark.parametrize("fi", range(len(FUNCTIONS)), ids=["mean", "np.median", "cuarray.max", "cuarray.mean", "ptp"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int16])
def test_vectorized_filter_modes_and_functions(mode, fi, dtype):
    ours, theirs = FUNCTIONS[fi]
    x = data((14, 17), dtype)
    d = cuarray.asarray(x)
    for size, origin in ((3, None), ((2, 5), (0, -2)), ((4, 1), (1, 0))):
        if mode == "valid" and origin:
            continue
        kw = dict(size=size, mode=mode, origin=origin)
        if mode in ("constant", "grid-constant"):
            kw["cval"] = 7
        vf_close(cnd.vectorized_filter(d, ours, **kw), snd.vectorized_filter(x, theirs, **kw), dtype)


@pytest.mark.parametrize("mode", FILTER_MODES)
def test_vectorized_filter_footprints_axes_and_views(mode):
    x = data((7, 12, 9), np.float64)
    d = cuarray.asarray(x)
    fp = RNG.random((3, 4)) < 0.5
    fp[0, 0] = True
    vf_close(cnd.vectorized_filter(d, np.median, footprint=fp, axes=(2, 0), mode=mode),
             snd.vectorized_filter(x, np.median, footprint=fp, axes=(2, 0), mode=mode), np.float64)
    vf_close(cnd.vectorized_filter(d[::2, ::-1, 1:], cuarray.mean, size=(2, 3, 2), mode=mode),
             snd.vectorized_filter(x[::2, ::-1, 1:], np.mean, size=(2, 3, 2), mode=mode), np.float64)
    vf_close(cnd.vectorized_filter(d, _peak_to_peak, size=4, axes=1, mode=mode),
             snd.vectorized_filter(x, _peak_to_peak, size=4, axes=1, mode=mode), np.float64)
    x1 = data(50, np.float32)
    vf_close(cnd.vectorized_filter(cuarray.asarray(x1), np.max, footprint=[1, 0, 1, 1], mode=mode),
             snd.vectorized_filter(x1, np.max, footprint=[1, 0, 1, 1], mode=mode), np.float32)


@pytest.mark.parametrize("dtype", [np.uint8, np.int32, np.int64, np.float16, np.complex64, np.complex128, np.bool_])
def test_vectorized_filter_dtypes(dtype):
    x = data((9, 10), dtype)
    d = cuarray.asarray(x)
    f = np.any if dtype == np.bool_ else np.max if np.dtype(dtype).kind != "c" else np.mean
    vf_close(cnd.vectorized_filter(d, f, size=3), snd.vectorized_filter(x, f, size=3), dtype)
    if np.dtype(dtype).kind in "iuf":
        vf_close(cnd.vectorized_filter(d, np.mean, size=(3, 2), mode="wrap"),
                 snd.vectorized_filter(x, np.mean, size=(3, 2), mode="wrap"), np.float64 if dtype != np.float16
                 else dtype)


def test_vectorized_filter_batches_and_outputs():
    x = data((41, 30), np.float64)
    d = cuarray.asarray(x)
    per_row = 30 * 5 * 5 * 8
    for bm in (per_row, 7 * per_row + 3, 2**30):
        vf_close(cnd.vectorized_filter(d, np.median, size=5, batch_memory=bm),
                 snd.vectorized_filter(x, np.median, size=5, batch_memory=bm), np.float64)
    out = cuarray.full((30, 41), -1.0).T  # strided
    got = cnd.vectorized_filter(d, cuarray.mean, size=5, output=out, batch_memory=6 * per_row)
    assert got.shape == out.shape
    vf_close(out, snd.vectorized_filter(x, np.mean, size=5), np.float64)
    out_i = cuarray.zeros((41, 30), np.int32)
    cnd.vectorized_filter(d * 10, np.max, size=(3, 3), output=out_i)
    equal(out_i, snd.vectorized_filter(x * 10, np.max, size=(3, 3), output=np.zeros((41, 30), np.int32)))


def test_vectorized_filter_edges():
    e = cuarray.zeros((0, 3))
    assert cnd.vectorized_filter(e, np.mean, size=3, axes=(1, 0)).shape == (3, 0)  # SciPy's: the axes moved
    got = cnd.vectorized_filter(cuarray.asarray(np.float64(2.5)), np.mean, size=())
    assert float(got) == 2.5
    for x, kw in ((data(1, np.float64), dict(size=4)), (data((2, 3), np.float64), dict(size=(5, 7), mode="wrap")),
                  (data((3, 4), np.float64), dict(size=(3, 4), mode="valid")), (data(6, np.float64), dict(size=3,
                                                                                                        axes=()))):
        vf_close(cnd.vectorized_filter(cuarray.asarray(x), np.median, **kw), snd.vectorized_filter(x, np.median, **kw),
                 np.float64)


def test_vectorized_filter_bad_input():
    x = data((5, 6), np.float64)
    d = cuarray.asarray(x)
    with pytest.raises(TypeError):
        cnd.vectorized_filter(x, np.mean, size=3)  # host data
    for kw in (dict(), dict(size=3, footprint=np.ones((3, 3))), dict(size=3.0), dict(size=3, origin=(1,)),
               dict(size=3, mode="valid", origin=1), dict(size=3, cval=1.0), dict(size=3, batch_memory=8),
               dict(size=3, mode="bogus")):
        with pytest.raises(ValueError) as ref:
            snd.vectorized_filter(x, np.mean, **kw)
        msg = "`mode` must be one of" if "mode" in kw and kw["mode"] == "bogus" else re.escape(str(ref.value))
        with pytest.raises(ValueError, match=msg):  # (a set of modes: its order is the process's hashing)
            cnd.vectorized_filter(d, np.mean, **kw)
    vf_close(cnd.vectorized_filter(d, np.mean, size=3), snd.vectorized_filter(x, np.mean, size=3), np.float64)


# -- watershed_ift ---------------------------------------------------------------------------------
def ws_case(shape, in_dt, mk_dt, n_markers):
    x = RNG.integers(0, 255 if in_dt == np.uint8 else 3000, size=shape).astype(in_dt)
    m = np.zeros(shape, mk_dt)
    flat = m.reshape(-1)
    idx = RNG.choice(flat.size, size=n_markers, replace=False)
    flat[idx] = RNG.integers(1, 6, size=n_markers) * RNG.choice([-1, 1], size=n_markers)
    return x, m


@pytest.mark.parametrize("shape", [(1,), (50,), (31, 40), (9, 10, 11)], ids=str)
@pytest.mark.parametrize("in_dt", [np.uint8, np.uint16])
@pytest.mark.parametrize("mk_dt", [np.int8, np.int32, np.int64])
def test_watershed_ift(shape, in_dt, mk_dt):
    x, m = ws_case(shape, in_dt, mk_dt, max(1, min(8, int(np.prod(shape)) // 5)))
    for st in (None, np.ones((3,) * len(shape), bool)):
        equal(cnd.watershed_ift(cuarray.asarray(x), cuarray.asarray(m), structure=st),
              snd.watershed_ift(x, m, structure=st))
    if len(shape) > 1:
        xs, ms = x[::-1, ::2], m[::-1, ::2]  # non-contiguous views
        equal(cnd.watershed_ift(cuarray.asarray(x)[::-1, ::2], cuarray.asarray(m)[::-1, ::2]), snd.watershed_ift(xs, ms))
    out = cuarray.full(shape[::-1], -3, np.int32).T
    assert cnd.watershed_ift(cuarray.asarray(x), cuarray.asarray(m), output=out) is out
    equal(out, snd.watershed_ift(x, m, output=np.zeros(shape, np.int32)))


def test_watershed_ift_bad_input():
    x, m = ws_case((6, 7), np.uint8, np.int32, 3)
    dx, dm = cuarray.asarray(x), cuarray.asarray(m)
    with pytest.raises(TypeError):
        cnd.watershed_ift(x, m)  # host data
    with pytest.raises(TypeError, match="only 8 and 16 unsigned"):
        cnd.watershed_ift(dx.astype(np.float32), dm)
    with pytest.raises(RuntimeError):
        cnd.watershed_ift(dx, dm.astype(np.uint8))
    with pytest.raises(RuntimeError):
        cnd.watershed_ift(dx, dm, structure=np.ones((3, 5), bool))
    with pytest.raises(RuntimeError):
        cnd.watershed_ift(dx, dm, output=cuarray.zeros((6, 7), np.float64))
    equal(cnd.watershed_ift(dx, dm), snd.watershed_ift(x, m))
