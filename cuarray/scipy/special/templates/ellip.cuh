// Elliptic integrals and functions of cuarray.scipy.special: ellipk, ellipkm1, ellipe (complete,
// parameter m), ellipkinc, ellipeinc (incomplete) and ellipj (Jacobi's sn, cn, dn, amplitude).
// Complete integrals by the arithmetic-geometric mean (A&S 17.6): K(m) = pi / (2 AGM(1, sqrt(1-m))),
// E(m) = K(m) (1 - sum_n 2^(n-1) c_n^2) with c_0^2 = m (so m < 0 works too); ellipkm1(p) = K(1-p)
// takes sqrt(p) directly (no 1 - p). Incomplete ones by Carlson's symmetric forms
// (B. C. Carlson, Numer. Algorithms 10 (1995) 13-26): F = s R_F(c^2, 1 - m s^2, 1),
// E = s R_F - m s^3 R_D(c^2, 1 - m s^2, 1) / 3, s = sin(phi), reduced to |phi| <= pi/2 by
// F(phi + k pi) = F(phi) + 2k K. Jacobi's functions by the descending Landen (AGM) transformation
// of Cephes' ellpj.c (A&S 16.4). Float loops compute in double, as SciPy's (Cephes) do.
#ifndef CUARRAY_SPECIAL_ELLIP_CUH
#define CUARRAY_SPECIAL_ELLIP_CUH
namespace cuarray_special {

// AGM(1, b) and, through `csum`, sum_{n>=1} 2^(n-1) c_n^2 (c_n = (a_{n-1} - b_{n-1}) / 2).
CSF_FN double agm1(double b, double& csum) {
  double a = 1.0, p = 0.5;
  csum = 0.0;
  for (int i = 0; i < 60; ++i) {
    const double c = 0.5 * (a - b);
    const double an = 0.5 * (a + b);
    b = sqrt(a * b);
    a = an;
    p *= 2.0;
    csum += p * c * c;
    if (fabs(c) <= 1e-17 * a) break;
  }
  return a;
}

CSF_FN double ellipkm1(double p) {
  if (isnan(p)) return p;
  if (p < 0) return lim<double>::nan();
  if (p == 0) return lim<double>::inf();
  if (isinf(p)) return 0.0;
  double cs;
  return 0.5 * k_pi / agm1(sqrt(p), cs);
}
CSF_FN double ellipk(double m) {
  if (isnan(m)) return m;
  if (m > 1) return lim<double>::nan();
  if (m == 1) return lim<double>::inf();
  if (isinf(m)) return 0.0;
  return ellipkm1(1.0 - m);
}
CSF_FN double ellipe(double m) {
  if (isnan(m)) return m;
  if (m > 1) return lim<double>::nan();
  if (m == 1) return 1.0;
  if (isinf(m)) return lim<double>::inf();
  double cs;
  const double k = 0.5 * k_pi / agm1(sqrt(1.0 - m), cs);
  // E = K (1 - m/2 - sum 2^(n-1) c_n^2), the n = 0 term being c_0^2 / 2 = m / 2
  return k * (1.0 - 0.5 * m - cs);
}

// Carlson's R_F and R_D by duplication until the arguments agree to 1e-3 relative (the
// truncation error of the fifth-order series is then ~ 1e-18).
CSF_FN double carlson_rf(double x, double y, double z) {
  for (int i = 0; i < 100; ++i) {
    const double a = (x + y + z) / 3.0;
    const double dx = (a - x) / a, dy = (a - y) / a, dz = (a - z) / a;
    if (fmax(fabs(dx), fmax(fabs(dy), fabs(dz))) < 1e-3) {
      const double e2 = dx * dy - dz * dz, e3 = dx * dy * dz;
      return (1.0 - e2 / 10.0 + e3 / 14.0 + e2 * e2 / 24.0 - 3.0 * e2 * e3 / 44.0) / sqrt(a);
    }
    const double sx = sqrt(x), sy = sqrt(y), sz = sqrt(z);
    const double l = sx * sy + sy * sz + sz * sx;
    x = 0.25 * (x + l); y = 0.25 * (y + l); z = 0.25 * (z + l);
  }
  return lim<double>::nan();
}
CSF_FN double carlson_rd(double x, double y, double z) {
  double sum = 0.0, fac = 1.0;
  for (int i = 0; i < 100; ++i) {
    const double a = (x + y + 3.0 * z) / 5.0;
    const double dx = (a - x) / a, dy = (a - y) / a, dz = (a - z) / a;
    if (fmax(fabs(dx), fmax(fabs(dy), fabs(dz))) < 1e-3) {
      const double ea = dx * dy, eb = dz * dz, ec = ea - eb, ed = ea - 6.0 * eb, ee = ed + ec + ec;
      return 3.0 * sum + fac * (1.0 + ed * (-3.0 / 14.0 + 9.0 / 88.0 * ed - 9.0 / 52.0 * dz * ee)
                                + dz * (ee / 6.0 + dz * (-9.0 / 22.0 * ec + dz * 3.0 / 26.0 * ea))) / (a * sqrt(a));
    }
    const double sx = sqrt(x), sy = sqrt(y), sz = sqrt(z);
    const double l = sx * sy + sy * sz + sz * sx;
    sum += fac / (sz * (z + l));
    fac *= 0.25;
    x = 0.25 * (x + l); y = 0.25 * (y + l); z = 0.25 * (z + l);
  }
  return lim<double>::nan();
}

// F(phi | m) and E(phi | m): phi = k pi + r, |r| <= pi/2; NaN where 1 - m sin^2 < 0 inside.
CSF_FN double ellip_inc(double phi, double m, bool second) {
  const double k = rint(phi / k_pi);
  const double r = phi - k * k_pi;
  const double s = sin(r), c = cos(r);
  const double d = 1.0 - m * s * s;
  if (d < 0) return lim<double>::nan();
  double v;
  if (!second) {
    v = s * carlson_rf(c * c, d, 1.0);
  } else {
    v = s * carlson_rf(c * c, d, 1.0) - m * s * s * s * carlson_rd(c * c, d, 1.0) / 3.0;
  }
  if (k != 0) v += 2.0 * k * (second ? ellipe(m) : ellipk(m));
  return v;
}
// The edges in the order of Cephes' ellik.c / ellie.c (SciPy's): m > 1 NaN; infinite arguments;
// m = 0; F at m = 1 (the inverse Gudermannian, inf from |phi| >= pi/2 on, of either sign of phi, as SciPy).
CSF_FN double ellipkinc(double phi, double m) {
  if (isnan(phi) || isnan(m) || m > 1) return lim<double>::nan();
  if (isinf(phi) || isinf(m)) {
    if (isinf(m) && isfinite(phi)) return 0.0;
    if (isinf(phi) && isfinite(m)) return phi;
    return lim<double>::nan();
  }
  if (m == 0) return phi;
  if (m == 1) {
    if (fabs(phi) >= 0.5 * k_pi) return lim<double>::inf();
    return atanh(sin(phi));  // = log tan(pi/4 + phi/2), Cephes' form, which loses small phi
  }
  return ellip_inc(phi, m, false);
}
CSF_FN double ellipeinc(double phi, double m) {
  if (isnan(phi) || isnan(m) || m > 1) return lim<double>::nan();
  if (isinf(phi)) return phi;
  if (isinf(m)) return -m;
  if (m == 0) return phi;
  return ellip_inc(phi, m, true);
}

// Jacobi's sn, cn, dn and the amplitude ph of u for 0 <= m <= 1, by Cephes' ellpj: near m = 0 and
// m = 1 its first-order expansions, else the descending Landen sequence.
CSF_FN void ellipj_unit(double u, double m, double& sn, double& cn, double& dn, double& ph) {
  if (m < 1e-9) {
    const double t = sin(u), b = cos(u);
    const double ai = 0.25 * m * (u - t * b);
    sn = t - ai * b;
    cn = b + ai * t;
    ph = u - ai;
    dn = 1.0 - 0.5 * m * t * t;
    return;
  }
  if (m >= 0.9999999999) {
    const double ai = 0.25 * (1.0 - m);
    const double b = cosh(u), t = tanh(u);
    const double phi = 1.0 / b;
    const double twon = b * sinh(u);
    sn = t + ai * (twon - u) / (b * b);
    ph = 2.0 * atan(exp(u)) - 0.5 * k_pi + ai * (twon - u) / b;
    const double ai2 = ai * t * phi;
    cn = phi - ai2 * (twon - u);
    dn = phi + ai2 * (twon + u);
    return;
  }
  double a[9], c[9];
  a[0] = 1.0;
  double b = sqrt(1.0 - m);
  c[0] = sqrt(m);
  double twon = 1.0;
  int i = 0;
  while (fabs(c[i] / a[i]) > 1.1102230246251565e-16) {
    if (i > 7) break;
    ++i;
    c[i] = 0.5 * (a[i - 1] - b);
    const double t = sqrt(a[i - 1] * b);
    a[i] = 0.5 * (a[i - 1] + b);
    b = t;
    twon *= 2.0;
  }
  double phi = twon * a[i] * u, prev = phi;
  do {
    const double t = c[i] * sin(phi) / a[i];
    prev = phi;
    phi = 0.5 * (asin(t) + phi);
  } while (--i);
  sn = sin(phi);
  cn = cos(phi);
  // cn / cos(phi - prev) loses digits near the quarter periods, where the divisor is small;
  // there sqrt(1 - m sn^2) (SciPy's change to ellpj, 2016; DLMF 22.20.5).
  const double dnfac = cos(phi - prev);
  dn = fabs(dnfac) < 0.1 ? sqrt(1.0 - m * sn * sn) : cn / dnfac;
  ph = phi;
}
// ellipj for any m <= 1 (NaN above): m < 0 through the transformation to 0 < m1 < 1.
CSF_FN void ellipj(double u, double m, double& sn, double& cn, double& dn, double& ph) {
  if (isnan(u) || isnan(m) || m > 1) {
    sn = cn = dn = ph = lim<double>::nan();
    return;
  }
  if (m >= 0) {
    ellipj_unit(u, m, sn, cn, dn, ph);
    return;
  }
  // DLMF 22.17.2-4 (as xsf's ellpj since 2026): the functions of parameter m1 = -m / (1 - m)
  // at u sqrt(1 - m); the amplitude is atan2(sn, cn) continued by the nearest multiple of pi.
  const double r = sqrt(1.0 - m), m1 = -m / (1.0 - m);
  if (isnan(m1)) {  // m = -inf (SciPy: NaN)
    sn = cn = dn = ph = lim<double>::nan();
    return;
  }
  double s1, c1, d1, p1;
  ellipj_unit(u * r, m1, s1, c1, d1, p1);
  sn = s1 / (r * d1);
  cn = c1 / d1;
  dn = 1.0 / d1;
  const double p0 = atan2(s1, r * c1);
  ph = p0 + k_pi * round((p1 - p0) / k_pi);
}
template <typename T>
CSF_FN T ellipj_ufunc(double u, double m, T& cn, T& dn, T& ph) {
  double s, c, d, p;
  ellipj(u, m, s, c, d, p);
  cn = T(c); dn = T(d); ph = T(p);
  return T(s);
}

}  // namespace cuarray_special
#endif
