"""Systems, conversions, filter-order design and frequency responses on the device against
scipy.signal on the host: fresh random coefficients and inputs, float32/float64/complex, edge
sizes; and SciPy's documented examples for these names with `np` -> cuarray (plots left out)."""

import numpy as np
import pytest
import scipy.signal as ss

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
from cuarray.scipy import signal as cs  # noqa: E402

RNG = np.random.default_rng()


def close(got, ref, tol=None):
    if isinstance(ref, tuple):
        assert isinstance(got, tuple) and len(got) == len(ref)
        for g, r in zip(got, ref):
            close(g, r, tol)
        return
    if not isinstance(ref, np.ndarray):
        assert not isinstance(got, cuarray.ndarray)
        np.testing.assert_allclose(got, ref, rtol=tol or 1e-12)
        return
    assert isinstance(got, cuarray.ndarray), type(got)
    assert got.dtype == ref.dtype and got.shape == ref.shape, (got.dtype, ref.dtype, got.shape, ref.shape)
    tol = tol or (2e-4 if ref.dtype.char in "fF" else 1e-9)
    np.testing.assert_allclose(got.get(), ref, rtol=tol, atol=tol * max(1.0, float(np.abs(ref).max(initial=0))))


def coeffs(n, dtype):
    c = RNG.normal(size=n)
    if np.dtype(dtype).kind == "c":
        c = c + 1j * RNG.normal(size=n)
    return c.astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
@pytest.mark.parametrize("kw", [dict(worN=512), dict(worN=1000, whole=True), dict(worN=33, include_nyquist=True),
                                dict(worN=1), dict(worN=0), dict(worN=100, fs=48000.0)])
@pytest.mark.parametrize("kind", ["fir", "iir", "fir_dev"])
def test_freqz(dtype, kw, kind):
    b = coeffs(9, dtype)
    a = np.concatenate([[1.0], 0.1 * RNG.normal(size=4)]).astype(dtype) if kind == "iir" else np.ones(1, dtype)
    ref = ss.freqz(b, a, **kw)
    got = cs.freqz(cuarray.asarray(b) if kind == "fir_dev" else b, a, **kw)
    close(got, ref, 2e-4 if np.dtype(dtype).char in "fF" else 1e-9)


def test_freqz_frequencies_and_long_grids():
    b, a = ss.butter(8, 0.2)
    w = np.sort(RNG.uniform(0, np.pi, size=1000))
    close(cs.freqz(b, a, worN=cuarray.asarray(w)), ss.freqz(b, a, worN=w), 1e-7)
    close(cs.freqz(b, a, worN=list(w[:5])), ss.freqz(b, a, worN=list(w[:5])), 1e-7)
    close(cs.freqz(b, a, worN=100000), ss.freqz(b, a, worN=100000), 1e-7)
    close(cs.freqz(b, worN=100000), ss.freqz(b, worN=100000), 1e-9)
    b2 = RNG.normal(size=(5, 1))  # coefficients along axis 0, one filter
    close(cs.freqz(b2, worN=16), ss.freqz(b2, worN=16))


@pytest.mark.parametrize("dtype", [np.float64, np.complex128, np.float32])
def test_freqz_zpk_sos_group_delay(dtype):
    z, p, k = ss.ellip(6, 1, 40, 0.3, output="zpk")
    z, p = z.astype(np.complex64 if dtype == np.float32 else np.complex128), p.astype(z.dtype if dtype != np.float32
                                                                                       else np.complex64)
    for kw in (dict(), dict(worN=257, whole=True), dict(worN=RNG.uniform(0, 0.5, 7), fs=1.0)):
        close(cs.freqz_zpk(z, p, k, **kw), ss.freqz_zpk(z, p, k, **kw), 2e-4 if dtype == np.float32 else 1e-8)
    sos = ss.ellip(6, 1, 40, 0.3, output="sos")
    close(cs.freqz_sos(cuarray.asarray(sos), worN=300), ss.freqz_sos(sos, worN=300), 1e-8)
    close(cs.sosfreqz(sos, worN=300, whole=True), ss.freqz_sos(sos, worN=300, whole=True), 1e-8)
    b, a = ss.ellip(6, 1, 40, 0.3)
    close(cs.group_delay((b, a), 256), ss.group_delay((b, a), 256), 1e-7)
    wr = RNG.uniform(0, 3, 9)
    close(cs.group_delay((b, a), cuarray.asarray(wr)), ss.group_delay((b, a), wr), 1e-7)
    close(cs.group_delay((b, a), 0), ss.group_delay((b, a), 0))


