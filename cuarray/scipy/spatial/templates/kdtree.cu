// Neighbour queries over a uniform grid of points (cuarray.scipy.spatial.KDTree).
//
// The points are sorted by the linear index of their cell in a grid over their first g <= 3
// coordinates (cubic cells of side h from lo); start[c] .. start[c + 1] are the sorted points of
// cell c and perm maps them back to the caller's indices. One thread answers one query.
// Distances are compared "reduced": squared for p = 2, the sum of |x|^p for a finite p, the max
// for p = inf; the grid gives lower bounds from the first g coordinates alone, which are valid for
// every p >= 1 (one coordinate's difference never exceeds the distance), so any dimension d works
// (the pruning is weaker when d > g).
//
// Parameters shared by the kernels (written out in each signature, no macro, so a kernel
// family's declaration can be checked against them): pts (n x d, sorted by cell), perm, start,
// n, d, g, res0..2 (cells a grid axis), lo0..2, h.


// +inf without <math.h> macros (NVRTC does not define INFINITY)
#define CUARRAY_SPATIAL_INF __longlong_as_double(0x7ff0000000000000LL)

namespace cuarray_spatial {

// pk: 0 for p = 2, 1 for p = 1, 2 for p = inf, 3 for another p >= 1
__device__ __forceinline__ double reduce_term(double diff, int pk, double p) {
    const double a = fabs(diff);
    return pk == 0 ? a * a : (pk == 3 ? pow(a, p) : a);
}

__device__ __forceinline__ double combine(double acc, double term, int pk) {
    return pk == 2 ? fmax(acc, term) : acc + term;
}

__device__ __forceinline__ double reduced_distance(const double* x, const double* y, int d, int pk, double p) {
    double acc = 0.0;
    for (int j = 0; j < d; ++j) acc = combine(acc, reduce_term(x[j] - y[j], pk, p), pk);
    return acc;
}

// The reduced distance from x to the box of cell (c0, c1, c2) along the g grid coordinates.
__device__ __forceinline__ double box_distance(const double* x, const int* c, int g, const double* lo,
                                               double h, int pk, double p) {
    double acc = 0.0;
    for (int j = 0; j < g; ++j) {
        const double a = lo[j] + c[j] * h, b = a + h;
        const double gap = x[j] < a ? a - x[j] : (x[j] > b ? x[j] - b : 0.0);
        acc = combine(acc, reduce_term(gap, pk, p), pk);
    }
    return acc;
}

__device__ __forceinline__ void query_cell(const double* x, int g, const double* lo, double h, const int* res,
                                           int* c) {
    for (int j = 0; j < 3; ++j) {
        if (j < g) {
            int v = (int)floor((x[j] - lo[j]) / h);
            c[j] = v < 0 ? 0 : (v >= res[j] ? res[j] - 1 : v);
        } else {
            c[j] = 0;
        }
    }
}

// A lower bound (not reduced) on the distance from x to any cell outside the cube of rings <= r
// around cell c: the nearest face of that cube, a face past the grid's end counting as infinite.
__device__ __forceinline__ double ring_bound(const double* x, const int* c, int r, int g, const double* lo,
                                             double h, const int* res) {
    double b = CUARRAY_SPATIAL_INF;
    for (int j = 0; j < g; ++j) {
        if (c[j] - r > 0) b = fmin(b, x[j] - (lo[j] + (c[j] - r) * h));
        if (c[j] + r < res[j] - 1) b = fmin(b, lo[j] + (c[j] + r + 1) * h - x[j]);
    }
    return b < 0.0 ? 0.0 : b;
}

__device__ __forceinline__ double to_reduced(double b, int pk, double p) {
    return pk == 0 ? b * b : (pk == 3 ? pow(b, p) : b);
}

}  // namespace cuarray_spatial

// The k <= K nearest points of each query with reduced distance < ub (an insertion-sorted list in
// registers/local memory), cells visited ring by ring around the query's cell until the ring
// bound passes the k-th distance scaled by eps_fac ((1 + eps)^-p reduced). Missing neighbours:
// distance inf, index n. Outputs are reduced distances (the caller takes the root).
template <int K>
__global__ void cuarray_spatial_knn(const double* __restrict__ pts, const long long* __restrict__ perm,
                                    const long long* __restrict__ start, long long n, int d, int g, int res0,
                                    int res1, int res2, double lo0, double lo1, double lo2, double h,
                                    const double* __restrict__ q, long long m, int k, int pk,
                                    double p, double ub, double eps_fac, double* __restrict__ out_d,
                                    long long* __restrict__ out_i) {
    using namespace cuarray_spatial;
    const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= m) return;
    const double* x = q + t * d;
    const double lo[3] = {lo0, lo1, lo2};
    const int res[3] = {res0, res1, res2};
    double bd[K];
    long long bi[K];
    int cnt = 0;
    int c[3];
    query_cell(x, g, lo, h, res, c);
    const int rmax = max(res0, max(res1, res2));
    for (int r = 0; r <= rmax; ++r) {
        const int r1 = g > 1 ? r : 0, r2 = g > 2 ? r : 0;
        for (int o0 = -r; o0 <= r; ++o0) {
            for (int o1 = -r1; o1 <= r1; ++o1) {
                for (int o2 = -r2; o2 <= r2; ++o2) {
                    if (max(abs(o0), max(abs(o1), abs(o2))) != r) continue;  // inside: visited before
                    const int cc[3] = {c[0] + o0, c[1] + o1, c[2] + o2};
                    if (cc[0] < 0 || cc[0] >= res0 || cc[1] < 0 || cc[1] >= res1 || cc[2] < 0 || cc[2] >= res2) continue;
                    const double kth = cnt < k ? ub : fmin(bd[k - 1], ub);
                    if (box_distance(x, cc, g, lo, h, pk, p) > kth * eps_fac) continue;
                    const long long cell = ((long long)cc[0] * res1 + cc[1]) * res2 + cc[2];
                    for (long long s = start[cell]; s < start[cell + 1]; ++s) {
                        const double dist = reduced_distance(x, pts + s * d, d, pk, p);
                        const double lim = cnt < k ? ub : fmin(bd[k - 1], ub);
                        if (!(dist < lim)) continue;
                        int pos = cnt < k ? cnt++ : k - 1;  // insertion into the sorted list
                        while (pos > 0 && bd[pos - 1] > dist) {
                            bd[pos] = bd[pos - 1];
                            bi[pos] = bi[pos - 1];
                            --pos;
                        }
                        bd[pos] = dist;
                        bi[pos] = perm[s];
                    }
                }
            }
        }
        const double b = ring_bound(x, c, r, g, lo, h, res);
        if (isinf(b)) break;
        const double kth = cnt < k ? ub : fmin(bd[k - 1], ub);
        if (to_reduced(b, pk, p) > kth * eps_fac) break;
    }
    for (int j = 0; j < k; ++j) {
        out_d[t * k + j] = j < cnt ? bd[j] : CUARRAY_SPATIAL_INF;
        out_i[t * k + j] = j < cnt ? bi[j] : n;
    }
}

