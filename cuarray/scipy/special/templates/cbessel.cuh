// The complex loops of cuarray.scipy.special's Bessel functions of real order: iv, ive, kv, kve,
// jv, jve, yv, yve, hankel1, hankel1e, hankel2, hankel2e ('dD->D', 'fF->F'; complex64 computed in
// complex128, as SciPy's). SciPy's wrappers (xsf's bessel.h, cyl_bessel_*: BSD-3-Clause, SciPy
// developers) over AMOS (templates/amos_*.cuh): order |v|, then the reflection for v < 0 (J, Y:
// cos(pi v) J_v -+ sin(pi v) Y_v, exact signs at integers; I: I_v + (2/pi) sin(pi v) K_v; K even in
// v; H: e^(+-i pi v) H_v); AMOS's error codes become NaN as xsf's set_error_and_nan (domain,
// overflow, no result; not underflow or loss of precision), with xsf's infinities where an
// unscaled value overflows on the real axis.
#ifndef CUARRAY_SPECIAL_CBESSEL_CUH
#define CUARRAY_SPECIAL_CBESSEL_CUH
namespace cuarray_special {
namespace cbessel {
using amos::zcx;

CSF_FN zcx nan2() { return zcx(lim<double>::nan(), lim<double>::nan()); }
CSF_FN bool any_nan(double v, zcx z) { return isnan(v) || isnan(z.re) || isnan(z.im); }
// xsf's ierr_to_sferr + set_error_and_nan: NaN for ierr 1, 2, 4, 5 unless AMOS reported underflow.
CSF_FN void nan_on_error(int nz, int ierr, zcx& y) {
  if (nz == 0 && (ierr == 1 || ierr == 2 || ierr == 4 || ierr == 5)) y = nan2();
}
// e^(i pi v) z, cos/sin of pi v with the argument reduced exactly
CSF_FN zcx rotate(zcx z, double v) {
  const double c = cospi(v), s = sinpi(v);
  return zcx(c * z.re - s * z.im, s * z.re + c * z.im);
}
CSF_FN zcx rotate_jy(zcx j, zcx y, double v) { return cospi(v) * j - sinpi(v) * y; }
// J and Y of a negative integer order: (-1)^v times the positive order's (true when reflected)
CSF_FN bool reflect_jy(zcx* jy, double v) {
  if (v != floor(v)) return false;
  const int i = (int)(v - 16384.0 * floor(v / 16384.0));
  if (i & 1) *jy = -(*jy);
  return true;
}
CSF_FN zcx rotate_i(zcx i, zcx k, double v) { return i + (sin(v * k_pi) * (2 / k_pi)) * k; }

CSF_NOINLINE zcx jve(double v, zcx z) {
  zcx cy_j = nan2(), cy_y = nan2();
  if (any_nan(v, z)) return cy_j;
  int sign = 1, ierr;
  if (v < 0) { v = -v; sign = -1; }
  int nz = amos::besj(z, v, 2, 1, &cy_j, &ierr);
  nan_on_error(nz, ierr, cy_j);
  if (sign == -1 && !reflect_jy(&cy_j, v)) {
    nz = amos::besy(z, v, 2, 1, &cy_y, &ierr);
    nan_on_error(nz, ierr, cy_y);
    cy_j = rotate_jy(cy_j, cy_y, v);
  }
  return cy_j;
}

CSF_NOINLINE zcx yve(double v, zcx z) {
  zcx cy_y = nan2(), cy_j = nan2();
  if (any_nan(v, z)) return cy_y;
  int sign = 1, ierr;
  if (v < 0) { v = -v; sign = -1; }
  int nz = amos::besy(z, v, 2, 1, &cy_y, &ierr);
  nan_on_error(nz, ierr, cy_y);
  if (ierr == 2 && z.re >= 0 && z.im == 0) cy_y = zcx(lim<double>::inf(), 0.0);
  if (sign == -1 && !reflect_jy(&cy_y, v)) {
    nz = amos::besj(z, v, 2, 1, &cy_j, &ierr);
    nan_on_error(nz, ierr, cy_j);
    cy_y = rotate_jy(cy_y, cy_j, -v);
  }
  return cy_y;
}

CSF_NOINLINE zcx ive(double v, zcx z) {
  zcx cy = nan2(), cy_k = nan2();
  if (any_nan(v, z)) return cy;
  int sign = 1, ierr;
  if (v < 0) { v = -v; sign = -1; }
  int nz = amos::besi(z, v, 2, 1, &cy, &ierr);
  nan_on_error(nz, ierr, cy);
  if (sign == -1 && v != floor(v)) {
    nz = amos::besk(z, v, 2, 1, &cy_k, &ierr);
    nan_on_error(nz, ierr, cy_k);
    // besk's scaling (e^z) to besi's (e^-|Re z|)
    cy_k = rotate(cy_k, -z.im / k_pi);
    if (z.re > 0) cy_k = zcx(cy_k.re * exp(-2 * z.re), cy_k.im * exp(-2 * z.re));
    cy = rotate_i(cy, cy_k, v);
  }
  return cy;
}

// K_v of |v| (K is even in v); kode 1 unscaled, 2 scaled by e^z
CSF_NOINLINE zcx kv_kode(double v, zcx z, int kode) {
  zcx cy = nan2();
  if (any_nan(v, z)) return cy;
  if (v < 0) v = -v;
  int ierr;
  const int nz = amos::besk(z, v, kode, 1, &cy, &ierr);
  nan_on_error(nz, ierr, cy);
  if (ierr == 2 && z.re >= 0 && z.im == 0) cy = zcx(lim<double>::inf(), 0.0);
  return cy;
}

CSF_NOINLINE zcx jv(double v, zcx z) {
  zcx cy_j = nan2(), cy_y = nan2();
  if (any_nan(v, z)) return cy_j;
  int sign = 1, ierr;
  if (v < 0) { v = -v; sign = -1; }
  int nz = amos::besj(z, v, 1, 1, &cy_j, &ierr);
  nan_on_error(nz, ierr, cy_j);
  if (ierr == 2) {  // overflow: the scaled value's direction, infinite (0 * inf is NaN, as xsf's)
    cy_j = jve(v, z);
    cy_j = zcx(cy_j.re * lim<double>::inf(), cy_j.im * lim<double>::inf());
  }
  if (sign == -1 && !reflect_jy(&cy_j, v)) {
    nz = amos::besy(z, v, 1, 1, &cy_y, &ierr);
    nan_on_error(nz, ierr, cy_y);
    cy_j = rotate_jy(cy_j, cy_y, v);
  }
  return cy_j;
}

CSF_NOINLINE zcx yv(double v, zcx z) {
  zcx cy_y = nan2(), cy_j = nan2();
  if (any_nan(v, z)) return cy_y;
  int sign = 1, ierr, nz;
  if (v < 0) { v = -v; sign = -1; }
  if (z.re == 0 && z.im == 0) {
    cy_y = zcx(-lim<double>::inf(), 0.0);
  } else {
    nz = amos::besy(z, v, 1, 1, &cy_y, &ierr);
    nan_on_error(nz, ierr, cy_y);
    if (ierr == 2 && z.re >= 0 && z.im == 0) cy_y = zcx(-lim<double>::inf(), 0.0);
  }
  if (sign == -1 && !reflect_jy(&cy_y, v)) {
    nz = amos::besj(z, v, 1, 1, &cy_j, &ierr);
    nan_on_error(nz, ierr, cy_j);
    cy_y = rotate_jy(cy_y, cy_j, -v);
  }
  return cy_y;
}

CSF_NOINLINE zcx iv(double v, zcx z) {
  zcx cy = nan2(), cy_k = nan2();
  if (any_nan(v, z)) return cy;
  int sign = 1, ierr;
  const double v0 = v;
  if (v < 0) { v = -v; sign = -1; }
  int nz = amos::besi(z, v, 1, 1, &cy, &ierr);
  nan_on_error(nz, ierr, cy);
  if (ierr == 2) {  // overflow
    if (z.im == 0 && (z.re >= 0 || v == floor(v))) {
      cy = zcx((z.re < 0 && v / 2 != floor(v / 2)) ? -lim<double>::inf() : lim<double>::inf(), 0.0);
    } else {
      cy = ive(v0, z);
      cy = zcx(cy.re * lim<double>::inf(), cy.im * lim<double>::inf());
    }
  }
  if (sign == -1 && v != floor(v)) {
    nz = amos::besk(z, v, 1, 1, &cy_k, &ierr);
    nan_on_error(nz, ierr, cy_k);
    cy = rotate_i(cy, cy_k, v);
  }
  return cy;
}

// H^(m)_v, kode 1 unscaled, 2 scaled by e^(-+iz); H^(1,2)_-v = e^(+-i pi v) H^(1,2)_v
CSF_NOINLINE zcx hankel(double v, zcx z, int kode, int m) {
  zcx cy = nan2();
  if (any_nan(v, z)) return cy;
  if (kode == 1 && m == 2 && v == 0 && z.re == 0 && z.im == 0) return zcx(lim<double>::nan(), lim<double>::inf());
  int sign = 1, ierr;
  if (v < 0) { v = -v; sign = -1; }
  const int nz = amos::besh(z, v, kode, m, 1, &cy, &ierr);
  nan_on_error(nz, ierr, cy);
  if (sign == -1) cy = rotate(cy, m == 1 ? v : -v);
  return cy;
}

}  // namespace cbessel

template <typename C> CSF_FN C bessel_out(cbessel::zcx r) { return C(r.re, r.im); }
#define CSF_CBESSEL_LOOP(NAME, EXPR) \
  template <typename C> CSF_FN C NAME##_c(double v, const C& z) { \
    const cbessel::zcx w((double)z.real(), (double)z.imag()); \
    return bessel_out<C>(EXPR); \
  }
CSF_CBESSEL_LOOP(jv, cbessel::jv(v, w))
CSF_CBESSEL_LOOP(jve, cbessel::jve(v, w))
CSF_CBESSEL_LOOP(yv, cbessel::yv(v, w))
CSF_CBESSEL_LOOP(yve, cbessel::yve(v, w))
CSF_CBESSEL_LOOP(iv, cbessel::iv(v, w))
CSF_CBESSEL_LOOP(ive, cbessel::ive(v, w))
CSF_CBESSEL_LOOP(kv, cbessel::kv_kode(v, w, 1))
CSF_CBESSEL_LOOP(kve, cbessel::kv_kode(v, w, 2))
CSF_CBESSEL_LOOP(hankel1, cbessel::hankel(v, w, 1, 1))
CSF_CBESSEL_LOOP(hankel1e, cbessel::hankel(v, w, 2, 1))
CSF_CBESSEL_LOOP(hankel2, cbessel::hankel(v, w, 1, 2))
CSF_CBESSEL_LOOP(hankel2e, cbessel::hankel(v, w, 2, 2))
#undef CSF_CBESSEL_LOOP

}  // namespace cuarray_special
#endif
