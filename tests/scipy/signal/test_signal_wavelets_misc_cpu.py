"""The wavelets SciPy removed in 1.15 (against SciPy 1.14's documented formulas and properties,
CuPy's signatures), `vectorstrength` over NumPy stand-ins against scipy.signal, and
`check_COLA`/`check_NOLA` (SciPy's on the host)."""

import inspect

import numpy as np
import pytest

ss = pytest.importorskip("scipy.signal")

from cuarray.scipy import signal as cs  # noqa: E402
from cuarray.scipy.signal import _vectorstrength_cola as V  # noqa: E402
from cuarray.scipy.signal import _wavelets as Wv  # noqa: E402
from cuarray.testing.fake_device import host_packages  # noqa: E402

RNG = np.random.default_rng(17)


def _astype(x, dt, copy=True, order="K"):
    return np.asarray(x).astype(dt, copy=copy)


@pytest.fixture(scope="module")
def host():
    """scipy.signal's private copy (every module of it: nothing of cuarray patched), NumPy for the
    device in the wavelets and vector strength."""
    return host_packages([cs], {
        Wv: dict(_data=lambda x, fn: np.asarray(x), _device_param=lambda x, fn: np.asarray(x), _from_host=np.asarray,
                 _empty=np.empty, _arange=np.arange,
                 _linspace=np.linspace, _conj=np.conj, _exp=np.exp, _convolve=ss.convolve, ndarray=np.ndarray),
        V: dict(_data=lambda x, fn: np.asarray(x), _device_param=lambda x, fn: np.asarray(x), _astype=_astype,
                _any=np.any, _angle=np.angle, _exp=np.exp, _abs=np.abs, _mean=np.mean, ndarray=np.ndarray)})[cs]


def test_ricker_morlet_formulas(host):
    # SciPy 1.14's definitions (docs): ricker A (1 - (x/a)^2) exp(-x^2 / 2a^2), A = 2 / (sqrt(3a) pi^(1/4))
    for points, a in ((1, 1.0), (10, 4.0), (101, 7.5)):
        x = np.arange(points) - (points - 1) / 2
        ref = 2 / (np.sqrt(3 * a) * np.pi ** 0.25) * (1 - (x / a) ** 2) * np.exp(-x ** 2 / (2 * a * a))
        np.testing.assert_allclose(host.ricker(points, a), ref, rtol=1e-13, atol=1e-15)
    w = host.ricker(1001, 10.0)
    assert abs(w.sum()) < 1e-6 * np.abs(w).sum()  # zero mean
    for M, s, w0 in ((8, 2.0, 5.0), (64, 4.0, 6.0)):
        x = (np.arange(M) - (M - 1) / 2) / s
        ref = np.pi ** -0.25 * np.exp(1j * w0 * x) * np.exp(-x ** 2 / 2) / np.sqrt(s)
        np.testing.assert_allclose(host.morlet2(M, s, w0), ref, rtol=1e-13, atol=1e-15)
    for complete in (True, False):
        x = np.linspace(-4 * np.pi, 4 * np.pi, 33)
        ref = (np.exp(5j * x) - (np.exp(-12.5) if complete else 0)) * np.exp(-x ** 2 / 2) * np.pi ** -0.25
        np.testing.assert_allclose(host.morlet(33, 5.0, 2.0, complete), ref, rtol=1e-13, atol=1e-15)


def test_qmf(host):
    h = RNG.normal(size=7)
    np.testing.assert_array_equal(host.qmf(h), h[::-1] * np.array([1, -1, 1, -1, 1, -1, 1]))


