// The GPU 2-D Delaunay triangulation (templates/delaunay.cu): what its kernels share. The host
// build's stand-ins for CUDA (tests/scipy/spatial/test_delaunay_gpu_core_cpu.py compiles this file
// and delaunay.cu with g++, no __CUDACC__, and runs every kernel's loop sequentially), the
// robust predicates, and the mesh's encoding.
//
// The mesh: triangle t has vertices tv[3t + k] (counterclockwise) and neighbours tn[3t + k], the
// triangle across the edge opposite tv[3t + k], encoded 4 * t' + k' (k' the edge's index in t').
// Vertex id n is the symbolic point at infinity: (a, b, INF) is the hull edge a -> b seen from
// outside (the finite triangle across it is (b, a, c)). The mesh is closed (every edge has two
// triangles): with the INF vertex it is a triangulated sphere of 2n - 2 triangles once every
// point is in.
//
// Robustness: every predicate answers +1 or -1 only where its sign is certain (Shewchuk's static
// error bounds on the double evaluation, every operation rounded once: cuarray::rn, never
// contracted into an fma); otherwise 0, and the caller records a fallback reason in the status
// word, so the driver gives the whole call to Qhull. An exact 0 (a point on an edge, a duplicate,
// collinear hull points, four cocircular points) is "not certain" too: those inputs are SciPy's
// to answer.
#pragma once

#include <cuarray/rounded.cuh>

