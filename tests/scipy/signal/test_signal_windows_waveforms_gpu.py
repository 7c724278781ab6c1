"""signal.windows, get_window, the waveforms, the wavelets, vectorstrength and check_COLA/NOLA on
the device against scipy.signal on the host (SciPy 1.18 on the GPU machine). Fresh random data."""

import inspect
import re

import numpy as np
import pytest
import scipy.signal as ss
import scipy.signal.windows as sw

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
from cuarray.scipy import signal as cs  # noqa: E402
from cuarray.scipy.signal import windows as cw  # noqa: E402

RNG = np.random.default_rng()


def close(got, ref, tol=None):
    assert isinstance(got, cuarray.ndarray), type(got)
    ref = np.asarray(ref)
    assert got.dtype == ref.dtype and got.shape == ref.shape, (got.dtype, ref.dtype, got.shape, ref.shape)
    tol = tol or (2e-4 if ref.dtype.char in "fF" else 1e-9)
    np.testing.assert_allclose(got.get(), ref, rtol=tol, atol=tol * max(1.0, float(np.abs(ref).max(initial=0))))


PARAMS = {"kaiser": (3.0,), "kaiser_bessel_derived": (3.0,), "gaussian": (2.0,), "general_gaussian": (1.5, 2.0),
          "general_cosine": ([0.4, 0.5, 0.1],), "general_hamming": (0.6,), "chebwin": (60,), "dpss": (2.0,)}


@pytest.mark.parametrize("name", [n for n in sw.__all__ if n != "get_window"])
def test_windows(name):
    args = PARAMS.get(name, ())
    for M in (0, 1, 2, 7, 16, 33):
        for sym in (True, False):
            try:
                ref = getattr(sw, name)(M, *args, sym=sym)
            except ValueError:
                with pytest.raises(ValueError):
                    getattr(cw, name)(M, *args, sym=sym)
                continue
            close(getattr(cw, name)(M, *args, sym=sym), ref)
    assert inspect.signature(getattr(cw, name)) == inspect.signature(getattr(sw, name))


def test_window_parameters_and_get_window():
    for alpha in (0, 0.3, 1, 2):
        close(cw.tukey(21, alpha), sw.tukey(21, alpha))
    close(cw.exponential(12, 3, 2.0, sym=False), sw.exponential(12, 3, 2.0, sym=False))
    tapers, ratios = cw.dpss(32, 2.5, 3, return_ratios=True)
    rt, rr = sw.dpss(32, 2.5, 3, return_ratios=True)
    close(tapers, rt)
    close(ratios, rr)
    for spec in ("hann", "hann_periodic", "hamming_symmetric", "rect", "sinc", ("tukey", 0.3), ("kaiser", 4.0), 4.5,
                 ("gaussian", 3.0), ("general gaussian", 1.5, 4.0), ("chebwin", 50), ("dpss", 3.0), "taylor",
                 ("exponential", None, 2.0), ("kbd_symmetric", 2.0)):
        for N in (1, 8, 9):
            for fftbins in (True, False):
                try:  # (SciPy raises for Kaiser-Bessel derived windows of odd length, 1 included)
                    ref = ss.get_window(spec, N, fftbins)
                except ValueError as exc:
                    with pytest.raises(ValueError, match=re.escape(str(exc))):
                        cs.get_window(spec, N, fftbins)
                    continue
                close(cs.get_window(spec, N, fftbins), ref)
    with pytest.raises(ValueError):
        cs.get_window("nonesuch", 8)
    close(cs.get_window("hann", 8), ss.get_window("hann", 8))  # usable after an error
    assert cs.windows is cw and cs.get_window is cw.get_window


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64])
def test_sawtooth_square(dtype):
    t = (RNG.uniform(-30, 30, size=(3, 40)) * (10 if dtype == np.int64 else 1)).astype(dtype)
    d = cuarray.asarray(t)
    for w in (0, 0.3, 1, 1.5, RNG.uniform(0, 1, size=40)):
        wd = cuarray.asarray(w) if isinstance(w, np.ndarray) else w
        close(cs.sawtooth(d, wd), ss.sawtooth(t, w))
        close(cs.square(d, wd), ss.square(t, w))
    close(cs.sawtooth(d[:, ::3]), ss.sawtooth(t[:, ::3]))
    close(cs.square(d[:0]), ss.square(t[:0]))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_gausspulse_chirp_sweep_poly(dtype):
    t = np.linspace(-1e-3, 1e-3, 101).astype(dtype)
    # SciPy's `a` is a NumPy float64 (numpy.log of a float): the envelope exp(-a t^2) is float64
    # (t promoted), while cos/sin(2 pi fc t) are computed in t's dtype; so for float32 t the
    # float64 outputs yI and yQ carry a float32 factor: compared at the float32 tolerance
    for kw in ({}, {"retquad": True, "retenv": True}, {"retenv": True}):
        got, ref = cs.gausspulse(cuarray.asarray(t), **kw), ss.gausspulse(t, **kw)
        got, ref = (got if isinstance(got, tuple) else (got,)), (ref if isinstance(ref, tuple) else (ref,))
        for k, (g, r) in enumerate(zip(got, ref)):
            envelope = kw.get("retenv") and k == len(ref) - 1
            close(g, r, 2e-4 if dtype == np.float32 and not envelope else None)
    for tt in (np.arange(-3, 4), (np.linspace(-3, 3, 9) + 0.25j).astype(np.complex64)):  # integers, complex64
        got = cs.gausspulse(cuarray.asarray(tt), fc=0.2, retquad=True, retenv=True)
        ref = ss.gausspulse(tt, fc=0.2, retquad=True, retenv=True)
        for k, (g, r) in enumerate(zip(got, ref)):
            close(g, r, 2e-4 if tt.dtype == np.complex64 and k < 2 else None)
    assert cs.gausspulse("cutoff", 500, tpr=-40) == ss.gausspulse("cutoff", 500, tpr=-40)
    t = np.linspace(0, 10, 513).astype(dtype)
    d = cuarray.asarray(t)
    # float32 t: SciPy 1.18 computes the phase (hundreds of radians) in float32 and returns float64,
    # so the result is as exact as the float32 phase, not as its dtype
    tol = 1e-3 if dtype == np.float32 else None
    for method in ("linear", "quadratic", "logarithmic", "hyperbolic"):
        for vz in (True, False):
            close(cs.chirp(d, 6, 10, 1, method, 30, vz), ss.chirp(t, 6, 10, 1, method, 30, vz), tol)
        close(cs.chirp(d[::2], 2, 10, 3, method, complex=True), ss.chirp(t[::2], 2, 10, 3, method, complex=True), tol)
    for poly in ([1.0, 0.25, 2.0], np.poly1d([0.5, -1.0, 3.0, 1.0])):
        close(cs.sweep_poly(d, poly, 15), ss.sweep_poly(t, poly, 15))
    close(cs.chirp(d[:0], 1, 1, 2), ss.chirp(t[:0], 1, 1, 2))
    close(cs.chirp(d[:1], 1, 1, 2), ss.chirp(t[:1], 1, 1, 2))


