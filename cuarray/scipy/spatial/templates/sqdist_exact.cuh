// cuarray cdist/pdist, the euclidean family and mahalanobis: one pair's squared distance by SciPy's
// direct formula, from the original rows (not the centred, scaled operands of the product). The
// product's epilogues (sqdist_tiles.cu) call it where |a|^2 + |b|^2 - 2 a.b cancelled too much to
// trust: equal rows give exactly 0, integer rows their exact integer squares, near pairs SciPy's
// few-ulp result. The order of operations is SciPy's (scipy/spatial/src/distance_metrics.h and
// distance_impl.h), with no contraction into FMAs (SciPy's x86-64 builds have none), so the
// recomputed entries equal SciPy's bit for bit. Host-buildable with g++ (tests build it with
// -ffp-contract=off and -I cuarray/_core/templates, and compare it with SciPy).
#pragma once

#include "cuarray/rounded.cuh"  // cuarray::rn::mul, add: each step rounded once (never an fma)

#if defined(__CUDACC_RTC__) || defined(__CUDA_ARCH__)
#define CUARRAY_SQX_FN __device__ __forceinline__
#else
#define CUARRAY_SQX_FN inline
#endif
#define CUARRAY_SQX_MUL(x, y) cuarray::rn::mul(x, y)
#define CUARRAY_SQX_ADD(x, y) cuarray::rn::add(x, y)

namespace cuarray_sqdist {

// What `p` holds and how a column's term is formed (d = a - b):
constexpr int EXACT_PLAIN = 0;        // euclidean, sqeuclidean, minkowski p=2: d * d
constexpr int EXACT_WEIGHTED = 1;     // euclidean, minkowski p=2 with weights p = w: w * (d * d)
constexpr int EXACT_WEIGHTED_SQ = 2;  // sqeuclidean with weights p = w: (w * d) * d
constexpr int EXACT_VARIANCE = 3;     // seuclidean, p = V: (d * d) / V
constexpr int EXACT_QUAD = 4;         // mahalanobis, p = VI (k x k, row-major): d . (VI d)

// Column j of a row whose columns are `cs` bytes apart.
CUARRAY_SQX_FN double exact_at(const char* row, long long j, long long cs) {
  return *reinterpret_cast<const double*>(row + j * cs);
}

// sum over the k columns of rows a and b (column byte strides acs, bcs) of the mode's term.
CUARRAY_SQX_FN double exact_square(const char* a, long long acs, const char* b, long long bcs, long long k, int mode,
                                   const double* p) {
  double s = 0.0;
  if (mode == EXACT_VARIANCE) {
    // SciPy's seuclidean loop as its SSE2 build runs it: even and odd columns in two sums, added,
    // then the last column of an odd k
    double s1 = 0.0;
    long long j = 0;
    for (; j + 1 < k; j += 2) {
      const double d0 = exact_at(a, j, acs) - exact_at(b, j, bcs);
      const double d1 = exact_at(a, j + 1, acs) - exact_at(b, j + 1, bcs);
      s = CUARRAY_SQX_ADD(s, CUARRAY_SQX_MUL(d0, d0) / p[j]);
      s1 = CUARRAY_SQX_ADD(s1, CUARRAY_SQX_MUL(d1, d1) / p[j + 1]);
    }
    s = CUARRAY_SQX_ADD(s, s1);
    if (j < k) {
      const double d = exact_at(a, j, acs) - exact_at(b, j, bcs);
      s = CUARRAY_SQX_ADD(s, CUARRAY_SQX_MUL(d, d) / p[j]);
    }
    return s;
  }
  if (mode == EXACT_QUAD) {
    // SciPy's mahalanobis: t = VI d row by row, then d . t (the differences formed again each row:
    // no k-long buffer a thread)
    for (long long i = 0; i < k; ++i) {
      const double* row = p + i * k;
      double t = 0.0;
      for (long long j = 0; j < k; ++j)
        t = CUARRAY_SQX_ADD(t, CUARRAY_SQX_MUL(exact_at(a, j, acs) - exact_at(b, j, bcs), row[j]));
      s = CUARRAY_SQX_ADD(s, CUARRAY_SQX_MUL(exact_at(a, i, acs) - exact_at(b, i, bcs), t));
    }
    return s;
  }
  for (long long j = 0; j < k; ++j) {
    const double d = exact_at(a, j, acs) - exact_at(b, j, bcs);
    double v;
    if (mode == EXACT_PLAIN) {
      v = CUARRAY_SQX_MUL(d, d);
    } else if (mode == EXACT_WEIGHTED) {
      v = CUARRAY_SQX_MUL(p[j], CUARRAY_SQX_MUL(d, d));
    } else {
      v = CUARRAY_SQX_MUL(CUARRAY_SQX_MUL(p[j], d), d);
    }
    s = CUARRAY_SQX_ADD(s, v);
  }
  return s;
}

}  // namespace cuarray_sqdist

#undef CUARRAY_SQX_FN
#undef CUARRAY_SQX_MUL
#undef CUARRAY_SQX_ADD
