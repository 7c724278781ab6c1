"""scipy.ndimage's filters on the GPU: correlation and convolution (1-D and N-D), Gaussian,
uniform, minimum/maximum, rank/median/percentile, Prewitt/Sobel/Laplace and the generic
gradient/Laplace drivers. Separable filters are one kernel pass per axis (`filter1d`), as SciPy
runs them, with the intermediate results in the output's dtype, as SciPy keeps them.

Differences from SciPy: inputs must be cuarray arrays (weights, footprints and structures may be
host sequences or arrays).
"""

from __future__ import annotations

import functools
import numbers
import operator
import warnings
from collections.abc import Iterable

import numpy

from ..._core.copying import copyto_unchecked as _copyto
from ..._core.ndarray import ndarray
from . import _boundary
from . import _filter_kernels as _k
from . import _rank_tile
from . import _support as _s

_F8 = numpy.dtype(numpy.float64)

__all__ = ["correlate1d", "convolve1d", "correlate", "convolve", "gaussian_filter1d", "gaussian_filter",
           "uniform_filter1d", "uniform_filter", "minimum_filter1d", "maximum_filter1d", "minimum_filter",
           "maximum_filter", "rank_filter", "median_filter", "percentile_filter", "prewitt", "sobel",
           "laplace", "gaussian_laplace", "generic_laplace", "generic_gradient_magnitude",
           "gaussian_gradient_magnitude"]


def _complex_parts(fn, x, weights, out_dt, cval, **kw):
    """A complex correlation from real ones (SciPy's _complex_via_real_components)."""
    rdt = numpy.dtype(out_dt.char.lower())
    ci, cw = x.dtype.kind == "c", weights.dtype.kind == "c"
    if not ci and numpy.iscomplexobj(cval):
        raise ValueError("Cannot provide a complex-valued cval when the input is real.")
    if ci and cw:
        re = fn(x.real, weights.real, output=rdt, cval=numpy.real(cval), **kw) - \
            fn(x.imag, weights.imag, output=rdt, cval=numpy.imag(cval), **kw)
        im = fn(x.real, weights.imag, output=rdt, cval=numpy.real(cval), **kw) + \
            fn(x.imag, weights.real, output=rdt, cval=numpy.imag(cval), **kw)
    elif ci:
        re = fn(x.real, weights, output=rdt, cval=numpy.real(cval), **kw)
        im = fn(x.imag, weights, output=rdt, cval=numpy.imag(cval), **kw)
    else:
        re = fn(x, weights.real, output=rdt, cval=cval, **kw)
        im = fn(x, weights.imag, output=rdt, cval=cval, **kw)
    out = ndarray(x.shape, out_dt)
    _copyto(out.real, re)
    _copyto(out.imag, im)
    return out


