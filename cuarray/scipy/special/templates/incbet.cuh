// The regularized incomplete beta function of cuarray.scipy.special, its inverse, and the
// distributions built on them: betainc, betaincinv; bdtr, bdtrc, bdtri (binomial); fdtr, fdtrc,
// fdtri (F); nbdtr, nbdtrc, nbdtri (negative binomial); stdtr, stdtrit (Student's t).
// I_x(a, b) by the continued fraction of A&S 26.5.8 (modified Lentz), on the side of the mean
// where it converges fast (x < (a + 1)/(a + b + 2); the other side by I_x(a, b) = 1 - I_{1-x}(b, a)),
// the algorithm of Cephes' incbet.c (S. L. Moshier) without its power-series branch. The prefactor
// x^a (1-x)^b / B(a, b) is formed for a, b >= 8 through Stirling's formula as
// sqrt(ab / (2 pi (a+b))) exp(a log1pmx(x/x0 - 1) + b log1pmx((1-x)/(1-x0) - 1) + corrections),
// x0 = a/(a+b) (the linear terms cancel exactly), so large a, b keep full accuracy near the mean.
// Float loops compute in double, as SciPy's do.
#ifndef CUARRAY_SPECIAL_INCBET_CUH
#define CUARRAY_SPECIAL_INCBET_CUH
namespace cuarray_special {

// x^a y^b / B(a, b), y = 1 - x given separately (callers that know 1 - x more accurately than
// 1.0 - x pass it: Student's t, the inverse).
CSF_FN double incbet_fac(double a, double b, double x, double y) {
  if (a >= 8.0 && b >= 8.0) {
    const double s = a + b;
    const double e1 = (x * s - a) / a, e2 = (y * s - b) / b;
    // a log(1 + e1) + b log(1 + e2), whose linear parts a e1 + b e2 = 0 cancel exactly.
    double l;
    if (fabs(e1) < 0.5 && fabs(e2) < 0.5) l = a * log1pmx(e1) + b * log1pmx(e2);
    else l = a * log(x * s / a) + b * log(y * s / b);
    return sqrt(a * b / (2.0 * k_pi * s)) * exp(l + stirling_corr(s) - stirling_corr(a) - stirling_corr(b));
  }
  // log x and log y each from the smaller of x, y (log1p(-y) for x near 1: a log x would
  // otherwise carry a times x's rounding, 4e-11 relative at a = 4e5)
  const double lx = x < 0.5 ? log(x) : log1p(-y), ly = y < 0.5 ? log(y) : log1p(-x);
  return exp(a * lx + b * ly - betaln(a, b));
}

// The continued fraction of I_x(a, b) * a B(a, b) / (x^a (1-x)^b) (A&S 26.5.8).
CSF_FN double incbet_cf(double a, double b, double x) {
  const double tiny = 1e-300;
  const double qab = a + b, qap = a + 1.0, qam = a - 1.0;
  double c = 1.0, d = 1.0 - qab * x / qap;
  if (fabs(d) < tiny) d = tiny;
  d = 1.0 / d;
  double h = d;
  for (int m = 1; m < 20000; ++m) {
    const int m2 = 2 * m;
    double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
    d = 1.0 + aa * d;
    if (fabs(d) < tiny) d = tiny;
    c = 1.0 + aa / c;
    if (fabs(c) < tiny) c = tiny;
    d = 1.0 / d;
    h *= d * c;
    aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
    d = 1.0 + aa * d;
    if (fabs(d) < tiny) d = tiny;
    c = 1.0 + aa / c;
    if (fabs(c) < tiny) c = tiny;
    d = 1.0 / d;
    const double del = d * c;
    h *= del;
    if (fabs(del - 1.0) < 1e-16) break;
  }
  return h;
}

// I_x(a, b) by its power series x^a / B(a, b) sum_n (1 - b)_n x^n / (n! (a + n)), which Cephes'
// incbet uses where b x <= 1 and x <= 0.95 (it keeps relative accuracy for tiny b, where the
// fraction's 1 - ... form cancels).
CSF_FN double incbet_series(double a, double b, double x) {
  double t = 1.0, s = 1.0 / a;
  for (int n = 1; n < 5000; ++n) {
    t *= (n - b) * x / n;
    const double term = t / (a + n);
    s += term;
    if (fabs(term) <= 1e-17 * fabs(s)) break;
  }
  return s * exp(a * log(x) - betaln(a, b));
}

// I_x(a, b) with y = 1 - x, for 0 < x < 1 and finite positive a, b.
CSF_NOINLINE double incbet(double a, double b, double x, double y) {
  if (b * x <= 1.0 && x <= 0.95 && x >= (a + 1.0) / (a + b + 2.0)) return incbet_series(a, b, x);
  if (x < (a + 1.0) / (a + b + 2.0)) return incbet_fac(a, b, x, y) * incbet_cf(a, b, x) / a;
  return 1.0 - incbet_fac(b, a, y, x) * incbet_cf(b, a, y) / b;
}

// SciPy's edges: NaN outside 0 <= x <= 1 or for a < 0, b < 0, a = b = 0 or a = b = inf;
// a = 0 (or b = inf) is the point mass at 0, b = 0 (or a = inf) at 1.
CSF_FN double betainc(double a, double b, double x) {
  if (isnan(a) || isnan(b) || isnan(x)) return lim<double>::nan();
  if (a < 0 || b < 0 || x < 0 || x > 1) return lim<double>::nan();
  if ((a == 0 && b == 0) || (isinf(a) && isinf(b))) return lim<double>::nan();
  if (a == 0 || isinf(b)) return x > 0 ? 1.0 : 0.0;
  if (b == 0 || isinf(a)) return x < 1 ? 0.0 : 1.0;
  if (x == 0) return 0.0;
  if (x == 1) return 1.0;
  return incbet(a, b, x, 1.0 - x);
}

// The x with I_x(a, b) = y: Halley's method in the bracket [0, 1] (bisection when a step leaves
// it; halving while the lower end is 0), the residual taken on the side whose value is below 1/2
// (y - I_x, or I_{1-x}(b, a) - (1 - y)), so a tail probability keeps its relative accuracy. The
// unknown is always x (so x ~ 1e-47 is found for tiny a). Start: a tail's leading term
// I_x ~ x^a / (a B(a, b)) (or 1 - I_x ~ (1-x)^b / (b B(a, b))), else the mean a / (a + b).
CSF_NOINLINE double betaincinv(double a, double b, double y) {
  // SciPy's (Boost's) edges, in its order.
  if (isnan(a) || isnan(b) || isnan(y)) return lim<double>::nan();
  if (a <= 0 || b <= 0 || y < 0 || y > 1) return lim<double>::nan();
  if (y == 0) return 0.0;
  if (y == 1) return 1.0;
  if (isinf(a)) return lim<double>::nan();
  if (isinf(b)) return 0.0;
  const double lb = betaln(a, b), mean = a / (a + b);
  const double lx = (log(y) + log(a) + lb) / a;         // lower tail start, log x
  const double lu = (log1p(-y) + log(b) + lb) / b;      // upper tail start, log(1 - x)
  double x;
  if (lx < log(0.5 * mean)) {
    if (lx < -40.0) return exp(lx);  // the next term of the series is below 1e-17 relative
    x = exp(lx);
  } else if (lu < log(0.5 * (1.0 - mean))) {
    x = -expm1(lu);
  } else {
    x = mean;
  }
  const bool upper = y > 0.5;
  double lo = 0.0, hi = 1.0;
  for (int it = 0; it < 300; ++it) {
    const double f = upper ? (1.0 - y) - incbet(b, a, 1.0 - x, x) : incbet(a, b, x, 1.0 - x) - y;
    if (f == 0.0) break;
    if (f < 0) lo = x; else hi = x;
    // f' = x^(a-1) (1-x)^(b-1) / B(a, b); f''/f' = (a - 1)/x - (b - 1)/(1 - x)
    const double d = incbet_fac(a, b, x, 1.0 - x) / (x * (1.0 - x));
    double xn;
    if (!(d > 0) || !isfinite(d)) {
      xn = lo == 0.0 ? 0.5 * x : 0.5 * (lo + hi);
    } else {
      const double step = f / d;
      const double h = 0.5 * step * ((a - 1.0) / x - (b - 1.0) / (1.0 - x));
      xn = x - (fabs(h) < 0.5 ? step / (1.0 - h) : step);
      if (!(xn > lo && xn < hi)) xn = lo == 0.0 ? 0.5 * x : 0.5 * (lo + hi);
    }
    const bool done = fabs(xn - x) <= 1e-15 * x || hi - lo <= 1e-16 * hi;
    x = xn;
    if (done) break;
  }
  return x;
}

// Binomial distribution: P(K <= k), K ~ Bin(n, p). SciPy's loops truncate k and n to integers
// (its float loops cast them to C long); NaN for k < 0 or k > n (Cephes bdtr.c).
CSF_FN double bdtr(double k, double n, double p) {
  k = as_c_int(k); n = as_c_int(n);
  if (isnan(k) || isnan(n) || isnan(p)) return lim<double>::nan();
  if (p < 0 || p > 1 || k < 0 || n < k) return lim<double>::nan();
  if (k == n) return 1.0;
  const double dn = n - k;
  if (k == 0) return pow(1.0 - p, dn);
  return incbet(dn, k + 1.0, 1.0 - p, p);
}
CSF_FN double bdtrc(double k, double n, double p) {
  n = as_c_int(n);
  if (isnan(k) || isnan(n) || isnan(p)) return lim<double>::nan();
  if (p < 0 || p > 1) return lim<double>::nan();
  if (k < 0) return 1.0;  // SciPy's test before k's cast: bdtrc(-inf, n, p) = 1
  k = as_c_int(k);
  if (isnan(k) || n < k) return lim<double>::nan();
  if (k == n) return 0.0;
  const double dn = n - k;
  if (k == 0) return p < 0.01 ? -expm1(dn * log1p(-p)) : 1.0 - pow(1.0 - p, dn);
  return incbet(k + 1.0, dn, p, 1.0 - p);
}
// The p with bdtr(k, n, p) = y.
CSF_FN double bdtri(double k, double n, double y) {
  k = as_c_int(k); n = as_c_int(n);
  if (isnan(k) || isnan(n) || isnan(y)) return lim<double>::nan();
  if (y < 0 || y > 1 || k < 0 || n <= k) return lim<double>::nan();
  const double dn = n - k;
  if (k == 0) return y > 0.8 ? -expm1(log1p(y - 1.0) / dn) : 1.0 - pow(y, 1.0 / dn);
  if (y > 0.8) return betaincinv(k + 1.0, dn, 1.0 - y);
  return 1.0 - betaincinv(dn, k + 1.0, y);
}

// F distribution with dfn, dfd degrees of freedom (Cephes fdtr.c).
CSF_FN double fdtr(double dfn, double dfd, double x) {
  if (isnan(dfn) || isnan(dfd) || isnan(x)) return lim<double>::nan();
  if (dfn <= 0 || dfd <= 0 || x < 0) return lim<double>::nan();
  if (isinf(x)) return 1.0;
  if (x == 0) return 0.0;
  // I_u(dfn/2, dfd/2), u = w / (dfd + w), 1 - u = dfd / (dfd + w): both formed directly
  const double w = dfn * x, r = dfd + w;
  if (isinf(dfn) || isinf(dfd) || isinf(w) || isinf(r)) return betainc(0.5 * dfn, 0.5 * dfd, w / r);
  return incbet(0.5 * dfn, 0.5 * dfd, w / r, dfd / r);
}
CSF_FN double fdtrc(double dfn, double dfd, double x) {
  if (isnan(dfn) || isnan(dfd) || isnan(x)) return lim<double>::nan();
  if (dfn <= 0 || dfd <= 0 || x < 0) return lim<double>::nan();
  if (isinf(x)) return 0.0;
  if (x == 0) return 1.0;
  const double w = dfn * x, r = dfd + w;
  if (isinf(dfn) || isinf(dfd) || isinf(w) || isinf(r)) return betainc(0.5 * dfd, 0.5 * dfn, dfd / r);
  return incbet(0.5 * dfd, 0.5 * dfn, dfd / r, w / r);
}
CSF_FN double fdtri(double dfn, double dfd, double y) {
  if (isnan(dfn) || isnan(dfd) || isnan(y)) return lim<double>::nan();
  if (dfn <= 0 || dfd <= 0 || y < 0 || y > 1) return lim<double>::nan();
  // The lower tail's w = I^-1_y(dfn/2, dfd/2) where it is below 1/2 (there 1 - w is exact enough);
  // otherwise 1 - w from the upper tail, I^-1_{1-y}(dfd/2, dfn/2) (Cephes fdtri's two forms).
  const double w = betaincinv(0.5 * dfn, 0.5 * dfd, y);
  if (w < 0.5) return dfd * w / (dfn * (1.0 - w));
  const double v = betaincinv(0.5 * dfd, 0.5 * dfn, 1.0 - y);
  return dfd * (1.0 - v) / (dfn * v);
}

// Negative binomial: P(K <= k) for K failures before the n-th success; k and n truncated as in
// bdtr.
CSF_FN double nbdtr(double k, double n, double p) {
  k = as_c_int(k); n = as_c_int(n);
  if (isnan(k) || isnan(n) || isnan(p)) return lim<double>::nan();
  if (p < 0 || p > 1 || k < 0 || n <= 0) return lim<double>::nan();
  return betainc(n, k + 1.0, p);
}
CSF_FN double nbdtrc(double k, double n, double p) {
  k = as_c_int(k); n = as_c_int(n);
  if (isnan(k) || isnan(n) || isnan(p)) return lim<double>::nan();
  if (p < 0 || p > 1 || k < 0 || n <= 0) return lim<double>::nan();
  if (p == 0) return 1.0;
  if (p == 1) return 0.0;
  return incbet(k + 1.0, n, 1.0 - p, p);
}
CSF_FN double nbdtri(double k, double n, double y) {
  k = as_c_int(k);
  if (isnan(k) || isnan(n) || isnan(y) || k < 0) return lim<double>::nan();
  if (y == 0 || y == 1) return y;  // SciPy's (Boost's) ends, before n's checks
  n = as_c_int(n);
  if (isnan(n) || y < 0 || y > 1 || n <= 0) return lim<double>::nan();
  return betaincinv(n, k + 1.0, y);
}

// The standard normal quantile of the upper tail q <= 1/2 (z > 0): the rough start refined by
// three Halley steps on erfc (the host has no normcdfinv).
CSF_FN double normal_tail_quantile(double q) {
  double z = ndtri_tail_rough(q);
  for (int i = 0; i < 3; ++i) {
    const double phi = exp(-0.5 * z * z) * 0.3989422804014327;
    const double f = 0.5 * erfc(z * k_sqrt1_2) - q;
    const double step = f / phi;  // dF/dz = -phi
    z += step / (1.0 - 0.5 * z * step);
  }
  return z;
}

// Student's t with df degrees of freedom: for t < 0, I_{df/(df+t^2)}(df/2, 1/2) / 2.
CSF_FN double stdtr(double df, double t) {
  if (isnan(df) || isnan(t)) return lim<double>::nan();
  if (df <= 0) return lim<double>::nan();
  if (isinf(t)) return t > 0 ? 1.0 : 0.0;
  if (t == 0) return 0.5;
  if (isinf(t * t)) return t > 0 ? 1.0 : 0.0;
  if (df >= 1e7) {
    // Phi(t) - phi(t) (t^3 + t) / (4 df) + O(df^-2) (A&S 26.7.5): the fraction below would need
    // O(sqrt df) terms
    const double phi = exp(-0.5 * t * t) * 0.3989422804014327;
    return 0.5 * erfc(-t * k_sqrt1_2) - phi * (t * t * t + t) / (4.0 * df);
  }
  const double tt = t * t;
  if (isinf(tt)) return t > 0 ? 1.0 : 0.0;
  // the tail I_x(df/2, 1/2) / 2 with x = df / (df + t^2) and 1 - x = t^2 / (df + t^2) both
  // formed directly (1.0 - x would lose the tail's digits)
  const double r = df + tt;
  const double tail = 0.5 * incbet(0.5 * df, 0.5, df / r, tt / r);
  return t < 0 ? tail : 1.0 - tail;
}
CSF_FN double stdtrit(double df, double p) {
  if (isnan(df) || isnan(p)) return lim<double>::nan();
  if (df <= 0 || p < 0 || p > 1) return lim<double>::nan();
  if (p == 0) return -lim<double>::inf();
  if (p == 1) return lim<double>::inf();
  if (p == 0.5) return 0.0;
  const double q = p < 0.5 ? p : 1.0 - p;  // the tail
  if (df >= 1e7) {
    // Cornish-Fisher: t = z + (z^3 + z) / (4 df) + (5z^5 + 16z^3 + 3z) / (96 df^2) (A&S 26.7.5)
    const double z = normal_tail_quantile(q), z2 = z * z;
    const double t = z + z * (z2 + 1.0) / (4.0 * df) + z * (3.0 + z2 * (16.0 + 5.0 * z2)) / (96.0 * df * df);
    return p < 0.5 ? -t : t;
  }
  // Start: x = df / (df + t^2) = I^-1_{2q}(df/2, 1/2) (t^2 = df (1 - x) / x), or for x near 1
  // (small t) t^2 / (df + t^2) = I^-1_{1-2q}(1/2, df/2); then Newton's method on the tail
  // stdtr(df, -t) = q, which both starts lose a few digits of (1 - x or 1 - 2q cancels).
  double t;
  const double x = betaincinv(0.5 * df, 0.5, 2.0 * q);
  if (x < 0.5 || 2.0 * q < 0.25) {
    t = sqrt(df * (1.0 - x) / x);
  } else {
    const double z = betaincinv(0.5, 0.5 * df, 1.0 - 2.0 * q);
    t = sqrt(df * z / (1.0 - z));
  }
  if (isfinite(t) && t > 0) {
    const double lb = betaln(0.5 * df, 0.5), sdf = sqrt(df);
    for (int it = 0; it < 6; ++it) {
      const double f = stdtr(df, -t) - q;
      const double pdf = exp(-0.5 * (df + 1.0) * log1p(t * t / df) - lb) / sdf;
      if (!(pdf > 0) || !isfinite(pdf)) break;
      const double tn = t + f / pdf;  // d stdtr(df, -t) / dt = -pdf
      if (!(tn > 0)) break;
      const bool done = fabs(tn - t) <= 1e-15 * t;
      t = tn;
      if (done) break;
    }
  }
  return p < 0.5 ? -t : t;
}

}  // namespace cuarray_special
#endif
