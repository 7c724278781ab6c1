"""The EDT's warp kernels themselves (edt_pass_band, edt_pass_warp) run on the host: g++ builds
templates/edt.cuh and edt.cu with each warp intrinsic a rendezvous of 32 fibers (one per lane, on
one thread, in step: __syncwarp, __ballot_sync and __shfl_sync exchange through a shared slot
between two rendezvous), so the kernels' own lane logic, ballots and shuffles included, is checked against
scipy.ndimage.distance_transform_edt without a device (tests/scipy/ndimage/test_ndimage_edt_cpu.py
checks the same algorithm through a serial model of the lanes)."""

import ctypes

import numpy as np
import pytest
import scipy.ndimage as snd

from cuarray.scipy.ndimage import _edt

HOST = r"""
#include <cmath>
#include <cstdlib>
#include <ucontext.h>
struct idx3 { unsigned x; };
static idx3 blockIdx, threadIdx, blockDim;
#define __global__
#define __device__
#define __restrict__
#define __shared__

// The 32 lanes are fibers run in turn on one host thread: every intrinsic is a rendezvous, each
// lane passing control to the next one, so a lane resumes only when all 32 have reached the same
// call (the kernels call them with the full mask, warp-uniformly, as the hardware requires).
static ucontext_t main_ctx, lane_ctx[32];
static int cur;
static long long slot[32];
static void rendezvous() {
  int me = cur, nx = (me + 1) & 31;
  cur = nx;
  threadIdx.x = nx;
  swapcontext(&lane_ctx[me], &lane_ctx[nx]);
}
static inline void __syncwarp() { rendezvous(); }
static inline void __syncthreads() { rendezvous(); }  // (blocks of one warp here)
static inline unsigned __ballot_sync(unsigned, bool p) {
  slot[threadIdx.x & 31] = p;
  rendezvous();
  unsigned b = 0;
  for (int i = 0; i < 32; ++i) if (slot[i]) b |= 1u << i;
  rendezvous();
  return b;
}
static inline int __shfl_sync(unsigned, int v, int src) {
  slot[threadIdx.x & 31] = v;
  rendezvous();
  int r = (int)slot[src];
  rendezvous();
  return r;
}
static inline int __ffs(unsigned m) { return __builtin_ffs((int)m); }
static inline int __clzll(long long v) { return __builtin_clzll((unsigned long long)v); }
static inline int __ffsll(long long v) { return __builtin_ffsll(v); }
#include "edt.cuh"
#include "edt.cu"
namespace cuarray_ndimage { double edt_stage[12288]; }  // a warp's 48 KiB: lines up to 4096 (coop: more)
using namespace cuarray_ndimage;

// One pass over `lines` lines of (outer, n, inner), a warp per line (blocks of one warp), the
// lanes meeting between lines (the next line's staging reuses the shared area).
// kind: 0 edt_pass_warp, 1 edt_pass_band, 2 edt_pass_band with coop.
static struct Pass {
  int kind, bands, walk, root, coop, nd;
  double* f;
  long long n, inner, lines, words, total;
  double w2;
  const long long* idx_in;
  long long* idx_out;
  const long long* shape;
  const double* samp;
} P;

static void lane_main(int lane) {
  for (long long line = 0; line < P.lines; ++line) {
    blockIdx.x = (unsigned)line;
    if (P.kind)
      edt_pass_band(P.f, P.n, P.inner, P.lines, P.w2, P.words, P.bands, P.walk, P.root, P.coop, P.idx_in, P.idx_out,
                    P.nd, P.total, P.shape, P.samp);
    else
      edt_pass_warp(P.f, P.n, P.inner, P.lines, P.w2, P.words, P.idx_in, P.idx_out, P.nd, P.total, P.shape, P.samp);
    rendezvous();
  }
  if (lane < 31) {  // done: the next lane finishes its own last line; the last returns to run_pass
    cur = lane + 1;
    threadIdx.x = lane + 1;
    setcontext(&lane_ctx[lane + 1]);
  }
}

// kind 2: edt_pass_band with coop 1 (the block's copies both ways; one warp a block here, its area n + 1
// words longer); kind 3: coop 2 (the block's loads only, the area one word longer). shape, samp: the
// last pass' (SciPy's no-background values where a line has no site), samp null in the others.
extern "C" void run_pass(int kind, double* f, long long n, long long inner, long long lines, double w2, int bands,
                         int walk, int root, const long long* idx_in, long long* idx_out, int nd, long long total,
                         const long long* shape, const double* samp) {
  int coop = kind >= 2 ? kind - 1 : 0;
  P = Pass{kind, bands, walk, root, coop, nd, f, n, inner, lines, (12 * n + 7) / 8 + (coop == 1 ? n + 1 : coop), total,
           w2, idx_in, idx_out, shape, samp};
  blockDim.x = 32;
  const size_t stack = 1 << 18;
  char* stacks = (char*)malloc(32 * stack);
  for (int lane = 0; lane < 32; ++lane) {
    getcontext(&lane_ctx[lane]);
    lane_ctx[lane].uc_stack.ss_sp = stacks + lane * stack;
    lane_ctx[lane].uc_stack.ss_size = stack;
    lane_ctx[lane].uc_link = &main_ctx;
    makecontext(&lane_ctx[lane], (void (*)())lane_main, 1, lane);
  }
  cur = 0;
  threadIdx.x = 0;
  swapcontext(&main_ctx, &lane_ctx[0]);
  free(stacks);
}

// edt_block_copy for a block of 32 per_block threads, its threads in turn (no intrinsics inside)
extern "C" void block_copy(double* f, double* stage, long long n, long long inner, long long words, int per_block,
                           int back) {
  blockDim.x = 32 * per_block;
  for (unsigned t = 0; t < blockDim.x; ++t) {
    threadIdx.x = t;
    edt_block_copy(f, stage, n, inner, words, per_block, back);
  }
}

// edt_init (its threads in turn): f 0 at background, INF elsewhere; idx the own coordinates.
extern "C" void run_init(const double* in, double* f, long long* idx, const long long* shape, int nd,
                         long long total) {
  blockDim.x = 1;
  for (long long i = 0; i < total; ++i) {
    blockIdx.x = (unsigned)i;
    threadIdx.x = 0;
    edt_init<double>(in, f, idx, shape, nd, total);
  }
}
"""


