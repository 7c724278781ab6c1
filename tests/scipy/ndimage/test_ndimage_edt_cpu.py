"""distance_transform_edt without a device: templates/edt.cuh and edt.cu built with g++ (the CUDA
keywords defined away, each kernel run serially over its threads, the warp kernels' lanes in
turn), driven as _edt drives them, against scipy.ndimage.distance_transform_edt: every plan (the
first-axis scan, the lane-0 and banded envelopes, both fills); the banded envelope against the
sequential one; the driver's launches on the fake device against the kernels' signatures; and
NVRTC compiles of the kernels."""

import ctypes

import numpy as np
import pytest
import scipy.ndimage as snd
from cubin_info import FRAME_SIZE, kernel_attributes  # tests/ is on sys.path

from cuarray.cuda import compiler
from cuarray.scipy.ndimage import _edt

HOST = r"""
#include <cmath>
struct idx3 { unsigned x; };
static idx3 blockIdx, threadIdx, blockDim;
#define __global__
#define __device__
#define __restrict__
#define __shared__
// warp intrinsics, only so that edt_pass_warp compiles here (run_edt_staged drives its line logic)
static inline void __syncwarp() {}
static inline void __syncthreads() {}
static inline unsigned __ballot_sync(unsigned, bool p) { return p; }
static inline int __shfl_sync(unsigned, int v, int) { return v; }
static inline int __ffs(unsigned m) { return __builtin_ffs((int)m); }
static inline int __clzll(long long v) { return __builtin_clzll((unsigned long long)v); }
static inline int __ffsll(long long v) { return __builtin_ffsll(v); }
#include "edt.cuh"
#include "edt.cu"
namespace cuarray_ndimage { double edt_stage[1]; }  // edt_pass_warp's extern __shared__ array
using namespace cuarray_ndimage;
#define EACH(total, call) for (long long i = 0; i < (total); ++i) { blockDim.x = 128; blockIdx.x = i / 128; threadIdx.x = i % 128; call; }

// The last pass' line with no site (edt_pass_warp's and edt_pass_band's branch): SciPy's
// no-background values (rooted with `root`) and features.
static void no_background_line(double* f, long long n, long long inner, long long base, int root,
                               const long long* shape, const double* samp, long long* nxt, int nd, long long total) {
  for (long long x = 0; x < n; ++x) {
    double d2 = edt_no_background_d2(base + x * inner, shape, samp, nd, total);
    f[base + x * inner] = root ? sqrt(d2) : d2;
    if (nxt) edt_no_background_idx(nxt, base + x * inner, nd, total);
  }
}

// edt_pass_warp's line, its lanes in turn: stage, add the finite sites in increasing q, fill
// each x from its envelope site (the kernel's ballot only finds the finite entries 32 at a time).
static void staged_line(double* f, long long n, long long inner, long long line, double w2, double* fs, int* v,
                        const long long* cur, long long* nxt, int nd, long long total, const long long* shape,
                        const double* samp) {
  long long o = line / inner, kk = line - o * inner, base = o * n * inner + kk;
  for (long long x = 0; x < n; ++x) fs[x] = f[base + x * inner];
  EdtEnvelope e; e.k = -1; e.p = 0; e.Fp = e.zn = e.zd = 0.0;
  for (long long q = 0; q < n; ++q) if (fs[q] < CUARRAY_EDT_INF) edt_envelope_add(e, fs, v, w2, (int)q);
  if (e.k < 0 && samp) {  // the last pass, no site: no background anywhere
    no_background_line(f, n, inner, base, 0, shape, samp, cur ? nxt : nullptr, nd, total);
    return;
  }
  for (long long x = 0; x < n; ++x) {
    long long q = x;
    if (e.k >= 0) {
      q = edt_envelope_site(fs, v, e.k, w2, (double)x);
      double dx = (double)(x - q);
      f[base + x * inner] = w2 * dx * dx + fs[q];
    }
    if (cur) for (int d = 0; d < nd; ++d) nxt[d * total + base + x * inner] = cur[d * total + base + q * inner];
  }
}

// edt_pass_band's envelope, its lanes in turn: each band's envelope (lane b), then the bands merged
// left to right, the first kept site of a band found in increasing j (the kernel's ballot picks
// the lowest lane that keeps). Returns the envelope's size, its sites in v[0..].
static int band_envelope(const double* fs, long long n, double w2, int bands, int* v) {
  int L = edt_band_length(n, bands), m[32];
  for (int b = 0; b < 32; ++b) {
    m[b] = 0;
    if (b >= bands) continue;
    EdtEnvelope e; e.k = -1; e.p = 0; e.Fp = e.zn = e.zd = 0.0;
    long long q0 = (long long)b * L, q1 = q0 + L < n ? q0 + L : n;
    for (long long q = q0; q < q1; ++q) if (fs[q] < CUARRAY_EDT_INF) edt_envelope_add(e, fs, v + q0, w2, (int)q);
    m[b] = e.k + 1;
  }
  int len = m[0];
  for (int b = 1; b < bands; ++b) {
    int mb = m[b];
    if (mb == 0) continue;
    const int* h = v + b * L;
    int keep_from = 0, cut = -1;
    if (len > 0)
      for (int j = 0;; ++j) {
        int meet = 0;
        if (edt_band_keeps(fs, v, len, h, mb, w2, j, &meet)) { keep_from = j; cut = meet; break; }
      }
    int moved = mb - keep_from;
    for (int t = 0; t < moved; ++t) v[cut + 1 + t] = h[keep_from + t];
    len = cut + 1 + moved;
  }
  return len;
}

// The sequential envelope (edt_pass_warp's lane 0) and the banded one, of the same line.
extern "C" int seq_envelope(const double* fs, long long n, double w2, int* v) {
  EdtEnvelope e; e.k = -1; e.p = 0; e.Fp = e.zn = e.zd = 0.0;
  for (long long q = 0; q < n; ++q) if (fs[q] < CUARRAY_EDT_INF) edt_envelope_add(e, fs, v, w2, (int)q);
  return e.k + 1;
}
extern "C" int banded_envelope(const double* fs, long long n, double w2, int bands, int* v) {
  return band_envelope(fs, n, w2, bands, v);
}

static void band_line(double* f, long long n, long long inner, long long line, double w2, int bands, int walk,
                      int root, double* fs, int* v, const long long* cur, long long* nxt, int nd, long long total,
                      const long long* shape, const double* samp) {
  long long o = line / inner, kk = line - o * inner, base = o * n * inner + kk;
  for (long long x = 0; x < n; ++x) fs[x] = f[base + x * inner];
  int k = band_envelope(fs, n, w2, bands, v) - 1;
  if (k < 0 && samp) {  // the last pass, no site: no background anywhere
    no_background_line(f, n, inner, base, root, shape, samp, cur ? nxt : nullptr, nd, total);
    return;
  }
  long long c = (n + 31) >> 5;
  for (int lane = 0; lane < 32; ++lane) {  // the kernel's fill, lane by lane
    long long x0 = walk ? lane * c : lane, x1 = walk ? (x0 + c < n ? x0 + c : n) : n, step = walk ? 1 : 32;
    int j = walk && k >= 0 && x0 < x1 ? edt_envelope_index(fs, v, k, w2, (double)x0) : 0;
    for (long long x = x0; x < x1; x += step) {
      long long q = x;
      if (k >= 0) {
        if (walk) {
          while (j < k && edt_left_of(fs, v, j + 1, w2, (double)x)) ++j;
          q = v[j];
        } else {
          q = edt_envelope_site(fs, v, k, w2, (double)x);
        }
        double dx = (double)(x - q), d2 = w2 * dx * dx + fs[q];
        f[base + x * inner] = root ? sqrt(d2) : d2;
      } else if (root) {
        f[base + x * inner] = sqrt(fs[x]);
      }
      if (cur) for (int d = 0; d < nd; ++d) nxt[d * total + base + x * inner] = cur[d * total + base + q * inner];
    }
  }
}

// _edt.py's passes. staged: 0 edt_pass (a thread per line, global scratch), 1 edt_pass_warp's
// lines, 2 edt_pass_band's with `bands` (fill by binary searches), 3 the same filled by walks; scan: the first axis by edt_zero_bits + edt_first_pass
// (their threads run as they are) instead of edt_init and an envelope pass.
extern "C" void run_edt(const double* in, const long long* shape, int nd, long long total, const double* sampling,
                        double* f, long long* idx_a, long long* idx_b, int want_idx, int staged, int scan,
                        int bands, int root) {
  long long* cur = idx_a; long long* nxt = idx_b;
  if (scan) {
    long long n = shape[0], inner = total / n, nseg = (n + 63) / 64, count = inner * nseg;
    unsigned long long* bits = new unsigned long long[count];
    EACH(count, (edt_zero_bits<double>(in, bits, n, inner, nseg, count)));
    EACH(count, (edt_first_pass(bits, f, want_idx ? idx_a : nullptr, shape, nd, 0, n, inner, nseg, count,
                                sampling[0] * sampling[0], total, root && nd == 1, nd == 1 ? sampling : nullptr)));
    delete[] bits;
  } else {
    EACH(total, (edt_init<double>(in, f, want_idx ? idx_a : nullptr, shape, nd, total)));
  }
  for (int axis = scan ? 1 : 0; axis < nd; ++axis) {
    long long n = shape[axis], inner = 1;
    for (int d = axis + 1; d < nd; ++d) inner *= shape[d];
    long long lines = total / n;
    double w2 = sampling[axis] * sampling[axis];
    const double* samp = axis == nd - 1 ? sampling : nullptr;  // the last pass: SciPy's no-background values
    if (staged) {
      double* fs = new double[n]; int* v = new int[n];
      for (long long line = 0; line < lines; ++line) {
        if (staged >= 2)
          band_line(f, n, inner, line, w2, bands, staged == 3, root && axis == nd - 1, fs, v, want_idx ? cur : nullptr,
                    nxt, nd, total, shape, samp);
        else staged_line(f, n, inner, line, w2, fs, v, want_idx ? cur : nullptr, nxt, nd, total, shape, samp);
      }
      delete[] fs; delete[] v;
    } else {
      long long* v = new long long[lines * n]; double* z = new double[lines * (n + 1)];
      double* dd = new double[lines * n]; long long* arg = new long long[lines * n];
      EACH(lines, (edt_pass(f, n, inner, lines, w2, v, z, dd, arg, want_idx ? cur : nullptr,
                            want_idx ? nxt : nullptr, nd, total, shape, samp)));
      delete[] v; delete[] z; delete[] dd; delete[] arg;
    }
    long long* t = cur; cur = nxt; nxt = t;
  }
  if (want_idx && cur != idx_a) for (long long i = 0; i < nd * total; ++i) idx_a[i] = cur[i];
}
"""


