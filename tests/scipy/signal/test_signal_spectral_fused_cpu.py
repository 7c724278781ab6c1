"""The fused spectral path (cuarray/scipy/signal/_spectral_fused.py) without a device: its three
kernels compile for sm_90 (NVRTC), and its glue (frame indexing, the per-frequency factors, the
axis moves, the averaging) gives SciPy's results when the kernels are NumPy stand-ins written from
the kernels' C expressions."""

import numpy as np
import pytest
import scipy.signal as ss

from cubin_info import compile_sm90  # tests/ is on sys.path
from cuda_standins import PREAMBLE  # tests/scipy/signal is on sys.path
from stft_kernel_case import StftCase

F4, F8, C8, C16, I4, I8 = (np.dtype(c) for c in ("f4", "f8", "c8", "c16", "i4", "i8"))
PAIRS = [(F4, C8), (F8, C16)]


@pytest.mark.parametrize("real,cplx", PAIRS)
def test_fused_kernels_compile(real, cplx):
    from cuarray._core.reduction import Stage
    from cuarray.scipy.signal import _spectral_rows as rows

    frame = rows.elementwise_definition("frames", {"T": real})
    power = rows.elementwise_definition("power", {"C": cplx, "R": real})
    for d in (frame, power):
        for layout, nd, it in (("flat", 1, np.int32), ("nd", 2, np.int64)):
            name, src = d.source(layout, nd, it)
            compile_sm90(src, [])
    mean = rows.reduction_definition("mean_power", {"C": cplx, "R": real})
    wsum = rows.reduction_definition("window_sum", {"T": real})
    for st in (Stage("map", "out", 32, 4, 4, 1, 1, np.int32), Stage("map", "out", 256, 1, 1, 1, 2, np.int64)):
        for d in (mean, wsum):
            name, src = d.source(st)
            compile_sm90(src, [])
    times = rows.elementwise_definition("times", {})
    compile_sm90(times.source("flat", 1, np.int32)[1], [])
    for wdt in (F4, F8):  # (a window of either precision for a signal of either)
        scale = rows.elementwise_definition("window_scale", {"T": wdt, "R": real})
        name, src = scale.source("flat", 1, np.int32)
        compile_sm90(src, [])


def test_mean_power_template_compiles():
    """templates/spectral.cu's kernels for float32/float64 (NVRTC, sm_90; the family's declarations
    are checked against the template by tests/cuda/test_kernel_family_cpu.py)."""
    from cuarray.scipy.signal import _spectral_fused as fz

    names = [fz.SPECTRAL.name_expression(n) for t in ("float", "double")
             for n in ("power_partials<{}>".format(t), "power_mean<{}, {}>".format(t, fz._MEAN_BLOCK),
                       "frames<{}>".format(t))]
    names += [fz.SPECTRAL.name_expression("stft_rfft<{}, {}>".format(t, m)) for t in ("float", "double")
              for m in (32, 64, 128, 256, 512)]  # (stft's one pass: nfft from 64 to 1024)
    _, lowered = compile_sm90(fz.SPECTRAL.source(), names)
    assert set(lowered) == set(names)


