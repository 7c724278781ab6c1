"""The names issue 52 completed, on the device against scipy.signal on the host (SciPy 1.18 on the
GPU machine): the design functions with SciPy's signatures (positional and keyword forms, device
arguments, `xp`/`device`), `besselap`, `firwin_2d`, `envelope`, `find_peaks_cwt`,
`whittaker_henderson` and its block cyclic reduction. Fresh random data; float32/float64/complex
where SciPy takes them, edge sizes, axis != -1, strided views, batches, and SciPy's errors."""

import inspect
import re
import warnings

import numpy as np
import pytest
import scipy
import scipy.signal as ss

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
from cuarray.scipy import signal as cs  # noqa: E402

RNG = np.random.default_rng()
HAS_WH = hasattr(ss, "whittaker_henderson")
needs_scipy_wh = pytest.mark.skipif(not HAS_WH, reason="SciPy {} has no whittaker_henderson (new in 1.18)".format(
    scipy.__version__))


def close(got, ref, tol=None):
    if isinstance(ref, tuple):
        assert isinstance(got, tuple) and len(got) == len(ref)
        for g, r in zip(got, ref):
            close(g, r, tol)
        return
    if not isinstance(ref, np.ndarray):
        assert not isinstance(got, cuarray.ndarray) and type(got) is type(ref)
        np.testing.assert_allclose(got, ref, rtol=tol or 1e-12)
        return
    assert isinstance(got, cuarray.ndarray), type(got)
    assert got.dtype == ref.dtype and got.shape == ref.shape, (got.dtype, ref.dtype, got.shape, ref.shape)
    tol = tol or (2e-4 if ref.dtype.char in "fF" else 1e-9)
    np.testing.assert_allclose(got.get(), ref, rtol=tol, atol=tol * max(1.0, float(np.abs(ref).max(initial=0))))


def same_error(fn_ref, fn_got):
    with pytest.raises(Exception) as ref:
        fn_ref()
    with pytest.raises(ref.type, match=re.escape(str(ref.value))):
        fn_got()


# -- design -------------------------------------------------------------------------------------
DESIGNS = [
    ("butter", (4, 0.2), {}), ("butter", (4, [0.2, 0.4], "bandpass"), dict(output="sos")),
    ("butter", (3, 100.0), dict(btype="high", fs=1000.0, output="zpk")), ("butter", (2, 1.5, "low", True), {}),
    ("cheby1", (3, 1, 0.3), {}), ("cheby1", (3, 1, [0.2, 0.5]), dict(btype="bandstop", output="zpk")),
    ("cheby2", (4, 30, 200.0, "highpass"), dict(fs=1000.0, output="sos")), ("ellip", (3, 1, 20, 0.3), {}),
    ("ellip", (4, 0.5, 40, [0.1, 0.3]), dict(btype="band")), ("bessel", (4, 0.3), dict(norm="mag", output="zpk")),
    ("bessel", (4, 2.0), dict(analog=True, norm="delay")), ("iirfilter", (4, [0.2, 0.4]), dict(rp=1, rs=40, ftype="ellip")),
    ("iirnotch", (60.0, 30.0, 1000.0), {}), ("iirpeak", (60.0, 10.0), dict(fs=500.0)),
    ("firwin", (30, [0.2, 0.4]), dict(pass_zero=False, window="hann", scale=False)),
    ("firwin2", (31, [0, 100, 200], [1, 1, 0]), dict(nfreqs=513, window="blackman", fs=400.0)),
    ("remez", (20, [0, 100, 150, 500], [1, 0]), dict(weight=[1, 5], fs=1000.0, maxiter=40, grid_density=20)),
    ("firwin_2d", ((5, 7), ("hamming", "hann")), dict(fc=0.3)), ("firwin_2d", ((9, 9), "hamming"), dict(fc=0.4, circular=True)),
    ("besselap", (5,), {}), ("besselap", (3, "delay"), {}), ("besselap", (0,), {}),
]


@pytest.mark.parametrize("name, args, kw", DESIGNS, ids=["{}-{}".format(d[0], i) for i, d in enumerate(DESIGNS)])
def test_design(name, args, kw):
    ref = getattr(ss, name)(*args, **kw)
    close(getattr(cs, name)(*args, **kw), ref, 1e-13)
    names = list(inspect.signature(getattr(ss, name)).parameters)
    close(getattr(cs, name)(**dict(zip(names, args), **kw)), ref, 1e-13)


