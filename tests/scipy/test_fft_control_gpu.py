"""cuarray.scipy.fft on the GPU: fftfreq/rfftfreq's device result (SciPy's `xp` default is NumPy,
cuarray's is cuarray), and cuarray.scipy.fft as a scipy.fft backend: scipy.fft's calls on cuarray
arrays (the FFTs, the DCT/DST family, fht) run on cuFFT and give SciPy's values."""

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
from cuarray.scipy import fft as cfft  # noqa: E402

G = cuarray.asarray


@pytest.mark.parametrize("name", ["fftfreq", "rfftfreq"])
@pytest.mark.parametrize("n, d", [(1, 1.0), (8, 0.1), (9, 2.5), (1000, 1e-3)])
def test_freq_on_the_device(name, n, d):
    for kwargs in ({}, {"xp": cuarray}, {"xp": cuarray, "device": None}):
        got = getattr(cfft, name)(n, d, **kwargs)
        assert isinstance(got, cuarray.ndarray)
        want = getattr(sfft, name)(n, d)
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got.get(), want, rtol=1e-15)


@pytest.mark.parametrize("name, args", [("fft", ()), ("ifft", ()), ("rfft", ()), ("fftn", ()), ("dct", ()),
                                        ("idst", ()), ("dctn", ()), ("dct", (3,))])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128], ids=lambda d: np.dtype(d).name)
def test_scipy_fft_dispatches_to_cuarray(name, args, dtype):
    rng = np.random.default_rng(5)
    x = rng.normal(size=(6, 40)).astype(dtype)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.normal(size=x.shape)
    if name == "rfft" and np.dtype(dtype).kind == "c":
        pytest.skip("rfft takes real input")
    want = getattr(sfft, name)(x, *args)
    with sfft.set_backend(cfft):
        got = getattr(sfft, name)(G(x), *args)
    with cfft.set_backend(cfft, only=True):   # the same through cuarray's own set_backend
        got2 = getattr(sfft, name)(G(x), *args)
    assert isinstance(got, cuarray.ndarray) and isinstance(got2, cuarray.ndarray)
    tol = 1e-4 if np.dtype(dtype) == np.float32 else 1e-10
    np.testing.assert_allclose(got.get(), want, rtol=tol, atol=tol * np.abs(want).max())
    np.testing.assert_allclose(got2.get(), want, rtol=tol, atol=tol * np.abs(want).max())


def test_fht_dispatches_and_workers_change_nothing():
    r = np.logspace(-2, 2, 64)
    a = r ** 1.5 * np.exp(-r ** 2 / 2)
    dln = np.log(r[1] / r[0])
    want = sfft.fht(a, dln, mu=0.5)
    with sfft.set_backend(cfft), cfft.set_workers(8):
        got = sfft.fht(G(a), dln, mu=0.5)
        assert cfft.get_workers() == 8
        direct = cfft.fft(G(a))
    np.testing.assert_allclose(got.get(), want, rtol=1e-9, atol=1e-12 * np.abs(want).max())
    np.testing.assert_allclose(direct.get(), np.fft.fft(a), rtol=1e-10, atol=1e-12)
