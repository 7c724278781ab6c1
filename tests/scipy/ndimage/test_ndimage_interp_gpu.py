"""cuarray.scipy.ndimage interpolation on the device against scipy.ndimage on the host: every mode,
orders 0-5, prefilter on/off, dtypes, non-contiguous inputs, output= arrays. Fresh random data."""

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

MODES = ["constant", "grid-constant", "nearest", "reflect", "grid-mirror", "mirror", "wrap", "grid-wrap"]
RNG = np.random.default_rng()


def close(got, ref, tol=None, f32_tol=1e-4):
    assert isinstance(got, cuarray.ndarray)
    assert got.dtype == ref.dtype and got.shape == ref.shape, (got.dtype, ref.dtype, got.shape, ref.shape)
    g = got.get()
    if ref.dtype.kind in "iub":
        # a value within rounding of .5 may round either way after the GPU's FMA contractions
        np.testing.assert_allclose(g.astype(float), ref.astype(float), atol=1, rtol=0)
        assert np.mean(g != ref) < 0.01
    else:
        tol = tol or (f32_tol if ref.dtype.char in "fF" else 1e-9)
        np.testing.assert_allclose(g, ref, rtol=tol, atol=tol * max(1.0, float(np.abs(ref).max(initial=0))))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("order", [0, 1, 2, 3, 4, 5])
def test_map_coordinates(mode, order):
    x = RNG.normal(size=(17, 23)) * 10
    coords = RNG.uniform(-5, 28, size=(2, 31, 7))
    for prefilter in (True, False):
        ref = snd.map_coordinates(x, coords, order=order, mode=mode, cval=1.5, prefilter=prefilter)
        got = cnd.map_coordinates(cuarray.asarray(x), cuarray.asarray(coords), order=order, mode=mode, cval=1.5,
                                  prefilter=prefilter)
        close(got, ref)


@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.int32, np.float32, np.float64, np.complex64])
def test_dtypes_and_layouts(dtype):
    x = RNG.normal(size=(12, 14, 6)) * 40
    if np.dtype(dtype).kind == "c":
        x = x + 1j * RNG.normal(size=x.shape)
    x = (np.abs(x) if np.dtype(dtype).kind == "u" else x).astype(dtype)
    xs = x[::2, ::-1]
    d = cuarray.asarray(x)[::2, ::-1]
    close(cnd.zoom(d, (1.5, 0.5, 2), order=3), snd.zoom(xs, (1.5, 0.5, 2), order=3))
    close(cnd.shift(d, (0.5, -1.25, 2), order=1, mode="wrap"), snd.shift(xs, (0.5, -1.25, 2), order=1, mode="wrap"))
    close(cnd.rotate(d, 33, axes=(0, 2), order=2, mode="nearest"),
          snd.rotate(xs, 33, axes=(0, 2), order=2, mode="nearest"), tol=1e-3)
    if np.dtype(dtype).kind != "c":
        out = cuarray.empty((6, 6, 14), np.float64).transpose(0, 2, 1)  # d's shape, strided
        res = cnd.spline_filter(d, 3, output=out)
        assert res is out
        close(out, snd.spline_filter(xs, 3))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("order", [0, 1, 3, 5])
def test_zoom_shift_affine(mode, order):
    x = RNG.normal(size=(20, 16))
    d = cuarray.asarray(x)
    for grid_mode in (False, True):
        if grid_mode and mode in ("constant", "wrap"):
            continue
        close(cnd.zoom(d, (2.0, 0.75), order=order, mode=mode, grid_mode=grid_mode),
              snd.zoom(x, (2.0, 0.75), order=order, mode=mode, grid_mode=grid_mode))
    m = np.array([[0.8, -0.4], [0.5, 1.2]])
    close(cnd.affine_transform(d, m, (2.0, -3.0), output_shape=(25, 12), order=order, mode=mode),
          snd.affine_transform(x, m, (2.0, -3.0), output_shape=(25, 12), order=order, mode=mode))
    for axis in (0, 1):
        close(cnd.spline_filter1d(d, max(order, 2), axis, mode=mode), snd.spline_filter1d(x, max(order, 2), axis, mode=mode))


