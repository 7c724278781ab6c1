"""find_peaks, peak_prominences and peak_widths without a device: templates/peaks.cuh built with
g++ and driven as the kernels drive it, the rest with NumPy arrays for cuarray arrays, against
scipy.signal; and an NVRTC compile of the kernels."""

import ctypes
import re
from fractions import Fraction

import numpy as np
import pytest
import scipy.signal as ss

from cuarray.cuda import compiler
from cuarray.scipy.signal import _peaks as pk

real_pk = pk  # (tests through the host copies run a private copy of it: peaks_copies[real_pk])

HOST = r"""
#include "peaks.cuh"
using namespace cuarray_signal;
extern "C" void prom(const double* x, long long n, const long long* peaks, long long m, long long wlen, double* p,
                     long long* lb, long long* rb) {
  for (long long i = 0; i < m; ++i) peak_prominence(x, n, peaks[i], wlen, p + i, lb + i, rb + i);
}
extern "C" void wid(const double* x, const long long* peaks, long long m, const double* p, const long long* lb,
                    const long long* rb, double rel, double* w, double* h, double* l, double* r) {
  for (long long i = 0; i < m; ++i) peak_width(x, peaks[i], p[i], lb[i], rb[i], rel, w + i, h + i, l + i, r + i);
}
extern "C" long long maxima(const double* x, long long n, long long limit, long long* mid, long long* left,
                            long long* right) {  // the tile kernels' sequence, one sample at a time
  long long m = 0;
  for (long long i = 0; i < n; ++i) {
    long long r;
    int p = peak_at(x, n, i, limit, &r);
    if (p < 0) return -1;
    if (p) {
      mid[m] = (i + r) / 2;
      left[m] = i;
      right[m] = r;
      ++m;
    }
  }
  return m;
}
extern "C" void dist(const long long* peaks, const long long* order, long long m, long long d, unsigned char* keep) {
  select_by_distance(peaks, order, m, d, keep);
}
"""


@pytest.fixture(scope="module")
def lib(host_lib):
    return host_lib("peaks", HOST, pk._DIR)


def _p(a):
    return a.ctypes.data_as(ctypes.c_void_p)


@pytest.fixture
def peaks_copies(lib, tiles_lib, host_copies):
    """Private copies of signal's and ndimage's modules (conftest's `host_copies`), _peaks' kernels
    built with g++ (nothing of cuarray is patched): ``{module: copy}``."""
    from cuarray.scipy.ndimage import _support
    from cuarray.scipy.signal import _args

    def prominences(x, peaks, wlen):
        m = len(peaks)
        p, lb, rb = np.empty(m), np.empty(m, np.int64), np.empty(m, np.int64)
        peaks = np.ascontiguousarray(peaks, np.int64)
        lib.prom(_p(x), ctypes.c_longlong(len(x)), _p(peaks), ctypes.c_longlong(m), ctypes.c_longlong(wlen), _p(p),
                 _p(lb), _p(rb))
        return p, lb, rb

    def widths(x, peaks, rel, p, lb, rb):
        m = len(peaks)
        out = [np.empty(m) for _ in range(4)]
        args = [np.ascontiguousarray(a) for a in (peaks, p, lb, rb)]
        lib.wid(_p(x), _p(args[0]), ctypes.c_longlong(m), _p(args[1]), _p(args[2]), _p(args[3]), ctypes.c_double(rel),
                *[_p(o) for o in out])
        return tuple(out)

    def by_distance(peaks, order, d):
        keep = np.empty(len(peaks), np.uint8)
        lib.dist(_p(np.ascontiguousarray(peaks, np.int64)), _p(np.ascontiguousarray(order, np.int64)),
                 ctypes.c_longlong(len(peaks)), ctypes.c_longlong(d), _p(keep))
        return keep.astype(bool)

    def maxima_tiles(x, edges):
        x = np.ascontiguousarray(x, np.float64)
        out = [np.empty(len(x), np.int64) for _ in range(3)]
        m = lib.maxima(_p(x), ctypes.c_longlong(len(x)), ctypes.c_longlong(copies[pk]._PLATEAU_LIMIT), *[_p(o) for o in out])
        if m < 0:
            return None
        mid, left, right = (o[:m].copy() for o in out)
        return (mid, left, right) if edges else (mid, None, None)

    def astype(x, dt, order="K", copy=True):
        return np.array(x, dtype=dt, order=order, copy=True) if copy else np.asarray(x, dtype=dt, order=order)

    def maxima_ends(x, edges):  # the kernels themselves, on host threads
        mid, left, right = run_ends(tiles_lib, np.ascontiguousarray(x, np.float64))
        return (mid, left, right) if edges else (mid, None, None)

    copies = host_copies({
        pk: dict(_maxima_tiles=maxima_tiles, _maxima_ends=maxima_ends, _prominences=prominences, _widths=widths,
                 _by_distance=by_distance, _from_host=np.asarray, _concatenate=np.concatenate, _where=np.where,
                 _nonzero=np.nonzero, _argsort=lambda a: np.argsort(a, kind="stable"), astype=astype),
        _support: dict(as_array=lambda x, fn: np.asarray(x), ndarray=np.ndarray),
        _args: dict(_literal=lambda x, fn: np.asarray(x))})
    return copies