def test_analog_responses():
    b, a = ss.cheby1(5, 1, 2.0, analog=True)
    close(cs.freqs(b, a), ss.freqs(b, a), 1e-9)
    close(cs.freqs(b, a, worN=cuarray.asarray([0.1, 1.0, 10.0])), ss.freqs(b, a, worN=np.array([0.1, 1.0, 10.0])),
          1e-9)
    z, p, k = ss.cheby1(5, 1, 2.0, analog=True, output="zpk")
    close(cs.freqs_zpk(z, p, k, 50), ss.freqs_zpk(z, p, k, 50), 1e-9)
    close(cs.findfreqs(b, a, 10), ss.findfreqs(b, a, 10))


def random_stable(n, m, p, rng):
    A = rng.normal(size=(n, n))
    A -= (max(np.linalg.eigvals(A).real) + 0.5) * np.eye(n)
    return A, rng.normal(size=(n, m)), rng.normal(size=(p, n)), rng.normal(size=(p, m))


@pytest.mark.parametrize("n, m, p, steps", [(10, 1, 1, 20000), (3, 2, 2, 257), (1, 1, 1, 1), (2, 1, 1, 2)])
@pytest.mark.parametrize("interp", [True, False])
def test_lsim(n, m, p, steps, interp):
    A, B, C, D = random_stable(n, m, p, RNG)
    t = np.arange(steps) * 0.01
    u = RNG.normal(size=(steps, m)) if m > 1 else RNG.normal(size=steps)
    x0 = RNG.normal(size=n)
    ref = ss.lsim((A, B, C, D), u, t, X0=x0, interp=interp)
    close(cs.lsim((A, B, C, D), cuarray.asarray(u), t, X0=x0, interp=interp), ref, 1e-8)


@pytest.mark.parametrize("n, m, steps", [(10, 1, 20000), (4, 3, 100), (2, 1, 1)])
def test_dlsim(n, m, steps):
    A, B, C, D = random_stable(n, m, 2, RNG)
    Ad, Bd, Cd, Dd, dt = ss.cont2discrete((A, B, C, D), 0.05)
    u = RNG.normal(size=(steps, m))
    x0 = RNG.normal(size=n)
    close(cs.dlsim((Ad, Bd, Cd, Dd, dt), cuarray.asarray(u), x0=x0), ss.dlsim((Ad, Bd, Cd, Dd, dt), u, x0=x0), 1e-8)
    sysd = cs.StateSpace(Ad, Bd, Cd, Dd, dt=dt)
    close(sysd.output(cuarray.asarray(u), None, x0=x0), ss.StateSpace(Ad, Bd, Cd, Dd, dt=dt).output(u, None, x0=x0),
          1e-8)
    close(cs.dstep((Ad, Bd, Cd, Dd, dt), n=30), ss.dstep((Ad, Bd, Cd, Dd, dt), n=30), 1e-8)
    close(cs.dimpulse((Ad, Bd, Cd, Dd, dt), n=30), ss.dimpulse((Ad, Bd, Cd, Dd, dt), n=30), 1e-8)


