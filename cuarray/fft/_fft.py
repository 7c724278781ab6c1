"""NumPy's numpy.fft transforms on cuFFT: argument handling as NumPy 2, work in `_transform`.

Arguments are checked in NumPy's order so that bad input raises NumPy's exception: `n`/`s` < 1
(ValueError), a bad `norm` (ValueError), an axis out of range (AxisError, or IndexError where
NumPy indexes `a.shape` with it first), `s` and `axes` of different lengths (ValueError).
N-d transforms over distinct axes are one `_transform.transform` call (one cuFFT plan when the
layout allows); repeated axes are composed of 1-D transforms, exactly as NumPy composes them.
"""

from __future__ import annotations

import operator
import warnings

import numpy
from numpy.lib.array_utils import normalize_axis_index

from .._core.host_input import as_array
from .._math.complex import conjugate as _conjugate
from .._core.ndarray import ndarray
from ._transform import _recipes, dtypes_of, run_recipe, scale_of, transform

__all__ = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fftn", "ifftn", "fft2", "ifft2",
           "rfftn", "rfft2", "irfftn", "irfft2"]

_SWAP = {"backward": "forward", None: "forward", "ortho": "ortho", "forward": "backward"}


def _swap_direction(norm):
    try:
        return _SWAP[norm]
    except (KeyError, TypeError):
        raise ValueError('Invalid norm value {}; should be "backward", "ortho" or "forward".'.format(norm)) from None


def _points(n) -> int:
    if isinstance(n, (bool, numpy.bool_)):
        raise TypeError("an integer is required")
    n = operator.index(n)
    if n < 1:
        raise ValueError("Invalid number of FFT data points ({}) specified.".format(n))
    return n


def _one(a, n, axis, kind, forward, norm, out, name, rkey=None):
    n = _points(n)
    scale_of(norm, True, 1)  # validates norm, as NumPy does before the axis
    axis = normalize_axis_index(axis, a.ndim)
    return transform(a, kind, (axis,), (n,), forward, norm, out, name, rkey)


def _key(name, a, n, axis, norm):
    """HOT PATH: the recipe key of a 1-D call from its raw arguments (None: not cacheable)."""
    if type(a) is not ndarray or not (n is None or type(n) is int) or type(axis) is not int:
        return None
    if not (norm is None or type(norm) is str):
        return None
    return (name, a._shape, a._strides, a._dtype, n, axis, norm, a.data.ptr & 15)


def fft(a, n=None, axis=-1, norm=None, out=None):
    """See `numpy.fft.fft`.

    Examples
    --------
    >>> import cuarray
    >>> x = cuarray.cos(2 * cuarray.pi * cuarray.arange(8) / 8)   # one period of a cosine
    >>> cuarray.round(abs(cuarray.fft.fft(x)), 6)   # cuFFT's last bits differ from NumPy's
    array([0., 4., 0., 0., 0., 0., 0., 4.])
    >>> cuarray.fft.fft(x).dtype, cuarray.fft.fft(x, n=16).shape
    (dtype('complex128'), (16,))
    """
    key = _key("fft", a, n, axis, norm) if out is None else None
    if key is not None:
        r = _recipes.get(key)
        if r is not None:
            return run_recipe(r, a)
    a = as_array(a, "fft.fft")
    return _one(a, a.shape[axis] if n is None else n, axis, "c2c", True, norm, out, "fft", key)


def ifft(a, n=None, axis=-1, norm=None, out=None):
    """See `numpy.fft.ifft`.

    Examples
    --------
    >>> import cuarray
    >>> x = cuarray.array([1.0, 2.0, 3.0, 4.0])
    >>> cuarray.round(cuarray.fft.ifft(cuarray.fft.fft(x)).real, 6)
    array([1., 2., 3., 4.])
    """
    key = _key("ifft", a, n, axis, norm) if out is None else None
    if key is not None:
        r = _recipes.get(key)
        if r is not None:
            return run_recipe(r, a)
    a = as_array(a, "fft.ifft")
    return _one(a, a.shape[axis] if n is None else n, axis, "c2c", False, norm, out, "ifft", key)


def rfft(a, n=None, axis=-1, norm=None, out=None):
    """See `numpy.fft.rfft`.

    Examples
    --------
    >>> import cuarray
    >>> x = cuarray.cos(2 * cuarray.pi * cuarray.arange(8) / 8)
    >>> cuarray.round(abs(cuarray.fft.rfft(x)), 6)   # the n // 2 + 1 non-negative frequencies
    array([0., 4., 0., 0., 0.])
    """
    key = _key("rfft", a, n, axis, norm) if out is None else None
    if key is not None:
        r = _recipes.get(key)
        if r is not None:
            return run_recipe(r, a)
    a = as_array(a, "fft.rfft")
    return _one(a, a.shape[axis] if n is None else n, axis, "r2c", True, norm, out, "rfft", key)