def test_design_takes_device_arguments():
    close(cs.butter(4, cuarray.asarray([0.2, 0.4]), "bandpass"), ss.butter(4, [0.2, 0.4], "bandpass"), 1e-13)
    close(cs.firwin2(31, cuarray.asarray([0.0, 0.5, 1.0]), cuarray.asarray([1.0, 1.0, 0.0])),
          ss.firwin2(31, [0.0, 0.5, 1.0], [1.0, 1.0, 0.0]), 1e-13)
    close(cs.remez(21, cuarray.asarray([0, 0.2, 0.3, 0.5]), [1, 0], weight=cuarray.asarray([1.0, 3.0])),
          ss.remez(21, [0, 0.2, 0.3, 0.5], [1, 0], weight=[1.0, 3.0]), 1e-13)


@pytest.mark.parametrize("name, args", [("iirnotch", (0.3, 30.0)), ("iirpeak", (0.3, 30.0)), ("savgol_coeffs", (7, 2)),
                                        ("besselap", (3,)), ("buttap", (3,)), ("iircomb", (0.1, 30.0))])
def test_xp_and_device(name, args):
    ref = getattr(ss, name)(*args)
    dev = cuarray.cuda.Device(0)
    for kw in (dict(), dict(xp=cuarray), dict(device=dev), dict(xp=cuarray, device=dev)):
        got = getattr(cs, name)(*args, **kw)
        close(got, ref, 1e-12)
        for g in (got if isinstance(got, tuple) else (got,)):
            assert not isinstance(g, cuarray.ndarray) or g.device == dev
    host = getattr(cs, name)(*args, xp=np)
    for g, r in zip(host if isinstance(host, tuple) else (host,), ref if isinstance(ref, tuple) else (ref,)):
        assert type(g) is type(r)
        np.testing.assert_allclose(g, r, rtol=1e-12)
    with pytest.raises(ValueError, match="cuarray.cuda.Device"):
        getattr(cs, name)(*args, device="cuda")


# -- envelope -------------------------------------------------------------------------------------
ENVELOPE = [dict(), dict(bp_in=(2, 40)), dict(bp_in=(-30, 25)), dict(bp_in=(-60, -2)), dict(bp_in=(None, 9)),
            dict(n_out=250), dict(n_out=77, squared=True), dict(n_out=1), dict(residual="all"), dict(residual=None),
            dict(bp_in=(-30, 25), residual="all", n_out=400), dict(bp_in=(-60, -2), n_out=64)]


@pytest.mark.parametrize("kw", ENVELOPE, ids=[str(k) for k in ENVELOPE])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128, np.complex64, np.int16])
def test_envelope(kw, dtype):
    x = RNG.normal(size=(4, 3, 301)) * 5
    if np.dtype(dtype).kind == "c":
        x = x + 1j * RNG.normal(size=x.shape)
    x = x.astype(dtype)
    d = cuarray.asarray(x)
    close(cs.envelope(d, **kw), ss.envelope(x, **kw))
    close(cs.envelope(d[:, 1, ::2], **kw), ss.envelope(x[:, 1, ::2], **kw))  # a strided view
    xt = np.ascontiguousarray(np.moveaxis(x, -1, 1))
    close(cs.envelope(cuarray.asarray(xt), **kw, axis=1), ss.envelope(xt, **kw, axis=1))
    close(cs.envelope(d[0, 0], **kw), ss.envelope(x[0, 0], **kw))


def test_envelope_long_and_edges():
    x = RNG.normal(size=2 ** 20 + 3)
    close(cs.envelope(cuarray.asarray(x), bp_in=(100, 5000), n_out=4096), ss.envelope(x, bp_in=(100, 5000), n_out=4096))
    for x in (np.array([2.0]), np.array([1.0, -1.0]), RNG.normal(size=(2, 5))):
        for kw in (dict(bp_in=(None, None)), dict(), dict(n_out=3, residual="all")):
            try:
                ref = ss.envelope(x, **kw)
            except ValueError:
                same_error(lambda: ss.envelope(x, **kw), lambda: cs.envelope(cuarray.asarray(x), **kw))
                continue
            close(cs.envelope(cuarray.asarray(x), **kw), ref)


