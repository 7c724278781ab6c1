"""zoom, shift and affine_transform with a diagonal matrix (the per-axis tables of
templates/zoom_shift.cuh: the direct kernel, and for orders >= 2 of 2-D and up the separable
passes, each forced in turn where the plan would pick one) on the device against scipy.ndimage
on the host: orders 0-5, every mode,
grid_mode, 1-D to 4-D, zoom factors below and above 1 and per axis, SciPy's output shapes,
dtypes, non-contiguous inputs, output= arrays. Fresh random data. Every axis the reflect modes'
prefilter sees has at least 16 samples: SciPy before 1.18 filters shorter lines slightly wrong
there (scipy#24615). (The same bodies passed on the host with the kernels' g++ build in place of
the device.)"""

import warnings

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
from test_ndimage_interp_gpu import MODES, close as _interp_close  # noqa: E402  (tests/scipy/ndimage on sys.path)

RNG = np.random.default_rng()
SHAPES = {1: (37,), 2: (19, 16), 3: (16, 18, 17)}
ZOOMS = {1: [2.0, 0.45, 1.37], 2: [(1.7, 0.6), 2.0, (1, 1.5)], 3: [2.0, (0.5, 1.4, 2.3), (1, 0.8, 1.25)]}


def close(got, ref, tol=None):
    """test_ndimage_interp_gpu's comparison, float32 to 1e-5 (the tables' arithmetic is float64)."""
    _interp_close(got, ref, tol, f32_tol=1e-5)


