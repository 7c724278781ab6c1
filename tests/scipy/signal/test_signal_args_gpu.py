"""cuarray.scipy.signal's arguments as cupyx's tests pass them, on the device against scipy.signal:
Python lists as data (copied), NumPy arrays as parameters, device scalars and arrays where SciPy
computes on the host (ZoomFFT's range, poles, widths, a cuarray.poly1d, breakpoints, convolve2d's
fill value), lfilter with SciPy's zi over cupyx's grid (integer inputs, float and complex
coefficients, every axis), and C-contiguous results wherever SciPy's are."""

import itertools
import warnings

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


def close(got, ref, what, tol=None):
    """ref's values (a NumPy array: a cuarray array of its dtype and shape; tuples item by item)."""
    if isinstance(ref, (tuple, list)):
        assert len(got) == len(ref), what
        for i, (g, r) in enumerate(zip(got, ref)):
            close(g, r, "{}[{}]".format(what, i), tol)
        return
    if isinstance(ref, dict):
        assert set(got) == set(ref), what
        for k in ref:
            close(got[k], ref[k], "{}[{!r}]".format(what, k), tol)
        return
    if not isinstance(ref, np.ndarray):
        g = got.get() if isinstance(got, cuarray.ndarray) else got
        np.testing.assert_allclose(g, ref, rtol=tol or 1e-9, err_msg=what)
        return
    assert isinstance(got, cuarray.ndarray), (what, type(got))
    assert got.dtype == ref.dtype and got.shape == ref.shape, (what, got.dtype, ref.dtype, got.shape, ref.shape)
    tol = tol or (2e-4 if ref.dtype.char in "fF" else 1e-9)
    np.testing.assert_allclose(got.get(), ref, rtol=tol, atol=tol * max(1.0, float(np.abs(ref).max(initial=0))),
                               err_msg=str(what))


D = RNG.normal(size=40).tolist()
D2 = RNG.normal(size=(6, 7)).tolist()
X = [0.0, 1.0, 0.5, 3.0, 0.2, 2.0, 1.0, 4.0, 0.0, 1.5, 1.4, 0.3]

