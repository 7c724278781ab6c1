// scipy.signal's per-peak searches (its _peak_finding_utils), as plain C++: CUARRAY_DEVICE is
// __device__ in peaks.cu, empty in the host test (tests/scipy/signal/test_signal_peaks_cpu.py
// builds this file with g++ against scipy.signal). x is float64.
#ifndef CUARRAY_SIGNAL_PEAKS_CUH
#define CUARRAY_SIGNAL_PEAKS_CUH

#ifndef CUARRAY_DEVICE
#define CUARRAY_DEVICE
#endif

namespace cuarray_signal {

// Prominence of the peak at index `peak`: walk each way while the signal stays <= the peak (within
// wlen // 2 when wlen >= 2), keeping the lowest point; the higher of the two minima is the base.
CUARRAY_DEVICE inline void peak_prominence(const double* x, long long n, long long peak, long long wlen,
                                           double* prominence, long long* left_base, long long* right_base) {
  long long i_min = 0, i_max = n - 1;
  if (wlen >= 2) {
    i_min = peak - wlen / 2 > i_min ? peak - wlen / 2 : i_min;
    i_max = peak + wlen / 2 < i_max ? peak + wlen / 2 : i_max;
  }
  long long i = peak, lb = peak;
  double left_min = x[peak];
  while (i_min <= i && x[i] <= x[peak]) {
    if (x[i] < left_min) { left_min = x[i]; lb = i; }
    --i;
  }
  i = peak;
  long long rb = peak;
  double right_min = x[peak];
  while (i <= i_max && x[i] <= x[peak]) {
    if (x[i] < right_min) { right_min = x[i]; rb = i; }
    ++i;
  }
  *left_base = lb;
  *right_base = rb;
  *prominence = x[peak] - (left_min > right_min ? left_min : right_min);
}

// Width at height x[peak] - prominence * rel_height between the bases, with linear interpolation
// of the crossing points (none across a flat step, which only user-given prominence data can reach).
// SciPy's expressions in SciPy's order; the kernels are compiled with -fmad=false, so each product
// is rounded as SciPy rounds it.
CUARRAY_DEVICE inline void peak_width(const double* x, long long peak, double prominence, long long i_min,
                                      long long i_max, double rel_height, double* width, double* height,
                                      double* left_ip, double* right_ip) {
  double h = x[peak] - prominence * rel_height;
  long long i = peak;
  while (i_min < i && h < x[i]) --i;
  double l = (double)i;
  if (x[i] < h && x[i + 1] != x[i]) l += (h - x[i]) / (x[i + 1] - x[i]);
  i = peak;
  while (i < i_max && h < x[i]) ++i;
  double r = (double)i;
  if (x[i] < h && x[i - 1] != x[i]) r -= (h - x[i]) / (x[i - 1] - x[i]);
  *width = r - l;
  *height = h;
  *left_ip = l;
  *right_ip = r;
}

// Keep peaks by priority (order: peak numbers by ascending priority), dropping those closer than
// `distance` to a kept one of higher priority: sequential, as SciPy's.
CUARRAY_DEVICE inline void select_by_distance(const long long* peaks, const long long* order, long long m,
                                              long long distance, unsigned char* keep) {
  for (long long i = 0; i < m; ++i) keep[i] = 1;
  for (long long i = m - 1; i >= 0; --i) {
    long long j = order[i];
    if (!keep[j]) continue;
    for (long long k = j - 1; k >= 0 && peaks[j] - peaks[k] < distance; --k) keep[k] = 0;
    for (long long k = j + 1; k < m && peaks[k] - peaks[j] < distance; ++k) keep[k] = 0;
  }
}

}  // namespace cuarray_signal
#endif
