// The float32 loop of gammaln, evaluated in float for x >= 0 (SciPy's 'f->f' loop computes in
// double; CUDA's lgammaf, which this replaces there, has two branches on (0, 1.5) and a logf).
// Negative x keep the double evaluation (gamma.cuh's gammaln(float)): lgamma's roots on the
// negative axis sit within 1/n! of the pole -n (2e-4 beyond -7), where the reflection formula's
// terms cancel to any depth, so a float evaluation there is only absolutely accurate.
//   0 < x < 1/2     log Gamma(1 + x) - log x, log Gamma(1 + x) = x (x - 1) S(x);
//   1/2 <= x < 3/2  z (z - 1) S(z), z = x - 1 (exact);
//   3/2 <= x < 3    z (z + 1) U(z), z = x - 2 (exact);
//   x >= 3          Stirling's series, (x - 1/2) log x - x + log(2 pi)/2 + sum_k B_2k /
//                   (2k (2k - 1) x^(2k - 1)) (A&S 6.1.40), seven terms (truncation < 3e-9 at 3),
//                   with log x in two parts, (x - 1/2) log x as an exact product and the
//                   cancelling - x exact (Sterbenz), so the sum rounds about once;
// S and U (scripts/special/lgamma_float_fits.py) are log Gamma with the roots' factors divided
// out (positive, well-conditioned polynomials), so the value keeps its relative accuracy at both
// roots; z (z -+ 1) is formed exactly (times_shifted_f). The first two intervals share S: a warp
// on (0, 1) evaluates one polynomial, and the logarithm for its lanes below 1/2. The host build computes the device's bits
// (float_math.cuh); tests/scipy/test_special_float_cpu.py bounds the error against SciPy.
#ifndef CUARRAY_SPECIAL_GAMMA_FLOAT_CUH
#define CUARRAY_SPECIAL_GAMMA_FLOAT_CUH
namespace cuarray_special {

// log Gamma(1 + z) / (z (z - 1)) on [-1/2, 1/2].
CSF_FN float lgamma_s_f(float z) {
  const float S[] = {0.5772156715393066f, -0.24525131285190582f, 0.15543420612812042f, -0.11515305936336517f,
                     0.09224514663219452f, -0.07711366564035416f, 0.06653925031423569f,
                     -0.061480265110731125f, 0.05509910732507706f, -0.030716832727193832f,
                     0.027585303410887718f, -0.08653274178504944f, 0.08076458424329758f};
  return hornerf(S, z);
}

// z (z + c) S with c = +-1, |z| <= 1, rounded about once: z + c = d + d_lo exactly (Fast2Sum:
// rounding z + c alone costs up to 2^-24 relative, a full unit where the sum is just above 1),
// z d = p + e exactly (fmaf), then p S + (e + z d_lo) S as one fmaf.
CSF_FN float times_shifted_f(float z, float c, float S) {
  const float d = c + z;
  const float d_lo = z - (d - c);
  const float p = z * d;
  const float e = fmaf(z, d, -p);
  return fmaf(p, S, fmaf(z, d_lo, e) * S);
}

// log Gamma(x) for x >= 0 (+inf at 0 and inf, NaN for NaN).
CSF_FN float lgamma_pos_f(float x) {
  if (!(x < lim<float>::inf())) return x + x;  // inf, NaN
  if (x == 0.0f) return lim<float>::inf();
  if (x < 1.5f) {
    // one polynomial for (0, 1.5), so a warp on (0, 1) runs it once, and the logarithm for its
    // lanes below 1/2: log Gamma(x) = log Gamma(1 + x) - log x there
    const bool below_half = x < 0.5f;
    const float z = below_half ? x : x - 1.0f;
    const float r = times_shifted_f(z, -1.0f, lgamma_s_f(z));
    return below_half ? r - log_f(x) : r;
  }
  if (x < 3.0f) {
    const float z = x - 2.0f;
    const float U[] = {0.42278432846069336f, -0.10031729936599731f, 0.03296501934528351f,
                       -0.012384357862174511f, 0.004998452961444855f, -0.0021060951985418797f,
                       0.0009148258832283318f, -0.0004146656137891114f, 0.00019300059648230672f,
                       -7.47642625356093e-05f, 1.513913412054535e-05f};
    return times_shifted_f(z, 1.0f, hornerf(U, z));
  }
  float llo;
  const float lhi = log_parts_f(x, llo);
  // x (log x - 1): the rest is below 1e-28 relative. In double and rounded once, as SciPy's float32
  // loop rounds its double: two float roundings gave FLT_MAX where SciPy overflows (x = 4.0850034e36)
  if (x > 1e30f) return (float)((double)x * (((double)lhi - 1.0) + (double)llo));
  const float xm = x - 0.5f;               // exact below 2^23
  const float p = xm * lhi;
  const float plo = fmaf(xm, lhi, -p);
  const float s = p - x;                   // exact while p <= 2x (x <= 7.4); no cancellation beyond
  const float r = 1.0f / x;
  const float r2 = r * r;
  const float W[] = {0.0833333358f, -0.00277777785f, 0.000793650805f, -0.000595238095f, 0.000841750841f,
                     -0.00191752691f, 0.00641025641f};  // B_2k / (2k (2k - 1))
  const float w = r * hornerf(W, r2);
  const float small = (1.5634177e-08f + w) + fmaf(xm, llo, plo);  // log(2 pi)/2 - 0.918938518f
  return s + (0.918938518f + small);
}

// The float32 loop: float for x >= 0, double (CUDA's lgamma, SciPy's -inf at -inf) below.
CSF_FN float gammaln_float(float x) {
  if (x < 0.0f) return gammaln(x);
  return lgamma_pos_f(x);
}

}  // namespace cuarray_special
#endif
