// scipy.signal.upfirdn at one output sample, as plain C++ (CUARRAY_DEVICE is __device__ in
// upfirdn.cu, empty in the host test tests/scipy/signal/test_signal_upfirdn_cpu.py, which builds it
// with g++ against scipy.signal): upsample by `up` (zeros between samples), filter with h, keep
// every `down`-th sample; the signal is zero outside its n samples.
#ifndef CUARRAY_SIGNAL_UPFIRDN_CUH
#define CUARRAY_SIGNAL_UPFIRDN_CUH

#ifndef CUARRAY_DEVICE
#define CUARRAY_DEVICE
#endif

namespace cuarray_signal {

// y[i] = sum_k h[k] * u[i * down - k], u[m] = x[m / up] when up divides m and 0 <= m / up < n.
// Only the taps k = (i * down) mod up, + up, ... meet a sample. A is the accumulator type.
template <typename A, typename T>
CUARRAY_DEVICE inline A upfirdn_at(const A* h, long long nh, const T* x, long long n, long long s, long long up,
                                   long long down, long long i) {
  long long m = i * down;
  A acc = A(0);
  for (long long k = m % up; k < nh; k += up) {
    long long j = (m - k) / up;
    if (j < 0) break;  // j only decreases as k grows
    if (j < n) acc += h[k] * (A)x[j * s];
  }
  return acc;
}

}  // namespace cuarray_signal
#endif