def test_step_impulse_and_classes():
    tf = ([1.0, 3.0], [1.0, 2.0, 5.0])
    close(cs.step(tf), ss.step(tf), 1e-8)
    close(cs.impulse(tf, N=64), ss.impulse(tf, N=64), 1e-8)
    s = cs.lti(*tf)
    r = ss.lti(*tf)
    close(s.num, r.num)
    close(s.to_ss().A, r.to_ss().A)
    close(s.to_discrete(0.1).den, r.to_discrete(0.1).den)
    close(s.step(N=50), r.step(N=50), 1e-8)
    close(s.bode(n=20), r.bode(n=20))
    close(s.freqresp(n=20), r.freqresp(n=20))
    d = cs.dlti([1.0], [1.0, -0.5], dt=0.1)
    close(d.impulse(n=10), ss.dlti([1.0], [1.0, -0.5], dt=0.1).impulse(n=10))
    sp = cs.StateSpace(cuarray.asarray([[-1.0]]), [[1.0]], [[2.0]], [[0.5]])
    sr = ss.StateSpace([[-1.0]], [[1.0]], [[2.0]], [[0.5]])
    for got, ref in [(sp * sp, sr * sr), (sp + 2.0, sr + 2.0), (-sp, -sr), (sp - sp, sr - sr)]:
        assert isinstance(got, cs.StateSpace) and isinstance(got, cs.lti)
        close((got.A, got.B, got.C, got.D), (ref.A, ref.B, ref.C, ref.D))


def test_host_work_takes_and_returns_device_arrays():
    b, a = ss.butter(4, 0.3)
    bd, ad = cuarray.asarray(b), cuarray.asarray(a)
    close(cs.tf2zpk(bd, ad), ss.tf2zpk(b, a))
    close(cs.tf2sos(bd, ad), ss.tf2sos(b, a))
    close(cs.tf2ss(bd, ad), ss.tf2ss(b, a))
    close(cs.residuez(bd, ad), ss.residuez(b, a))
    close(cs.lfiltic(bd, ad, cuarray.asarray([1.0, 2.0])), ss.lfiltic(b, a, [1.0, 2.0]))
    close(cs.minimum_phase(cuarray.asarray(ss.firwin(31, 0.3))), ss.minimum_phase(ss.firwin(31, 0.3)))
    close(cs.iirdesign(0.2, 0.3, 1, 40, output="sos"), ss.iirdesign(0.2, 0.3, 1, 40, output="sos"))
    with pytest.raises(ValueError):
        cs.buttord(0.2, 0.3, 3, -40)
    close(cs.freqz(*cs.butter(4, 0.3)), ss.freqz(b, a))  # the library is usable after the error


def test_scipy_documented_examples():
    """SciPy's Examples sections for these names, np -> cuarray, plots left out."""
    # freqz: a FIR filter from firwin, its response in dB
    taps = cs.firwin(80, 0.5, window=("kaiser", 8))
    w, h = cs.freqz(taps)
    rw, rh = ss.freqz(ss.firwin(80, 0.5, window=("kaiser", 8)))
    close(w, rw)
    close(h, rh)
    close(20 * cuarray.log10(cuarray.abs(h) + 1e-12), 20 * np.log10(np.abs(rh) + 1e-12), 1e-7)
    # freqz_sos: a 15th-order bandpass ellip
    sos = cs.ellip(15, 0.5, 60, (0.2, 0.4), btype="bandpass", output="sos")
    close(cs.freqz_sos(sos, worN=1500), ss.freqz_sos(ss.ellip(15, 0.5, 60, (0.2, 0.4), btype="bandpass",
                                                             output="sos"), worN=1500), 1e-7)
    # lsim: a step response of 1 / (s + 1) from a ramp of inputs
    system = cs.lti([1.0], [1.0, 1.0])
    t = cuarray.linspace(0, 5, num=50)
    u = cuarray.ones_like(t)
    tout, y, x = cs.lsim(system, u, t)
    close(y, ss.lsim(ss.lti([1.0], [1.0, 1.0]), np.ones(50), np.linspace(0, 5, num=50))[1], 1e-9)
    # dlsim: a discrete system of dt=0.1 with a simple input
    tout, yout = cs.dlsim(([1.0], [1.0, -0.5], 0.1), cuarray.asarray([1.0, 0.0, 0.0, 0.0]))
    close(yout, ss.dlsim(([1.0], [1.0, -0.5], 0.1), [1.0, 0.0, 0.0, 0.0])[1])
    # buttord + butter: the order and cutoff meet the specification
    N, Wn = cs.buttord([20, 50], [14, 60], 3, 40, fs=200)
    assert (N, float(Wn[0])) == (ss.buttord([20, 50], [14, 60], 3, 40, fs=200)[0],
                                 float(ss.buttord([20, 50], [14, 60], 3, 40, fs=200)[1][0]))