def test_cwt(host):
    x = RNG.normal(size=200)
    widths = [1.0, 3.5, 30.0]
    out = host.cwt(x, host.ricker, widths)
    assert out.dtype == np.float64 and out.shape == (3, 200)
    for row, width in zip(out, widths):
        n = int(min(10 * width, 200))
        np.testing.assert_allclose(row, ss.convolve(x, host.ricker(n, width)[::-1], "same"), rtol=1e-12)
    outc = host.cwt(x, host.morlet2, [2.0, 8.0], w=6)
    assert outc.dtype == np.complex128
    np.testing.assert_allclose(outc[1], ss.convolve(x, np.conj(host.morlet2(80, 8.0, w=6)[::-1]), "same"),
                               rtol=1e-12)
    assert host.cwt(x, host.ricker, [2.0], dtype=np.float32).dtype == np.float32


@pytest.mark.parametrize("events_dt", [np.float64, np.float32, np.int64])
def test_vectorstrength(host, events_dt):
    events = (RNG.uniform(0, 50, size=300)).astype(events_dt)
    for period in (1.0, 3, np.float32(2.5), np.array([0.5, 1.0, 7.0]), np.array([2.0, 3.0], np.float32),
                   np.array([4, 5])):
        got, ref = host.vectorstrength(events, period), ss.vectorstrength(events, period)
        for g, r in zip(got, ref):
            g, r = np.asarray(g), np.asarray(r)
            assert g.dtype == r.dtype and g.shape == r.shape, (g.dtype, r.dtype, g.shape, r.shape)
            np.testing.assert_allclose(g, r, rtol=1e-4 if r.dtype == np.float32 else 1e-10, atol=1e-6)
    for bad in ((np.ones((2, 2)), 1.0), (np.ones(3), np.ones((2, 2))), (np.ones(3), 0.0), (np.ones(3), [1.0, -1.0])):
        with pytest.raises(ValueError) as exc:
            ss.vectorstrength(*bad)
        with pytest.raises(ValueError) as got:
            host.vectorstrength(*bad)
        assert str(got.value) == str(exc.value)


def test_check_cola_nola():
    for args in (("hann", 120, 60), ("hann", 120, 30), (("tukey", 0.25), 64, 16), ("boxcar", 10, 0), ("bartlett", 7, 3),
                 (np.ones(16), 16, 4)):
        assert cs.check_COLA(*args) == ss.check_COLA(*args)
        assert cs.check_NOLA(*args) == ss.check_NOLA(*args)
    for args in (("hann", 0, 0), ("hann", 10, 10), (np.ones(5), 6, 2), (np.ones((2, 3)), 3, 1)):
        with pytest.raises(ValueError):
            cs.check_COLA(*args)
    with pytest.raises(ValueError):
        cs.check_NOLA("hann", 10, -1)


# SciPy 1.14's (and cupyx.scipy.signal's) signatures of the names SciPy 1.15 removed
REMOVED = {"cwt": "(data, wavelet, widths, dtype=None, **kwargs)", "morlet": "(M, w=5.0, s=1.0, complete=True)",
           "morlet2": "(M, s, w=5)", "ricker": "(points, a)", "qmf": "(hk)"}


@pytest.mark.parametrize("name", sorted(REMOVED))
def test_removed_names_keep_scipy_1_14_signatures(name):
    assert str(inspect.signature(getattr(cs, name))) == REMOVED[name]
    if hasattr(ss, name):  # (SciPy 1.18 has none of them; should one come back, it is the oracle)
        assert inspect.signature(getattr(cs, name)) == inspect.signature(getattr(ss, name))


@pytest.mark.parametrize("name", ["vectorstrength", "check_COLA", "check_NOLA"])
def test_signatures_are_scipys(name):
    assert inspect.signature(getattr(cs, name)) == inspect.signature(getattr(ss, name))


def test_namespace_has_every_name_of_the_brief():
    names = ("chirp gausspulse sawtooth square sweep_poly unit_impulse max_len_seq czt zoom_fft CZT ZoomFFT czt_points "
             "cspline1d cspline1d_eval cspline2d qspline1d qspline1d_eval qspline2d spline_filter gauss_spline "
             "symiirorder1 symiirorder2 sepfir2d cwt morlet morlet2 ricker qmf vectorstrength check_COLA check_NOLA "
             "get_window windows").split()
    assert [n for n in names if not hasattr(cs, n)] == []
