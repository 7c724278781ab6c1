// cuarray/indexing.cuh: device helpers for gather/scatter kernels (cuarray/_core/index_kernels.py).
#pragma once

namespace cuarray {

// Record the first out-of-bounds index of a launch in the per-device error buffer
// err = {flag, index value, axis, axis size}; the host reads it at the next synchronisation point.
__device__ __forceinline__ void index_error(unsigned long long* err, long long value, long long axis,
                                            long long size) {
  if (atomicCAS(err, 0ull, 1ull) == 0ull) {
    err[1] = (unsigned long long)value;
    err[2] = (unsigned long long)axis;
    err[3] = (unsigned long long)size;
  }
}

// *p = f(*p) atomically, for any element type of 1, 2, 4 or 8 bytes: a compare-and-swap loop on the
// aligned 32- or 64-bit word that holds the element (ufunc.at for types without a native atomic).
template <typename T, typename F>
__device__ void atomic_apply(T* p, F f) {
  if constexpr (sizeof(T) == 8) {
    unsigned long long* w = reinterpret_cast<unsigned long long*>(p);
    unsigned long long old = *w, assumed;
    do {
      assumed = old;
      T v;
      memcpy(&v, &assumed, 8);
      T nv = f(v);
      unsigned long long n;
      memcpy(&n, &nv, 8);
      old = atomicCAS(w, assumed, n);
    } while (old != assumed);
  } else if constexpr (sizeof(T) == 4) {
    unsigned int* w = reinterpret_cast<unsigned int*>(p);
    unsigned int old = *w, assumed;
    do {
      assumed = old;
      T v;
      memcpy(&v, &assumed, 4);
      T nv = f(v);
      unsigned int n;
      memcpy(&n, &nv, 4);
      old = atomicCAS(w, assumed, n);
    } while (old != assumed);
  } else if constexpr (sizeof(T) == 2) {
    // Native 16-bit CAS (sm_70+) on the element itself.
    unsigned short* w = reinterpret_cast<unsigned short*>(p);
    unsigned short old = *w, assumed;
    do {
      assumed = old;
      T v;
      memcpy(&v, &assumed, 2);
      T nv = f(v);
      unsigned short n;
      memcpy(&n, &nv, 2);
      old = atomicCAS(w, assumed, n);
    } while (old != assumed);
  } else if constexpr (sizeof(T) == 1) {
    // No 8-bit CAS: update the byte inside its aligned 32-bit word.
    const unsigned long long a = reinterpret_cast<unsigned long long>(p);
    unsigned int* w = reinterpret_cast<unsigned int*>(a & ~3ull);
    const unsigned int byte = (unsigned int)(a & 3ull);
    unsigned int old = *w, assumed;
    do {
      assumed = old;
      unsigned int word = assumed;
      T v;
      memcpy(&v, reinterpret_cast<char*>(&word) + byte, sizeof(T));
      T nv = f(v);
      memcpy(reinterpret_cast<char*>(&word) + byte, &nv, sizeof(T));
      old = atomicCAS(w, assumed, word);
    } while (old != assumed);
  } else {
    // 16-byte elements (complex128): the caller launches one thread (see index_kernels.py).
    *p = f(*p);
  }
}

// Block-wide inclusive sum of one value per thread (blockDim.x a multiple of 32, <= 1024).
template <typename T>
__device__ T block_inclusive_sum(T v, T* warp_totals) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for (int o = 1; o < 32; o <<= 1) {
    T u = __shfl_up_sync(0xffffffffu, v, o);
    if (lane >= o) v += u;
  }
  if (lane == 31) warp_totals[warp] = v;
  __syncthreads();
  if (warp == 0) {
    const int nw = blockDim.x >> 5;
    T t = lane < nw ? warp_totals[lane] : T(0);
    for (int o = 1; o < 32; o <<= 1) {
      T u = __shfl_up_sync(0xffffffffu, t, o);
      if (lane >= o) t += u;
    }
    if (lane < nw) warp_totals[lane] = t;
  }
  __syncthreads();
  if (warp > 0) v += warp_totals[warp - 1];
  return v;
}

}  // namespace cuarray
