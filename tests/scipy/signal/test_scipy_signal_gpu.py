"""cuarray.scipy.signal on the device against scipy.signal on the host. Fresh random data."""

import numpy as np
import pytest
import scipy.signal as ss
from conv_error_bound import check_direct_modes  # tests/scipy/signal is on sys.path

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
from cuarray.scipy import signal as cs  # noqa: E402

RNG = np.random.default_rng()


def data(shape, dtype):
    x = RNG.normal(size=shape) * 5
    if np.dtype(dtype).kind == "c":
        x = x + 1j * RNG.normal(size=shape)
    return np.round(x).astype(dtype) if np.dtype(dtype).kind in "iu" else x.astype(dtype)


def close(got, ref, tol=None):
    assert isinstance(got, cuarray.ndarray)
    assert got.dtype == ref.dtype and got.shape == ref.shape, (got.dtype, ref.dtype, got.shape, ref.shape)
    g = got.get()
    if ref.dtype.kind in "iub":
        np.testing.assert_array_equal(g, ref)
    else:
        tol = tol or (2e-4 if ref.dtype.char in "fF" else 1e-9)
        np.testing.assert_allclose(g, ref, rtol=tol, atol=tol * max(1.0, float(np.abs(ref).max(initial=0))))


SHAPES = [((200,), (15,)), ((17,), (40,)), ((30, 28), (5, 4)), ((9, 10, 11), (3, 2, 4))]


@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize("method", ["direct", "fft", "auto"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128, np.int32])
@pytest.mark.parametrize("s1,s2", SHAPES)
@pytest.mark.parametrize("fn", ["convolve", "correlate"])
def test_convolve_correlate(fn, s1, s2, dtype, method, mode):
    a, b = data(s1, dtype), data(s2, dtype)
    try:
        ref = getattr(ss, fn)(a, b, mode, method)
    except ValueError:
        with pytest.raises(ValueError):
            getattr(cs, fn)(cuarray.asarray(a), cuarray.asarray(b), mode, method)
        return
    close(getattr(cs, fn)(cuarray.asarray(a), cuarray.asarray(b), mode, method), ref)


@pytest.mark.parametrize("dtype", [np.float16, np.bool_], ids=["float16", "bool"])
@pytest.mark.parametrize("s1,s2", SHAPES)
def test_convolve_correlate_direct_float16_bool(s1, s2, dtype):
    # SciPy: N-D direct sums raise ValueError('Unsupported type') for these (cupyx's test expects
    # it; the float16 kernel did not compile); 1-D ones are NumPy's (float16: float32 sums rounded once)
    a, b = (data(s, np.float64) > 0 if dtype == np.bool_ else data(s, dtype) for s in (s1, s2))
    check_direct_modes(a, b, lambda fn, mode: getattr(cs, fn)(cuarray.asarray(a), cuarray.asarray(b), mode, "direct"),
                       lambda got, ref: close(got, ref, 2e-3))  # 2 ulps of float16


@pytest.mark.parametrize("mode", ["full", "same", "valid"])
def test_fftconvolve_and_2d(mode):
    a, b = data((300, 7), np.float64), data((31, 7), np.float64)
    close(cs.fftconvolve(cuarray.asarray(a), cuarray.asarray(b), mode, axes=0), ss.fftconvolve(a, b, mode, axes=0))
    a, b = data((40, 37), np.float32), data((5, 6), np.float32)
    for boundary in ("fill", "wrap", "symm"):
        for fn in ("convolve2d", "correlate2d"):
            close(getattr(cs, fn)(cuarray.asarray(a), cuarray.asarray(b), mode, boundary, 0.5),
                  getattr(ss, fn)(a, b, mode, boundary, 0.5))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int16, np.uint8])