@pytest.fixture(scope="module")
def lib(host_lib):
    return host_lib("edt", HOST, _edt._DIR)


def _p(a):
    return a.ctypes.data_as(ctypes.c_void_p)


def host_edt(lib, x, sampling=None, staged=False, scan=False, bands=0, root=False):
    """staged: False (a thread per line), True or "warp" (edt_pass_warp), "band" (edt_pass_band,
    filled by walks as by default) or "band-search" (filled by binary searches). root: the last
    pass writes the distances (scan or band only), else their squares are rooted here."""
    x = np.ascontiguousarray(x, np.float64)
    sampling = np.ones(x.ndim) if sampling is None else np.asarray(sampling, np.float64)
    f = np.empty(x.shape)
    ia = np.empty((x.ndim,) + x.shape, np.int64)
    ib = np.empty_like(ia)
    mode = {False: 0, True: 1, "warp": 1, "band-search": 2, "band": 3}[staged]
    lib.run_edt(_p(x), _p(np.asarray(x.shape, np.int64)), ctypes.c_int(x.ndim), ctypes.c_longlong(x.size),
                _p(sampling), _p(f), _p(ia), _p(ib), ctypes.c_int(1), ctypes.c_int(mode), ctypes.c_int(int(scan)),
                ctypes.c_int(bands), ctypes.c_int(int(root)))
    return (f if root else np.sqrt(f)), ia


