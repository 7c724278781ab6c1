// Wright's generalized Bessel function of cuarray.scipy.special: wright_bessel(a, b, x) =
// Phi(a, b; x) = sum_k x^k / (k! Gamma(a k + b)) for a, b, x >= 0 (SciPy's domain; NaN outside).
// There every term is positive, so the series itself is accurate wherever it is summed to its
// tail: each term from its logarithm, k log x - log k! - lgamma(a k + b), relative to the largest
// term so far (the terms are log-concave in k: Gamma(z)/Gamma(z+a) decreases, so they rise to one
// peak and fall), stopping 40 below the peak. SciPy (after Lorentzen's implementation) sums the
// same series for small x and switches to an asymptotic expansion and an integral representation
// for large x; here the cost is the number of terms up to the peak, about x^(1/(1+a)) (capped at
// 10^5: beyond, e.g. a < 0.1 with x > 10^4, the value overflows anyway or is the partial sum).
// The float loop computes in double, as SciPy's does.
#ifndef CUARRAY_SPECIAL_WRIGHT_CUH
#define CUARRAY_SPECIAL_WRIGHT_CUH
namespace cuarray_special {

CSF_FN double wright_bessel(double a, double b, double x) {
  if (isnan(a) || isnan(b) || isnan(x)) return a + b + x;
  if (a < 0 || b < 0 || x < 0 || isinf(a) || isinf(b)) return lim<double>::nan();
  if (isinf(x)) return x;
  if (x == 0) return rgamma(b);
  if (a == 0) return exp(x) * rgamma(b);
  const double lx = log(x);
  double top = -lim<double>::inf(), s = 0.0;  // the largest log term so far, and the sum over exp(L - top)
  double prev = -lim<double>::inf();
  for (int k = 0; k < 100000; ++k) {
    const double z = a * k + b;
    if (z == 0) continue;  // 1/Gamma(0) = 0: the k = 0 term when b = 0
    // (log k! from lgamma, not a running sum of log k: 500 roundings of that sum cost 3e-12)
    const double l = k * lx - lgamma(k + 1.0) - lgamma(z);
    if (l > top) {
      s = s * exp(top - l) + 1.0;
      top = l;
    } else {
      s += exp(l - top);
    }
    if (top > 720.0) return lim<double>::inf();  // the sum exceeds its largest term: overflow
    if (l < prev && l < top - 40.0) break;
    prev = l;
  }
  return exp(top + log(s));
}

}  // namespace cuarray_special
#endif
