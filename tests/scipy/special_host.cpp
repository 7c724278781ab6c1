// Host build of cuarray/scipy/special/templates/*.cuh (g++, no CUDA): the same device functions,
// wrapped as C loops for tests/scipy/test_special_host_cpu.py (ctypes), which compares them with
// scipy.special. Functions that exist only in CUDA's math library are absent here (the headers
// put them under CSF_DEVICE).
#include "common.cuh"
#include "erf.cuh"
#include "ndtr.cuh"
#include "gamma.cuh"
#include "bessel.cuh"
#include "convenience.cuh"
#include "expint.cuh"
#include "beta.cuh"
#include "igam.cuh"
#include "incbet.cuh"
#include "zeta.cuh"
#include "ellip.cuh"
#include "bessel_ik.cuh"
#include "bessel_jy.cuh"
#include "kolmogorov.cuh"
#include "owens.cuh"
#include "legendre.cuh"
#include "wright.cuh"
#include "ddouble.cuh"
#include "cmath.cuh"
#include "faddeeva.cuh"
#include "struve.cuh"
#include "hyp1f1.cuh"
#include "lambertw.cuh"
#include "sph_harm.cuh"
#include "hyp2f1.cuh"
#include "complex_elementary.cuh"
#include "cgamma.cuh"
#include "cdigamma.cuh"
#include "cexpint.cuh"
#include "chyp1f1.cuh"
#include "chyp2f1.cuh"
#include "amos_core.cuh"
#include "amos_series.cuh"
#include "amos_i_methods.cuh"
#include "amos_bknu.cuh"
#include "amos_uniform.cuh"
#include "amos_uniform_i.cuh"
#include "amos_uniform_k1.cuh"
#include "amos_uniform_k2.cuh"
#include "amos_drivers.cuh"
#include "amos_drivers_ij.cuh"
#include "amos_drivers_ky.cuh"
#include "amos_airy.cuh"
#include "cbessel.cuh"
#include "airy.cuh"
#include "csph_bessel.cuh"

#include <complex>

namespace cs = cuarray_special;

#define UNARY(NAME, T, EXPR) \
  extern "C" void csf_##NAME(const T* x, T* out, long n) { \
    for (long i = 0; i < n; ++i) { const T in0 = x[i]; out[i] = (T)(EXPR); } }
#define BINARY(NAME, T, EXPR) \
  extern "C" void csf_##NAME(const T* x, const T* y, T* out, long n) { \
    for (long i = 0; i < n; ++i) { const T in0 = x[i], in1 = y[i]; out[i] = (T)(EXPR); } }

// The same expressions as the ufunc rows (cuarray/scipy/special/_*.py), per loop.
#define TERNARY(NAME, T, EXPR) \
  extern "C" void csf_##NAME(const T* x, const T* y, const T* z, T* out, long n) { \
    for (long i = 0; i < n; ++i) { const T in0 = x[i], in1 = y[i], in2 = z[i]; out[i] = (T)(EXPR); } }
#define BOTH_TERNARY(NAME, EXPR) TERNARY(NAME##_d, double, EXPR) TERNARY(NAME##_f, float, EXPR)
#define BOTH_UNARY(NAME, EXPR) UNARY(NAME##_d, double, EXPR) UNARY(NAME##_f, float, EXPR)
#define BOTH_BINARY(NAME, EXPR) BINARY(NAME##_d, double, EXPR) BINARY(NAME##_f, float, EXPR)

