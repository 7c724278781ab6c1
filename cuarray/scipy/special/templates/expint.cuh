// Exponential integrals of cuarray.scipy.special: exp1 (E1) and expi (Ei), real arguments.
// E1: its power series for x <= 1 (A&S 5.1.11), the continued fraction
// E1(x) = e^-x / (x + 1 - 1/(x + 3 - 4/(x + 5 - ...))) (A&S 5.1.22, evaluated by the modified
// Lentz method) above. Ei: its power series (A&S 5.1.10, all terms positive) up to 40, the
// asymptotic series e^x / x sum k! / x^k beyond; Ei(-x) = -E1(x).
#ifndef CUARRAY_SPECIAL_EXPINT_CUH
#define CUARRAY_SPECIAL_EXPINT_CUH
namespace cuarray_special {

CSF_FN double exp1(double x) {
  if (isnan(x)) return x;
  if (x < 0) return lim<double>::nan();
  if (x == 0) return lim<double>::inf();
  if (x <= 1.0) {
    // -gamma - ln x + sum_{k>=1} (-1)^(k+1) x^k / (k k!)
    double term = 1.0, sum = 0.0;
    for (int k = 1; k < 40; ++k) {
      term *= -x / k;
      const double t = term / k;
      sum -= t;
      if (fabs(t) < 1e-17 * fabs(sum)) break;
    }
    return -k_euler - log(x) + sum;
  }
  if (x > 745.2) return 0.0;  // e^-x underflows
  const double tiny = 1e-300;
  double b = x + 1.0, c = 1.0 / tiny, d = 1.0 / b, h = d;
  for (int i = 1; i < 1000; ++i) {
    const double an = -double(i) * i;
    b += 2.0;
    d = an * d + b;
    if (fabs(d) < tiny) d = tiny;
    c = b + an / c;
    if (fabs(c) < tiny) c = tiny;
    d = 1.0 / d;
    const double del = c * d;
    h *= del;
    if (fabs(del - 1.0) < 1e-16) break;
  }
  return h * exp(-x);
}

CSF_FN double expi(double x) {
  if (isnan(x)) return x;
  if (x < 0) return -exp1(-x);
  if (x == 0) return -lim<double>::inf();
  if (x <= 40.0) {
    // gamma + ln x + sum_{k>=1} x^k / (k k!)
    double term = 1.0, sum = 0.0;
    for (int k = 1; k < 200; ++k) {
      term *= x / k;
      const double t = term / k;
      sum += t;
      if (t < 1e-17 * sum) break;
    }
    return k_euler + log(x) + sum;
  }
  if (x > 709.8) {
    // e^x overflows before Ei does: e^(x - 1) * e / x * series stays finite a little longer.
    if (x > 716.0) return lim<double>::inf();
  }
  double term = 1.0, sum = 1.0;
  for (int k = 1; k < 60; ++k) {
    const double next = term * k / x;
    if (next > term) break;  // the asymptotic series' terms start growing
    term = next;
    sum += term;
    if (term < 1e-17 * sum) break;
  }
  return exp(x - 1.0) * (2.718281828459045 / x) * sum;
}

}  // namespace cuarray_special
#endif
