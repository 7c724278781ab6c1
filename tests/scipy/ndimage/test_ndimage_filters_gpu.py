"""cuarray.scipy.ndimage filters on the device against scipy.ndimage on the host: every boundary
mode, origins, axes, dtypes, non-contiguous inputs, output= arrays and dtypes, and SciPy's
exception types. Fresh random data."""

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

MODES = ["reflect", "mirror", "nearest", "wrap", "constant", "grid-mirror", "grid-wrap", "grid-constant"]
RNG = np.random.default_rng()


def data(shape, dtype):
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return RNG.random(shape) < 0.5
    if dt.kind in "iu":
        lo = 0 if dt.kind == "u" else -50
        return RNG.integers(lo, 100, size=shape).astype(dt)
    x = RNG.normal(size=shape) * 10
    if dt.kind == "c":
        x = x + 1j * RNG.normal(size=shape) * 10
    return x.astype(dt)


def close(got, ref, exact=False, int_atol=0):
    assert isinstance(got, cuarray.ndarray)
    assert got.dtype == ref.dtype and got.shape == ref.shape, (got.dtype, ref.dtype, got.shape, ref.shape)
    g = got.get()
    if exact or ref.dtype.kind == "b":
        np.testing.assert_array_equal(g, ref)
    elif ref.dtype.kind in "iu":
        np.testing.assert_allclose(g.astype(np.float64), ref.astype(np.float64), atol=int_atol, rtol=0)
    else:
        tol = 2e-5 if ref.dtype.char in "fF" else 1e-11
        scale = max(1.0, float(np.abs(ref).max(initial=0)))
        np.testing.assert_allclose(g, ref, rtol=tol, atol=tol * scale)


def both(name, x, *args, **kw):
    ref = getattr(snd, name)(x, *args, **kw)
    got = getattr(cnd, name)(cuarray.asarray(x), *args, **kw)
    return got, ref


DTYPES_W = [np.uint8, np.int16, np.int32, np.int64, np.float32, np.float64]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", DTYPES_W, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", ["correlate1d", "convolve1d"])
def test_correlate1d_modes_dtypes(name, dtype, mode):
    x = data((6, 17, 5), dtype)
    w = RNG.normal(size=4)
    for axis, origin in [(0, 0), (1, -2), (-1, 1)]:
        got, ref = both(name, x, w, axis, mode=mode, cval=2.5, origin=origin)
        close(got, ref, int_atol=1)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", [np.bool_, np.uint8, np.int32, np.uint64, np.float32, np.float64],
                         ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", ["uniform_filter1d", "minimum_filter1d", "maximum_filter1d"])
def test_box_filters_1d(name, dtype, mode):
    if name == "uniform_filter1d" and np.dtype(dtype).kind == "b":
        pytest.skip("bool uniform: SciPy truncates a mean into bool")
    x = data((9, 23), dtype)
    for axis, size, origin in [(0, 3, 0), (1, 6, -3), (-1, 1, 0), (1, 5, 2)]:
        got, ref = both(name, x, size, axis, mode=mode, cval=3, origin=origin)
        close(got, ref, exact=name != "uniform_filter1d")


@pytest.mark.parametrize("order", [0, 1, 2, 3])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int16], ids=lambda d: np.dtype(d).name)
def test_gaussian_filter(order, dtype):
    x = data((31, 40), dtype)
    got, ref = both("gaussian_filter", x, 1.7, order=order)
    close(got, ref, int_atol=1)
    got, ref = both("gaussian_filter", x, [2.0, 0.8], order=[order, 0], mode=["wrap", "nearest"], truncate=3.0)
    close(got, ref, int_atol=1)
    got, ref = both("gaussian_filter1d", x, 2.3, axis=0, order=order, radius=5, mode="constant", cval=1.0)
    close(got, ref, int_atol=1)


def test_gaussian_filter_axes_output_and_3d():
    x = data((12, 13, 14), np.float32)
    got, ref = both("gaussian_filter", x, (1.0, 2.0), axes=(0, 2))
    close(got, ref)
    got, ref = both("gaussian_filter", x, 1.5, output=np.float64)
    close(got, ref)
    out = cuarray.zeros((14, 13, 12), np.float64).transpose()
    res = cnd.gaussian_filter(cuarray.asarray(x), 1.5, output=out)
    assert res is out
    close(out, snd.gaussian_filter(x, 1.5, output=np.float64))