BOTH_UNARY(erf, cs::erf(in0))
BOTH_UNARY(erfc, cs::erfc(in0))
BOTH_UNARY(ndtr, cs::ndtr((double)in0))
BOTH_UNARY(gamma, cs::gamma(in0))
BOTH_UNARY(gammaln, cs::gammaln((double)in0))
BOTH_UNARY(loggamma, cs::loggamma((double)in0))
BOTH_UNARY(gammasgn, cs::gammasgn((double)in0))
BOTH_UNARY(rgamma, cs::rgamma((double)in0))
BOTH_UNARY(psi, cs::psi((double)in0))
BOTH_UNARY(j0, cs::j0((double)in0))
BOTH_UNARY(j1, cs::j1((double)in0))
BOTH_UNARY(y0, cs::y0((double)in0))
BOTH_UNARY(y1, cs::y1((double)in0))
BOTH_BINARY(yn, cs::yn_real((double)in0, (double)in1))
BOTH_UNARY(expit, cs::expit(in0))
BOTH_UNARY(logit, cs::logit(in0))
BOTH_UNARY(log_expit, cs::log_expit(in0))
BOTH_BINARY(xlogy, cs::xlogy(in0, in1))
BOTH_BINARY(xlog1py, cs::xlog1py(in0, in1))
BOTH_UNARY(entr, cs::entr(in0))
BOTH_BINARY(rel_entr, cs::rel_entr((double)in0, (double)in1))
BOTH_BINARY(kl_div, cs::kl_div((double)in0, (double)in1))
BOTH_BINARY(huber, cs::huber((double)in0, (double)in1))
BOTH_BINARY(pseudo_huber, cs::pseudo_huber((double)in0, (double)in1))
BOTH_UNARY(cbrt, cbrt(in0))
BOTH_UNARY(exp2, exp2(in0))
BOTH_UNARY(exp10, cs::exp10(in0))
BOTH_UNARY(expm1, expm1(in0))
BOTH_UNARY(log1p, log1p(in0))
BOTH_UNARY(cosm1, cs::cosm1((double)in0))
BOTH_UNARY(cosdg, cs::cosdg((double)in0))
BOTH_UNARY(sindg, cs::sindg((double)in0))
BOTH_UNARY(tandg, cs::tandg((double)in0))
BOTH_UNARY(cotdg, cs::cotdg((double)in0))
BOTH_UNARY(round, cs::round_even(in0))
BOTH_BINARY(boxcox, cs::boxcox((double)in0, (double)in1))
BOTH_BINARY(boxcox1p, cs::boxcox1p((double)in0, (double)in1))
BOTH_BINARY(inv_boxcox, cs::inv_boxcox((double)in0, (double)in1))
BOTH_BINARY(inv_boxcox1p, cs::inv_boxcox1p((double)in0, (double)in1))
BOTH_UNARY(exprel, cs::exprel((double)in0))
BOTH_UNARY(exp1, cs::exp1((double)in0))
BOTH_UNARY(expi, cs::expi((double)in0))