def _check(x, sampling, d, idx, exact):
    ref = snd.distance_transform_edt(x, sampling=sampling)
    if exact:  # unit sampling: every quantity an integer, no rounding anywhere
        np.testing.assert_array_equal(d, ref)
    else:
        np.testing.assert_allclose(d, ref, rtol=1e-12, atol=1e-12)
    # the indices name a background element at exactly that distance (ties may pick another one)
    assert not x[tuple(idx)].any()
    w = np.ones(x.ndim) if sampling is None else sampling
    coords = np.indices(x.shape)
    dist = np.sqrt(sum(((coords[k] - idx[k]) * w[k]) ** 2 for k in range(x.ndim)))
    np.testing.assert_allclose(dist, ref, rtol=1e-12, atol=1e-12)


RNG = np.random.default_rng(13)


@pytest.mark.parametrize("shape", [(50,), (31, 40), (12, 9, 14), (5, 4, 6, 3)])
@pytest.mark.parametrize("density", [0.05, 0.5, 0.95])
@pytest.mark.parametrize("sampled", [False, True])
@pytest.mark.parametrize("staged", [False, True], ids=["thread-per-line", "warp-per-line"])
def test_edt_like_scipy(lib, shape, density, sampled, staged):
    x = RNG.random(shape) > density  # foreground True; background with probability `density`
    x.flat[RNG.integers(x.size)] = False  # at least one background element
    sampling = RNG.uniform(0.5, 2.0, size=len(shape)) if sampled else None
    d, idx = host_edt(lib, x, sampling, staged)
    ref = snd.distance_transform_edt(x, sampling=sampling)
    np.testing.assert_allclose(d, ref, rtol=1e-12, atol=1e-12)
    # the indices name a background element at exactly that distance (ties may pick another one)
    assert not x[tuple(idx)].any()
    coords = np.indices(shape)
    w = np.ones(len(shape)) if sampling is None else sampling
    dist = np.sqrt(sum(((coords[k] - idx[k]) * w[k]) ** 2 for k in range(len(shape))))
    np.testing.assert_allclose(dist, ref, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("shape", [(50,), (31, 40), (12, 9, 14), (5, 4, 6, 3), (70, 65)])
@pytest.mark.parametrize("density", [0.01, 0.5, 0.95])
@pytest.mark.parametrize("sampled", [False, True])
@pytest.mark.parametrize("bands", [1, 3, 32, "auto"])
@pytest.mark.parametrize("fill", ["band", "band-search"])
def test_edt_scan_and_bands_like_scipy(lib, shape, density, sampled, bands, fill):
    """The default plan: the first axis by the nearest-background scan, the others by the banded
    envelope (any band count, more bands than sites included)."""
    x = RNG.random(shape) > density
    x.flat[RNG.integers(x.size)] = False
    sampling = RNG.uniform(0.5, 2.0, size=len(shape)) if sampled else None
    b = max(_edt.bands_for(n) for n in shape) if bands == "auto" else bands
    d, idx = host_edt(lib, x, sampling, fill, scan=True, bands=b)
    _check(x, sampling, d, idx, exact=not sampled)


@pytest.mark.parametrize("n", [1, 2, 31, 32, 33, 63, 64, 65, 129, 4097])
@pytest.mark.parametrize("staged", ["band", "band-search", "warp"])
def test_edt_line_lengths(lib, n, staged):
    """Line lengths about the scan's 64-element words and the bands' edges, along both axes; a
    sparse mask (whole words and bands without background), a dense one, and one background element."""
    for shape in ((n, 3), (3, n), (n,)):
        for density in (0.003, 0.4, None):
            if density is None:
                x = np.ones(shape, bool)
            else:
                x = RNG.random(shape) > density
            x.flat[RNG.integers(x.size)] = False
            d, idx = host_edt(lib, x, None, staged, scan=True, bands=_edt.bands_for(max(shape)))
            _check(x, None, d, idx, exact=True)


@pytest.mark.parametrize("shape", [(70,), (5000,), (33, 65), (9, 8, 70), (40, 1)])
@pytest.mark.parametrize("staged", ["band", "band-search"])
def test_edt_last_pass_writes_the_distances(lib, shape, staged):
    """With root, the last pass (the scan of a 1-D input, else the band pass) writes the distances
    itself: exactly the square roots the separate sqrt takes, the no-background marker included."""
    for density in (0.05, None):
        x = np.ones(shape, bool) if density is None else RNG.random(shape) > density
        sampling = RNG.uniform(0.5, 2.0, size=len(shape))
        got, gi = host_edt(lib, x, sampling, staged, scan=True, bands=5, root=True)
        want, wi = host_edt(lib, x, sampling, staged, scan=True, bands=5)
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(gi, wi)


def test_edt_all_background_and_foreground_lines(lib):
    x = np.zeros((33, 40), bool)
    d, idx = host_edt(lib, x, None, "band", scan=True, bands=5)
    _check(x, None, d, idx, exact=True)
    x = np.ones((33, 40), bool)
    x[:, 7] = False  # every row one background element, every other column none
    x[[0, 32], :] = False
    for scan in (False, True):
        d, idx = host_edt(lib, x, None, "band", scan=scan, bands=7)
        _check(x, None, d, idx, exact=True)


def _no_background_reference(shape, sampling):
    """SciPy's result for an input without background, by the formula the kernels evaluate (((c_0 +
    1) s_0)^2 + (c_1 s_1)^2 + ..., summed in axis order, then the root): their values bit for bit."""
    sq = None
    for k, n in enumerate(shape):
        view = [1] * len(shape)
        view[k] = n
        t = ((np.arange(n, dtype=np.float64) + (1.0 if k == 0 else 0.0)) * sampling[k]).reshape(view)
        sq = t * t if sq is None else sq + t * t
    return np.sqrt(np.broadcast_to(sq, shape))


@pytest.mark.parametrize("shape", [(1,), (70,), (9, 70), (1, 5), (4, 1), (5, 6, 7), (3, 4, 2, 5)])
@pytest.mark.parametrize("staged,scan", [("band", True), ("band-search", True), ("warp", True), (False, True),
                                         ("band", False), ("warp", False), (False, False)])
@pytest.mark.parametrize("root", [False, True])
def test_edt_no_background(lib, shape, staged, scan, root):
    """An input without background: the last pass (the scan of a 1-D input, else the last axis'
    envelope pass, whichever kernel) writes SciPy's result, features at (-1, 0, ...) and the
    distances to them, bit for bit the formula's; one background element anywhere, and all
    background, stay the transform's."""
    x = np.ones(shape, bool)
    sampling = RNG.uniform(0.5, 2.0, len(shape))
    root = root and (staged in ("band", "band-search") or (scan and len(shape) == 1))  # where the kernels root
    d, idx = host_edt(lib, x, sampling, staged, scan=scan, bands=5, root=root)
    np.testing.assert_array_equal(d, _no_background_reference(shape, sampling))
    ref_d, ref_i = snd.distance_transform_edt(x, sampling=sampling, return_indices=True)
    np.testing.assert_allclose(d, ref_d, rtol=1e-14, atol=0)
    np.testing.assert_array_equal(idx, ref_i)
    one = x.copy()
    one.flat[RNG.integers(one.size)] = False
    d, idx = host_edt(lib, one, sampling, staged, scan=scan, bands=5, root=root)
    ref_d, ref_i = snd.distance_transform_edt(one, sampling=sampling, return_indices=True)
    np.testing.assert_allclose(d, ref_d, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(idx, ref_i)  # one background element: one feature
    d, idx = host_edt(lib, ~x, sampling, staged, scan=scan, bands=5, root=root)
    np.testing.assert_array_equal(d, 0.0)
    np.testing.assert_array_equal(idx, np.indices(shape))


@pytest.mark.parametrize("n", [1, 2, 5, 31, 32, 33, 100, 1000, 4097])
@pytest.mark.parametrize("bands", [1, 2, 7, 22, 32])
def test_band_merge_gives_the_sequential_envelope(lib, n, bands):
    """The bands' envelopes merged are the envelope lane 0 builds alone: the same sites in the same
    order for real-valued f (no ties), INF entries (no site) included, sparse and dense."""
    for inf_rate in (0.0, 0.5, 0.97):
        f = RNG.random(n) * RNG.choice([1.0, 50.0, 5000.0])
        f[RNG.random(n) < inf_rate] = 1e300
        w2 = float(RNG.uniform(0.3, 3.0))
        vs = np.empty(max(n, 1), np.int32)
        vb = np.empty(max(n, 1), np.int32)
        ks = lib.seq_envelope(_p(f), ctypes.c_longlong(n), ctypes.c_double(w2), _p(vs))
        kb = lib.banded_envelope(_p(f), ctypes.c_longlong(n), ctypes.c_double(w2), ctypes.c_int(bands), _p(vb))
        assert kb == ks
        np.testing.assert_array_equal(vb[:kb], vs[:ks])


@pytest.mark.parametrize("bands", [2, 5, 32])
def test_band_merge_with_ties(lib, bands):
    """Integer f (collinear sites, equal meeting points): the merged envelope's minimum at every x is
    the brute-force minimum exactly."""
    for n in (17, 64, 300):
        f = RNG.integers(0, 4, n).astype(float) ** 2
        f[RNG.random(n) < 0.3] = 1e300
        f[RNG.integers(n)] = 0.0
        v = np.empty(n, np.int32)
        k = lib.banded_envelope(_p(f), ctypes.c_longlong(n), ctypes.c_double(1.0), ctypes.c_int(bands), _p(v))
        sites = v[:k]
        assert np.all(np.diff(sites) > 0) and np.all(f[sites] < 1e300)
        x = np.arange(n)[:, None]
        fin = np.flatnonzero(f < 1e300)
        brute = ((x - fin[None, :]) ** 2 + f[fin][None, :]).min(axis=1)
        env = ((x - sites[None, :]) ** 2 + f[sites][None, :]).min(axis=1)
        np.testing.assert_array_equal(env, brute)


def test_kernels_compile_for_sm90():
    names = sorted(set(_edt.names(np.dtype("?")) + _edt.names(np.dtype("f4"))))
    cubin, mapping = compiler.compile_cubin(_edt.source(), arch="sm_90", name_expressions=names)
    assert cubin and set(mapping) == set(names)
    # the last pass' no-background branch (cold) spills nothing: no kernel has a local-memory frame
    attrs = kernel_attributes(cubin)
    assert all(attrs[mapping[n].decode()].get(FRAME_SIZE, 0) == 0 for n in names)


@pytest.mark.parametrize("line_bytes,lines,want", [
    (12 * 2048, 2048, (1024, 64, 49152)),   # the 2048^2 EDT's rows: two warps a block
    (8 * 2048, 2048, (683, 96, 49152)),     # the prefilter's 2048-sample lines: three
    (8 * 100, 1000, (125, 256, 6400)),      # short lines: eight warps a block, no more
    (49152, 3, (3, 32, 49152)),             # exactly the 48 KiB a block may use without opting in
    (49160, 3, None),                       # one line too long: the thread-per-line kernel
])
def test_warp_per_line_launch_shape(line_bytes, lines, want):
    from cuarray.scipy.ndimage import _support

    assert _support.warp_per_line(lines, line_bytes) == want


def test_warp_per_line_leaves_many_strided_lines_to_a_thread_each_when_asked():
    """Lines not along the last axis (inner > 1) read strided into a warp's staging area: from
    LINES_FILL of them a thread per line (coalesced) is chosen when the caller says `inner` (the
    prefilter; the EDT measured better with a warp everywhere and does not)."""
    from cuarray.scipy.ndimage import _support

    fill = _support.LINES_FILL
    assert _support.warp_per_line(fill, 8 * 256, inner=fill) is None          # 256^3: axis 0
    assert _support.warp_per_line(fill, 8 * 256, inner=256) is None           # axis 1
    assert _support.warp_per_line(fill, 8 * 256, inner=1) is not None         # axis 2: the last one
    assert _support.warp_per_line(fill - 1, 8 * 256, inner=256) is not None   # fewer lines: a warp each


def _kernel_params():
    """{kernel name: [parameter C types]} of edt.cu's __global__ functions."""
    import re

    src = (_edt._DIR / "edt.cu").read_text()
    out = {}
    for m in re.finditer(r"__global__ void (\w+)\(([^)]*)\)", src):
        params = [" ".join(p.replace("__restrict__", "").split()) for p in m.group(2).split(",")]
        out[m.group(1)] = [p.rsplit(" ", 1)[0] for p in params]
    return out


_ARG_TYPES = {"int": np.int32, "long long": np.int64, "double": np.float64}


@pytest.mark.parametrize("plan", [dict(first="envelope", lines="warp"), dict(first="scan", lines="warp"),
                                  dict(first="scan", lines="band"), dict(first="envelope", lines="band", fill="search"),
                                  dict(first="scan", lines="band", bands=5),
                                  dict(first="scan", lines="band", staging="block"),
                                  dict(first="envelope", lines="band", staging="block"),
                                  dict(first="scan", lines="band", staging="block-in")])
@pytest.mark.parametrize("shape", [(20, 30), (7,), (5000, 3), (4, 5, 6)])
def test_driver_launches_match_kernel_signatures(recorded_launches, monkeypatch, plan, shape):
    """Every launch of the driver on the fake device passes each kernel parameter its C type (a
    pointer as an address, numpy scalars of the exact width otherwise): a wrong count or width would
    reach the GPU as garbage. The kernels are placeholders named by their name expressions."""
    import cuarray

    monkeypatch.setattr(_edt, "constant_table", lambda a: cuarray.ndarray(a.shape, a.dtype))
    params = _kernel_params()
    _edt._distances(cuarray.ndarray(shape, np.dtype(bool)), [1.0] * len(shape), True, **plan)
    seen = []
    for call in recorded_launches:
        name, args = call[2], call[3:]  # (stream, config, kernel, *args)
        short = name.split("::")[1].split("<")[0]
        seen.append(short)
        types = params[short]
        assert len(args) == len(types), short
        for t, a in zip(types, args):
            if t.endswith("*"):
                assert isinstance(a, int) and not isinstance(a, np.integer), (short, t)
            else:
                assert type(a) is _ARG_TYPES[t], (short, t, type(a))
    first = ["edt_zero_bits", "edt_first_pass"] if plan["first"] == "scan" else ["edt_init"]
    assert seen[:len(first)] == first
    # the scan of a 1-D input and the band pass write the roots themselves; the warp pass leaves
    # them to edt_sqrt
    if shape == (7,) and plan["first"] == "scan":
        last = ["edt_first_pass"]
    else:
        last = ["edt_pass_band"] if plan["lines"] == "band" else ["edt_pass_warp", "edt_sqrt"]
    assert seen[-len(last):] == last and seen.count("edt_sqrt") == (last[-1] == "edt_sqrt")
    if shape == (5000, 3) and plan["first"] == "envelope":
        assert "edt_pass" in seen  # 5000 does not fit a warp's staging: the global-memory pass