def correlate1d(input, weights, axis=-1, output=None, mode="reflect", cval=0.0, origin=0):
    """See `scipy.ndimage.correlate1d`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> ndimage.correlate1d(cuarray.array([1, 2, 3, 4]), cuarray.array([1, 0, -1]))
    array([-1, -2, -2, -1])
    """
    x = _s.as_input(input, "correlate1d")
    w = _s.host_param(weights)
    if x.dtype.kind == "c" or w.dtype.kind == "c":
        if w.dtype.kind == "c":
            w = w.conj().astype(numpy.complex128, copy=False)
        dt = _s.output_dtype(output, x, complex_output=True)
        res = _complex_parts(correlate1d, x, w, dt, cval, axis=axis, mode=mode, origin=origin)
        return _s.finish(res, output)
    dt = _s.output_dtype(output, x)
    w = numpy.asarray(w, dtype=numpy.float64)
    if w.ndim != 1 or w.shape[0] < 1:
        raise RuntimeError("no filter weights given")
    axis = _s.normalize_axis(axis, x.ndim)
    origin = int(origin)
    if _s.invalid_origin(origin, len(w)):
        raise ValueError("Invalid origin; origin must satisfy -(len(weights) // 2) <= origin <= "
                         "(len(weights)-1) // 2")
    code = _boundary.filter_mode(mode)
    res = _k.filter1d(x, dt, "correlate", w, len(w), axis, len(w) // 2 + origin, code, cval)
    return _s.finish(res, output)


def convolve1d(input, weights, axis=-1, output=None, mode="reflect", cval=0.0, origin=0):
    """See `scipy.ndimage.convolve1d`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> ndimage.convolve1d(cuarray.array([1, 2, 3, 4]), cuarray.array([1, 0, -1]))
    array([1, 2, 2, 1])
    """
    w = _s.host_param(weights)[::-1]
    origin = -int(origin)
    if not w.shape[0] & 1:
        origin -= 1
    if w.dtype.kind == "c":
        w = w.conj()
    return correlate1d(input, w, axis, output, mode, cval, origin)


def _gaussian_kernel1d(sigma, order, radius):
    """SciPy's Gaussian (derivative) kernel, computed on the host as SciPy does. For a Python number
    sigma, one read-only array a (sigma, order, radius), kept: a repeated filter asks for the same
    ones (a NumPy scalar sigma keeps its own precision in SciPy's arithmetic, so it is computed)."""
    if order < 0:
        raise ValueError("order must be non-negative")
    if type(sigma) is float or type(sigma) is int:
        return _gaussian_weights(sigma, int(order), int(radius))
    return _gaussian_math(sigma, order, radius)


@functools.lru_cache(maxsize=256)
def _gaussian_weights(sigma, order, radius):
    w = _gaussian_math(sigma, order, radius)
    w.flags.writeable = False
    return w


def _gaussian_math(sigma, order, radius):
    exponent_range = numpy.arange(order + 1)
    sigma2 = sigma * sigma
    x = numpy.arange(-radius, radius + 1)
    phi_x = numpy.exp(-0.5 / sigma2 * x ** 2)
    phi_x = phi_x / phi_x.sum()
    if order == 0:
        return phi_x
    q = numpy.zeros(order + 1)
    q[0] = 1
    d = numpy.diag(exponent_range[1:], 1)
    p = numpy.diag(numpy.ones(order) / -sigma2, -1)
    q_deriv = d + p
    for _ in range(order):
        q = q_deriv.dot(q)
    q = (x[:, None] ** exponent_range).dot(q)
    return q * phi_x


def gaussian_filter1d(input, sigma, axis=-1, order=0, output=None, mode="reflect", cval=0.0, truncate=4.0,
                      *, radius=None):
    """See `scipy.ndimage.gaussian_filter1d`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> ndimage.gaussian_filter1d(cuarray.array([1., 2., 3., 4., 5.]), sigma=1)
    array([1.42704095, 2.06782203, 3.        , 3.93217797, 4.57295905])
    """
    sd = float(sigma)
    lw = int(truncate * sd + 0.5)
    if radius is not None:
        lw = radius
    if not isinstance(lw, numbers.Integral) or lw < 0:
        raise ValueError("Radius must be a nonnegative integer.")
    weights = _gaussian_kernel1d(sigma, order, lw)[::-1]
    return correlate1d(input, weights, axis, output, mode, cval, 0)


def _separable(x, output, dt, passes, one_pass):
    """Run `one_pass(src, axis, dtype, *args)` for each (axis, *args) of `passes`, each reading the
    previous result (in the output's dtype, as SciPy's intermediate results are)."""
    cur = x
    for axis, *args in passes:
        cur = one_pass(cur, axis, dt, *args)
    if cur is x:
        cur = _s.like(x, dt) if x.dtype != dt else x.copy()
    return _s.finish(cur, output)


def gaussian_filter(input, sigma, order=0, output=None, mode="reflect", cval=0.0, truncate=4.0, *, radius=None,
                    axes=None):
    """See `scipy.ndimage.gaussian_filter`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> a = cuarray.array([[1., 2., 3.], [4., 5., 6.], [7., 8., 9.]])
    >>> ndimage.gaussian_filter(a, sigma=1)
    array([[2.68829507, 3.2662213 , 3.84414753],
           [4.42207377, 5.        , 5.57792623],
           [6.15585247, 6.7337787 , 7.31170493]])
    """
    x = _s.as_input(input, "gaussian_filter")
    dt = _s.output_dtype(output, x)
    axes = _s.check_axes(axes, x.ndim)
    n = len(axes)
    orders = _s.normalize_sequence(order, n)
    sigmas = _s.normalize_sequence(sigma, n)
    modes = _s.normalize_sequence(mode, n)
    radii = _s.normalize_sequence(radius, n)
    passes = [(axes[i], sigmas[i], orders[i], modes[i], radii[i]) for i in range(n) if sigmas[i] > 1e-15]

    def one(src, axis, out_dt, s, o, m, r):
        return gaussian_filter1d(src, s, axis, o, out_dt, m, cval, truncate, radius=r)

    return _separable(x, output, dt, passes, one)


def prewitt(input, axis=-1, output=None, mode="reflect", cval=0.0):
    """See `scipy.ndimage.prewitt`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> a = cuarray.array([[0, 1, 3], [0, 1, 3], [0, 1, 3]])
    >>> ndimage.prewitt(a, axis=1)
    array([[3, 9, 6],
           [3, 9, 6],
           [3, 9, 6]])
    """
    return _edge(input, axis, output, mode, cval, [1, 1, 1], "prewitt")


def sobel(input, axis=-1, output=None, mode="reflect", cval=0.0):
    """See `scipy.ndimage.sobel`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> a = cuarray.array([[0, 1, 3], [0, 1, 3], [0, 1, 3]])
    >>> ndimage.sobel(a, axis=1)
    array([[ 4, 12,  8],
           [ 4, 12,  8],
           [ 4, 12,  8]])
    """
    return _edge(input, axis, output, mode, cval, [1, 2, 1], "sobel")


def _edge(input, axis, output, mode, cval, smooth, what):
    x = _s.as_input(input, what)
    axis = _s.normalize_axis(axis, x.ndim)
    dt = _s.output_dtype(output, x)
    modes = _s.normalize_sequence(mode, x.ndim)
    cur = correlate1d(x, [-1, 0, 1], axis, dt, modes[axis], cval, 0)
    for ii in range(x.ndim):
        if ii != axis:
            cur = correlate1d(cur, smooth, ii, dt, modes[ii], cval, 0)
    return _s.finish(cur, output)


def generic_laplace(input, derivative2, output=None, mode="reflect", cval=0.0, extra_arguments=(),
                    extra_keywords=None, *, axes=None):
    """See `scipy.ndimage.generic_laplace`. `derivative2(input, axis, output, mode, cval, ...)`
    receives cuarray arrays and an output dtype (or array) and returns the derivative.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> def d2(input, axis, output, mode, cval):
    ...     return ndimage.correlate1d(input, [1., -2., 1.], axis, output, mode, cval)
    >>> ndimage.generic_laplace(cuarray.array([[0., 0., 0.], [0., 1., 0.], [0., 0., 0.]]), d2)
    array([[ 0.,  1.,  0.],
           [ 1., -4.,  1.],
           [ 0.,  1.,  0.]])
    """
    x, dt, acc = _sum_over_axes("generic_laplace", input, derivative2, lambda d, dt: d, output, mode, cval,
                                extra_arguments, extra_keywords, axes)
    return _s.finish(_s.like(x, dt).copy() if acc is None else acc, output)


def _sum_over_axes(name, input, derivative, term, output, mode, cval, extra_arguments, extra_keywords, axes):
    """(x, dt, sum over `axes` of term(derivative along the axis)), summed in the output dtype dt
    as SciPy's generic_laplace / generic_gradient_magnitude do; the sum is None when `axes` is
    empty (SciPy then returns the input in dt)."""
    extra_keywords = {} if extra_keywords is None else extra_keywords
    x = _s.as_input(input, name)
    dt = _s.output_dtype(output, x)
    axes = _s.check_axes(axes, x.ndim)
    if not axes:
        return x, dt, None
    modes = _s.normalize_sequence(mode, len(axes))
    acc = None
    for ax, m in zip(axes, modes):
        t = term(derivative(x, ax, dt, m, cval, *extra_arguments, **extra_keywords), dt)
        acc = t if acc is None else (acc + t).astype(dt, copy=False)
    return x, dt, acc


def laplace(input, output=None, mode="reflect", cval=0.0, *, axes=None):
    """See `scipy.ndimage.laplace`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> ndimage.laplace(cuarray.array([[0., 0., 0.], [0., 1., 0.], [0., 0., 0.]]))
    array([[ 0.,  1.,  0.],
           [ 1., -4.,  1.],
           [ 0.,  1.,  0.]])
    """
    def derivative2(x, axis, out, m, c):
        return correlate1d(x, [1, -2, 1], axis, out, m, c, 0)

    return generic_laplace(input, derivative2, output, mode, cval, axes=axes)


def gaussian_laplace(input, sigma, output=None, mode="reflect", cval=0.0, *, axes=None, **kwargs):
    """See `scipy.ndimage.gaussian_laplace`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> ndimage.gaussian_laplace(cuarray.array([0., 0., 1., 0., 0.]), sigma=1)
    array([ 0.19742828,  0.00200746, -0.39894347,  0.00200746,  0.19742828])
    """
    x = _s.as_input(input, "gaussian_laplace")

    def derivative2(x, axis, out, m, c, sigma, **kw):
        order = [0] * x.ndim
        order[axis] = 2
        return gaussian_filter(x, sigma, order, out, m, c, **kw)

    axes = _s.check_axes(axes, x.ndim)
    sigma = _s.normalize_sequence(sigma, len(axes))
    if len(axes) < x.ndim:
        full = [0] * x.ndim
        for s_, ax in zip(sigma, axes):
            full[ax] = s_
        sigma = full
    return generic_laplace(x, derivative2, output, mode, cval, extra_arguments=(sigma,), extra_keywords=kwargs,
                           axes=axes)


def generic_gradient_magnitude(input, derivative, output=None, mode="reflect", cval=0.0, extra_arguments=(),
                               extra_keywords=None, *, axes=None):
    """See `scipy.ndimage.generic_gradient_magnitude`. `derivative` receives cuarray arrays and
    an output dtype and returns the derivative.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> a = cuarray.array([[0., 1., 3.], [0., 1., 3.]])
    >>> ndimage.generic_gradient_magnitude(a, ndimage.sobel)
    array([[ 4., 12.,  8.],
           [ 4., 12.,  8.]])
    """
    x, dt, acc = _sum_over_axes("generic_gradient_magnitude", input, derivative,
                                lambda d, dt: (d * d).astype(dt, copy=False), output, mode, cval, extra_arguments,
                                extra_keywords, axes)
    if acc is None:
        return _s.finish(_s.like(x, dt).copy(), output)
    # SciPy: np.sqrt(output, output, casting='unsafe'), so an integer output truncates the root
    return _s.finish((acc ** 0.5).astype(dt), output)


def gaussian_gradient_magnitude(input, sigma, output=None, mode="reflect", cval=0.0, *, axes=None, **kwargs):
    """See `scipy.ndimage.gaussian_gradient_magnitude`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> x = cuarray.array([1., 2., 4., 8.])
    >>> ndimage.gaussian_gradient_magnitude(x, sigma=1)
    array([0.51111829, 1.56156363, 2.24759121, 1.19714588])
    """
    def derivative(x, axis, out, m, c, sigma, **kw):
        order = [0] * x.ndim
        order[axis] = 1
        return gaussian_filter(x, sigma, order, out, m, c, **kw)

    return generic_gradient_magnitude(input, derivative, output, mode, cval, extra_arguments=(sigma,),
                                      extra_keywords=kwargs, axes=axes)


def _correlate_or_convolve(input, weights, output, mode, cval, origin, convolution, axes, what):
    x = _s.as_input(input, what)
    w = _s.host_param(weights)
    if x.dtype.kind == "c" or w.dtype.kind == "c":
        if w.dtype.kind == "c" and not convolution:
            w = w.conj()
        dt = _s.output_dtype(output, x, complex_output=True)

        def real(xr, wr, output, cval, **kw):
            return _correlate_or_convolve(xr, wr, output, mode, cval, origin, convolution, axes, what)

        return _s.finish(_complex_parts(real, x, w, dt, cval), output)
    axes = _s.check_axes(axes, x.ndim)
    w = numpy.asarray(w, dtype=numpy.float64)
    w = _s.expand_footprint(x.ndim, axes, w, "weights")
    origins = _s.expand_origin(x.ndim, axes, origin)
    wshape = [ii for ii in w.shape if ii > 0]
    if len(wshape) != x.ndim:
        raise RuntimeError("weights.ndim ({}) must match len(axes) ({})".format(len(wshape), len(axes)))
    if convolution:
        w = w[(slice(None, None, -1),) * w.ndim]
        for ii in range(len(origins)):
            origins[ii] = -origins[ii]
            if not w.shape[ii] & 1:
                origins[ii] -= 1
    for o, lenw in zip(origins, wshape):
        if _s.invalid_origin(o, lenw):
            raise ValueError("Invalid origin; origin must satisfy -(weights.shape[k] // 2) <= origin[k] <= "
                             "(weights.shape[k]-1) // 2")
    dt = _s.output_dtype(output, x)
    if not isinstance(mode, str) and isinstance(mode, Iterable):
        raise RuntimeError("A sequence of modes is not supported")
    code = _boundary.filter_mode(mode)
    fp = w != 0  # zero weights are skipped, as SciPy's filter offsets skip them
    if not fp.any():
        fp = numpy.zeros(w.shape, bool)
        fp.flat[0] = True
    res = _k.filternd(x, dt, "correlate", fp, w[fp], origins, code, cval)
    return _s.finish(res, output)


def correlate(input, weights, output=None, mode="reflect", cval=0.0, origin=0, *, axes=None):
    """See `scipy.ndimage.correlate`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> ndimage.correlate(cuarray.array([1, 2, 3, 4]), cuarray.array([1, 0, -1]))
    array([-1, -2, -2, -1])
    """
    return _correlate_or_convolve(input, weights, output, mode, cval, origin, False, axes, "correlate")


def convolve(input, weights, output=None, mode="reflect", cval=0.0, origin=0, *, axes=None):
    """See `scipy.ndimage.convolve`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> ndimage.convolve(cuarray.array([1, 2, 3, 4]), cuarray.array([1, 1, 1]))
    array([ 4,  6,  9, 11])
    """
    return _correlate_or_convolve(input, weights, output, mode, cval, origin, True, axes, "convolve")


def _filter1d_box(input, size, axis, output, mode, cval, origin, op, what):
    x = _s.as_input(input, what)
    complex_out = False
    if op != "uniform" and x.dtype.kind == "c":
        raise TypeError("Complex type not supported")
    axis = _s.normalize_axis(axis, x.ndim)
    if size < 1:
        raise RuntimeError("incorrect filter size")
    complex_out = x.dtype.kind == "c"
    dt = _s.output_dtype(output, x, complex_output=complex_out)
    origin = int(origin)
    if size // 2 + origin < 0 or size // 2 + origin >= size:
        raise ValueError("invalid origin")
    code = _boundary.filter_mode(mode)
    size = int(size)
    if complex_out:
        rdt = numpy.dtype(dt.char.lower())
        res = ndarray(x.shape, dt)
        _copyto(res.real, _k.filter1d(x.real, rdt, op, None, size, axis, size // 2 + origin, code,
                                               numpy.real(cval)))
        _copyto(res.imag, _k.filter1d(x.imag, rdt, op, None, size, axis, size // 2 + origin, code,
                                               numpy.imag(cval)))
    elif op in ("min", "max") and _s.compares_in_double(x.dtype, cval):  # SciPy's 1-D passes: double lines
        res = _k.filter1d(_s.in_double(x), _F8, op, None, size, axis, size // 2 + origin, code, cval).astype(dt)
    else:
        res = _k.filter1d(x, dt, op, None, size, axis, size // 2 + origin, code, cval)
    return _s.finish(res, output)


def uniform_filter1d(input, size, axis=-1, output=None, mode="reflect", cval=0.0, origin=0):
    """See `scipy.ndimage.uniform_filter1d`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> ndimage.uniform_filter1d(cuarray.array([2., 8., 0., 4., 1.]), size=3)
    array([4.        , 3.33333333, 4.        , 1.66666667, 2.        ])
    """
    return _filter1d_box(input, size, axis, output, mode, cval, origin, "uniform", "uniform_filter1d")


def minimum_filter1d(input, size, axis=-1, output=None, mode="reflect", cval=0.0, origin=0):
    """See `scipy.ndimage.minimum_filter1d`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> ndimage.minimum_filter1d(cuarray.array([2, 8, 0, 4, 1]), size=3)
    array([2, 0, 0, 0, 1])
    """
    return _filter1d_box(input, size, axis, output, mode, cval, origin, "min", "minimum_filter1d")


def maximum_filter1d(input, size, axis=-1, output=None, mode="reflect", cval=0.0, origin=0):
    """See `scipy.ndimage.maximum_filter1d`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> ndimage.maximum_filter1d(cuarray.array([2, 8, 0, 4, 1]), size=3)
    array([8, 8, 8, 4, 4])
    """
    return _filter1d_box(input, size, axis, output, mode, cval, origin, "max", "maximum_filter1d")


def uniform_filter(input, size=3, output=None, mode="reflect", cval=0.0, origin=0, *, axes=None):
    """See `scipy.ndimage.uniform_filter`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> a = cuarray.array([[1., 2., 3.], [4., 5., 6.], [7., 8., 9.]])
    >>> ndimage.uniform_filter(a, size=3)
    array([[2.33333333, 3.        , 3.66666667],
           [4.33333333, 5.        , 5.66666667],
           [6.33333333, 7.        , 7.66666667]])
    """
    x = _s.as_input(input, "uniform_filter")
    dt = _s.output_dtype(output, x, complex_output=x.dtype.kind == "c")
    axes = _s.check_axes(axes, x.ndim)
    n = len(axes)
    sizes = _s.normalize_sequence(size, n)
    origins = _s.normalize_sequence(origin, n)
    modes = _s.normalize_sequence(mode, n)
    passes = [(axes[i], sizes[i], origins[i], modes[i]) for i in range(n) if sizes[i] > 1]

    def one(src, axis, out_dt, sz, o, m):
        return uniform_filter1d(src, int(sz), axis, out_dt, m, cval, o)

    return _separable(x, output, dt, passes, one)


def _min_or_max_filter(input, size, footprint, structure, output, mode, cval, origin, minimum, axes, what):
    if size is not None and footprint is not None:
        warnings.warn("ignoring size because footprint is set", UserWarning, stacklevel=3)
    if structure is None:
        if footprint is None:
            if size is None:
                raise RuntimeError("no footprint provided")
            separable = True
        else:
            footprint = _s.host_param(footprint, bool)
            if not footprint.any():
                raise ValueError("All-zero footprint is not supported.")
            if footprint.all():
                size, footprint, separable = footprint.shape, None, True
            else:
                separable = False
    else:
        structure = _s.host_param(structure, numpy.float64)
        separable = False
        footprint = numpy.ones(structure.shape, bool) if footprint is None else _s.host_param(footprint, bool)
    x = _s.as_input(input, what)
    if x.dtype.kind == "c":
        raise TypeError("Complex type not supported")
    dt = _s.output_dtype(output, x)
    axes = _s.check_axes(axes, x.ndim)
    n = len(axes)
    op = "min" if minimum else "max"
    if separable:
        origins = _s.normalize_sequence(origin, n)
        sizes = _s.normalize_sequence(size, n)
        modes = _s.normalize_sequence(mode, n)
        passes = [(axes[i], sizes[i], origins[i], modes[i]) for i in range(n) if sizes[i] > 1]

        def one(src, axis, out_dt, sz, o, m):
            return _filter1d_box(src, int(sz), axis, out_dt, m, cval, o, op, what)

        return _separable(x, output, dt, passes, one)
    footprint, origins = _full_footprint(x, axes, footprint, origin)
    values = None
    if structure is not None:
        if structure.ndim != n:
            raise RuntimeError("structure array has incorrect shape")
        if n != x.ndim:
            structure = numpy.expand_dims(structure, tuple(ax for ax in range(x.ndim) if ax not in axes))
        values = structure[footprint]
    if not isinstance(mode, str) and isinstance(mode, Iterable):
        raise RuntimeError("A sequence of modes is not supported for non-separable footprints")
    code = _boundary.filter_mode(mode)
    return _s.finish(_k.filternd(x, dt, op, footprint, values, origins, code, cval), output)


def minimum_filter(input, size=None, footprint=None, output=None, mode="reflect", cval=0.0, origin=0, *,
                   axes=None):
    """See `scipy.ndimage.minimum_filter`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> a = cuarray.array([[1, 9, 2], [8, 3, 7], [4, 6, 5]])
    >>> ndimage.minimum_filter(a, size=2)
    array([[1, 1, 2],
           [1, 1, 2],
           [4, 3, 3]])
    """
    return _min_or_max_filter(input, size, footprint, None, output, mode, cval, origin, True, axes,
                              "minimum_filter")


def maximum_filter(input, size=None, footprint=None, output=None, mode="reflect", cval=0.0, origin=0, *,
                   axes=None):
    """See `scipy.ndimage.maximum_filter`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> a = cuarray.array([[1, 9, 2], [8, 3, 7], [4, 6, 5]])
    >>> ndimage.maximum_filter(a, size=2)
    array([[1, 9, 9],
           [8, 9, 9],
           [8, 8, 7]])
    """
    return _min_or_max_filter(input, size, footprint, None, output, mode, cval, origin, False, axes,
                              "maximum_filter")


def footprint_filter_input(input, size, footprint, origin, axes, what, stacklevel=4):
    """(x, footprint over all of x's axes, origins) with SciPy's checks for the filters that take
    `size` or `footprint` (rank filters, generic_filter): complex inputs raise TypeError."""
    if size is not None and footprint is not None:
        warnings.warn("ignoring size because footprint is set", UserWarning, stacklevel=stacklevel)
    x = _s.as_input(input, what)
    if x.dtype.kind == "c":
        raise TypeError("Complex type not supported")
    axes = _s.check_axes(axes, x.ndim)
    if footprint is None:
        if size is None:
            raise RuntimeError("no footprint or filter size provided")
        footprint = numpy.ones(_s.normalize_sequence(size, len(axes)), dtype=bool)
    else:
        footprint = _s.host_param(footprint, bool)
    footprint, origins = _full_footprint(x, axes, footprint, origin)
    return x, footprint, origins


def _full_footprint(x, axes, footprint, origin):
    """(footprint over all of x's axes, origins): the footprint over `axes` expanded, with SciPy's
    checks of its rank and of the origins."""
    footprint = _s.expand_footprint(x.ndim, axes, footprint)
    origins = _s.expand_origin(x.ndim, axes, origin)
    fshape = [ii for ii in footprint.shape if ii > 0]
    if len(fshape) != x.ndim:
        raise RuntimeError("footprint.ndim ({}) must match len(axes) ({})".format(footprint.ndim, len(axes)))
    for o, lenf in zip(origins, fshape):
        if lenf // 2 + o < 0 or lenf // 2 + o >= lenf:
            raise ValueError("invalid origin")
    return footprint, origins


def _rank_filter(input, rank, size, footprint, output, mode, cval, origin, operation, axes, what):
    x, footprint, origins = footprint_filter_input(input, size, footprint, origin, axes, what)
    axes = _s.check_axes(axes, x.ndim)
    if not isinstance(mode, str) and isinstance(mode, Iterable):
        modes = _s.normalize_sequence(mode, len(axes))
        full = ["constant"] * x.ndim
        for m, ax in zip(modes, axes):
            full[ax] = m
        mode = full
    filter_size = int(footprint.sum())
    if operation == "median":
        rank = filter_size // 2
    elif operation == "percentile":
        percentile = rank
        if percentile < 0.0:
            percentile += 100.0
        if percentile < 0 or percentile > 100:
            raise RuntimeError("invalid percentile")
        rank = filter_size - 1 if percentile == 100.0 else int(float(filter_size) * percentile / 100.0)
    rank = operator.index(rank)
    if rank < 0:
        rank += filter_size
    if rank < 0 or rank >= filter_size:
        raise RuntimeError("rank not within filter footprint size")
    if rank == 0:
        return minimum_filter(x, None, footprint, output, mode, cval, origins)
    if rank == filter_size - 1:
        return maximum_filter(x, None, footprint, output, mode, cval, origins)
    dt = _s.output_dtype(output, x)
    if not isinstance(mode, str) and isinstance(mode, Iterable):
        raise RuntimeError("A sequence of modes is not supported by non-separable rank filters")
    code = _boundary.filter_mode(mode)
    pl = _rank_tile.plan(x.shape, footprint, origins, x.dtype.itemsize)
    if pl is not None:
        return _s.finish(_rank_tile.rank_tile(x, dt, pl, rank, code, cval), output)
    return _s.finish(_k.rank(x, dt, footprint, rank, origins, code, cval), output)


def rank_filter(input, rank, size=None, footprint=None, output=None, mode="reflect", cval=0.0, origin=0, *,
                axes=None):
    """See `scipy.ndimage.rank_filter`. Past 1024 footprint elements each window is
    selected in a global scratch buffer (at most 256 MiB, reused over chunks of outputs).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> ndimage.rank_filter(cuarray.array([2, 8, 0, 4, 1]), rank=-1, size=3)   # the largest
    array([8, 8, 8, 4, 4])
    """
    return _rank_filter(input, rank, size, footprint, output, mode, cval, origin, "rank", axes, "rank_filter")


def median_filter(input, size=None, footprint=None, output=None, mode="reflect", cval=0.0, origin=0, *,
                  axes=None):
    """See `scipy.ndimage.median_filter`. Past 1024 footprint elements each window is
    selected in a global scratch buffer (at most 256 MiB, reused over chunks of outputs).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> a = cuarray.array([[1, 9, 2], [8, 3, 7], [4, 6, 5]])
    >>> ndimage.median_filter(a, size=3)
    array([[3, 3, 3],
           [4, 5, 5],
           [4, 5, 5]])
    """
    return _rank_filter(input, 0, size, footprint, output, mode, cval, origin, "median", axes, "median_filter")


def percentile_filter(input, percentile, size=None, footprint=None, output=None, mode="reflect", cval=0.0,
                      origin=0, *, axes=None):
    """See `scipy.ndimage.percentile_filter`. Past 1024 footprint elements each window is
    selected in a global scratch buffer (at most 256 MiB, reused over chunks of outputs).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> ndimage.percentile_filter(cuarray.array([2, 8, 0, 4, 1]), 50, size=3)
    array([2, 2, 4, 1, 1])
    """
    return _rank_filter(input, percentile, size, footprint, output, mode, cval, origin, "percentile", axes,
                        "percentile_filter")