#ifdef __CUDACC__
#define CUARRAY_DT_FN __device__ __forceinline__
// A grid-stride loop over [0, count): every kernel is one, so any grid covers any count.
#define CUARRAY_DT_FOR(i, count) \
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (count); i += gridDim.x * blockDim.x)
#else
// The host build: each kernel is a plain function whose loop runs every index in turn, in the
// order the tests choose (forward, backward or a stride permutation), which shows a kernel whose
// result depends on the order its threads run in. Atomics are the plain operations.
#include <cmath>
#define __global__
#define CUARRAY_DT_FN inline
using std::fabs;
static int cuarray_dt_host_order = 0;
extern "C" void cuarray_delaunay_host_set_order(int order) { cuarray_dt_host_order = order; }
inline int cuarray_dt_host_index(int step, int count) {
  if (cuarray_dt_host_order == 1) return count - 1 - step;
  if (cuarray_dt_host_order == 2 && count % 7919 != 0) return (int)(((long long)step * 7919) % count);
  return step;
}
#define CUARRAY_DT_FOR(i, count)                                                                          \
  for (int i##_step = 0, i = 0; i##_step < (count) && ((i = cuarray_dt_host_index(i##_step, (count))), 1); \
       ++i##_step)
inline unsigned long long atomicMin(unsigned long long* a, unsigned long long v) {
  const unsigned long long old = *a;
  if (v < old) *a = v;
  return old;
}
inline int atomicMin(int* a, int v) {
  const int old = *a;
  if (v < old) *a = v;
  return old;
}
inline unsigned long long atomicOr(unsigned long long* a, unsigned long long v) {
  const unsigned long long old = *a;
  *a = old | v;
  return old;
}
#endif

namespace cuarray_delaunay {

// The status word (status[0]): why the driver must fall back to Qhull (bits, OR-ed by any thread).
enum : unsigned long long {
  FAIL_ORIENT = 1ull,     // an orientation's sign not certain (exact 0 included)
  FAIL_INCIRCLE = 2ull,   // an in-circle test's sign not certain (cocircular points included)
  FAIL_START = 4ull,      // the first triangle is flat, or its centre not strictly inside it
  FAIL_UNLOCATED = 8ull,  // a point in no triangle's region (cannot happen unless predicates fail)
};
// status[1]: the number of the last flip pass that flipped an edge (the host's "flipped anything").

constexpr int kNoClaim = 0x7fffffff;
constexpr unsigned long long kNoPick = 0xffffffffffffffffull;

CUARRAY_DT_FN int next3(int k) { return k == 2 ? 0 : k + 1; }
CUARRAY_DT_FN int prev3(int k) { return k == 0 ? 2 : k - 1; }

CUARRAY_DT_FN void fail(unsigned long long* status, unsigned long long why) { atomicOr(status, why); }

// 2^-53: half an ulp of 1, the unit roundoff Shewchuk's bounds are written in.
constexpr double kEps = 1.1102230246251565e-16;
constexpr double kOrientBound = (3.0 + 16.0 * kEps) * kEps;
constexpr double kInCircleBound = (10.0 + 96.0 * kEps) * kEps;
// Shewchuk's bounds assume no underflow or overflow. A coordinate difference of 0 or of magnitude
// in [2^-200, 2^200] keeps every product and difference of the in-circle sum (degree 4) normal
// and finite; another difference makes the predicate "not certain" (the call goes to Qhull).
constexpr double kDiffMin = 6.223015277861142e-61;  // 2^-200
constexpr double kDiffMax = 1.6069380442589903e+60;  // 2^200

CUARRAY_DT_FN bool tame(double d) {
  const double a = fabs(d);
  return a == 0.0 || (a >= kDiffMin && a <= kDiffMax);  // false for NaN
}

// The sign of orient2d(a, b, c) = det [a - c; b - c]: +1 when c is left of a -> b (a, b, c
// counterclockwise), -1 when right, 0 when the double evaluation cannot tell (Shewchuk's
// ccwerrboundA; his exact stages are replaced by the fallback).
CUARRAY_DT_FN int orient(const double* xy, int a, int b, int c) {
  using namespace cuarray::rn;
  const double acx = sub(xy[2 * a], xy[2 * c]), bcx = sub(xy[2 * b], xy[2 * c]);
  const double acy = sub(xy[2 * a + 1], xy[2 * c + 1]), bcy = sub(xy[2 * b + 1], xy[2 * c + 1]);
  if (!(tame(acx) && tame(bcx) && tame(acy) && tame(bcy))) return 0;
  const double left = mul(acx, bcy), right = mul(acy, bcx);
  const double det = sub(left, right);
  const double bound = mul(kOrientBound, add(fabs(left), fabs(right)));
  return det > bound ? 1 : (-det > bound ? -1 : 0);
}

// orient2d of a point given by its coordinates (the centre the hull's regions are cones from).
CUARRAY_DT_FN int orient_xy(double ax, double ay, const double* xy, int b, int c) {
  using namespace cuarray::rn;
  const double acx = sub(ax, xy[2 * c]), bcx = sub(xy[2 * b], xy[2 * c]);
  const double acy = sub(ay, xy[2 * c + 1]), bcy = sub(xy[2 * b + 1], xy[2 * c + 1]);
  if (!(tame(acx) && tame(bcx) && tame(acy) && tame(bcy))) return 0;
  const double left = mul(acx, bcy), right = mul(acy, bcx);
  const double det = sub(left, right);
  const double bound = mul(kOrientBound, add(fabs(left), fabs(right)));
  return det > bound ? 1 : (-det > bound ? -1 : 0);
}

// The sign of incircle(a, b, c, d): +1 when d is strictly inside the circle through the
// counterclockwise a, b, c, -1 outside, 0 when not certain (Shewchuk's iccerrboundA).
CUARRAY_DT_FN int incircle(const double* xy, int a, int b, int c, int d) {
  using namespace cuarray::rn;
  const double dx = xy[2 * d], dy = xy[2 * d + 1];
  const double adx = sub(xy[2 * a], dx), ady = sub(xy[2 * a + 1], dy);
  const double bdx = sub(xy[2 * b], dx), bdy = sub(xy[2 * b + 1], dy);
  const double cdx = sub(xy[2 * c], dx), cdy = sub(xy[2 * c + 1], dy);
  if (!(tame(adx) && tame(ady) && tame(bdx) && tame(bdy) && tame(cdx) && tame(cdy))) return 0;
  const double bdxcdy = mul(bdx, cdy), cdxbdy = mul(cdx, bdy);
  const double cdxady = mul(cdx, ady), adxcdy = mul(adx, cdy);
  const double adxbdy = mul(adx, bdy), bdxady = mul(bdx, ady);
  const double alift = add(mul(adx, adx), mul(ady, ady));
  const double blift = add(mul(bdx, bdx), mul(bdy, bdy));
  const double clift = add(mul(cdx, cdx), mul(cdy, cdy));
  const double det = add(add(mul(alift, sub(bdxcdy, cdxbdy)), mul(blift, sub(cdxady, adxcdy))),
                         mul(clift, sub(adxbdy, bdxady)));
  const double permanent = add(add(mul(add(fabs(bdxcdy), fabs(cdxbdy)), alift),
                                   mul(add(fabs(cdxady), fabs(adxcdy)), blift)),
                               mul(add(fabs(adxbdy), fabs(bdxady)), clift));
  const double bound = mul(kInCircleBound, permanent);
  return det > bound ? 1 : (-det > bound ? -1 : 0);
}

// The cone of the hull edge a -> b of the infinite triangle (a, b, INF): the points p with
// orient(a, b, p) > 0 between the rays from the centre O through b and through a (O is strictly
// inside the hull, which is star-shaped from O with its vertices in angular order at every
// moment of the algorithm, so these cones split the outside of the hull into convex regions, each
// holding its edge; a triangle (a, b, p) for p in one never overlaps another's). 1 inside, -1
// outside, 0 not certain.
CUARRAY_DT_FN int in_cone(const double* xy, const double* center, int a, int b, int p) {
  const int beyond = orient(xy, a, b, p);
  const int after_b = orient_xy(center[0], center[1], xy, b, p);
  const int before_a = orient_xy(center[0], center[1], xy, a, p);
  if (beyond == 0 || after_b == 0 || before_a == 0) return 0;
  return (beyond > 0 && after_b > 0 && before_a < 0) ? 1 : -1;
}

}  // namespace cuarray_delaunay
