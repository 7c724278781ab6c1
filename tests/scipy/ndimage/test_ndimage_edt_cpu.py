"""distance_transform_edt without a device: templates/edt.cuh and edt.cu built with g++ (the CUDA
keywords defined away, each kernel run serially over its threads), driven as _edt drives them,
against scipy.ndimage.distance_transform_edt; and NVRTC compiles of the kernels."""

import ctypes

import numpy as np
import pytest
import scipy.ndimage as snd

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
static inline unsigned __ballot_sync(unsigned, bool p) { return p; }
static inline int __shfl_sync(unsigned, int v, int) { return v; }
static inline int __ffs(unsigned m) { return __builtin_ffs((int)m); }
#include "edt.cuh"
#include "edt.cu"
namespace cuarray_ndimage { double edt_stage[1]; }  // edt_pass_warp's extern __shared__ array
using namespace cuarray_ndimage;
#define EACH(total, call) for (long long i = 0; i < (total); ++i) { blockDim.x = 128; blockIdx.x = i / 128; threadIdx.x = i % 128; call; }

// edt_pass_warp's line, its lanes in turn: stage, add the finite sites in increasing q, fill
// each x from its envelope site (the kernel's ballot only finds the finite entries 32 at a time).
static void staged_line(double* f, long long n, long long inner, long long line, double w2, double* fs, int* v,
                        const long long* cur, long long* nxt, int nd, long long total) {
  long long o = line / inner, kk = line - o * inner, base = o * n * inner + kk;
  for (long long x = 0; x < n; ++x) fs[x] = f[base + x * inner];
  EdtEnvelope e; e.k = -1; e.p = 0; e.Fp = e.zn = e.zd = 0.0;
  for (long long q = 0; q < n; ++q) if (fs[q] < CUARRAY_EDT_INF) edt_envelope_add(e, fs, v, w2, (int)q);
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

// _edt.py's passes: edt_pass (a thread per line, global scratch) or, `staged`, edt_pass_warp's lines.
extern "C" void run_edt(const double* in, const long long* shape, int nd, long long total, const double* sampling,
                        double* f, long long* idx_a, long long* idx_b, int want_idx, int staged) {
  EACH(total, (edt_init<double>(in, f, want_idx ? idx_a : nullptr, shape, nd, total)));
  long long* cur = idx_a; long long* nxt = idx_b;
  for (int axis = 0; axis < nd; ++axis) {
    long long n = shape[axis], inner = 1;
    for (int d = axis + 1; d < nd; ++d) inner *= shape[d];
    long long lines = total / n;
    double w2 = sampling[axis] * sampling[axis];
    if (staged) {
      double* fs = new double[n]; int* v = new int[n];
      for (long long line = 0; line < lines; ++line)
        staged_line(f, n, inner, line, w2, fs, v, want_idx ? cur : nullptr, nxt, nd, total);
      delete[] fs; delete[] v;
    } else {
      long long* v = new long long[lines * n]; double* z = new double[lines * (n + 1)];
      double* dd = new double[lines * n]; long long* arg = new long long[lines * n];
      EACH(lines, (edt_pass(f, n, inner, lines, w2, v, z, dd, arg, want_idx ? cur : nullptr,
                            want_idx ? nxt : nullptr, nd, total)));
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


def host_edt(lib, x, sampling=None, staged=False):
    x = np.ascontiguousarray(x, np.float64)
    sampling = np.ones(x.ndim) if sampling is None else np.asarray(sampling, np.float64)
    f = np.empty(x.shape)
    ia = np.empty((x.ndim,) + x.shape, np.int64)
    ib = np.empty_like(ia)
    lib.run_edt(_p(x), _p(np.asarray(x.shape, np.int64)), ctypes.c_int(x.ndim), ctypes.c_longlong(x.size),
                _p(sampling), _p(f), _p(ia), _p(ib), ctypes.c_int(1), ctypes.c_int(int(staged)))
    return np.sqrt(f), ia


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


def test_kernels_compile_for_sm90():
    names = sorted(set(_edt.names(np.dtype("?")) + _edt.names(np.dtype("f4"))))
    cubin, mapping = compiler.compile_cubin(_edt.source(), arch="sm_90", name_expressions=names)
    assert cubin and set(mapping) == set(names)


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