@pytest.fixture
def host_peaks(peaks_copies):
    from cuarray.scipy import signal

    return peaks_copies[signal]


RNG = np.random.default_rng(41)


def signal_with_plateaus(n):
    x = np.round(RNG.normal(size=n) * 4) / 4  # ties and plateaus
    x[10:14] = 5.0
    x[30:33] = 5.0
    x[-3:] = 9.0
    return x


KW = [dict(), dict(height=0.5), dict(height=(0.2, 1.0)), dict(threshold=0.3), dict(threshold=(None, 1.0)),
      dict(prominence=1.0), dict(prominence=(0.5, 3)), dict(width=2), dict(width=(1, 5), rel_height=0.8),
      dict(prominence=0.5, wlen=11), dict(plateau_size=2), dict(plateau_size=(1, 2), height=0),
      dict(distance=5), dict(distance=3.5, height=0.0, prominence=0.2, width=1)]


@pytest.mark.parametrize("kw", KW, ids=[str(k) for k in KW])
def test_find_peaks(host_peaks, kw):
    x = signal_with_plateaus(300) if "distance" not in kw else RNG.normal(size=300)  # distinct heights for distance
    got, gprops = host_peaks.find_peaks(x, **kw)
    ref, rprops = ss.find_peaks(x, **kw)
    np.testing.assert_array_equal(got, ref)
    assert sorted(gprops) == sorted(rprops)
    for k in rprops:
        np.testing.assert_allclose(gprops[k], rprops[k], rtol=1e-12, atol=1e-12, err_msg=k)


def _plateaus(n, limit):
    """Integer-valued noise with plateaus of 1 to 3 samples, plateaus one shorter, as long as and one
    longer than `limit` (rising into them or not) and flat ends."""
    x = np.round(RNG.normal(size=n) * 2)
    for start, length, h in ((50, limit - 1, 9.0), (50 + 3 * limit, limit, 9.0), (50 + 6 * limit, limit + 1, 9.0),
                             (50 + 9 * limit, limit + 5, -9.0)):
        x[start:start + length] = h
    x[:4] = 7.0
    x[-4:] = 7.0
    return x


@pytest.mark.parametrize("limit", [3, 8, 2048])
@pytest.mark.parametrize("plan", pk.MAXIMA)
def test_local_maxima_plans(peaks_copies, monkeypatch, plan, limit):
    # both plans against SciPy's edges; the tile kernels' test sees plateaus longer than its walk
    # limit, so "tiles" falls back to the run boundaries there
    pk = peaks_copies[real_pk]  # (the test's private copy)
    monkeypatch.setattr(pk, "_PLATEAU_LIMIT", limit)
    x = _plateaus(12 * max(limit, 8) + 400, limit)
    for kw in (dict(), dict(plateau_size=1), dict(height=0.0, plateau_size=(2, None))):
        ref, rprops = ss.find_peaks(x, **kw)
        got, gprops = pk._find_peaks(x, maxima=plan, **kw)
        np.testing.assert_array_equal(got, ref)
        for k in rprops:
            np.testing.assert_array_equal(gprops[k], rprops[k], err_msg=k)
    for n in range(0, 6):  # the shortest signals
        x = RNG.integers(0, 3, n).astype(float)
        np.testing.assert_array_equal(pk._find_peaks(x, maxima=plan)[0], ss.find_peaks(x)[0])


