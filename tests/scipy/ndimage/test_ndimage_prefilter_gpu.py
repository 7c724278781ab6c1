"""The B-spline prefilter's methods (`_interp_kernels.PREFILTER_METHODS`: "chunked", a line cut into
runs, a thread per (column, run) along strided axes of 16 or more columns, else a lane of a warp per
run; "chunked-warp", the warp everywhere; "lane0", lane 0 the whole line; "stream", "chunked" with
the streamed strided pass, a launch per pole: test_stream_pass, test_stream_views_and_map_coordinates
against SciPy and the default) and the point kernel's
(`POINT_METHODS`: "taps", "loop"), each forced, on the device against scipy.ndimage on the host:
orders 2-5, every mode, lines shorter than the chunked path's threshold (64) and than the warm-up
K (10..50), odd lengths, float32 inputs read by the first pass itself, float32 coordinates; then
every public function that prefilters (spline_filter, spline_filter1d, map_coordinates, zoom,
shift, affine_transform) with the defaults on lines long enough for the chunked path: float32,
float64, complex, non-contiguous inputs, output= arrays. Fresh random data. The reflect modes are
compared with SciPy only on lines of 16 samples or more (SciPy before 1.18 filters shorter ones
slightly wrong, scipy#24615); shorter, the methods are compared with each other. (The chunked
recursion's own arithmetic is checked on the host against the sequential line and SciPy:
test_ndimage_interp_cpu.py::test_spline_filter_chunked.)"""

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
from cuarray.scipy.ndimage import _interp_kernels as ik  # noqa: E402
from cuarray.scipy.ndimage import _interpolation as interp  # noqa: E402
from test_ndimage_interp_gpu import MODES, close  # noqa: E402  (tests/scipy/ndimage on sys.path)

RNG = np.random.default_rng()
REFLECT_KINDS = ("reflect", "grid-mirror", "nearest")
LENGTHS = (2, 5, 17, 40, 63, 64, 65, 97, 333, 2049)


def _scipy_ok(mode, n):
    return mode not in REFLECT_KINDS or n >= 16


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("order", [2, 3, 4, 5])
def test_spline_filter_methods(mode, order):
    code = ik.mode_code(mode)
    for n in LENGTHS:
        # a warp per line (few or contiguous lines); a thread per (column, run) where 16 or more columns
        for shape, axis in (((n, 7), 0), ((3, n), 1), ((n, 19), 0), ((3, n, 33), 1)):
            x = RNG.normal(size=shape) * 10
            got = {}
            for method in ik.PREFILTER_METHODS:
                for src_dt in (None, np.float32):
                    if src_dt is None:
                        data = cuarray.asarray(x)
                        ik.spline_filter(data, axis, order, code, method=method)
                        ref_in = x
                    else:  # the warp kernel reads the float32 input itself
                        data = cuarray.empty(shape, np.float64)
                        ik.spline_filter(data, axis, order, code, src=cuarray.asarray(x.astype(src_dt)), method=method)
                        ref_in = x.astype(src_dt)
                    got[method, src_dt] = data.get()
                    if _scipy_ok(mode, n):
                        close(data, snd.spline_filter1d(ref_in, order, axis, mode=mode))
            scale = float(np.abs(got["lane0", None]).max())
            for method in ik.PREFILTER_METHODS:
                np.testing.assert_allclose(got[method, None], got["lane0", None], rtol=0, atol=1e-13 * scale)
                np.testing.assert_allclose(got[method, np.float32], got["lane0", np.float32], rtol=0,
                                           atol=1e-13 * scale)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("order", [2, 3, 5])  # (order 4's prefilter: test_spline_filter_methods)
@pytest.mark.parametrize("method", ik.PREFILTER_METHODS)
@pytest.mark.parametrize("point", ik.POINT_METHODS)
def test_map_coordinates_methods(mode, order, method, point):
    """map_coordinates' two parts, each method forced: 1-D, 2-D and 3-D, float64 coordinates, and float32 ones in
    2-D (each a kernel of its own: the compiles are the test's cost)."""
    for shape in ((301,), (70, 131), (16, 20, 66)):
        x = RNG.normal(size=shape) * 10
        for cdt in ((np.float64, np.float32) if len(shape) == 2 else (np.float64,)):
            coords = np.stack([RNG.uniform(-5, s + 4, size=(13, 11)) for s in shape]).astype(cdt)
            ref = snd.map_coordinates(x, coords, order=order, mode=mode, cval=-2.5)
            f, npad = interp._prefiltered(cuarray.asarray(x), order, mode, -2.5, True, method=method)
            c = cuarray.asarray(coords)
            got = ik.geometric(f, np.dtype(np.float64), "coords", (13, 11), c.reshape((len(shape), -1)), order,
                               ik.mode_code(mode), -2.5, npad, point=point)
            close(got, ref)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128])
