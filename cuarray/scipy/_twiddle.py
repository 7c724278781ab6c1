"""The twiddle products of the DCT/DST (`_realtransforms`), each one kernel that makes its twiddle
`exp(i (a k + b))` as it goes, k the index along the last axis, the phase in double precision
(k reaches 2^26 and more; a float32 phase is off by whole radians there).

Made as arrays first, a 2^26-point dct2 spent five passes building the complex128 twiddle and two
more multiplying it and taking the real part (docs/perf-notes.md)."""

from __future__ import annotations

import functools

import numpy

from .._core.elementwise_kernel import ElementwiseKernel
from .._creation.basic import empty

__all__ = ["rotate", "rotate_part"]

_PHASE = "double s_, c_; sincos(a * (double)(i % n) + b, &s_, &c_); "


@functools.lru_cache(maxsize=None)
def _rotate_kernel():
    return ElementwiseKernel(
        "X x, float64 a, float64 b, int64 n, float64 scale", "C y",
        _PHASE + "const double xs_ = scale * (double)x; y = C(xs_ * c_, xs_ * s_)",
        "cuarray_dct_rotate")


@functools.lru_cache(maxsize=None)
def _rotate_part_kernel():
    return ElementwiseKernel(
        "V v, float64 a, float64 b, int64 n, int32 part, float64 scale", "R y",
        _PHASE + "const double re_ = (double)v.real(), im_ = (double)v.imag(); "
        "y = (R)(scale * (part ? re_ * s_ + im_ * c_ : re_ * c_ - im_ * s_))",
        "cuarray_dct_rotate_part")


def rotate(x, a, b, dtype, scale=1.0):
    """`scale * x_k * exp(i (a k + b))` along the last axis of real `x`, complex of `dtype`."""
    out = empty(x.shape, dtype=dtype)
    if out.size:
        _rotate_kernel()(x, float(a), float(b), numpy.int64(x.shape[-1]), float(scale), out)
    return out


def rotate_part(v, a, b, part, scale=1.0):
    """The real (`part` 0) or imaginary (1) part of `scale * v_k * exp(i (a k + b))` along the
    last axis of complex `v`, in `v`'s real type."""
    out = empty(v.shape, dtype=numpy.finfo(v.dtype).dtype)  # (v.real could copy)
    if out.size:
        _rotate_part_kernel()(v, float(a), float(b), numpy.int64(v.shape[-1]), numpy.int32(part), float(scale), out)
    return out
