// The float32 loops of i0e and i1e, evaluated in float (SciPy's 'f->f' loops compute in double;
// in double these loops ran at 0.67 of the H100's copy rate, bound by FP64 throughput).
//
// The structure is Cephes' i0ef/i1ef (Moshier, Cephes Math Library 2.8: an expansion of
// e^-x I(x) on a finite interval and one of sqrt(x) e^-x I(x) in a reciprocal variable beyond
// it), with the intervals and the polynomials chosen for float Horner evaluation by
// scripts/special/bessel_i_float_fits.py (coefficients are fits to SciPy's float64 values, not
// Cephes'):
//   |x| < 2       I0(x) e^-|x| = P0(y) e^-|x|, I1(x) e^-|x| = (x/2) P1(y) e^-|x|, y = (x/2)^2,
//                 P0, P1 the Taylor series of I0 and I1/(x/2) (A&S 9.6.10: positive terms, so
//                 Horner's rule loses nothing), e^-|x| by times_exp_neg below;
//   2 <= |x| < 4  a polynomial of degree 9 in t = |x| - 3 (exact: Sterbenz);
//   |x| >= 4      sqrt(u) Q(u), u = 4/|x| in (0, 1], Q of degree 10.
// Only +, *, fmaf, IEEE division and sqrt (correctly rounded under NVRTC's default -prec-div and
// -prec-sqrt, and in a host build) and exact bit operations: the g++ build of this file gives
// the device's bits, so tests/scipy/test_special_float_cpu.py measures the GPU's accuracy
// (max 1.8 ulp against SciPy's float64 values; 0.67-0.99 of them correctly rounded, by
// interval). Every multiply-add is an explicit fmaf (templates/float_math.cuh says why).
#ifndef CUARRAY_SPECIAL_BESSEL_FLOAT_CUH
#define CUARRAY_SPECIAL_BESSEL_FLOAT_CUH
namespace cuarray_special {

// (lead + t) e^-a for 0 <= a < 2, |t| < lead (a ~ 88 at most: n must stay a normal exponent):
// e^-a = 2^-n e^-r, n = rint(a / ln 2), r = a - n ln 2 in [-ln2/2, ln2/2] (ln 2 in two parts,
// the first with 8 trailing zero bits, so n ln2_hi is exact), q = e^-r - 1 by its Taylor series
// to r^7 (remainder < 6e-9; -r + r^2 (...) with -r exact). The sum is lead + (t + q (lead + t)):
// the exact lead is added last, so the one full rounding is the last, and t's, q's and the
// product's fall on terms below ~0.5 of the value.
CSF_FN float times_exp_neg(float lead, float t, float a) {
  const float n = rintf(a * 1.44269504f);
  float r = fmaf(n, -0.693145752f, a);
  r = fmaf(n, -1.42860677e-06f, r);
  const float c[] = {0.5f, -0.166666672f, 0.0416666679f, -0.00833333377f, 0.00138888892f, -0.000198412701f};
  const float q = fmaf(r, r * hornerf(c, r), -r);
  return (lead + fmaf(q, lead + t, t)) * pow2f(-int(n));
}

// Taylor coefficients of I0(x) and of I1(x) / (x/2) in y = (x/2)^2, 1/(k!)^2 and 1/(k!(k+1)!) to
// y^8 (the remainder at y = 1 is below 1e-11 relative), without their constant terms 1 (added
// last by times_exp_neg) and divided by y: I0 = 1 + y tail0(y), I1 / (x/2) = 1 + y tail1(y).
CSF_FN float bessel_i0_series_tail_f(float y) {
  const float c[] = {1.0f, 0.25f, 0.027777778f, 0.00173611112f, 6.94444444e-05f, 1.92901236e-06f,
                     3.93675998e-08f, 6.15118748e-10f};
  return hornerf(c, y);
}
CSF_FN float bessel_i1_series_tail_f(float y) {
  const float c[] = {0.5f, 0.0833333358f, 0.00694444450f, 0.000347222231f, 1.15740741e-05f,
                     2.75573187e-07f, 4.92095004e-09f, 6.83465284e-11f};
  return hornerf(c, y);
}

// sqrt(u) Q(u), u = 4 / a, to about one rounding (a >= 4; a = inf gives 0, SciPy's limit): Q's
// constant term in two parts (q0 + q0_lo: its float rounding alone is 0.47 ulp), and sqrt(4/a)
// as s + ds, from the exact residuals of the division (4 - u a) and of the square root (u - s^2):
// sqrt(u + d) ~ s + (u - s^2 + d) / (2 s), 1 / (2 s) ~ s a / 8.
template <int N>
CSF_FN float scaled_i_large_f(const float (&q)[N], float q0_lo, float a) {
  if (isinf(a)) return 0.0f;
  const float u = 4.0f / a;
  const float d = fmaf(-u, a, 4.0f) * (0.25f * u);
  const float s = sqrtf(u);
  const float ds = (fmaf(-s, s, u) + d) * (0.125f * (s * a));
  float r = q[N - 1];
#pragma unroll
  for (int k = N - 2; k >= 1; --k) r = fmaf(r, u, q[k]);
  const float qu = q[0] + fmaf(r, u, q0_lo);
  return fmaf(qu, s, qu * ds);
}

// 1/sqrt(8 pi) - 0.1994711458683014f: the limit of Q at u = 0 (both functions), its low part.
constexpr float Q0_LO = -5.66758505e-09f;

// I0(x) e^-|x| in float (NaN for NaN, 0 at +-inf, as SciPy's).
CSF_FN float i0e_float(float x) {
  const float a = fabsf(x);
  if (isnan(x)) return x;
  if (a < 2.0f) {
    const float h = 0.5f * a;
    const float y = h * h;
    return times_exp_neg(1.0f, y * bessel_i0_series_tail_f(y), a);
  }
  if (a < 4.0f) {
    const float c[] = {0.2430003583431244f, -0.046173639595508575f, 0.013369170017540455f,
                       -0.004188113380223513f, 0.001284402678720653f, -0.0003675811749417335f,
                       9.578292520018294e-05f, -2.2810925656813197e-05f, 5.41113786312053e-06f,
                       -1.0541983783696196e-06f};
    return hornerf(c, a - 3.0f);
  }
  const float q[] = {0.1994711458683014f, 0.006233828142285347f, 0.0008627770002931356f,
                     0.00043219196959398687f, -0.0014081320259720087f, 0.006171703338623047f,
                     -0.01469789445400238f, 0.020816538482904434f, -0.01651468500494957f,
                     0.006733901333063841f, -0.001099446672014892f};
  return scaled_i_large_f(q, Q0_LO, a);
}

// I1(x) e^-|x| in float (odd; NaN for NaN, +-0 at +-inf).
CSF_FN float i1e_float(float x) {
  const float a = fabsf(x);
  if (isnan(x)) return x;
  float r;
  if (a < 2.0f) {
    const float h = 0.5f * a;
    const float y = h * h;
    r = times_exp_neg(h, (h * y) * bessel_i1_series_tail_f(y), a);
  } else if (a < 4.0f) {
    const float c[] = {0.19682671129703522f, -0.01943526417016983f, 0.0008048548479564488f,
                       0.0009489032090641558f, -0.0005536520620808005f, 0.00020961907284799963f,
                       -6.361536361509934e-05f, 1.6656693333061412e-05f, -4.235737833369058e-06f,
                       8.596095426582906e-07f};
    r = hornerf(c, a - 3.0f);
  } else {
    const float q[] = {0.1994711458683014f, -0.018700789660215378f, -0.0014465597923845053f,
                       -0.0005319353076629341f, 0.0014391842996701598f, -0.00637616915628314f,
                       0.015039689838886261f, -0.021059218794107437f, 0.01640215888619423f,
                       -0.006510471925139427f, 0.0010238103568553925f};
    r = scaled_i_large_f(q, Q0_LO, a);
  }
  return x < 0.0f ? -r : r;
}

}  // namespace cuarray_special
#endif
