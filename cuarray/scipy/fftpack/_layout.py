"""The host rules and the packed real layout of `cuarray.scipy.fftpack`, written over a NumPy-named
namespace `xp` (cuarray's on the device; NumPy's in the CPU tests, against scipy.fftpack).

- `shape_axes`: scipy.fftpack's n-d `shape`/`axes` rules (its `_good_shape`, then scipy.fft's
  `_init_nd_shape_and_axes`): a pure function of the input's shape.
- `pack`: the half spectrum `Y` (n // 2 + 1 complex values along `axis`, an `rfft`) in fftpack's
  real layout ``[y(0), Re y(1), Im y(1), ..., Re y(n/2)]`` (n even; n odd ends with
  ``Im y((n-1)/2)``), length n: two copies (the zero-frequency term, then the interleaved
  real/imaginary pairs read through a real view of the spectrum) where the spectrum's axis is
  contiguous, three strided copies otherwise.
- `unpack`: the inverse, the half spectrum of a packed array (imaginary parts of y(0) and of the
  even length's y(n/2) zero), for an `irfft` of length n.
"""

from __future__ import annotations

from .._fft_shapes import iterable_of_int, nd_shape_axes

__all__ = ["shape_axes", "iterable_of_int", "pack", "unpack", "fix_length"]


def shape_axes(xshape, shape, axes):
    """(sizes, axes) of an n-d transform of an array of shape `xshape` (both lists; axes
    non-negative and distinct), or SciPy's ValueError."""
    if shape is not None and axes is None:  # scipy.fftpack's `_good_shape`
        if len(iterable_of_int(shape, "shape")) != len(xshape):
            raise ValueError("when given, axes and shape arguments have to be of the same length")
    return nd_shape_axes(xshape, shape, axes)


def _index(ndim, axis, sl):
    idx = [slice(None)] * ndim
    idx[axis] = sl
    return tuple(idx)


def fix_length(xp, x, n, axis):
    """`x` truncated or zero-padded to `n` along `axis` (scipy.fft's `_fix_shape_1d`)."""
    have = x.shape[axis]
    if have >= n:
        return x[_index(x.ndim, axis, slice(0, n))]
    pad = list(x.shape)
    pad[axis] = n - have
    return xp.concatenate([x, xp.zeros(tuple(pad), dtype=x.dtype)], axis=axis)


def pack(xp, Y, n, axis):
    """fftpack's packed real array (length n along `axis`, C order) of the half spectrum `Y`."""
    shape = list(Y.shape)
    shape[axis] = n
    real = Y.real.dtype
    out = xp.empty(tuple(shape), dtype=real)
    om = xp.moveaxis(out, axis, -1)
    Ym = xp.moveaxis(Y, axis, -1)
    om[..., :1] = Ym[..., :1].real
    if n == 1:
        return out
    if Ym.strides[-1] == Ym.itemsize:  # a real view interleaves (re, im): one copy of the pairs
        om[..., 1:] = Ym.view(real)[..., 2:n + 1]
        return out
    om[..., 1::2] = Ym[..., 1:1 + n // 2].real
    om[..., 2::2] = Ym[..., 1:1 + (n - 1) // 2].imag
    return out


def unpack(xp, x, n, axis, cdtype):
    """The half spectrum (n // 2 + 1 values of `cdtype` along `axis`) of the packed real `x`
    (length n along `axis`)."""
    shape = list(x.shape)
    m = n // 2 + 1
    shape[axis] = m
    xm = xp.moveaxis(x, axis, -1)
    Y = xp.zeros(tuple(shape[:axis] + shape[axis + 1:]) + (m,), dtype=cdtype)  # C order, axis last
    Yv = Y.view(xm.dtype)
    Yv[..., :1] = xm[..., :1]
    if n > 1:
        Yv[..., 2:n + 1] = xm[..., 1:]
    return xp.moveaxis(Y, -1, axis)