@pytest.mark.parametrize("kw", [dict(axis=2), dict(bp_in=(1, 2, 3)), dict(bp_in=(1.0, None)), dict(n_out=0),
                                dict(residual="high"), dict(bp_in=(3, 3)), dict(bp_in=(1, 7))])
def test_envelope_errors(kw):
    x = RNG.normal(size=(2, 10))
    same_error(lambda: ss.envelope(x, **kw), lambda: cs.envelope(cuarray.asarray(x), **kw))
    same_error(lambda: ss.envelope(np.zeros((2, 0))), lambda: cs.envelope(cuarray.zeros((2, 0))))
    with pytest.raises(TypeError, match="cuarray.asarray"):
        cs.envelope(x)


# -- find_peaks_cwt ----------------------------------------------------------------------------------
def _cwt_cases():
    sine = np.sin(np.linspace(0, 6 * np.pi, 500))
    spikes = np.convolve(RNG.poisson(0.05, 3000) * 5.0, np.hanning(15), "same") + 0.1 * RNG.normal(size=3000)
    return {
        "sine": (sine, np.arange(1, 10), {}), "sine float32": (sine.astype(np.float32), np.arange(1, 10), {}),
        "noise": (RNG.normal(size=2000), np.arange(1, 6), {}),
        "noise float widths": (RNG.normal(size=700), [1.5, 2.5, 3.7], {}),
        "options": (RNG.normal(size=800), np.arange(1, 8), dict(min_snr=0.5, noise_perc=30, window_size=25,
                                                                gap_thresh=2, min_length=2)),
        "distances": (RNG.normal(size=500), np.arange(1, 5), dict(max_distances=[1, 2, 3, 4, 5])),
        "spikes": (spikes, np.arange(2, 20), {}), "integers": (RNG.integers(-50, 50, size=400), np.arange(1, 10), {}),
        "constant": (np.ones(50), [1, 2, 3], {}), "zeros": (np.zeros(50), [1, 2], {}), "ramp": (np.arange(50.0), [1, 2, 3], {}),
        "one sample": (np.array([1.0]), [1, 2], {}), "three samples": (np.array([1.0, 2.0, 1.0]), [1], {}),
        # (SciPy convolves the wider wavelets by FFT here; its noise windows make it slow past this)
        "long (FFT)": (np.cumsum(RNG.normal(size=20000)), np.arange(10, 200, 10), {}),
    }


@pytest.mark.parametrize("name", list(_cwt_cases()))
def test_find_peaks_cwt(name):
    x, widths, kw = _cwt_cases()[name]
    ref = ss.find_peaks_cwt(x, widths, **kw)
    got = cs.find_peaks_cwt(cuarray.asarray(x), widths, **kw)
    assert isinstance(got, cuarray.ndarray) and got.dtype == ref.dtype
    np.testing.assert_array_equal(got.get(), ref)
    got = cs.find_peaks_cwt(cuarray.asarray(x), cuarray.asarray(np.asarray(widths, dtype=float)), **kw)
    np.testing.assert_array_equal(got.get(), ss.find_peaks_cwt(x, np.asarray(widths, dtype=float), **kw))


def test_find_peaks_cwt_wavelets():
    x = RNG.normal(size=600)

    def flat_top(n, w):  # a user wavelet on the host
        return np.ones(int(n)) / max(w, 1)

    def flat_top_device(n, w):  # the same on the device
        return cuarray.ones(int(n)) / max(w, 1)

    ref = ss.find_peaks_cwt(x, [2, 4, 6], wavelet=flat_top)
    np.testing.assert_array_equal(cs.find_peaks_cwt(cuarray.asarray(x), [2, 4, 6], wavelet=flat_top).get(), ref)
    np.testing.assert_array_equal(cs.find_peaks_cwt(cuarray.asarray(x), [2, 4, 6], wavelet=flat_top_device).get(), ref)


@pytest.mark.parametrize("args, kw", [((np.array([]), [1, 2]), {}), ((None, [0]), {}), ((None, [-1, 2]), {}),
                                      ((None, []), {}), ((np.ones((3, 10)), [1, 2]), {}),
                                      ((None, [1, 2, 3]), dict(max_distances=[1]))])
def test_find_peaks_cwt_errors(args, kw):
    x = RNG.normal(size=100) if args[0] is None else args[0]
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        same_error(lambda: ss.find_peaks_cwt(x, args[1], **kw), lambda: cs.find_peaks_cwt(cuarray.asarray(x), args[1], **kw))
    with pytest.raises(TypeError, match="cuarray.asarray"):
        cs.find_peaks_cwt(np.ones(10), [1])


