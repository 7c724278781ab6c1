// The gamma family of cuarray.scipy.special: gamma, gammaln, loggamma (real), gammasgn, rgamma,
// psi (digamma). gamma is CUDA's tgamma; the others are written here on top of CUDA's
// tgamma/lgamma, following SciPy's conventions at poles and infinities.
#ifndef CUARRAY_SPECIAL_GAMMA_CUH
#define CUARRAY_SPECIAL_GAMMA_CUH
namespace cuarray_special {

CSF_FN float gamma(float x) { return ::tgammaf(x); }
CSF_FN double gamma(double x) { return ::tgamma(x); }

// log Gamma(1 + z) for |z| < 1/4 by its Taylor series (coefficients from
// scripts/special/lgamma1p_series.py): relative accuracy at the roots of log Gamma (1 and 2).
CSF_FN double lgamma1p_series(double z) {
  const double c[] = {
      -0.5772156649015329,
      0.8224670334241132,
      -0.40068563438653143,
      0.27058080842778454,
      -0.207385551028674,
      0.16955717699740822,
      -0.14404989676884614,
      0.12550966952474304,
      -0.11133426586956469,
      0.10009945751278179,
      -0.09095401714582904,
      0.083353840546109,
      -0.0769325164113522,
      0.07143294629536134,
      -0.06666870588242046,
      0.06250095514121304,
      -0.05882397865868458,
      0.055555767627403614,
      -0.05263167937961666,
      0.05000004769810169,
      -0.04761907033014223,
      0.04545455629320467,
      -0.04347826605304026,
      0.04166666915034121,
      -0.04000000119214014,
      0.03846153903467519,
      -0.037037037312989324,
      0.03571428584733336,
      -0.034482758684919304,
      0.03333333336437758
  };
  double s = 0.0;
  for (int k = int(sizeof(c) / sizeof(c[0])) - 1; k >= 0; --k) s = (s + c[k]) * z;
  return s;
}

// log|Gamma(x)|, with SciPy's -inf at -inf (C's lgamma gives +inf).
// On the device, CUDA's lgamma/lgammaf themselves: the CUDA C++ Programming Guide bounds them by
// 4 ulp (double) and 6 ulp (float) outside the negative intervals (-11.0001, -2.2637) and
// (-10.001, -2.264), so relative accuracy holds at the roots 1 and 2 too; CuPy calls the same
// functions. (The series branch below cost 1.38x CuPy's time at float64 on (0, 1): a quarter of
// the lanes fall in (0.75, 1.25), so every warp ran both the series and lgamma.) Float loops use
// lgammaf where it is bounded (x >= 0: 2.5x faster than lgamma in double); for x < 0, where its
// error near lgamma's negative roots is not, they compute in double as SciPy does.
// On the host (the g++ build), glibc's lgamma has an absolute error near 1 and 2 (3e-9 relative
// at 1 - 1e-7), so the Taylor series of log Gamma(1 + z) is used there.
#ifdef CSF_DEVICE
CSF_FN double gammaln(double x) {
  if (isinf(x) && x < 0) return x;
  return ::lgamma(x);
}
CSF_FN float gammaln(float x) {
  if (x < 0.0f) return isinf(x) ? x : float(::lgamma(double(x)));
  return ::lgammaf(x);
}
#else
CSF_FN double gammaln(double x) {
  if (isinf(x) && x < 0) return x;
  if (x > 0.75 && x < 1.25) return lgamma1p_series(x - 1.0);
  if (x > 1.75 && x < 2.25) return log1p(x - 2.0) + lgamma1p_series(x - 2.0);
  return lgamma(x);
}
CSF_FN float gammaln(float x) { return float(gammaln(double(x))); }
#endif

// The real loop of scipy.special.loggamma: NaN for x < 0.
CSF_FN double loggamma(double x) {
  if (x < 0) return lim<double>::nan();
  return gammaln(x);
}

// The sign of Gamma(x): +-1 by the sign of zero at 0, NaN at the poles and -inf; between the
// poles the sign alternates: negative on (-1, 0), (-3, -2), ... (floor(x) odd).
CSF_FN double gammasgn(double x) {
  if (isnan(x)) return x;
  if (x > 0) return 1.0;
  if (x == 0) return signbit(x) ? -1.0 : 1.0;
  const double f = floor(x);
  if (f == x) return lim<double>::nan();  // poles, and -inf
  return fmod(f, 2.0) != 0.0 ? -1.0 : 1.0;
}

// 1 / Gamma(x): 0 at the poles and at +-inf. Below -20 by the reflection formula
// 1/Gamma(x) = Gamma(1 - x) sin(pi x) / pi, since Gamma(x) itself underflows into the subnormals
// there (x < -171) and 1/Gamma would be off or infinite; below -170, where Gamma(1 - x)
// overflows, as exp(lgamma(1 - x) + log|sin(pi x) / pi|) (relative error ~ 1e-16 |lgamma| < 1e-13).
CSF_FN double rgamma(double x) {
  if (isnan(x)) return x;
  if (isinf(x)) return 0.0;
  if (x <= 0 && floor(x) == x) return x == 0 ? 1.0 / ::tgamma(x) : 0.0;
  if (x < -170.0) {
    const double s = sinpi(x);
    return copysign(exp(lgamma(1.0 - x) + log(fabs(s) * (1.0 / k_pi))), s);
  }
  if (x < -20.0) return ::tgamma(1.0 - x) * sinpi(x) * (1.0 / k_pi);
  return 1.0 / ::tgamma(x);
}

// psi(x) = Gamma'(x) / Gamma(x) (SciPy's psi/digamma):
// - poles (0 and the negative integers): -inf at +0, +inf at -0, NaN at the others;
// - x < 0 by the reflection psi(x) = psi(1 - x) - pi cot(pi x);
// - near the positive root x0 = 1.4616..., the Taylor series about x0 (its coefficients
//   psi^(k)(x0) / k!, computed with SciPy's polygamma by scripts/special/psi_root_series.py),
//   so the result keeps its relative accuracy where psi crosses zero;
// - otherwise the recurrence psi(x) = psi(x + 1) - 1/x up to x >= 10, then the asymptotic series
//   ln x - 1/(2x) - sum B_2k / (2k x^2k) (Abramowitz & Stegun 6.3.18), seven terms.
CSF_FN double psi(double x) {
  if (isnan(x)) return x;
  if (x == 0) return signbit(x) ? lim<double>::inf() : -lim<double>::inf();
  if (isinf(x)) return x > 0 ? x : lim<double>::nan();
  double r = 0.0;
  if (x < 0) {
    if (floor(x) == x) return lim<double>::nan();
    r = -k_pi * cospi(x) / sinpi(x);
    x = 1.0 - x;
  }
  // x0 = X0_HI + X0_LO to double-double precision.
  const double X0_HI = 1.4616321449683622, X0_LO = 9.549995429965697e-17;
  if (x > 1.2 && x < 1.75) {
    const double c[] = {
        0.9676722454476214,
        -0.44276316898359214,
        0.2584997609556512,
        -0.16394270544240658,
        0.10782405069126239,
        -0.07219956125645476,
        0.048804288164143145,
        -0.033161126474847376,
        0.022597648232218125,
        -0.015424765904948968,
        0.010538791616612182,
        -0.007204534386356875,
        0.004926781395729858,
        -0.0033698016554393312,
        0.00230512632673493,
        -0.0015769367714301987,
        0.0010788252019162975,
        -0.000738070938996006,
        0.0005049532658346026,
        -0.0003454680251063082,
        0.00023635601564027086,
        -0.00016170622091974825,
        0.0001106337276874743,
        -7.569179582195077e-05,
        5.17857579522209e-05,
        -3.543007094765967e-05
    };
    const double d = (x - X0_HI) - X0_LO;
    double s = 0.0;
    for (int k = int(sizeof(c) / sizeof(c[0])) - 1; k >= 0; --k) s = (s + c[k]) * d;
    return r + s;
  }
  while (x < 10.0) { r -= 1.0 / x; x += 1.0; }
  const double z = 1.0 / (x * x);
  const double tail = z * (1.0 / 12 - z * (1.0 / 120 - z * (1.0 / 252 - z * (1.0 / 240 - z * (1.0 / 132
      - z * (691.0 / 32760 - z * (1.0 / 12)))))));
  return r + log(x) - 0.5 / x - tail;
}

}  // namespace cuarray_special
#endif