@pytest.mark.parametrize("mode", ["reflect", "mirror", "nearest", "wrap", "constant"])
@pytest.mark.parametrize("wshape", [(3, 3), (2, 5), (4, 1), (1, 1)])
@pytest.mark.parametrize("name", ["correlate", "convolve"])
def test_correlate_convolve_nd(name, wshape, mode):
    x = data((11, 19), np.float64)
    w = RNG.normal(size=wshape)
    for origin in [0, (-(wshape[0] // 2), (wshape[1] - 1) // 2)]:
        got, ref = both(name, x, w, mode=mode, cval=-1.0, origin=origin)
        close(got, ref)


@pytest.mark.parametrize("dtype", [np.uint8, np.int32, np.float32, np.complex64, np.complex128],
                         ids=lambda d: np.dtype(d).name)
def test_correlate_dtypes_complex_and_axes(dtype):
    x = data((8, 9, 10), dtype)
    w = RNG.normal(size=(3, 2))
    got, ref = both("correlate", x, w, axes=(0, 2))
    close(got, ref, int_atol=1)
    wc = w + 1j * RNG.normal(size=w.shape)
    if np.dtype(dtype).kind in "fc":
        got, ref = both("convolve", x, wc, axes=(1, 2))
        close(got, ref)
        got, ref = both("correlate1d", x, wc[:, 0], axis=1)
        close(got, ref)


def test_noncontiguous_input_and_output():
    x = data((20, 30), np.float32)
    xs = x[::2, ::-3]
    ref = snd.correlate(xs, np.ones((3, 3)) / 9)
    got = cnd.correlate(cuarray.asarray(x)[::2, ::-3], np.ones((3, 3)) / 9)
    close(got, ref)
    out = cuarray.empty((xs.shape[1], xs.shape[0]), np.float32).T
    cnd.uniform_filter(cuarray.asarray(x)[::2, ::-3], 3, output=out)
    close(out, snd.uniform_filter(xs, 3))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", [np.uint8, np.int64, np.float32], ids=lambda d: np.dtype(d).name)
def test_min_max_filters(dtype, mode):
    x = data((13, 16), dtype)
    for name in ["minimum_filter", "maximum_filter"]:
        got, ref = both(name, x, size=(3, 4), mode=mode, cval=7, origin=(1, -2))
        close(got, ref, exact=True)
        fp = RNG.random((3, 5)) < 0.6
        fp[1, 2] = True
        if not isinstance(mode, str) or True:
            got, ref = both(name, x, footprint=fp, mode=mode, cval=7, origin=(0, 1))
            close(got, ref, exact=True)


@pytest.mark.parametrize("mode", ["constant", "grid-constant"])
@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.uint16, np.int32], ids=lambda d: np.dtype(d).name)
def test_integer_min_max_rank_filters_with_a_cval_the_type_cannot_hold(dtype, mode):
    """SciPy's 1-D passes (minimum_filter1d; minimum_filter with a size, a pass an axis) compare
    in double and cast the result as C does (x86): cval=-1 on uint8 gives minimum -1, stored 255,
    where a cval cast to uint8 first (255) would lose to every element; a fractional cval reaches
    a float64 output unrounded. Its footprint and rank filters cast cval to the input type first."""
    x = data((7, 9), dtype)
    for cval in (-1.0, -3, 300, 1e10, -np.inf, np.inf, 0.5, -0.5, 2.5):
        kw = dict(mode=mode, cval=cval)
        for got, ref in (both("minimum_filter", x, size=(3, 4), **kw), both("maximum_filter", x, size=3, **kw),
                         both("minimum_filter", x, footprint=np.eye(3, dtype=bool), **kw),
                         both("maximum_filter1d", x, 4, axis=0, **kw), both("median_filter", x, size=3, **kw),
                         both("rank_filter", x, 2, size=(2, 3), **kw),
                         both("minimum_filter", x, size=3, output=np.float64, **kw),
                         both("percentile_filter", x, 70, size=3, output=np.float64, **kw)):
            close(got, ref, exact=True)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", [np.uint8, np.int32, np.float32, np.float64], ids=lambda d: np.dtype(d).name)
def test_rank_median_percentile(dtype, mode):
    x = data((15, 12), dtype)
    got, ref = both("median_filter", x, size=5, mode=mode, cval=4)
    close(got, ref, exact=True)
    got, ref = both("rank_filter", x, 3, size=(3, 4), mode=mode, cval=4, origin=(1, 0))
    close(got, ref, exact=True)
    got, ref = both("rank_filter", x, -2, footprint=RNG.random((4, 4)) < 0.7, mode=mode)
    close(got, ref, exact=True)
    got, ref = both("percentile_filter", x, 30, size=(5, 3), mode=mode)
    close(got, ref, exact=True)


def test_median_3d_axes_and_large_footprint():
    x = data((10, 11, 12), np.float32)
    got, ref = both("median_filter", x, size=3, axes=(1, 2))
    close(got, ref, exact=True)
    got, ref = both("median_filter", x, size=9)  # 729 taps
    close(got, ref, exact=True)


@pytest.mark.parametrize("name", ["sobel", "prewitt"])
@pytest.mark.parametrize("dtype", [np.uint8, np.int32, np.float32, np.float64], ids=lambda d: np.dtype(d).name)
def test_sobel_prewitt(name, dtype):
    x = data((14, 15, 6), dtype)
    for axis in (0, 1, -1):
        got, ref = both(name, x, axis, mode=["reflect", "wrap", "constant"])
        close(got, ref, int_atol=1)


@pytest.mark.parametrize("dtype", [np.int16, np.float32, np.float64], ids=lambda d: np.dtype(d).name)
def test_laplace_family(dtype):
    x = data((20, 21), dtype)
    close(*both("laplace", x), int_atol=1)
    close(*both("laplace", x, mode="nearest", axes=(1,)), int_atol=1)
    close(*both("gaussian_laplace", x, 1.5), int_atol=1)
    close(*both("gaussian_gradient_magnitude", x, [1.0, 2.0], mode="mirror"), int_atol=1)


def test_generic_drivers():
    x = data((16, 17), np.float64)

    def d2(inp, axis, output, mode, cval, xp):
        return xp.correlate1d(inp, [1, -2, 1], axis, output, mode, cval)

    ref = snd.generic_laplace(x, d2, extra_arguments=(snd,))
    got = cnd.generic_laplace(cuarray.asarray(x), d2, extra_arguments=(cnd,))
    close(got, ref)
    ref = snd.generic_gradient_magnitude(x, snd.sobel)
    got = cnd.generic_gradient_magnitude(cuarray.asarray(x), cnd.sobel)
    close(got, ref)


def test_empty_and_size_one():
    x = np.zeros((0, 5), np.float32)
    got, ref = both("gaussian_filter", x, 1.0)
    close(got, ref)
    x = data((1, 7), np.float64)
    close(*both("correlate1d", x, [1.0, 2.0, 3.0], axis=0, mode="mirror"))


def test_errors():
    x = cuarray.asarray(data((5, 6), np.float32))
    with pytest.raises(TypeError):
        cnd.gaussian_filter(np.ones((4, 4)), 1.0)  # host input
    with pytest.raises(RuntimeError):
        cnd.correlate1d(x, [1, 2], mode="bogus")
    with pytest.raises(ValueError):
        cnd.correlate1d(x, [1, 2, 3], origin=2)
    with pytest.raises(RuntimeError):
        cnd.correlate1d(x, [])
    with pytest.raises(TypeError):
        cnd.minimum_filter(cuarray.asarray(data((4, 4), np.complex64)), 3)
    with pytest.raises(RuntimeError):
        cnd.uniform_filter1d(x, 0)
    with pytest.raises(RuntimeError):
        cnd.median_filter(x)
    with pytest.raises(RuntimeError):
        cnd.rank_filter(x, 9, size=3)
    with pytest.raises(RuntimeError):
        cnd.gaussian_filter(x, 1.0, output=cuarray.empty((3, 3), np.float32))
    with pytest.raises(RuntimeError):
        cnd.gaussian_filter(cuarray.asarray(np.ones(5, np.float16)), 1.0)
    with pytest.raises(ValueError):
        cnd.minimum_filter(x, footprint=np.zeros((3, 3), bool))
    with pytest.raises(np.exceptions.AxisError):
        cnd.uniform_filter1d(x, 3, axis=2)


def test_repeated_filters_upload_their_tables_once(monkeypatch):
    """The weights of a repeated gaussian_filter (and label's / correlate's tables) are kept on the
    device (`_tables`): a second identical call uploads nothing, another sigma uploads its own, and a
    call from another thread (its own stream) reads a kept table correctly."""
    import threading

    from cuarray._core import transfer
    from cuarray.scipy.ndimage import _tables

    _tables.clear()
    x = data((64, 96), np.float32)
    ups = []
    real = transfer._h2d
    monkeypatch.setattr(transfer, "_h2d", lambda *a: ups.append(a[2]) or real(*a))
    for sigma in (2.0, 2.0, 3.0, 3.0):
        close(cnd.gaussian_filter(cuarray.asarray(x), sigma), snd.gaussian_filter(x, sigma))
    assert len(ups) == 4 + 2, ups  # four inputs, one weights table a sigma (both axes share it)
    m = data((40, 50), np.int32) > 20
    want = snd.label(m)
    got = []
    t = threading.Thread(target=lambda: got.append(cnd.label(cuarray.asarray(m))))
    t.start()
    t.join()
    assert np.array_equal(got[0][0].get(), want[0]) and int(got[0][1]) == want[1]
    got2 = cnd.label(cuarray.asarray(m))  # this thread, the tables the other thread kept
    assert np.array_equal(got2[0].get(), want[0])