def both(name, x, *args, **kw):
    """(cuarray's, SciPy's) result of ndimage.<name>, grid_mode's advice silenced in both."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        got = getattr(cnd, name)(cuarray.asarray(x), *args, **kw)
        ref = getattr(snd, name)(x, *args, **kw)
    return got, ref


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("order", [0, 1, 2, 3, 4, 5])
@pytest.mark.parametrize("ndim", [1, 2, 3])
def test_zoom_shift_orders_modes(ndim, order, mode):
    x = RNG.normal(size=SHAPES[ndim]) * 10
    for z in ZOOMS[ndim]:
        for grid_mode in (False, True):
            close(*both("zoom", x, z, order=order, mode=mode, cval=-1.75, grid_mode=grid_mode))
    for s in (1.3, -4.6, 20.5):  # 20.5: past the whole input along the short axes
        sh = [s * (-1) ** d for d in range(ndim)]
        close(*both("shift", x, sh, order=order, mode=mode, cval=2.5))
    if order > 1:
        close(*both("zoom", x, 1.5, order=order, mode=mode, prefilter=False))
        close(*both("shift", x, 0.25, order=order, mode=mode, prefilter=False))


@pytest.mark.parametrize("mode", ["constant", "grid-constant", "mirror"])
@pytest.mark.parametrize("order", [0, 3, 5])
@pytest.mark.parametrize("ndim", [2, 3])
def test_zoom_shift_taps_from_the_other_source(monkeypatch, ndim, order, mode):
    """The small 2-D arrays above compute their taps per point and the 3-D ones read tables (at most
    one table entry per 8 points); here the other way round, forced (the direct kernel: orders >= 2
    take the separable passes by default)."""
    monkeypatch.setattr(ik, "_TABLE_RATIO", 0 if ndim == 2 else 10 ** 9)
    monkeypatch.setattr(ik, "_SEPARABLE_BYTES", -1)
    x = RNG.normal(size=SHAPES[ndim]) * 10
    for z in ZOOMS[ndim]:
        close(*both("zoom", x, z, order=order, mode=mode, cval=-1.75, grid_mode=True))
    close(*both("shift", x, [-4.6] * ndim, order=order, mode=mode, cval=2.5))


@pytest.mark.parametrize("mode", ["constant", "grid-constant", "wrap"])
def test_zoom_shift_64bit_offsets(monkeypatch, mode):
    """The offsets and indices of arrays past 2^31 elements (long long), forced on small ones:
    taps per point (1-D), tables (3-D), the generic loops (4-D)."""
    monkeypatch.setattr(ik, "_I4_LIMIT", 0)
    for shape, z in [((41,), 1.7), ((16, 18, 17), (2, 0.6, 1.3)), ((3, 16, 5, 17), (1, 1.5, 2, 0.7))]:
        x = RNG.normal(size=shape)
        close(*both("zoom", x, z, order=3, mode=mode, prefilter=False))
        close(*both("shift", x, 1.5, order=1, mode=mode))


@pytest.mark.parametrize("mode", ["constant", "grid-constant", "reflect", "grid-wrap"])
@pytest.mark.parametrize("order", [0, 1, 3, 5])
def test_zoom_shift_4d(mode, order):
    x = RNG.normal(size=(16, 17, 16, 18))
    close(*both("zoom", x, (1, 1.5, 2, 0.7), order=order, mode=mode))
    close(*both("shift", x, (0.5, -1.25, 2, 0.75), order=order, mode=mode, cval=-3.0))


@pytest.mark.parametrize("shape,zoom", [((7, 16), (1.5, 1)), ((16, 5), (1, 0.5)), ((3, 17), (2.5, 1.1)),
                                        ((16, 18), 0.06), ((16, 18), 0.02), ((20,), 1.0)])
def test_zoom_output_shapes(shape, zoom):
    """SciPy's rounding of the output shape (10.5 -> 10, 2.5 -> 2, 7.5 -> 8), outputs of one
    sample (a zero zoom divisor), and a zoom of 1 with and without prefilter."""
    x = RNG.normal(size=shape)
    for grid_mode in (False, True):
        close(*both("zoom", x, zoom, order=3, mode="mirror", grid_mode=grid_mode))  # (not reflect: scipy#24615)
        close(*both("zoom", x, zoom, order=1, mode="nearest", grid_mode=grid_mode, prefilter=False))


@pytest.mark.parametrize("dtype", [np.uint8, np.int32, np.int64, np.float32, np.float64, np.complex64])
def test_zoom_shift_dtypes_layouts(dtype):
    x = RNG.normal(size=(40, 34, 18)) * 60
    if np.dtype(dtype).kind == "c":
        x = x + 1j * RNG.normal(size=x.shape) * 60
    x = (np.abs(x) if np.dtype(dtype).kind == "u" else x).astype(dtype)
    xs = x[::2, ::-1, 1:]  # non-contiguous, a negative stride
    d = cuarray.asarray(x)[::2, ::-1, 1:]
    for order in (0, 1, 3):
        close(cnd.zoom(d, (1.5, 0.5, 2), order=order), snd.zoom(xs, (1.5, 0.5, 2), order=order))
        close(cnd.shift(d, (0.5, -1.25, 2), order=order, mode="wrap"),
              snd.shift(xs, (0.5, -1.25, 2), order=order, mode="wrap"))
        close(cnd.zoom(d.transpose(2, 0, 1), 1.3, order=order, mode="mirror"),
              snd.zoom(xs.transpose(2, 0, 1), 1.3, order=order, mode="mirror"))
    if np.dtype(dtype).kind != "c":
        close(cnd.zoom(d, 2, output=np.float32, order=3, mode="nearest"),
              snd.zoom(xs, 2, output=np.float32, order=3, mode="nearest"))
        close(cnd.shift(d, 1.5, output="int16", order=1), snd.shift(xs, 1.5, output="int16", order=1))


@pytest.mark.parametrize("order", [0, 1, 3])
def test_output_arrays(order):
    """output= arrays: C-contiguous of the result dtype (written in place), strided, another dtype,
    and the input itself (the result is that of a copy of the input; SciPy reads the values it has
    already overwritten)."""
    x = RNG.normal(size=(24, 20, 16))
    d = cuarray.asarray(x)
    ref = snd.zoom(x, (1.5, 0.5, 2), order=order, mode="reflect")
    for out in (cuarray.empty(ref.shape, np.float64), cuarray.empty((ref.shape[0], ref.shape[2], ref.shape[1]),
                                                                     np.float64).transpose(0, 2, 1),
                cuarray.empty(ref.shape, np.float32)):
        res = cnd.zoom(d, (1.5, 0.5, 2), output=out, order=order, mode="reflect")
        assert res is out
        close(out, ref.astype(out.dtype))
    ref = snd.shift(x, (1.5, -0.25, 3), order=order)
    same = d.copy()
    assert cnd.shift(same, (1.5, -0.25, 3), output=same, order=order) is same
    close(same, ref)
    with pytest.raises(RuntimeError):
        cnd.zoom(d, 2, output=cuarray.empty((2, 2, 2)))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("order", [0, 1, 3, 5])
def test_affine_diagonal(mode, order):
    x = RNG.normal(size=(18, 16, 17)) * 10
    m = np.diag([1.2, 0.55, -0.8])
    off = (-1.2, 0.75, 3.6)  # -1.2 + 1.2 * 1 is 0: a point on the edge lands on SciPy's side
    for oshape in (None, (20, 30, 12)):
        close(*both("affine_transform", x, m, off, output_shape=oshape, order=order, mode=mode, cval=0.5))
    h = np.eye(4)
    h[:3, :3] = m
    h[:3, 3] = off
    close(*both("affine_transform", x, h, order=order, mode=mode))
    close(*both("affine_transform", x, [1.2, 0.55, 0.8], 0.7, output_shape=(19, 31, 14), order=order, mode=mode))
    # rotate by 180 degrees: a diagonal of -1 (2-D: SciPy rotates a 3-D array plane by plane)
    close(*both("rotate", np.ascontiguousarray(x[:, :, 1]), 180, order=order, mode=mode))


def test_zoom_large_volume():
    """Many blocks, 32-bit offsets: the bench case's shape class (ndimage.zoom(x, 2) of a float32
    volume), smaller; and a long signal and a long axis (taps per point, not tables)."""
    x = RNG.normal(size=(64, 72, 80)).astype(np.float32)
    close(*both("zoom", x, 2.0))
    close(*both("zoom", x, (0.5, 1.5, 0.75), order=5, mode="grid-wrap", grid_mode=True))
    y = RNG.normal(size=200003)
    close(*both("zoom", y, 1.37, mode="mirror"))
    close(*both("shift", RNG.normal(size=(2, 100001)), (0, 3.25), mode="nearest"))


# -- the separable path (orders >= 2 of 2-D and up: one pass an axis, _interp_kernels.separable_plan) ----
@pytest.fixture(params=["separable", "direct"])
def zs_path(request, monkeypatch):
    """Every zoom/shift of order >= 2 and ndim >= 2 through the separable passes (whatever their
    intermediates' size: shrinking zooms too), or none (the direct kernel)."""
    monkeypatch.setattr(ik, "_SEPARABLE_BYTES", 10.0 ** 9 if request.param == "separable" else -1)
    return request.param


SEP_SHAPES = {2: (19, 16), 3: (16, 18, 17), 4: (16, 16, 17, 16)}  # (16 samples an axis: scipy#24615)
SEP_ZOOMS = {2: [(1.7, 0.6), 2.0, (0.45, 1.0)], 3: [2.0, (0.5, 1.4, 2.3), (1, 0.8, 1.25)],
             4: [(1.5, 1, 0.7, 0.5), 0.6]}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("order", [2, 3, 4, 5])
@pytest.mark.parametrize("ndim", [2, 3, 4])
def test_separable_orders_modes(zs_path, ndim, order, mode):
    """zoom (factors below and above 1 per axis, grid_mode both ways, prefilter both), shift past
    the whole input ('outside' points: cval 37.5, which a pass mixing it into neighbours or scaling
    it by a sum of weights would change) and a diagonal affine_transform, against SciPy."""
    x = RNG.normal(size=SEP_SHAPES[ndim]) * 10
    for z in SEP_ZOOMS[ndim]:
        for grid_mode in (False, True):
            for prefilter in (True, False):
                close(*both("zoom", x, z, order=order, mode=mode, cval=37.5, grid_mode=grid_mode,
                            prefilter=prefilter))
    for s in (1.3, -4.6, 20.5) if ndim < 4 else (20.5,):  # (SciPy's 4-D shifts are slow)
        sh = [s * (-1) ** d for d in range(ndim)]
        close(*both("shift", x, sh, order=order, mode=mode, cval=37.5))
    close(*both("shift", x, 0.25, order=order, mode=mode, cval=37.5, prefilter=False))
    m = np.diag([1.2, -0.55, 0.8, 1.1][:ndim])
    off = [-1.2, 3.6, 0.75, -0.5][:ndim]
    oshape = tuple(s + 3 for s in x.shape)
    close(*both("affine_transform", x, m, off, output_shape=oshape, order=order, mode=mode, cval=-4.0))


@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.int32, np.float32, np.float64, np.complex64])
def test_separable_dtypes_outputs(zs_path, dtype):
    """Integer (rounded and clamped by the last pass), float and complex inputs, prefilter off (the
    first pass reads the input's dtype), output dtypes, output= arrays in place, strided ones, and
    64-bit offsets (forced)."""
    x = RNG.normal(size=(20, 17, 16)) * 60
    if np.dtype(dtype).kind == "c":
        x = x + 1j * RNG.normal(size=x.shape) * 60
    x = (np.abs(x) if np.dtype(dtype).kind == "u" else x).astype(dtype)
    d = cuarray.asarray(x)
    for order in (2, 3, 5):
        for prefilter in (True, False):
            close(cnd.zoom(d, (1.6, 0.7, 2), order=order, cval=12.0, prefilter=prefilter),
                  snd.zoom(x, (1.6, 0.7, 2), order=order, cval=12.0, prefilter=prefilter))
            close(cnd.shift(d, (0.4, -1.3, 5), order=order, cval=12.0, prefilter=prefilter),
                  snd.shift(x, (0.4, -1.3, 5), order=order, cval=12.0, prefilter=prefilter))
    if np.dtype(dtype).kind != "c":
        for out_dt in (np.float32, np.int16, np.uint8):
            ref = snd.zoom(x, 2, output=out_dt, order=3, mode="mirror")
            close(cnd.zoom(d, 2, output=out_dt, order=3, mode="mirror"), ref)
            out = cuarray.empty(ref.shape, out_dt)
            assert cnd.zoom(d, 2, output=out, order=3, mode="mirror") is out
            close(out, ref)
        ref = snd.zoom(x, (1.5, 0.5, 2), output=np.float64, order=4, mode="reflect")
        out = cuarray.empty((ref.shape[0], ref.shape[2], ref.shape[1]), np.float64).transpose(0, 2, 1)
        assert cnd.zoom(d, (1.5, 0.5, 2), output=out, order=4, mode="reflect") is out
        close(out, ref)


