// cuarray/load_as.cuh: loads an operand whose stored type is a kernel argument (a type code), not
// a compile-time type. One kernel then serves every stored dtype of a ufunc input that is
// converted to the loop's type on load (int16 + float32 -> the 'ff->f' loop: the int16 operand),
// instead of one kernel per input dtype ("compile less on varied data";
// cuarray/_core/elementwise.py, KernelParam's `runtime`). The code is the same for every thread
// of a launch, so the switch never diverges within a warp.
//
// Type codes: the index of the stored dtype in cuarray/_core/dtypes.py's SUPPORTED_DTYPES
// (tests/_core/test_mixed_kernels_cpu.py checks the cases below against it). The conversion is
// cast<T>, the one the kernels with compile-time types apply. float16 (code 9) is not a case: a
// float16 input keeps its specialised kernel, so that no shared kernel needs <cuda_fp16.h>.
#pragma once

namespace cuarray {

// Element `i` of the array at `p` (element type named by `code`) converted to T. The nd layout
// passes the element's address and i = 0.
template <typename T, typename I>
__device__ __forceinline__ T load_as(const void* __restrict__ p, I i, int code) {
  switch (code) {
    case 0: return cast<T>(static_cast<const bool*>(p)[i]);
    case 1: return cast<T>(static_cast<const signed char*>(p)[i]);
    case 2: return cast<T>(static_cast<const short*>(p)[i]);
    case 3: return cast<T>(static_cast<const int*>(p)[i]);
    case 4: return cast<T>(static_cast<const long long*>(p)[i]);
    case 5: return cast<T>(static_cast<const unsigned char*>(p)[i]);
    case 6: return cast<T>(static_cast<const unsigned short*>(p)[i]);
    case 7: return cast<T>(static_cast<const unsigned int*>(p)[i]);
    case 8: return cast<T>(static_cast<const unsigned long long*>(p)[i]);
    case 10: return cast<T>(static_cast<const float*>(p)[i]);
    case 11: return cast<T>(static_cast<const double*>(p)[i]);
    case 12: return cast<T>(static_cast<const complex<float>*>(p)[i]);
    default: return cast<T>(static_cast<const complex<double>*>(p)[i]);
  }
}

}  // namespace cuarray
