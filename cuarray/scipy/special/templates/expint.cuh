// Exponential integrals of cuarray.scipy.special: exp1 (E1), expi (Ei), expn (E_n), sici
// (Si, Ci) and shichi (Shi, Chi), real arguments.
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
  return legendre_gamma_cf(0.0, x) * exp(-x);
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

// E_n(x) for integer n >= 0 (Cephes expn.c's cases; n truncated as SciPy's loops cast it to an
// int): E_0 = e^-x / x; for x > 1 the continued fraction
// E_n(x) = e^-x (1/(x + n - 1 n/(x + n + 2 - 2(n+1)/(x + n + 4 - ...)))) (A&S 5.1.22, Lentz);
// for x <= 1 the series (A&S 5.1.12) (-x)^(n-1)/(n-1)! (psi(n) - ln x) - sum_{k != n-1}
// (-x)^k / ((k - n + 1) k!).
CSF_FN double expn(double n, double x) {
  if (isnan(n) || isnan(x)) return lim<double>::nan();
  if (!(fabs(n) < 2147483648.0)) return lim<double>::nan();
  n = trunc(n);
  if (n < 0 || x < 0) return lim<double>::nan();
  if (x == 0) return n < 2 ? lim<double>::inf() : 1.0 / (n - 1.0);
  if (isinf(x)) return 0.0;
  if (n == 0) return exp(-x) / x;
  if (x > 1.0) {
    if (x > 745.2) return 0.0;
    const double tiny = 1e-300;
    double b = x + n, c = 1.0 / tiny, d = 1.0 / b, h = d;
    for (int i = 1; i < 100000; ++i) {
      const double an = -i * (n - 1.0 + i);
      b += 2.0;
      d = 1.0 / (an * d + b);
      c = b + an / c;
      const double del = c * d;
      h *= del;
      if (fabs(del - 1.0) < 1e-16) break;
    }
    return h * exp(-x);
  }
  const double nm1 = n - 1.0;
  double ans = nm1 != 0.0 ? 1.0 / nm1 : -log(x) - k_euler;
  double fact = 1.0;
  for (int i = 1; i < 1000; ++i) {
    fact *= -x / i;
    double del;
    if (i != int(nm1)) {
      del = -fact / (i - nm1);
    } else {
      double ps = -k_euler;
      for (int k = 1; k <= int(nm1); ++k) ps += 1.0 / k;
      del = fact * (-log(x) + ps);
    }
    ans += del;
    if (fabs(del) < fabs(ans) * 1e-17 && i > int(nm1)) break;
  }
  return ans;
}

