"""The in-register DFT kernels without a device (templates/spectral.cu's welch_pairs and stft_regs
over segment_fft.cuh; cuarray/scipy/signal/_spectral_fused.py's `pairs_plan`, `mean_power_pairs`
and StftPlan's route): the kernels compile for sm_90 with no local memory, the planner's grid at
boundary sizes, and the kernels themselves, built with g++ (a block's threads as threads, real
block and warp barriers, the warp shuffles through them), give SciPy's welch (then power_mean)
and stft."""

import ctypes

import numpy as np
import pytest
import scipy.signal as ss

from cubin_info import FRAME_SIZE, compile_sm90, kernel_attributes  # tests/ is on sys.path
from cuda_standins import PREAMBLE  # tests/scipy/signal is on sys.path
from stft_kernel_case import StftCase

RNG = np.random.default_rng(5252)


def _names(fz):
    """The planners' specialisations: welch_pairs for every nfft, with and without zero padding;
    stft_regs for every nfft it takes, in both forms (stft's spectrum, spectrogram's power)."""
    plans = [fz.pairs_plan(10**6, 1, n, d, 132, full).kernel for d in (np.float32, np.float64)
             for n in fz.PAIRS_NFFT for full in (True, False)]
    plans += ["stft_regs<{}, {}, {}, {}, {}>".format(t, n // 2, *fz.PAIRS_SHAPE[s], power)
              for t, s in (("float", 4), ("double", 8)) for n in fz.STFT_REGS_NFFT for power in (0, 1)]
    return sorted({fz.SPECTRAL.name_expression(p) for p in plans})


def test_register_dft_kernels_compile_without_local_memory():
    """Every (dtype, nfft) specialisation compiles for sm_90 and keeps its points in registers (a
    frame means an array indexed at run time: the unrolled DFT's indices were not constants)."""
    from cuarray.scipy.signal import _spectral_fused as fz

    names = _names(fz)
    cubin, lowered = compile_sm90(fz.SPECTRAL.source(), names)
    assert set(lowered) == set(names)
    attrs = kernel_attributes(cubin)
    for name in names:
        assert attrs[lowered[name].decode()].get(FRAME_SIZE, 0) == 0, name


@pytest.mark.parametrize("nfft", [16, 32, 64, 128, 256])
@pytest.mark.parametrize("itemsize", [4, 8])
@pytest.mark.parametrize("nseg,batch", [(1, 1), (2, 1), (3, 7), (78_124, 1), (781_249, 1), (10**8, 1), (500, 65535)])
def test_pairs_plan(nfft, itemsize, nseg, batch):
    """PAIRS_SHAPE's blocks; every group of pairs in some block's grid-stride
    loop and no block without one; no thread sums more than PAIRS_MAX pairs; at least `per_sm`
    blocks an SM where there are groups for them."""
    from cuarray.scipy.signal import _spectral_fused as fz

    block, gx = fz.pairs_plan(nseg, batch, nfft, "f{}".format(itemsize), 132)[1:]
    assert block == fz.PAIRS_SHAPE[itemsize][0]
    slots = block // (nfft // (16 if nfft >= 128 else 8 if nfft >= 32 else 4))
    groups = -(-((nseg + 1) // 2) // slots)
    assert 1 <= gx <= groups
    assert -(-groups // gx) <= fz.PAIRS_MAX
    assert gx * batch >= min(groups * batch, fz.PAIRS_PER_SM * 132)


# The kernels with g++: CUDA's names as stand-ins. A block's threads run as threads; __syncthreads is a
# barrier of the block, __syncwarp and the shuffles barriers of the thread's warp (32 threads).
DRIVER = PREAMBLE + r"""
struct Barrier {
  std::mutex mu;
  std::condition_variable cv;
  int n = 32, arrived = 0;
  long generation = 0;
  void wait() {
    std::unique_lock<std::mutex> lk(mu);
    const long g = generation;
    if (++arrived == n) { arrived = 0; ++generation; cv.notify_all(); }
    else cv.wait(lk, [&] { return generation != g; });
  }
};
static Barrier warps[32], block;
static double slots[1024];
static void __syncthreads() { block.wait(); }
static void __syncwarp() { warps[threadIdx.x / 32].wait(); }
static double __shfl_xor_sync(unsigned, double v, int off) {
  slots[threadIdx.x] = v; __syncwarp();
  const double r = slots[threadIdx.x ^ off]; __syncwarp();
  return r;
}
static double __shfl_down_sync(unsigned, double v, int off) {
  slots[threadIdx.x] = v; __syncwarp();
  const double r = threadIdx.x % 32 + off < 32 ? slots[threadIdx.x + off] : v; __syncwarp();
  return r;
}
static double __shfl_sync(unsigned, double v, int src) {
  slots[threadIdx.x] = v; __syncwarp();
  const double r = slots[threadIdx.x / 32 * 32 + src]; __syncwarp();
  return r;
}
#include "segment_fft.cuh"
#include "spectral.cu"
// A launch: `threads` host threads made once, each running its thread of every block in turn, the
// blocks one after another (a barrier between two: a block's shared memory is the next one's).
// (A thread made per thread of each block took most of the welch tests' 71 s: 128 a block.)
template <typename F>
void blocks(unsigned gx, unsigned gy, unsigned threads, F body) {
  gridDim.x = gx; gridDim.y = gy; gridDim.z = 1;
  block.n = (int)threads;
  std::vector<std::thread> ts;
  for (unsigned t = 0; t < threads; ++t)
    ts.emplace_back([=] {
      threadIdx.x = t; threadIdx.y = 0;
      for (unsigned by = 0; by < gy; ++by)
        for (unsigned bx = 0; bx < gx; ++bx) {
          blockIdx.x = bx; blockIdx.y = by;
          body();
          block.wait();
        }
    });
  for (auto& t : ts) t.join();
}
template <typename T, int BLOCK, int FULL>
void pairs_n(int nfft, const T* x, const T* w, const T* tw, long long len, long long nstep, long long nper,
             long long nseg, int detrend, double* part, unsigned gx, unsigned batch) {
  const long long np = (nseg + 1) / 2;
#define CUARRAY_PAIRS(N) \
  blocks(gx, batch, BLOCK, [=] { \
    cuarray_signal::welch_pairs<T, N, BLOCK, 1, FULL>(x, w, tw, len, nstep, nper, nseg, np, detrend, part); })
  switch (nfft) {
    case 16: CUARRAY_PAIRS(16); break;
    case 32: CUARRAY_PAIRS(32); break;
    case 64: CUARRAY_PAIRS(64); break;
    case 128: CUARRAY_PAIRS(128); break;
    case 256: CUARRAY_PAIRS(256); break;
  }
}
template <typename T, int BLOCK>
void pairs(int full, int nfft, const T* x, const T* w, const T* tw, long long len, long long nstep, long long nper,
           long long nseg, int detrend, double* part, unsigned gx, unsigned batch) {
  if (full) pairs_n<T, BLOCK, 1>(nfft, x, w, tw, len, nstep, nper, nseg, detrend, part, gx, batch);
  else pairs_n<T, BLOCK, 0>(nfft, x, w, tw, len, nstep, nper, nseg, detrend, part, gx, batch);
}
template <typename T, int BLOCK>
void stft_m(int m, const T* x, const T* w, const T* tw, long long len, long long nstep, long long nper, long long nseg,
            long long rows, long long pre, T* y, double* aux, long long nfreq, long long ntime, const double* tp,
            unsigned gx) {
#define CUARRAY_STFT(M) \
  blocks(gx, 1, BLOCK, [=] { \
    cuarray_signal::stft_regs<T, M, BLOCK, 1, 0>(x, w, tw, len, nstep, nper, nseg, rows, pre, y, aux, nfreq, ntime, tp, \
                                                 nullptr, 0); })
  switch (m) {
    case 32: CUARRAY_STFT(32); break;
    case 64: CUARRAY_STFT(64); break;
    case 128: CUARRAY_STFT(128); break;
    case 256: CUARRAY_STFT(256); break;
  }
}
extern "C" void stft_f(int m, const float* x, const float* w, const float* tw, long long len, long long nstep,
                       long long nper, long long nseg, long long rows, long long pre, float* y, double* aux,
                       long long nfreq, long long ntime, const double* tp, unsigned gx) {
  stft_m<float, 128>(m, x, w, tw, len, nstep, nper, nseg, rows, pre, y, aux, nfreq, ntime, tp, gx);
}
extern "C" void stft_d(int m, const double* x, const double* w, const double* tw, long long len, long long nstep,
                       long long nper, long long nseg, long long rows, long long pre, double* y, double* aux,
                       long long nfreq, long long ntime, const double* tp, unsigned gx) {
  stft_m<double, 64>(m, x, w, tw, len, nstep, nper, nseg, rows, pre, y, aux, nfreq, ntime, tp, gx);
}
template <typename T, int BLOCK>
void spec_m(int m, const T* x, const T* w, const T* tw, long long len, long long nstep, long long nper, long long nseg,
            long long rows, T* y, const double* c, int detrend, unsigned gx) {
#define CUARRAY_SPEC(M) \
  blocks(gx, 1, BLOCK, [=] { \
    cuarray_signal::stft_regs<T, M, BLOCK, 1, 1>(x, w, tw, len, nstep, nper, nseg, rows, 0, y, nullptr, 0, 0, \
                                                 nullptr, c, detrend); })
  switch (m) {
    case 32: CUARRAY_SPEC(32); break;
    case 64: CUARRAY_SPEC(64); break;
    case 128: CUARRAY_SPEC(128); break;
    case 256: CUARRAY_SPEC(256); break;
  }
}
extern "C" void spec_f(int m, const float* x, const float* w, const float* tw, long long len, long long nstep,
                       long long nper, long long nseg, long long rows, float* y, const double* c, int detrend,
                       unsigned gx) {
  spec_m<float, 128>(m, x, w, tw, len, nstep, nper, nseg, rows, y, c, detrend, gx);
}
extern "C" void spec_d(int m, const double* x, const double* w, const double* tw, long long len, long long nstep,
                       long long nper, long long nseg, long long rows, double* y, const double* c, int detrend,
                       unsigned gx) {
  spec_m<double, 64>(m, x, w, tw, len, nstep, nper, nseg, rows, y, c, detrend, gx);
}
template <typename R>
void mean(const double* part, long long nchunks, long long nf, long long batch, const double* c, double inv, R* out) {
  blocks((unsigned)(batch * nf), 1, 128, [=] { cuarray_signal::power_mean<R, 128>(part, nchunks, nf, c, inv, out); });
}
extern "C" void welch_f(int full, int nfft, const float* x, const float* w, const float* tw, long long len, long long nstep,
                        long long nper, long long nseg, int detrend, double* part, unsigned gx, unsigned batch,
                        const double* c, float* out) {
  pairs<float, 128>(full, nfft, x, w, tw, len, nstep, nper, nseg, detrend, part, gx, batch);
  mean(part, gx, nfft / 2 + 1, batch, c, 1.0 / nseg, out);
}
extern "C" void welch_d(int full, int nfft, const double* x, const double* w, const double* tw, long long len, long long nstep,
                        long long nper, long long nseg, int detrend, double* part, unsigned gx, unsigned batch,
                        const double* c, double* out) {
  pairs<double, 64>(full, nfft, x, w, tw, len, nstep, nper, nseg, detrend, part, gx, batch);
  mean(part, gx, nfft / 2 + 1, batch, c, 1.0 / nseg, out);
}
"""


def host_welch(lib, x, win, nperseg, noverlap, nfft, detrend, scale, gx_max=3):
    """`mean_power_pairs` with the kernels run by g++: the plan's block (the driver's), a grid of
    at most `gx_max` blocks (the grid-stride loop takes several trips), the module's twiddles and
    factors, the form without tests where nperseg = nfft (as the planner picks)."""
    from cuarray.scipy.signal import _spectral_fused as fz

    batch, n = int(np.prod(x.shape[:-1])), x.shape[-1]
    nstep = nperseg - noverlap
    nseg = (n - nperseg) // nstep + 1
    nf = nfft // 2 + 1
    gx = fz.pairs_plan(nseg, batch, nfft, x.dtype, 1, per_sm=1).grid_x
    gx = min(gx, gx_max)
    part = np.full((batch, gx, nf), np.nan)
    out = np.full(x.shape[:-1] + (nf,), np.nan, x.dtype)
    w = np.ascontiguousarray(win, x.dtype)
    tw, c = fz.pass_twiddles(nfft, x.dtype), fz._factors(nfft, scale)
    ll, p = ctypes.c_longlong, (lambda a: a.ctypes.data_as(ctypes.c_void_p))  # noqa: E731
    (lib.welch_f if x.dtype == np.float32 else lib.welch_d)(
        ctypes.c_int(int(nperseg == nfft)), ctypes.c_int(nfft), p(x), p(w), p(tw), ll(n), ll(nstep), ll(nperseg), ll(nseg), ctypes.c_int(int(detrend)),
        p(part), ctypes.c_uint(gx), ctypes.c_uint(batch), p(c), p(out))
    return out


CASES = [  # (shape, nperseg, noverlap, nfft, detrend, window)
    ((300,), None, None, None, True, "hann"),
    ((2, 1000), None, 0, None, True, "hamming"),  # (odd and even rows: the last pair's second segment)
    ((3, 777), None, None, None, False, "boxcar"),
    ((1, 500), -3, -4, None, True, "hann"),  # (nperseg < nfft: zero padding; a step of one sample)
    ((5000,), None, -1, None, True, "blackman"),  # (many trips of the grid-stride loop)
]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("nfft", [16, 32, 64, 128, 256])
@pytest.mark.parametrize("case", CASES)
def test_welch_pairs_kernel_gives_scipys_welch(host_lib, dtype, nfft, case):
    from cuarray.scipy.signal import _spectral_fused as fz

    lib = host_lib("spectral_welch_pairs", DRIVER, fz._DIR)
    shape, nper, nov, _, detrend, window = case
    nper = nfft if nper is None else nfft + nper
    nov = nper // 2 if nov is None else (nper + nov if nov < 0 else nov)
    if shape[-1] < nper:
        pytest.skip("nperseg past the signal")
    x = (RNG.normal(size=shape) * 2 + 7).astype(dtype)
    win = ss.get_window(window, nper)
    scale = 1.0 / (win * win).sum()
    got = host_welch(lib, x, win, nper, nov, nfft, detrend, scale)
    ref = ss.welch(x.astype(np.float64), 1.0, window=win, nperseg=nper, noverlap=nov, nfft=nfft,
                   detrend="constant" if detrend else False)[1]
    assert got.shape == ref.shape and got.dtype == np.dtype(dtype)
    tol = 2e-5 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(got, ref, rtol=tol, atol=tol * 1e-2 * float(ref.max()))


STFT_CASES = [  # (shape, stft keywords): SciPy's defaults but a 'spectrum' scaling, as the plan's tests
    ((3000,), dict()),
    ((2, 1001), dict(fs=3, window="hamming", nperseg=64, noverlap=40, boundary=None)),
    ((999,), dict(fs=0.37, window=("tukey", 0.3), nperseg=100, nfft=128, padded=False, scaling="psd")),
    ((3, 1500), dict(fs=48000.0, window="boxcar", nperseg=512, noverlap=500, boundary=None)),
    ((40,), dict(nperseg=7, noverlap=1, window="blackman", fs=7, nfft=512)),
    ((2, 300), dict(nperseg=32, nfft=64, noverlap=0)),
    ((1, 5000), dict(nperseg=128, noverlap=127, boundary="zeros")),
]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape,kw", STFT_CASES)
def test_stft_regs_kernel_gives_scipys_stft(host_lib, dtype, shape, kw):
    """stft_regs (g++, the planner's block, a grid of at most 3 blocks: the grid-stride loop runs)
    with the plan's window, layout, constants and twiddle table: SciPy's f and t bit for bit and
    its Zxx to rounding; segments inside the signal (no tests a load) and at its zero boundary,
    nperseg < nfft, nfft 64 to 512, a step of one sample."""
    from cuarray.scipy.signal import _spectral_fused as fz

    lib = host_lib("spectral_welch_pairs", DRIVER, fz._DIR)
    case = StftCase(RNG.normal(size=shape).astype(dtype), kw)
    assert case.nfft in fz.STFT_REGS_NFFT
    tw = np.concatenate([fz.twiddles(case.nfft, dtype), fz.pass_twiddles(case.nfft // 2, dtype)])
    _, grid = fz.regs_grid(case.rows, case.nfft, np.dtype(dtype).itemsize, 1)
    case.run(lib.stft_f if dtype == np.float32 else lib.stft_d, tw, min(grid, 3))
    case.check()


SPECTROGRAM_CASES = [  # (shape, spectrogram keywords)
    ((3000,), dict()),  # (SciPy's defaults: a tukey window of 256, noverlap 32, constant detrend, density)
    ((2, 1001), dict(fs=3, window="hamming", nperseg=64, noverlap=40, detrend=False, scaling="spectrum")),
    ((999,), dict(fs=0.37, window=("tukey", 0.3), nperseg=100, nfft=128)),
    ((3, 1500), dict(window="boxcar", nperseg=512, noverlap=500)),
    ((1, 700), dict(nperseg=128, noverlap=127, window="blackman")),
]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape,kw", SPECTROGRAM_CASES)
def test_stft_regs_power_gives_scipys_spectrogram(host_lib, dtype, shape, kw):
    """stft_regs in its POWER form (g++; spectrogram's psd: the segment's mean off, the window,
    |X|^2 times SciPy's scale, doubled inside) against SciPy's spectrogram: detrended or not,
    zero padding, density and spectrum scaling, a one-sample step, batches."""
    from cuarray.scipy.signal import _spectral_fused as fz

    lib = host_lib("spectral_welch_pairs", DRIVER, fz._DIR)
    args = dict(fs=1.0, window=("tukey", 0.25), nperseg=256, noverlap=None, nfft=None, detrend="constant",
                scaling="density")
    args.update(kw)
    x = (RNG.normal(size=shape) * 2 + 5).astype(dtype)
    n, nper = shape[-1], args["nperseg"]
    nov = nper // 8 if args["noverlap"] is None else args["noverlap"]
    nfft = args["nfft"] or nper
    assert nfft in fz.STFT_REGS_NFFT
    win = ss.get_window(args["window"], nper)
    scale = 1.0 / (args["fs"] * (win * win).sum()) if args["scaling"] == "density" else 1.0 / win.sum() ** 2
    nstep = nper - nov
    nseg = (n - nper) // nstep + 1
    rows = int(np.prod(shape[:-1])) * nseg
    y = np.full(shape[:-1] + (nseg, nfft // 2 + 1), np.nan, dtype)
    w = np.ascontiguousarray(win, dtype)
    tw = np.concatenate([fz.twiddles(nfft, dtype), fz.pass_twiddles(nfft // 2, dtype)])
    c = fz._factors(nfft, scale)
    block, grid = fz.regs_grid(rows, nfft, np.dtype(dtype).itemsize, 1)
    ll, p = ctypes.c_longlong, (lambda a: a.ctypes.data_as(ctypes.c_void_p))  # noqa: E731
    (lib.spec_f if dtype == np.float32 else lib.spec_d)(
        ctypes.c_int(nfft // 2), p(x), p(w), p(tw), ll(n), ll(nstep), ll(nper), ll(nseg), ll(rows), p(y), p(c),
        ctypes.c_int(int(args["detrend"] == "constant")), ctypes.c_uint(min(grid, 3)))
    ref = ss.spectrogram(x.astype(np.float64), **args)[2]
    got = np.swapaxes(y, -1, -2)
    assert got.shape == ref.shape
    tol = 2e-5 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(got, ref, rtol=tol, atol=tol * 1e-2 * float(ref.max()))