def test_local_maxima_limit_decides_the_path(peaks_copies, lib):
    pk = peaks_copies[real_pk]  # (the test's private copy)
    # a 3-sample plateau; a 5-sample flat end, which needs a walk of 4 to reach the last sample
    x = np.array([0.0, 1, 2, 2, 2, 1, 0, 3, 3, 3, 3, 3])
    peaks = []
    for limit in (1, 2, 3, 4, 5):
        out = [np.empty(len(x), np.int64) for _ in range(3)]
        m = lib.maxima(_p(x), ctypes.c_longlong(len(x)), ctypes.c_longlong(limit), *[_p(o) for o in out])
        peaks.append(m if m < 0 else list(out[0][:m]))
    assert peaks == [-1, -1, -1, [3], [3]]  # the flat end is no peak
    with pytest.raises(ValueError):
        pk._local_maxima(x, "sorted", False)


def test_prominences_widths(host_peaks):
    x = signal_with_plateaus(200)
    peaks, _ = ss.find_peaks(x)
    for wlen in (None, 7, 30.5):
        for g, r in zip(host_peaks.peak_prominences(x, peaks, wlen), ss.peak_prominences(x, peaks, wlen)):
            np.testing.assert_allclose(g, r)
    for rel in (0.5, 1.0, 0.1):
        for g, r in zip(host_peaks.peak_widths(x, peaks, rel), ss.peak_widths(x, peaks, rel)):
            np.testing.assert_allclose(g, r)
    with pytest.raises(ValueError):
        host_peaks.peak_prominences(x, [500])
    with pytest.raises(ValueError):
        host_peaks.find_peaks(x.reshape(10, 20))
    with pytest.raises(ValueError):
        host_peaks.find_peaks(x, distance=0.5)


def test_kernels_compile_for_sm90():
    cubin, mapping = compiler.compile_cubin(pk.source(), arch="sm_90", name_expressions=pk.NAMES)
    assert cubin and set(mapping) == set(pk.NAMES)


def test_width_height_is_rounded_as_scipy_rounds_it(ptx):
    # h = x[peak] - prominence * rel_height: SciPy rounds the product first. A contracted fma gave
    # 1.1e-16 where SciPy gives exactly 0.0 (the lead's GPU run). ptxas fuses a plain mul.f64 into a
    # following sub.f64; only explicitly rounded (.rn) operations are left alone.
    def unrounded(ptx):
        return set(re.findall(r"\b(?:mul|sub|add|fma)\.f64", ptx))

    assert unrounded(ptx(pk.source(), ()))  # the check can fail: without the option they are fusible
    ptx = ptx(pk.source(), pk.OPTIONS)
    assert not unrounded(ptx) and "mul.rn.f64" in ptx and "fma" not in ptx
    x = np.array([0.0, -0.75, 1.75, -0.75, 0.0])  # prominence 2.5; 2.5 * 0.7 rounds to 1.75
    fused = float(Fraction(1.75) - Fraction(2.5) * Fraction(0.7))  # what an fma returns
    assert fused != 0.0 and ss.peak_widths(x, [2], 0.7)[1][0] == 0.0


def test_user_prominence_data_is_checked_as_scipy_does(host_peaks):
    x = signal_with_plateaus(100)
    peaks, _ = ss.find_peaks(x)
    prom, lb, rb = ss.peak_prominences(x, peaks)
    for bad in ((prom, rb, rb), (prom, lb, lb), (prom[:-1], lb, rb)):
        with pytest.raises(ValueError):
            ss.peak_widths(x, peaks, prominence_data=bad)
        with pytest.raises(ValueError):
            host_peaks.peak_widths(x, peaks, prominence_data=bad)