# -- whittaker_henderson ---------------------------------------------------------------------------
def noisy(n):
    """As tests/scipy/signal/test_signal_whittaker_cpu.py: 50 samples a period plus noise (REML's
    minimum at a moderate lamb)."""
    return 3 * np.sin(2 * np.pi * np.arange(n) / 50) + 0.3 * RNG.normal(size=n)


def reml_rounding(lamb, n, order, weights):
    """As test_signal_whittaker_cpu.py: a bound on either solver's rounding of the criterion."""
    cond = (1 + lamb * 4 ** order) / (1.0 if weights is None else max(np.min(weights), 1e-300))
    return 4 * np.finfo(float).eps * n * (cond + abs(np.log(lamb)) + 1)


def compare_wh(got, ref, kw, y, weights=None):
    """As test_signal_whittaker_cpu.py's `compare`: a numeric lamb, x to 1e-9; lamb='reml', our lamb
    as good as SciPy's by SciPy's criterion within the criteria's rounding (which bounds how much
    ours, on the device, and SciPy's differ at those lambs), and x SciPy's x at our lamb."""
    from cuarray.scipy.signal import _whittaker  # (our criterion, on the device)

    assert set(got) == {"x", "lamb"}
    if "lamb" in kw:
        assert got.lamb is kw["lamb"]
        close(got.x, ref.x, 1e-9)
        return
    from scipy.signal._whittaker import _reml  # (SciPy's criterion: private)

    assert type(got.lamb) is type(ref.lamb)
    order = kw.get("order", 2)
    y = np.nan_to_num(y) if weights is not None else y
    dy, dw = cuarray.asarray(y), None if weights is None else cuarray.asarray(weights)
    with np.errstate(divide="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = {lam: -_reml(lam, y, order, weights) for lam in (got.lamb, ref.lamb)}
        ours = {lam: -_whittaker._reml(lam, dy, order, dw) for lam in (got.lamb, ref.lamb)}
    scale = max(1.0, abs(theirs[ref.lamb]))
    allowed = sum(reml_rounding(lam, len(y), order, weights) for lam in theirs)
    assert sum(abs(theirs[lam] - ours[lam]) for lam in theirs if np.isfinite(theirs[lam])) <= allowed
    assert theirs[got.lamb] == theirs[ref.lamb] or theirs[got.lamb] <= theirs[ref.lamb] + allowed + 1e-12 * scale
    if got.lamb < 1e6:
        close(got.x, ss.whittaker_henderson(y, lamb=float(got.lamb), order=order, weights=weights).x, 1e-9)


@needs_scipy_wh
@pytest.mark.parametrize("kw", [dict(lamb=3.0), dict(lamb=3.0, order=1), dict(lamb=250.0, order=3),
                                dict(lamb=0.5, order=5), dict(lamb=0.0), dict(lamb=1e6), dict(lamb=1e300), dict(),
                                dict(order=1), dict(order=3)])
@pytest.mark.parametrize("n", [3, 10, 257, 100000])
def test_whittaker_henderson(kw, n):
    y = noisy(n)
    order = kw.get("order", 2)
    if n < order + 1 or (n == 100000 and "lamb" not in kw and order != 2):
        return
    if "lamb" not in kw and n <= order + 1:
        pytest.skip("REML of order + 1 samples does not depend on lamb (the rounding of a constant decides)")
    compare_wh(cs.whittaker_henderson(cuarray.asarray(y), **kw), ss.whittaker_henderson(y, **kw), kw, y)


@needs_scipy_wh
@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.bool_, np.complex128])
def test_whittaker_henderson_dtypes(dtype):
    y = noisy(300) * 3
    y = (y + 1j * RNG.normal(size=300)) if dtype == np.complex128 else y
    y = y.astype(dtype) if dtype != np.bool_ else y > 0
    for kw in (dict(lamb=4.0), dict(lamb=0.0)) + ((dict(),) if dtype != np.complex128 else ()):
        compare_wh(cs.whittaker_henderson(cuarray.asarray(y), **kw), ss.whittaker_henderson(y, **kw), kw, y)