P = 0.6 * np.exp(1j * np.array([0.3, 1.1, -2.0]))  # stable complex poles, no conjugate pairs


@pytest.mark.parametrize("case", ["complex b", "complex a", "both"])
@pytest.mark.parametrize("xdt", [np.float32, np.float64, np.complex64, np.complex128])
def test_lfilter_complex_coefficients(case, xdt):
    """Complex coefficients (NotImplementedError before issue 52) against SciPy, with zi and axis."""
    b = coeffs(4, np.complex128) if case != "complex a" else np.array([1.0, 0.5])
    a = np.array([1.0, -0.5, 0.2]) if case == "complex b" else np.poly(P)
    x = RNG.normal(size=(3, 3000)).astype(xdt)
    if np.dtype(xdt).kind == "c":
        x = x + 1j * RNG.normal(size=x.shape).astype(xdt)
    for axis in (-1, 0):
        close(cs.lfilter(b, a, cuarray.asarray(x), axis=axis), ss.lfilter(b, a, x, axis=axis),
              2e-4 if np.dtype(xdt).char in "fF" else 1e-8)
    K = max(len(a), len(b)) - 1
    zi = coeffs(3 * K, np.complex128).reshape(3, K)
    close(cs.lfilter(b, a, cuarray.asarray(x), zi=cuarray.asarray(zi)), ss.lfilter(b, a, x, zi=zi),
          2e-4 if np.dtype(xdt).char in "fF" else 1e-8)


def test_complex_sos_filtfilt_gust_upfirdn():
    sos = np.array([[1.0, 0.5j, 0.1, 1.0, -0.4 + 0.3j, 0.1j], [0.5, 0.2, 0.0, 1.0, 0.3, 0.1]])
    x = RNG.normal(size=(4, 500)) + 1j * RNG.normal(size=(4, 500))
    xd = cuarray.asarray(x)
    close(cs.sosfilt(sos, xd), ss.sosfilt(sos, x))
    close(cs.sosfiltfilt(sos, xd), ss.sosfiltfilt(sos, x))
    b, a = coeffs(3, np.complex128), 2.0 * np.poly(P[:2])
    close(cs.filtfilt(b, a, xd), ss.filtfilt(b, a, x))
    b, a = ss.butter(4, 0.1)
    xr = RNG.normal(size=(3, 400, 2))
    for irlen in (None, 50):
        for axis in (1, 0):
            close(cs.filtfilt(b, a, cuarray.asarray(xr), axis=axis, method="gust", irlen=irlen),
                  ss.filtfilt(b, a, xr, axis=axis, method="gust", irlen=irlen), 1e-7)
    h = coeffs(9, np.complex128)
    close(cs.upfirdn(h, xd, 3, 2), ss.upfirdn(h, x, 3, 2))
    close(cs.resample_poly(xd, 3, 2, axis=1, window=h), ss.resample_poly(x, 3, 2, axis=1, window=h))


def test_host_states_are_taken():
    b, a = ss.butter(2, 0.3)
    x = RNG.normal(size=(2, 300))
    zi = RNG.normal(size=(2, 2))
    close(cs.lfilter(b, a, cuarray.asarray(x), zi=zi), ss.lfilter(b, a, x, zi=zi))
    close(cs.lfilter(b, a, cuarray.asarray(x[0]), zi=[0.5, -0.2]), ss.lfilter(b, a, x[0], zi=[0.5, -0.2]))
    sos = ss.butter(4, 0.3, output="sos")
    zs = ss.sosfilt_zi(sos)
    close(cs.sosfilt(sos, cuarray.asarray(x[0]), zi=zs), ss.sosfilt(sos, x[0], zi=zs))
