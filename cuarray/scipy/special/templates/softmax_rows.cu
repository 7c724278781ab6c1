// Row-tile softmax for cuarray/scipy/special/_softmax.py (softmax_rows.cuh prepended): `rows` rows
// of `n` elements, packed one after the other (x and y alike). A block stages `tr` rows (a
// contiguous run of tr * n elements) in shared memory with coalesced loads, one thread per row
// computes its row there in place, and the block writes the run back with coalesced stores: one
// read and one write of the data, against five passes for max, subtract, exp, sum and divide.
// Rows sit `p` elements apart in shared memory, p = n or n + 1 (odd for even n: a thread per row
// with an even stride would hit the same banks, 16-way for rows of 16).

namespace cuarray_special {

template <typename T, bool LOG>
__global__ void softmax_rows(const T* __restrict__ x, T* __restrict__ y, long long rows, int n, int p, int tr) {
  extern __shared__ __align__(16) unsigned char _smem_raw[];
  T* s = reinterpret_cast<T*>(_smem_raw);
  const long long r0 = (long long)blockIdx.x * tr;
  const long long left = rows - r0;
  const int nr = left < tr ? (int)left : tr;
  const int cnt = nr * n;
  // Element i = threadIdx.x + k * blockDim.x of the run sits at row i / n, column i % n: one
  // division per thread, then steps of (blockDim.x / n rows, blockDim.x % n columns).
  const int step_r = blockDim.x / n, step_c = blockDim.x % n;
  const int c0 = threadIdx.x % n, s0 = (threadIdx.x / n) * p + c0;
  const T* src = x + r0 * n;
  {
    int c = c0, at = s0;
#pragma unroll 4
    for (int i = threadIdx.x; i < cnt; i += blockDim.x) {
      s[at] = src[i];
      at += step_r * p + step_c;
      c += step_c;
      if (c >= n) {
        c -= n;
        at += p - n;
      }
    }
  }
  __syncthreads();
  if ((int)threadIdx.x < nr) softmax_row<T, LOG>(s + threadIdx.x * p, n);
  __syncthreads();
  T* dst = y + r0 * n;
  {
    int c = c0, at = s0;
#pragma unroll 4
    for (int i = threadIdx.x; i < cnt; i += blockDim.x) {
      dst[i] = s[at];
      at += step_r * p + step_c;
      c += step_c;
      if (c >= n) {
        c -= n;
        at += p - n;
      }
    }
  }
}

// Lines along a slow axis: x and y are (outer, n, inner), packed; a thread per (outer, inner)
// pair walks its line, neighbouring threads reading neighbouring addresses.
template <typename T, bool LOG>
__global__ void softmax_cols(const T* __restrict__ x, T* __restrict__ y, long long outer, int n, long long inner) {
  const long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= outer * inner) return;
  const long long o = idx / inner, c = idx - o * inner;
  const long long base = o * n * inner + c;
  softmax_line<T, LOG>(x + base, y + base, n, inner);
}

}  // namespace cuarray_special
