// The Faddeeva function w(z) = e^(-z^2) erfc(-iz) and the complex error function family built on it
// (wofz, and the complex loops of erf, erfc, erfcx, erfi, dawsn), plus the real erfi.
//
// w in the first quadrant follows G. P. M. Poppe and C. M. J. Wijers, "More efficient computation
// of the complex error function", ACM TOMS 16 (1990) 38-46 (Algorithm 680), which refines
// W. Gautschi, SIAM J. Numer. Anal. 7 (1970) 187: with the scaled q = (x/6.3)^2 + (y/4.4)^2,
//   q < 0.085264: e^(-z^2) (1 + (2i/sqrt pi) z sum z^(2n)/(n! (2n+1))) (the power series of erfc);
//   q < 1: Gautschi's truncated Taylor expansion about z + ih, its derivatives from Laplace's
//          continued fraction (h, the number of terms and of fraction levels as in Algorithm 680);
//   q >= 1: Laplace's continued fraction w = (i/sqrt pi) / (z - (1/2)/(z - 1/(z - (3/2)/(z - ...)))).
// The other quadrants by w(-conj z) = conj w(z) and w(-z) = 2 e^(-z^2) - w(z). The real and
// imaginary axes, where w is e^(-x^2) + (2i/sqrt pi) D(x) and erfcx(y), are exact special cases, as
// are SciPy's (S. G. Johnson's Faddeeva package) values at infinities and NaN.
// The derived functions use w where no cancellation occurs and Taylor series where it would
// (|z| < 1 for erf and dawsn; x small against 1/y near the imaginary axis for erf).
#ifndef CUARRAY_SPECIAL_FADDEEVA_CUH
#define CUARRAY_SPECIAL_FADDEEVA_CUH
namespace cuarray_special {

constexpr double k_2_sqrtpi = 1.128379167095512573896158903121545172;  // 2 / sqrt(pi)

// erfi(x) = (2/sqrt pi) e^(x^2) D(x): below 10 its series sum x^(2k+1) / (k! (2k+1)) directly
// (positive terms); above, through dawsn with e^(x^2) split in two halves (the product can be
// finite where e^(x^2) alone is not). Float loops compute in double, as SciPy's.
CSF_NOINLINE double erfi(double x) {
  if (isnan(x) || isinf(x)) return x;
  const double ax = fabs(x);
  double r;
  if (ax <= 10.0) {
    const double x2 = ax * ax;
    double t = ax, s = ax;
    for (int k = 1; k < 400; ++k) {
      t *= x2 / k;
      const double term = t / (2 * k + 1);
      s += term;
      if (term < 1e-17 * s) break;
    }
    r = k_2_sqrtpi * s;
  } else {
    const double h = exp(0.5 * ax * ax);
    r = k_2_sqrtpi * h * (h * dawsn(ax));
  }
  return copysign(r, x);
}

// w(x + iy) for finite x >= 0, y >= 0 (Algorithm 680's three regions, header comment).
CSF_NOINLINE cdouble faddeeva_q1(double x, double y) {
  const double xs = x / 6.3, ys = y / 4.4;
  double q = xs * xs + ys * ys;
  if (q < 0.085264) {
    q = (1.0 - 0.85 * ys) * sqrt(q);
    const int n = (int)rint(6.0 + 72.0 * q);
    const double xq = (x - y) * (x + y), yq = 2.0 * x * y;  // z^2
    double sr = 1.0 / (2 * n + 1), si = 0.0;
    for (int k = n; k >= 1; --k) {  // sum z^(2n) / (n! (2n+1)) by Horner's rule
      const double t = (sr * xq - si * yq) / k;
      si = (sr * yq + si * xq) / k;
      sr = t + 1.0 / (2 * k - 1);
    }
    const cdouble s = cd(1.0 - k_2_sqrtpi * (sr * y + si * x), k_2_sqrtpi * (sr * x - si * y));
    const double e = exp(-xq);
    return s * cd(e * cos(yq), -e * sin(yq));
  }
  double h = 0.0;
  int kapn = 0, nu;
  if (q < 1.0) {
    const double r = (1.0 - ys) * sqrt(1.0 - q);
    h = 1.88 * r;
    kapn = (int)rint(7.0 + 34.0 * r);
    nu = (int)rint(16.0 + 26.0 * r);
  } else {
    nu = (int)(3.0 + 1442.0 / (26.0 + 77.0 * sqrt(q)));
  }
  const double h2 = 2.0 * h;
  double lam = h > 0.0 ? pow(h2, (double)kapn) : 0.0;
  double rx = 0.0, ry = 0.0, sx = 0.0, sy = 0.0;
  for (int n = nu; n >= 0; --n) {
    const int np1 = n + 1;
    double tx = y + h + np1 * rx;
    const double ty = x - np1 * ry;
    const double c = 0.5 / (tx * tx + ty * ty);
    rx = c * tx;
    ry = c * ty;
    if (h > 0.0 && n <= kapn) {
      tx = lam + sx;
      sx = rx * tx - ry * sy;
      sy = ry * tx + rx * sy;
      lam /= h2;
    }
  }
  return h > 0.0 ? cd(k_2_sqrtpi * sx, k_2_sqrtpi * sy) : cd(k_2_sqrtpi * rx, k_2_sqrtpi * ry);
}

// Im w(x) for real x: (2/sqrt pi) D(x).
CSF_FN double faddeeva_im_real(double x) { return k_2_sqrtpi * dawsn(x); }

// erfcx(y) for real y: w(iy).
CSF_NOINLINE double erfcx_real(double y) {
  if (isnan(y)) return y;
  if (y == lim<double>::inf()) return 0.0;
  if (y > 1e8) return 1.0 / (k_sqrtpi * y);
  if (y >= 0.0) return faddeeva_q1(0.0, y).re;
  if (y < -26.7) return lim<double>::inf();
  return 2.0 * exp(y * y) - faddeeva_q1(0.0, -y).re;
}

// e^(a + ib) w, as e^a ((cos b + i sin b) w): where e^a overflows, the parts of the product are
// infinities of their signs rather than the NaN of inf * 0 (SciPy's convention).
CSF_FN cdouble exp_times(double a, double b, cdouble w) {
  const cdouble r = cd(cos(b), sin(b)) * w;
  if (a > 700.0) {  // e^a may overflow where the product does not: two halves
    const double h = exp(0.5 * a);
    return cd(h * r.re * h, h * r.im * h);
  }
  const double e = exp(a);
  return cd(e * r.re, e * r.im);
}

CSF_NOINLINE cdouble faddeeva(cdouble z) {
  const double x = z.re, y = z.im;
  if (x == 0.0) return cd(erfcx_real(y), x);
  if (y == 0.0) return cd(exp(-x * x), faddeeva_im_real(x));
  if (isnan(x) || isnan(y)) return cd(lim<double>::nan(), lim<double>::nan());
  if (y == lim<double>::inf()) return cd(0.0, 0.0);
  if (y == -lim<double>::inf()) return cd(lim<double>::nan(), lim<double>::nan());
  if (isinf(x)) return cd(0.0, copysign(0.0, x));
  const double ax = fabs(x), ay = fabs(y);
  cdouble w;
  if (ax > 1e8 || ay > 1e8) {
    // (i / sqrt pi) / z (the next term of the asymptotic series, 1/(2 z^2), is below 1e-16;
    // Smith's division: no overflow of |z|^2)
    w = cd(0.0, 1.0 / k_sqrtpi) / cd(ax, ay);
  } else if (ay * (1.0 + ax) < 1e-6) {
    // near the real axis, Taylor in iy about x from the exact w(x) = e^(-x^2) + (2i/sqrt pi) D(x):
    // w' = -2x w + 2i/sqrt pi, w'' = (4x^2 - 2) w - 4ix/sqrt pi; the next term is below 1e-17 |w|
    const cdouble w0 = cd(exp(-ax * ax), faddeeva_im_real(ax));
    const cdouble w1 = cd(-2.0 * ax * w0.re, -2.0 * ax * w0.im + k_2_sqrtpi);
    const cdouble w2 = cd((4.0 * ax * ax - 2.0) * w0.re, (4.0 * ax * ax - 2.0) * w0.im - 2.0 * ax * k_2_sqrtpi);
    w = w0 + cd(0.0, ay) * w1 + (-0.5 * ay * ay) * w2;
  } else {
    w = faddeeva_q1(ax, ay);
  }
  if (y < 0.0) {
    // w(z) = 2 e^(-z^2) - w(-z), and w(-z) = conj w(|x| + i|y|) or that itself
    if (x > 0.0) w.im = -w.im;
    const double mre = (y - x) * (y + x);
    if (mre < -750.0) return -w;  // e^(-z^2) is below the last bit of w
    const cdouble e2 = exp_times(mre, -2.0 * x * y, cd(2.0, 0.0));
    return e2 - w;
  }
  if (x < 0.0) w.im = -w.im;
  return w;
}

// erf(z) near 0: z (2/sqrt pi) sum (-z^2)^n / (n! (2n+1)), for |z| < 1 (terms fall by |z|^2/n).
CSF_NOINLINE cdouble erf_series(cdouble z) {
  const cdouble mz2 = -(z * z);
  cdouble t = cd(1.0, 0.0), s = t;
  for (int n = 1; n < 40; ++n) {
    t = (1.0 / n) * (t * mz2);
    const cdouble term = (1.0 / (2 * n + 1)) * t;
    s = s + term;
    if (cabs(term) < 1e-17 * cabs(s)) break;
  }
  return k_2_sqrtpi * (z * s);
}

CSF_FN cdouble cerf(cdouble z) {
  const double x = z.re, y = z.im;
  if (x == 0.0) {
    // i erfi(y), its real part x (the sign of zero kept)
    return cd(x, y * y > 720.0 ? (y > 0 ? lim<double>::inf() : -lim<double>::inf()) : erfi(y));
  }
  if (y == 0.0) return cd(::erf(x), y);
  if (isnan(x) || isnan(y)) return cd(lim<double>::nan(), lim<double>::nan());
  const double mre = (y - x) * (x + y), mim = -2.0 * x * y;  // -z^2
  if (mre < -750.0) return cd(x >= 0 ? 1.0 : -1.0, 0.0);
  if (x * x + y * y < 1.0) return erf_series(z);
  const double ax = fabs(x);
  if (ax < 5e-3 && fabs(mim) < 5e-3) {
    // Taylor series in x about iy: erf(iy + x) = i erfi(y) + (2/sqrt pi) e^(y^2) sum_k (-1)^k
    // H_k(iy) x^(k+1) / (k+1)!, through x^5 (the next term is below 1e-15 relative here)
    const double x2 = x * x, y2 = y * y, e = k_2_sqrtpi * exp(y2);
    const double re = e * x * (1.0 - x2 * ((2.0 * y2 + 1.0) / 3.0 - x2 * (4.0 * y2 * y2 + 12.0 * y2 + 3.0) / 30.0));
    const double im = erfi(y) + e * x2 * y * (-1.0 + x2 * (2.0 * y2 + 3.0) / 6.0);
    return cd(re, im);
  }
  // 1 - e^(-z^2) w(iz) for x > 0; erf is odd
  const double s = x >= 0 ? 1.0 : -1.0;
  const cdouble r = exp_times(mre, mim, faddeeva(x >= 0 ? cd(-y, x) : cd(y, -x)));
  return cd(s * (1.0 - r.re), -s * r.im);
}

CSF_FN cdouble cerfc(cdouble z) {
  const double x = z.re, y = z.im;
  if (x == 0.0) return cd(1.0, y * y > 720.0 ? (y > 0 ? -lim<double>::inf() : lim<double>::inf()) : -erfi(y));
  if (y == 0.0) return cd(::erfc(x), 0.0);  // SciPy's +0 for either zero
  if (isnan(x) || isnan(y)) return cd(lim<double>::nan(), lim<double>::nan());
  const double mre = (y - x) * (x + y), mim = -2.0 * x * y;
  if (mre < -750.0) return cd(x >= 0 ? 0.0 : 2.0, 0.0);
  if (x >= 0.0) return exp_times(mre, mim, faddeeva(cd(-y, x)));
  return 2.0 - exp_times(mre, mim, faddeeva(cd(y, -x)));
}

CSF_FN cdouble cerfcx(cdouble z) { return faddeeva(cd(-z.im, z.re)); }

// erfi(z) = -i erf(iz)
CSF_FN cdouble cerfi(cdouble z) {
  const cdouble e = cerf(cd(-z.im, z.re));
  return cd(e.im, -e.re);
}

// Dawson's function D(z) = (sqrt pi / 2) e^(-z^2) erfi(z) = (i sqrt pi / 2) (e^(-z^2) - w(z)); its
// series z sum (-2 z^2)^n / (2n+1)!! below |z| = 1, where that difference cancels.
CSF_FN cdouble cdawsn(cdouble z) {
  const double x = z.re, y = z.im;
  const double spi2 = 0.886226925452758013649083741671;  // sqrt(pi) / 2
  if (y == 0.0) return cd(dawsn(x), -y);
  if (x == 0.0) {
    // i (sqrt pi / 2) e^(y^2) erf(y)
    const double v = y * y > 720.0 ? (y > 0 ? lim<double>::inf() : -lim<double>::inf()) : spi2 * exp(y * y) * ::erf(y);
    return cd(x, v);
  }
  if (isnan(x) || isnan(y)) return cd(lim<double>::nan(), lim<double>::nan());
  if (x * x + y * y < 1.0) {
    const cdouble m2z2 = -2.0 * (z * z);
    cdouble t = cd(1.0, 0.0), s = t;
    for (int n = 1; n < 60; ++n) {
      t = (1.0 / (2 * n + 1)) * (t * m2z2);
      s = s + t;
      if (cabs(t) < 1e-17 * cabs(s)) break;
    }
    return z * s;
  }
  // in the first quadrant (D is odd and D(conj z) = conj D(z)), where w has no e^(-z^2) part
  const double ax = fabs(x), ay = fabs(y);
  const double mre = (ay - ax) * (ax + ay), mim = -2.0 * ax * ay;
  const cdouble e = mre < -750.0 ? cd(0.0, 0.0) : exp_times(mre, mim, cd(1.0, 0.0));
  const cdouble d = e - faddeeva(cd(ax, ay));
  const double re = -spi2 * d.im, im = spi2 * d.re;
  return cd(x < 0 ? -re : re, y < 0 ? -im : im);
}

// The normal distribution's CDF of complex z, erfc(-z/sqrt 2)/2, and its logarithm: SciPy's (xsf's
// stats.h) log(e^(-t^2) w(it)) - log 2, t = -z/sqrt 2, taking e^(-t^2)'s logarithm as -t^2 with its
// imaginary part reduced to (-pi, pi] and the sum's brought back to [-pi, pi). That sum cancels
// where ndtr is near 1 (Re z > 0): there ours is log1p(-erfc(z/sqrt 2)/2) while that term is below
// 1/2 (SciPy only below 1e-8 in size, as -x), 1e-6 of SciPy's relative error gone at
// z = 5.91 - 0.25j (against mpmath).
CSF_FN cdouble cndtr(cdouble z) {
  const double s = 0.70710678118654752440;
  return 0.5 * cerfc(cd(-z.re * s, -z.im * s));
}
CSF_FN cdouble clog_ndtr(cdouble z) {
  const double s = 0.70710678118654752440;
  if (z.re > 0.0) {
    const cdouble w = -0.5 * cerfc(cd(z.re * s, z.im * s));
    if (cabs(w) < 0.5) return clog1p(w);
  }
  const double x = -z.re * s, y = -z.im * s;
  const double mre = (y - x) * (x + y), mim = -2.0 * x * y;  // -t^2, no overflow in t^2's parts
  double im = fmod(mim, 2.0 * k_pi);
  if (im > k_pi) im -= 2.0 * k_pi;
  const cdouble r = cd(mre, im) + clog(faddeeva(cd(-y, x))) - 0.69314718055994530942;
  im = r.im;
  if (im >= k_pi) im -= 2.0 * k_pi;
  if (im < -k_pi) im += 2.0 * k_pi;
  return cd(r.re, im);
}

// The ufunc loops: complex64 and complex128 in, the same type out (computed in double).
template <typename C> CSF_FN C wofz(const C& z) { return from_cd<C>(faddeeva(to_cd(z))); }
template <typename C> CSF_FN C erf_c(const C& z) { return from_cd<C>(cerf(to_cd(z))); }
template <typename C> CSF_FN C erfc_c(const C& z) { return from_cd<C>(cerfc(to_cd(z))); }
template <typename C> CSF_FN C erfcx_c(const C& z) { return from_cd<C>(cerfcx(to_cd(z))); }
template <typename C> CSF_FN C erfi_c(const C& z) { return from_cd<C>(cerfi(to_cd(z))); }
template <typename C> CSF_FN C dawsn_c(const C& z) { return from_cd<C>(cdawsn(to_cd(z))); }
template <typename C> CSF_FN C ndtr_c(const C& z) { return from_cd<C>(cndtr(to_cd(z))); }
template <typename C> CSF_FN C log_ndtr_c(const C& z) { return from_cd<C>(clog_ndtr(to_cd(z))); }

}  // namespace cuarray_special
#endif
