"""Waveforms and the chirp z-transform without a device: the functions run over NumPy stand-ins
for the cuarray operations they call (numpy.fft for cuarray.fft), against scipy.signal; errors
and signatures against SciPy's."""

import inspect
import types

import numpy as np
import pytest

ss = pytest.importorskip("scipy.signal")

from cuarray.scipy import signal as cs  # noqa: E402
from cuarray.scipy.signal import _czt, _waveforms  # noqa: E402
from cuarray.testing.fake_device import host_module  # noqa: E402

RNG = np.random.default_rng(5)


def _astype(x, dt, copy=True):
    return np.asarray(x).astype(dt, copy=copy)


@pytest.fixture(scope="module")
def host():
    """chirp, czt, ...: private copies of `_waveforms` and `_czt` with NumPy in place of cuarray's
    routines (cuarray's modules are untouched)."""
    waveforms = host_module(_waveforms, dict(
        _data=lambda x, fn: np.asarray(x), _device_param=lambda x, fn: np.asarray(x), _astype=_astype,
        _from_host=np.asarray, _zeros=np.zeros,
        _broadcast_arrays=np.broadcast_arrays, _exp=np.exp, _log=np.log, _abs=np.abs, _cos=np.cos, _sin=np.sin,
        _where=np.where, _is_scalar=lambda x: np.isscalar(x)))
    czt = host_module(_czt, dict(
        _data=lambda x, fn: np.asarray(x), _arange=np.arange, _zeros=np.zeros, _multiply=np.multiply,
        _divide=np.divide, _swapaxes=np.swapaxes, _exp=np.exp,
        _fft=types.SimpleNamespace(fft=np.fft.fft, ifft=np.fft.ifft)))
    return types.SimpleNamespace(**{n: getattr(m, n) for m in (waveforms, czt) for n in m.__all__})


def _same(got, ref, rtol=1e-12):
    assert got.dtype == ref.dtype and got.shape == ref.shape, (got.dtype, ref.dtype, got.shape, ref.shape)
    np.testing.assert_allclose(got, ref, rtol=rtol, atol=rtol * max(1.0, float(np.abs(ref).max(initial=0))))


def test_sawtooth_square(host):
    t = np.linspace(-20, 20, 301)
    for w in (0, 0.3, 0.5, 1, 1.5, -0.1, np.linspace(0, 1, 301)):
        _same(host.sawtooth(t, w), ss.sawtooth(t, w))
        _same(host.square(t, w), ss.square(t, w))
    _same(host.sawtooth(np.arange(10), 0.5), ss.sawtooth(np.arange(10), 0.5))
    # SciPy 1.18 keeps float32 (xp_promote with a weak width); 1.17, installed here, gave float64
    assert host.sawtooth(t.astype(np.float32)).dtype == np.float32
    assert host.square(t.astype(np.float32), 0.25).dtype == np.float32
    _same(host.square(t.astype(np.float32), 0.25), ss.square(t.astype(np.float32), 0.25).astype(np.float32))


def test_gausspulse_chirp_sweep(host):
    t = np.linspace(-1e-3, 1e-3, 101)
    for kw in ({}, {"retquad": True}, {"retenv": True}, {"retquad": True, "retenv": True}, {"fc": 300, "bw": 0.2}):
        got, ref = host.gausspulse(t, **kw), ss.gausspulse(t, **kw)
        for g, r in zip(got if isinstance(got, tuple) else (got,), ref if isinstance(ref, tuple) else (ref,)):
            _same(g, r)
    assert host.gausspulse("cutoff", tpr=-40) == ss.gausspulse("cutoff", tpr=-40)
    # SciPy's float64 `a` promotes the envelope (float32 -> float64, complex64 -> complex128); the
    # carrier is in t's dtype: the same operations here give SciPy's values exactly
    for tt in (t.astype(np.float32), np.arange(-3, 4), (t + 2e-4j).astype(np.complex64)):
        got = host.gausspulse(tt, retquad=True, retenv=True)
        ref = ss.gausspulse(tt, retquad=True, retenv=True)
        for g, r in zip(got, ref):
            _same(g, r)
    for bad in ({"fc": -1}, {"bw": 0}, {"bwr": 1}):
        with pytest.raises(ValueError):
            host.gausspulse(t, **bad)
    with pytest.raises(ValueError):
        host.gausspulse("x")
    with pytest.raises(ValueError):
        host.gausspulse("cutoff", tpr=1)
    t = np.linspace(0, 10, 257)
    for method in ("linear", "quadratic", "logarithmic", "hyperbolic", "lin", "q", "log", "hyp"):
        for vz in (True, False):
            for dt in (np.float64, np.float32):
                for phi in (0, 30.0, np.float32(10)):
                    got = host.chirp(t.astype(dt), 6, 10, 1, method, phi, vz)
                    _same(got, ss.chirp(t.astype(dt), 6, 10, 1, method, phi, vz), 1e-5 if dt == np.float32 else 1e-9)
        _same(host.chirp(t, 2, 10, 3, method, complex=True), ss.chirp(t, 2, 10, 3, method, complex=True), 1e-9)
    for bad in (("logarithmic", 0, 1), ("hyperbolic", 0, 1), ("nope", 1, 2)):
        with pytest.raises(ValueError):
            host.chirp(t, bad[1], 10, bad[2], bad[0])
    for poly in ([1.0, 0.25, 2.0], np.poly1d([0.5, -1.0, 3.0, 1.0]), np.array([2.0], np.float32), [3]):
        for tt in (t, t.astype(np.float32), np.arange(5)):
            _same(host.sweep_poly(tt, poly, 15), ss.sweep_poly(tt, poly, 15), 1e-5)


