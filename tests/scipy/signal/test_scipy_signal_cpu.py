"""scipy.signal convolution and filtering without a device: the public functions with NumPy arrays
for cuarray arrays, numpy.fft for cuarray.fft and the ndimage kernels replaced by the NumPy models
of tests/scipy/ndimage/test_ndimage_filters_cpu.py, against scipy.signal (fixtures in conftest.py)."""

import numpy as np
import pytest
import scipy.signal as ss
from conv_error_bound import check_direct_modes  # tests/scipy/signal is on sys.path

RNG = np.random.default_rng(7)


def close(got, ref, tol=1e-9):
    assert got.dtype == ref.dtype and got.shape == ref.shape, (got.dtype, ref.dtype, got.shape, ref.shape)
    if ref.dtype.kind in "iub":
        np.testing.assert_array_equal(got, ref)
    else:
        np.testing.assert_allclose(got, ref, rtol=tol, atol=tol * max(1.0, float(np.abs(ref).max(initial=0))))


def data(shape, dtype):
    x = RNG.normal(size=shape) * 5
    if np.dtype(dtype).kind == "c":
        x = x + 1j * RNG.normal(size=shape)
    return x.astype(dtype) if np.dtype(dtype).kind != "i" else np.round(x).astype(dtype)


SHAPES = [((20,), (5,)), ((7,), (12,)), ((9, 8), (3, 4)), ((4, 6), (5, 2)), ((6, 5, 4), (2, 3, 3))]


@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize("method", ["direct", "fft"])
@pytest.mark.parametrize("dtype", ["float64", "complex128", "int64", "float32"])
@pytest.mark.parametrize("s1,s2", SHAPES)
@pytest.mark.parametrize("fn", ["convolve", "correlate"])
def test_convolve_correlate(host_signal, fn, s1, s2, dtype, method, mode):
    a, b = data(s1, dtype), data(s2, dtype)
    try:
        ref = getattr(ss, fn)(a, b, mode, method)
    except ValueError:
        with pytest.raises(ValueError):
            getattr(host_signal, fn)(a, b, mode, method)
        return
    got = getattr(host_signal, fn)(a, b, mode, method)
    close(got, ref, 1e-5 if dtype == "float32" else 1e-9)


@pytest.mark.parametrize("dtypes", [("bool", "bool"), ("float16", "float16"), ("bool", "float16"), ("bool", "int8"),
                                    ("float16", "float32")])
@pytest.mark.parametrize("s1,s2", [SHAPES[0], SHAPES[1], SHAPES[2], SHAPES[4]])
def test_direct_bool_and_float16(host_signal, s1, s2, dtypes):
    # SciPy's direct sums past np.correlate's cases (N-D; 1-D 'same' with in2 longer) have no bool
    # or float16 loop: ValueError, as cupyx expects
    a, b = data(s1, dtypes[0]), data(s2, dtypes[1])
    check_direct_modes(a, b, lambda fn, mode: getattr(host_signal, fn)(a, b, mode, "direct"),
                       lambda got, ref: close(got, ref, 1e-3))


@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize("s1,s2", SHAPES + [((5, 1, 7), (1, 4, 3))])
def test_fftconvolve(host_signal, s1, s2, mode):
    a, b = data(s1, "float64"), data(s2, "float64")
    try:
        ref = ss.fftconvolve(a, b, mode)
    except ValueError:
        with pytest.raises(ValueError):
            host_signal.fftconvolve(a, b, mode)
        return
    close(host_signal.fftconvolve(a, b, mode), ref)
    if len(s1) > 1:
        close(host_signal.fftconvolve(a, b, mode, axes=-1), ss.fftconvolve(a, b, mode, axes=-1)) \
            if all(x == y or x == 1 or y == 1 for x, y in zip(s1[:-1], s2[:-1])) else None


@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize("boundary", ["fill", "wrap", "symm"])
@pytest.mark.parametrize("fn", ["convolve2d", "correlate2d"])
@pytest.mark.parametrize("s2", [(3, 3), (2, 5), (4, 1), (12, 11)])
def test_2d(host_signal, fn, s2, boundary, mode):
    a = data((9, 10), "float64")
    b = data(s2, "float64")
    try:
        ref = getattr(ss, fn)(a, b, mode, boundary, fillvalue=1.5)
    except ValueError:
        with pytest.raises(ValueError):
            getattr(host_signal, fn)(a, b, mode, boundary, fillvalue=1.5)
        return
    close(getattr(host_signal, fn)(a, b, mode, boundary, fillvalue=1.5), ref)


def test_fftconvolve_empty(host_signal):
    got = host_signal.fftconvolve(np.ones((0, 3)), np.ones((2, 2)))
    ref = ss.fftconvolve(np.ones((0, 3)), np.ones((2, 2)))
    assert got.shape == ref.shape and got.dtype == ref.dtype


def test_correlation_lags(host_signal):
    for n1, n2 in [(10, 3), (3, 10), (7, 7), (8, 3)]:
        for mode in ("full", "same", "valid"):
            np.testing.assert_array_equal(host_signal.correlation_lags(n1, n2, mode), ss.correlation_lags(n1, n2, mode))


@pytest.mark.parametrize("dtype", ["float64", "float32", "int32", "uint8"])
def test_medfilt(host_signal, dtype):
    x = np.abs(data((11, 13), "float64") * 10).astype(dtype)
    close(host_signal.medfilt(x, [3, 5]), ss.medfilt(x, [3, 5]))
    close(host_signal.medfilt2d(x, 3), ss.medfilt2d(x, 3))
    y = x[0]
    close(host_signal.medfilt(y, 5), ss.medfilt(y, 5))


def test_wiener_hilbert_detrend(host_signal):
    x = data((16, 15), "float64")
    close(host_signal.wiener(x), ss.wiener(x))
    close(host_signal.wiener(x, [3, 5], noise=2.0), ss.wiener(x, [3, 5], noise=2.0))
    y = data((3, 31), "float64")
    close(host_signal.hilbert(y), ss.hilbert(y))
    close(host_signal.hilbert(y, N=40, axis=-1), ss.hilbert(y, N=40, axis=-1))
    close(host_signal.hilbert(y.T, axis=0), ss.hilbert(y.T, axis=0))
    close(host_signal.hilbert(y.astype(np.float32)), ss.hilbert(y.astype(np.float32)), 1e-5)  # stays complex64
    close(host_signal.hilbert2(x.astype(np.float32)), ss.hilbert2(x.astype(np.float32)), 1e-5)
    close(host_signal.hilbert2(x), ss.hilbert2(x))
    close(host_signal.hilbert2(x, N=(20, 17)), ss.hilbert2(x, N=(20, 17)))
    for t in ("linear", "constant"):
        close(host_signal.detrend(y, type=t), ss.detrend(y, type=t))
        close(host_signal.detrend(y, axis=0, type=t), ss.detrend(y, axis=0, type=t))
    close(host_signal.detrend(y, bp=[7, 20]), ss.detrend(y, bp=[7, 20]))
    yi = np.round(y * 3).astype(np.int32)
    close(host_signal.detrend(yi), ss.detrend(yi))
