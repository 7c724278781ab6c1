// cuarray/datetime.cuh: datetime64 / timedelta64 values in generated kernels, the device half of
// cuarray/_core/datetimes.py (which writes every call to these functions).
//
// A value is NumPy's int64 count of its dtype's unit since 1970-01-01 (datetime64) or of its unit
// (timedelta64); NaT is int64's minimum. Arithmetic follows NumPy's C loops (umath/loops.c.src,
// datetime.c): NaT in gives NaT out (comparisons with NaT are false, != true), integer overflow
// wraps as NumPy's did before 2.5 (2.5 raises OverflowError: docs/differences.md), unit
// conversions round toward -inf. Generated sources include this file
// only when a datetime operand takes part. The functions are plain C++ under CUARRAY_DT_FN, so
// the host tests build them with g++ (tests/_core/test_datetime_cpu.py).
#pragma once

#ifndef CUARRAY_DT_FN
#define CUARRAY_DT_FN __device__ __forceinline__
#endif

namespace cuarray {
namespace dt {

constexpr long long NaT = -9223372036854775807LL - 1;

CUARRAY_DT_FN bool isnat(long long v) { return v == NaT; }

// Two's-complement wrapping, as NumPy's int64 arithmetic behaves (signed overflow is undefined in C++).
CUARRAY_DT_FN long long wrap_add(long long a, long long b) {
  return (long long)((unsigned long long)a + (unsigned long long)b);
}
CUARRAY_DT_FN long long wrap_sub(long long a, long long b) {
  return (long long)((unsigned long long)a - (unsigned long long)b);
}
CUARRAY_DT_FN long long wrap_mul(long long a, long long b) {
  return (long long)((unsigned long long)a * (unsigned long long)b);
}

// -- unit conversion -------------------------------------------------------------------------------
// v * num / den rounded toward -inf (NumPy's linear cast between units: `(v * num - (den - 1)) / den`
// for v < 0), NaT kept.
CUARRAY_DT_FN long long rescale(long long v, long long num, long long den) {
  if (v == NaT) return NaT;
  const long long p = wrap_mul(v, num);
  if (den == 1) return p;
  return v < 0 ? wrap_sub(p, den - 1) / den : p / den;
}

// Days since 1970-01-01 of a proleptic Gregorian date, and back (H. Hinnant's algorithms, exact
// for every date whose day count fits int64 with margin).
CUARRAY_DT_FN long long days_from_civil(long long y, long long m, long long d) {
  y -= m <= 2;
  const long long era = (y >= 0 ? y : y - 399) / 400;
  const long long yoe = y - era * 400;
  const long long doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const long long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}
CUARRAY_DT_FN void civil_from_days(long long z, long long& y, long long& m) {
  z += 719468;
  const long long era = (z >= 0 ? z : z - 146096) / 146097;
  const long long doe = z - era * 146097;
  const long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const long long mp = (5 * doy + 2) / 153;
  m = mp < 10 ? mp + 3 : mp - 9;
  y = yoe + era * 400 + (m <= 2);
}

// datetime64 between month/year counts and day counts (the calendar casts; NaT kept). Day counts
// to months and years take the month or year the day falls in, NumPy's rounding toward -inf.
CUARRAY_DT_FN long long months_to_days(long long v) {
  if (v == NaT) return NaT;
  const long long y = v >= 0 ? v / 12 : -((-(v + 1)) / 12) - 1;  // floor(v / 12)
  return days_from_civil(1970 + y, v - y * 12 + 1, 1);
}
CUARRAY_DT_FN long long years_to_days(long long v) {
  return v == NaT ? NaT : days_from_civil(1970 + v, 1, 1);
}
CUARRAY_DT_FN long long days_to_months(long long v) {
  if (v == NaT) return NaT;
  long long y, m;
  civil_from_days(v, y, m);
  return (y - 1970) * 12 + (m - 1);
}
CUARRAY_DT_FN long long days_to_years(long long v) {
  if (v == NaT) return NaT;
  long long y, m;
  civil_from_days(v, y, m);
  return y - 1970;
}

// A float as a timedelta count (or a float result of timedelta arithmetic): truncation, and NaT
// where NumPy's x86-64 conversion (cvttsd2si) gives int64's minimum: NaN, inf, out of range.
template <typename F>
CUARRAY_DT_FN long long from_float(F x) {
  const double v = (double)x;
  return (v == v && v >= -9223372036854775808.0 && v < 9223372036854775808.0) ? (long long)v : NaT;
}

// -- ufunc loops ------------------------------------------------------------------------------------
CUARRAY_DT_FN long long add(long long a, long long b) { return (a == NaT || b == NaT) ? NaT : wrap_add(a, b); }
CUARRAY_DT_FN long long sub(long long a, long long b) { return (a == NaT || b == NaT) ? NaT : wrap_sub(a, b); }
CUARRAY_DT_FN long long mul(long long a, long long b) { return a == NaT ? NaT : wrap_mul(a, b); }
CUARRAY_DT_FN long long mul_float(long long a, double b) { return a == NaT ? NaT : from_float((double)a * b); }
CUARRAY_DT_FN long long div_int(long long a, long long b) {
  return (a == NaT || b == 0) ? NaT : (b == -1 ? wrap_mul(a, -1) : a / b);
}
CUARRAY_DT_FN long long div_float(long long a, double b) { return a == NaT ? NaT : from_float((double)a / b); }
CUARRAY_DT_FN double quiet_nan() {
#ifdef __CUDACC__
  return __longlong_as_double(0x7ff8000000000000LL);
#else
  return __builtin_nan("");
#endif
}
CUARRAY_DT_FN double div(long long a, long long b) {
  return (a == NaT || b == NaT) ? quiet_nan() : (double)a / (double)b;
}
CUARRAY_DT_FN long long neg(long long a) { return a == NaT ? NaT : wrap_mul(a, -1); }
CUARRAY_DT_FN long long abs(long long a) { return (a == NaT || a >= 0) ? a : wrap_mul(a, -1); }

CUARRAY_DT_FN bool eq(long long a, long long b) { return a != NaT && b != NaT && a == b; }
CUARRAY_DT_FN bool ne(long long a, long long b) { return a == NaT || b == NaT || a != b; }
CUARRAY_DT_FN bool lt(long long a, long long b) { return a != NaT && b != NaT && a < b; }
CUARRAY_DT_FN bool le(long long a, long long b) { return a != NaT && b != NaT && a <= b; }
CUARRAY_DT_FN bool gt(long long a, long long b) { return a != NaT && b != NaT && a > b; }
CUARRAY_DT_FN bool ge(long long a, long long b) { return a != NaT && b != NaT && a >= b; }

// maximum/minimum propagate NaT (as NaN); fmax/fmin ignore it.
CUARRAY_DT_FN long long maximum(long long a, long long b) { return (a == NaT || b == NaT) ? NaT : (a > b ? a : b); }
CUARRAY_DT_FN long long minimum(long long a, long long b) { return (a == NaT || b == NaT) ? NaT : (a < b ? a : b); }
CUARRAY_DT_FN long long fmax(long long a, long long b) { return a == NaT ? b : b == NaT ? a : (a > b ? a : b); }
CUARRAY_DT_FN long long fmin(long long a, long long b) { return a == NaT ? b : b == NaT ? a : (a < b ? a : b); }

}  // namespace dt
}  // namespace cuarray
