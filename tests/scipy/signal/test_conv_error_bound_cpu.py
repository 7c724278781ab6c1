"""conv_error_bound (the comparison of the GPU fftconvolve tests) without a device: SciPy's own
results in each precision (fftconvolve, convolve, correlate; every mode; the GPU tests' lengths)
pass it against the float64 reference, so it does not fail a correct FFT convolution, and what a
fault gives fails it: the result shifted by one sample, its largest output off by 1%, a
float64 result of float32 precision."""

import zlib

import numpy as np
import pytest
import scipy.signal as ss
from conv_error_bound import allowed_error, assert_conv_close  # tests/scipy/signal is on sys.path

# (test_signal_fftconv_gpu.py's lengths, less the longest two: the host's FFTs are slower)
LENGTHS = [(1000, 37), (37, 1000), (2500, 2500), (63, 2), (64, 1), (65, 1), (1, 300), (3001, 999), (343, 343),
           (40000, 300), (300, 40000), (17000, 2)]


def data(rng, n, dtype):
    x = rng.normal(size=n) * 3
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.normal(size=n)
    return x.astype(dtype)


@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize("dtype", [np.float32, np.complex64, np.float64, np.complex128])
def test_scipy_results_pass_and_faults_fail(request, mode, dtype):
    rng = np.random.default_rng(zlib.crc32(request.node.nodeid.encode()))
    for n, m in LENGTHS:
        a, b = data(rng, n, dtype), data(rng, m, dtype)

        def op(x, y):
            return ss.fftconvolve(x, y, mode)

        got = ss.fftconvolve(a, b, mode)
        assert got.dtype == dtype
        assert_conv_close(got, a, b, op, dtype)
        exact, allowed = allowed_error(a, b, op, dtype)
        if got.size > 1:
            with pytest.raises(AssertionError):
                assert_conv_close(np.roll(got, 1), a, b, op, dtype)
        k = int(np.argmax(np.abs(exact)))
        bad = got.copy()
        bad[k] += 1e-2 * abs(exact[k])
        with pytest.raises(AssertionError):
            assert_conv_close(bad, a, b, op, dtype)
        if np.finfo(dtype).bits == 64:  # float64 wanted, float32 precision given
            lo = np.complex64 if np.dtype(dtype).kind == "c" else np.float32
            with pytest.raises(AssertionError):
                assert_conv_close(ss.fftconvolve(a.astype(lo), b.astype(lo), mode).astype(dtype), a, b, op, dtype)


@pytest.mark.parametrize("fn", ["convolve", "correlate"])
@pytest.mark.parametrize("method", ["fft", "direct"])
def test_convolve_correlate_float32(request, fn, method):
    """SciPy's float32 convolve/correlate, by FFT and by direct sums (`direct=True` adds the
    direct sums' bound), pass; the shifted results fail."""
    rng = np.random.default_rng(zlib.crc32(request.node.nodeid.encode()))
    for mode in ("full", "same", "valid"):
        a, b = data(rng, 4000, np.float32), data(rng, 300, np.float32)

        def op(x, y):
            return getattr(ss, fn)(x, y, mode, "fft")

        got = getattr(ss, fn)(a, b, mode, method)
        assert_conv_close(got, a, b, op, np.float32, direct=method == "direct")
        with pytest.raises(AssertionError):
            assert_conv_close(np.roll(got, 1), a, b, op, np.float32, direct=method == "direct")


def test_the_cancelled_valid_output():
    """The case that made the old comparison (a tolerance relative to the largest output) flaky:
    one 'valid' output of 2500 products (terms of size ~10, ~1e4 in all), which cancels to a value
    far smaller (1.7 in the failed run). SciPy's float32 results pass; 1% of the terms' magnitude
    away does not."""
    rng = np.random.default_rng(7)
    for _ in range(20):
        a, b = data(rng, 2500, np.float32), data(rng, 2500, np.float32)

        def op(x, y):
            return ss.fftconvolve(x, y, "valid")

        exact, allowed = allowed_error(a, b, op, np.float32)
        got = ss.fftconvolve(a, b, "valid")
        assert_conv_close(got, a, b, op, np.float32)
        terms = float(np.dot(np.abs(a).astype(np.float64), np.abs(b[::-1]).astype(np.float64)))
        assert allowed[0] < 1e-2 * terms
        with pytest.raises(AssertionError):
            assert_conv_close(got + np.float32(1e-2 * terms), a, b, op, np.float32)
