// The KDTree query kernels (cuarray/scipy/spatial/templates/kdtree.cu) built for the host with
// g++: CUDA's qualifiers become nothing and each "thread" is one call with threadIdx.x set, so
// the traversal (rings, bounds, pruning, the insertion list, the ball cells) is checked against
// brute force on the CPU (tests/scipy/spatial/test_kdtree_kernel_host_cpu.py).
#include <cmath>
#include <cstring>
#include <algorithm>

struct Dim3 { unsigned x, y, z; };
static Dim3 threadIdx, blockIdx, blockDim;
#define __global__
#define __device__
#define __forceinline__ inline
using std::max;
using std::min;
using std::isinf;
static inline double __longlong_as_double(long long v) { double d; std::memcpy(&d, &v, sizeof d); return d; }

#include "kdtree.cu"

#define ARGS const double* pts, const long long* perm, const long long* start, long long n, int d, int g, \
    int res0, int res1, int res2, double lo0, double lo1, double lo2, double h
#define PASS pts, perm, start, n, d, g, res0, res1, res2, lo0, lo1, lo2, h

static void one_thread(long long t) {
    blockDim.x = 1;
    blockIdx.x = (unsigned)t;
    threadIdx.x = 0;
}

extern "C" void host_knn(ARGS, const double* q, long long m, int k, int pk, double p, double ub, double eps_fac,
                         double* od, long long* oi) {
    for (long long t = 0; t < m; ++t) {
        one_thread(t);
        cuarray_spatial_knn<128>(PASS, q, m, k, pk, p, ub, eps_fac, od, oi);
    }
}

extern "C" void host_ball_count(ARGS, const double* q, long long m, const double* radius, int stride, int pk,
                                double p, const double* w, long long* count, double* wsum) {
    for (long long t = 0; t < m; ++t) {
        one_thread(t);
        cuarray_spatial_ball_count(PASS, q, m, radius, stride, pk, p, w, count, wsum);
    }
}

extern "C" void host_ball_fill(ARGS, const double* q, long long m, const double* radius, int stride, int pk,
                               double p, const long long* offset, long long* oi, double* od) {
    for (long long t = 0; t < m; ++t) {
        one_thread(t);
        cuarray_spatial_ball_fill(PASS, q, m, radius, stride, pk, p, offset, oi, od);
    }
}
