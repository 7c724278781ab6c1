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

// SciPy's _local_maxima_1d at sample i: a peak whose plateau starts at i (x[i - 1] < x[i]; the
// plateau runs while equal, up to n - 1 at most) and falls after it. Returns 1 with the plateau's
// right edge in *right, 0 when i starts no peak, and -1 when the plateau is still flat `limit`
// samples on (the caller then takes a path with no limit: one thread walking a long plateau would
// serialise the kernel). Every peak is found from its own left edge, so the samples can be tested
// in any order: SciPy's sequential skip past a peak only skips samples that start no peak.
CUARRAY_DEVICE inline int peak_at(const double* x, long long n, long long i, long long limit, long long* right) {
  if (i < 1 || i >= n - 1) return 0;
  double v = x[i];
  if (!(x[i - 1] < v)) return 0;
  long long j = i + 1, stop = n - 1 < i + limit ? n - 1 : i + limit;
  while (j < stop && x[j] == v) ++j;
  if (j < n - 1 && x[j] == v) return -1;  // stopped by the limit, still flat
  if (!(x[j] < v)) return 0;
  *right = j - 1;
  return 1;
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