# -- the local-maxima kernels of peaks.cu themselves on host threads ----------------------------------
# The source as NVRTC gets it, built with g++ under a small CUDA shim (as
# tests/scipy/ndimage/test_ndimage_rank_cpu.py's): one std::thread per CUDA thread, blocks one after
# another, a std::barrier for __syncthreads, and the warp collectives the kernels use (every thread
# of a block reaches them together) through block-wide barriers.
SHIM = r"""
#include <atomic>
#include <barrier>
#include <functional>
#include <thread>
#include <vector>
struct dim3 { unsigned x = 1, y = 1, z = 1; };
static thread_local dim3 threadIdx, blockIdx;
static dim3 blockDim, gridDim;
static std::barrier<>* cu_barrier;
static thread_local int cu_gen = 0, cu_bgen = 0;
static std::atomic<int> cu_or[2];
static std::atomic<unsigned> cu_ballot[2][32];
static int cu_shfl[1024];
static void __syncthreads() { cu_barrier->arrive_and_wait(); }
static int __syncthreads_or(int p) {
  const int g = cu_gen;
  cu_gen ^= 1;
  if (p) cu_or[g].fetch_or(1);
  cu_barrier->arrive_and_wait();
  const int r = cu_or[g].load();
  cu_barrier->arrive_and_wait();
  if (threadIdx.x == 0) cu_or[g].store(0);
  return r;
}
static unsigned __ballot_sync(unsigned, int p) {
  const int g = cu_bgen, w = threadIdx.x >> 5;
  cu_bgen ^= 1;
  if (p) cu_ballot[g][w].fetch_or(1u << (threadIdx.x & 31));
  cu_barrier->arrive_and_wait();
  const unsigned r = cu_ballot[g][w].load();
  cu_barrier->arrive_and_wait();
  if ((threadIdx.x & 31) == 0) cu_ballot[g][w].store(0);
  return r;
}
static int __shfl_down_sync(unsigned, int v, int o) {
  cu_shfl[threadIdx.x] = v;
  cu_barrier->arrive_and_wait();
  const int r = (threadIdx.x & 31) + o < 32 ? cu_shfl[threadIdx.x + o] : v;
  cu_barrier->arrive_and_wait();
  return r;
}
static int __popc(unsigned v) { return __builtin_popcount(v); }
static int __ffs(int v) { return __builtin_ffs(v); }
#define __global__
#define __device__
#define __launch_bounds__(n)
#define __shared__ static
static void cu_launch(long long grid, int block, const std::function<void()>& f) {
  std::barrier<> bar(block);
  cu_barrier = &bar;
  blockDim = dim3{(unsigned)block, 1, 1};
  for (long long b = 0; b < grid; ++b) {
    std::vector<std::thread> ts;
    for (int t = 0; t < block; ++t)
      ts.emplace_back([&, b, t] {
        threadIdx = dim3{(unsigned)t, 0, 0};
        blockIdx = dim3{(unsigned)b, 0, 0};
        f();
      });
    for (auto& t : ts) t.join();
  }
}
"""

