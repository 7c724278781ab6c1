"""CUDA's names for the signal kernels built with g++ by the CPU tests (each CUDA thread a host
thread): the headers the stand-ins use, the index variables, the qualifiers as nothing and
float2/double2. Each driver adds its own barriers and shuffles after it."""

PREAMBLE = r"""
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>
struct Dim3 { unsigned x, y, z; };
static thread_local Dim3 threadIdx, blockIdx;
static Dim3 gridDim;
#define __global__
#define __device__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __shared__ static
struct float2 { float x, y; };
struct double2 { double x, y; };
"""
