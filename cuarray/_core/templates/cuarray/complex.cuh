// cuarray/complex.cuh: complex<T> for float and double, small enough to keep NVRTC fast
// (<cuda/std/complex> costs 0.6-1.1 s of compile time per kernel).
#pragma once

namespace cuarray {

template <typename T>
struct alignas(2 * sizeof(T)) complex {
  T re, im;
  __host__ __device__ constexpr complex(T r = T(0), T i = T(0)) : re(r), im(i) {}
  __host__ __device__ constexpr T real() const { return re; }
  __host__ __device__ constexpr T imag() const { return im; }
  __device__ complex& operator+=(complex o) { re += o.re; im += o.im; return *this; }
  __device__ complex& operator-=(complex o) { re -= o.re; im -= o.im; return *this; }
  __device__ complex& operator*=(complex o) { *this = *this * o; return *this; }
  __device__ complex& operator/=(complex o) { *this = *this / o; return *this; }

  friend __device__ complex operator+(complex a, complex b) { return complex(a.re + b.re, a.im + b.im); }
  friend __device__ complex operator-(complex a, complex b) { return complex(a.re - b.re, a.im - b.im); }
  friend __device__ complex operator-(complex a) { return complex(-a.re, -a.im); }
  friend __device__ complex operator+(complex a) { return a; }
  // NumPy's complex multiply loop as it runs on an x86-64 host with FMA (AVX2/AVX-512, the
  // oracle's): each part one fused multiply-add, re = fma(ar, br, -(ai*bi)), im = fma(ar, bi, ai*br),
  // bit for bit; so (1e308+1e308j)**2 is -inf+infj there, not the separate products' nan+infj.
  friend __device__ complex operator*(complex a, complex b) {
    return complex(::fma(a.re, b.re, -(a.im * b.im)), ::fma(a.re, b.im, a.im * b.re));
  }
  // Smith's algorithm: avoids the overflow of the textbook formula for large |b|.
  friend __device__ complex operator/(complex a, complex b) {
    // fabs, not a comparison: -0.0 must become +0.0, or (inf+1.5j)/(-0-0j) gets the wrong signs.
    T abr = ::fabs(b.re), abi = ::fabs(b.im);
    if (abr >= abi) {
      if (abr == T(0) && abi == T(0)) {
        return complex(a.re / abr, a.im / abi);  // inf/nan, like NumPy
      }
      T r = b.im / b.re, d = b.re + b.im * r;
      return complex((a.re + a.im * r) / d, (a.im - a.re * r) / d);
    }
    T r = b.re / b.im, d = b.im + b.re * r;
    return complex((a.re * r + a.im) / d, (a.im * r - a.re) / d);
  }
  friend __device__ bool operator==(complex a, complex b) { return a.re == b.re && a.im == b.im; }
  friend __device__ bool operator!=(complex a, complex b) { return !(a == b); }
  // Lexicographic order, NumPy's order for complex comparisons (NaN-aware versions in ops).
  friend __device__ bool operator<(complex a, complex b) { return a.re < b.re || (a.re == b.re && a.im < b.im); }
  friend __device__ bool operator>(complex a, complex b) { return b < a; }
  friend __device__ bool operator<=(complex a, complex b) { return a.re < b.re || (a.re == b.re && a.im <= b.im); }
  friend __device__ bool operator>=(complex a, complex b) { return b <= a; }
};

}  // namespace cuarray
