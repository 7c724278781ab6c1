"""1-D `fftconvolve` (and `convolve`/`correlate` through it) on the device's fused path
(cuarray/_math/fft_convolve.py: one batched forward FFT, the product kernel, an unprotected C2R)
against scipy.signal on the host: every mode, real and complex dtypes and their mixes, integer
input, operands of either order, odd and even (7-smooth) FFT lengths, non-contiguous views, the
lengths around the path's switch. Random data seeded by the test's id; each result within the
forward-error bound of an FFT convolution in its precision against a float64 reference
(conv_error_bound.py: a bound at every output, not a tolerance relative to the largest)."""

import zlib

import numpy as np
import pytest
import scipy.signal as ss
from conv_error_bound import assert_conv_close  # tests/scipy/signal is on sys.path

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
from cuarray.scipy import signal as cs  # noqa: E402


@pytest.fixture
def rng(request):
    return np.random.default_rng(zlib.crc32(request.node.nodeid.encode()))


def data(rng, n, dtype):
    x = rng.normal(size=n) * 3
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.normal(size=n)
    return np.round(x).astype(dtype) if np.dtype(dtype).kind in "iu" else x.astype(dtype)


def check(got, a, b, op, dtype, direct=False):
    """`got` is op(a, b) (op: SciPy's call on the host, its mode bound) in `dtype` (SciPy's result
    dtype), within the error bound of its precision against the float64 reference."""
    assert isinstance(got, cuarray.ndarray)
    assert got.dtype == dtype, (got.dtype, dtype)
    assert_conv_close(got.get(), a, b, op, dtype, direct)


def fftconv(mode, axes=None):
    return lambda x, y: ss.fftconvolve(x, y, mode, axes=axes)


LENGTHS = [(1000, 37), (37, 1000), (2500, 2500), (63, 2), (64, 1), (65, 1), (1, 300), (3001, 999), (343, 343),
           (40000, 300), (300, 40000), (50001, 1025), (17000, 2)]  # (the last four: overlap-save blocks)
DTYPES = [(np.float32, np.float32), (np.float64, np.float64), (np.complex64, np.complex64),
          (np.complex128, np.complex128), (np.float32, np.float64), (np.float32, np.complex64),
          (np.int32, np.int32), (np.int16, np.float32)]


@pytest.mark.parametrize("blocks", [False, True])
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize("d1,d2", DTYPES)
def test_fftconvolve_1d(rng, mode, d1, d2, blocks, monkeypatch):
    if blocks:  # overlap-save wherever four blocks fit (the default threshold: 2^21 samples)
        from cuarray._math import fft_convolve

        monkeypatch.setattr(fft_convolve, "BLOCKS_MIN", 0)
    for n1, n2 in LENGTHS:
        a, b = data(rng, n1, d1), data(rng, n2, d2)
        # SciPy's result dtype, the precision of the bound (SciPy itself transforms a float32 operand
        # in single precision even where the result is float64: int16 with float32, float32 with
        # float64; the reference is float64)
        dt = ss.fftconvolve(a, b, mode).dtype
        check(cs.fftconvolve(cuarray.asarray(a), cuarray.asarray(b), mode), a, b, fftconv(mode), dt)


@pytest.mark.parametrize("dtype", [np.float32, np.complex128])
def test_fftconvolve_1d_views_and_axes(rng, dtype):
    a, b = data(rng, 3000, dtype), data(rng, 401, dtype)
    da, db = cuarray.asarray(a), cuarray.asarray(b)
    check(cs.fftconvolve(da[::3], db[::-2], "same"), a[::3], b[::-2], fftconv("same"), dtype)
    check(cs.fftconvolve(da[5:], db, axes=0), a[5:], b, fftconv("full", 0), dtype)
    check(cs.fftconvolve(da, db, axes=[-1], mode="valid"), a, b, fftconv("valid", [-1]), dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64])
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
def test_convolve_correlate_long_kernels(rng, dtype, mode):
    a, b = data(rng, 20000, dtype), data(rng, 1500, dtype)
    for method in ("fft", "auto"):  # ('auto' may take direct sums: their bound too)
        for fn in ("convolve", "correlate"):
            check(getattr(cs, fn)(cuarray.asarray(a), cuarray.asarray(b), mode, method), a, b,
                  lambda x, y: getattr(ss, fn)(x, y, mode, "fft"), dtype, direct=method == "auto")


@pytest.mark.parametrize("mode", ["full", "same", "valid"])
def test_fftconvolve_long_signal_default_plan(rng, mode):
    """A signal past the overlap-save threshold (2^21 samples) with the default plan."""
    a, b = data(rng, (1 << 21) + 77, np.float64), data(rng, 700, np.float64)
    check(cs.fftconvolve(cuarray.asarray(a), cuarray.asarray(b), mode), a, b, fftconv(mode), np.float64)
    check(cs.convolve(cuarray.asarray(b), cuarray.asarray(a), mode), b, a,
          lambda x, y: ss.convolve(x, y, mode, "fft"), np.float64)
