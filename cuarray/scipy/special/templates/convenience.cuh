// The "convenience functions" of cuarray.scipy.special (logistic, information-theory, loss,
// degree-trigonometry and Box-Cox functions). Each is written for the loop's own type T, with
// SciPy's values at the edges (0, +-inf, NaN, out-of-domain arguments).
#ifndef CUARRAY_SPECIAL_CONVENIENCE_CUH
#define CUARRAY_SPECIAL_CONVENIENCE_CUH
namespace cuarray_special {

// The logistic sigmoid, split by sign so exp never overflows.
template <typename T>
CSF_FN T expit(T x) {
  if (x >= T(0)) return T(1) / (T(1) + exp(-x));
  const T e = exp(x);
  return e / (T(1) + e);
}

// log(p / (1 - p)); near p = 1/2 as 2 atanh(2p - 1), where the quotient form loses digits.
template <typename T>
CSF_FN T logit(T p) {
  if (p < T(0) || p > T(1)) return lim<T>::nan();
  const T s = T(2) * p - T(1);
  if (fabs(s) < T(0.4)) return T(2) * atanh(s);
  return log(p / (T(1) - p));
}

// log(expit(x)) without underflow or cancellation.
template <typename T>
CSF_FN T log_expit(T x) {
  if (x < T(0)) return x - log1p(exp(x));
  return -log1p(exp(-x));
}

// x log(y), and x log1p(y): 0 when x == 0 unless y is NaN.
template <typename T>
CSF_FN T xlogy(T x, T y) {
  if (x == T(0) && !isnan(y)) return T(0);
  return x * log(y);
}
template <typename T>
CSF_FN T xlog1py(T x, T y) {
  if (x == T(0) && !isnan(y)) return T(0);
  return x * log1p(y);
}

template <typename T>
CSF_FN T entr(T x) {
  if (isnan(x)) return x;
  if (x > T(0)) return -x * log(x);
  if (x == T(0)) return T(0);
  return -lim<T>::inf();
}

// log(x / y) for x, y > 0: log1p((x - y) / y) when x / y is near 1 (x - y is then exact), and
// log x - log y when x / y overflows or falls into the subnormals (where it has lost bits).
CSF_FN double log_ratio(double x, double y) {
  const double q = x / y;
  if (q > 0.5 && q < 2.0) return log1p((x - y) / y);
  if (isinf(q) || q < 2.2250738585072014e-308) return log(x) - log(y);
  return log(q);
}

CSF_FN double rel_entr(double x, double y) {
  if (isnan(x) || isnan(y)) return lim<double>::nan();
  if (x > 0 && y > 0) return x * log_ratio(x, y);
  if (x == 0 && y >= 0) return 0.0;
  return lim<double>::inf();
}

CSF_FN double kl_div(double x, double y) {
  if (isnan(x) || isnan(y)) return lim<double>::nan();
  if (x > 0 && y > 0) return x * log_ratio(x, y) - x + y;
  if (x == 0 && y >= 0) return y;
  return lim<double>::inf();
}

template <typename T>
CSF_FN T huber(T delta, T r) {
  if (delta < T(0)) return lim<T>::inf();
  if (isnan(delta) || isnan(r)) return lim<T>::nan();
  const T a = fabs(r);
  if (a <= delta) return T(0.5) * r * r;
  return delta * (a - T(0.5) * delta);
}

// delta^2 (sqrt(1 + (r/delta)^2) - 1), written as delta^2 u / (sqrt(1 + u) + 1) (no cancellation
// for small r), and as delta (|r| - delta) once (r/delta)^2 overflows, where SciPy returns NaN
// (a documented difference). The order of the tests is SciPy's (pseudo_huber(nan, 0) is 0).
template <typename T>
CSF_FN T pseudo_huber(T delta, T r) {
  if (delta < T(0)) return lim<T>::inf();
  if (delta == T(0) || r == T(0)) return T(0);
  if (isnan(delta) || isnan(r)) return lim<T>::nan();
  const T t = fabs(r / delta);
  const T u = t * t;
  if (isinf(u)) return delta * (fabs(r) - delta);
  return delta * delta * (u / (sqrt(T(1) + u) + T(1)));
}

// cos(x) - 1: as -2 sin^2(x / 2) for |x| <= pi/4 (no cancellation near 0), and as SciPy does
// beyond (cos(x) - 1, whose absolute error is a few ulp of 1).
template <typename T>
CSF_FN T cosm1(T x) {
  if (!(fabs(x) <= T(k_pi / 4))) return cos(x) - T(1);
  const T s = sin(x * T(0.5));
  return T(-2) * s * s;
}

template <typename T>
CSF_FN T radian(T d, T m, T s) {
  return (d + m / T(60) + s / T(3600)) * T(k_pi / 180.0);
}

// Degree-argument trigonometry with exact reduction: multiples of 90 degrees give exact 0, +-1
// (and inf for tan(90), cot(0), as SciPy returns); |x| > 1e14 gives 0, as Cephes' sindg/tandg
// (S. L. Moshier) do, the argument having no fractional degrees left.
CSF_FN double sindg(double x) {
  if (isnan(x)) return x;
  if (fabs(x) > 1.0e14) return 0.0;
  double s = 1.0;
  if (x < 0) { x = -x; s = -1.0; }
  x = fmod(x, 360.0);
  if (x >= 180.0) { x -= 180.0; s = -s; }
  if (x > 90.0) x = 180.0 - x;
  return s * sin(x * (k_pi / 180.0));
}
CSF_FN double cosdg(double x) {
  if (isnan(x)) return x;
  if (fabs(x) > 1.0e14) return 0.0;
  x = fmod(fabs(x), 360.0);
  if (x > 180.0) x = 360.0 - x;
  double s = 1.0;
  if (x > 90.0) { x = 180.0 - x; s = -1.0; }
  return s * sin((90.0 - x) * (k_pi / 180.0));
}
// tan and cot of x degrees, by Cephes' case analysis (tandg.c): odd, period 180.
CSF_FN double tancot_dg(double x, bool cot) {
  if (isnan(x)) return x;
  if (fabs(x) > 1.0e14) return 0.0;
  double s = 1.0;
  if (x < 0) { x = -x; s = -1.0; }
  x = fmod(x, 180.0);
  if (x > 90.0) { x = 180.0 - x; s = -s; }
  if (cot) x = 90.0 - x;  // cot(x) = tan(90 - x) on [0, 90]
  if (x == 0.0) return 0.0;
  if (x == 45.0) return s;
  if (x == 90.0) return lim<double>::inf();
  return s * tan(x * (k_pi / 180.0));
}
CSF_FN double tandg(double x) { return tancot_dg(x, false); }
CSF_FN double cotdg(double x) { return tancot_dg(x, true); }

// Box-Cox: SciPy takes lambda == 0's branch below |lambda| < 1e-19.
template <typename T>
CSF_FN T boxcox(T x, T lmbda) {
  if (fabs(lmbda) < T(1e-19)) return log(x);
  return expm1(lmbda * log(x)) / lmbda;
}
template <typename T>
CSF_FN T boxcox1p(T x, T lmbda) {
  const T lx = log1p(x);
  if (fabs(lmbda) < T(1e-19) || (fabs(lx) < T(1e-289) && fabs(lmbda) < T(1e273))) return lx;
  return expm1(lmbda * lx) / lmbda;
}
// log1p(lmbda y), also where the product overflows (log|lmbda| + log|y|).
CSF_FN double log1p_product(double lmbda, double y) {
  const double p = lmbda * y;
  if (isinf(p) && isfinite(lmbda) && isfinite(y) && p > 0) return log(fabs(lmbda)) + log(fabs(y));
  return log1p(p);
}
CSF_FN double inv_boxcox(double y, double lmbda) {
  if (lmbda == 0) return exp(y);
  return exp(log1p_product(lmbda, y) / lmbda);
}
CSF_FN double inv_boxcox1p(double y, double lmbda) {
  if (lmbda == 0) return expm1(y);
  const double ly = lmbda * y;
  if (fabs(ly) < 1e-154) return y;
  return expm1(log1p_product(lmbda, y) / lmbda);
}

// (e^x - 1) / x, 1 at 0; inf beyond the overflow of expm1.
template <typename T>
CSF_FN T exprel(T x) {
  if (fabs(x) < lim<T>::eps() * T(0.5)) return T(1);
  if (x > T(717)) return lim<T>::inf();
  return expm1(x) / x;
}

// Rounding half to even (scipy.special.round), and 10^x.
template <typename T>
CSF_FN T round_even(T x) { return rint(x); }
CSF_FN float exp10(float x) { return ::exp10f(x); }
CSF_FN double exp10(double x) { return ::exp10(x); }

}  // namespace cuarray_special
#endif