def test_unit_impulse(host):
    for args in ((5,), (5, "mid"), ((3, 4), (1, 2)), ((3, 4), 2), ((4, 6), "mid"), ((7,), None, np.complex64)):
        _same(host.unit_impulse(*args), ss.unit_impulse(*args))


CZT_CASES = [((16,), {}), ((16,), {"m": 7}), ((5, 16), {"m": 30, "w": 0.99 * np.exp(-0.3j), "a": 1.1}),
             ((1,), {}), ((9,), {"w": 1.01, "a": 0.9}), ((4, 9, 3), {"axis": 1}), ((4, 9, 3), {"axis": 0, "m": 2})]


@pytest.mark.parametrize("shape, kw", CZT_CASES)
def test_czt(host, shape, kw):
    x = RNG.normal(size=shape)
    _same(host.czt(x, **kw), ss.czt(x, **kw), 1e-9)
    xc = x + 1j * RNG.normal(size=shape)
    _same(host.czt(xc.astype(np.complex64), **kw), ss.czt(xc.astype(np.complex64), **kw), 1e-5)


def test_czt_long_and_planned_buffers(host):
    # long transforms (phases k^2 mod 2m, one complex factor), a = 1 without powers, 1/nfft folded
    # into the reciprocal chirp: SciPy's values to 1e-9 of the largest
    x = RNG.normal(size=30011)
    for kw in ({}, {"m": 4099}, {"a": 1 + 0j, "m": 40000}, {"a": 1.0001, "w": np.exp(-2e-4j)}):
        _same(host.czt(x, **kw), ss.czt(x, **kw), 1e-9)
    w = np.exp(-2j * np.pi / 41)  # (w given: Bluestein; w=None is the DFT path)
    c, r = host.CZT(64, 40, w), ss.CZT(64, 40, w)
    assert c._nfft >= 103 and c._Fwk2.shape == (c._nfft,)
    xb = RNG.normal(size=(3, 64)) + 1j * RNG.normal(size=(3, 64))
    _same(c(xb[:, ::1]), r(xb), 1e-9)
    _same(c(np.asfortranarray(xb)), r(xb), 1e-9)


@pytest.mark.parametrize("n,m", [(64, 64), (64, 40), (40, 64), (30, 7), (35, 7), (1, 1), (1, 5), (9, 1)])
@pytest.mark.parametrize("a", [1.0, 1.0 + 0j, np.exp(0.3j), 1.02 * np.exp(-0.1j)])
def test_czt_unit_circle_is_a_folded_dft(host, n, m, a):
    """w=None: the m-point DFT of x_j a^-j folded modulo m, against SciPy's Bluestein."""
    x = RNG.normal(size=(3, n)) + 1j * RNG.normal(size=(3, n))
    c, r = host.CZT(n, m, a=a), ss.CZT(n, m, a=a)
    assert c._dft and not hasattr(c, "_nfft")
    _same(c(x), r(x), 1e-9)
    _same(c(x.T, axis=0), r(x.T, axis=0), 1e-9)
    _same(host.czt(x.real.astype(np.float32), m=m, a=a), ss.czt(x.real.astype(np.float32), m=m, a=a), 1e-5)


def test_zoom_fft_and_points(host):
    x = RNG.normal(size=(3, 50))
    for fn, kw in (([0.1, 0.4], {}), (0.5, {"m": 20}), ([1.0, 3.0], {"fs": 10, "endpoint": True, "m": 11})):
        _same(host.zoom_fft(x, fn, **kw), ss.zoom_fft(x, fn, **kw), 1e-9)
        f, g = host.ZoomFFT(50, fn, **kw), ss.ZoomFFT(50, fn, **kw)
        _same(f(x.T, axis=0), g(x.T, axis=0), 1e-9)
        _same(f.points(), g.points(), 1e-12)
        assert (f.w, f.a, f.m, f.n, f.f1, f.f2, f.fs) == (g.w, g.a, g.m, g.n, g.f1, g.f2, g.fs)
    for m, kw in ((5, {}), (6, {"w": 0.9j, "a": 2}), (1, {"w": 1.5})):
        _same(host.czt_points(m, **kw), ss.czt_points(m, **kw))
    c = host.CZT(8, 5, 0.9, 1.2)
    assert (c.w, c.a, c.m, c.n) == (0.9, 1.2, 5, 8)
    with pytest.raises(ValueError, match="fn must be"):
        host.ZoomFFT(8, [1, 2, 3])
    with pytest.raises(ValueError, match="CZT defined for length 8, not 9"):
        c(np.ones(9))
    for n, m in ((0, None), (2.0, None), (4, 0), (4, 1.5)):
        with pytest.raises(ValueError) as exc:
            ss.CZT(n, m)
        with pytest.raises(ValueError) as got:
            host.CZT(n, m)
        assert str(got.value) == str(exc.value)
    with pytest.raises(ValueError):
        host.czt(np.ones((3, 0)))


NAMES = ["chirp", "gausspulse", "sawtooth", "square", "sweep_poly", "unit_impulse", "max_len_seq", "czt", "zoom_fft",
         "CZT", "ZoomFFT", "czt_points"]


@pytest.mark.parametrize("name", NAMES)
def test_signatures_are_scipys(name):
    assert inspect.signature(getattr(cs, name)) == inspect.signature(getattr(ss, name))


def test_call_signatures():
    assert inspect.signature(cs.CZT.__call__) == inspect.signature(ss.CZT.__call__)
    assert issubclass(cs.ZoomFFT, cs.CZT)