DRIVER = r"""
using namespace cuarray_signal;
// _peaks._maxima_tiles' launch sequence: counts, the scan, the total and flag read back, the writes
extern "C" long long tiles(const double* x, long long n, long long limit, long long* work, long long* mid,
                           long long* left, long long* right) {
  long long nb = (n + MAXIMA_TILE - 1) / MAXIMA_TILE;
  cu_launch(nb, MAXIMA_BLOCK, [&] { count_maxima(x, n, limit, work, work + nb); });
  cu_launch(1, 1024, [&] { scan_counts(work, work + nb, nb, work + 2 * nb); });
  if (work[2 * nb + 1]) return -1;
  cu_launch(nb, MAXIMA_BLOCK, [&] { write_maxima(x, n, limit, work, mid, left, right); });
  return work[2 * nb];
}
// _peaks._maxima_ends' launch sequence and work layout (mid, left, right: null left/right for no edges)
extern "C" long long ends(const double* x, long long n, long long* work, long long* mid, long long* left,
                          long long* right) {
  long long nb = (n + MAXIMA_TILE - 1) / MAXIMA_TILE;
  long long *counts = work, *fc = work + nb, *pend = work + 3 * nb, *pright = work + 5 * nb;
  double *fcval = (double*)(work + 2 * nb), *pval = (double*)(work + 4 * nb);
  cu_launch(nb, MAXIMA_BLOCK, [&] { count_ends(x, n, counts, fc, fcval, pend, pval); });
  cu_launch(1, 1024, [&] { scan_ends(counts, fc, fcval, pend, pval, pright, nb, n, work + 6 * nb); });
  long long m = work[6 * nb];
  if (m) cu_launch(nb, MAXIMA_BLOCK, [&] { write_ends(x, n, counts, pright, mid, left, right); });
  return m;
}
extern "C" void scan_e(long long* counts, const long long* fc, const double* fcval, const long long* pend,
                       const double* pval, long long* pright, long long nb, long long n, long long* tail) {
  cu_launch(1, 1024, [&] { scan_ends(counts, fc, fcval, pend, pval, pright, nb, n, tail); });
}
extern "C" void scan(long long* counts, const long long* flags, long long nb, long long* tail) {
  cu_launch(1, 1024, [&] { scan_counts(counts, flags, nb, tail); });
}
"""


@pytest.fixture(scope="module")
def tiles_lib():
    import shutil

    if shutil.which("g++") is None:
        pytest.skip("no g++")
    import host_build  # tests/ is on sys.path

    return host_build.library_of(SHIM + pk.source().replace("#define CUARRAY_DEVICE __device__\n", "") + DRIVER,
                                 ["-std=c++20", "-O1", "-w", "-shared", "-fPIC", "-pthread"])