def irfft(a, n=None, axis=-1, norm=None, out=None):
    """See `numpy.fft.irfft`. The input is copied (cuFFT's C2R overwrites its input).

    Examples
    --------
    >>> import cuarray
    >>> x = cuarray.array([1.0, 2.0, 3.0, 4.0])
    >>> cuarray.round(cuarray.fft.irfft(cuarray.fft.rfft(x), n=4), 6)
    array([1., 2., 3., 4.])
    """
    a = as_array(a, "fft.irfft")
    return _one(a, (a.shape[axis] - 1) * 2 if n is None else n, axis, "c2r", False, norm, out, "irfft")


def hfft(a, n=None, axis=-1, norm=None, out=None):
    """See `numpy.fft.hfft`. `out=` is written (NumPy 2 ignores it here).

    Examples
    --------
    >>> import cuarray
    >>> x = cuarray.array([1.0, 2.0, 3.0, 4.0])
    >>> cuarray.round(cuarray.fft.hfft(cuarray.fft.ihfft(x), n=4), 6)
    array([1., 2., 3., 4.])
    >>> cuarray.fft.hfft(cuarray.ones(5, dtype=cuarray.complex128)).shape   # n = 2 * (5 - 1) by default
    (8,)
    """
    a = as_array(a, "fft.hfft")
    if n is None:
        n = (a.shape[axis] - 1) * 2
    new_norm = _swap_direction(norm)
    b = _conjugate(a) if a.dtype.kind == "c" else a
    return _one(b, n, axis, "c2r", False, new_norm, out, "irfft")


def ihfft(a, n=None, axis=-1, norm=None, out=None):
    """See `numpy.fft.ihfft`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.round(abs(cuarray.fft.ihfft(cuarray.ones(8))), 6)
    array([1., 0., 0., 0., 0.])
    """
    a = as_array(a, "fft.ihfft")
    if n is None:
        n = a.shape[axis]
    new_norm = _swap_direction(norm)
    res = _one(a, n, axis, "r2c", True, new_norm, out, "rfft_n_even")
    return _conjugate(res, out=res)


# -- N-d ------------------------------------------------------------------------------------
def _cook_nd_args(a, s, axes, invreal=False):
    """NumPy's `_cook_nd_args`: (sizes with None meaning the 1-D default, axes)."""
    shape = a.shape
    if s is None:
        shapeless = True
        s = list(shape) if axes is None else list(numpy.take(shape, axes))
    else:
        shapeless = False
    s = list(s)
    if axes is None:
        if not shapeless:
            warnings.warn("`axes` should not be `None` if `s` is not `None` (Deprecated in NumPy 2.0). Pass "
                          "a sequence [0, ..., k-1] to `axes` for an array of dimension k.",
                          DeprecationWarning, stacklevel=4)
        axes = list(range(-len(s), 0))
    axes = list(axes)
    if len(s) != len(axes):
        raise ValueError("Shape and axes have different lengths.")
    if invreal and shapeless:
        s[-1] = (shape[axes[-1]] - 1) * 2
    if None in s:
        warnings.warn("Passing an array containing `None` values to `s` is deprecated in NumPy 2.0; pass "
                      "the default of the 1-D transform instead.", DeprecationWarning, stacklevel=4)
    s = [shape[ax] if sz == -1 else sz for sz, ax in zip(s, axes)]
    return s, axes


def _nd(a, s, axes, kind, forward, norm, out, name):
    """One transform over distinct axes, or NumPy's composition of 1-D ones for repeated axes."""
    s, axes = _cook_nd_args(a, s, axes, invreal=(kind == "c2r"))
    if not axes:
        if kind == "c2c":
            return a
        raise IndexError("list index out of range")
    nd = a.ndim
    # NumPy checks the last axis' transform first (its loop runs backwards); C2R's last comes last.
    if kind == "c2r":
        order = list(range(len(axes) - 1)) + [len(axes) - 1]
    else:
        order = list(range(len(axes) - 1, -1, -1))
    sizes = [None] * len(axes)
    norm_axes = [None] * len(axes)
    for i in order:
        ax = axes[i]
        n = s[i]
        if n is None:
            n = (a.shape[ax] - 1) * 2 if (kind == "c2r" and i == len(axes) - 1) else a.shape[ax]
        sizes[i] = _points(n)
        scale_of(norm, True, 1)
        norm_axes[i] = normalize_axis_index(ax, nd)
        if kind == "r2c" and i == order[0]:
            # NumPy's first pass is the real transform of the last axis: complex input fails there,
            # before the other axes' sizes are looked at
            dtypes_of(kind, a.dtype, "rfft_n_even" if sizes[i] % 2 == 0 else "rfft_n_odd")
    if kind == "c2r" and len(axes) > 1 and a.dtype.char == "e":
        # NumPy's first complex pass makes float16 complex64, so the result is float32, not float16.
        a = a.astype(numpy.complex64)
    if len(set(norm_axes)) != len(norm_axes):
        return _composed(a, sizes, norm_axes, kind, forward, norm, out)
    return transform(a, kind, tuple(norm_axes), tuple(sizes), forward, norm, out, name)