// The cells a ball query must visit: the cube of cells within reach of radius r (not reduced).
#define BALL_CELLS_BEGIN                                                                               \
    const double lo[3] = {lo0, lo1, lo2};                                                              \
    const int res[3] = {res0, res1, res2};                                                             \
    int a[3], b[3];                                                                                    \
    for (int j = 0; j < 3; ++j) {                                                                      \
        if (j < g) {                                                                                   \
            const double fa = floor((x[j] - r - lo[j]) / h), fb = floor((x[j] + r - lo[j]) / h);        \
            a[j] = fa < 0.0 ? 0 : (fa >= res[j] ? res[j] : (int)fa);                                   \
            b[j] = fb < 0.0 ? -1 : (fb >= res[j] - 1 ? res[j] - 1 : (int)fb);                          \
        } else {                                                                                       \
            a[j] = 0;                                                                                  \
            b[j] = 0;                                                                                  \
        }                                                                                              \
    }                                                                                                  \
    for (int i0 = a[0]; i0 <= b[0]; ++i0)                                                              \
        for (int i1 = a[1]; i1 <= b[1]; ++i1)                                                          \
            for (int i2 = a[2]; i2 <= b[2]; ++i2) {                                                    \
                const int cc[3] = {i0, i1, i2};                                                        \
                if (box_distance(x, cc, g, lo, h, pk, p) > rr) continue;                               \
                const long long cell = ((long long)i0 * res1 + i1) * res2 + i2;                        \
                for (long long s = start[cell]; s < start[cell + 1]; ++s) {                            \
                    const double dist = reduced_distance(x, pts + s * d, d, pk, p);                    \
                    if (!(dist <= rr)) continue;

#define BALL_CELLS_END }}

// Per query: how many points lie within r (reduced rr), and the sum of their weights (w may be
// null: no sum). r is per query (radius[t]) when radius_stride is 1, else radius[0].
extern "C" __global__ void cuarray_spatial_ball_count(
    const double* __restrict__ pts, const long long* __restrict__ perm, const long long* __restrict__ start,
    long long n, int d, int g, int res0, int res1, int res2, double lo0, double lo1, double lo2, double h,
    const double* __restrict__ q, long long m, const double* __restrict__ radius, int radius_stride, int pk,
    double p, const double* __restrict__ w, long long* __restrict__ count, double* __restrict__ wsum) {
    using namespace cuarray_spatial;
    const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= m) return;
    const double* x = q + t * d;
    const double r = radius[radius_stride ? t : 0];
    const double rr = to_reduced(r, pk, p);
    long long cnt = 0;
    double acc = 0.0;
    BALL_CELLS_BEGIN
        ++cnt;
        if (w != nullptr) acc += w[perm[s]];
    BALL_CELLS_END
    count[t] = cnt;
    if (wsum != nullptr) wsum[t] = acc;
}

// Per query: the indices (and reduced distances) of the points within r, written from offset[t]
// (an exclusive scan of ball_count's counts), in cell order.
extern "C" __global__ void cuarray_spatial_ball_fill(
    const double* __restrict__ pts, const long long* __restrict__ perm, const long long* __restrict__ start,
    long long n, int d, int g, int res0, int res1, int res2, double lo0, double lo1, double lo2, double h,
    const double* __restrict__ q, long long m, const double* __restrict__ radius, int radius_stride, int pk,
    double p, const long long* __restrict__ offset, long long* __restrict__ out_i, double* __restrict__ out_d) {
    using namespace cuarray_spatial;
    const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= m) return;
    const double* x = q + t * d;
    const double r = radius[radius_stride ? t : 0];
    const double rr = to_reduced(r, pk, p);
    long long at = offset[t];
    BALL_CELLS_BEGIN
        out_i[at] = perm[s];
        if (out_d != nullptr) out_d[at] = dist;
        ++at;
    BALL_CELLS_END
}