@pytest.mark.parametrize("order", [2, 3, 4, 5])
def test_public_spline_filter(dtype, order):
    x = RNG.normal(size=(134, 130)) * 10
    if np.dtype(dtype).kind == "c":
        x = x + 1j * RNG.normal(size=x.shape)
    x = x.astype(dtype)
    d = cuarray.asarray(x)
    for mode in MODES:
        close(cnd.spline_filter(d, order, mode=mode), snd.spline_filter(x, order, mode=mode))
        close(cnd.spline_filter1d(d, order, 0, mode=mode), snd.spline_filter1d(x, order, 0, mode=mode))
    # non-contiguous input (copied to float64 first), output= an array and a dtype
    xs, ds = x[::2, ::-1], d[::2, ::-1]
    close(cnd.spline_filter(ds, order), snd.spline_filter(xs, order))
    out_dt = np.complex64 if np.dtype(dtype).kind == "c" else np.float32
    close(cnd.spline_filter(d, order, output=out_dt), snd.spline_filter(x, order, output=out_dt))
    if np.dtype(dtype).kind != "c":
        out = cuarray.empty((67, 130), np.float64)
        assert cnd.spline_filter1d(ds, order, 1, output=out) is out
        close(out, snd.spline_filter1d(xs, order, 1))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("order", [2, 3, 4, 5])
def test_public_geometric(mode, order):
    """Every public function that prefilters, defaults (chunked prefilter, taps), lines of 66..131 samples."""
    for dtype in (np.float32, np.float64, np.complex64):
        x = RNG.normal(size=(66, 131)) * 10
        if np.dtype(dtype).kind == "c":
            x = x + 1j * RNG.normal(size=x.shape)
        x = x.astype(dtype)
        d = cuarray.asarray(x)
        coords = np.stack([RNG.uniform(-4, 70, size=(9, 17)), RNG.uniform(-4, 135, size=(9, 17))])
        for cdt in (np.float64, np.float32):
            close(cnd.map_coordinates(d, cuarray.asarray(coords.astype(cdt)), order=order, mode=mode, cval=1.5),
                  snd.map_coordinates(x, coords.astype(cdt), order=order, mode=mode, cval=1.5))
        close(cnd.zoom(d, (1.5, 0.75), order=order, mode=mode), snd.zoom(x, (1.5, 0.75), order=order, mode=mode))
        close(cnd.shift(d, (2.5, -1.25), order=order, mode=mode), snd.shift(x, (2.5, -1.25), order=order, mode=mode))
        m = np.array([[0.8, -0.4], [0.5, 1.2]])
        close(cnd.affine_transform(d, m, (2.0, -3.0), output_shape=(70, 60), order=order, mode=mode),
              snd.affine_transform(x, m, (2.0, -3.0), output_shape=(70, 60), order=order, mode=mode))
    # non-contiguous float32 input, output= arrays
    x = RNG.normal(size=(140, 262)).astype(np.float32)
    xs, ds = x[::2, ::-2], cuarray.asarray(x)[::2, ::-2]
    coords = np.stack([RNG.uniform(-4, 74, size=(40,)), RNG.uniform(-4, 135, size=(40,))])
    out = cuarray.empty((40,), np.float64)
    assert cnd.map_coordinates(ds, cuarray.asarray(coords), output=out, order=order, mode=mode) is out
    close(out, snd.map_coordinates(xs, coords, output=np.float64, order=order, mode=mode))
    out = cuarray.empty(xs.shape, np.float32)
    assert cnd.shift(ds, (0.5, 3.25), output=out, order=order, mode=mode) is out
    close(out, snd.shift(xs, (0.5, 3.25), order=order, mode=mode))


