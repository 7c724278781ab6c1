"""ndimage.label and find_objects without a device: templates/label.cu built with g++ (the CUDA
keywords defined away, each kernel run serially over its threads: one legal schedule of the
union-find), driven like _label_kernels drives it, against scipy.ndimage.label / find_objects;
and NVRTC compiles of the kernels."""

import ctypes

import numpy as np
import pytest
import scipy.ndimage as snd

from cuarray.cuda import compiler
from cuarray.scipy.ndimage import _label_kernels as lk

HOST = r"""
#include <algorithm>
struct idx3 { unsigned x; };
static idx3 blockIdx, threadIdx, blockDim;
#define __global__
#define __device__
#define __forceinline__ inline
#define __restrict__
template <typename T> T atomicMin(T* p, T v) { T o = *p; if (v < o) *p = v; return o; }
template <typename T> T atomicMax(T* p, T v) { T o = *p; if (v > o) *p = v; return o; }
#include "label.cu"
using namespace cuarray_ndimage;
#define EACH(total, call) for (long long i = 0; i < (total); ++i) { blockDim.x = 256; blockIdx.x = i / 256; threadIdx.x = i % 256; call; }

extern "C" long long run_label(const double* in, long long total, const long long* shape, int nd, const int* offs,
                               const long long* loff, int nnb, long long* parent, int* is_root, long long* rank,
                               int* out) {
  EACH(total, (label_init<double, long long>(in, parent, total)));
  EACH(total, (label_merge<long long>(parent, shape, offs, loff, nnb, nd, total)));
  EACH(total, (label_compress<long long>(parent, is_root, total)));
  long long s = 0;
  for (long long i = 0; i < total; ++i) { s += is_root[i]; rank[i] = s; }  // the engine's scan
  EACH(total, (label_relabel<long long, int>(parent, rank, out, total)));
  return s;
}

extern "C" void run_bbox(const int* labels, const long long* shape, int nd, long long total, long long max_label,
                         long long* lo, long long* hi) {
  EACH(total, (bounding_boxes<int>(labels, shape, nd, total, max_label, lo, hi)));
}
"""


@pytest.fixture(scope="module")
def lib(host_lib):
    return host_lib("label", HOST, lk._TEMPLATE.parent)


def _p(a):
    return a.ctypes.data_as(ctypes.c_void_p)


def host_label(lib, x, structure):
    x = np.ascontiguousarray(x, np.float64)
    total = x.size
    offs, loff = lk.neighbour_table(x.shape, structure)
    offs = np.ascontiguousarray(offs, np.int32)
    loff = np.ascontiguousarray(loff, np.int64)
    shape = np.asarray(x.shape, np.int64)
    parent = np.empty(total, np.int64)
    is_root = np.empty(total, np.int32)
    rank = np.empty(total, np.int64)
    out = np.empty(x.shape, np.int32)
    lib.run_label.restype = ctypes.c_longlong
    n = lib.run_label(_p(x), ctypes.c_longlong(total), _p(shape), ctypes.c_int(x.ndim), _p(offs), _p(loff),
                      ctypes.c_int(len(offs)), _p(parent), _p(is_root), _p(rank), _p(out))
    return out, n


RNG = np.random.default_rng(11)


@pytest.mark.parametrize("shape,conn", [((40, 37), 1), ((40, 37), 2), ((9, 10, 11), 1), ((9, 10, 11), 3),
                                        ((200,), 1), ((5, 4, 3, 6), 2)])
@pytest.mark.parametrize("density", [0.3, 0.55, 0.8])
def test_union_find_labels_like_scipy(lib, shape, conn, density):
    x = RNG.random(shape) < density
    s = snd.generate_binary_structure(len(shape), conn)
    got, n = host_label(lib, x, s)
    ref, rn = snd.label(x, s)
    assert n == rn
    np.testing.assert_array_equal(got, ref)


def test_spiral_and_custom_structure(lib):
    x = np.zeros((15, 15), bool)
    x[1, 1:14] = x[1:14, 13] = x[13, 1:14] = x[3:14, 1] = x[3, 1:12] = x[3:12, 11] = x[11, 3:12] = True
    s = np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]])
    got, n = host_label(lib, x, s)
    ref, rn = snd.label(x, s)
    assert n == rn == 1
    np.testing.assert_array_equal(got, ref)
    diag = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1]])
    x = RNG.random((20, 20)) < 0.5
    got, n = host_label(lib, x, diag)
    ref, rn = snd.label(x, diag)
    assert n == rn
    np.testing.assert_array_equal(got, ref)


def test_bounding_boxes_like_find_objects(lib):
    x = RNG.random((30, 25)) < 0.4
    labels, n = snd.label(x)
    labels = labels.astype(np.int32)
    labels[labels == 3] = 0  # an absent label
    lo = np.full((n + 2, 2), np.iinfo(np.int64).max, np.int64)
    hi = np.full((n + 2, 2), -1, np.int64)
    lib.run_bbox(_p(labels), _p(np.asarray(labels.shape, np.int64)), ctypes.c_int(2),
                 ctypes.c_longlong(labels.size), ctypes.c_longlong(n + 2), _p(lo), _p(hi))
    ref = snd.find_objects(labels, n + 2)
    for i, r in enumerate(ref):
        if r is None:
            assert hi[i, 0] == -1
        else:
            assert r == tuple(slice(int(a), int(b) + 1) for a, b in zip(lo[i], hi[i]))


def test_kernels_compile_for_sm90():
    names = sorted(set(lk.names(np.dtype("?"), np.dtype("i4"), False) + lk.names(np.dtype("f8"), np.dtype("i8"), True)
                       + (lk.bbox_name(np.dtype("i4")), lk.bbox_name(np.dtype("u2")))))
    cubin, mapping = compiler.compile_cubin(lk.source(), arch="sm_90", name_expressions=names)
    assert cubin and set(mapping) == set(names)
