"""The DCT and DST of types 1-4 (scipy.fft's definitions, norms and `orthogonalize`) through
cuFFT: each is one real or complex FFT of an extended or twiddled sequence along the axis, plus
elementwise twiddles (the classical reductions, e.g. J. Makhoul, IEEE Trans. ASSP 28(1), 1980):

- DCT-I: rfft of the even extension [x, x[N-2:0:-1]] (length 2N - 2), real part;
- DCT-II: rfft of [x, x[::-1]] (length 2N), times e^(-i pi k / 2N), real part;
- DCT-III: 2N irfft of y_k e^(i pi k / 2N) (length 2N), first N values;
- DCT-IV / DST-IV: fft of x e^(-i pi n / 2N) zero-padded to 2N, times e^(-i pi (2k+1) / 4N);
- DST-I: rfft of the odd extension [0, x, 0, -x[::-1]] (length 2N + 2), minus the imaginary part;
- DST-II(x) = DCT-II(x (-1)^n) reversed; DST-III(x) = (-1)^k DCT-III(x reversed).

Written over a NumPy-named namespace `xp` (cuarray's in `cuarray.scipy.fft`), so the CPU tests run
this code with NumPy against scipy.fft. Beside NumPy's names the namespace has `rotate` and
`rotate_part`: a sequence times exp(i (a k + b)), whole or one part of it, scaled (`numpy_rotate`
and `numpy_rotate_part` define them; on the device each is one kernel that makes its twiddle as it
goes, so no twiddle array is written or read). Complex input is transformed as its real and imaginary
parts (scipy's rule)."""

from __future__ import annotations

import math

import numpy

__all__ = ["r2r"]

_INVERSE_TYPE = {1: 1, 2: 3, 3: 2, 4: 4}


def numpy_rotate(x, a, b, dtype, scale=1.0):
    """`scale * x_k * exp(i (a k + b))` along the last axis, complex of `dtype`: the host
    definition of the namespace's `rotate` (the device's is one kernel, `cuarray.scipy.fft`)."""
    k = numpy.arange(x.shape[-1], dtype=numpy.float64)
    return (scale * x * numpy.exp(1j * (a * k + b))).astype(dtype)


def numpy_rotate_part(v, a, b, part, scale=1.0):
    """The real (`part` 0) or imaginary (1) part of `scale * v_k * exp(i (a k + b))` along the
    last axis: the host definition of the namespace's `rotate_part`."""
    k = numpy.arange(v.shape[-1], dtype=numpy.float64)
    w = scale * v * numpy.exp(1j * (a * k + b))
    return (w.imag if part else w.real).astype(v.real.dtype)


def _weights(xp, n, where, value, dtype):
    """Ones, with `value` at the few indices `where`."""
    w = xp.ones(n, dtype=dtype)
    for i in where:
        w[i] = value
    return w


def _alternating(xp, n, dtype):
    """1, -1, 1, ... (n values)."""
    w = xp.ones(n, dtype=dtype)
    w[1::2] = -1
    return w


def _dct(xp, x, t, cdt):
    n = x.shape[-1]
    if t == 1:
        v = xp.concatenate([x, x[..., -2:0:-1]], axis=-1)
        return xp.real(xp.rfft(v, axis=-1))[..., :n]
    if t == 2:
        v = xp.rfft(xp.concatenate([x, x[..., ::-1]], axis=-1), axis=-1)[..., :n]
        return xp.rotate_part(v, -math.pi / (2 * n), 0.0, 0)
    if t == 3:  # (irfft is linear: its 2N scale rides on the twiddle)
        v = xp.rotate(x, math.pi / (2 * n), 0.0, cdt, 2 * n)
        v = xp.concatenate([v, xp.zeros(v.shape[:-1] + (1,), dtype=cdt)], axis=-1)
        return xp.irfft(v, n=2 * n, axis=-1)[..., :n]
    z = xp.fft(xp.rotate(x, -math.pi / (2 * n), 0.0, cdt), n=2 * n, axis=-1)[..., :n]
    return xp.rotate_part(z, -math.pi / (2 * n), -math.pi / (4 * n), 0, 2.0)


def _dst(xp, x, t, cdt):
    n = x.shape[-1]
    if t == 1:
        zero = xp.zeros(x.shape[:-1] + (1,), dtype=x.dtype)
        v = xp.concatenate([zero, x, zero, -x[..., ::-1]], axis=-1)
        return -xp.imag(xp.rfft(v, axis=-1))[..., 1:n + 1]
    if t == 2:
        return _dct(xp, x * _alternating(xp, n, x.dtype), 2, cdt)[..., ::-1]
    if t == 3:
        return _dct(xp, x[..., ::-1], 3, cdt) * _alternating(xp, n, x.dtype)
    z = xp.fft(xp.rotate(x, -math.pi / (2 * n), 0.0, cdt), n=2 * n, axis=-1)[..., :n]
    return xp.rotate_part(z, -math.pi / (2 * n), -math.pi / (4 * n), 1, -2.0)


def _length(kind, t, n):
    """The normalising length N' of scipy.fft's definitions."""
    if t == 1:
        return 2 * (n - 1) if kind == "dct" else 2 * (n + 1)
    return 2 * n


def r2r(xp, x, kind, t, norm, orthogonalize, inverse):
    """The DCT (`kind` 'dct') or DST ('dst') of type `t` of real `x` along its last axis, or its
    inverse; `norm` one of scipy.fft's, `orthogonalize` None (follows norm == 'ortho') or a bool."""
    n = x.shape[-1]
    if kind == "dct" and t == 1 and n < 2:
        raise RuntimeError("zero-length FFT requested")
    ft = _INVERSE_TYPE[t] if inverse else t
    cdt = numpy.result_type(x.dtype, numpy.complex64)
    ortho = norm == "ortho"
    orth = ortho if orthogonalize is None else bool(orthogonalize)
    r2 = math.sqrt(2.0)
    if orth:
        pre = {("dct", 1): (0, n - 1), ("dct", 3): (0,), ("dst", 3): (n - 1,)}.get((kind, ft), ())
        if pre:
            x = x * _weights(xp, n, pre, r2, x.dtype)
    y = (_dct if kind == "dct" else _dst)(xp, x, ft, cdt)
    if orth:
        post = {("dct", 1): (0, n - 1), ("dct", 2): (0,), ("dst", 2): (n - 1,)}.get((kind, ft), ())
        if post:
            y = y * _weights(xp, n, post, 1 / r2, y.dtype)
    length = _length(kind, t, n)
    if ortho:
        scale = 1 / math.sqrt(length)
    elif (norm == "forward") != inverse:  # forward transform with 'forward', inverse with 'backward'
        scale = 1 / length
    else:
        scale = 1.0
    return y * scale if scale != 1.0 else y
