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