@needs_scipy_wh
@pytest.mark.parametrize("kw", [dict(lamb=5.0), dict(lamb=1e300), dict(lamb=5.0, order=3), dict()])
def test_whittaker_henderson_weights(kw):
    y = noisy(5000)
    w = RNG.uniform(0.5, 2.0, size=5000)
    if "lamb" in kw:  # (zero weights make REML's criterion unbounded as lamb -> 0)
        w[100:110] = 0  # interpolated (a short gap: a long one's system is ill-conditioned in any solver)
        w[-6:] = 0  # extrapolated
        y[105] = np.nan
        y[-1] = np.inf
    got = cs.whittaker_henderson(cuarray.asarray(y), weights=cuarray.asarray(w), **kw)
    compare_wh(got, ss.whittaker_henderson(y, weights=w, **kw), kw, y, w)
    wf = w.astype(np.float32)  # float32 weights, both operands strided views
    got = cs.whittaker_henderson(cuarray.asarray(np.repeat(y, 2))[::2], weights=cuarray.asarray(np.repeat(wf, 2))[::2],
                                 **kw)
    compare_wh(got, ss.whittaker_henderson(y, weights=wf, **kw), kw, y, wf)


@needs_scipy_wh
def test_whittaker_henderson_warnings_and_errors():
    y = noisy(60)
    w = -RNG.uniform(0.5, 2.0, 60)
    with pytest.warns(UserWarning, match="numerical instability"):
        ref = ss.whittaker_henderson(y, lamb=1e8, weights=w)
    with pytest.warns(UserWarning, match="numerical instability"):
        got = cs.whittaker_henderson(cuarray.asarray(y), lamb=1e8, weights=cuarray.asarray(w))
    close(got.x, ref.x, 1e-9)
    with pytest.warns(np.exceptions.RankWarning):
        got = cs.whittaker_henderson(cuarray.asarray(y), lamb=3.0, weights=cuarray.zeros(60))
    with pytest.warns(np.exceptions.RankWarning):
        close(got.x, ss.whittaker_henderson(y, lamb=3.0, weights=np.zeros(60)).x, 1e-9)
    for args, kw in [((y,), dict(order=1.5)), ((y,), dict(order=0)), ((np.ones((3, 4)),), {}),
                     ((np.ones(3),), dict(order=3)), ((y,), dict(weights=np.ones(5))),
                     ((np.r_[1.0, np.nan, y],), {}), ((y,), dict(weights=np.r_[np.nan, np.ones(59)])),
                     ((np.r_[np.inf, y[1:]],), dict(weights=np.ones(60))), ((y,), dict(lamb="gcv")),
                     ((y,), dict(lamb=-1.0))]:
        dkw = {k: cuarray.asarray(v) if isinstance(v, np.ndarray) else v for k, v in kw.items()}
        same_error(lambda: ss.whittaker_henderson(*args, **kw),
                   lambda: cs.whittaker_henderson(cuarray.asarray(args[0]), **dkw))
    with pytest.raises(TypeError, match="cuarray.asarray"):
        cs.whittaker_henderson(y, lamb=1.0)


@pytest.mark.parametrize("p", [1, 2, 3, 6])
@pytest.mark.parametrize("n", [1, 5, 64, 1000, 4097])
def test_block_cyclic_reduction(p, n):
    from cuarray.scipy.signal import _banded_cr

    ab = RNG.normal(size=(p + 1, n))
    for k in range(1, p + 1):
        ab[k, max(n - k, 0):] = 0
    ab[0] = np.abs(ab[0]) + 2 * np.abs(ab[1:]).sum(0) + 2 * p + 0.5  # diagonally dominant: positive definite
    blocks = 1
    while blocks < -(-n // p):
        blocks = 2 * blocks + 1
    D, L = _banded_cr.band_blocks(cuarray.asarray(ab), blocks)
    b = RNG.normal(size=(n, 3))
    B = np.zeros((blocks * p, 3))
    B[:n] = b
    x, logdet, bad = _banded_cr.solve_blocks(D, L, cuarray.asarray(B.reshape(blocks, p, 3)))
    a = np.diag(ab[0])
    for k in range(1, min(p, n - 1) + 1):
        a += np.diag(ab[k, :n - k], -k) + np.diag(ab[k, :n - k], k)
    np.testing.assert_allclose(x.get().reshape(-1, 3)[:n], np.linalg.solve(a, b), rtol=1e-11, atol=1e-12)
    np.testing.assert_allclose(float(logdet), np.linalg.slogdet(a)[1], rtol=1e-12)
    assert int(bad) == 0
