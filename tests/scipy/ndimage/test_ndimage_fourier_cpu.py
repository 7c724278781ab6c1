"""ndimage's Fourier filters without a device (NumPy arrays for cuarray arrays) against scipy."""

import numpy as np
import pytest
import scipy.ndimage as snd


@pytest.fixture
def host_fourier(monkeypatch):
    from cuarray.scipy.ndimage import _fourier, _support

    monkeypatch.setattr(_support, "as_array", lambda x, fn: np.asarray(x))
    monkeypatch.setattr(_support, "ndarray", np.ndarray)
    monkeypatch.setattr(_support, "copyto_unchecked", lambda d, s: np.copyto(d, s, casting="unsafe"))
    monkeypatch.setattr(_fourier, "_from_host", np.asarray)
    from cuarray.scipy import ndimage

    return ndimage


RNG = np.random.default_rng(29)


@pytest.mark.parametrize("name,param", [("fourier_gaussian", [1.5, 0.7]), ("fourier_uniform", 2.5),
                                        ("fourier_shift", [2.5, -1.25])])
@pytest.mark.parametrize("dtype", ["complex128", "complex64", "float32", "float64", "int32"])
def test_fourier(host_fourier, name, param, dtype):
    x = np.fft.fft2(RNG.normal(size=(6, 7)))
    x = (x if dtype.startswith("complex") else x.real * 10).astype(dtype)
    ref = getattr(snd, name)(x, param)
    got = getattr(host_fourier, name)(x, param)
    assert got.dtype == ref.dtype
    np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-5)
    xr = np.fft.rfft(RNG.normal(size=(9, 4)), axis=0)
    for kw in [dict(n=9, axis=0), dict(n=4, axis=-1)]:
        np.testing.assert_allclose(getattr(host_fourier, name)(xr, param, **kw), getattr(snd, name)(xr, param, **kw),
                                   rtol=1e-12, atol=1e-12)
    out = np.empty((6, 7), np.complex128)
    assert getattr(host_fourier, name)(x, param, output=out) is out
    np.testing.assert_allclose(out, getattr(snd, name)(x, param, output=np.complex128), rtol=1e-5, atol=1e-5)
