// Gauss's hypergeometric function 2F1(a, b; c; x) for real arguments (scipy.special.hyp2f1's real
// loops), ported from Cephes' hyp2f1.c (S. L. Moshier, Cephes Math Library 2.8, as modified in
// SciPy/xsf, which uses it for these loops): the defining series with a loss-of-significance
// estimate (hys2f1), the two-term recurrence in a where |a| >> |c| (hyp2f1ra, A&S 15.2.10), the
// transformations for x < -1 and x < -2 (A&S 15.3.7, 15.3.4/15.3.5), near x = 1 A&S 15.3.6 or the
// psi-function expansion when c - a - b is an integer (15.3.10-12), the recurrence in c for
// c - a - b < 0 (15.2.27), Euler's transformation for c - a - b <= -1 (15.3.3).
// Cephes calls itself recursively; here each nested call goes one level down a template parameter
// instead (hyp2f1 nests at most three deep: x < -2 or x < -1, then Euler's transformation, then the
// recurrence in c; the series in the recurrence in a twice; a level-0 call, never reached, is NaN).
// Float loops compute in double, as SciPy's.
#ifndef CUARRAY_SPECIAL_HYP2F1_CUH
#define CUARRAY_SPECIAL_HYP2F1_CUH
namespace cuarray_special {

constexpr double k_h2f1_eps = 1.0e-13, k_h2f1_ethresh = 1.0e-12, k_machep = 1.11022302462515654042e-16;
constexpr int k_h2f1_maxiter = 10000;

// Cephes' Gamma: +inf at the poles (where tgamma is NaN), so that 1 / Gamma there is 0.
CSF_FN double cgamma(double x) {
  if (x <= 0 && x == floor(x)) return x == 0 ? copysign(lim<double>::inf(), x) : lim<double>::inf();
  return gamma(x);
}

// Cephes' lgam_sgn's sign: that of Gamma, and +1 at the poles (where log|Gamma| is inf).
CSF_FN double lgam_sign(double x) {
  if (x <= 0 && x == floor(x)) return 1.0;
  return gammasgn(x);
}

template <int L> CSF_NOINLINE double hys2f1(double a, double b, double c, double x, double& loss);

// A&S 15.2.10: the recurrence in a, up or down from a - round(a - c) or frac(a).
template <int L>
CSF_NOINLINE double hyp2f1ra(double a, double b, double c, double x, double& loss) {
  const double da = ((c < 0 && a <= c) || (c >= 0 && a >= c)) ? round(a - c) : round(a);
  double t = a - da, err;
  loss = 0;
  if (fabs(da) > k_h2f1_maxiter) {  // too expensive
    loss = 1.0;
    return lim<double>::nan();
  }
  double f2, f1, f0;
  if (da < 0) {
    f1 = hys2f1<L - 1>(t, b, c, x, err);
    loss += err;
    f0 = hys2f1<L - 1>(t - 1, b, c, x, err);
    loss += err;
    t -= 1;
    for (int n = 1; n < -da; ++n) {
      f2 = f1;
      f1 = f0;
      f0 = -(2 * t - c - t * x + b * x) / (c - t) * f1 - t * (x - 1) / (c - t) * f2;
      t -= 1;
    }
  } else {
    f1 = hys2f1<L - 1>(t, b, c, x, err);
    loss += err;
    f0 = hys2f1<L - 1>(t + 1, b, c, x, err);
    loss += err;
    t += 1;
    for (int n = 1; n < da; ++n) {
      f2 = f1;
      f1 = f0;
      f0 = -((2 * t - c - t * x + b * x) * f1 + (c - t) * f2) / (t * (x - 1));
      t += 1;
    }
  }
  return f0;
}

// The defining power series, with its estimated relative loss of significance.
template <int L>
CSF_NOINLINE double hys2f1(double a, double b, double c, double x, double& loss) {
  bool intflag = false;
  if (fabs(b) > fabs(a)) {  // |a| >= |b| ...
    const double f = b; b = a; a = f;
  }
  const double ib = round(b);
  if (fabs(b - ib) < k_h2f1_eps && ib <= 0 && fabs(b) < fabs(a)) {  // ... unless b is a smaller negative integer
    const double f = b; b = a; a = f;
    intflag = true;
  }
  if ((fabs(a) > fabs(c) + 1 || intflag) && fabs(c - a) > 2 && fabs(a) > 2) {
    // |a| >> |c|: the series cancels; the recurrence in a
    return hyp2f1ra<L>(a, b, c, x, loss);
  }
  int i = 0;
  double umax = 0.0, s = 1.0, u = 1.0, k = 0.0;
  do {
    if (fabs(c) < k_h2f1_eps) {
      loss = 1.0;
      return lim<double>::inf();
    }
    const double m = k + 1.0;
    u = u * ((a + k) * (b + k) * x / ((c + k) * m));
    s += u;
    if (fabs(u) > umax) umax = fabs(u);
    k = m;
    if (++i > k_h2f1_maxiter) {
      loss = 1.0;
      return s;
    }
  } while (s == 0 || fabs(u / s) > k_machep);
  loss = (k_machep * umax) / fabs(s) + (k_machep * i);
  return s;
}
template <> CSF_NOINLINE double hys2f1<0>(double, double, double, double, double& loss) {
  loss = 1.0;
  return lim<double>::nan();
}

// The series with the recurrence in a nested at most twice (hyp2f1ra's series have |a| <= |c| + 1/2
// or |a| <= 1/2 in the swapped parameter).
constexpr int k_hys = 3;

// Transformations for |x| near 1, then the series.
CSF_NOINLINE double hyt2f1(double a, double b, double c, double x, double& loss) {
  const bool neg_int_a = a <= 0 && fabs(a - round(a)) < k_h2f1_eps;
  const bool neg_int_b = b <= 0 && fabs(b - round(b)) < k_h2f1_eps;
  double err = 0.0, err1, y;
  const double s = 1.0 - x;
  if (x < -0.5 && !(neg_int_a || neg_int_b)) {
    y = b > a ? pow(s, -a) * hys2f1<k_hys>(a, c - b, c, -x / s, err) : pow(s, -b) * hys2f1<k_hys>(c - a, b, c, -x / s, err);
    loss = err;
    return y;
  }
  const double d = c - a - b, id = round(d);
  if (x > 0.9 && !(neg_int_a || neg_int_b)) {
    if (fabs(d - id) > k_h2f1_eps) {
      // the series first; if it fails, A&S 15.3.6
      y = hys2f1<k_hys>(a, b, c, x, err);
      if (err < k_h2f1_ethresh) {
        loss = err;
        return y;
      }
      double q = hys2f1<k_hys>(a, b, 1.0 - d, s, err);
      double w = gammaln(d) - gammaln(c - a) - gammaln(c - b);
      q *= lgam_sign(d) * lgam_sign(c - a) * lgam_sign(c - b) * exp(w);
      double r = pow(s, d) * hys2f1<k_hys>(c - a, c - b, d + 1.0, s, err1);
      w = gammaln(-d) - gammaln(a) - gammaln(b);
      r *= lgam_sign(-d) * lgam_sign(a) * lgam_sign(b) * exp(w);
      y = q + r;
      q = fabs(q);  // the cancellation error
      r = fabs(r);
      if (q > r) r = q;
      err += err1 + (k_machep * r) / y;
      loss = err;
      return y * cgamma(c);
    }
    // c - a - b an integer: the psi-function expansion, A&S 15.3.10-12 (not for integer a, b <= 0)
    double e, d1, d2;
    int aid;
    if (id >= 0.0) {
      e = d; d1 = d; d2 = 0.0; aid = (int)id;
    } else {
      e = -d; d1 = 0.0; d2 = d; aid = (int)-id;
    }
    const double ax = log(s);
    y = psi(1.0) + psi(1.0 + e) - psi(a + d1) - psi(b + d1) - ax;  // t = 0
    y /= cgamma(e + 1.0);
    double p = (a + d1) * (b + d1) * s / cgamma(e + 2.0), t = 1.0, q;
    do {
      const double r = psi(1.0 + t) + psi(1.0 + t + e) - psi(a + t + d1) - psi(b + t + d1) - ax;
      q = p * r;
      y += q;
      p *= s * (a + t + d1) / (t + 1.0);
      p *= (b + t + d1) / (t + 1.0 + e);
      t += 1.0;
      if (t > k_h2f1_maxiter) {
        loss = 1.0;
        return lim<double>::nan();
      }
    } while (y == 0 || fabs(q / y) > k_h2f1_eps);
    if (id == 0.0) {
      loss = 0.0;
      return y * cgamma(c) / (cgamma(a) * cgamma(b));
    }
    double y1 = 1.0;
    if (aid != 1) {
      t = 0.0;
      p = 1.0;
      for (int i = 1; i < aid; i++) {
        const double r = 1.0 - e + t;
        p *= s * (a + t + d2) * (b + t + d2) / r;
        t += 1.0;
        p /= t;
        y1 += p;
      }
    }
    p = cgamma(c);
    y1 *= cgamma(e) * p / (cgamma(a + d1) * cgamma(b + d1));
    y *= p / (cgamma(a + d2) * cgamma(b + d2));
    if ((aid & 1) != 0) y = -y;
    q = pow(s, id);
    if (id > 0.0) y *= q;
    else y1 *= q;
    loss = 0.0;
    return y + y1;
  }
  y = hys2f1<k_hys>(a, b, c, x, err);
  loss = err;
  return y;
}

// A&S 15.4.2: 2F1(a, b; b; x) with b a negative integer, the finite sum (NaN if it cancels).
CSF_FN double hyp2f1_neg_c_equal_bc(double a, double b, double x) {
  if (!(fabs(b) < 1e5)) return lim<double>::nan();
  double collector = 1, sum = 1, collector_max = 1;
  for (double k = 1; k <= -b; k++) {
    collector *= (a + k - 1) * x / k;
    collector_max = fmax(fabs(collector), collector_max);
    sum += collector;
  }
  if (1e-16 * (1 + collector_max / fabs(sum)) > 1e-7) return lim<double>::nan();
  return sum;
}

template <int L> CSF_NOINLINE double hyp2f1_l(double a, double b, double c, double x);
template <> CSF_NOINLINE double hyp2f1_l<0>(double, double, double, double) { return lim<double>::nan(); }

template <int L>
CSF_NOINLINE double hyp2f1_l(double a, double b, double c, double x) {
  double err = 0.0, y;
  const double ax = fabs(x);
  double s = 1.0 - x;
  if (x == 0.0) return 1.0;
  const double d = c - a - b;
  double id = round(d);
  if ((a == 0 || b == 0) && c != 0) return 1.0;
  // SciPy >= 1.18 (xsf#85, scipy gh-4446): 2F1(-1, b; c; x) = 1 - (b / c) x for every c != 0, a
  // nonpositive integer c too (the series ends before c's pole, where Cephes returned inf or a
  // wrong value), |value| < 1e-15 flushed to 0 as xsf does. Only a = -1, as xsf (not b = -1).
  if (a == -1 && c != 0) {
    const double r = 1 - (b / c) * x;
    return fabs(r) < 1e-15 ? 0.0 : r;
  }
  const bool neg_int_a = a <= 0 && fabs(a - round(a)) < k_h2f1_eps;
  const bool neg_int_b = b <= 0 && fabs(b - round(b)) < k_h2f1_eps;
  const double ia = round(a), ib = round(b);
  if (d <= -1 && !(fabs(d - id) > k_h2f1_eps && s < 0) && !(neg_int_a || neg_int_b)) {
    return pow(s, d) * hyp2f1_l<L - 1>(c - a, c - b, c, x);  // Euler's transformation
  }
  if (d <= 0 && x == 1 && !(neg_int_a || neg_int_b)) return lim<double>::inf();
  if (ax < 1.0 || x == -1.0) {
    if (fabs(b - c) < k_h2f1_eps) return neg_int_b ? hyp2f1_neg_c_equal_bc(a, b, x) : pow(s, -a);
    if (fabs(a - c) < k_h2f1_eps) return pow(s, -b);
  }
  bool poly = neg_int_a || neg_int_b;
  if (c <= 0.0) {
    const double ic = round(c);
    if (fabs(c - ic) < k_h2f1_eps) {  // c a negative integer: finite only if the series ends first
      if (!((neg_int_a && ia > ic) || (neg_int_b && ib > ic))) return lim<double>::inf();
      poly = true;
    }
  }
  if (poly) return hyt2f1(a, b, c, x, err);
  double t1 = fabs(b - a);
  if (x < -2.0 && fabs(t1 - round(t1)) > k_h2f1_eps) {
    // A&S 15.3.7 (a pole for integer b - a; cancellation for |1/x| near 1)
    double p = hyp2f1_l<L - 1>(a, 1 - c + a, 1 - b + a, 1.0 / x);
    double q = hyp2f1_l<L - 1>(b, 1 - c + b, 1 - a + b, 1.0 / x);
    p *= pow(-x, -a);
    q *= pow(-x, -b);
    t1 = cgamma(c);
    s = t1 * cgamma(b - a) / (cgamma(b) * cgamma(c - a));
    y = t1 * cgamma(a - b) / (cgamma(a) * cgamma(c - b));
    return s * p + y * q;
  } else if (x < -1.0) {
    if (fabs(a) < fabs(b)) return pow(s, -a) * hyp2f1_l<L - 1>(a, c - b, c, x / (x - 1));
    return pow(s, -b) * hyp2f1_l<L - 1>(b, c - a, c, x / (x - 1));
  }
  if (ax > 1.0) return lim<double>::inf();  // the series diverges
  const double p = c - a, r = c - b;
  const bool neg_int_ca_or_cb = (round(p) <= 0.0 && fabs(p - round(p)) < k_h2f1_eps) ||
                                (round(r) <= 0.0 && fabs(r - round(r)) < k_h2f1_eps);
  id = round(d);
  if (fabs(ax - 1.0) < k_h2f1_eps) {  // |x| = 1
    if (x > 0.0) {
      if (neg_int_ca_or_cb) {
        if (d >= 0.0) return pow(s, d) * hys2f1<k_hys>(c - a, c - b, c, x, err);
        return lim<double>::inf();
      }
      if (d <= 0.0) return lim<double>::inf();
      return cgamma(c) * cgamma(d) / (cgamma(p) * cgamma(r));
    }
    if (d <= -1.0) return lim<double>::inf();
  }
  if (d < 0.0) {
    // the series first; if it fails, the recurrence in c (A&S 15.2.27) from c + 2 - id
    y = hyt2f1(a, b, c, x, err);
    if (err < k_h2f1_ethresh) return y;
    const int aid = (int)(2 - id);
    double e = c + aid;
    double d2 = hyp2f1_l<L - 1>(a, b, e, x);
    double d1 = hyp2f1_l<L - 1>(a, b, e + 1.0, x);
    const double q = a + b + 1.0;
    for (int i = 0; i < aid; i++) {
      const double rr = e - 1.0;
      y = (e * (rr - (2.0 * e - q) * x) * d2 + (e - a) * (e - b) * x * d1) / (e * rr * s);
      e = rr;
      d1 = d2;
      d2 = y;
    }
    return y;
  }
  if (neg_int_ca_or_cb) return pow(s, d) * hys2f1<k_hys>(c - a, c - b, c, x, err);  // A&S 15.3.3
  return hyt2f1(a, b, c, x, err);
}

CSF_FN double hyp2f1(double a, double b, double c, double x) { return hyp2f1_l<4>(a, b, c, x); }

}  // namespace cuarray_special
#endif