#define D(k) ((double)in##k)
BOTH_BINARY(beta, cs::beta(D(0), D(1)))
BOTH_BINARY(betaln, cs::betaln(D(0), D(1)))
BOTH_BINARY(poch, cs::poch(D(0), D(1)))
BOTH_BINARY(binom, cs::binom(D(0), D(1)))
BOTH_BINARY(gammainc, cs::gammainc(D(0), D(1)))
BOTH_BINARY(gammaincc, cs::gammaincc(D(0), D(1)))
BOTH_BINARY(gammaincinv, cs::gammaincinv(D(0), D(1)))
BOTH_BINARY(gammainccinv, cs::gammainccinv(D(0), D(1)))
BOTH_TERNARY(gdtr, cs::gdtr(D(0), D(1), D(2)))
BOTH_TERNARY(gdtrc, cs::gdtrc(D(0), D(1), D(2)))
BOTH_BINARY(chdtr, cs::chdtr(D(0), D(1)))
BOTH_BINARY(chdtrc, cs::chdtrc(D(0), D(1)))
BOTH_BINARY(chdtri, cs::chdtri(D(0), D(1)))
BOTH_BINARY(pdtr, cs::pdtr(D(0), D(1)))
BOTH_BINARY(pdtrc, cs::pdtrc(D(0), D(1)))
BOTH_BINARY(pdtri, cs::pdtri(D(0), D(1)))
BOTH_TERNARY(betainc, cs::betainc(D(0), D(1), D(2)))
BOTH_TERNARY(betaincinv, cs::betaincinv(D(0), D(1), D(2)))
BOTH_TERNARY(bdtr, cs::bdtr(D(0), D(1), D(2)))
BOTH_TERNARY(bdtrc, cs::bdtrc(D(0), D(1), D(2)))
BOTH_TERNARY(bdtri, cs::bdtri(D(0), D(1), D(2)))
BOTH_TERNARY(fdtr, cs::fdtr(D(0), D(1), D(2)))
BOTH_TERNARY(fdtrc, cs::fdtrc(D(0), D(1), D(2)))
BOTH_TERNARY(fdtri, cs::fdtri(D(0), D(1), D(2)))
BOTH_TERNARY(nbdtr, cs::nbdtr(D(0), D(1), D(2)))
BOTH_TERNARY(nbdtrc, cs::nbdtrc(D(0), D(1), D(2)))
BOTH_TERNARY(nbdtri, cs::nbdtri(D(0), D(1), D(2)))
BOTH_BINARY(stdtr, cs::stdtr(D(0), D(1)))
BOTH_BINARY(stdtrit, cs::stdtrit(D(0), D(1)))
BOTH_BINARY(_zeta, cs::hurwitz_zeta(D(0), D(1)))
BOTH_UNARY(_riemann_zeta, cs::riemann_zeta(D(0)))
BOTH_UNARY(zetac, cs::zetac(D(0)))
BOTH_BINARY(_polygamma, cs::polygamma(D(0), D(1)))
BOTH_BINARY(expn, cs::expn(D(0), D(1)))
// two-output functions: one C loop per output
static double sici_si(double x) { double s, c; cs::sici(x, s, c); return s; }
static double sici_ci(double x) { double s, c; cs::sici(x, s, c); return c; }
static double shichi_shi(double x) { double s, c; cs::shichi(x, s, c); return s; }
static double shichi_chi(double x) { double s, c; cs::shichi(x, s, c); return c; }
BOTH_UNARY(sici_0, sici_si(D(0)))
BOTH_UNARY(sici_1, sici_ci(D(0)))
BOTH_UNARY(shichi_0, shichi_shi(D(0)))
BOTH_UNARY(shichi_1, shichi_chi(D(0)))
BOTH_UNARY(ellipk, cs::ellipk(D(0)))
BOTH_UNARY(ellipkm1, cs::ellipkm1(D(0)))
BOTH_UNARY(ellipe, cs::ellipe(D(0)))
BOTH_BINARY(ellipkinc, cs::ellipkinc(D(0), D(1)))
BOTH_BINARY(ellipeinc, cs::ellipeinc(D(0), D(1)))
static double ellipj_k(double u, double m, int k) { double o[4]; cs::ellipj(u, m, o[0], o[1], o[2], o[3]); return o[k]; }
BOTH_BINARY(ellipj_0, ellipj_k(D(0), D(1), 0))
BOTH_BINARY(ellipj_1, ellipj_k(D(0), D(1), 1))
BOTH_BINARY(ellipj_2, ellipj_k(D(0), D(1), 2))
BOTH_BINARY(ellipj_3, ellipj_k(D(0), D(1), 3))
BOTH_BINARY(iv, cs::iv(D(0), D(1)))
BOTH_BINARY(ive, cs::ive(D(0), D(1)))
BOTH_BINARY(kv, cs::kv(D(0), D(1)))
BOTH_BINARY(kve, cs::kve(D(0), D(1)))
BOTH_BINARY(kn, cs::kn(D(0), D(1)))
BOTH_UNARY(k0, cs::kv(0.0, D(0)))
BOTH_UNARY(k1, cs::kv(1.0, D(0)))
BOTH_UNARY(k0e, cs::kve(0.0, D(0)))
BOTH_UNARY(k1e, cs::kve(1.0, D(0)))
BOTH_BINARY(jv, cs::jv(D(0), D(1)))
BOTH_BINARY(yv, cs::yv(D(0), D(1)))
BOTH_BINARY(jve, cs::jv(D(0), D(1)))
BOTH_BINARY(yve, cs::yv(D(0), D(1)))
BOTH_BINARY(jn, cs::jv(D(0), D(1)))
BOTH_BINARY(_spherical_jn, cs::spherical_jn(D(0), D(1)))
BOTH_BINARY(_spherical_yn, cs::spherical_yn(D(0), D(1)))
BOTH_BINARY(_spherical_jn_d, cs::spherical_jn_d(D(0), D(1)))
BOTH_BINARY(_spherical_yn_d, cs::spherical_yn_d(D(0), D(1)))
BOTH_BINARY(_spherical_in, cs::spherical_in(D(0), D(1)))
BOTH_BINARY(_spherical_kn, cs::spherical_kn(D(0), D(1)))
BOTH_BINARY(_spherical_in_d, cs::spherical_in_d(D(0), D(1)))
BOTH_BINARY(_spherical_kn_d, cs::spherical_kn_d(D(0), D(1)))
BOTH_UNARY(kolmogorov, cs::kolmogorov(D(0)))
BOTH_BINARY(smirnov, cs::smirnov(D(0), D(1)))
BOTH_UNARY(kolmogi, cs::kolmogi(D(0)))
BOTH_BINARY(smirnovi, cs::smirnovi(D(0), D(1)))
BOTH_UNARY(dawsn, cs::dawsn(D(0)))
BOTH_BINARY(owens_t, cs::owens_t(D(0), D(1)))
BOTH_TERNARY(lpmv, cs::lpmv(D(0), D(1), D(2)))
BOTH_TERNARY(wright_bessel, cs::wright_bessel(D(0), D(1), D(2)))
BOTH_UNARY(erfi, cs::erfi(D(0)))
BOTH_BINARY(struve, cs::struve_h(D(0), D(1)))
BOTH_BINARY(modstruve, cs::struve_l(D(0), D(1)))
#define QUATERNARY(NAME, T, EXPR) \
  extern "C" void csf_##NAME(const T* x, const T* y, const T* z, const T* w, T* out, long n) { \
    for (long i = 0; i < n; ++i) { const T in0 = x[i], in1 = y[i], in2 = z[i], in3 = w[i]; out[i] = (T)(EXPR); } }