def test_medfilt_wiener_hilbert_detrend(dtype):
    x = np.abs(data((33, 29), np.float64) * 3).astype(dtype)
    d = cuarray.asarray(x)
    close(cs.medfilt(d, [3, 5]), ss.medfilt(x, [3, 5]))
    close(cs.medfilt2d(d, 5), ss.medfilt2d(x, 5))
    if np.dtype(dtype).kind == "f":
        # SciPy's float32 wiener returns float64 but only float32-accurate values: its local means
        # come from FFTs that scipy.fft runs in single precision for a float32 input; ours are
        # direct sums in double. So the tolerance follows the input's precision.
        close(cs.wiener(d, 5), ss.wiener(x, 5), 1e-5 if dtype == np.float32 else None)
        close(cs.hilbert(d), ss.hilbert(x))
        close(cs.hilbert2(d), ss.hilbert2(x))
    close(cs.detrend(d, axis=0), ss.detrend(x, axis=0))
    close(cs.detrend(d, type="constant"), ss.detrend(x, type="constant"))
    close(cs.detrend(d, bp=[5, 11]), ss.detrend(x, bp=[5, 11]))


FILTERS = [ss.butter(4, 0.2), ss.cheby1(3, 1, [0.2, 0.5], "bandpass"), (np.arange(1.0, 8.0), [1.0]),
           ([0.5, 0.2], [2.0, -0.3, 0.1])]


@pytest.mark.parametrize("fi", range(len(FILTERS)))
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128])
def test_lfilter(fi, dtype):
    b, a = FILTERS[fi]
    x = data((6, 300, 5), dtype)
    for axis in (1, 0, -1):
        close(cs.lfilter(b, a, cuarray.asarray(x), axis), ss.lfilter(b, a, x, axis), 1e-4 if dtype == np.float32 else 1e-9)
        zshape = list(x.shape)
        zshape[axis] = max(len(a), len(b)) - 1
        zi = data(tuple(zshape), np.float64)
        got = cs.lfilter(b, a, cuarray.asarray(x), axis, cuarray.asarray(zi))
        ref = ss.lfilter(b, a, x, axis, zi)
        close(got[0], ref[0], 1e-4 if dtype == np.float32 else 1e-9)
        close(got[1], ref[1], 1e-4 if dtype == np.float32 else 1e-9)


def test_filtfilt_sosfilt():
    x = data((8, 500), np.float64)
    b, a = ss.butter(4, 0.15)
    close(cs.filtfilt(b, a, cuarray.asarray(x)), ss.filtfilt(b, a, x))
    close(cs.filtfilt(b, a, cuarray.asarray(x.T), axis=0, padtype="even"), ss.filtfilt(b, a, x.T, axis=0, padtype="even"))
    sos = ss.butter(8, [0.1, 0.3], "bandpass", output="sos")
    close(cs.sosfilt(sos, cuarray.asarray(x)), ss.sosfilt(sos, x))
    close(cs.sosfiltfilt(sos, cuarray.asarray(x)), ss.sosfiltfilt(sos, x))
    zi = cs.lfilter_zi(cuarray.asarray(b), cuarray.asarray(a))
    assert isinstance(zi, cuarray.ndarray)
    np.testing.assert_allclose(zi.get(), ss.lfilter_zi(b, a))
    long_fir = np.hanning(801)
    close(cs.lfilter(long_fir, [1.0], cuarray.asarray(x)), ss.lfilter(long_fir, [1.0], x))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128])
def test_spectral(dtype):
    x = data((4, 3000), dtype)
    y = data((4, 3000), np.float64)
    for kw in [dict(), dict(nperseg=128, noverlap=100, nfft=300), dict(window="hamming", detrend="linear"),
               dict(nperseg=200, average="median")]:
        f, p = cs.welch(cuarray.asarray(x), 5.0, **kw)
        rf, rp = ss.welch(x, 5.0, **kw)
        close(f, rf)
        close(p, rp, 1e-3 if dtype == np.float32 else 1e-8)
        if dtype != np.complex128:
            close(cs.csd(cuarray.asarray(x), cuarray.asarray(y), **kw)[1], ss.csd(x, y, **kw)[1],
                  1e-3 if dtype == np.float32 else 1e-8)
    if dtype == np.float64:
        close(cs.periodogram(cuarray.asarray(x))[1], ss.periodogram(x)[1])
        close(cs.coherence(cuarray.asarray(x), cuarray.asarray(y), nperseg=256)[1],
              ss.coherence(x, y, nperseg=256)[1], 1e-7)
        close(cs.spectrogram(cuarray.asarray(x), nperseg=128)[2], ss.spectrogram(x, nperseg=128)[2])
        close(cs.stft(cuarray.asarray(x), nperseg=100)[2], ss.stft(x, nperseg=100)[2])