@pytest.mark.parametrize("method", ik.PREFILTER_METHODS)
@pytest.mark.parametrize("mode", MODES)
def test_float32_coefficients(method, mode):
    """The perf script's option: float32 coefficients of a float32 input (CuPy's choice; SciPy's are float64),
    within the float32 tolerance; float64 where an axis takes the thread-per-line kernel."""
    x = (RNG.normal(size=(70, 131)) * 10).astype(np.float32)
    coords = np.stack([RNG.uniform(-4, 74, size=(9, 17)), RNG.uniform(-4, 135, size=(9, 17))]).astype(np.float32)
    for order in (2, 3, 5):
        f, npad = interp._prefiltered(cuarray.asarray(x), order, mode, -2.5, True, method=method, coef=np.float32)
        assert f.dtype == np.float32
        got = ik.geometric(f, np.dtype(np.float32), "coords", (9, 17), cuarray.asarray(coords).reshape((2, -1)), order,
                           ik.mode_code(mode), -2.5, npad)
        close(got, snd.map_coordinates(x, coords, order=order, mode=mode, cval=-2.5))
    code = ik.mode_code(mode)
    long_lines = (RNG.normal(size=(6500, 20)) * 10).astype(np.float32)  # 6500 samples: a thread per line
    f = interp._filtered_along(cuarray.asarray(long_lines), [0, 1], 3, code, method, coef=np.float32)
    assert f.dtype == np.float64
    close(f, snd.spline_filter(long_lines, 3, mode=mode).astype(np.float64))


# The streamed strided pass (method "stream": a thread per (column, run of 16 or 32), warm-ups read from the input,
# a launch per pole): lines from the threshold (64) up, odd, shorter than a run's reach (2K + M: 80..132), 16..40
# columns (blocks of 16 and of 32 columns), an outer extent (the grid's column groups times outer).
STREAM_CASES = (((64, 16), 0), ((65, 31), 0), ((97, 40), 0), ((333, 3, 17), 0), ((2, 130, 19), 1), ((2049, 33), 0),
                ((3, 77, 2, 20), 1))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("order", [2, 3, 4, 5])
def test_stream_pass(mode, order):
    """The default form (runs of 16, 16 loads in flight) from a float64 or float32 source and in place, the other
    runs and batches in place (orders 3, 5), against SciPy and against the default method ("chunked", the column
    kernel) to rounding."""
    code = ik.mode_code(mode)
    for shape, axis in STREAM_CASES:
        assert ik.spline_plan(shape, axis, "stream") == "stream"
        x = RNG.normal(size=shape) * 10
        default = cuarray.asarray(x)
        ik.spline_filter(default, axis, order, code)
        default = default.get()
        scale = float(np.abs(default).max())
        forms = [(r, u) for r in ik.STREAM_RUNS for u in ik.STREAM_BATCHES] if order in (3, 5) else [(16, 16)]
        for run, batch in forms:
            # (the default form from each source; the others in place: fewer first-run compiles)
            for src_dt in (None, np.float64, np.float32) if (run, batch) == (16, 16) else (None,):
                if src_dt is None:
                    data = cuarray.asarray(x)
                    ik.spline_filter(data, axis, order, code, method="stream", run=run, batch=batch)
                    ref_in = x
                else:
                    data = cuarray.empty(shape, np.float64)
                    ik.spline_filter(data, axis, order, code, src=cuarray.asarray(x.astype(src_dt)), method="stream",
                                     run=run, batch=batch)
                    ref_in = x.astype(src_dt)
                if _scipy_ok(mode, shape[axis]):
                    close(data, snd.spline_filter1d(ref_in, order, axis, mode=mode))
                if src_dt != np.float32:
                    np.testing.assert_allclose(data.get(), default, rtol=0, atol=1e-13 * scale)


@pytest.mark.parametrize("order", [2, 3, 4, 5])
def test_stream_views_and_map_coordinates(order):
    """method="stream" for every pass that takes it (`_prefiltered`, each mode): a strided view of a float32 volume
    (copied first: every strided pass in place, into a fresh array) and a contiguous float64 image (its first pass
    reads it), the coefficients against the default method's to rounding, then map_coordinates on them against
    SciPy."""
    vol = RNG.normal(size=(140, 70, 36)).astype(np.float32)
    img = RNG.normal(size=(131, 67)) * 10
    for host, dev in ((vol[::2, ::-1, 1:35], cuarray.asarray(vol)[::2, ::-1, 1:35]), (img, cuarray.asarray(img))):
        coords = np.stack([RNG.uniform(-4, s + 3, size=(7, 9)) for s in host.shape])
        for mode in MODES:
            got, npad = interp._prefiltered(dev, order, mode, -2.5, True, method="stream")
            want, _ = interp._prefiltered(dev, order, mode, -2.5, True)
            assert got.dtype == np.float64 and got.shape == want.shape
            scale = float(np.abs(want.get()).max())
            np.testing.assert_allclose(got.get(), want.get(), rtol=0, atol=1e-13 * scale)
            c = cuarray.asarray(coords).reshape((host.ndim, -1))
            val = ik.geometric(got, np.dtype(np.float64), "coords", (7, 9), c, order, ik.mode_code(mode), -2.5, npad)
            close(val, snd.map_coordinates(host.astype(np.float64), coords, order=order, mode=mode, cval=-2.5))
