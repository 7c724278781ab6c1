// Exact Euclidean distance transform (Felzenszwalb & Huttenlocher's lower envelope of parabolas),
// one line per call, as plain C++: CUARRAY_DEVICE is __device__ in edt.cu and empty in the host
// test (tests/scipy/ndimage/test_ndimage_edt_cpu.py builds it with g++ against scipy.ndimage).
// One pass per axis turns squared distances along the earlier axes into squared distances over
// all of them: d(x) = min_q (w2 (x - q)^2 + f(q)), w2 the squared sampling of this axis.
#ifndef CUARRAY_NDIMAGE_EDT_CUH
#define CUARRAY_NDIMAGE_EDT_CUH

#ifndef CUARRAY_DEVICE
#define CUARRAY_DEVICE
#endif

namespace cuarray_ndimage {

#define CUARRAY_EDT_INF 1e300

// f: n values `s` apart (CUARRAY_EDT_INF where no feature is known), rewritten in place. arg: for
// each x the q that minimises (-1 when the whole line is INF). v, z, d: scratch of n, n + 1, n.
CUARRAY_DEVICE inline void edt_line(double* f, long long s, long long n, double w2, long long* v, double* z,
                                    double* d, long long* arg) {
  long long k = -1;
  for (long long q = 0; q < n; ++q) {
    double fq = f[q * s];
    if (fq >= CUARRAY_EDT_INF) continue;
    if (k < 0) {
      k = 0;
      v[0] = q;
      z[0] = -CUARRAY_EDT_INF;
      z[1] = CUARRAY_EDT_INF;
      continue;
    }
    for (;;) {
      long long p = v[k];
      double sp = ((fq + w2 * (double)q * q) - (f[p * s] + w2 * (double)p * p)) / (2.0 * w2 * (double)(q - p));
      if (sp <= z[k] && k > 0) {
        --k;
        continue;
      }
      if (sp <= z[k]) {  // k == 0 and the new parabola is lower everywhere: it replaces v[0]
        v[0] = q;
        z[1] = CUARRAY_EDT_INF;
        break;
      }
      ++k;
      v[k] = q;
      z[k] = sp;
      z[k + 1] = CUARRAY_EDT_INF;
      break;
    }
  }
  if (k < 0) {
    for (long long x = 0; x < n; ++x) arg[x] = -1;
    return;
  }
  long long j = 0;
  for (long long x = 0; x < n; ++x) {
    while (z[j + 1] < (double)x) ++j;
    double dx = (double)(x - v[j]);
    d[x] = w2 * dx * dx + f[v[j] * s];
    arg[x] = v[j];
  }
  for (long long x = 0; x < n; ++x) f[x * s] = d[x];
}

}  // namespace cuarray_ndimage
#endif
