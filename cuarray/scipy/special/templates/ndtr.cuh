// The standard normal distribution of cuarray.scipy.special: ndtr, log_ndtr, ndtri.
#ifndef CUARRAY_SPECIAL_NDTR_CUH
#define CUARRAY_SPECIAL_NDTR_CUH
namespace cuarray_special {

// Phi(x) = erfc(-x / sqrt 2) / 2, switching to 1/2 + erf / 2 near 0 where erfc(-y) ~ 1 would
// lose nothing but erf is the better-conditioned form (the split of Cephes' ndtr, S. L. Moshier).
template <typename T>
CSF_FN T ndtr(T x) {
  if (isnan(x)) return x;
  const T y = x * T(k_sqrt1_2);
  const T z = y < T(0) ? -y : y;
  if (z < T(k_sqrt1_2)) return T(0.5) + T(0.5) * erf(y);
  return y > T(0) ? T(1) - T(0.5) * erfc(y) : T(0.5) * erfc(-y);
}

#ifdef CSF_DEVICE
// log Phi(x), SciPy's split. Right of -1: log1p(-Phi(-x)) = log1p(-erfc(x / sqrt 2) / 2), exact
// to the last bit where Phi(x) ~ 1 (log(Phi(x)) there keeps only the absolute error of Phi's
// rounding: 1e-7 relative at x = 6). Left of -1: Phi(x) = erfcx(t) exp(-t^2) / 2 with
// t = -x / sqrt 2, so log Phi = log(erfcx(t) / 2) - t^2 holds down to -inf without underflow.
template <typename T>
CSF_FN T log_ndtr(T x) {
  if (isnan(x)) return x;
  if (x >= T(-1)) return log1p(T(-0.5) * erfc(x * T(k_sqrt1_2)));
  const T t = -x * T(k_sqrt1_2);
  return log(T(0.5) * erfcx(t)) - t * t;
}

CSF_FN float ndtri(float p) { return ::normcdfinvf(p); }
CSF_FN double ndtri(double p) { return ::normcdfinv(p); }
#endif

}  // namespace cuarray_special
#endif
