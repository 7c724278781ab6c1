"""`gradient` and `trapezoid` (NumPy "Mathematical functions / Sums, products, differences").

Both are NumPy's formulas on device slices: central differences inside, one-sided ones (first
or second order) at the edges, a few ufunc launches per axis; `trapezoid` is one multiply-add and
a `sum`. Non-uniform 1-D spacings are checked for uniformity as NumPy does, which reads one bool
back to the host (a synchronisation) per such axis.
"""

from __future__ import annotations

import numpy

from .._core import shapes as _shapes
from .._core.host_input import as_array, as_parameter
from .._core.ndarray import ndarray
from .._creation.basic import empty_like
from .sums import sum as sum_
from .sums_scan import diff

__all__ = ["gradient", "trapezoid"]


def _ndim(x) -> int:
    return x.ndim if isinstance(x, ndarray) else numpy.ndim(x)


def _spacings(f: ndarray, axes, varargs):
    n, len_axes = len(varargs), len(axes)
    if n == 0:
        return [1.0] * len_axes
    if n == 1 and _ndim(varargs[0]) == 0:
        return list(varargs) * len_axes
    if n != len_axes:
        raise TypeError("invalid number of arguments")
    dx = list(varargs)
    for i, distances in enumerate(dx):
        if _ndim(distances) == 0:
            continue
        distances = as_parameter(distances, "gradient")  # coordinates from the host too (CuPy)
        if distances.ndim != 1:
            raise ValueError("distances must be either scalars or 1d")
        if distances.shape[0] != f.shape[axes[i]]:
            raise ValueError("when 1d, distances must match the length of the corresponding dimension")
        if distances.dtype.kind in "iub":
            distances = distances.astype(numpy.float64)
        diffx = diff(distances)
        if diffx.size and bool((diffx == diffx[0]).all()):
            diffx = diffx[0]
        dx[i] = diffx
    return dx


def gradient(f, *varargs, axis=None, edge_order=1):
    """See `numpy.gradient`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.gradient(cuarray.array([1., 2., 4., 7.]))
    array([1. , 1.5, 2.5, 3. ])
    """
    f = as_array(f, "gradient")
    N = f.ndim
    axes = tuple(range(N)) if axis is None else _shapes.normalize_axis_tuple(axis, N)
    dx = _spacings(f, axes, varargs)
    if edge_order > 2:
        raise ValueError("'edge_order' greater than 2 not supported")
    otype = f.dtype
    if otype.kind not in "fc":
        if otype.kind in "iu":
            f = f.astype(numpy.float64)
        otype = numpy.dtype(numpy.float64)
    outvals = []

    def at(axis, s):
        idx = [slice(None)] * N
        idx[axis] = s
        return tuple(idx)

    for ax, ax_dx in zip(axes, dx):
        if f.shape[ax] < edge_order + 1:
            raise ValueError("Shape of array too small to calculate a numerical gradient, at least "
                             "(edge_order + 1) elements are required.")
        out = empty_like(f, dtype=otype)
        uniform = _ndim(ax_dx) == 0
        s1, s2, s3, s4 = at(ax, slice(1, -1)), at(ax, slice(None, -2)), at(ax, slice(1, -1)), at(ax, slice(2, None))
        if uniform:
            out[s1] = (f[s4] - f[s2]) / (2.0 * ax_dx)
        else:
            dx1, dx2 = ax_dx[0:-1], ax_dx[1:]
            shape = [1] * N
            shape[ax] = -1
            a = (-dx2 / (dx1 * (dx1 + dx2))).reshape(shape)
            b = ((dx2 - dx1) / (dx1 * dx2)).reshape(shape)
            c = (dx1 / (dx2 * (dx1 + dx2))).reshape(shape)
            out[s1] = a * f[s2] + b * f[s3] + c * f[s4]
        if edge_order == 1:
            dx_0 = ax_dx if uniform else ax_dx[0]
            out[at(ax, 0)] = (f[at(ax, 1)] - f[at(ax, 0)]) / dx_0
            dx_n = ax_dx if uniform else ax_dx[-1]
            out[at(ax, -1)] = (f[at(ax, -1)] - f[at(ax, -2)]) / dx_n
        else:
            if uniform:
                a, b, c = -1.5 / ax_dx, 2.0 / ax_dx, -0.5 / ax_dx
            else:
                dx1, dx2 = ax_dx[0], ax_dx[1]
                a = -(2.0 * dx1 + dx2) / (dx1 * (dx1 + dx2))
                b = (dx1 + dx2) / (dx1 * dx2)
                c = -dx1 / (dx2 * (dx1 + dx2))
            out[at(ax, 0)] = a * f[at(ax, 0)] + b * f[at(ax, 1)] + c * f[at(ax, 2)]
            if uniform:
                a, b, c = 0.5 / ax_dx, -2.0 / ax_dx, 1.5 / ax_dx
            else:
                dx1, dx2 = ax_dx[-2], ax_dx[-1]
                a = dx2 / (dx1 * (dx1 + dx2))
                b = -(dx2 + dx1) / (dx1 * dx2)
                c = (2.0 * dx2 + dx1) / (dx2 * (dx1 + dx2))
            out[at(ax, -1)] = a * f[at(ax, -3)] + b * f[at(ax, -2)] + c * f[at(ax, -1)]
        outvals.append(out)
    if len(axes) == 1:
        return outvals[0]
    return tuple(outvals)


def trapezoid(y, x=None, dx=1.0, axis=-1):
    """See `numpy.trapezoid`.

    Examples
    --------
    >>> import cuarray
    >>> float(cuarray.trapezoid(cuarray.array([1., 2., 3.])))
    4.0
    """
    y = as_array(y, "trapezoid")
    if x is None:
        d = dx
    else:
        x = as_array(x, "trapezoid")
        if x.ndim == 1:
            d = diff(x)
            shape = [1] * y.ndim
            shape[axis] = d.shape[0]
            d = d.reshape(shape)
        else:
            d = diff(x, axis=axis)
    nd = y.ndim
    s1 = [slice(None)] * nd
    s2 = [slice(None)] * nd
    s1[axis] = slice(1, None)
    s2[axis] = slice(None, -1)
    return sum_(d * (y[tuple(s1)] + y[tuple(s2)]) / 2.0, axis)