QUATERNARY(hyp2f1_d, double, cs::hyp2f1(D(0), D(1), D(2), D(3)))
QUATERNARY(hyp2f1_f, float, cs::hyp2f1(D(0), D(1), D(2), D(3)))

// complex loops: complex128 and complex64 arrays (std::complex has NumPy's layout)
#define CUNARY(NAME, T, EXPR) \
  extern "C" void csf_##NAME(const std::complex<T>* x, std::complex<T>* out, long n) { \
    for (long i = 0; i < n; ++i) { const std::complex<T> in0 = x[i]; out[i] = (EXPR); } }
#define BOTH_CUNARY(NAME, EXPR) CUNARY(NAME##_D, double, EXPR) CUNARY(NAME##_F, float, EXPR)
BOTH_CUNARY(wofz, cs::wofz(in0))
BOTH_CUNARY(erf, cs::erf_c(in0))
BOTH_CUNARY(erfc, cs::erfc_c(in0))
BOTH_CUNARY(erfcx, cs::erfcx_c(in0))
BOTH_CUNARY(erfi, cs::erfi_c(in0))
BOTH_CUNARY(dawsn, cs::dawsn_c(in0))
BOTH_CUNARY(ndtr, cs::ndtr_c(in0))
BOTH_CUNARY(log_ndtr, cs::log_ndtr_c(in0))
BOTH_CUNARY(expm1, cs::expm1_c(in0))
BOTH_CUNARY(log1p, cs::log1p_c(in0))
BOTH_CUNARY(loggamma, cs::loggamma_c(in0))
BOTH_CUNARY(gamma, cs::gamma_c(in0))
BOTH_CUNARY(rgamma, cs::rgamma_c(in0))
BOTH_CUNARY(psi, cs::psi_c(in0))
BOTH_CUNARY(exp1, cs::exp1_c(in0))
BOTH_CUNARY(expi, cs::expi_c(in0))
// sici's and shichi's 'D->DD' loops: each output as its own function
template <typename C> C sici_si(const C& z) { C c; return cs::sici_c(z, c); }
template <typename C> C sici_ci(const C& z) { C c; cs::sici_c(z, c); return c; }
template <typename C> C shichi_shi(const C& z) { C c; return cs::shichi_c(z, c); }
template <typename C> C shichi_chi(const C& z) { C c; cs::shichi_c(z, c); return c; }
BOTH_CUNARY(sici_0, sici_si(in0))
BOTH_CUNARY(sici_1, sici_ci(in0))
BOTH_CUNARY(shichi_0, shichi_shi(in0))
BOTH_CUNARY(shichi_1, shichi_chi(in0))
#define CBINARY(NAME, T, EXPR) \
  extern "C" void csf_##NAME(const std::complex<T>* x, const std::complex<T>* y, std::complex<T>* out, long n) { \
    for (long i = 0; i < n; ++i) { const std::complex<T> in0 = x[i], in1 = y[i]; out[i] = (EXPR); } }
#define BOTH_CBINARY(NAME, EXPR) CBINARY(NAME##_D, double, EXPR) CBINARY(NAME##_F, float, EXPR)
BOTH_CBINARY(xlogy, cs::xlogy_c(in0, in1))
BOTH_CBINARY(xlog1py, cs::xlog1py_c(in0, in1))
BOTH_TERNARY(hyp1f1, cs::hyp1f1(D(0), D(1), D(2)))
// hyp1f1's 'ddD->D' and 'ffF->F' loops
#define RRC(NAME, T, EXPR) \
  extern "C" void csf_##NAME(const T* x, const T* y, const std::complex<T>* z, std::complex<T>* out, long n) { \
    for (long i = 0; i < n; ++i) { const T in0 = x[i], in1 = y[i]; const std::complex<T> in2 = z[i]; out[i] = (EXPR); } }
