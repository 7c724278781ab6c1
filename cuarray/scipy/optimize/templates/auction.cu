// The tail of an auction phase (cuarray/scipy/optimize/_auction_chains.py): one block runs the
// remaining bids Gauss-Seidel, one person at a time, each to the end of its displacement chain
// (the person it outbids bids next, until a bid takes a free object). The Jacobi rounds of the
// array operations cost a few dozen launches and a read each, and a phase's last rounds mostly
// hold one bidder: here each bid is one pass over a row of the benefits and a block reduction.
//
// a: n x m benefits, C order; p: the m prices; owner: the m objects' persons (-1 none, n a dummy
// of benefit 0); free: the n rows' flags; persons: the `count` unassigned persons (n: a dummy).
namespace cuarray_optimize {

#define AUCTION_BLOCK 1024

// (v1, j1) the best value and its object (the lower index among equal values), v2 the second best
__device__ __forceinline__ void top2_merge(double& v1, long long& j1, double& v2, double ov1, long long oj1, double ov2) {
    if (ov1 > v1 || (ov1 == v1 && oj1 < j1)) {
        v2 = fmax(v1, ov2);
        v1 = ov1;
        j1 = oj1;
    } else {
        v2 = fmax(v2, ov1);
    }
}

__global__ void __launch_bounds__(AUCTION_BLOCK) auction_chains(const double* __restrict__ a, double* p,
        long long* owner, bool* free_rows, const long long* __restrict__ persons, long long count, long long n,
        long long m, double eps) {
    __shared__ double s_v1[AUCTION_BLOCK / 32], s_v2[AUCTION_BLOCK / 32];
    __shared__ long long s_j1[AUCTION_BLOCK / 32];
    __shared__ long long s_cur;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    for (long long t = 0; t < count; ++t) {
        if (threadIdx.x == 0) s_cur = persons[t];
        __syncthreads();
        long long cur = s_cur;
        while (cur >= 0) {
            const double* row = cur < n ? a + cur * m : nullptr;
            double v1 = -__longlong_as_double(0x7ff0000000000000LL), v2 = v1;
            long long j1 = m;
#pragma unroll 4
            for (long long j = threadIdx.x; j < m; j += AUCTION_BLOCK) {
                double v = (row ? row[j] : 0.0) - p[j];
                if (v > v1) {
                    v2 = v1;
                    v1 = v;
                    j1 = j;
                } else if (v > v2) {
                    v2 = v;
                }
            }
            for (int off = 16; off > 0; off >>= 1) {
                double ov1 = __shfl_down_sync(0xffffffffu, v1, off);
                long long oj1 = __shfl_down_sync(0xffffffffu, j1, off);
                double ov2 = __shfl_down_sync(0xffffffffu, v2, off);
                if (lane + off < 32) top2_merge(v1, j1, v2, ov1, oj1, ov2);
            }
            if (lane == 0) {
                s_v1[warp] = v1;
                s_v2[warp] = v2;
                s_j1[warp] = j1;
            }
            __syncthreads();
            if (threadIdx.x == 0) {
                for (int w = 1; w < AUCTION_BLOCK / 32; ++w) top2_merge(v1, j1, v2, s_v1[w], s_j1[w], s_v2[w]);
                // the price that leaves `cur` indifferent between j1 and its second best, plus eps
                double bid = p[j1] + (v1 - v2) + eps;
                long long prev = owner[j1];
                owner[j1] = cur;
                p[j1] = bid;
                if (cur < n) free_rows[cur] = false;
                if (prev >= 0 && prev < n) free_rows[prev] = true;
                s_cur = prev;  // -1: the object was free, the chain ends; n: a dummy bids next
            }
            __syncthreads();
            cur = s_cur;
            __syncthreads();  // every thread has read s_cur before thread 0 writes it again
        }
    }
}

}  // namespace cuarray_optimize
