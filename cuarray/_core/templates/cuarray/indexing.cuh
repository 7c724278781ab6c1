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

// Record an error of another kind (flag > 1, registered with device_errors.register_kind) unless
// one is recorded already; `value` is kept as its maximum over the launch's callers of this kind
// (callers pass ~key for the smallest key: err starts zeroed).
__device__ __forceinline__ void device_error(unsigned long long* err, unsigned long long flag,
                                             unsigned long long value, long long axis, long long size) {
  const unsigned long long seen = atomicCAS(err, 0ull, flag);
  if (seen == 0ull || seen == flag) {
    atomicMax(&err[1], value);
    err[2] = (unsigned long long)axis;
    err[3] = (unsigned long long)size;
  }
}

// An integer `power`'s negative exponent (NumPy's ValueError): axis -2 is
// device_errors.NEGATIVE_POWER, which the host raises as ValueError.
__device__ __forceinline__ void negative_power_error(unsigned long long* err, long long value) {
  index_error(err, value, -2, 0);
}

// *p = f(*p) atomically through a compare-and-swap on W, an unsigned integer of T's size.
template <typename W, typename T, typename F>
__device__ void cas_update(T* p, F f) {
  W* w = reinterpret_cast<W*>(p);
  W old = *w, assumed;
  do {
    assumed = old;
    T v;
    memcpy(&v, &assumed, sizeof(T));
    T nv = f(v);
    W n;
    memcpy(&n, &nv, sizeof(T));
    old = atomicCAS(w, assumed, n);
  } while (old != assumed);
}

// *p = f(*p) atomically, for any element type of 1, 2, 4 or 8 bytes (ufunc.at for types without a
// native atomic). 2-byte types use the native 16-bit CAS (sm_70+) on the element itself: editing
// them inside their 32-bit word corrupted float16 results on an H200.
template <typename T, typename F>
__device__ void atomic_apply(T* p, F f) {
  if constexpr (sizeof(T) == 8) {
    cas_update<unsigned long long>(p, f);
  } else if constexpr (sizeof(T) == 4) {
    cas_update<unsigned int>(p, f);
  } else if constexpr (sizeof(T) == 2) {
    cas_update<unsigned short>(p, f);
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

}  // namespace cuarray
