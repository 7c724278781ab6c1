// scipy.signal.lombscargle's per-frequency arithmetic (SciPy 1.15+: weights, floating_mean, the
// three normalisations), as plain C++: CUARRAY_DEVICE is __device__ in lombscargle.cu, empty in
// the host test (tests/scipy/signal/test_signal_lombscargle_cpu.py builds it with g++ against
// scipy.signal). Everything is float64, as SciPy casts. The products are written in SciPy's order
// (w * (c * c), theta = f * x then theta - tau) and the kernels compile with -fmad=false, so each
// term rounds as NumPy's; only the order of the sums differs.
#ifndef CUARRAY_SIGNAL_LOMBSCARGLE_CUH
#define CUARRAY_SIGNAL_LOMBSCARGLE_CUH

#ifndef CUARRAY_DEVICE
#define CUARRAY_DEVICE
#endif

namespace cuarray_signal {

// First pass over the samples: sums of w cos^2, w cos sin, w cos, w sin, w y, (w y) y (Eqs. 7-10, 13-15).
constexpr int LS_SUMS1 = 6;
// Second pass, at the phase offset tau: sums of (w y) cos, (w y) sin, w cos^2, w cos, w sin (Eqs. 8-9, 11-13).
constexpr int LS_SUMS2 = 5;

enum LsNormalize { LS_POWER = 0, LS_NORMALIZE = 1, LS_AMPLITUDE = 2 };

CUARRAY_DEVICE inline void ls_add1(double f, double x, double w, double y, double* acc) {
  double s, c;
  sincos(f * x, &s, &c);
  double wy = w * y;
  acc[0] += w * (c * c);
  acc[1] += w * (c * s);
  acc[2] += w * c;
  acc[3] += w * s;
  acc[4] += wy;
  acc[5] += wy * y;
}

// tau = atan2(2 CS, CC - SS) / 2 from the first pass's sums (Eq. 19).
CUARRAY_DEVICE inline double ls_tau(const double* s1, bool floating_mean) {
  double cc = s1[0], ss = 1.0 - s1[0], cs = s1[1];
  if (floating_mean) {
    double c = s1[2], s = s1[3];
    cc -= c * c;
    ss -= s * s;
    cs -= c * s;
  }
  return 0.5 * atan2(2.0 * cs, cc - ss);
}

CUARRAY_DEVICE inline void ls_add2(double f, double x, double w, double y, double tau, double* acc) {
  double s, c;
  sincos(f * x - tau, &s, &c);
  double wy = w * y;
  acc[0] += wy * c;
  acc[1] += wy * s;
  acc[2] += w * (c * c);
  acc[3] += w * c;
  acc[4] += w * s;
}

// The periodogram value at one frequency from both passes' sums: out[0] (and out[1], the imaginary
// part, for LS_AMPLITUDE).
CUARRAY_DEVICE inline void ls_finish(const double* s1, const double* s2, double tau, long long n, int normalize,
                                     bool floating_mean, double* out) {
  const double Y = s1[4];
  double yc = s2[0], ys = s2[1], cc = s2[2], ss = 1.0 - s2[2];
  if (floating_mean) {
    double c = s2[3], s = s2[4];
    yc -= Y * c;
    ys -= Y * s;
    cc -= c * c;
    ss -= s * s;
  }
  // numpy.finfo(float64).epsneg: keeps a and b finite where CC or SS rounds to (about) zero
  const double epsneg = 1.1102230246251565e-16;
  if (cc < epsneg) cc = epsneg;
  if (ss < epsneg) ss = epsneg;
  double a = yc / cc, b = ys / ss;
  if (normalize == LS_AMPLITUDE) {
    double st, ct;
    sincos(tau, &st, &ct);
    out[0] = a * ct - b * st;
    out[1] = a * st + b * ct;
    return;
  }
  double p = 2.0 * (a * yc + b * ys);
  if (normalize == LS_POWER) {
    p *= (double)n / 4.0;
  } else {
    double yy = s1[5];
    if (floating_mean) yy -= Y * Y;
    p *= 0.5 / yy;
  }
  out[0] = p;
}

}  // namespace cuarray_signal

#endif  // CUARRAY_SIGNAL_LOMBSCARGLE_CUH