// Si(x) and Ci(x) (SciPy's sici for real x: Ci of |x|, Si odd). |x| <= 4: their power series
// (A&S 5.2.14, 5.2.16); beyond, E1(ix) by its complex continued fraction
// 1/(1 + ix - 1/(3 + ix - 4/(5 + ix - ...))) (A&S 5.1.22, Lentz), Ci = -Re, Si = pi/2 + Im of
// E1(ix) e^{ix}... (the form of Press et al.'s cisi).
CSF_FN void sici(double x, double& si, double& ci) {
  if (isnan(x)) { si = ci = x; return; }
  const double ax = fabs(x);
  if (ax == 0) { si = x; ci = -lim<double>::inf(); return; }
  if (isinf(x)) { si = x > 0 ? 0.5 * k_pi : -0.5 * k_pi; ci = x > 0 ? 0.0 : lim<double>::nan(); return; }
  if (ax > 1e6) {
    // the auxiliary functions' asymptotic series (A&S 5.2.34-35), three terms: f = (1 - 2/x^2
    // + 24/x^4) / x, g = (1 - 6/x^2 + 120/x^4) / x^2; Ci = f sin - g cos, Si = pi/2 - f cos - g sin
    const double z = 1.0 / (ax * ax);
    const double f = (1.0 - z * (2.0 - 24.0 * z)) / ax, g = (1.0 - z * (6.0 - 120.0 * z)) * z;
    const double sn = sin(ax), cs = cos(ax);
    ci = f * sn - g * cs;
    const double s = 0.5 * k_pi - f * cs - g * sn;
    si = x < 0 ? -s : s;
    return;
  }
  if (ax <= 4.0) {
    const double x2 = ax * ax;
    double t = ax, s = ax, c = 0.0, tc = 1.0;
    for (int k = 1; k < 60; ++k) {
      tc *= -x2 / ((2.0 * k - 1.0) * (2.0 * k));       // (-1)^k x^2k / (2k)!
      const double cterm = tc / (2.0 * k);
      c += cterm;
      t *= -x2 / ((2.0 * k) * (2.0 * k + 1.0));        // (-1)^k x^(2k+1) / (2k+1)!
      const double sterm = t / (2.0 * k + 1.0);
      s += sterm;
      if (fabs(sterm) < 1e-17 * fabs(s) && fabs(cterm) < 1e-18) break;
    }
    si = x < 0 ? -s : s;
    ci = k_euler + log(ax) + c;
    return;
  }
  // complex Lentz on b_k = (2k - 1) + i x, a_k = -(k - 1)^2
  double br = 1.0, bi = ax;
  double cr = 1e300, ci_ = 0.0;
  double den = br * br + bi * bi;
  double dr = br / den, di = -bi / den;  // d = 1/b
  double hr = dr, hi = di;
  for (int i = 2; i < 100000; ++i) {
    const double a = -(i - 1.0) * (i - 1.0);
    br += 2.0;
    // d = 1 / (a d + b)
    double tr = a * dr + br, ti = a * di + bi;
    den = tr * tr + ti * ti;
    dr = tr / den; di = -ti / den;
    // c = b + a / c
    den = cr * cr + ci_ * ci_;
    const double qr = a * cr / den, qi = -a * ci_ / den;
    cr = br + qr; ci_ = bi + qi;
    // del = c d
    const double er = cr * dr - ci_ * di, ei = cr * di + ci_ * dr;
    const double nhr = hr * er - hi * ei, nhi = hr * ei + hi * er;
    hr = nhr; hi = nhi;
    if (fabs(er - 1.0) + fabs(ei) < 1e-16) break;
  }
  // h (cos x - i sin x)
  const double cs = cos(ax), sn = sin(ax);
  const double fr = hr * cs + hi * sn, fi = hi * cs - hr * sn;
  ci = -fr;
  const double s = 0.5 * k_pi + fi;
  si = x < 0 ? -s : s;
}

// Shi(x) and Chi(x) (SciPy's shichi for real x: Chi of |x|, Shi odd). |x| <= 8 (and small x):
// their series of positive terms (A&S 5.2.19-20); beyond, Shi = (Ei + E1)/2, Chi = (Ei - E1)/2.
CSF_FN void shichi(double x, double& shi, double& chi) {
  if (isnan(x)) { shi = chi = x; return; }
  const double ax = fabs(x);
  if (ax == 0) { shi = x; chi = -lim<double>::inf(); return; }
  if (isinf(x)) { shi = x; chi = lim<double>::inf(); return; }
  double s, c;
  if (ax <= 8.0) {
    const double x2 = ax * ax;
    double t = ax, tc = 1.0;
    s = ax; c = 0.0;
    for (int k = 1; k < 200; ++k) {
      tc *= x2 / ((2.0 * k - 1.0) * (2.0 * k));
      const double cterm = tc / (2.0 * k);
      c += cterm;
      t *= x2 / ((2.0 * k) * (2.0 * k + 1.0));
      const double sterm = t / (2.0 * k + 1.0);
      s += sterm;
      if (sterm < 1e-17 * s && cterm < 1e-17 * c) break;
    }
    c += k_euler + log(ax);
  } else {
    const double ei = expi(ax), e1 = exp1(ax);
    s = 0.5 * (ei + e1);
    c = 0.5 * (ei - e1);
  }
  shi = x < 0 ? -s : s;
  chi = c;
}

// The ufunc forms (first output returned, second through a reference of the loop's type).
template <typename T>
CSF_FN T sici_ufunc(double x, T& ci) { double s, c; sici(x, s, c); ci = T(c); return T(s); }
template <typename T>
CSF_FN T shichi_ufunc(double x, T& chi) { double s, c; shichi(x, s, c); chi = T(c); return T(s); }

}  // namespace cuarray_special
#endif