@pytest.mark.parametrize("n,limit", [(3, 2048), (4096, 2048), (4097, 2048), (20_000, 2048), (20_000, 5)])
def test_tile_kernels_on_host_threads(tiles_lib, n, limit):
    # integer-valued noise: plateaus, some across the 4096-sample tile boundaries; with limit 5 some
    # plateau is longer (the kernels must say so); with edges (plateau_size) and without
    x = np.round(RNG.normal(size=n) * 1.5)
    if n > 8200:
        x[4090:4100] = 12.0  # a peak plateau across the first tile boundary
        x[8190:8192] = 13.0
        x[8192] = 12.0
    nb = -(-n // pk._TILE)
    ref, props = ss.find_peaks(x, plateau_size=1)
    longest = int(props["plateau_sizes"].max(initial=0))  # limit 5: the 10-sample peak plateau
    assert limit > 5 or longest > limit
    for edges in (True, False):
        work = np.full(2 * nb + 2, -7, np.int64)
        out = [np.full(n, -7, np.int64) for _ in range(3)]
        ptrs = [_p(o) for o in out] if edges else [_p(out[0]), None, None]
        m = tiles_lib.tiles(_p(x), ctypes.c_longlong(n), ctypes.c_longlong(limit), _p(work), *ptrs)
        if longest > limit:
            assert m == -1
            continue
        assert m == len(ref) and work[2 * nb + 1] == 0
        np.testing.assert_array_equal(out[0][:m], ref)
        assert (out[0][m:] == -7).all()
        if edges:
            np.testing.assert_array_equal(out[1][:m], props["left_edges"])
            np.testing.assert_array_equal(out[2][:m], props["right_edges"])
        else:
            assert (out[1] == -7).all()


def test_scan_counts_on_host_threads(tiles_lib):
    # more tiles than the scan's 1024 threads (several a thread), one flag set
    for nb in (1, 1023, 3001):
        counts = RNG.integers(0, 2000, nb).astype(np.int64)
        flags = np.zeros(nb, np.int64)
        if nb > 1:
            flags[nb // 2] = 1
        work = counts.copy()
        tail = np.zeros(2, np.int64)
        tiles_lib.scan(_p(work), _p(flags), ctypes.c_longlong(nb), _p(tail))
        np.testing.assert_array_equal(work, np.concatenate([[0], np.cumsum(counts)[:-1]]))
        assert list(tail) == [counts.sum(), int(nb > 1)]


def run_ends(tiles_lib, x, edges=True):
    """(mid, left, right) from the "ends" kernels on host threads (left, right None without edges);
    checks that nothing is written past the peaks."""
    n = len(x)
    nb = -(-n // pk._TILE)
    work = np.full(6 * nb + 1, -7, np.int64)
    out = [np.full(n + 1, -7, np.int64) for _ in range(3)]
    ptrs = [_p(o) for o in out] if edges else [_p(out[0]), None, None]
    m = tiles_lib.ends(_p(x), ctypes.c_longlong(n), _p(work), *ptrs)
    assert m >= 0 and (out[0][m:] == -7).all()
    if not edges:
        assert (out[1] == -7).all() and (out[2] == -7).all()
        return out[0][:m].copy(), None, None
    return tuple(o[:m].copy() for o in out)


def _end_cases():
    """Signals for the "ends" kernels (tiles of 4096): fresh integer-valued noise (short plateaus)
    with long plateaus across one and several tile edges, starting on a tile's first sample and
    ending on its last, starting on a warp segment's last lane, falling or rising after them
    (peak or not), flat and falling ends, and NaN inside, after and before plateaus."""
    T = pk._TILE
    cases = []
    for seed in range(3):
        rng = np.random.default_rng(1000 + seed + int(RNG.integers(1 << 30)))
        n = int(rng.integers(4 * T + 64, 6 * T))
        x = np.round(rng.normal(size=n) * 1.5)
        h = 8.0 + seed
        x[T - 100:2 * T + 50] = h  # across one edge, past 2048 samples
        x[2 * T + 50] = h - 20 if seed != 1 else h + 1  # falls (a peak) or rises (none)
        x[3 * T:4 * T] = h + 2  # the whole of tile 3: left edge on its first sample, last sample flat
        x[3 * T - 1] = h - 30
        x[4 * T] = h - 30 if seed != 2 else np.nan  # after it: lower, or NaN (no peak)
        x[4 * T + 31:4 * T + 40] = h + 5  # a plateau starting on a segment's last lane
        x[4 * T + 30] = -40.0
        if seed == 0:
            x[-5:] = 50.0  # a flat end: no peak
        elif seed == 1:
            x[-6:-1] = 50.0  # ends one before the last sample, which falls: a peak
            x[-1] = 0.0
        else:
            x[rng.integers(0, n, 40)] = np.nan  # NaN among short plateaus
            x[T + 7] = np.nan  # inside the long plateau: cuts it
        cases.append(x)
    x = np.round(RNG.normal(size=3 * T + 17) * 2)  # one plateau over every tile edge, to the end
    x[5:] = 99.0
    cases.append(x)
    x = x.copy()
    x[-1] = 0.0  # ... which now falls on the last sample: a peak of n - 6 samples
    cases.append(x)
    return cases


@pytest.mark.parametrize("case", range(5))
def test_end_kernels_on_host_threads(tiles_lib, case):
    x = np.ascontiguousarray(_end_cases()[case])
    ref, props = ss.find_peaks(x, plateau_size=1)
    if case in (0, 1, 4):  # a peak plateau past the walks' limit (in 2, NaN cuts the long ones)
        assert props["plateau_sizes"].max() > pk._PLATEAU_LIMIT
    mid, left, right = run_ends(tiles_lib, x)
    np.testing.assert_array_equal(mid, ref)
    np.testing.assert_array_equal(left, props["left_edges"])
    np.testing.assert_array_equal(right, props["right_edges"])
    np.testing.assert_array_equal(run_ends(tiles_lib, x, edges=False)[0], ref)


@pytest.mark.parametrize("n", [3, 4, 31, 32, 33, 4095, 4096, 4097])
def test_end_kernels_short_and_tile_sized(tiles_lib, n):
    # every two-valued signal's runs, cut at the lengths where the warp segments and the tile end
    x = RNG.integers(0, 3, n).astype(float)
    for y in (x, np.repeat(RNG.integers(0, 4, n // 8 + 1), 8)[:n].astype(float)):
        y = np.ascontiguousarray(y)
        ref, props = ss.find_peaks(y, plateau_size=1)
        mid, left, right = run_ends(tiles_lib, y)
        np.testing.assert_array_equal(mid, ref)
        np.testing.assert_array_equal(left, props["left_edges"])
        np.testing.assert_array_equal(right, props["right_edges"])


def scan_ends_model(counts, fc, fcval, pend, pval, n):
    nb = len(counts)
    counts, pright = counts.copy(), np.full(nb, -1, np.int64)
    for b in range(nb):
        later = [c for c in range(b + 1, nb) if fc[c] < n]
        if pend[b] >= 0 and later and fcval[later[0]] < pval[b]:
            counts[b] += 1
            pright[b] = fc[later[0]] - 1
    return np.concatenate([[0], np.cumsum(counts)[:-1]]), counts.sum(), pright


def test_scan_ends_on_host_threads(tiles_lib):
    # more tiles than the scan's 1024 threads (several a thread); tiles with and without a change,
    # pending runs resolved by a change several tiles on (over stretches of two threads)
    for nb in (1, 2, 1023, 3001):
        n = nb * pk._TILE
        counts = RNG.integers(0, 2000, nb).astype(np.int64)
        has = RNG.random(nb) < 0.3
        has[nb // 2:nb // 2 + 7] = False
        fc = np.where(has, np.arange(nb) * pk._TILE + RNG.integers(0, pk._TILE, nb), n).astype(np.int64)
        fcval = RNG.normal(size=nb)
        pend = np.where(RNG.random(nb) < 0.6, np.arange(nb) * pk._TILE + 5, -1).astype(np.int64)
        pval = RNG.normal(size=nb)
        offsets, total, pright = scan_ends_model(counts, fc, fcval, pend, pval, n)
        got, gright, tail = counts.copy(), np.full(nb, -7, np.int64), np.zeros(1, np.int64)
        tiles_lib.scan_e(_p(got), _p(fc), _p(fcval), _p(pend), _p(pval), _p(gright), ctypes.c_longlong(nb),
                         ctypes.c_longlong(n), _p(tail))
        np.testing.assert_array_equal(got, offsets)
        np.testing.assert_array_equal(gright, pright)
        assert tail[0] == total


LONG_KW = [dict(), dict(height=0.5), dict(threshold=(0.0, 3.0)), dict(distance=2500, height=-1.0),
           dict(prominence=(0.5, 40), wlen=5001), dict(width=(1, 9000), rel_height=0.9), dict(plateau_size=(3000, None)),
           dict(plateau_size=1, height=0.0, threshold=0.0, prominence=0.1, width=0.5)]


@pytest.mark.parametrize("kw", LONG_KW, ids=[str(k) for k in LONG_KW])
def test_find_peaks_long_plateaus_every_argument(host_peaks, kw):
    # find_peaks over the "ends" kernels (host threads) where the walking tiles fell back
    x = _end_cases()[1].copy()
    if "distance" in kw:  # distinct heights: SciPy's order among ties is unstable
        x += RNG.random(len(x)) * 1e-3 * (np.diff(x, prepend=np.nan) != 0)
        x = np.where(np.isnan(x), 0.0, x)
        x[4 * 4096 - 3000:4 * 4096 - 3] = 70.0
    ref, rprops = ss.find_peaks(x, **kw)
    got, gprops = host_peaks.find_peaks(x, **kw)
    np.testing.assert_array_equal(got, ref)
    assert sorted(gprops) == sorted(rprops)
    for k in rprops:
        np.testing.assert_allclose(gprops[k], rprops[k], rtol=1e-12, atol=1e-12, err_msg=k)


FORMS = [dict(height=[0.2, 1.0]), dict(height=np.array([0.2, 1.0])), dict(height=np.float32(0.5)),
         dict(threshold=[0.1, None]), dict(prominence=[0.5, None]),
         dict(prominence=(None, 2.0), wlen=7.5), dict(plateau_size=[1, 2]), dict(width=[1, 5.5], rel_height=1.0),
         dict(height="full"), dict(height="pair-of-arrays"), dict(threshold="full", prominence=[0.1, 4])]


@pytest.mark.parametrize("kw", FORMS, ids=[str(k) for k in FORMS])
def test_find_peaks_argument_forms(host_peaks, kw):
    """SciPy's interval forms (issue 52): lists and two-element arrays as (min, max), 0-d arrays and
    NumPy scalars as a lower border, arrays of x's size as borders, None in a pair."""
    x = signal_with_plateaus(200)
    kw = dict(kw)
    for k, v in list(kw.items()):
        if isinstance(v, str) and v == "full":
            kw[k] = np.linspace(-0.5, 1.0, x.size)
        elif isinstance(v, str) and v == "pair-of-arrays":
            kw[k] = (np.full(x.size, -1.0), np.linspace(0.5, 6.0, x.size))
    got, gprops = host_peaks.find_peaks(x, **kw)
    ref, rprops = ss.find_peaks(x, **kw)
    np.testing.assert_array_equal(got, ref)
    assert sorted(gprops) == sorted(rprops)
    for k in rprops:
        np.testing.assert_allclose(gprops[k], rprops[k], rtol=1e-12, atol=1e-12, err_msg=k)


def test_find_peaks_argument_errors_and_list_peaks(host_peaks):
    x = signal_with_plateaus(100)
    for kw in (dict(height=np.ones(7)), dict(threshold=(None, np.ones(5))), dict(height=np.array(0.5)), dict(width=1, rel_height=-0.5),
               dict(distance=0.5), dict(prominence=1, wlen=1)):
        with pytest.raises(ValueError) as ref:
            ss.find_peaks(x, **kw)
        with pytest.raises(ValueError, match=re.escape(str(ref.value)[:20])):
            host_peaks.find_peaks(x, **kw)
    peaks = ss.find_peaks(x)[0].tolist()  # peaks as a Python list
    for got, ref in zip(host_peaks.peak_prominences(x, peaks, wlen=9.5), ss.peak_prominences(x, peaks, wlen=9.5)):
        np.testing.assert_allclose(got, ref, rtol=1e-12)
    for got, ref in zip(host_peaks.peak_widths(x, peaks, rel_height=0.7), ss.peak_widths(x, peaks, rel_height=0.7)):
        np.testing.assert_allclose(got, ref, rtol=1e-12)


@pytest.mark.parametrize("form,lo,hi", [(np.array([0.2, 1.0]), 0.2, 1.0), (np.float32(0.5), 0.5, None),
                                        ((np.float64(0.1), np.int64(3)), 0.1, 3), ([np.float64(0.1), None], 0.1, None),
                                        (np.array([0.5, None], object), 0.5, None), (np.int64(2), 2, None)])
def test_host_scalar_borders_meet_device_values(recorded_launches, form, lo, hi):
    """NumPy scalars and two-element NumPy arrays as interval borders (SciPy's forms) reach the
    comparisons with device values as Python scalars: a NumPy scalar or 0-d array operand meets a
    cuarray array in no operator (NumPy's ufunc call, cuarray's host-input refusal: TypeError)."""
    import cuarray
    from cuarray.scipy.signal import _peaks as pk

    values = cuarray.empty(10)
    got = pk._condition(form, values, None)
    assert got == [lo, hi] and not any(isinstance(v, (np.generic, np.ndarray)) for v in got)
    del recorded_launches[:]
    pk._select(values, *got)  # (the fake device: launches recorded, not run)
    assert recorded_launches