def test_unit_impulse_max_len_seq():
    for args in ((5,), (5, "mid"), ((3, 4), (1, 2)), ((3, 4), 2), ((7,), None, np.complex64)):
        close(cs.unit_impulse(*args), ss.unit_impulse(*args))
    for nbits, kw in ((3, {}), (10, {"length": 100}), (5, {"state": np.array([1, 0, 1, 1, 0])}), (7, {"taps": [6]})):
        got, ref = cs.max_len_seq(nbits, **kw), ss.max_len_seq(nbits, **kw)
        close(got[0], ref[0])
        close(got[1], ref[1])


def test_wavelets_and_cwt():
    x = RNG.normal(size=300)
    np.testing.assert_allclose(cs.qmf(cuarray.asarray(x[:7])).get(), x[:7][::-1] * np.array([1, -1, 1, -1, 1, -1, 1]))
    for points, a in ((1, 1.0), (10, 4.0), (101, 7.5)):
        v = np.arange(points) - (points - 1) / 2
        ref = 2 / (np.sqrt(3 * a) * np.pi ** 0.25) * (1 - (v / a) ** 2) * np.exp(-v ** 2 / (2 * a * a))
        close(cs.ricker(points, a), ref)
    v = (np.arange(64) - 31.5) / 4.0
    close(cs.morlet2(64, 4.0, 6.0), np.pi ** -0.25 * np.exp(6j * v) * np.exp(-v ** 2 / 2) / 2.0)
    v = np.linspace(-4 * np.pi, 4 * np.pi, 33)
    close(cs.morlet(33, 5.0, 2.0), (np.exp(5j * v) - np.exp(-12.5)) * np.exp(-v ** 2 / 2) * np.pi ** -0.25)
    out = cs.cwt(cuarray.asarray(x), cs.ricker, [1.0, 3.5, 40.0])
    for row, width in zip(range(3), (1.0, 3.5, 40.0)):
        n = int(min(10 * width, 300))
        v = np.arange(n) - (n - 1) / 2
        w = 2 / (np.sqrt(3 * width) * np.pi ** 0.25) * (1 - (v / width) ** 2) * np.exp(-v ** 2 / (2 * width ** 2))
        close(out[row], ss.convolve(x, w[::-1], "same"))
    assert cs.cwt(cuarray.asarray(x), cs.morlet2, [2.0], w=6).dtype == np.complex128


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_vectorstrength_cola(dtype):
    events = RNG.uniform(0, 50, size=500).astype(dtype)
    d = cuarray.asarray(events)
    for period in (1.0, np.array([0.5, 1.0, 7.0], dtype)):
        p = cuarray.asarray(period) if isinstance(period, np.ndarray) else period
        got, ref = cs.vectorstrength(d, p), ss.vectorstrength(events, period)
        close(got[0], np.asarray(ref[0]), 1e-3 if dtype == np.float32 else 1e-9)
        close(got[1], np.asarray(ref[1]), 1e-3 if dtype == np.float32 else 1e-9)
    with pytest.raises(ValueError, match="periods must be positive"):
        cs.vectorstrength(d, cuarray.asarray([1.0, -1.0]))
    win = cuarray.asarray(sw.hann(64, sym=False))
    assert cs.check_COLA(win, 64, 32) == ss.check_COLA(sw.hann(64, sym=False), 64, 32)
    assert cs.check_NOLA("hann", 64, 16) == ss.check_NOLA("hann", 64, 16)