@pytest.mark.parametrize("mode", ["mirror", "reflect", "grid-wrap"])
@pytest.mark.parametrize("shape,axis", [((3, 6144), -1), ((3, 6145), -1), ((6000, 2), 0), ((4, 70000), 0),
                                        ((2, 300, 5), 1)])
def test_spline_filter_both_kernels(mode, shape, axis):
    # a warp per line staged in shared memory (lines up to 6144 along the last axis, or few lines);
    # a thread per line beyond (6145 samples; 70000 lines along the first axis): both sides of each switch
    x = RNG.normal(size=shape)
    for order in (3, 5):
        close(cnd.spline_filter1d(cuarray.asarray(x), order, axis, mode=mode),
              snd.spline_filter1d(x, order, axis, mode=mode))


def test_errors():
    d = cuarray.asarray(RNG.normal(size=(4, 5)))
    with pytest.raises(TypeError):
        cnd.map_coordinates(d, np.zeros((2, 3)))  # host coordinates
    with pytest.raises(RuntimeError):
        cnd.map_coordinates(d, cuarray.zeros((3, 3)))
    with pytest.raises(RuntimeError):
        cnd.zoom(d, 2, order=7)
    with pytest.raises(ValueError):
        cnd.rotate(d[0], 10)


@pytest.mark.parametrize("order", [2, 3, 4, 5])
@pytest.mark.parametrize("mode", ["reflect", "grid-mirror"])
def test_reflect_prefilter_short_lines(order, mode):
    """Lines of 2..5 samples (SciPy < 1.18 got them wrong, scipy#24615): the B-spline of the
    coefficients passes through the samples, whatever SciPy is installed."""
    for n in (2, 3, 4, 5):
        x = RNG.normal(size=(n, 3))
        coeffs = cnd.spline_filter1d(cuarray.asarray(x), order, axis=0, mode=mode).get()
        for j in range(3):
            back = snd.map_coordinates(coeffs[:, j], np.arange(n, dtype=float)[None], order=order, mode=mode,
                                       prefilter=False)
            np.testing.assert_allclose(back, x[:, j], rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("order", [2, 3, 4, 5])
def test_public_functions_with_stream_prefilter(monkeypatch, order):
    """The prefilter's method "stream" (the streamed strided pass, not the default) forced under every public
    function that prefilters: a 3-D float32 volume (axes 0 and 1 strided, axis 1 filtered in place: into a fresh
    array) and a strided 2-D view (copied first), every mode, against SciPy."""
    from cuarray.scipy.ndimage import _interpolation as interp

    along = interp._filtered_along

    def forced(x, axes, order, code, method="chunked", coef=np.float64):
        return along(x, axes, order, code, "stream", coef)

    monkeypatch.setattr(interp, "_filtered_along", forced)
    vol = RNG.normal(size=(66, 70, 20)).astype(np.float32)
    img = RNG.normal(size=(140, 150)) * 10
    view, d_vol, d_view = img[::2, ::-1], cuarray.asarray(vol), cuarray.asarray(img)[::2, ::-1]
    coords = np.stack([RNG.uniform(-4, 73, size=(9, 11)), RNG.uniform(-4, 153, size=(9, 11))])
    for mode in MODES:
        close(cnd.zoom(d_vol, 1.5, order=order, mode=mode), snd.zoom(vol, 1.5, order=order, mode=mode))
        close(cnd.spline_filter(d_vol, order, mode=mode), snd.spline_filter(vol, order, mode=mode))
        close(cnd.shift(d_view, (2.5, -1.25), order=order, mode=mode), snd.shift(view, (2.5, -1.25), order=order,
                                                                                  mode=mode))
        close(cnd.map_coordinates(d_view, cuarray.asarray(coords), order=order, mode=mode, cval=1.5),
              snd.map_coordinates(view, coords, order=order, mode=mode, cval=1.5))