@pytest.mark.parametrize("nseg,nf,batch", [(78124, 129, 1), (1, 3, 1), (33, 2, 6), (10**6, 1025, 4), (40, 40, 70000)])
def test_mean_power_chunking_covers_every_segment(nseg, nf, batch):
    """power_partials' chunks: every segment in exactly one chunk, the grid within CUDA's limits,
    and enough blocks to fill 132 SMs where there are segments for them (welch of 1e7 samples:
    78124 segments, 129 bins; the generic reduction ran 1954 blocks of 129 busy threads)."""
    from cuarray.scipy.signal import _spectral_fused as fz

    rows, nchunks = fz.chunking(nseg, nf, batch, 132)
    assert rows >= 1 and 1 <= nchunks <= 65535
    assert (nchunks - 1) * rows < nseg <= nchunks * rows
    blocks = -(-nf // 32) * nchunks * batch
    assert blocks >= min(16 * 132, -(-nf // 32) * batch * max(1, nseg // 32))
    assert rows >= min(32, nseg)


def _mean_power_model(spec, c, real):
    """`mean_power` in NumPy, chunk by chunk as power_partials sums (rows of `chunking`)."""
    from cuarray.scipy.signal import _spectral_fused as fz

    *outer, nseg, nf = spec.shape
    rows, nchunks = fz.chunking(nseg, nf, int(np.prod(outer)), 132)
    p = spec.real.astype(np.float64) ** 2 + spec.imag.astype(np.float64) ** 2
    parts = sum(p[..., k * rows:(k + 1) * rows, :].sum(axis=-2) for k in range(nchunks))
    return (parts * np.asarray(c) * (1.0 / nseg)).astype(real)


class _PairsModel(list):
    """`mean_power_pairs` in NumPy (the segments' detrended, windowed real FFTs, |X|^2 * c in
    double, the mean): records the nfft of each call (welch's one-pass route taken)."""

    def __call__(self, x, w, nperseg, noverlap, nfft, detrend, c):
        self.append(nfft)
        nstep = nperseg - noverlap
        seg = np.lib.stride_tricks.sliding_window_view(x, nperseg, axis=-1)[..., ::nstep, :]
        if detrend:
            seg = seg - seg.mean(-1, keepdims=True).astype(x.dtype)
        spec = np.fft.rfft((seg * np.asarray(w, x.dtype)).astype(np.float64), nfft)
        p = spec.real ** 2 + spec.imag ** 2
        return (p.mean(-2) * np.asarray(c)).astype(x.dtype)


def _power_rows_model(x, w, nperseg, noverlap, nfft, detrend, c):
    """`power_rows` in NumPy: each segment's detrended, windowed real FFT, |X|^2 * c (spectrogram)."""
    nstep = nperseg - noverlap
    seg = np.lib.stride_tricks.sliding_window_view(x, nperseg, axis=-1)[..., ::nstep, :]
    if detrend:
        seg = seg - seg.mean(-1, keepdims=True).astype(x.dtype)
    spec = np.fft.rfft((seg * np.asarray(w, x.dtype)).astype(np.float64), nfft)
    return ((spec.real ** 2 + spec.imag ** 2) * np.asarray(c)).astype(x.dtype)


def _segment_times_model(start, stop, step, fs, off):
    """`_spectral_fused.segment_times`' kernel in NumPy: (start + i step) / fs, less off."""
    i = np.arange(max(0, int(np.ceil((stop - start) / step))))
    t = (start + i.astype(np.float64) * step) / fs
    return t if off is None else t - off


class _DeviceWindow(list):
    """`device_window`'s two kernels in NumPy (double sums, w sqrt(scale) in the signal's dtype);
    records its calls (array windows are device arrays in these host copies)."""

    def __call__(self, win, dtype, fs, density):
        self.append((np.shape(win), np.dtype(dtype), density))
        w = np.asarray(win, np.float64)
        s = 1.0 / (fs * (w * w).sum()) if density else 1.0 / w.sum() ** 2
        return (w * np.sqrt(s)).astype(dtype)


@pytest.fixture
def device_windows():
    return _DeviceWindow()


# templates/spectral.cu's kernels built with g++: CUDA's names as stand-ins; `frames` runs a warp at a
# time, its 32 lanes as threads (its in-warp means shuffle), `power_partials` serially.
FRAMES_DRIVER = PREAMBLE + r"""
static inline void __syncthreads() {}
// A warp's shuffles for frames' 32 lanes run as 32 threads: each exchange is two barriers.
static std::mutex mu;
static std::condition_variable cv;
static int arrived = 0;
static long generation = 0;
static double slots[32];
static void warp_barrier() {
  std::unique_lock<std::mutex> lk(mu);
  const long g = generation;
  if (++arrived == 32) { arrived = 0; ++generation; cv.notify_all(); }
  else cv.wait(lk, [&] { return generation != g; });
}
static inline double __shfl_down_sync(unsigned, double v, int off) {
  const unsigned lane = threadIdx.x % 32;
  slots[lane] = v; warp_barrier();
  const double r = lane + off < 32 ? slots[lane + off] : v; warp_barrier();
  return r;
}
static inline double __shfl_sync(unsigned, double v, int src) {
  slots[threadIdx.x % 32] = v; warp_barrier();
  const double r = slots[src]; warp_barrier();
  return r;
}
// (welch_pairs' warp operations, declared for its template: test_signal_welch_pairs_cpu.py runs it)
double __shfl_xor_sync(unsigned, double, int);
void __syncwarp();
#include "segment_fft.cuh"
#include "spectral.cu"
template <typename T>
void run(const T* x, const T* m, const T* w, long long len, long long nstep, long long nper, long long nfft,
         long long nseg, long long rows, int detrend, long long pre, T* y, unsigned grid, double* aux = nullptr,
         long long nfreq = 0, long long ntime = 0, const double* tp = nullptr) {
  gridDim.x = grid;
  for (unsigned b = 0; b < grid; ++b)
    for (unsigned ty = 0; ty < 8; ++ty) {  // one warp at a time, its lanes as threads
      std::vector<std::thread> lanes;
      for (unsigned tx = 0; tx < 32; ++tx)
        lanes.emplace_back([=] {
          blockIdx.x = b; threadIdx.x = tx; threadIdx.y = ty;
          cuarray_signal::frames<T>(x, m, w, len, nstep, nper, nfft, nseg, rows, detrend, pre, y, aux, nfreq, ntime,
                                    tp);
        });
      for (auto& t : lanes) t.join();
    }
}
// power_mean: one block a bin, its warps one at a time from the last (warp 0's thread 0 reads the
// others' sums after the barrier, a no-op here), each warp's lanes as threads.
template <typename R>
void mean(const double* part, long long nchunks, long long nf, long long batch, const double* c, double inv, R* out) {
  for (long long o = 0; o < batch * nf; ++o)
    for (int wp = 128 / 32 - 1; wp >= 0; --wp) {
      std::vector<std::thread> lanes;
      for (unsigned tx = 0; tx < 32; ++tx)
        lanes.emplace_back([=] {
          blockIdx.x = (unsigned)o; threadIdx.x = wp * 32 + tx; threadIdx.y = 0;
          cuarray_signal::power_mean<R, 128>(part, nchunks, nf, c, inv, out);
        });
      for (auto& t : lanes) t.join();
    }
}
extern "C" void mean_f(const double* part, long long nchunks, long long nf, long long batch, const double* c,
                       double inv, float* out) { mean(part, nchunks, nf, batch, c, inv, out); }
extern "C" void mean_d(const double* part, long long nchunks, long long nf, long long batch, const double* c,
                       double inv, double* out) { mean(part, nchunks, nf, batch, c, inv, out); }
// power_partials' barrier is a no-op here: its threads run row 7 first, so row 0 (the one that reads
// the block's shared sums after the barrier) finds every row's sum written.
template <typename T>
void partials(const T* X, long long nseg, long long nf, long long rows, long long nchunks, long long batch,
              double* part) {
  gridDim.x = (unsigned)((nf + 31) / 32); gridDim.y = (unsigned)nchunks; gridDim.z = (unsigned)batch;
  for (unsigned bz = 0; bz < gridDim.z; ++bz)
    for (unsigned by = 0; by < gridDim.y; ++by)
      for (unsigned bx = 0; bx < gridDim.x; ++bx)
        for (int ty = 7; ty >= 0; --ty)
          for (unsigned tx = 0; tx < 32; ++tx) {
            blockIdx.x = bx; blockIdx.y = by; blockIdx.z = bz; threadIdx.x = tx; threadIdx.y = (unsigned)ty;
            cuarray_signal::power_partials<T>(X, nseg, nf, rows, nchunks, part);
          }
}
extern "C" void partials_f(const float* X, long long nseg, long long nf, long long rows, long long nchunks,
                           long long batch, double* part) { partials(X, nseg, nf, rows, nchunks, batch, part); }
extern "C" void partials_d(const double* X, long long nseg, long long nf, long long rows, long long nchunks,
                           long long batch, double* part) { partials(X, nseg, nf, rows, nchunks, batch, part); }
extern "C" void frames_f(const float* x, const float* m, const float* w, long long len, long long nstep,
                         long long nper, long long nfft, long long nseg, long long rows, int detrend, long long pre,
                         float* y, unsigned grid) {
  run(x, m, w, len, nstep, nper, nfft, nseg, rows, detrend, pre, y, grid);
}
extern "C" void frames_d(const double* x, const double* m, const double* w, long long len, long long nstep,
                         long long nper, long long nfft, long long nseg, long long rows, int detrend, long long pre,
                         double* y, unsigned grid) {
  run(x, m, w, len, nstep, nper, nfft, nseg, rows, detrend, pre, y, grid);
}
// stft's plan: the frames with the frequencies and times in aux (float32 and float64 signals)
extern "C" void stft_frames_f(const float* x, const float* w, long long len, long long nstep, long long nper,
                              long long nfft, long long nseg, long long rows, long long pre, float* y, unsigned grid,
                              double* aux, long long nfreq, long long ntime, const double* tp) {
  run(x, w, w, len, nstep, nper, nfft, nseg, rows, 0, pre, y, grid, aux, nfreq, ntime, tp);
}
extern "C" void stft_frames_d(const double* x, const double* w, long long len, long long nstep, long long nper,
                              long long nfft, long long nseg, long long rows, long long pre, double* y, unsigned grid,
                              double* aux, long long nfreq, long long ntime, const double* tp) {
  run(x, w, w, len, nstep, nper, nfft, nseg, rows, 0, pre, y, grid, aux, nfreq, ntime, tp);
}
"""


@pytest.fixture(scope="module")
def host_write_frames(host_lib):
    """`write_frames` on the host: the row kernel (g++) for a C-contiguous signal, a grid of at most 3
    blocks (the grid-stride loop runs), the elementwise form's model otherwise; records which ran."""
    import ctypes

    from cuarray.scipy.signal import _spectral_fused as fz

    lib = host_lib("spectral_frames", FRAMES_DRIVER, fz._DIR)
    ll = ctypes.c_longlong
    ran = []

    def write(x, w, n, nstep, nper, nfft, nseg, detrend, pre, out, means=None):
        if not x.flags.c_contiguous:
            ran.append("elementwise")
            if means is None:
                means = np.lib.stride_tricks.sliding_window_view(x, nper, axis=-1)[..., ::nstep, :].mean(-1) \
                    if detrend else w
            return _Frame()(x, means, w, n, nstep, nper, nfft, nseg, detrend, pre, out)
        ran.append("rows")
        dt = x.dtype
        # mode 2 (the kernel's in-warp means) as `write_frames` runs it; mode 1 with given means
        mode = 0 if not detrend else (1 if means is not None else fz._MEAN_INSIDE)
        m, w = np.ascontiguousarray(w if means is None else means, dt), np.ascontiguousarray(w, dt)
        assert out.flags.c_contiguous and w.dtype == dt
        rows = out.size // nfft
        p = lambda a: a.ctypes.data_as(ctypes.c_void_p)  # noqa: E731
        (lib.frames_f if dt == np.float32 else lib.frames_d)(
            p(x), p(m), p(w), ll(n), ll(nstep), ll(nper), ll(nfft), ll(nseg), ll(rows), ctypes.c_int(mode),
            ll(pre), p(out), ctypes.c_uint(max(1, min(-(-rows // 8), 3))))

    write.ran = ran
    return write


class _Frame:
    """The frame kernel's C expression over the flat output index, in NumPy."""

    def __call__(self, x, m, w, length, nstep, nper, nfft, nseg, detrend, pre, out):
        x, m, w = (np.ascontiguousarray(a).reshape(-1) for a in (x, m, w))
        i = np.arange(out.size)
        j, r = i % nfft, i // nfft
        b, s = r // nseg, r % nseg
        t = s * nstep + j - pre
        inside = (j < nper) & (t >= 0) & (t < length)
        v = np.where(inside, x[np.where(inside, b * length + t, 0)], 0).astype(x.dtype)
        if detrend:
            v = v - m[r]
        out.reshape(-1)[...] = np.where(j < nper, v * w[np.minimum(j, nper - 1)], 0)


class _Power:
    def __call__(self, X, s, nf, hi, out):
        f = np.arange(X.size) % nf
        p = (X.real * X.real + X.imag * X.imag).reshape(-1).astype(out.dtype)
        fac = np.where((f >= 1) & (f < hi), out.dtype.type(2.0 * s), out.dtype.type(s))
        out.reshape(-1)[...] = p * fac


class _MeanPower:
    def __call__(self, X, c, inv, axis):
        p = X.real.astype(np.float64) ** 2 + X.imag.astype(np.float64) ** 2
        return ((p * c).sum(axis=axis) * inv).astype(c.dtype)


class _Uploads(list):
    """A `from_host` stand-in that records what it uploads (the per-call uploads of issue 52)."""

    def __call__(self, a):
        self.append(np.shape(a))
        return np.asarray(a)


@pytest.fixture
def uploads():
    return _Uploads()


@pytest.fixture
def pairs_model():
    return _PairsModel()


@pytest.fixture
def fused_host(signal_standins, host_copies, monkeypatch, uploads, device_windows, host_write_frames, pairs_model):
    from cuarray.scipy import signal
    from cuarray.scipy.signal import _lfilter, _spectral, _spectral_fused as fz

    copies = host_copies(signal_standins, {
        _spectral: dict(_fft=np.fft, _from_host=uploads, _concatenate=np.concatenate,
                        _moveaxis=np.moveaxis, _sliding_window_view=np.lib.stride_tricks.sliding_window_view,
                        _angle=np.angle, _unwrap=np.unwrap),
        _lfilter: dict(_concatenate=np.concatenate, _from_host=np.asarray),
        fz: dict(_fft=np.fft, _constant_table=np.asarray, mean_power=_mean_power_model, device_window=device_windows,
                 write_frames=host_write_frames, segment_times=_segment_times_model, _ndarray=np.ndarray,
                 _empty=lambda shape, dtype: np.full(shape, np.nan, dtype),
                 _sliding_window_view=np.lib.stride_tricks.sliding_window_view,
                 _frames_strided=_Frame(), _power=_Power(),
                 _mean_power_reduce=lambda X, c, inv: _MeanPower()(X, c, inv, -2),
                 mean_power_pairs=pairs_model, power_rows=_power_rows_model)})
    calls = []
    run = copies[fz].run
    monkeypatch.setattr(copies[fz], "run", lambda *a: calls.append(a[7]) or run(*a))  # (the test's private copy)
    return copies[signal], calls


RNG = np.random.default_rng(52)


def close(got, ref, tol):
    for g, r in zip(got, ref):
        g, r = np.asarray(g), np.asarray(r)
        assert g.shape == r.shape and g.dtype == r.dtype, (g.shape, r.shape, g.dtype, r.dtype)
        np.testing.assert_allclose(g, r, rtol=tol, atol=tol * max(1.0, float(np.abs(r).max(initial=0))))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("kw", [dict(), dict(nperseg=64), dict(nperseg=50, noverlap=10, nfft=81),
                                dict(nperseg=33, scaling="spectrum", detrend=False), dict(window=np.hanning(20)),
                                dict(nperseg=400), dict(nperseg=64, axis=0)])
def test_welch_fused_glue(fused_host, dtype, kw):
    sig, calls = fused_host
    x = RNG.normal(size=(3, 400) if kw.get("axis") != 0 else (400, 3)) + 3.0
    x = x.astype(dtype)
    tol = 2e-5 if dtype == "float32" else 1e-12
    close(sig.welch(x, fs=3.0, **kw), ss.welch(x, fs=3.0, **kw), tol)
    close(sig.periodogram(x[0] if kw.get("axis") != 0 else x[:, 0]), ss.periodogram(x[0] if kw.get("axis") != 0
                                                                                    else x[:, 0]), tol)
    assert calls and all(m == "psd" for m in calls)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("mode", ["psd", "complex", "magnitude", "phase"])
def test_spectrogram_stft_fused_glue(fused_host, dtype, mode):
    sig, calls = fused_host
    x = RNG.normal(size=(2, 3, 300)).astype(dtype)
    tol = 2e-5 if dtype == "float32" else 1e-12
    close(sig.spectrogram(x, nperseg=64, mode=mode, axis=-1), ss.spectrogram(x, nperseg=64, mode=mode, axis=-1), tol)
    xt = np.moveaxis(x, -1, 1)
    close(sig.spectrogram(xt, nperseg=50, nfft=63, mode=mode, axis=1),
          ss.spectrogram(xt, nperseg=50, nfft=63, mode=mode, axis=1), tol)
    close(sig.stft(x, nperseg=32), ss.stft(x, nperseg=32), tol)
    close(sig.stft(xt, nperseg=31, noverlap=7, axis=1, boundary=None, padded=False),
          ss.stft(xt, nperseg=31, noverlap=7, axis=1, boundary=None, padded=False), tol)
    for kw in (dict(nperseg=33, noverlap=5), dict(nperseg=40, boundary=None), dict(nperseg=1, noverlap=0),
               dict(nperseg=64, padded=False), dict(nperseg=50, nfft=77, detrend="constant"),
               dict(nperseg=20, boundary="even")):  # (virtual zero boundary and padding, or stored)
        close(sig.stft(xt, 2.0, axis=1, **kw), ss.stft(xt, 2.0, axis=1, **kw), tol)
    assert "stft" in calls


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("batch,nseg,nf", [(1, 3001, 129), (3, 70, 2), (2, 45, 33), (1, 1, 1), (1, 5000, 33)])
def test_power_partials_kernel_on_the_host(host_lib, dtype, batch, nseg, nf):
    """templates/spectral.cu's power_partials built with g++ (threads serial, the barrier's order
    kept): each (batch, chunk, bin) partial is the double sum of |X|^2 over the chunk's segments,
    for `chunking`'s rows on a small and a large GPU (the 4-load loop, its tail, bins past a
    multiple of 32); power_mean (its warps' lanes as threads) over them: the mean times each bin's
    factor."""
    import ctypes

    from cuarray.scipy.signal import _spectral_fused as fz

    lib = host_lib("spectral_frames", FRAMES_DRIVER, fz._DIR)
    ll = ctypes.c_longlong
    X = (RNG.normal(size=(batch, nseg, nf)) + 1j * RNG.normal(size=(batch, nseg, nf))).astype(dtype)
    p2 = X.real.astype(np.float64) ** 2 + X.imag.astype(np.float64) ** 2
    for sms in (1, 132):
        rows, nchunks = fz.chunking(nseg, nf, batch, sms)
        part = np.full((batch, nchunks, nf), np.nan)
        (lib.partials_f if dtype == np.complex64 else lib.partials_d)(
            X.ctypes.data_as(ctypes.c_void_p), ll(nseg), ll(nf), ll(rows), ll(nchunks), ll(batch),
            part.ctypes.data_as(ctypes.c_void_p))
        ref = np.stack([p2[:, k * rows:(k + 1) * rows].sum(axis=1) for k in range(nchunks)], axis=1)
        np.testing.assert_allclose(part, ref, rtol=1e-13, atol=0)
    # power_mean over the last chunking's partials: the mean times each bin's factor, in the real dtype
    real = np.dtype(dtype().real.dtype)
    c = RNG.uniform(0.5, 2.0, size=nf)
    out = np.full((batch, nf), np.nan, real)
    (lib.mean_f if real == np.float32 else lib.mean_d)(
        part.ctypes.data_as(ctypes.c_void_p), ll(nchunks), ll(nf), ll(batch), c.ctypes.data_as(ctypes.c_void_p),
        ctypes.c_double(1.0 / nseg), out.ctypes.data_as(ctypes.c_void_p))
    tol = 1e-6 if real == np.float32 else 1e-13
    np.testing.assert_allclose(out, (p2.sum(axis=1) * c / nseg).astype(real), rtol=tol)


def test_frames_row_kernel_runs(fused_host, host_write_frames):
    """welch runs templates/spectral.cu's row kernel (g++) for a contiguous signal and the
    elementwise form for a strided one, SciPy's results; a batch of 5 long signals, detrended, with
    stft's virtual boundary, through both: the same frames."""
    sig, _ = fused_host
    del host_write_frames.ran[:]
    x = RNG.normal(size=(2, 900)) + 1.0
    close(sig.welch(x, nperseg=64, nfft=100), ss.welch(x, nperseg=64, nfft=100), 1e-12)  # (not welch_pairs')
    close(sig.welch(x[:, ::2], nperseg=64), ss.welch(x[:, ::2], nperseg=64), 1e-12)
    assert host_write_frames.ran == ["rows", "elementwise"]
    for dtype in (np.float32, np.float64):
        x = RNG.normal(size=(5, 3001)).astype(dtype) + 2
        for args in ((x, np.hanning(100), 100, 37, 128, True), (x, np.hanning(64), 64, 32, 64, False, 32, 3001 + 64)):
            n = x.shape[-1]
            nper, nfft = args[2], args[4]
            nstep = nper - args[3]
            pre = args[6] if len(args) > 6 else 0
            length = args[7] if len(args) > 7 else n
            nseg = (length - nper) // nstep + 1
            w = np.asarray(args[1], dtype)
            means = (np.lib.stride_tricks.sliding_window_view(x, nper, axis=-1)[..., ::nstep, :].mean(-1)
                     if args[5] else w)
            a = np.full(x.shape[:-1] + (nseg, nfft), np.nan, dtype)
            b = a.copy()
            host_write_frames(x, w, n, nstep, nper, nfft, nseg, args[5], pre, a, means)
            _Frame()(x, means, w, n, nstep, nper, nfft, nseg, args[5], pre, b)
            np.testing.assert_array_equal(a, b)
            c = np.full_like(a, np.nan)  # the means summed in the kernel's warps (double, then the dtype)
            host_write_frames(x, w, n, nstep, nper, nfft, nseg, args[5], pre, c)
            tol = 1e-6 if dtype == np.float32 else 1e-13
            np.testing.assert_allclose(c, b, rtol=0, atol=tol * np.abs(x).max())


def test_welch_takes_the_one_pass_route(fused_host, host_write_frames, pairs_model):
    """welch and csd of a signal with itself (average 'mean') take welch_pairs for a C-contiguous
    signal and nfft 16 to 256: no frames written; a strided signal, another nfft and a
    spectrogram of nfft 100 keep the frames. SciPy's results either way."""
    sig, _ = fused_host
    del host_write_frames.ran[:]
    x = RNG.normal(size=(3, 2000)) + 2.0
    for kw in (dict(), dict(nperseg=16), dict(nperseg=100, nfft=128), dict(nperseg=64, detrend=False)):
        close(sig.welch(x, **kw), ss.welch(x, **kw), 1e-12)
        close(sig.csd(x, x, **kw), ss.csd(x, x, **kw), 1e-12)
    assert pairs_model == [256, 256, 16, 16, 128, 128, 64, 64] and host_write_frames.ran == []
    for call in (lambda m: m.welch(x[:, ::2]), lambda m: m.welch(x, nperseg=200, nfft=512),
                 lambda m: m.welch(x, nperseg=33), lambda m: m.spectrogram(x, nperseg=100)):
        close(call(sig), call(ss), 1e-12)
    assert len(pairs_model) == 8 and len(host_write_frames.ran) == 4


@pytest.mark.parametrize("call", [
    lambda sig, x: sig.welch(x, window=np.hanning(256).astype(np.float32), nperseg=256),
    lambda sig, x: sig.welch(x),
    lambda sig, x: sig.stft(x, nperseg=256),
    lambda sig, x: sig.spectrogram(x, nperseg=64),
    lambda sig, x: sig.periodogram(x)])
def test_fused_calls_upload_nothing(fused_host, uploads, call):
    """Issue 52: welch/stft uploaded the window, the averaging factors, the frequencies and the
    times on every call (4 and 3 pinned uploads, ~190 us of host time each); the window and the
    factors are kept on the device (`constant_table`), the frequencies and times are written there,
    welch makes no times at all. (The old code's from_host took them: this fails on it.)"""
    sig, calls = fused_host
    x = RNG.normal(size=4096).astype(np.float32)
    call(sig, x)
    assert calls and uploads == []


@pytest.mark.parametrize("wdt", ["float32", "float64"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_device_window_scaled_on_the_device(fused_host, device_windows, wdt, dtype):
    """Issue 52: welch(x, window=<device array>) downloaded the window (a sync and a pageable copy
    every call) for SciPy's scale; the fused path now scales it on the device (`device_window`:
    w sqrt(scale), scale 1 after it) for welch, spectrogram (psd and complex) and stft, SciPy's
    results. (The old code has no device_window: this fails on it.)"""
    sig, calls = fused_host
    x = (RNG.normal(size=(2, 3000)) + 2.0).astype(dtype)
    w = np.hanning(128).astype(wdt)
    tol = 2e-5 if "float32" in (dtype, wdt) else 1e-12
    for kw in (dict(), dict(scaling="spectrum"), dict(nfft=255, detrend=False)):
        close(sig.welch(x, 7.0, window=w, **kw), ss.welch(x, 7.0, window=w, **kw), tol)
    close(sig.spectrogram(x, window=w), ss.spectrogram(x, window=w), tol)
    close(sig.spectrogram(x, window=w, mode="complex"), ss.spectrogram(x, window=w, mode="complex"), tol)
    close(sig.stft(x, 3.0, window=w, nperseg=128), ss.stft(x, 3.0, window=w, nperseg=128), tol)
    close(sig.stft(x, window=w, nperseg=128, scaling="psd"), ss.stft(x, window=w, nperseg=128, scaling="psd"), tol)
    assert len(device_windows) == 7 and all(d == (np.dtype(dtype)) for _, d, _ in device_windows)
    del device_windows[:]
    sig.welch(x, window=w, detrend="linear")  # (the generic path: the window on the host, as before)
    sig.welch(x + 1j, window=w)
    assert device_windows == []


def test_fused_path_declines(fused_host):
    sig, calls = fused_host
    x = RNG.normal(size=300)
    sig.welch(x, nperseg=64, detrend="linear")
    sig.welch(x + 1j * x, nperseg=64)
    sig.welch(x, nperseg=64, return_onesided=False)
    sig.csd(x, x * 2, nperseg=64)
    sig.welch(x.astype(np.float16), nperseg=64)
    assert calls == []


def _same(sig, name, *args, **kw):
    """cuarray's `name` gives SciPy's results, or raises SciPy's exception type."""
    try:
        ref = getattr(ss, name)(*args, **kw)
    except ValueError as e:
        with pytest.raises(type(e)):
            getattr(sig, name)(*args, **kw)
        return
    close(getattr(sig, name)(*args, **kw), ref, 0)


@pytest.mark.filterwarnings("ignore:nperseg = :UserWarning")
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64"])
def test_empty_inputs_give_scipys_empty_results(fused_host, dtype):
    """An empty signal (any axis empty): SciPy's early returns, float64 arrays of the input's shape
    (csd/coherence of two signals: the outer shapes broadcast, the shorter length at `axis`), not
    the segment machinery's (..., nf, nseg)."""
    sig, calls = fused_host
    for shape, kw in (((0, 100), dict(nperseg=50)), ((0, 100), dict()), ((3, 0), dict()), ((0,), dict()),
                      ((100, 0), dict(axis=0, nperseg=50)), ((2, 0, 64), dict(nperseg=16, axis=-1))):
        x = np.zeros(shape, dtype)
        for name in ("welch", "periodogram", "spectrogram", "stft"):
            _same(sig, name, x, **(kw if name != "periodogram" else dict(axis=kw.get("axis", -1))))
        _same(sig, "spectrogram", x, mode="magnitude", **kw)
        _same(sig, "csd", x, x, **kw)
    x, y = np.zeros((3, 0), dtype), np.ones((1, 40), dtype)
    _same(sig, "csd", x, y, nperseg=8)
    _same(sig, "csd", y, x, nperseg=8)
    assert calls == []
    _same(sig, "coherence", np.zeros((0, 40), dtype), y, nperseg=8)  # (y's welch: not empty)


_STFT_PLAN_CASES = [
    ((3000,), dict()),
    ((2, 1001), dict(fs=3, window="hamming", nperseg=64, noverlap=40, nfft=100, boundary=None)),
    ((999,), dict(fs=0.37, window=("tukey", 0.3), nperseg=50, padded=False, scaling="psd")),
    ((3, 777), dict(fs=48000.0, window="boxcar", nperseg=77, noverlap=0, boundary=None, padded=False)),
    ((5,), dict(nperseg=5, noverlap=4, nfft=9)),
    ((40,), dict(nperseg=7, noverlap=1, window="blackman", fs=7)),
]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape,kw", _STFT_PLAN_CASES)
def test_stft_plan_frames_and_aux_give_scipys_stft(host_lib, dtype, shape, kw):
    """stft's cached plan (`_spectral._stft_plan`): its window (`_stft_window`), boundary, padding and
    times constants (`_stft_layout`) through templates/spectral.cu's `frames` with `aux` (g++, a grid
    of at most 3 blocks: both grid-stride loops run), then NumPy's rfft for cuFFT's: SciPy's f and t
    bit for bit, its Zxx to rounding."""
    import ctypes

    from cuarray.scipy.signal import _spectral
    from cuarray.scipy.signal import _spectral_fused as fz

    lib = host_lib("spectral_frames", FRAMES_DRIVER, fz._DIR)
    args = dict(fs=1.0, window="hann", nperseg=256, noverlap=None, nfft=None, boundary="zeros", padded=True,
                scaling="spectrum")
    args.update(kw)
    x = RNG.normal(size=shape).astype(dtype)
    n, nperseg, fs = shape[-1], args["nperseg"], args["fs"]
    nfft, noverlap = _spectral._segment_params(nperseg, args["nfft"], args["noverlap"], nperseg)
    w = np.ascontiguousarray(_spectral._stft_window(_spectral._named_window(args["window"], nperseg), x.dtype, fs,
                                                    args["scaling"]), dtype)
    pre, length, nt, consts = _spectral._stft_layout(n, fs, nperseg, noverlap, nfft, args["boundary"], args["padded"])
    nstep = nperseg - noverlap
    nseg, nf = (length - nperseg) // nstep + 1, nfft // 2 + 1
    y = np.full(shape[:-1] + (nseg, nfft), np.nan, dtype)
    aux, tp = np.full(nf + nt, np.nan), np.asarray(consts, np.float64)
    rows = y.size // nfft
    ll, p = ctypes.c_longlong, (lambda a: a.ctypes.data_as(ctypes.c_void_p))  # noqa: E731
    (lib.stft_frames_f if dtype == np.float32 else lib.stft_frames_d)(
        p(x), p(w), ll(n), ll(nstep), ll(nperseg), ll(nfft), ll(nseg), ll(rows), ll(pre), p(y),
        ctypes.c_uint(max(1, min(-(-rows // 8), 3))), p(aux), ll(nf), ll(nt), p(tp))
    z = np.swapaxes(np.fft.rfft(y, axis=-1).astype(np.result_type(dtype, np.complex64)), -1, -2)
    f0, t0, z0 = ss.stft(x, **args)
    np.testing.assert_array_equal(aux[:nf], f0)
    np.testing.assert_array_equal(aux[nf:], t0)
    assert z.shape == z0.shape and z.dtype == z0.dtype
    tol = 2e-6 if dtype == np.float32 else 1e-13
    np.testing.assert_allclose(z, z0, rtol=0, atol=tol * max(1.0, float(np.abs(z0).max())))


# stft_rfft built with g++: a block's 256 threads run as threads, __syncthreads a real barrier (a
# stage that read before its neighbours wrote, or wrote over what they still read, shows here).
STFT_DRIVER = FRAMES_DRIVER.replace("static inline void __syncthreads() {}", r"""
static std::mutex bmu;
static std::condition_variable bcv;
static int barrived = 0;
static long bgeneration = 0;
static void __syncthreads() {
  std::unique_lock<std::mutex> lk(bmu);
  const long g = bgeneration;
  if (++barrived == 256) { barrived = 0; ++bgeneration; bcv.notify_all(); }
  else bcv.wait(lk, [&] { return bgeneration != g; });
}""") + r"""
template <typename T, int M>
void stft_rfft_run(const T* x, const T* w, const T* tw, long long len, long long nstep, long long nper, long long nseg,
                   long long rows, long long pre, T* y, double* aux, long long nfreq, long long ntime, const double* tp,
                   unsigned grid) {
  gridDim.x = grid;
  for (unsigned b = 0; b < grid; ++b) {
    std::vector<std::thread> threads;
    for (unsigned t = 0; t < 256; ++t)
      threads.emplace_back([=] {
        blockIdx.x = b; threadIdx.x = t; threadIdx.y = 0;
        cuarray_signal::stft_rfft<T, M>(x, w, tw, len, nstep, nper, nseg, rows, pre, y, aux, nfreq, ntime, tp);
      });
    for (auto& t : threads) t.join();
  }
}
template <typename T>
void stft_rfft_m(int m, const T* x, const T* w, const T* tw, long long len, long long nstep, long long nper,
                 long long nseg, long long rows, long long pre, T* y, double* aux, long long nfreq, long long ntime,
                 const double* tp, unsigned grid) {
  switch (m) {
    case 32: stft_rfft_run<T, 32>(x, w, tw, len, nstep, nper, nseg, rows, pre, y, aux, nfreq, ntime, tp, grid); break;
    case 64: stft_rfft_run<T, 64>(x, w, tw, len, nstep, nper, nseg, rows, pre, y, aux, nfreq, ntime, tp, grid); break;
    case 128: stft_rfft_run<T, 128>(x, w, tw, len, nstep, nper, nseg, rows, pre, y, aux, nfreq, ntime, tp, grid); break;
    case 256: stft_rfft_run<T, 256>(x, w, tw, len, nstep, nper, nseg, rows, pre, y, aux, nfreq, ntime, tp, grid); break;
    case 512: stft_rfft_run<T, 512>(x, w, tw, len, nstep, nper, nseg, rows, pre, y, aux, nfreq, ntime, tp, grid); break;
  }
}
extern "C" void stft_rfft_f(int m, const float* x, const float* w, const float* tw, long long len, long long nstep,
                            long long nper, long long nseg, long long rows, long long pre, float* y, double* aux,
                            long long nfreq, long long ntime, const double* tp, unsigned grid) {
  stft_rfft_m(m, x, w, tw, len, nstep, nper, nseg, rows, pre, y, aux, nfreq, ntime, tp, grid);
}
extern "C" void stft_rfft_d(int m, const double* x, const double* w, const double* tw, long long len, long long nstep,
                            long long nper, long long nseg, long long rows, long long pre, double* y, double* aux,
                            long long nfreq, long long ntime, const double* tp, unsigned grid) {
  stft_rfft_m(m, x, w, tw, len, nstep, nper, nseg, rows, pre, y, aux, nfreq, ntime, tp, grid);
}
"""


_ONE_PASS_CASES = [
    ((3000,), dict()),
    ((2, 1001), dict(fs=3, window="hamming", nperseg=64, noverlap=40, boundary=None)),
    ((999,), dict(fs=0.37, window=("tukey", 0.3), nperseg=100, nfft=128, padded=False, scaling="psd")),
    ((3, 1500), dict(fs=48000.0, window="boxcar", nperseg=1024, noverlap=1000, boundary=None)),
    ((40,), dict(nperseg=7, noverlap=1, window="blackman", fs=7, nfft=512)),
    ((2, 300), dict(nperseg=32, nfft=64, noverlap=0)),
]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape,kw", _ONE_PASS_CASES)
def test_stft_one_pass_kernel_gives_scipys_stft(host_lib, dtype, shape, kw):
    """templates/spectral.cu's stft_rfft (g++, 256 threads a block with a real barrier, a grid of at
    most 2 blocks: the grid-stride loops run) with the plan's window (`_stft_window`), layout and
    constants (`_stft_layout`) and twiddles (`_spectral_fused.twiddles`): SciPy's f and t bit for
    bit and its Zxx to rounding (nfft 64 to 1024, several segments a block and one)."""
    from cuarray.scipy.signal import _spectral_fused as fz

    lib = host_lib("spectral_stft_rfft", STFT_DRIVER, fz._DIR)
    if shape[-1] < kw.get("nperseg", 256):
        pytest.skip("nperseg past the signal")
    case = StftCase(RNG.normal(size=shape).astype(dtype), kw)
    assert fz.ONE_PASS_MIN <= case.nfft <= fz.ONE_PASS_MAX and case.nfft & (case.nfft - 1) == 0
    seg = 1024 // case.nfft
    case.run(lib.stft_rfft_f if dtype == np.float32 else lib.stft_rfft_d, fz.twiddles(case.nfft, dtype),
             max(1, min(-(-case.rows // seg), 2)))
    case.check()