# SciPy's documented examples for these names, with `np` for cuarray and `signal` for cuarray's
def test_scipy_documented_examples():
    np_, signal = cuarray, cs
    t = np_.linspace(-1, 1, 2 * 100, endpoint=False)
    i, q, e = signal.gausspulse(t, fc=5, retquad=True, retenv=True)
    close(i, ss.gausspulse(np.linspace(-1, 1, 200, endpoint=False), fc=5))
    t = np_.linspace(0, 10, 1500)
    close(signal.chirp(t, f0=6, f1=1, t1=10, method="linear"), ss.chirp(np.linspace(0, 10, 1500), 6, 10, 1))
    t = np_.linspace(0, 1, 500)
    close(signal.sawtooth(2 * np_.pi * 5 * t), ss.sawtooth(2 * np.pi * 5 * np.linspace(0, 1, 500)))
    close(signal.square(2 * np_.pi * 5 * t), ss.square(2 * np.pi * 5 * np.linspace(0, 1, 500)))
    p = np.poly1d([0.025, -0.36, 1.25, 2.0])
    close(signal.sweep_poly(np_.linspace(0, 10, 5001), p), ss.sweep_poly(np.linspace(0, 10, 5001), p))
    close(signal.unit_impulse(8), ss.unit_impulse(8))
    close(signal.unit_impulse(7, 2), ss.unit_impulse(7, 2))
    close(signal.unit_impulse((3, 3)), ss.unit_impulse((3, 3)))
    close(signal.unit_impulse((4, 4), 2), ss.unit_impulse((4, 4), 2))
    close(signal.max_len_seq(6)[0], ss.max_len_seq(6)[0])
    close(signal.windows.hann(51), sw.hann(51))
    close(signal.windows.kaiser(51, beta=14), sw.kaiser(51, beta=14))
    close(signal.windows.dpss(512, 2.5, 3), sw.dpss(512, 2.5, 3))
    close(signal.windows.chebwin(51, at=100), sw.chebwin(51, at=100))
    close(signal.windows.taylor(51, nbar=20, sll=100, norm=False), sw.taylor(51, nbar=20, sll=100, norm=False))
    close(signal.windows.kaiser_bessel_derived(100, beta=8), sw.kaiser_bessel_derived(100, beta=8))
    close(signal.windows.general_cosine(1000, [0.21557895, 0.41663158, 0.277263158, 0.083578947, 0.006947368],
                                        sym=False), sw.general_cosine(
        1000, [0.21557895, 0.41663158, 0.277263158, 0.083578947, 0.006947368], sym=False))
    close(signal.get_window("triang", 7), ss.get_window("triang", 7))
    close(signal.get_window(("kaiser", 4.0), 9), ss.get_window(("kaiser", 4.0), 9))
    close(signal.get_window(("exponential", None, 1.0), 9), ss.get_window(("exponential", None, 1.0), 9))
    close(signal.get_window(4.0, 9), ss.get_window(4.0, 9))
    assert signal.check_COLA(signal.windows.boxcar(100), 100, 75) == ss.check_COLA(sw.boxcar(100), 100, 75)
    assert signal.check_NOLA(signal.windows.hann(256), 256, 128) == ss.check_NOLA(sw.hann(256), 256, 128)
    s, ph = signal.vectorstrength(np_.array([0.1, 1.1, 2.3, 3.2]), 1.0)
    rs, rph = ss.vectorstrength(np.array([0.1, 1.1, 2.3, 3.2]), 1.0)
    close(s, np.asarray(rs))
    close(ph, np.asarray(rph))
