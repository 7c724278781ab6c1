"""cuarray.scipy.fft.fht/ifht on the GPU against scipy.fft on the host."""

from __future__ import annotations

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

sfft = pytest.importorskip("scipy.fft")

import cuarray  # noqa: E402
import cuarray.scipy.fft as cfft  # noqa: E402


@pytest.mark.parametrize("mu,bias,offset", [(0.0, 0.0, 0.0), (1.5, 0.3, 0.2), (-0.5, -0.7, 1.0)])
@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["f8", "f4"])
def test_fht_ifht(mu, bias, offset, dtype):
    a = np.random.default_rng(2).random((4, 129)).astype(dtype)
    tol = 1e-4 if dtype == np.float32 else 1e-10
    got = cfft.fht(cuarray.asarray(a), 0.05, mu, offset=offset, bias=bias)
    want = sfft.fht(a, 0.05, mu, offset=offset, bias=bias)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got.get(), want, rtol=tol, atol=1e-6)
    back = cfft.ifht(cuarray.asarray(want), 0.05, mu, offset=offset, bias=bias)
    np.testing.assert_allclose(back.get(), sfft.ifht(want, 0.05, mu, offset=offset, bias=bias), rtol=tol, atol=1e-6)
    one = cfft.fht(cuarray.asarray(a[0]), 0.05, mu, offset=offset, bias=bias)
    np.testing.assert_allclose(one.get(), sfft.fht(a[0], 0.05, mu, offset=offset, bias=bias), rtol=tol, atol=1e-6)


REAL_DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.uint32, np.int64, np.float16, np.float32, np.float64]


@pytest.mark.parametrize("dtype", REAL_DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("bias", [0.0, 0.8])
@pytest.mark.parametrize("name", ["fht", "ifht"])
def test_every_real_dtype_and_device_parameters(dtype, bias, name):
    # cupyx's test: dln as a device 0-d array (log of a device ratio), offset from fhtoffset
    r = np.logspace(-4, 4, 10)
    full = np.stack([r ** 1.3 * np.exp(-r ** 2 / 2)] * 6).astype(dtype)
    a, d_a = full[::2, ::-1], cuarray.asarray(full)[::2, ::-1]  # strided views
    dln = np.log(r[1] / r[0])
    d_dln = cuarray.log(cuarray.asarray(r[1]) / cuarray.asarray(r[0]))
    for offset, d_offset in ((0.1, 0.1), (sfft.fhtoffset(dln, 0.3, bias=bias), cfft.fhtoffset(d_dln, 0.3, bias=bias))):
        want = getattr(sfft, name)(a, dln, 0.3, offset=offset, bias=bias)
        got = getattr(cfft, name)(d_a, d_dln, 0.3, offset=d_offset, bias=bias)
        assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, want.dtype)
        tol = 1e-5 if want.dtype == np.float32 else 1e-12  # relative to the largest value: FFT rounding
        np.testing.assert_allclose(got.get(), want, rtol=tol, atol=tol * np.abs(want).max(),
                                   err_msg="{} of {} (bias {}, offset {})".format(name, np.dtype(dtype), bias, offset))
