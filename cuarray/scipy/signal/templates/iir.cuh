// scipy.signal.lfilter's recursion (direct form II transposed, SciPy's _linear_filter) on one line,
// as plain C++: CUARRAY_DEVICE is __device__ in iir.cu and empty in the host test
// (tests/scipy/signal/test_signal_lfilter_cpu.py builds this file with g++ against scipy.signal).
#ifndef CUARRAY_SIGNAL_IIR_CUH
#define CUARRAY_SIGNAL_IIR_CUH

#ifndef CUARRAY_DEVICE
#define CUARRAY_DEVICE
#endif

namespace cuarray_signal {

// ba: b[0..K] then a[0..K], both already divided by a[0]. The line is x[0], x[s], ... (n values);
// zi/zf: the K delay values, z[k * s] (null: zero initial state / not wanted). KMAX >= K.
template <int KMAX, typename T, typename O>
CUARRAY_DEVICE inline void lfilter_line(const double* ba, int K, const T* x, O* y, long long n, long long s,
                                        const double* zi, double* zf) {
  const double* b = ba;
  const double* a = ba + K + 1;
  double z[KMAX + 1];
  for (int k = 0; k < K; ++k) z[k] = zi ? zi[k * s] : 0.0;
  for (long long i = 0; i < n; ++i) {
    double xn = (double)x[i * s];
    double yn = (K > 0 ? z[0] : 0.0) + b[0] * xn;
    for (int k = 0; k + 1 < K; ++k) z[k] = z[k + 1] + b[k + 1] * xn - a[k + 1] * yn;
    if (K > 0) z[K - 1] = b[K] * xn - a[K] * yn;
    y[i * s] = (O)yn;
  }
  if (zf)
    for (int k = 0; k < K; ++k) zf[k * s] = z[k];
}

}  // namespace cuarray_signal
#endif