# name: a call of scipy.signal's namespace `m` with Python lists as cupyx's tests give them, through `L`
# (the lists themselves for cuarray; NumPy arrays for SciPy, whose welch and spectrogram take no list)
LIST_CALLS = {
    "czt int a": lambda m, L: m.czt(L([0, 1]), m=10, a=2),
    "czt list": lambda m, L: m.czt(L(D[:9])),
    "zoom_fft list": lambda m, L: m.zoom_fft(L(D[:16]), [0, 1.5], m=20),
    "gauss_spline scalar": lambda m, L: m.gauss_spline(0.0, 0),
    "gauss_spline list": lambda m, L: m.gauss_spline(L(D[:5]), 3),
    "find_peaks": lambda m, L: m.find_peaks(L(X), height=(None, None), prominence=(None, None), width=(None, None)),
    "find_peaks wlen": lambda m, L: m.find_peaks(L([0, 1, 1, 1, 0]), prominence=(None, None), width=(None, None),
                                                 wlen=2),
    "peak_prominences": lambda m, L: m.peak_prominences(L(X), [1, 3, 5]),
    "peak_widths": lambda m, L: m.peak_widths(L([0, 1, 2, 1, 3, 3, 3, 1, 2, 1, 0]), peaks=[5], rel_height=2 / 3),
    "detrend bp": lambda m, L: m.detrend(L([0, 1, 2] + [5, 0, -5, -10]), type="linear", bp=3),
    "detrend constant": lambda m, L: m.detrend(L(D2), axis=0, type="constant"),
    "periodogram": lambda m, L: m.periodogram(L(D)),
    "welch": lambda m, L: m.welch(L(D), nperseg=8),
    "csd": lambda m, L: m.csd(L(D), L(D[::-1]), nperseg=8),
    "coherence": lambda m, L: m.coherence(L(D), L(D[::-1]), nperseg=8),
    "spectrogram": lambda m, L: m.spectrogram(L(D), nperseg=8),
    "lombscargle": lambda m, L: m.lombscargle(L(np.linspace(0.1, 10, 30).tolist()), L(D[:30]),
                                             np.linspace(0.1, 3, 20)),
    "convolve": lambda m, L: m.convolve(L(D[:9]), L([1.0, 0.5, 0.25])),
    "correlate2d": lambda m, L: m.correlate2d(L(D2), L([[1.0, 0.5], [0.25, 2.0]]), "same"),
    "lfilter": lambda m, L: m.lfilter([0.2, 0.3], [1.0, -0.5], L(D)),
    "lfilter zi list": lambda m, L: m.lfilter([0.2, 0.3], [1.0, -0.5], L(D), zi=[0.5]),
    "sosfilt": lambda m, L: m.sosfilt([[1.0, 0.2, 0.0, 1.0, -0.5, 0.1]], L(D)),
    "filtfilt": lambda m, L: m.filtfilt([0.2, 0.3], [1.0, -0.5], L(D)),
    "hilbert": lambda m, L: m.hilbert(L(D[:16])),
    "medfilt": lambda m, L: m.medfilt(L(D[:15]), 3),
    "savgol_filter": lambda m, L: m.savgol_filter(L(D), 7, 2),
    "resample": lambda m, L: m.resample(L(D), 25),
    "upfirdn": lambda m, L: m.upfirdn([1.0, 0.5, 0.25], L(D), 3, 2),
    "vectorstrength": lambda m, L: m.vectorstrength(L([0.1, 1.1, 2.1, 3.3]), 1.0),
    "sawtooth": lambda m, L: m.sawtooth(L(D[:10]), 0.5),
    "chirp": lambda m, L: m.chirp(L(D[:10]), 1.0, 1.0, 2.0),
    "symiirorder1": lambda m, L: m.symiirorder1(L(D), 0.5, 0.1),
    "cspline1d": lambda m, L: m.cspline1d(L(D[:12])),
    "qspline1d_eval": lambda m, L: m.qspline1d_eval(L([0.0, 0.0]), L([0.0])),
}


