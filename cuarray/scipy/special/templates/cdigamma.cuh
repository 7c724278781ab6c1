// The complex loop of cuarray.scipy.special's psi (digamma), 'D->D' (complex64 computed in
// complex128, as SciPy's). The algorithm is SciPy's (xsf's digamma.h, J. Wilson's, after DLMF 5
// and mpmath): Taylor series about the two roots nearest the origin, one step of the recurrence
// psi(z) = psi(z + 1) - 1/z away from the pole at 0, the reflection psi(z) = psi(1 - z) - pi cot(pi z)
// within 16 of the negative real axis, the asymptotic series (DLMF 5.11.2) for |z| > 16, and the
// recurrence up (or down) to |z| > 16 between. The roots' series take their Hurwitz zeta
// coefficients from a table (scripts/special/digamma_root_series.py, mpmath at SciPy's roots)
// where SciPy computes each with Cephes' zeta at run time.
//
// Non-finite z follow SciPy 1.17 and 1.18 (whose xsf predates xsf#157's guard, which makes them
// NaN): where the dispatch reaches the asymptotic series, log z (psi(1 + inf j) = inf + pi/2 j);
// in the reflection's strip (-inf + 2j) and for NaN, NaN.
#ifndef CUARRAY_SPECIAL_CDIGAMMA_CUH
#define CUARRAY_SPECIAL_CDIGAMMA_CUH
namespace cuarray_special {

// Tables read by every thread at the same index: constant memory on the device.
#ifdef CSF_DEVICE
#define CSF_DIGAMMA_TABLE __constant__ const double
#else
#define CSF_DIGAMMA_TABLE static const double
#endif
// zeta(n + 1, r), n = 1, 2, ..., at r = the positive root 1.4616321449683622 of digamma
CSF_DIGAMMA_TABLE k_digamma_pos_zeta[39] = {
    0.9676722454476212, 0.4427631689835922, 0.2584997609556511, 0.16394270544240658, 0.10782405069126241,
    0.07219956125645474, 0.04880428816414313, 0.033161126474847376, 0.022597648232218118, 0.01542476590494897,
    0.010538791616612184, 0.007204534386356875, 0.004926781395729858, 0.0033698016554393312,
    0.00230512632673493, 0.001576936771430199, 0.0010788252019162978, 0.000738070938996006,
    0.0005049532658346027, 0.0003454680251063082, 0.00023635601564027086, 0.00016170622091974827,
    0.00011063372768747428, 7.569179582195078e-05, 5.17857579522209e-05, 3.543007094765967e-05,
    2.4240066118601362e-05, 1.6584242271854165e-05, 1.1346384584663872e-05, 7.76281766846211e-06,
    5.3110609208898746e-06, 3.6336507898010536e-06, 2.4860227331295433e-06, 1.7008538854332646e-06,
    1.163667536354887e-06, 7.96142543124199e-07, 5.446941930669458e-07, 3.726616128343832e-07,
    2.549626552021561e-07};
// and at the negative root -0.5040830082644554
CSF_DIGAMMA_TABLE k_digamma_neg_zeta[82] = {
    8.939798558792134, 0.8093454625306499, 32.258572064915505, 2.7610116487908227, 128.27342343090902,
    14.706721735530332, 513.2704629562861, 75.37700066344615, 2055.5357119463315, 368.5783503832184,
    8234.667099203069, 1743.3646088673593, 32997.785655255044, 8051.818155363481, 132262.95480834588,
    36529.945969485576, 530280.3912420176, 163451.7934270022, 2126602.372596875, 723318.8861804291,
    8530604.878543982, 3172131.31557447, 34228316.69580112, 13807481.99726386, 137373435.87411496,
    59721085.41129418, 551481251.8585448, 256915093.7987531, 2214464568.0139103, 1100067148.9416316,
    8894384049.698204, 4691108165.464198, 35733149689.1997, 19932951831.31558, 143593265361.61185,
    84427777205.99568, 577169303800.4994, 356587583747.61273, 2320479554068.252, 1502246808129.2224,
    9331609972791.018, 6314216613755.217, 37535190870239.27, 26484684511361.957, 151015931286965.84,
    110878926240539.7, 607726007220707.0, 463397408554349.8, 2446203594688412.5, 1933621531448282.8,
    9848631064699276.0, 8056719714934248.0, 3.966033418706299e+16, 3.352458218519522e+16,
    1.5974703846095734e+17, 1.3932560733139752e+17, 6.435820112041242e+17, 5.783630021481716e+17,
    2.5933926695029007e+18, 2.398322687545823e+18, 1.0452606668648067e+19, 9.935377914500428e+18,
    4.2137766423157514e+19, 4.112064452831596e+19, 1.6990556309721845e+20, 1.7004372382577053e+20,
    6.8522226506873e+20, 7.026038929889101e+20, 2.764023275935674e+21, 2.900893253646807e+21,
    1.115159170357447e+22, 1.196862745715766e+22, 4.5000311645821485e+22, 4.9347693676470485e+22,
    1.816252543790399e+23, 2.0333695330919317e+23, 7.331917212319315e+23, 8.373526739745053e+23,
    2.9603156332049827e+24, 3.4463364563646236e+24, 1.19546310752253e+25, 1.4176778047087605e+25};

// psi(r + w) = psi(r) + sum_{n >= 1} (-1)^(n+1) zeta(n + 1, r) w^n about the positive root (Pos)
// or the negative one, to a term below eps of the sum.
template <bool Pos>
CSF_FN cdouble cdigamma_root_series(cdouble z) {
  const double root = Pos ? 1.4616321449683622 : -0.504083008264455409;
  const double rootval = Pos ? -9.2412655217294275e-17 : 7.2897639029768949e-17;
  const int n = Pos ? 39 : 82;
  const cdouble w = z - root;
  cdouble res = cd(rootval, 0.0), coeff = cd(-1.0, 0.0);
  for (int k = 0; k < n; ++k) {
    coeff = coeff * (-w);
    const cdouble term = coeff * (Pos ? k_digamma_pos_zeta[k] : k_digamma_neg_zeta[k]);
    res = res + term;
    if (cabs(term) < 2.220446049250313e-16 * cabs(res)) break;
  }
  return res;
}

// log z - 1/(2z) - sum_k B_2k / (2k z^2k) (DLMF 5.11.2), to a term below eps of the sum.
CSF_FN cdouble cdigamma_asymptotic(cdouble z) {
  if (!isfinite(z.re) || !isfinite(z.im)) return clog(z);
  const double b2k[16] = {0.166666666666666667,   -0.0333333333333333333, 0.0238095238095238095,
                          -0.0333333333333333333, 0.0757575757575757576,  -0.253113553113553114,
                          1.16666666666666667,    -7.09215686274509804,   54.9711779448621554,
                          -529.124242424242424,   6192.12318840579710,    -86580.2531135531136,
                          1425517.16666666667,    -27298231.0678160920,   601580873.900642368,
                          -15116315767.0921569};
  const cdouble rzz = cd(1.0, 0.0) / z / z;
  cdouble zfac = cd(1.0, 0.0);
  cdouble res = clog(z) - 0.5 / z;
  for (int k = 1; k < 17; ++k) {
    zfac = zfac * rzz;
    const cdouble term = (-b2k[k - 1] * zfac) / (2.0 * k);
    res = res + term;
    if (cabs(term) < 2.220446049250313e-16 * cabs(res)) break;
  }
  return res;
}

CSF_NOINLINE cdouble cdigamma(cdouble z) {
  const double posroot = 1.4616321449683622, negroot = -0.504083008264455409;
  if (!isfinite(z.re) || !isfinite(z.im)) {
    // SciPy's dispatch on |z| = inf: the reflection's strip (NaN from cot(pi z)), else 0 + log z
    if (isnan(z.re) && isnan(z.im)) return cd(lim<double>::nan(), lim<double>::nan());
    if ((isinf(z.re) || isinf(z.im)) && !(z.re < 0 && fabs(z.im) < 16.0)) return cd(0.0, 0.0) + clog(z);
    return cd(lim<double>::nan(), lim<double>::nan());
  }
  if (z.re <= 0.0 && z.im == 0.0 && ceil(z.re) == z.re) return cd(lim<double>::nan(), lim<double>::nan());
  if (cabs(z - negroot) < 0.3) return cdigamma_root_series<false>(z);
  cdouble res = cd(0.0, 0.0);
  double absz = cabs(z);
  if (z.re < 0 && fabs(z.im) < 16.0) {
    // -pi cot(pi z); |pi Im z| < 51, so cosh and sinh do not overflow
    const double sx = sinpi(z.re), cx = cospi(z.re), ch = cosh(k_pi * z.im), sh = sinh(k_pi * z.im);
    res = (-k_pi * cd(cx * ch, -sx * sh)) / cd(sx * ch, cx * sh);
    z = 1.0 - z;
    absz = cabs(z);
  }
  if (absz < 0.5) {
    res = -(cd(1.0, 0.0) / z);
    z = z + 1.0;
    absz = cabs(z);
  }
  if (cabs(z - posroot) < 0.5) {
    res = res + cdigamma_root_series<true>(z);
  } else if (absz > 16.0) {
    res = res + cdigamma_asymptotic(z);
  } else if (z.re >= 0.0) {
    const int n = int(trunc(16.0 - absz)) + 1;  // down from z + n
    const cdouble zn = z + double(n);
    cdouble r = cdigamma_asymptotic(zn);
    for (int k = 1; k <= n; ++k) r = r - cd(1.0, 0.0) / (zn - double(k));
    res = res + r;
  } else {
    const int n = int(trunc(16.0 - absz)) - 1;  // up from z - n
    const cdouble zn = z - double(n);
    cdouble r = cdigamma_asymptotic(zn);
    for (int k = 0; k < n; ++k) r = r + cd(1.0, 0.0) / (zn + double(k));
    res = res + r;
  }
  return res;
}

template <typename C> CSF_FN C psi_c(const C& z) { return from_cd<C>(cdigamma(to_cd(z))); }

}  // namespace cuarray_special
#endif
