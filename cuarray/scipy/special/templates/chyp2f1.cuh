// The complex loops of cuarray.scipy.special's hyp2f1: Gauss's 2F1(a, b; c; z) for real a, b, c and
// complex z ('dddD->D', 'fffF->F'; complex64 computed in complex128, as SciPy's). The algorithm is
// SciPy's (xsf's hyp2f1.h, A. Steinbach's C++ of Zhang & Jin's HYGFZ with SciPy's corrections):
// the special values (a or b = 0, z = 0, the poles at c a non-positive integer, the polynomials of
// a negative integer a or b, Kummer's and Gauss's sums at z = -1 and 1, the Euler-transformed
// polynomials of a negative integer c - a or c - b); the Maclaurin series for |z| < 0.9, Re z >= 0
// (Euler's transformation first where it shrinks a and b); Lopez & Temme's series for
// 0.9 <= |z| < 1.1, |1 - z| >= 0.9, Re z >= 0; the z/(z - 1) transformation for |z| < 1.1, Re z < 0;
// the 1 - z transformation for 0.9 <= |z| < 1.1 (its limit where c - a - b is an integer); the 1/z
// transformation beyond (its limit where a - b is an integer). Series run to a term below 1e-15
// of the sum, at most 3000 terms (NaN if they do not get there). NaN arguments give NaN, as SciPy
// 1.18 (1.17 followed the special values with a NaN among the others).
//
// The ratios of four Gamma functions are xsf's four_gammas (Lanczos' approximation with the largest
// factor absorbed, SciPy's from Boost); Gamma, 1/Gamma, log|Gamma|, digamma and Pochhammer are
// this package's real functions (templates/gamma.cuh, beta.cuh), not Cephes', so values differ
// from SciPy's in the last bits, more where a transformation's two terms cancel.
#ifndef CUARRAY_SPECIAL_CHYP2F1_CUH
#define CUARRAY_SPECIAL_CHYP2F1_CUH
namespace cuarray_special {

constexpr double k_ch2f1_eps = 1e-15;
constexpr int k_ch2f1_maxiter = 3000;

// The real functions the transformations call, out of line: each is inlined code of some size
// (psi, tgamma, poch) that the generators below would otherwise copy a dozen times into one
// function (NVRTC took 28-41 s for a loop).
CSF_NOINLINE double h2f1_psi(double x) { return psi(x); }
CSF_NOINLINE double h2f1_gamma(double x) { return gamma(x); }
CSF_NOINLINE double h2f1_rgamma(double x) { return rgamma(x); }
CSF_NOINLINE double h2f1_poch(double a, double m) { return poch(a, m); }
CSF_NOINLINE double h2f1_binom(double n, double k) { return binom(n, k); }

// Cephes' lanczos_sum_expg_scaled: the Lanczos sum over e^g (g = 6.0246800407767296), as a
// rational function (Cephes' ratevl: in 1/x beyond |x| = 1).
CSF_FN double lanczos_sum_expg_scaled(double x) {
  const double num[13] = {0.006061842346248906525783753964555936883222, 0.5098416655656676188125178644804694509993,
                          19.51992788247617482847860966235652136208,    449.9445569063168119446858607650988409623,
                          6955.999602515376140356310115515198987526,    75999.29304014542649875303443598909137092,
                          601859.6171681098786670226533699352302507,    3481712.15498064590882071018964774556468,
                          14605578.08768506808414169982791359218571,    43338889.32467613834773723740590533316085,
                          86363131.28813859145546927288977868422342,    103794043.1163445451906271053616070238554,
                          56906521.91347156388090791033559122686859};
  const double den[13] = {1,         66,        1925,     32670,    357423, 2637558, 13339535,
                          45995730,  105258076, 150917976, 120543840, 39916800, 0};
  double n, d;
  if (fabs(x) > 1) {
    const double y = 1 / x;
    n = num[12];
    d = den[12];
    for (int i = 11; i >= 0; --i) {
      n = n * y + num[i];
      d = d * y + den[i];
    }
  } else {
    n = num[0];
    d = den[0];
    for (int i = 1; i <= 12; ++i) {
      n = n * x + num[i];
      d = d * x + den[i];
    }
  }
  return n / d;
}

// Gamma(u) Gamma(v) / (Gamma(w) Gamma(x)) with x = u + v - w, |u| >= |v|, |w| >= |x|, by Lanczos'
// approximation, the largest factor ((t + g - 1/2)/e)^(t - 1/2) absorbed into the others.
CSF_NOINLINE double four_gammas_lanczos(double u, double v, double w, double x) {
  const double g = 6.024680040776729583740234375, pi = 3.141592653589793, one_pi = 0.3183098861837907;
  if ((u == trunc(u) && u <= 0) || (v == trunc(v) && v <= 0)) return lim<double>::nan();
  if ((w == trunc(w) && w <= 0) || (x == trunc(x) && x <= 0)) return 0.0;
  double result = 1.0, ugh, vgh, wgh, xgh, up, vp, wp, xp;
  if (u >= 0.5) {
    result *= lanczos_sum_expg_scaled(u);
    ugh = u + g - 0.5;
    up = u;
  } else {
    result /= lanczos_sum_expg_scaled(1 - u) * sin(pi * u) * one_pi;
    ugh = 0.5 - u + g;
    up = 1 - u;
  }
  if (v >= 0.5) {
    result *= lanczos_sum_expg_scaled(v);
    vgh = v + g - 0.5;
    vp = v;
  } else {
    result /= lanczos_sum_expg_scaled(1 - v) * sin(pi * v) * one_pi;
    vgh = 0.5 - v + g;
    vp = 1 - v;
  }
  if (w >= 0.5) {
    result /= lanczos_sum_expg_scaled(w);
    wgh = w + g - 0.5;
    wp = w;
  } else {
    result *= lanczos_sum_expg_scaled(1 - w) * sin(pi * w) * one_pi;
    wgh = 0.5 - w + g;
    wp = 1 - w;
  }
  if (x >= 0.5) {
    result /= lanczos_sum_expg_scaled(x);
    xgh = x + g - 0.5;
    xp = x;
  } else {
    result *= lanczos_sum_expg_scaled(1 - x) * sin(pi * x) * one_pi;
    xgh = 0.5 - x + g;
    xp = 1 - x;
  }
  // base^(e - 1/2) as exp((e - 1/2) log1p(d / h)) where the base is near 1 (Boost's beta's rule)
  if (fabs(u) >= fabs(w)) {
    result *= (fabs((vp - up) * (v - 0.5)) < 100 * ugh && v > 100) ? exp((v - 0.5) * log1p((vp - up) / ugh))
                                                                   : pow(vgh / ugh, v - 0.5);
    result *= (fabs((up - wp) * (w - 0.5)) < 100 * wgh && u > 100) ? exp((w - 0.5) * log1p((up - wp) / wgh))
                                                                   : pow(ugh / wgh, w - 0.5);
    result *= (fabs((up - xp) * (x - 0.5)) < 100 * xgh && u > 100) ? exp((x - 0.5) * log1p((up - xp) / xgh))
                                                                   : pow(ugh / xgh, x - 0.5);
  } else {
    result *= (fabs((up - wp) * (u - 0.5)) < 100 * wgh && u > 100) ? exp((u - 0.5) * log1p((up - wp) / wgh))
                                                                   : pow(ugh / wgh, u - 0.5);
    result *= (fabs((vp - wp) * (v - 0.5)) < 100 * wgh && v > 100) ? exp((v - 0.5) * log1p((vp - wp) / wgh))
                                                                   : pow(vgh / wgh, v - 0.5);
    result *= (fabs((wp - xp) * (x - 0.5)) < 100 * xgh && x > 100) ? exp((x - 0.5) * log1p((wp - xp) / xgh))
                                                                   : pow(wgh / xgh, x - 0.5);
  }
  return result;
}

// Gamma(u) Gamma(v) / (Gamma(w) Gamma(x)), x = u + v - w: the direct product for arguments up to
// 100, else Lanczos', else in logs.
CSF_NOINLINE double four_gammas(double u, double v, double w, double x) {
  if (fabs(v) > fabs(u)) { const double t = u; u = v; v = t; }
  if (fabs(x) > fabs(w)) { const double t = x; x = w; w = t; }
  double result;
  if (fabs(u) <= 100 && fabs(v) <= 100 && fabs(w) <= 100 && fabs(x) <= 100) {
    result = h2f1_gamma(u) * h2f1_gamma(v) * (h2f1_rgamma(w) * h2f1_rgamma(x));
    if (isfinite(result) && result != 0.0) return result;
  }
  result = four_gammas_lanczos(u, v, w, x);
  if (isfinite(result) && result != 0.0) return result;
  result = exp(gammaln(v) - gammaln(x) + gammaln(u) - gammaln(w));
  return result * gammasgn(u) * gammasgn(w) * gammasgn(v) * gammasgn(x);
}

// The generators of xsf's series, each term by term; h2f1_sum adds them to a term below 1e-15 of
// the sum (NaN after 3000), h2f1_sum_n a fixed number of them. Both take the generator by value: by
// reference into an out-of-line function, every branch's generator had its own slot in the
// kernel's local frame (1192 bytes a thread, 360 by value).
struct H2f1Series {  // the Maclaurin series of 2F1(a, b; c; z)
  double a, b, c;
  cdouble z, term;
  double k;
  CSF_FN H2f1Series(double a_, double b_, double c_, cdouble z_)
      : a(a_), b(b_), c(c_), z(z_), term(cd(1.0, 0.0)), k(0) {}
  CSF_FN cdouble operator()() {
    const cdouble out = term;
    term = term * (a + k) * (b + k) / ((k + 1) * (c + k)) * z;
    k += 1;
    return out;
  }
};

struct H2f1Transform1 {  // the 1 - z transformation's two series (DLMF 15.8.4)
  cdouble f1, f2;
  H2f1Series g1, g2;
  CSF_FN H2f1Transform1(double a, double b, double c, cdouble z)
      : f1(cd(four_gammas(c, c - a - b, c - a, c - b), 0.0)),
        f2(four_gammas(c, a + b - c, a, b) * cpow_real(1.0 - z, c - a - b)),
        g1(a, b, a + b - c + 1, 1.0 - z), g2(c - a, c - b, c - a - b + 1, 1.0 - z) {}
  CSF_FN cdouble operator()() { return f1 * g1() + f2 * g2(); }
};

struct H2f1Transform1Limit {  // the 1 - z transformation as c - a - b tends to the integer m
  double d1, d2, d3, d4, a, b, m;
  cdouble z, log_1_z, factor;
  double k;
  CSF_FN H2f1Transform1Limit(double a_, double b_, double m_, cdouble z_)
      : d1(h2f1_psi(a_)), d2(h2f1_psi(b_)), d3(h2f1_psi(1 + m_)), d4(h2f1_psi(1.0)), a(a_), b(b_), m(m_), z(z_),
        log_1_z(clog(1.0 - z_)), factor(cd(h2f1_rgamma(m_ + 1), 0.0)), k(0) {}
  CSF_FN cdouble operator()() {
    const cdouble term = (d1 + d2 - d3 - d4 + log_1_z) * factor;
    d1 += 1 / (a + k);
    d2 += 1 / (b + k);
    d3 += 1 / (1.0 + m + k);
    d4 += 1 / (1.0 + k);
    factor = factor * ((a + k) * (b + k) / ((k + 1.0) * (m + k + 1)) * (1.0 - z));
    k += 1;
    return term;
  }
};

struct H2f1Transform2 {  // the 1/z transformation's two series (DLMF 15.8.2)
  cdouble f1, f2;
  H2f1Series g1, g2;
  CSF_FN H2f1Transform2(double a, double b, double c, cdouble z)
      : f1(four_gammas(c, b - a, b, c - a) * cpow_real(-z, -a)),
        f2(four_gammas(c, a - b, a, c - b) * cpow_real(-z, -b)),
        g1(a, a - c + 1, a - b + 1, 1.0 / z), g2(b, b - c + 1, b - a + 1, 1.0 / z) {}
  CSF_FN cdouble operator()() { return f1 * g1() + f2 * g2(); }
};

struct H2f1Transform2Limit {  // the 1/z transformation as a - b tends to the integer m >= 0
  double d1, d2, d3, d4, a, b, c, m;
  cdouble z, log_neg_z, factor;
  double k;
  CSF_FN H2f1Transform2Limit(double a_, double b_, double c_, double m_, cdouble z_)
      : d1(h2f1_psi(1.0)), d2(h2f1_psi(1 + m_)), d3(h2f1_psi(a_)), d4(h2f1_psi(c_ - a_)), a(a_), b(b_), c(c_),
        m(m_), z(z_), log_neg_z(clog(-z_)),
        factor(cd(h2f1_poch(b_, m_) * h2f1_poch(1 - c_ + b_, m_) * h2f1_rgamma(m_ + 1), 0.0)), k(0) {}
  CSF_FN cdouble operator()() {
    const cdouble term = (d1 + d2 - d3 - d4 + log_neg_z) * factor;
    d1 += 1 / (1.0 + k);
    d2 += 1 / (1.0 + m + k);
    d3 += 1 / (a + k);
    d4 -= 1 / (c - a - k - 1);
    factor = factor * ((b + m + k) * (1 - c + b + m + k) / ((k + 1) * (m + k + 1)) / z);
    k += 1;
    return term;
  }
};

// ... and c - a tends to the positive integer n too: past k = n the digamma pole's limit
// (xsf's comment derives it: (-1)^(m+n) h2f1_binom(c - 1, b - 1) (c - a + 1)_(m-1) / z^k).
struct H2f1Transform2LimitCminusAInt {
  double d1, d2, d3, d4, a, b, c, m, n;
  cdouble z, log_neg_z, factor;
  double k;
  CSF_FN H2f1Transform2LimitCminusAInt(double a_, double b_, double c_, double m_, double n_, cdouble z_)
      : d1(h2f1_psi(1.0)), d2(h2f1_psi(1 + m_)), d3(h2f1_psi(a_)), d4(h2f1_psi(n_)), a(a_), b(b_), c(c_), m(m_),
        n(n_), z(z_), log_neg_z(clog(-z_)),
        factor(cd(h2f1_poch(b_, m_) * h2f1_poch(1 - c_ + b_, m_) * h2f1_rgamma(m_ + 1), 0.0)), k(0) {}
  CSF_FN cdouble operator()() {
    if (k < n) {
      const cdouble term = (d1 + d2 - d3 - d4 + log_neg_z) * factor;
      d1 += 1 / (1.0 + k);
      d2 += 1 / (1 + m + k);
      d3 += 1 / (a + k);
      d4 -= 1 / (n - k - 1);
      factor = factor * ((b + m + k) * (1 - c + b + m + k) / ((k + 1) * (m + k + 1)) / z);
      k += 1;
      return term;
    }
    if (k == n) factor = (pow(-1.0, m + n) * h2f1_binom(c - 1, b - 1) * h2f1_poch(c - a + 1, m - 1)) / cpow_real(z, k);
    const cdouble term = factor;
    factor = factor * ((b + m + k) * (k + a - c + 1) / ((k + 1) * (m + k + 1)) / z);
    k += 1;
    return term;
  }
};

struct H2f1Transform2LimitFinitePart {  // the finite sum before H2f1Transform2Limit's series
  double b, c, m;
  cdouble z, term;
  double k;
  CSF_FN H2f1Transform2LimitFinitePart(double b_, double c_, double m_, cdouble z_)
      : b(b_), c(c_), m(m_), z(z_), term(cd(h2f1_gamma(m_) * h2f1_rgamma(c_ - b_), 0.0)), k(0) {}
  CSF_FN cdouble operator()() {
    const cdouble out = term;
    term = term * (b + k) * (c - b - k - 1) / ((k + 1) * (m - k - 1)) / z;
    k += 1;
    return out;
  }
};

struct H2f1LopezTemme {  // Lopez & Temme's series, convergent for Re z < 1 (near e^(+-i pi/3) too)
  double n, a, b, c, phi_prev, phi;
  cdouble z, Z;
  CSF_FN H2f1LopezTemme(double a_, double b_, double c_, cdouble z_)
      : n(0), a(a_), b(b_), c(c_), phi_prev(1.0), phi(1 - 2 * b_ / c_), z(z_), Z(a_ * z_ / (z_ - 2.0)) {}
  CSF_FN cdouble operator()() {
    if (n == 0) {
      n = 1;
      return cd(1.0, 0.0);
    }
    if (n > 1) {
      const double new_phi = ((n - 1) * phi_prev - (2.0 * b - c) * phi) / (c + (n - 1));
      phi_prev = phi;
      phi = new_phi;
      Z = Z * z / (z - 2.0) * ((a + (n - 1)) / n);
    }
    n += 1;
    return Z * phi;
  }
};

template <typename G> CSF_NOINLINE cdouble h2f1_sum(G g) {
  cdouble result = cd(0.0, 0.0);
  for (int i = 0; i < k_ch2f1_maxiter; ++i) {
    const cdouble term = g();
    result = result + term;
    if (cabs(term) < cabs(result) * k_ch2f1_eps) return result;
  }
  return cd(lim<double>::nan(), lim<double>::nan());
}

template <typename G> CSF_NOINLINE cdouble h2f1_sum_n(G g, double n) {
  cdouble result = cd(0.0, 0.0);
  for (double i = 0; i < n; i += 1) result = result + g();
  return result;
}

// 1 - z transformation where c - a - b tends to the integer m.
CSF_NOINLINE cdouble h2f1_transform1_limit(double a, double b, double c, double m, cdouble z) {
  cdouble result = cd(0.0, 0.0);
  if (m >= 0) {
    if (m != 0) {
      H2f1Series s(a, b, 1 - m, 1.0 - z);
      result = result + four_gammas(m, c, a + m, b + m) * h2f1_sum_n(s, m);
    }
    const cdouble pre = (pow(-1.0, m + 1) * h2f1_gamma(c) / (h2f1_gamma(a) * h2f1_gamma(b))) * cpow_real(1.0 - z, m);
    H2f1Transform1Limit s2(a + m, b + m, m, z);
    return result + pre * h2f1_sum(s2);
  }
  result = four_gammas(-m, c, a, b) * cpow_real(1.0 - z, m);
  H2f1Series s1(a + m, b + m, 1 + m, 1.0 - z);
  result = result * h2f1_sum_n(s1, -m);
  const double pre = pow(-1.0, m + 1) * h2f1_gamma(c) * (h2f1_rgamma(a + m) * h2f1_rgamma(b + m));
  H2f1Transform1Limit s2(a, b, -m, z);
  return result + pre * h2f1_sum(s2);
}

// 1/z transformation where a - b tends to the integer m >= 0.
CSF_NOINLINE cdouble h2f1_transform2_limit(double a, double b, double c, double m, cdouble z) {
  H2f1Transform2LimitFinitePart s1(b, c, m, z);
  cdouble result = (h2f1_gamma(c) * h2f1_rgamma(a)) * cpow_real(-z, -b);
  result = result * h2f1_sum_n(s1, m);
  const cdouble pre = h2f1_gamma(c) * ((h2f1_rgamma(a) * h2f1_rgamma(c - b)) * cpow_real(-z, -a));
  const double n = c - a;
  if (fabs(n - round(n)) < k_ch2f1_eps) {
    H2f1Transform2LimitCminusAInt s2(a, b, c, m, n, z);
    return result + pre * h2f1_sum(s2);
  }
  H2f1Transform2Limit s2(a, b, c, m, z);
  return result + pre * h2f1_sum(s2);
}

CSF_NOINLINE cdouble chyp2f1(double a, double b, double c, cdouble z) {
  const double nan = lim<double>::nan(), inf = lim<double>::inf();
  if (isnan(a) || isnan(b) || isnan(c) || isnan(z.re) || isnan(z.im)) return cd(nan, nan);
  if (a == 0 || b == 0) return cd(1.0, 0.0);
  const double z_abs = cabs(z);
  if (z_abs == 0) return c != 0 ? cd(1.0, 0.0) : cd(nan, 0.0);
  const bool a_neg_int = a == trunc(a) && a < 0, b_neg_int = b == trunc(b) && b < 0;
  const bool c_non_pos_int = c == trunc(c) && c <= 0;
  if (c_non_pos_int && !((a_neg_int && c <= a && a < 0) || (b_neg_int && c <= b && b < 0))) return cd(inf, 0.0);
  if (a_neg_int || b_neg_int) {  // a polynomial: to the smaller degree of the two
    const double deg = a_neg_int && b_neg_int ? (a > b ? fabs(a) : fabs(b)) : (a_neg_int ? fabs(a) : fabs(b));
    if (deg > 1.8446744073709552e19) return cd(nan, nan);
    H2f1Series s(a, b, c, z);
    return h2f1_sum_n(s, deg + 1);
  }
  if (cabs(z + 1.0) < k_ch2f1_eps && fabs(1 + a - b - c) < k_ch2f1_eps && !c_non_pos_int) {
    return cd(four_gammas(a - b + 1, 0.5 * a + 1, a + 1, 0.5 * a - b + 1), 0.0);  // Kummer (DLMF 15.4.26)
  }
  const bool cma_neg_int = c - a == trunc(c - a) && c - a < 0, cmb_neg_int = c - b == trunc(c - b) && c - b < 0;
  if (cma_neg_int || cmb_neg_int) {  // Euler's transformation to a polynomial (DLMF 15.8.1)
    const double deg = cmb_neg_int ? fabs(c - b) : fabs(c - a);
    if (deg > 1.8446744073709552e19) return cd(nan, nan);
    H2f1Series s(c - a, c - b, c, z);
    return cpow_real(1.0 - z, c - a - b) * h2f1_sum_n(s, deg + 2);
  }
  if (fabs(1 - z.re) < k_ch2f1_eps && z.im == 0 && c - a - b <= 0 && !c_non_pos_int) return cd(inf, 0.0);
  if (z.re == 1.0 && z.im == 0.0 && c - a - b > 0 && !c_non_pos_int) {
    return cd(four_gammas(c, c - a - b, c - a, c - b), 0.0);  // Gauss (DLMF 15.4.20)
  }
  if (z_abs < 0.9 && z.re >= 0) {
    if (c - a < a && c - b < b) {
      H2f1Series s(c - a, c - b, c, z);
      return cpow_real(1.0 - z, c - a - b) * h2f1_sum(s);
    }
    H2f1Series s(a, b, c, z);
    return h2f1_sum(s);
  }
  if (0.9 <= z_abs && z_abs < 1.1 && cabs(1.0 - z) >= 0.9 && z.re >= 0) {
    if ((c - a <= a && c - b < b) || (c - a < a && c - b <= b)) {
      H2f1LopezTemme s(c - a, c - b, c, z);
      const cdouble r = cpow_real(1.0 - 0.5 * z, a - c) * h2f1_sum(s);
      return cpow_real(1.0 - z, c - a - b) * r;
    }
    H2f1LopezTemme s(a, b, c, z);
    const cdouble r = h2f1_sum(s);
    return cpow_real(1.0 - 0.5 * z, -a) * r;
  }
  if (z_abs < 1.1 && z.re < 0) {  // z/(z - 1) (DLMF 15.8.1)
    if (0 < b && b < a && a < c) { const double t = a; a = b; b = t; }
    H2f1Series s(a, c - b, c, z / (z - 1.0));
    return cpow_real(1.0 - z, -a) * h2f1_sum(s);
  }
  if (0.9 <= z_abs && z_abs < 1.1) {
    if (fabs(c - a - b - round(c - a - b)) < k_ch2f1_eps) return h2f1_transform1_limit(a, b, c, round(c - a - b), z);
    H2f1Transform1 s(a, b, c, z);
    return h2f1_sum(s);
  }
  if (fabs(a - b - round(a - b)) < k_ch2f1_eps) {
    if (b > a) { const double t = a; a = b; b = t; }
    return h2f1_transform2_limit(a, b, c, round(a - b), z);
  }
  H2f1Transform2 s(a, b, c, z);
  return h2f1_sum(s);
}

template <typename C> CSF_FN C hyp2f1_c(double a, double b, double c, const C& z) {
  return from_cd<C>(chyp2f1(a, b, c, to_cd(z)));
}

}  // namespace cuarray_special
#endif