@pytest.mark.parametrize("mode", ["constant", "grid-constant", "wrap", "nearest"])
def test_separable_64bit_offsets(monkeypatch, zs_path, mode):
    monkeypatch.setattr(ik, "_I4_LIMIT", 0)
    for shape, z in [((19, 16), (1.7, 0.6)), ((16, 18, 17), (2, 0.6, 1.3)), ((3, 16, 5, 17), (1, 1.5, 2, 0.7))]:
        x = RNG.normal(size=shape)
        close(*both("zoom", x, z, order=3, mode=mode, cval=-2.0))
        close(*both("shift", x, 1.5, order=5, mode=mode, cval=-2.0))


@pytest.mark.parametrize("mode", ["constant", "mirror", "reflect", "grid-wrap"])
@pytest.mark.parametrize("order", [2, 3, 5])
def test_separable_equals_direct(monkeypatch, mode, order):
    """A uniform zoom (the axes from the last: the direct kernel's nesting of sums) gives the
    direct kernel's result to the bit (the H100 prototype of the bench case: max difference 0),
    as on the host (test_ndimage_interp_cpu.py)."""
    x = cuarray.asarray(RNG.normal(size=(40, 48, 36)).astype(np.float32))
    for call in (lambda: cnd.zoom(x, 2.0, order=order, mode=mode, cval=3.0),
                 lambda: cnd.shift(x, (1.5, -2.25, 6.5), order=order, mode=mode, cval=3.0)):
        monkeypatch.setattr(ik, "_SEPARABLE_BYTES", 10.0 ** 9)
        sep = call().get()
        monkeypatch.setattr(ik, "_SEPARABLE_BYTES", -1)
        np.testing.assert_array_equal(sep, call().get())