def _istft_conditioning(kw, nseg):
    """sqrt(max(norm) / norm) per output sample, norm being istft's divisor (the squared window
    overlap-added, trimmed by the boundary, 1 where SciPy does not divide): a rounding error of
    the inverse FFTs is multiplied by window / norm, ~1 / sqrt(norm) where one segment covers the
    sample. With boundary=False the ends are divided by window^2 down to 1e-10 (nperseg=2000:
    sqrt(norm) 2.2e-5 at sample 3): there SciPy's own float32 result is up to 2e-2 off its float64
    one (the GPU run's kw3-float32/complex64 failures, beyond a flat 1e-4 of the largest value)."""
    nperseg = kw["nperseg"]
    nstep = nperseg - kw.get("noverlap", nperseg // 2)
    win = ss.get_window(kw.get("window", "hann_periodic"), nperseg)
    norm = np.zeros((nseg - 1) * nstep + nperseg)
    for i in range(nseg):
        norm[i * nstep:i * nstep + nperseg] += win ** 2
    if kw.get("boundary", True):
        norm = norm[nperseg // 2:-(nperseg // 2)]
    norm = np.where(norm > 1e-10, norm, 1.0)
    return np.sqrt(norm.max() / norm)


def _close_istft(got, ref, tol, weight, time_axis):
    """close() with the absolute part scaled per sample by `weight` (along the time axis)."""
    assert got.dtype == ref.dtype and got.shape == ref.shape, (got.dtype, ref.dtype, got.shape, ref.shape)
    w = np.moveaxis(weight.reshape((-1,) + (1,) * (ref.ndim - 1)), 0, time_axis)
    err = np.abs(got.get() - ref)
    bound = tol * np.abs(ref) + tol * max(1.0, float(np.abs(ref).max(initial=0))) * w
    assert (err <= bound).all(), "{} of {} samples: worst err/bound {}".format(
        int((err > bound).sum()), err.size, float((err / bound).max()))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
@pytest.mark.parametrize("kw", [dict(nperseg=128), dict(nperseg=100, noverlap=75, nfft=128, window="hamming"),
                                dict(nperseg=64, noverlap=21, scaling="psd"),
                                dict(nperseg=2000, noverlap=1000, boundary=None, padded=True)])
def test_istft(dtype, kw):
    x = data((3, 5000), dtype)
    _, _, z = ss.stft(x, **kw)  # (the last case: few segments, the divisor computed whole on the host)
    onesided = np.dtype(dtype).kind != "c"
    kw = {k: v for k, v in kw.items() if k != "padded"}
    if kw.get("boundary", True) is None:
        kw["boundary"] = False
    rt, rx = ss.istft(z, input_onesided=onesided, **kw)
    t, got = cs.istft(cuarray.asarray(z), input_onesided=onesided, **kw)
    close(t, rt)
    tol = 1e-4 if np.dtype(dtype).char in "fF" else 1e-9
    weight = _istft_conditioning(kw, z.shape[-1])
    _close_istft(got, rx, tol, weight, -1)
    zt = np.ascontiguousarray(z.transpose(2, 0, 1))  # (time, batch, freq), and a non-contiguous view of it
    zt_dev = cuarray.asarray(zt)
    for arr, dev in ((zt, zt_dev), (zt[:, ::2], zt_dev[:, ::2])):
        ref = ss.istft(arr, input_onesided=onesided, time_axis=0, freq_axis=2, **kw)[1]
        got = cs.istft(dev, input_onesided=onesided, time_axis=0, freq_axis=2, **kw)[1]
        _close_istft(got, ref, tol, weight, 0)  # (SciPy puts the time axis first here)

def test_argrel_oaconvolve_savgol():
    x = np.round(data((5, 300), np.float64))
    for fn in ("argrelmax", "argrelmin"):
        for g, r in zip(getattr(cs, fn)(cuarray.asarray(x), 1, 2), getattr(ss, fn)(x, 1, 2)):
            np.testing.assert_array_equal(g.get(), r)
    a, b = data((5000,), np.float32), data((300,), np.float32)
    close(cs.oaconvolve(cuarray.asarray(a), cuarray.asarray(b), "same"), ss.oaconvolve(a, b, "same"))
    for mode in ("interp", "mirror", "nearest"):
        close(cs.savgol_filter(cuarray.asarray(x), 11, 3, 1, axis=-1, mode=mode), ss.savgol_filter(x, 11, 3, 1, mode=mode))


@pytest.mark.parametrize("n,num", [(400, 250), (401, 900), (64, 64)])
def test_resample_deconvolve(n, num):
    x = data((3, n), np.float64)
    close(cs.resample(cuarray.asarray(x), num, axis=1), ss.resample(x, num, axis=1))
    xc = data((n,), np.complex128)
    close(cs.resample(cuarray.asarray(xc), num), ss.resample(xc, num))
    den = np.array([1.0, 0.5, 0.25])
    sig = np.convolve(den, data((40,), np.float64))
    for g, r in zip(cs.deconvolve(cuarray.asarray(sig), cuarray.asarray(den)), ss.deconvolve(sig, den)):
        close(g, r)


@pytest.mark.parametrize("up,down", [(3, 2), (1, 4), (5, 1)])
def test_upfirdn_resample_poly(up, down):
    h = data((9,), np.float64)
    x = data((4, 500), np.float32)
    close(cs.upfirdn(h, cuarray.asarray(x), up, down), ss.upfirdn(h, x, up, down))
    xd = data((300, 3), np.float64)
    close(cs.resample_poly(cuarray.asarray(xd), up, down), ss.resample_poly(xd, up, down))
    close(cs.resample_poly(cuarray.asarray(xd), up, down, padtype="mean"), ss.resample_poly(xd, up, down, padtype="mean"))


def test_decimate():
    x = data((3, 2000), np.float64)
    for ftype in ("iir", "fir"):
        for zp in (True, False):
            close(cs.decimate(cuarray.asarray(x), 4, ftype=ftype, zero_phase=zp), ss.decimate(x, 4, ftype=ftype, zero_phase=zp))


@pytest.mark.parametrize("kw", [dict(), dict(height=0.5, threshold=0.1), dict(prominence=1.0, width=2),
                                dict(distance=7), dict(plateau_size=1, prominence=(0.5, None), wlen=21)])
def test_find_peaks(kw):
    x = np.round(RNG.normal(size=5000) * 4) / 4 if "distance" not in kw else RNG.normal(size=5000)
    got, gprops = cs.find_peaks(cuarray.asarray(x), **kw)
    ref, rprops = ss.find_peaks(x, **kw)
    np.testing.assert_array_equal(got.get(), ref)
    assert sorted(gprops) == sorted(rprops)
    for k in rprops:
        np.testing.assert_allclose(gprops[k].get(), rprops[k], rtol=1e-12, atol=1e-12, err_msg=k)
    peaks = ref
    for g, r in zip(cs.peak_widths(cuarray.asarray(x), cuarray.asarray(peaks), 0.7), ss.peak_widths(x, peaks, 0.7)):
        np.testing.assert_allclose(g.get(), r)


@pytest.mark.parametrize("n", [3, 4097, 200_003, 10**7])
def test_find_peaks_tile_kernels(n):
    # the tile kernels (count, scan, write) across many tiles: integer-valued noise (plateaus,
    # some across tile boundaries of 4096 samples), random float64 (the bench's case at 1e7), and a
    # plateau longer than the walk limit (the run-boundary path); both plans must give SciPy's
    # peaks exactly, and the edges with plateau_size
    from cuarray.scipy.signal import _peaks

    for x in (np.round(RNG.normal(size=n) * 2), RNG.normal(size=n)):
        if n > 10_000:
            x[5000:5000 + 4096 + 3] = 9.0  # rises into a plateau across a tile boundary, > the limit
        ref, rprops = ss.find_peaks(x, plateau_size=1)
        for plan in _peaks.MAXIMA:
            d = cuarray.asarray(x)
            got, _ = _peaks._find_peaks(d, maxima=plan)
            np.testing.assert_array_equal(got.get(), ref)
            got, gprops = _peaks._find_peaks(d, plateau_size=1, maxima=plan)
            np.testing.assert_array_equal(got.get(), ref)
            for k in rprops:
                np.testing.assert_array_equal(gprops[k].get(), rprops[k], err_msg=k)
        if n > 10_000:
            x[5000:5000 + 4096 + 3] = RNG.normal(size=4099)  # no long plateau: the tiles decide alone
            x[4094:4099] = 20.0  # a peak plateau across the first tile boundary
            x[8190:8192] = [30.0, 30.0]
            np.testing.assert_array_equal(cs.find_peaks(cuarray.asarray(x))[0].get(), ss.find_peaks(x)[0])


def long_plateaus(n, integer):
    """Fresh noise (integer-valued: short plateaus and ties; or float: distinct heights) with
    plateaus past the old walk limit (2048) across one and several 4096-sample tile edges, on a
    tile's first and last samples, falling (peaks) or rising after them, NaN inside and beside some,
    and a plateau at each end (the right one flat to the last sample: no peak)."""
    T = 4096
    x = np.round(RNG.normal(size=n) * 2) if integer else RNG.normal(size=n)
    h = 20.0 + RNG.random()  # plateau heights distinct from the noise and each other
    spans = [(T - int(RNG.integers(1, 3000)), 2 * T + int(RNG.integers(1, 100))), (3 * T, 4 * T),
             (5 * T + 31, 9 * T + int(RNG.integers(0, T))), (11 * T - 2049, 11 * T + 1)]
    for j, (a, b) in enumerate(spans):
        x[a:b] = h + j
        x[a - 1] = h - 40 + j
        x[b] = (h - 30 + j, h + 9 + j, np.nan, h - 31 - j)[j]  # falls, rises, NaN, falls
    x[T * 6 + 11] = np.nan  # NaN inside the third plateau: cuts it
    x[T * 12 + 5:T * 12 + 9] = np.nan
    x[:1000] = h + 7.5  # the left end: no peak (no rise into it)
    x[-3000:] = h + 8.5  # the right end: flat to the last sample, no peak
    x[-3001] = h - 50
    return x


PEAK_KW = [dict(), dict(height=0.5), dict(height=(None, 21.5)), dict(threshold=0.2), dict(threshold=(0.0, 3.0)),
           dict(distance=9), dict(distance=2500, height=-1.0), dict(prominence=1.0), dict(prominence=(0.5, 40), wlen=5001),
           dict(width=3), dict(width=(1, 9000), rel_height=0.9), dict(plateau_size=2), dict(plateau_size=(3000, None)),
           dict(plateau_size=1, height=0.0, threshold=0.0, prominence=0.1, width=0.5)]


@pytest.mark.parametrize("kw", PEAK_KW, ids=[str(k) for k in PEAK_KW])
def test_find_peaks_long_plateaus(kw):
    # the default plan ("tiles", which hands a plateau past its limit to "ends") and every plan: SciPy's
    # peaks and properties, every argument (each takes the local maxima first)
    from cuarray.scipy.signal import _peaks

    for n in (13 * 4096 + 3001, 200_000 + int(RNG.integers(0, 4096))):
        x = long_plateaus(n, integer="distance" not in kw)  # distinct heights for distance
        ref, rprops = ss.find_peaks(x, **kw)
        assert ss.find_peaks(x, plateau_size=2049)[0].size  # a plateau the old walk did not take
        d = cuarray.asarray(x)
        for plan in (_peaks.MAXIMA if not kw else _peaks.MAXIMA[:1]):
            got, gprops = _peaks._find_peaks(d, maxima=plan, **kw)
            np.testing.assert_array_equal(got.get(), ref, err_msg=plan)
            assert sorted(gprops) == sorted(rprops)
            for k in rprops:
                np.testing.assert_allclose(gprops[k].get(), rprops[k], rtol=1e-12, atol=1e-12, err_msg=k)
        got, _ = cs.find_peaks(d, **kw)
        np.testing.assert_array_equal(got.get(), ref)


@pytest.mark.parametrize("n", [3, 4, 31, 33, 4095, 4096, 4097, 8193])
def test_find_peaks_short_and_tile_sized(n):
    # few-valued signals (runs of every length) cut where the warp segments and the tiles end
    for x in (RNG.integers(0, 3, n).astype(float), np.repeat(RNG.integers(0, 4, n // 8 + 1), 8)[:n] + 0.5):
        ref, rprops = ss.find_peaks(x, plateau_size=1)
        got, gprops = cs.find_peaks(cuarray.asarray(x), plateau_size=1)
        np.testing.assert_array_equal(got.get(), ref)
        for k in rprops:
            np.testing.assert_array_equal(gprops[k].get(), rprops[k], err_msg=k)


def test_peak_width_heights_round_as_scipy():
    # h = x[peak] - prominence * rel_height, product rounded first: exactly 0.0 here, as in SciPy
    # (a contracted fma gave 1.1e-16). Fresh random heights around the exact case.
    x = np.round(RNG.normal(size=2000) * 4) / 4
    x[100:103] = [-0.75, 1.75, -0.75]
    peaks, _ = ss.find_peaks(x)
    for g, r in zip(cs.peak_widths(cuarray.asarray(x), cuarray.asarray(peaks), 0.7), ss.peak_widths(x, peaks, 0.7)):
        np.testing.assert_array_equal(g.get(), r)


@pytest.mark.parametrize("order", range(1, 9))
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128])
def test_lfilter_scan_long_signals(order, dtype):
    # long lines, few of them: the blocked scan (chunks, carried start states) runs along axis 0,
    # and along the last axis the overlap plan (chunks warmed up over up to ~2700 samples for the
    # slowest of these filters); low cut-offs put the poles near 1, where rounding accumulates most. Tolerance: SciPy's own rounding error
    # for these filters against a long double sweep reaches ~1e-8 of the signal's size.
    from cuarray.scipy.signal import _lfilter

    b, a = ss.butter(order, 0.05 if order % 2 else 0.15)
    for shape, axis in (((300_000,), 0), ((40_000, 3), 0), ((2, 50_000), -1)):
        x = data(shape, dtype)
        assert _lfilter.plan_chunks(shape[axis], x.size // shape[axis], a / a[0], order) < shape[axis]
        ref = ss.lfilter(b, a, x, axis)
        got = cs.lfilter(b, a, cuarray.asarray(x), axis)
        close(got, ref, 2e-8)
        zshape = list(shape)
        zshape[axis] = order
        zi = data(tuple(zshape), np.float64)
        got, gz = cs.lfilter(cuarray.asarray(b), cuarray.asarray(a), cuarray.asarray(x), axis, cuarray.asarray(zi))
        ref, rz = ss.lfilter(b, a, x, axis, zi)
        close(got, ref, 2e-8)
        close(gz, rz, 2e-8)


def _bench_filter():
    import math

    a = np.array([math.comb(8, k) * (-0.5) ** k for k in range(9)])  # the bench's order-8 low-pass
    return np.full(9, a.sum() / 9), a


@pytest.mark.parametrize("plan", ["overlap", "staged", "fixed", "runtime"])
@pytest.mark.parametrize("shape,axis,dtype", [
    ((300, 100_000), -1, np.float64),  # the bench's lines (chunked: 354 chunks a line, blocks across lines)
    ((1, 3_000_001), -1, np.float64),  # one long line (chunked, a last chunk longer than the others)
    ((3000, 1000), -1, np.float32),  # short lines: one sweep each (C == 1), float32 in and out
    ((77, 5000), -1, np.complex128),  # few rows: a block partly empty; complex as two real passes
    ((100_000, 40), 0, np.float64),  # along axis 0 (the staged plan runs the fixed kernels)
    ((6, 20_011, 3), 1, np.float32),
])
def test_lfilter_sweeps(plan, shape, axis, dtype):
    # every plan (one pass with warmed-up chunks; the scan with exact-order staged, exact-order in
    # place or runtime-order kernels) against SciPy with and without zi, and against the
    # runtime-order scan to rounding
    from cuarray.scipy.signal import _lfilter

    b, a = _bench_filter()
    x = data(shape, dtype)
    zshape = list(shape)
    zshape[axis] = 8
    zi = data(tuple(zshape), np.float64)
    tol = 1e-4 if dtype == np.float32 else 1e-9
    d = cuarray.asarray(x)
    got = _lfilter._lfilter(b, a, d, axis, None, plan)
    close(got, ss.lfilter(b, a, x, axis), tol)
    gy, gz = _lfilter._lfilter(cuarray.asarray(b), a, d, axis, cuarray.asarray(zi), plan)
    ry, rz = ss.lfilter(b, a, x, axis, zi)
    close(gy, ry, tol)
    close(gz, rz, tol)
    base = _lfilter._lfilter(b, a, d, axis, cuarray.asarray(zi), "runtime")[0].get()
    same = 1e-12 if base.dtype.char in "dD" else 2.5e-7  # float32 outputs: a last-bit rounding flip
    np.testing.assert_allclose(gy.get(), base, rtol=same, atol=same * float(np.abs(base).max()))


@pytest.mark.parametrize("layout", ["aligned", "first", "aligned64"])
@pytest.mark.parametrize("shape,dtype", [((200, 100_000), np.float64), ((1, 2_000_003), np.float64),
                                         ((37, 30_011), np.float32), ((5, 40_000), np.complex128)])
def test_lfilter_overlap_layouts(layout, shape, dtype):
    # the overlap plan's layouts (aligned chunks and warm-ups, a shorter last chunk; the first
    # layout; 64-sample windows) on lines that start aligned and lines that do not, against SciPy
    # with zi and against the runtime-order scan to rounding
    from cuarray.scipy.signal import _lfilter

    b, a = _bench_filter()
    x = data(shape, dtype)
    zi = data((shape[0], 8), np.float64)
    tol = 1e-4 if dtype == np.float32 else 1e-9
    d = cuarray.asarray(x)
    gy, gz = _lfilter._lfilter(b, a, d, -1, cuarray.asarray(zi), "overlap", None, layout)
    ry, rz = ss.lfilter(b, a, x, -1, zi)
    close(gy, ry, tol)
    close(gz, rz, tol)
    close(_lfilter._lfilter(b, a, d, -1, None, "overlap", None, layout), ss.lfilter(b, a, x), tol)
    base = _lfilter._lfilter(b, a, d, -1, cuarray.asarray(zi), "runtime")[0].get()
    same = 1e-12 if base.dtype.char in "dD" else 2.5e-7
    np.testing.assert_allclose(gy.get(), base, rtol=same, atol=same * float(np.abs(base).max()))


def test_lfilter_fixed_orders_and_past_them():
    # orders 0 (a gain), 1-16 (exact-order kernels) and 20 (the runtime kernels), staged along the
    # last axis of many short lines and chunked along one long line
    for order in (0, 1, 2, 5, 13, 16, 20):
        if order == 0:
            b, a = [1.7], [2.0]
        elif order <= 16:
            z = 0.2 + 0.4 * RNG.random(order)  # real poles well inside the unit circle: stable
            a = np.poly(z)
            b = RNG.normal(size=order + 1)
        else:
            b, a = RNG.normal(size=order + 1), [1.0]
        for shape in ((500, 3000), (1, 400_000)):
            x = data(shape, np.float64)
            close(cs.lfilter(b, a, cuarray.asarray(x)), ss.lfilter(b, a, x), 1e-9)


def test_lfilter_float32_coefficients_and_unstable_filters():
    # float32 coefficients: SciPy computes in float32, we in float64 (more accurate): SciPy's
    # float32 error is the tolerance. An unstable filter keeps SciPy's single sweep.
    b, a = (c.astype(np.float32) for c in ss.butter(2, 0.2))
    x = data((3, 20_000), np.float32)
    close(cs.lfilter(b, a, cuarray.asarray(x)), ss.lfilter(b, a, x), 1e-3)
    x = data((2, 8000), np.float64) * 1e-300
    with np.errstate(over="ignore", invalid="ignore"):
        ref = ss.lfilter([1.0], [1.0, -1.05], x)
    got = cs.lfilter([1.0], [1.0, -1.05], cuarray.asarray(x)).get()
    np.testing.assert_allclose(got, ref, rtol=1e-9)


@pytest.mark.parametrize("normalize", ["power", "normalize", "amplitude"])
@pytest.mark.parametrize("floating_mean", [False, True])
@pytest.mark.parametrize("n,nf", [(1000, 700), (5, 3), (200000, 40), (777, 1)])
def test_lombscargle(normalize, floating_mean, n, nf):
    x = np.sort(RNG.uniform(0, 50, n))
    y = 1.5 * np.sin(0.9 * x + 0.3) + RNG.normal(size=n) + 0.7
    w = RNG.uniform(0.1, 2.0, n)
    freqs = RNG.uniform(0.01, 5.0, nf)
    for kw in (dict(), dict(weights=w)):
        ref = ss.lombscargle(x, y, freqs, normalize=normalize, floating_mean=floating_mean, **kw)
        got = cs.lombscargle(cuarray.asarray(x), cuarray.asarray(y), cuarray.asarray(freqs), normalize=normalize,
                             floating_mean=floating_mean, **{k: cuarray.asarray(v) for k, v in kw.items()})
        close(got, ref, 1e-8)
    xf = cuarray.asarray(x.astype(np.float32))[::2]  # float32 and strided: cast and made contiguous, as SciPy
    close(cs.lombscargle(xf, cuarray.asarray(y)[::2], cuarray.asarray(freqs)),
          ss.lombscargle(x.astype(np.float32)[::2], y[::2], freqs), 1e-8)
    with pytest.raises(ValueError, match="weights"):
        cs.lombscargle(cuarray.asarray(x), cuarray.asarray(y), cuarray.asarray(freqs), weights=cuarray.asarray(-w))


@pytest.mark.parametrize("fft_mode", ["onesided", "twosided", "centered", "onesided2X"])
@pytest.mark.parametrize("phase_shift", [0, None, 3])
def test_short_time_fft(fft_mode, phase_shift):
    kw = dict(fft_mode=fft_mode, mfft=70, phase_shift=phase_shift,
              scale_to="magnitude" if fft_mode == "onesided2X" else None)
    ours = cs.ShortTimeFFT.from_window("hann", 100.0, 64, 48, **kw)
    ref = ss.ShortTimeFFT.from_window("hann", 100.0, 64, 48, **kw)
    dtype = np.float64 if ref.onesided_fft else np.complex128
    x = data((3, 4001), dtype)
    S_ref = ref.stft(x)
    S = ours.stft(cuarray.asarray(x))
    close(S, S_ref)
    close(ours.istft(cuarray.asarray(S_ref)), ref.istft(S_ref))
    close(ours.istft(cuarray.asarray(S_ref), k1=4001), ref.istft(S_ref, k1=4001))
    close(ours.spectrogram(cuarray.asarray(x)), ref.spectrogram(x))
    for padding in ("zeros", "edge", "even", "odd"):
        xt = np.ascontiguousarray(x.T)[::2]  # (samples, batch), a strided view on the device
        close(ours.stft_detrend(cuarray.asarray(np.ascontiguousarray(x.T))[::2], "linear", p0=1, p1=50,
                                padding=padding, axis=0),
              ref.stft_detrend(xt, "linear", p0=1, p1=50, padding=padding, axis=0))
    close(ours.f, ref.f)
    close(ours.t(4001), ref.t(4001))
    close(ours.win, ref.win)
    close(ours.dual_win, ref.dual_win)
    assert (ours.p_min, ours.k_min, ours.p_max(4001), ours.delta_t, ours.delta_f) == \
        (ref.p_min, ref.k_min, ref.p_max(4001), ref.delta_t, ref.delta_f)
    d, alpha = cs.closest_STFT_dual_window(cuarray.asarray(ref.win), 16)
    d_ref, alpha_ref = ss.closest_STFT_dual_window(ref.win, 16)
    close(d, d_ref)
    assert alpha == alpha_ref
