"""`lfilter` with complex coefficients, as real-coefficient filters (which the GPU scan runs).

A complex numerator over a real denominator is two real filters: y = lfilter(Re b, a, x) +
1j lfilter(Im b, a, x), the state splitting the same way (the recursion is linear and `a` real).
A complex denominator A(z) becomes real by multiplying numerator and denominator by
conj-A(z) = sum_k conj(a_k) z^-k: A(z) conj-A(z) has real coefficients (c_n = sum_k a_k
conj(a_(n-k)) is its own conjugate) and the roots of conj-A are the conjugates of A's, so a stable
filter stays stable; the order doubles. An initial state zi (the numerator of the zero-input
response zi(z) / A(z)) becomes zi(z) conj-A(z) for the doubled filter, and its final state is
deconvolved by conj-A to SciPy's final state (the tail of (B X - A Y) conj-A is the tail of
B X - A Y times conj-A). Host arithmetic on the coefficients; the states are small slices on the
device."""

from __future__ import annotations

import numpy

from ..._creation.basic import zeros as _zeros
from ..._manipulation.joining import concatenate as _concatenate

__all__ = ["lfilter_complex", "real_denominator"]


def real_denominator(b: numpy.ndarray, a: numpy.ndarray):
    """(numerator, denominator, conj-a) of the filter b / a with a real denominator (a complex)."""
    ca = numpy.conj(a)
    den = numpy.real(numpy.convolve(a, ca))  # A(z) conj-A(z): real, up to rounding (dropped)
    return numpy.convolve(b, ca), den, ca


def _axis_index(ndim, axis, s):
    idx = [slice(None)] * ndim
    idx[axis] = s
    return tuple(idx)


def _times_poly(zi, c, axis, length):
    """The coefficients of zi(z) c(z) along `axis` (zi's length K there), `length` of them."""
    shape = list(zi.shape)
    shape[axis] = length
    out = _zeros(tuple(shape), numpy.result_type(zi.dtype, c.dtype))
    zi = zi.astype(out.dtype, copy=False)  # (a complex64 state times a Python complex stays complex64)
    K = zi.shape[axis]
    for j, cj in enumerate(c):
        if j >= length:
            break
        stop = min(j + K, length)
        idx = _axis_index(zi.ndim, axis, slice(j, stop))
        out[idx] = out[idx] + zi[_axis_index(zi.ndim, axis, slice(0, stop - j))] * complex(cj)
    return out


def _divide_poly(zf2, c, axis, K):
    """The first K coefficients of zf2(z) / c(z) along `axis` (forward substitution)."""
    parts = []
    for k in range(K):
        acc = zf2[_axis_index(zf2.ndim, axis, slice(k, k + 1))]
        for j in range(1, min(k, len(c) - 1) + 1):
            acc = acc - parts[k - j] * complex(c[j])
        parts.append(acc / complex(c[0]))
    if not parts:
        shape = list(zf2.shape)
        shape[axis] = 0
        return _zeros(tuple(shape), zf2.dtype)
    return _concatenate(parts, axis=axis)


def lfilter_complex(b, a, x, axis, zi, run, dtype):
    """lfilter(b, a, x, axis, zi) for complex b or a (host 1-D arrays, a[0] != 0) through `run`,
    the real-coefficient lfilter; the result in `dtype` (SciPy's result type)."""
    b = b / a[0]
    a = a / a[0]
    K = max(len(a), len(b)) - 1
    if a.dtype.kind == "c" and numpy.any(a.imag != 0):
        num, den, ca = real_denominator(b, a)
        K2 = max(len(num), len(den)) - 1
        zi2 = None if zi is None else _times_poly(zi, ca, axis, K2)
        out = _real_denominator_filter(num, den.real, x, axis, zi2, run)
        if zi is None:
            return out.astype(dtype, copy=False)
        y, zf2 = out
        return y.astype(dtype, copy=False), _divide_poly(zf2, ca, axis, K).astype(dtype, copy=False)
    out = _real_denominator_filter(b, a.real, x, axis, zi, run)
    if zi is None:
        return out.astype(dtype, copy=False)
    return out[0].astype(dtype, copy=False), out[1].astype(dtype, copy=False)


def _real_denominator_filter(b, a, x, axis, zi, run):
    """lfilter of a complex numerator over the real denominator a: two real-coefficient runs."""
    br, bi = numpy.ascontiguousarray(b.real), numpy.ascontiguousarray(b.imag)
    if zi is None:
        return run(br, a, x, axis, None) + 1j * run(bi, a, x, axis, None)
    zr = zi
    z0 = _zeros(zi.shape, zi.dtype)
    y1, zf1 = run(br, a, x, axis, zr)
    y2, zf2 = run(bi, a, x, axis, z0)
    return y1 + 1j * y2, zf1 + 1j * zf2
