// Spherical harmonics Y_n^m(theta, phi) of cuarray.scipy.special (sph_harm_y, diff_n = 0):
// sqrt((2n+1)/4pi (n-m)!/(n+m)!) P_n^m(cos theta) e^(i m phi) with the Condon-Shortley phase, by
// the recurrences of the fully normalised P (no factorials, no overflow; DLMF 14.10.1 rescaled):
//   Pb_m^m = (-1)^m sqrt((2m+1)!! / (4 pi (2m)!!)) sin^m theta, built one factor at a time,
//   Pb_m+1^m = sqrt(2m+3) cos theta Pb_m^m,
//   Pb_l^m = a_l (cos theta Pb_l-1^m - Pb_l-2^m / a_l-1),  a_l = sqrt((4l^2 - 1) / (l^2 - m^2)),
// and Y_n^-m = (-1)^m conj Y_n^m. For theta outside [0, pi], SciPy's values: cos theta as it comes,
// sin theta as |sin theta|; 0 for |m| > n or n < 0. Float loops compute in double.
#ifndef CUARRAY_SPECIAL_SPH_HARM_CUH
#define CUARRAY_SPECIAL_SPH_HARM_CUH
namespace cuarray_special {

CSF_NOINLINE cdouble sph_harm_y_c(long long n, long long m, double theta, double phi) {
  if (isnan(theta) || isnan(phi)) return cd(lim<double>::nan(), lim<double>::nan());
  const long long am = m < 0 ? -m : m;
  if (n < 0 || am > n) return cd(0.0, 0.0);
  const double x = cos(theta), s = fabs(sin(theta));  // SciPy: sin^m theta as |sin theta|^m
  double p = 0.5 / k_sqrtpi;  // Pb_0^0 = 1 / sqrt(4 pi)
  for (long long k = 1; k <= am; ++k) p *= -sqrt((2.0 * k + 1) / (2.0 * k)) * s;
  if (n > am) {
    double prev = p;  // Pb_m^m
    double cur = sqrt(2.0 * am + 3) * x * p;
    double a_prev = sqrt(2.0 * am + 3);  // a_m+1
    for (long long l = am + 2; l <= n; ++l) {
      const double a = sqrt((4.0 * l * l - 1) / ((double)(l - am) * (double)(l + am)));
      const double next = a * (x * cur - prev / a_prev);
      prev = cur;
      cur = next;
      a_prev = a;
    }
    p = cur;
  }
  // e^(i m phi); Y_n^-m = (-1)^m conj Y_n^m
  const double ang = (double)am * phi;
  cdouble y = cd(p * cos(ang), p * sin(ang));
  if (m < 0) {
    y.im = -y.im;
    if (am & 1) y = -y;
  }
  return y;
}

template <typename C> CSF_FN C sph_harm_y(long long n, long long m, double theta, double phi) {
  return from_cd<C>(sph_harm_y_c(n, m, theta, phi));
}

}  // namespace cuarray_special
#endif