@pytest.mark.parametrize("name", sorted(LIST_CALLS))
def test_python_lists_as_data(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = LIST_CALLS[name](ss, np.asarray)
        got = LIST_CALLS[name](cs, lambda v: v)
    close(got, ref, name)


def test_cupyx_list_errors():
    """cupyx's peak tests give lists where SciPy raises: the same exceptions."""
    for call, exc, match in [(lambda m: m.peak_prominences([[0, 1, 1, 0]], [1, 2]), ValueError, "1-D array"),
                             (lambda m: m.peak_prominences([0, 1, 1, 0], [[1, 2]]), ValueError, "1-D array"),
                             (lambda m: m.peak_prominences(3, [0]), ValueError, "1-D array"),
                             (lambda m: m.peak_prominences([], [0]), ValueError, "not a valid index"),
                             (lambda m: m.peak_prominences([1, 0, 2], [3]), ValueError, "not a valid index"),
                             (lambda m: m.peak_widths([1, 2, 1], [1], prominence_data=(None, None, None)), TypeError,
                              "None"),
                             (lambda m: m.czt([]), ValueError, "Invalid number of CZT"),
                             (lambda m: m.czt([1, 2, 3], 0), ValueError, "Invalid number of CZT"),
                             (lambda m: m.czt(5), IndexError, "tuple index out of range")]:
        for m in (ss, cs):
            with pytest.raises(exc, match=match):
                call(m)


def test_numpy_data_refused_numpy_parameters_taken():
    x = cuarray.asarray(X)
    with pytest.raises(TypeError, match="cuarray.asarray"):
        cs.periodogram(np.asarray(D))
    close(cs.peak_prominences(x, np.array([1, 3, 5])), ss.peak_prominences(X, np.array([1, 3, 5])), "peaks")
    pd = ss.peak_prominences(X, [1, 3])
    close(cs.peak_widths(x, [1, 3], prominence_data=pd), ss.peak_widths(X, [1, 3], prominence_data=pd), "prom data")
    t, f = np.linspace(0.1, 10, 12), np.linspace(0.1, 3, 9, dtype=np.float32)
    close(cs.lombscargle(cuarray.asarray(t), x, f), ss.lombscargle(t, X, f), "lombscargle freqs")
    close(cs.qmf(np.array([1.0, 1.0])), np.array([1.0, -1.0]), "qmf")  # (SciPy 1.14's, removed from SciPy)


def test_device_values_where_scipy_computes_on_the_host():
    """cupyx's calls with device scalars and arrays as parameters: no implicit conversion."""
    dev = cuarray.asarray
    x = RNG.normal(size=28)
    long = RNG.normal(size=200)  # (SciPy's symmetric start sums need the signal to converge within)
    w = np.linspace(0, 2 - 2.0 / 28, 28)
    cases = [
        ("zoom_fft [w[3], w[6]]", lambda: cs.zoom_fft(dev(x), [dev(w)[3], dev(w)[6]], m=31, endpoint=True),
         lambda: ss.zoom_fft(x, [w[3], w[6]], m=31, endpoint=True)),
        ("ZoomFFT device fn", lambda: cs.ZoomFFT(28, dev([0.0, 1.5]))(dev(x)), lambda: ss.ZoomFFT(28, [0.0, 1.5])(x)),
        ("czt device w, a", lambda: cs.czt(dev(x), m=12, w=dev(0.98534 + 0.17055j), a=dev(1.1)),
         lambda: ss.czt(x, m=12, w=0.98534 + 0.17055j, a=1.1)),
        ("czt_points device w", lambda: cs.czt_points(7, w=dev(2.0), a=dev(0.5)),
         lambda: ss.czt_points(7, w=2.0, a=0.5)),
        ("sweep_poly poly1d", lambda: cs.sweep_poly(dev(x), cuarray.poly1d([2.0, 1.0, 0.0, -2.0])),
         lambda: ss.sweep_poly(x, np.poly1d([2.0, 1.0, 0.0, -2.0]))),
        ("sweep_poly device coefficients", lambda: cs.sweep_poly(dev(x), dev([1.0, 0.0, -2.0])),
         lambda: ss.sweep_poly(x, np.array([1.0, 0.0, -2.0]))),
        ("chirp device scalars", lambda: cs.chirp(dev(x), dev(1.0), dev(3.0), dev(2.0), phi=dev(30.0)),
         lambda: ss.chirp(x, 1.0, 3.0, 2.0, phi=30.0)),
        ("gausspulse cutoff", lambda: cs.gausspulse("cutoff", fc=dev(1000.0)),
         lambda: ss.gausspulse("cutoff", fc=1000.0)),
        ("gausspulse device fc", lambda: cs.gausspulse(dev(x) * 1e-3, fc=dev(1000.0), retquad=True),
         lambda: ss.gausspulse(x * 1e-3, fc=1000.0, retquad=True)),
        ("symiirorder2 device r, omega", lambda: cs.symiirorder2(dev(long), dev(0.5), dev(np.pi)),
         lambda: ss.symiirorder2(long, 0.5, np.pi)),
        ("symiirorder1 device c0, z1", lambda: cs.symiirorder1(dev(long), dev(2.0), dev(0.5)),
         lambda: ss.symiirorder1(long, 2.0, 0.5)),
        ("detrend device bp", lambda: cs.detrend(dev(x), bp=dev([5, 17])), lambda: ss.detrend(x, bp=[5, 17])),
        ("medfilt device kernel_size", lambda: cs.medfilt(dev(x), dev(5)), lambda: ss.medfilt(x, 5)),
        ("wiener device mysize", lambda: cs.wiener(dev(x), dev([5])), lambda: ss.wiener(x, [5])),
        ("sepfir2d device taps", lambda: cs.sepfir2d(dev(np.asarray(D2)), dev([1.0, 2.0, 1.0]), dev([0.5])),
         lambda: ss.sepfir2d(np.asarray(D2), [1.0, 2.0, 1.0], [0.5])),
        ("convolve2d device fill", lambda: cs.convolve2d(dev(np.asarray(D2)), dev([[1.0, 2.0]]), fillvalue=dev(1.5)),
         lambda: ss.convolve2d(np.asarray(D2), [[1.0, 2.0]], fillvalue=np.array(1.5))),
        ("cspline1d_eval x0=x[0]",
         lambda: cs.cspline1d_eval(cs.cspline1d(dev(x)), dev(w) * 2, dx=dev(0.5), x0=dev(w)[0]),
         lambda: ss.cspline1d_eval(ss.cspline1d(x), w * 2, dx=0.5, x0=w[0])),
    ]
    for what, got, ref in cases:
        close(got(), ref(), what)
    for what, fn, arg in [("ricker", "ricker", 4.0), ("morlet2", "morlet2", 2.0)]:
        close(getattr(cs, fn)(10, dev(arg)), getattr(cs, fn)(10, arg).get(), what + " device width")
    close(cs.cwt(dev(x), cs.ricker, dev([1.0, 2.0])), cs.cwt(dev(x), cs.ricker, [1.0, 2.0]).get(), "cwt widths")


def test_convolve2d_fill_arrays_as_scipy():
    """A device fill value is SciPy's NumPy one: one element that casts safely to the output."""
    img = RNG.normal(size=(5, 6))
    k = RNG.normal(size=(2, 3))
    for fv in (np.array(1.5), np.array([2.0]), np.array(3), np.array([1.0, 2.0]), np.array([]), np.array(1 + 1j)):
        for dt in ("float64", "float32", "complex128"):
            a, b = img.astype(dt), k.astype(dt)
            try:
                ref = ss.convolve2d(a, b, "same", "fill", fv)
            except ValueError:
                with pytest.raises(ValueError):
                    cs.convolve2d(cuarray.asarray(a), cuarray.asarray(b), "same", "fill", cuarray.asarray(fv))
                continue
            got = cs.convolve2d(cuarray.asarray(a), cuarray.asarray(b), "same", "fill", cuarray.asarray(fv))
            close(got, ref, ("fill", fv, dt))


def test_complex_kernels_2d():
    """cupyx's Scharr test: a uint8 image and a complex kernel (convolve2d 'symm', 'same')."""
    data = RNG.integers(0, 256, size=(64, 64)).astype(np.uint8)
    scharr = np.array([[-3 - 3j, 0 - 10j, +3 - 3j], [-10 + 0j, 0 + 0j, +10 + 0j], [-3 + 3j, 0 + 10j, +3 + 3j]])
    for fn, mode, boundary in itertools.product(("convolve2d", "correlate2d"), ("full", "same", "valid"),
                                                ("fill", "symm", "wrap")):
        got = getattr(cs, fn)(cuarray.asarray(data), cuarray.asarray(scharr), mode, boundary)
        close(got, getattr(ss, fn)(data, scharr, mode, boundary), (fn, mode, boundary))


def test_results_c_contiguous_where_scipy_s_are():
    """cupyx's tests check the flags: every result SciPy returns C (F) contiguous is so here."""
    x3 = RNG.normal(size=(6, 5, 40))
    a2, k2 = RNG.normal(size=(9, 8)), RNG.normal(size=(3, 4))
    big2 = RNG.normal(size=(40, 48))
    b, a = ss.butter(3, 0.2)
    sos = ss.butter(4, 0.2, output="sos")
    calls = {
        "convolve direct valid": lambda m, d: m.convolve(d(a2), d(k2), "valid", "direct"),
        "convolve direct full": lambda m, d: m.convolve(d(a2), d(k2), "full", "direct"),
        "correlate direct same": lambda m, d: m.correlate(d(a2), d(k2), "same", "direct"),
        "correlate fft valid": lambda m, d: m.correlate(d(a2), d(k2), "valid", "fft"),
        "convolve2d valid": lambda m, d: m.convolve2d(d(a2), d(k2), "valid"),
        "correlate2d valid": lambda m, d: m.correlate2d(d(a2), d(k2), "valid"),
        "correlate2d full symm": lambda m, d: m.correlate2d(d(a2), d(k2), "full", "symm"),
        "convolve2d same wrap": lambda m, d: m.convolve2d(d(a2), d(k2), "same", "wrap"),
        "fftconvolve axes": lambda m, d: m.fftconvolve(d(x3), d(x3[:1, :1, :7]), "same", axes=-1),
        "oaconvolve": lambda m, d: m.oaconvolve(d(x3), d(x3[:1, :1, :7]), "valid", axes=-1),
        "medfilt2d": lambda m, d: m.medfilt2d(d(a2), 3),
        "wiener": lambda m, d: m.wiener(d(a2), 3),
        "hilbert axis 0": lambda m, d: m.hilbert(d(x3), axis=0),
        "hilbert2": lambda m, d: m.hilbert2(d(a2)),
        "detrend axis 0": lambda m, d: m.detrend(d(x3), axis=0),
        "detrend bp": lambda m, d: m.detrend(d(x3), bp=[10, 25]),
        "lfilter axis 0": lambda m, d: m.lfilter(b, a, d(x3), axis=0),
        "lfilter F-order": lambda m, d: m.lfilter(b, a, d(np.asfortranarray(x3)), axis=1),
        "sosfilt axis 1": lambda m, d: m.sosfilt(sos, d(x3), axis=1),
        "filtfilt axis 0": lambda m, d: m.filtfilt(b, a, d(x3), axis=0, padlen=3),
        "sosfiltfilt": lambda m, d: m.sosfiltfilt(sos, d(x3)),
        "savgol_filter axis 0": lambda m, d: m.savgol_filter(d(x3), 5, 2, axis=0),
        "resample axis 0": lambda m, d: m.resample(d(x3), 9, axis=0),
        "resample_poly axis 1": lambda m, d: m.resample_poly(d(x3), 3, 2, axis=1),
        "upfirdn axis 0": lambda m, d: m.upfirdn(d([1.0, 0.5]), d(x3), 2, 1, axis=0),
        "decimate axis 0": lambda m, d: m.decimate(d(x3), 2, ftype="fir", axis=0),
        "welch axis 0": lambda m, d: m.welch(d(x3.transpose(2, 1, 0)), nperseg=8, axis=0),
        # SciPy's csd of an array with itself (`y is x`) is its real psd; with a copy, complex
        "csd axis 1": lambda m, d: (lambda v: m.csd(v, v, nperseg=4, axis=1))(d(x3)),
        "csd of a copy": lambda m, d: m.csd(d(x3), d(x3.copy()), nperseg=4, axis=1),
        "spectrogram axis 0": lambda m, d: m.spectrogram(d(x3.transpose(2, 1, 0)), nperseg=8, axis=0),
        "stft": lambda m, d: m.stft(d(x3), nperseg=8),
        "istft": lambda m, d: m.istft(m.stft(d(x3), nperseg=8)[2], nperseg=8),
        "argrelmax": lambda m, d: m.argrelmax(d(a2), axis=1),
        "cspline2d": lambda m, d: m.cspline2d(d(big2)),
        "symiirorder1 2-D": lambda m, d: m.symiirorder1(d(big2), 0.5, 0.1),
        "envelope axis 0": lambda m, d: m.envelope(d(x3), axis=0),
        "correlation_lags same": lambda m, d: m.correlation_lags(10, 7, "same"),
        "find_peaks": lambda m, d: m.find_peaks(d(x3[0, 0]), prominence=(None, None), width=(None, None)),
    }
    bad = []
    for name, call in calls.items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ref = call(ss, lambda v: np.asarray(v))
            got = call(cs, cuarray.asarray)
        close(got, ref, name)
        refs = ref if isinstance(ref, tuple) else (ref,)
        gots = got if isinstance(got, tuple) else (got,)
        for r, g in zip(refs, gots):
            for r_, g_ in (zip(r.values(), g.values()) if isinstance(r, dict) else ((r, g),)):
                if not isinstance(r_, np.ndarray):
                    continue
                for flag in ("c_contiguous", "f_contiguous"):
                    if getattr(r_.flags, flag) and not getattr(g_.flags, flag):
                        bad.append((name, flag, g_.shape, g_.strides))
    assert not bad, bad


DTYPES = [np.dtype(c) for c in "bHiQfdFD"]


@pytest.mark.parametrize("c_dt", ["float32", "float64", "complex128"])
def test_lfilter_zi_grid(c_dt):
    """cupyx's lfilter grid on the kernels themselves (integer inputs compile their own loads):
    4-D signals, every axis, SciPy's zi from lfiltic, against SciPy."""
    for i, in_dt in enumerate(DTYPES):
        x = (RNG.integers(0, 10, size=(4, 5, 3, 20)) if in_dt.kind in "iu" else RNG.random((4, 5, 3, 20))).astype(in_dt)
        fir, iir = 1 + i % 3, i % 4
        b = (RNG.random(fir) * 0.2).astype(c_dt)
        a = np.r_[1, RNG.random(iir) * 0.2].astype(c_dt)
        for axis in ((3, 0) if i % 2 else (1, 2)):
            what = (str(in_dt), c_dt, fir, iir, axis)
            close(cs.lfilter(cuarray.asarray(b), cuarray.asarray(a), cuarray.asarray(x), axis=axis),
                  ss.lfilter(b, a, x, axis=axis), what)
            K = max(fir, iir + 1) - 1
            zshape = list(x.shape)
            zshape[axis] = K
            m = np.moveaxis(RNG.random(zshape[:axis] + [fir + iir - 1] + zshape[axis + 1:]), axis, -1)
            lines = m.reshape(int(np.prod(m.shape[:-1])), m.shape[-1])
            zi = np.stack([ss.lfiltic(b, a, v[-iir:][::-1] if iir else [], v[:fir - 1][::-1]) for v in lines])
            zi = np.moveaxis(zi.reshape(m.shape[:-1] + (K,)), -1, axis)
            close(cs.lfilter(b, a, cuarray.asarray(x), axis=axis, zi=cuarray.asarray(zi)),
                  ss.lfilter(b, a, x, axis=axis, zi=zi), what + ("zi",))


def test_cupyx_zi_convention_is_named():
    b, a = [0.2, 0.3, 0.1], [1.0, -0.4, 0.1, 0.05]
    x = cuarray.asarray(RNG.normal(size=(3, 30)))
    with pytest.raises(ValueError, match=r"cupyx\.scipy\.signal\.lfilter.*lfiltic"):
        cs.lfilter(b, a, x, zi=cuarray.zeros((3, 5)))
    with pytest.raises(ValueError, match=r"cupyx\.scipy\.signal\.sosfilt.*lfiltic"):
        cs.sosfilt(ss.butter(4, 0.2, output="sos"), x, zi=cuarray.zeros((2, 3, 4)))


def test_correlation_lags_and_choose_conv_method():
    for mode, n1, n2 in itertools.product(("full", "same", "valid"), (1, 10, 11), (1, 4, 11)):
        got = cs.correlation_lags(n1, n2, mode)
        close(got, ss.correlation_lags(n1, n2, mode), (mode, n1, n2))
        assert got.flags.c_contiguous
    assert cs.choose_conv_method(cuarray.asarray(1.0), cuarray.asarray(2.0)) == "direct"
    assert cs.choose_conv_method(cuarray.asarray(1.0), cuarray.ones(5)) == "direct"
    with pytest.raises(IndexError):
        cs.choose_conv_method(cuarray.ones(5), cuarray.asarray(1.0))
