// softmax / log_softmax of one short row held in (shared) memory, in place, for
// cuarray/scipy/special/_softmax.py. Plain C++ (CUARRAY_DEVICE is __device__ on the GPU, empty on the
// host), so tests/scipy/test_softmax_rows_cpu.py runs it with g++ against SciPy.
//
// SciPy's semantics, row by row: softmax shifts by the row's max as it is (a NaN max, or +inf,
// makes the row NaN, as exp(x - max) / sum does in SciPy); log_softmax shifts by the max only
// where it is finite, else by 0.
#ifndef CUARRAY_SPECIAL_SOFTMAX_ROWS_CUH
#define CUARRAY_SPECIAL_SOFTMAX_ROWS_CUH
#ifndef CUARRAY_DEVICE
#define CUARRAY_DEVICE
#endif
#ifndef __CUDACC_RTC__
#include <math.h>
#endif

namespace cuarray_special {

// The float functions for float rows (a bare exp(float) could resolve to the double one).
CUARRAY_DEVICE inline float row_exp(float x) { return expf(x); }
CUARRAY_DEVICE inline double row_exp(double x) { return exp(x); }
CUARRAY_DEVICE inline float row_log(float x) { return logf(x); }
CUARRAY_DEVICE inline double row_log(double x) { return log(x); }

template <typename T, bool LOG>
CUARRAY_DEVICE inline void softmax_row(T* v, int n) {
  T m = v[0];
  for (int k = 1; k < n; ++k) {
    const T a = v[k];
    m = (a > m || a != a) ? a : m;  // NumPy's max: NaN wins
  }
  if (LOG && !(m - m == T(0))) m = T(0);  // not finite (inf - inf and NaN - NaN are NaN)
  T s = T(0);
  for (int k = 0; k < n; ++k) {
    const T t = v[k] - m;
    const T e = row_exp(t);
    s += e;
    v[k] = LOG ? t : e;
  }
  if (LOG) {
    const T l = row_log(s);
    for (int k = 0; k < n; ++k) v[k] = v[k] - l;
  } else {
    for (int k = 0; k < n; ++k) v[k] = v[k] / s;
  }
}

// The same along a strided line (`st` elements apart), from x into y: three reads of x (the max,
// the sum of exponentials, the result), which neighbouring threads' lines share in cache lines.
template <typename T, bool LOG>
CUARRAY_DEVICE inline void softmax_line(const T* x, T* y, int n, long long st) {
  T m = x[0];
  for (int k = 1; k < n; ++k) {
    const T a = x[k * st];
    m = (a > m || a != a) ? a : m;
  }
  if (LOG && !(m - m == T(0))) m = T(0);
  T s = T(0);
  for (int k = 0; k < n; ++k) s += row_exp(x[k * st] - m);
  if (LOG) {
    const T l = row_log(s);
    for (int k = 0; k < n; ++k) y[k * st] = (x[k * st] - m) - l;
  } else {
    for (int k = 0; k < n; ++k) y[k * st] = row_exp(x[k * st] - m) / s;
  }
}

}  // namespace cuarray_special
#endif  // CUARRAY_SPECIAL_SOFTMAX_ROWS_CUH
