// Double-double arithmetic (an unevaluated sum hi + lo, about 32 digits) for the series of
// cuarray.scipy.special whose terms cancel (struve's power series, hyp1f1's series).
#ifndef CUARRAY_SPECIAL_DDOUBLE_CUH
#define CUARRAY_SPECIAL_DDOUBLE_CUH
namespace cuarray_special {

// Double-double numbers (hi + lo, |lo| <= ulp(hi)/2): Knuth's two-sum and an fma product.
struct dd_real {
  double hi, lo;
};
CSF_FN dd_real dd(double x) { dd_real r; r.hi = x; r.lo = 0.0; return r; }
CSF_FN dd_real dd_norm(double s, double e) {
  dd_real r;
  r.hi = s + e;
  r.lo = e - (r.hi - s);
  return r;
}
CSF_FN dd_real dd_add(dd_real a, dd_real b) {
  const double s = a.hi + b.hi, bb = s - a.hi;
  const double e = (a.hi - (s - bb)) + (b.hi - bb);
  return dd_norm(s, e + a.lo + b.lo);
}
CSF_FN dd_real dd_mul(dd_real a, dd_real b) {
  const double p = a.hi * b.hi;
  const double e = fma(a.hi, b.hi, -p);
  return dd_norm(p, e + (a.hi * b.lo + a.lo * b.hi));
}
CSF_FN dd_real dd_div(dd_real a, dd_real b) {
  const double q1 = a.hi / b.hi;
  const dd_real r = dd_add(a, dd_mul(dd(-q1), b));  // a - q1 b
  const double q2 = r.hi / b.hi;
  return dd_add(dd(q1), dd(q2));
}

}  // namespace cuarray_special
#endif
