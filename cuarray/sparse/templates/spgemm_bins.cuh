// cuarray row-wise SpGEMM: the bin of a row, shared by the kernels (spgemm.cu) and a host build
// in the CPU tests (g++ with CUARRAY_HD defined empty), so the planner in
// cuarray/sparse/_spgemm_plan.py and the device agree on every boundary.
//
// A row of C = A @ B has at most d = min(ub, p) distinct columns, ub its product count (the sum of
// the lengths of the B rows its A entries name) and p the columns of B. Bin 0: d == 0 (an empty
// row). Bin b in 1..7: 16 << (b - 1) < d <= 16 << b, hashed in a shared-memory table of 32 << b
// slots (load factor at most 1/2). kBig: rows past `max_bin` (the largest table a dtype's shared
// memory holds) or with ub >= 2^31 (the in-row product positions are 32-bit): the sort path.
#pragma once

#ifndef CUARRAY_HD
#define CUARRAY_HD __host__ __device__
#endif

namespace cuarray {
namespace spgemm {

constexpr int kBig = 8;           // the sort path's bin
constexpr int kBins = kBig + 1;   // bins 0 .. kBig

CUARRAY_HD inline int row_bin(long long ub, long long p, int max_bin) {
  const long long d = ub < p ? ub : p;
  if (d <= 0) return 0;
  if (ub >= (1LL << 31)) return kBig;
  int b = 1;
  while ((16LL << b) < d) ++b;  // d <= 16 << b
  return b <= max_bin ? b : kBig;
}

}  // namespace spgemm
}  // namespace cuarray