RRC(hyp1f1_ddD, double, cs::hyp1f1_c((double)in0, (double)in1, in2))
RRC(hyp1f1_ffF, float, cs::hyp1f1_c((double)in0, (double)in1, in2))
// hyp2f1's 'dddD->D' and 'fffF->F' loops
#define RRRC(NAME, T, EXPR) \
  extern "C" void csf_##NAME(const T* x, const T* y, const T* w, const std::complex<T>* z, std::complex<T>* out, \
                             long n) { \
    for (long i = 0; i < n; ++i) { \
      const T in0 = x[i], in1 = y[i], in2 = w[i]; const std::complex<T> in3 = z[i]; out[i] = (EXPR); } }
RRRC(hyp2f1_dddD, double, cs::hyp2f1_c((double)in0, (double)in1, (double)in2, in3))
RRRC(hyp2f1_fffF, float, cs::hyp2f1_c((double)in0, (double)in1, (double)in2, in3))
// _lambertw's 'Dld->D' and 'Flf->F' loops
extern "C" void csf__lambertw_D(const std::complex<double>* z, const long* k, const double* tol,
                                std::complex<double>* out, long n) {
  for (long i = 0; i < n; ++i) out[i] = cs::lambertw(z[i], (long long)k[i], tol[i]);
}
extern "C" void csf__lambertw_F(const std::complex<float>* z, const long* k, const float* tol,
                                std::complex<float>* out, long n) {
  for (long i = 0; i < n; ++i) out[i] = cs::lambertw(z[i], (long long)k[i], tol[i]);
}
// sph_harm_y's 'qqdd->D' loop
extern "C" void csf__sph_harm_y_D(const long* n, const long* m, const double* t, const double* p,
                                  std::complex<double>* out, long len) {
  for (long i = 0; i < len; ++i) out[i] = cs::sph_harm_y<std::complex<double>>(n[i], m[i], t[i], p[i]);
}
// the complex Bessel functions' 'dD->D' and 'fF->F' loops
#define RC(NAME, T, EXPR) \
  extern "C" void csf_##NAME(const T* x, const std::complex<T>* z, std::complex<T>* out, long n) { \
    for (long i = 0; i < n; ++i) { const T in0 = x[i]; const std::complex<T> in1 = z[i]; out[i] = (EXPR); } }
#define BOTH_RC(NAME) RC(NAME##_D, double, cs::NAME##_c((double)in0, in1)) RC(NAME##_F, float, cs::NAME##_c((double)in0, in1))
BOTH_RC(jv) BOTH_RC(jve) BOTH_RC(yv) BOTH_RC(yve) BOTH_RC(iv) BOTH_RC(ive) BOTH_RC(kv) BOTH_RC(kve)
BOTH_RC(hankel1) BOTH_RC(hankel1e) BOTH_RC(hankel2) BOTH_RC(hankel2e)

// airy's and airye's four outputs ('d->dddd', 'f->ffff', 'D->DDDD', 'F->FFFF'): out holds n rows of 4
#define AIRY4(NAME, T, FN) \
  extern "C" void csf_##NAME(const T* x, T* out, long n) { \
    for (long i = 0; i < n; ++i) out[4 * i] = cs::FN(x[i], out[4 * i + 1], out[4 * i + 2], out[4 * i + 3]); }
AIRY4(airy_d, double, airy_ufunc) AIRY4(airy_f, float, airy_ufunc)
AIRY4(airye_d, double, airye_ufunc) AIRY4(airye_f, float, airye_ufunc)
AIRY4(airy_D, std::complex<double>, airy_c) AIRY4(airy_F, std::complex<float>, airy_c)
AIRY4(airye_D, std::complex<double>, airye_c) AIRY4(airye_F, std::complex<float>, airye_c)
// the spherical Bessel functions' 'lD->D' and 'lF->F' loops
#define LC(NAME, T) \
  extern "C" void csf_##NAME##_##T(const long* k, const std::complex<T>* z, std::complex<T>* out, long n) { \
    for (long i = 0; i < n; ++i) out[i] = cs::NAME##_c((long long)k[i], z[i]); }
#define BOTH_LC(NAME) LC(NAME, double) LC(NAME, float)
BOTH_LC(spherical_jn) BOTH_LC(spherical_yn) BOTH_LC(spherical_in) BOTH_LC(spherical_kn)
BOTH_LC(spherical_jn_d) BOTH_LC(spherical_yn_d) BOTH_LC(spherical_in_d) BOTH_LC(spherical_kn_d)
