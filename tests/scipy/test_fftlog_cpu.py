"""cuarray.scipy.fft's fast Hankel transform without a GPU: signatures, the coefficients and
fhtoffset against SciPy's, and the transform's steps with NumPy standing in for the device
(rfft/irfft/flip) against scipy.fft.fht/ifht."""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest

sfft = pytest.importorskip("scipy.fft")

from cuarray.scipy import _fftlog  # noqa: E402
import cuarray.scipy.fft as cfft  # noqa: E402
from cuarray.testing.fake_device import from_np, host_module, to_np  # noqa: E402

CASES = [(0.0, 0.0, 0.0), (1.5, 0.3, 0.2), (-0.5, -0.7, 1.0), (2.0, 0.0, -0.4)]


@pytest.mark.parametrize("name", ["fht", "ifht", "fhtoffset"])
def test_signature_is_scipys(name):
    assert inspect.signature(getattr(cfft, name)) == inspect.signature(getattr(sfft, name))


@pytest.mark.parametrize("mu,bias,offset", CASES)
def test_coefficients_and_offset(mu, bias, offset):
    from scipy.fft import _fftlog_backend as backend  # SciPy's own coefficients, the oracle

    for n in (1, 7, 8, 128):
        for inverse in (False, True):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                got = _fftlog._coefficients(n, 0.1, mu, offset, bias, inverse)
                want = backend.fhtcoeff(n, 0.1, mu, offset=offset, bias=bias, inverse=inverse)
            np.testing.assert_allclose(got, want, rtol=1e-13, atol=0)
    assert cfft.fhtoffset(0.1, mu, initial=offset, bias=bias) == pytest.approx(
        sfft.fhtoffset(0.1, mu, initial=offset, bias=bias), rel=1e-14, abs=1e-15)


@pytest.fixture(scope="module")
def numpy_fftlog():
    """`_fftlog` with NumPy in place of cuarray's routines (a private copy: cuarray's is untouched);
    host-backed cuarray arrays (`from_np`) stand for device scalar parameters."""
    return host_module(_fftlog, {"as_array": lambda a, fn=None: np.asarray(a), "from_host": np.asarray,
                                 "rfft": np.fft.rfft, "irfft": np.fft.irfft, "flip": np.flip, "conj": np.conj,
                                 "exp": np.exp, "arange": np.arange, "to_host": to_np})


@pytest.mark.parametrize("mu,bias,offset", CASES)
@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["f8", "f4"])
def test_transform_steps_on_numpy(numpy_fftlog, mu, bias, offset, dtype):
    # numpy.fft keeps float32 as complex64 like scipy.fft (NumPy 2)
    a = np.random.default_rng(1).random((3, 64)).astype(dtype)
    got = numpy_fftlog.fht(a, 0.05, mu, offset=offset, bias=bias)
    want = sfft.fht(a, 0.05, mu, offset=offset, bias=bias)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-4 if dtype == np.float32 else 1e-10, atol=1e-6)
    back = numpy_fftlog.ifht(want, 0.05, mu, offset=offset, bias=bias)
    np.testing.assert_allclose(back, sfft.ifht(want, 0.05, mu, offset=offset, bias=bias),
                               rtol=1e-4 if dtype == np.float32 else 1e-10, atol=1e-6)


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint16, np.float16, np.float64],
                         ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("bias", [0.0, 0.8])
def test_parameters_as_device_scalars(numpy_fftlog, dtype, bias):
    # cupyx passes dln = log(r[1] / r[0]) of a device r: a 0-d device array SciPy sees as a float
    r = np.logspace(-4, 4, 10)
    a = (r ** 1.3 * np.exp(-r ** 2 / 2)).astype(dtype)
    dln = np.log(r[1] / r[0])
    mod = numpy_fftlog
    offset = mod.fhtoffset(from_np(np.array(dln)), 0.3, bias=from_np(np.array(bias)))
    assert offset == pytest.approx(sfft.fhtoffset(dln, 0.3, bias=bias), rel=1e-14, abs=1e-15)
    for name in ("fht", "ifht"):
        got = getattr(mod, name)(a, from_np(np.array(dln)), from_np(np.array(0.3)), offset=offset, bias=bias)
        want = getattr(sfft, name)(a, dln, 0.3, offset=offset, bias=bias)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5 * np.abs(want).max())