def _composed(a, sizes, axes, kind, forward, norm, out):
    """Repeated axes: NumPy's sequence of 1-D transforms."""
    last = len(axes) - 1
    if kind == "c2c":
        f = fft if forward else ifft
        for i in range(last, -1, -1):
            a = f(a, sizes[i], axes[i], norm, out=out if i == 0 else None)
        return a
    if kind == "r2c":
        a = rfft(a, sizes[last], axes[last], norm, out=out if last == 0 else None)
        for i in range(last - 1, -1, -1):
            a = fft(a, sizes[i], axes[i], norm, out=out if i == 0 else None)
        return a
    for i in range(last):
        a = ifft(a, sizes[i], axes[i], norm)
    return irfft(a, sizes[last], axes[last], norm, out=out)


def fftn(a, s=None, axes=None, norm=None, out=None):
    """See `numpy.fft.fftn`. Up to 3 axes are one cuFFT plan; more are composed.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.round(abs(cuarray.fft.fftn(cuarray.ones((2, 2, 2)))), 6)
    array([[[8., 0.],
            [0., 0.]],
    <BLANKLINE>
           [[0., 0.],
            [0., 0.]]])
    >>> cuarray.fft.fftn(cuarray.ones((4, 4, 4)), s=(8, 8), axes=(0, 1)).shape
    (8, 8, 4)
    """
    return _nd(as_array(a, "fft.fftn"), s, axes, "c2c", True, norm, out, "fft")


def ifftn(a, s=None, axes=None, norm=None, out=None):
    """See `numpy.fft.ifftn`.

    Examples
    --------
    >>> import cuarray
    >>> x = cuarray.arange(1.0, 9.0).reshape(2, 2, 2)
    >>> bool(cuarray.allclose(cuarray.fft.ifftn(cuarray.fft.fftn(x)), x))
    True
    """
    return _nd(as_array(a, "fft.ifftn"), s, axes, "c2c", False, norm, out, "ifft")


def fft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """See `numpy.fft.fft2`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.round(abs(cuarray.fft.fft2(cuarray.ones((2, 3)))), 6)
    array([[6., 0., 0.],
           [0., 0., 0.]])
    >>> cuarray.fft.fft2(cuarray.ones((5, 4, 4))).shape   # over the last two axes of each of 5 images
    (5, 4, 4)
    """
    return _nd(as_array(a, "fft.fft2"), s, axes, "c2c", True, norm, out, "fft")


def ifft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """See `numpy.fft.ifft2`. `out=` is written (NumPy 2 ignores it here).

    Examples
    --------
    >>> import cuarray
    >>> x = cuarray.arange(1.0, 7.0).reshape(2, 3)
    >>> cuarray.round(cuarray.fft.ifft2(cuarray.fft.fft2(x)).real, 6)
    array([[1., 2., 3.],
           [4., 5., 6.]])
    """
    return _nd(as_array(a, "fft.ifft2"), s, axes, "c2c", False, norm, out, "ifft")


def rfftn(a, s=None, axes=None, norm=None, out=None):
    """See `numpy.fft.rfftn`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.fft.rfftn(cuarray.ones((2, 4, 6))).shape
    (2, 4, 4)
    """
    return _nd(as_array(a, "fft.rfftn"), s, axes, "r2c", True, norm, out, "rfft_n_even")


def rfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """See `numpy.fft.rfft2`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.fft.rfft2(cuarray.ones((4, 6))).shape
    (4, 4)
    >>> cuarray.round(abs(cuarray.fft.rfft2(cuarray.ones((2, 4)))), 6)
    array([[8., 0., 0.],
           [0., 0., 0.]])
    """
    return _nd(as_array(a, "fft.rfft2"), s, axes, "r2c", True, norm, out, "rfft_n_even")


def irfftn(a, s=None, axes=None, norm=None, out=None):
    """See `numpy.fft.irfftn`. The input is copied (cuFFT's C2R overwrites its input).

    Examples
    --------
    >>> import cuarray
    >>> x = cuarray.arange(1.0, 9.0).reshape(2, 2, 2)
    >>> cuarray.round(cuarray.fft.irfftn(cuarray.fft.rfftn(x), s=x.shape, axes=(0, 1, 2)), 6)
    array([[[1., 2.],
            [3., 4.]],
    <BLANKLINE>
           [[5., 6.],
            [7., 8.]]])
    """
    return _nd(as_array(a, "fft.irfftn"), s, axes, "c2r", False, norm, out, "irfft")


def irfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """See `numpy.fft.irfft2`. `out=` is written (NumPy 2 ignores it here).

    Examples
    --------
    >>> import cuarray
    >>> x = cuarray.arange(1.0, 9.0).reshape(2, 4)
    >>> cuarray.round(cuarray.fft.irfft2(cuarray.fft.rfft2(x), s=x.shape), 6)
    array([[1., 2., 3., 4.],
           [5., 6., 7., 8.]])
    """
    return _nd(as_array(a, "fft.irfft2"), s, axes, "c2r", False, norm, out, "irfft")
