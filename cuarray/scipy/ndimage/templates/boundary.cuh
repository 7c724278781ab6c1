// Boundary modes of scipy.ndimage's filters: where a tap that falls outside [0, n) reads.
// Plain C++ (no CUDA keywords unless CUARRAY_DEVICE is defined), so that the host test
// (tests/scipy/ndimage/test_boundary_cpu.py) compiles this very file with g++ and checks it
// against scipy.ndimage. The Python mirror is cuarray/scipy/ndimage/_boundary.py.
#ifndef CUARRAY_NDIMAGE_BOUNDARY_CUH
#define CUARRAY_NDIMAGE_BOUNDARY_CUH

#ifndef CUARRAY_DEVICE
#define CUARRAY_DEVICE
#endif

namespace cuarray_ndimage {

// The codes of _boundary.MODES (the filter modes; grid-* are mapped onto them in Python).
enum { REFLECT = 0, MIRROR = 1, NEAREST = 2, WRAP = 3, CONSTANT = 4 };

// The index in [0, n) that position i reads, or -1 (CONSTANT mode outside: the tap reads cval).
// reflect: d c b a | a b c d | d c b a (period 2n); mirror: d c b | a b c d | c b a (period
// 2n - 2, n == 1 reads 0); nearest: a a | a b c d | d d; wrap: c d | a b c d | a b.
template <typename I>
CUARRAY_DEVICE inline I map_index(I i, I n, int mode) {
  if (i >= 0 && i < n) return i;
  switch (mode) {
    case REFLECT: {
      I p = 2 * n;
      I r = i % p;
      if (r < 0) r += p;
      return r < n ? r : p - 1 - r;
    }
    case MIRROR: {
      if (n == 1) return 0;
      I p = 2 * n - 2;
      I r = i % p;
      if (r < 0) r += p;
      return r < n ? r : p - r;
    }
    case NEAREST:
      return i < 0 ? 0 : n - 1;
    case WRAP: {
      I r = i % n;
      return r < 0 ? r + n : r;
    }
    default:
      return -1;
  }
}

}  // namespace cuarray_ndimage
#endif
