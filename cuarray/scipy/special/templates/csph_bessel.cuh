// The complex loops ('lD->D', 'lF->F') of SciPy's spherical Bessel functions and their
// derivatives (the private ufuncs behind spherical_jn/yn/in/kn): xsf's sph_bessel.h (Tadeusz
// Pudlik; SciPy developers' C++ translation, BSD-3-Clause) at the commit SciPy 1.18 ships
// (f7b85f5, May 2026): f_n(z) = sqrt(pi/(2z)) F_n+1/2(z) over the complex Bessel functions of
// templates/cbessel.cuh (AMOS), with xsf's edges (0, infinities, NaN, n < 0) and its reflection
// on the negative real axis: j_n(-x + 0i) = (-1)^n j_n(x), y_n = (-1)^(n+1) y_n(x), i_n = (-1)^n
// i_n(x), where the two principal branches of the product would each contribute a factor i (SciPy
// 1.17 lacked it; the values differ there in rounding only, the imaginary part SciPy 1.17 left in
// being ~1e-16 of the value). k_n on the negative real axis is the real loop's value
// (spherical_kn, the continuation -(-1)^n k_n(x) - pi i_n(x)), as the current xsf: SciPy 1.18's
// product gives the same value when both factors take the cut's upper side, which rests on the
// sign of a zero. The derivatives: DLMF 10.51.2 (f_n' = f_n-1 - (n+1)/z f_n; k_n' = -k_n-1 -
// (n+1)/z k_n), j_0' = -j_1, y_0' = -y_1, i_0' = i_1, k_0' = -k_1, and j_1'(0) = i_1'(0) = 1/3.
// No function calls itself (the reflection calls the unreflected part): see common.cuh.
// Computed in complex128; complex64 rounds once (SciPy's complex64 loop multiplies in complex64).
#ifndef CUARRAY_SPECIAL_CSPH_BESSEL_CUH
#define CUARRAY_SPECIAL_CSPH_BESSEL_CUH
namespace cuarray_special {
namespace csph {
using amos::zcx;
using amos::to_z;

CSF_FN zcx nan1() { return zcx(lim<double>::nan(), 0.0); }  // xsf's quiet_NaN() as a complex
CSF_FN bool has_nan(zcx z) { return isnan(z.re) || isnan(z.im); }
CSF_FN bool is_zero(zcx z) { return z.re == 0 && z.im == 0; }
CSF_FN bool neg_axis(zcx z) { return z.im == 0 && z.re < 0; }
CSF_FN zcx odd_if(long n, zcx r) { return (n % 2 == 0) ? r : -r; }
// sqrt(pi/2 / z): the principal branch of each factor, as xsf's product
CSF_FN zcx factor(zcx z) { return to_z(csqrt(cd(0.5 * k_pi, 0.0) / to_cd(z))); }

// j_n, y_n, i_n off the special points (finite z, not 0, not on the negative real axis)
CSF_NOINLINE zcx j_main(long n, zcx z) {
  const zcx out = factor(z) * cbessel::jv((double)n + 0.5, z);
  return z.im == 0 ? zcx(out.re, 0.0) : out;  // xsf: a small imaginary part on the axis is spurious
}
CSF_NOINLINE zcx y_main(long n, zcx z) { return factor(z) * cbessel::yv((double)n + 0.5, z); }
CSF_NOINLINE zcx i_main(long n, zcx z) { return factor(z) * cbessel::iv((double)n + 0.5, z); }

CSF_NOINLINE zcx sph_j(long n, zcx z) {
  if (has_nan(z)) return z;
  if (n < 0) return nan1();
  if (isinf(z.re)) return z.im == 0 ? zcx(0.0, 0.0) : zcx(lim<double>::inf(), lim<double>::inf());
  if (is_zero(z)) return zcx(n == 0 ? 1.0 : 0.0, 0.0);
  if (neg_axis(z)) return odd_if(n, j_main(n, zcx(-z.re, 0.0)));
  return j_main(n, z);
}
CSF_NOINLINE zcx sph_y(long n, zcx z) {
  if (has_nan(z)) return z;
  if (n < 0 || is_zero(z)) return nan1();
  if (isinf(z.re)) return z.im == 0 ? zcx(0.0, 0.0) : zcx(lim<double>::inf(), lim<double>::inf());
  if (neg_axis(z)) return odd_if(n + 1, y_main(n, zcx(-z.re, 0.0)));
  return y_main(n, z);
}
CSF_NOINLINE zcx sph_i(long n, zcx z) {
  if (has_nan(z)) return z;
  if (n < 0) return nan1();
  if (hypot(z.re, z.im) == 0) return zcx(n == 0 ? 1.0 : 0.0, 0.0);
  if (isinf(z.re) || isinf(z.im)) {
    if (z.im != 0) return nan1();
    return zcx(z.re == -lim<double>::inf() && n % 2 != 0 ? -lim<double>::inf() : lim<double>::inf(), 0.0);
  }
  if (neg_axis(z)) return odd_if(n, i_main(n, zcx(-z.re, 0.0)));
  return i_main(n, z);
}
CSF_NOINLINE zcx sph_k(long n, zcx z) {
  if (has_nan(z)) return z;
  if (n < 0 || hypot(z.re, z.im) == 0) return nan1();
  if (isinf(z.re) || isinf(z.im)) {
    if (z.im != 0) return nan1();
    return zcx(z.re == lim<double>::inf() ? 0.0 : -lim<double>::inf(), 0.0);
  }
  if (neg_axis(z)) return zcx(spherical_kn((double)n, z.re), 0.0);
  return factor(z) * cbessel::kv_kode((double)n + 0.5, z, 1);
}

// (n + 1) f_n(z) / z, the multiplication complex as xsf's (T(n + 1) * f, T complex)
CSF_FN zcx over_z(long n, zcx f, zcx z) { return (zcx((double)(n + 1), 0.0) * f) / z; }
CSF_NOINLINE zcx sph_j_d(long n, zcx z) {
  if (n == 0) return -sph_j(1, z);
  if (is_zero(z)) return zcx(n == 1 ? 1.0 / 3.0 : 0.0, 0.0);
  return sph_j(n - 1, z) - over_z(n, sph_j(n, z), z);
}
CSF_NOINLINE zcx sph_y_d(long n, zcx z) {
  if (n == 0) return -sph_y(1, z);
  return sph_y(n - 1, z) - over_z(n, sph_y(n, z), z);
}
CSF_NOINLINE zcx sph_i_d(long n, zcx z) {
  if (n == 0) return sph_i(1, z);
  if (is_zero(z)) return zcx(n == 1 ? 1.0 / 3.0 : 0.0, 0.0);
  return sph_i(n - 1, z) - over_z(n, sph_i(n, z), z);
}
CSF_NOINLINE zcx sph_k_d(long n, zcx z) {
  if (n == 0) return -sph_k(1, z);
  return -sph_k(n - 1, z) - over_z(n, sph_k(n, z), z);
}

}  // namespace csph

// The ufunc rows' entry points: order n (int64), z complex128 or complex64.
#define CSF_CSPH_LOOP(NAME, FN) \
  template <typename C> CSF_FN C NAME##_c(long long n, const C& z) { \
    const csph::zcx r = csph::FN((long)n, csph::zcx((double)z.real(), (double)z.imag())); \
    return C(r.re, r.im); \
  }
CSF_CSPH_LOOP(spherical_jn, sph_j)
CSF_CSPH_LOOP(spherical_yn, sph_y)
CSF_CSPH_LOOP(spherical_in, sph_i)
CSF_CSPH_LOOP(spherical_kn, sph_k)
CSF_CSPH_LOOP(spherical_jn_d, sph_j_d)
CSF_CSPH_LOOP(spherical_yn_d, sph_y_d)
CSF_CSPH_LOOP(spherical_in_d, sph_i_d)
CSF_CSPH_LOOP(spherical_kn_d, sph_k_d)
#undef CSF_CSPH_LOOP

}  // namespace cuarray_special
#endif