@pytest.fixture(scope="module")
def lib(host_lib):
    return host_lib("edt_warp", HOST, _edt._DIR)


def _p(a):
    return a.ctypes.data_as(ctypes.c_void_p)


def warp_edt(lib, x, sampling, kind, bands=1, walk=1, root=False):
    """_edt's passes with every axis a warp pass (edt_init first): distances and indices."""
    x = np.ascontiguousarray(x, np.float64)
    nd, total = x.ndim, x.size
    shape = np.asarray(x.shape, np.int64)
    samp_table = np.asarray(sampling, np.float64)
    f = np.empty(x.shape)
    cur = np.empty((nd,) + x.shape, np.int64)
    lib.run_init(_p(x), _p(f), _p(cur), _p(shape), ctypes.c_int(nd), ctypes.c_longlong(total))
    for axis in range(nd):
        n = x.shape[axis]
        inner = int(np.prod(x.shape[axis + 1:], dtype=np.int64))
        nxt = np.empty_like(cur)
        last = root and axis == nd - 1
        samp = _p(samp_table) if axis == nd - 1 else None  # the last pass: SciPy's no-background values
        lib.run_pass(ctypes.c_int(kind), _p(f), ctypes.c_longlong(n), ctypes.c_longlong(inner),
                     ctypes.c_longlong(total // n), ctypes.c_double(sampling[axis] ** 2), ctypes.c_int(bands),
                     ctypes.c_int(walk), ctypes.c_int(int(last)), _p(cur), _p(nxt), ctypes.c_int(nd),
                     ctypes.c_longlong(total), _p(shape), samp)
        cur = nxt
    return (f if root else np.sqrt(f)), cur


RNG = np.random.default_rng(31)


@pytest.mark.parametrize("kind,bands,walk", [(0, 1, 0), (1, 1, 1), (1, 5, 0), (1, 5, 1), (1, 32, 1), (1, "auto", 1),
                                             (2, 5, 0), (2, "auto", 1), (3, 5, 0), (3, "auto", 1)],
                         ids=["warp", "band1-walk", "band5-search", "band5-walk", "band32-walk", "bandauto-walk",
                              "band5-search-coop", "bandauto-walk-coop", "band5-search-loads", "bandauto-walk-loads"])
@pytest.mark.parametrize("shape", [(33,), (1, 70), (70, 1), (20, 65), (6, 7, 31)])
def test_warp_kernels_like_scipy(lib, kind, bands, walk, shape):
    for density, sampled in ((0.1, False), (0.6, True), (0.003, False)):
        x = RNG.random(shape) > density
        x.flat[RNG.integers(x.size)] = False
        sampling = RNG.uniform(0.5, 2.0, len(shape)) if sampled else np.ones(len(shape))
        b = max(_edt.bands_for(n) for n in shape) if bands == "auto" else bands
        d, idx = warp_edt(lib, x, sampling, kind, b, walk, root=kind >= 1)
        ref = snd.distance_transform_edt(x, sampling=sampling)
        if sampled:
            np.testing.assert_allclose(d, ref, rtol=1e-12, atol=1e-12)
        else:
            np.testing.assert_array_equal(d, ref)
        assert not x[tuple(idx)].any()
        dist = np.sqrt(sum(((np.indices(shape)[k] - idx[k]) * sampling[k]) ** 2 for k in range(len(shape))))
        np.testing.assert_allclose(dist, ref, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("kind,walk", [(0, 0), (1, 0), (1, 1), (2, 1), (3, 0)],
                         ids=["warp", "band-search", "band-walk", "band-walk-coop", "band-search-loads"])
@pytest.mark.parametrize("shape", [(1,), (33,), (1, 70), (70, 1), (20, 65), (6, 7, 31)])
def test_warp_kernels_no_background(lib, kind, walk, shape):
    """No background: the last pass' lines have no site, and the kernels write SciPy's result there
    (features at (-1, 0, ...), the distances to them, rooted or not), bit for bit the formula
    ((c_0 + 1) s_0)^2 + (c_1 s_1)^2 + ... summed in axis order; through the coop staging too."""
    x = np.ones(shape, bool)
    sampling = RNG.uniform(0.5, 2.0, len(shape))
    ref_d, ref_i = snd.distance_transform_edt(x, sampling=sampling, return_indices=True)
    sq = None
    for k, n in enumerate(shape):
        view = [1] * len(shape)
        view[k] = n
        t = ((np.arange(n, dtype=np.float64) + (1.0 if k == 0 else 0.0)) * sampling[k]).reshape(view)
        sq = t * t if sq is None else sq + t * t
    for root in ((False, True) if kind else (False,)):
        d, idx = warp_edt(lib, x, sampling, kind, 5, walk, root=root)
        np.testing.assert_array_equal(d, np.sqrt(np.broadcast_to(sq, shape)))
        np.testing.assert_allclose(d, ref_d, rtol=1e-14, atol=0)
        np.testing.assert_array_equal(idx, ref_i)


def test_band_kernel_long_lines(lib):
    # 4096 (the staging limit) and 2048 with the formula's bands, sparse and dense: more than 32
    # sites a band (the ballot's second round of candidates), whole bands without sites
    for n, density in ((4096, 0.002), (2048, 0.3), (2048, 0.9)):
        x = RNG.random(n) > density  # one line (a line a warp: every line costs its rendezvous here)
        x.flat[RNG.integers(x.size)] = False
        d, _ = warp_edt(lib, x, np.ones(1), 1, _edt.bands_for(n), 1)
        np.testing.assert_array_equal(d, snd.distance_transform_edt(x))


@pytest.mark.parametrize("n", [256, 2048, 4096])
@pytest.mark.parametrize("kind,walk", [(0, 0), (1, 0), (1, 1), (2, 1), (3, 0)],
                         ids=["warp", "band-search", "band-walk", "band-walk-coop", "band-search-loads"])
def test_pass_of_any_f_exactly(lib, n, kind, walk):
    """One pass over arbitrary integer f (exact in double), not only what earlier passes give: large
    values beside a few zeros leave long runs of a band's sites under the envelope of the bands
    before it (more than 32: the ballot's later rounds), INF entries whole bands. Against the
    brute-force minimum over all sites, every band count."""
    for bands in ([1] if kind == 0 else [4, _edt.bands_for(n), 32]):
        f = RNG.integers(0, 10**6, n).astype(np.float64)
        f[RNG.random(n) < 0.02] = 0.0
        f[RNG.random(n) < 0.2] = 1e300
        f[n // 2:n // 2 + n // 8] = 1e300  # a stretch without sites
        f[0] = 0.0
        L = -(-n // bands) | 1  # edt_band_length
        if 2 * L < n // 2:  # band 1 all one large value after a zero: all its sites but the last
            f[L - 2] = 0.0  # under the envelope of band 0 (a ballot round per 32 of them)
            f[L:2 * L] = 5e5
        fin = np.flatnonzero(f < 1e300)
        x = np.arange(n, dtype=np.float64)[:, None]
        brute = ((x - fin[None, :]) ** 2 + f[fin][None, :]).min(axis=1)
        got = f.copy()
        idx_in = np.arange(n, dtype=np.int64)[None, :]
        idx_out = np.empty_like(idx_in)
        lib.run_pass(ctypes.c_int(kind), _p(got), ctypes.c_longlong(n), ctypes.c_longlong(1), ctypes.c_longlong(1),
                     ctypes.c_double(1.0), ctypes.c_int(bands), ctypes.c_int(walk), ctypes.c_int(0), _p(idx_in),
                     _p(idx_out), ctypes.c_int(1), ctypes.c_longlong(n), None, None)
        np.testing.assert_array_equal(got, brute)
        q = idx_out[0]
        np.testing.assert_array_equal((np.arange(n) - q) ** 2 + f[q], brute)


@pytest.mark.parametrize("per_block", [1, 3, 8])
def test_block_copy_moves_each_line(lib, per_block):
    # edt_block_copy, a block of several warps: each warp area's line in and its outputs back out,
    # lines of (outer, n, inner) that cross an outer boundary inside the block, and a missing line
    # (offset -1: the block's last warps past the last line) left alone
    n, inner, outer = 37, 5, 3
    words = (12 * n + 7) // 8 + n + 1
    f = RNG.normal(size=outer * n * inner)
    lines = outer * inner
    for first in range(0, lines, per_block):
        stage = np.full(per_block * words, np.nan)
        offsets = stage.view(np.int64)
        want = []
        for w in range(per_block):
            line = first + w
            at = -1 if line >= lines else (line // inner) * n * inner + line % inner
            offsets[w * words + words - 1] = at
            want.append(at)
        lib.block_copy(_p(f), _p(stage), ctypes.c_longlong(n), ctypes.c_longlong(inner), ctypes.c_longlong(words),
                       ctypes.c_int(per_block), ctypes.c_int(0))
        for w, at in enumerate(want):
            got = stage[w * words:w * words + n]
            if at < 0:
                assert np.isnan(got).all()
            else:
                np.testing.assert_array_equal(got, f[at + np.arange(n) * inner])
            stage[w * words + words - 1 - n:w * words + words - 1] = -float(w + 1) - np.arange(n)  # the outputs
        before = f.copy()
        lib.block_copy(_p(f), _p(stage), ctypes.c_longlong(n), ctypes.c_longlong(inner), ctypes.c_longlong(words),
                       ctypes.c_int(per_block), ctypes.c_int(1))
        expect = before.copy()
        for w, at in enumerate(want):
            if at >= 0:
                expect[at + np.arange(n) * inner] = -float(w + 1) - np.arange(n)
        np.testing.assert_array_equal(f, expect)
