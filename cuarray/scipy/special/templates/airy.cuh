// Airy functions of cuarray.scipy.special: airy and airye (Ai, Ai', Bi, Bi'), their real
// ('f->ffff', 'd->dddd') and complex ('F->FFFF', 'D->DDDD') loops, as SciPy runs them (xsf's
// airy.h, BSD-3-Clause, SciPy developers):
// - airy, real x: Cephes' airy (below) for |x| <= 10, AMOS's (templates/amos_airy.cuh, the
//   complex routines at z = x + 0i, real parts) beyond, where Cephes loses accuracy;
// - airye, real x: AMOS's scaled routines; Ai and Ai' are NaN for x < 0 (SciPy's: their scaled
//   values are complex there);
// - complex z: AMOS (kode 1 unscaled, 2 scaled), its error codes as NaN (cbessel::nan_on_error:
//   xsf's set_error_and_nan);
// float32/complex64 loops compute in double and round once, as SciPy's.
//
// Cephes' airy: Cephes Math Library Release 2.8, June 2000, Copyright 1984, 1987, 1989, 2000 by
// Stephen L. Moshier (airy.c; xsf's C++ translation, include/xsf/cephes/airy.h, followed
// operation for operation so that the values agree with SciPy's to the bit on the host): the
// power series for -2.09 <= x < 2.09, the rational asymptotic approximations in 1/zeta
// (zeta = 2/3 |x|^(3/2)) beyond (Bi and Bi' by the series up to x = 8.32, where zeta = 16), 0 and
// inf above 103.892.
#ifndef CUARRAY_SPECIAL_AIRY_CUH
#define CUARRAY_SPECIAL_AIRY_CUH
namespace cuarray_special {
namespace airy_detail {

#ifdef CSF_DEVICE
#define CSF_AIRY_TABLE __constant__ const double
#else
#define CSF_AIRY_TABLE static const double
#endif
CSF_AIRY_TABLE AN[8] = {
    3.46538101525629032477E-1, 1.20075952739645805542E1, 7.62796053615234516538E1, 1.68089224934630576269E2,
    1.59756391350164413639E2, 7.05360906840444183113E1, 1.40264691163389668864E1, 9.99999999999999995305E-1};
CSF_AIRY_TABLE AD[8] = {
    5.67594532638770212846E-1, 1.47562562584847203173E1, 8.45138970141474626562E1, 1.77318088145400459522E2,
    1.64234692871529701831E2, 7.14778400825575695274E1, 1.40959135607834029598E1, 1.00000000000000000470E0};
CSF_AIRY_TABLE APN[8] = {
    6.13759184814035759225E-1, 1.47454670787755323881E1, 8.20584123476060982430E1, 1.71184781360976385540E2,
    1.59317847137141783523E2, 6.99778599330103016170E1, 1.39470856980481566958E1, 1.00000000000000000550E0};
CSF_AIRY_TABLE APD[8] = {
    3.34203677749736953049E-1, 1.11810297306158156705E1, 7.11727352147859965283E1, 1.58778084372838313640E2,
    1.53206427475809220834E2, 6.86752304592780337944E1, 1.38498634758259442477E1, 9.99999999999999994502E-1};
CSF_AIRY_TABLE BN16[5] = {
    -2.53240795869364152689E-1, 5.75285167332467384228E-1, -3.29907036873225371650E-1,
    6.44404068948199951727E-2, -3.82519546641336734394E-3};
CSF_AIRY_TABLE BD16[5] = {
    -7.15685095054035237902E0, 1.06039580715664694291E1, -5.23246636471251500874E0,
    9.57395864378383833152E-1, -5.50828147163549611107E-2};
CSF_AIRY_TABLE BPPN[5] = {
    4.65461162774651610328E-1, -1.08992173800493920734E0, 6.38800117371827987759E-1,
    -1.26844349553102907034E-1, 7.62487844342109852105E-3};
CSF_AIRY_TABLE BPPD[5] = {
    -8.70622787633159124240E0, 1.38993162704553213172E1, -7.14116144616431159572E0, 1.34008595960680518666E0,
    -7.84273211323341930448E-2};
CSF_AIRY_TABLE AFN[9] = {
    -1.31696323418331795333E-1, -6.26456544431912369773E-1, -6.93158036036933542233E-1,
    -2.79779981545119124951E-1, -4.91900132609500318020E-2, -4.06265923594885404393E-3,
    -1.59276496239262096340E-4, -2.77649108155232920844E-6, -1.67787698489114633780E-8};
CSF_AIRY_TABLE AFD[9] = {
    1.33560420706553243746E1, 3.26825032795224613948E1, 2.67367040941499554804E1, 9.18707402907259625840E0,
    1.47529146771666414581E0, 1.15687173795188044134E-1, 4.40291641615211203805E-3,
    7.54720348287414296618E-5, 4.51850092970580378464E-7};
CSF_AIRY_TABLE AGN[11] = {
    1.97339932091685679179E-2, 3.91103029615688277255E-1, 1.06579897599595591108E0,
    9.39169229816650230044E-1, 3.51465656105547619242E-1, 6.33888919628925490927E-2,
    5.85804113048388458567E-3, 2.82851600836737019778E-4, 6.98793669997260967291E-6,
    8.11789239554389293311E-8, 3.41551784765923618484E-10};
CSF_AIRY_TABLE AGD[10] = {
    9.30892908077441974853E0, 1.98352928718312140417E1, 1.55646628932864612953E1, 5.47686069422975497931E0,
    9.54293611618961883998E-1, 8.64580826352392193095E-2, 4.12656523824222607191E-3,
    1.01259085116509135510E-4, 1.17166733214413521882E-6, 4.91834570062930015649E-9};
CSF_AIRY_TABLE APFN[9] = {
    1.85365624022535566142E-1, 8.86712188052584095637E-1, 9.87391981747398547272E-1,
    4.01241082318003734092E-1, 7.10304926289631174579E-2, 5.90618657995661810071E-3,
    2.33051409401776799569E-4, 4.08718778289035454598E-6, 2.48379932900442457853E-8};
CSF_AIRY_TABLE APFD[9] = {
    1.47345854687502542552E1, 3.75423933435489594466E1, 3.14657751203046424330E1, 1.09969125207298778536E1,
    1.78885054766999417817E0, 1.41733275753662636873E-1, 5.44066067017226003627E-3,
    9.39421290654511171663E-5, 5.65978713036027009243E-7};
CSF_AIRY_TABLE APGN[11] = {
    -3.55615429033082288335E-2, -6.37311518129435504426E-1, -1.70856738884312371053E0,
    -1.50221872117316635393E0, -5.63606665822102676611E-1, -1.02101031120216891789E-1,
    -9.48396695961445269093E-3, -4.60325307486780994357E-4, -1.14300836484517375919E-5,
    -1.33415518685547420648E-7, -5.63803833958893494476E-10};
CSF_AIRY_TABLE APGD[10] = {
    9.85865801696130355144E0, 2.16401867356585941885E1, 1.73130776389749389525E1, 6.17872175280828766327E0,
    1.08848694396321495475E0, 9.95005543440888479402E-2, 4.78468199683886610842E-3,
    1.18159633322838625562E-4, 1.37480673554219441465E-6, 5.79912514929147598821E-9};
#undef CSF_AIRY_TABLE

constexpr double c1 = 0.35502805388781723926, c2 = 0.258819403792806798405, maxairy = 103.892;
constexpr double sqrt1opi = 5.641895835477562869480794515607725858441E-1;  // sqrt(1/pi)
constexpr double sqrt3 = 1.732050807568877293527446341505872366943;
constexpr double machep = 1.1102230246251565404236316680908203125E-16;  // 2^-53

// Cephes' polevl (coefficients highest degree first, c[0..N]) and p1evl (a leading 1 omitted)
template <int N> CSF_FN double polevl(double x, const double* c) {
  double r = c[0];
  for (int i = 1; i <= N; ++i) r = r * x + c[i];
  return r;
}
template <int N> CSF_FN double p1evl(double x, const double* c) {
  double r = x + c[0];
  for (int i = 1; i < N; ++i) r = r * x + c[i];
  return r;
}

// Cephes' airy (see the top of the file): Ai, Ai', Bi, Bi' of real x.
CSF_NOINLINE void cephes_airy(double x, double& ai, double& aip, double& bi, double& bip) {
  double z, zz, t, f, g, uf, ug, k, zeta, theta;
  int domflg = 0;
  if (x > maxairy) {
    ai = 0;
    aip = 0;
    bi = lim<double>::inf();
    bip = lim<double>::inf();
    return;
  }
  if (x < -2.09) {
    t = sqrt(-x);
    zeta = -2.0 * x * t / 3.0;
    t = sqrt(t);
    k = sqrt1opi / t;
    z = 1.0 / zeta;
    zz = z * z;
    uf = 1.0 + zz * polevl<8>(zz, AFN) / p1evl<9>(zz, AFD);
    ug = z * polevl<10>(zz, AGN) / p1evl<10>(zz, AGD);
    theta = zeta + 0.25 * k_pi;
    f = sin(theta);
    g = cos(theta);
    ai = k * (f * uf - g * ug);
    bi = k * (g * uf + f * ug);
    uf = 1.0 + zz * polevl<8>(zz, APFN) / p1evl<9>(zz, APFD);
    ug = z * polevl<10>(zz, APGN) / p1evl<10>(zz, APGD);
    k = sqrt1opi * t;
    aip = -k * (g * uf + f * ug);
    bip = k * (f * uf - g * ug);
    return;
  }
  if (x >= 2.09) { /* cbrt(9) */
    domflg = 5;
    t = sqrt(x);
    zeta = 2.0 * x * t / 3.0;
    g = exp(zeta);
    t = sqrt(t);
    k = 2.0 * t * g;
    z = 1.0 / zeta;
    f = polevl<7>(z, AN) / polevl<7>(z, AD);
    ai = sqrt1opi * f / k;
    k = -0.5 * sqrt1opi * t / g;
    f = polevl<7>(z, APN) / polevl<7>(z, APD);
    aip = f * k;
    if (x > 8.3203353) { /* zeta > 16 */
      f = z * polevl<4>(z, BN16) / p1evl<5>(z, BD16);
      k = sqrt1opi * g;
      bi = k * (1.0 + f) / t;
      f = z * polevl<4>(z, BPPN) / p1evl<5>(z, BPPD);
      bip = k * t * (1.0 + f);
      return;
    }
  }
  f = 1.0;
  g = x;
  t = 1.0;
  uf = 1.0;
  ug = x;
  k = 1.0;
  z = x * x * x;
  while (t > machep) {
    uf *= z;
    k += 1.0;
    uf /= k;
    ug *= z;
    k += 1.0;
    ug /= k;
    uf /= k;
    f += uf;
    k += 1.0;
    ug /= k;
    g += ug;
    t = fabs(uf / f);
  }
  uf = c1 * f;
  ug = c2 * g;
  if ((domflg & 1) == 0) ai = uf - ug;
  if ((domflg & 2) == 0) bi = sqrt3 * (uf + ug);
  // the derivative of ai
  k = 4.0;
  uf = x * x / 2.0;
  ug = z / 3.0;
  f = uf;
  g = 1.0 + ug;
  uf /= 3.0;
  t = 1.0;
  while (t > machep) {
    uf *= z;
    ug /= k;
    k += 1.0;
    ug *= z;
    uf /= k;
    f += uf;
    k += 1.0;
    ug /= k;
    uf /= k;
    g += ug;
    k += 1.0;
    t = fabs(ug / g);
  }
  uf = c1 * f;
  ug = c2 * g;
  if ((domflg & 4) == 0) aip = uf - ug;
  if ((domflg & 8) == 0) bip = sqrt3 * (uf + ug);
}

// AMOS's four values at z (kode 1: Ai, Ai', Bi, Bi'; kode 2: scaled by e^zeta, e^-|Re zeta|),
// each NaN on AMOS's error codes, as xsf's airy/airye (AMOS's nz, the underflow count, is reset
// to 0 before biry, which has none).
CSF_NOINLINE void amos_airy(amos::zcx z, int kode, amos::zcx& ai, amos::zcx& aip, amos::zcx& bi, amos::zcx& bip) {
  int nz = 0, ierr = 0;
  ai = amos::airy(z, 0, kode, &nz, &ierr);
  cbessel::nan_on_error(nz, ierr, ai);
  bi = amos::biry(z, 0, kode, &ierr);
  cbessel::nan_on_error(0, ierr, bi);
  aip = amos::airy(z, 1, kode, &nz, &ierr);
  cbessel::nan_on_error(nz, ierr, aip);
  bip = amos::biry(z, 1, kode, &ierr);
  cbessel::nan_on_error(0, ierr, bip);
}

// xsf's airy for real x: Cephes within [-10, 10], AMOS's real parts outside (and for NaN: Cephes'
// series, NaN throughout).
CSF_FN void airy_real(double x, double& ai, double& aip, double& bi, double& bip) {
  if (x < -10 || x > 10) {
    amos::zcx a, ap, b, bp;
    amos_airy(amos::zcx(x, 0.0), 1, a, ap, b, bp);
    ai = a.re; aip = ap.re; bi = b.re; bip = bp.re;
  } else {
    cephes_airy(x, ai, aip, bi, bip);
  }
}

// xsf's airye for real x: AMOS scaled; Ai, Ai' NaN for x < 0.
CSF_FN void airye_real(double x, double& ai, double& aip, double& bi, double& bip) {
  amos::zcx a, ap, b, bp;
  amos_airy(amos::zcx(x, 0.0), 2, a, ap, b, bp);
  ai = x < 0 ? lim<double>::nan() : a.re;
  aip = x < 0 ? lim<double>::nan() : ap.re;
  bi = b.re;
  bip = bp.re;
}

}  // namespace airy_detail

// The ufunc rows' entry points: out0 is the return value, out1..out3 by reference (Ai', Bi, Bi').
template <typename T> CSF_FN T airy_ufunc(double x, T& aip, T& bi, T& bip) {
  double a, ap, b, bp;
  airy_detail::airy_real(x, a, ap, b, bp);
  aip = T(ap); bi = T(b); bip = T(bp);
  return T(a);
}
template <typename T> CSF_FN T airye_ufunc(double x, T& aip, T& bi, T& bip) {
  double a, ap, b, bp;
  airy_detail::airye_real(x, a, ap, b, bp);
  aip = T(ap); bi = T(b); bip = T(bp);
  return T(a);
}
template <typename C> CSF_FN C airy_kode_c(const C& z, int kode, C& aip, C& bi, C& bip) {
  amos::zcx a, ap, b, bp;
  airy_detail::amos_airy(amos::zcx((double)z.real(), (double)z.imag()), kode, a, ap, b, bp);
  aip = C(ap.re, ap.im); bi = C(b.re, b.im); bip = C(bp.re, bp.im);
  return C(a.re, a.im);
}
template <typename C> CSF_FN C airy_c(const C& z, C& aip, C& bi, C& bip) { return airy_kode_c(z, 1, aip, bi, bip); }
template <typename C> CSF_FN C airye_c(const C& z, C& aip, C& bi, C& bip) { return airy_kode_c(z, 2, aip, bi, bip); }

}  // namespace cuarray_special
#endif