def test_separable_bench_shape():
    """The bench case's shape class by default (the plan takes it: float32 output, 2x zoom), the
    largest intermediates the test suite makes, against SciPy."""
    x = RNG.normal(size=(96, 80, 72)).astype(np.float32)
    assert ik.separable_plan(x.shape, (192, 160, 144), 3, 4) == [2, 1, 0]
    close(*both("zoom", x, 2.0))
    close(*both("zoom", x, 2.0, order=5, mode="grid-constant", grid_mode=True, cval=1.5))


@pytest.mark.parametrize("shape,zoom", [((7, 16), (1.5, 1)), ((16, 5), (1, 0.5)), ((3, 17), (2.5, 1.1)),
                                        ((16, 18), 0.06), ((16, 18), 0.02), ((1, 9), (3, 1.5)), ((2, 1, 6), 2.0)])
def test_separable_output_shapes(zs_path, shape, zoom):
    """Outputs of one sample along an axis (a zero zoom divisor) or none, inputs of one sample
    along an axis, SciPy's rounding of the output shape (modes whose prefilter SciPy 1.17 gets
    right on short lines: scipy#24615)."""
    x = RNG.normal(size=shape)
    for grid_mode in (False, True):
        for mode in ("mirror", "constant", "grid-wrap"):
            close(*both("zoom", x, zoom, order=3, mode=mode, grid_mode=grid_mode, cval=2.0))
    close(*both("shift", x, 0.75, order=4, mode="mirror"))
