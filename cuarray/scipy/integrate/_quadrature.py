"""Integration of sampled data and fixed-order Gauss quadrature on the device: `trapezoid`,
`simpson`, `cumulative_trapezoid`, `cumulative_simpson`, `romb`, `fixed_quad`, and
`newton_cotes`'s host coefficients. Each rule is a few elementwise passes and one reduction or
one scan (`cumsum`) along the axis, composed of cuarray's routines; the samples never leave the
device. SciPy 1.18's rules, formulas and validation (scipy/integrate/_quadrature.py)."""

import numpy

from ..._core.host_input import as_array, as_parameter
from ..._core.transfer import to_host
from ..._creation.basic import empty, full
from ..._logic.content import isinf
from ..._logic.truth import any as any_
from ..._manipulation.dims import broadcast_to
from ..._manipulation.joining import concatenate
from ..._manipulation.transpose import moveaxis
from ..._math.sums import sum as sum_
from ..._math.sums_scan import cumsum, diff
from ..._sorting.searching import where

__all__ = ["trapezoid", "simpson", "cumulative_trapezoid", "cumulative_simpson", "romb", "newton_cotes",
           "fixed_quad"]


def _floating(*dtypes):
    """SciPy's `xp_result_type(..., force_floating=True)`: the promoted dtype, float64 for integers."""
    dt = numpy.result_type(*dtypes)
    return dt if dt.kind in "fc" else numpy.result_type(dt, numpy.float64)


def _at(nd, axis, index):
    out = [slice(None)] * nd
    out[axis] = index
    return tuple(out)


def _data(v, fn):
    """An array argument (`y`, `x`, an array `dx`): a cuarray array or a Python/NumPy scalar."""
    return as_array(v, "scipy.integrate." + fn)


def trapezoid(y, x=None, dx=1.0, axis=-1):
    """See `scipy.integrate.trapezoid`. One elementwise pass and one sum along `axis` on the device."""
    y = _data(y, "trapezoid")
    dt = _floating(y.dtype)
    nd = y.ndim
    upper, lower = _at(nd, axis, slice(1, None)), _at(nd, axis, slice(None, -1))
    if x is None:
        d = dx
    else:
        x = _data(x, "trapezoid")
        if x.ndim == 1:
            d = x[1:] - x[:-1]
            shape = [1] * nd
            shape[axis] = d.shape[0]
            d = d.reshape(tuple(shape))
        else:
            x = broadcast_to(x, y.shape)
            d = x[upper] - x[lower]
    return sum_(d * (y[upper] + y[lower]) / 2.0, axis=axis, dtype=dt)


def fixed_quad(func, a, b, args=(), n=5):
    """See `scipy.integrate.fixed_quad`. The Gauss-Legendre nodes and weights are computed on the
    host (`scipy.special.roots_legendre`) and copied once; `func` is called once on the device
    array of nodes, shape ``(..., n)`` for array limits. Infinite limits are refused after one
    read of the limits when they are device arrays."""
    from scipy.special import roots_legendre  # optional dependency: the host nodes

    a, b = _data(a, "fixed_quad"), _data(b, "fixed_quad")
    dt = _floating(a.dtype, b.dtype)
    a, b = a.astype(dt), b.astype(dt)
    x, w = roots_legendre(n)
    x = _parameter(numpy.real(x).astype(dt))
    w = _parameter(numpy.asarray(w).astype(dt))
    # one read of the two limits: SciPy refuses infinite limits before evaluating
    if bool(to_host(any_(isinf(a))) or to_host(any_(isinf(b)))):
        raise ValueError("Gaussian quadrature is only available for finite limits.")
    a_, b_ = a[..., None], b[..., None]
    y = (b_ - a_) * (x + 1) / 2.0 + a_
    return (b - a) / 2.0 * sum_(w * func(y, *args), axis=-1), None


def _parameter(v):
    return as_parameter(v, "scipy.integrate.fixed_quad")


def cumulative_trapezoid(y, x=None, dx=1.0, axis=-1, initial=None):
    """See `scipy.integrate.cumulative_trapezoid`. One elementwise pass and one scan (`cumsum`)."""
    y = _data(y, "cumulative_trapezoid")
    if y.shape[axis] == 0:
        raise ValueError("At least one point is required along `axis`.")
    if x is None:
        d = dx
    else:
        x = _data(x, "cumulative_trapezoid")
        if x.ndim == 1:
            d = diff(x)
            shape = [1] * y.ndim
            shape[axis] = -1
            d = d.reshape(tuple(shape))
        elif len(x.shape) != len(y.shape):
            raise ValueError("If given, shape of x must be 1-D or the same as y.")
        else:
            d = diff(x, axis=axis)
        if d.shape[axis] != y.shape[axis] - 1:
            raise ValueError("If given, length of x along axis must be the same as y.")
    nd = y.ndim
    res = cumsum(d * (y[_at(nd, axis, slice(1, None))] + y[_at(nd, axis, slice(None, -1))]) / 2.0, axis=axis)
    if initial is not None:
        if initial != 0:
            raise ValueError("`initial` must be `None` or `0`.")
        if not numpy.isscalar(initial):
            raise ValueError("`initial` parameter should be a scalar.")
        shape = list(res.shape)
        shape[axis] = 1
        res = concatenate((full(tuple(shape), initial, dtype=res.dtype), res), axis=axis)
    return res


def _basic_simpson(y, stop, x, dx, axis):
    """Composite Simpson over the panels [0, 2], [2, 4], ... starting before `stop`."""
    nd = y.ndim
    s0, s1, s2 = (_at(nd, axis, slice(k, stop + k, 2)) for k in range(3))
    if x is None:
        return dx / 3.0 * sum_(y[s0] + 4.0 * y[s1] + y[s2], axis=axis)
    h = diff(x, axis=axis)
    h0, h1 = (h[_at(nd, axis, slice(k, stop + k, 2))] for k in range(2)) if h.size else (h, h)
    hsum, hprod = h0 + h1, h0 * h1
    h0divh1 = _divide_where(h0, h1)
    tmp = hsum / 6.0 * (y[s0] * (2.0 - _divide_where(1.0, h0divh1)) + y[s1] * (hsum * _divide_where(hsum, hprod))
                        + (y[s2] if y.size > 1 else y[0:0, ...]) * (2.0 - h0divh1))
    return sum_(tmp, axis=axis)


def _divide_where(num, den):
    """num / den where den != 0, else 0 (SciPy's `apply_where(den != 0, ..., fill_value=0)`)."""
    nonzero = den != 0
    return where(nonzero, num / where(nonzero, den, 1.0), 0.0)


def simpson(y, x=None, *, dx=1.0, axis=-1):
    """See `scipy.integrate.simpson`. SciPy 1.18's rule: an even number of samples takes Simpson's
    rule on the first N - 3 intervals and Cartwright's correction on the last one. A few
    elementwise passes and one sum along `axis`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import integrate
    >>> y = cuarray.array([[1., 4., 9., 16., 25.], [0., 1., 0., 1., 0.]])
    >>> integrate.simpson(y, dx=0.5)
    array([20.66666667,  1.33333333])
    """
    y = _data(y, "simpson")
    if x is not None:
        x = _data(x, "simpson")
    if not numpy.isscalar(dx):
        dx = _data(dx, "simpson")
    dt = numpy.result_type(*[v.dtype if hasattr(v, "dtype") else v for v in (y, x, dx) if v is not None])
    y = y.astype(dt, copy=False)
    if x is not None:
        x = x.astype(dt, copy=False)
    dx = dx.astype(dt, copy=False) if hasattr(dx, "astype") and not numpy.isscalar(dx) else dt.type(dx)
    nd = y.ndim
    n = y.shape[axis]
    if x is not None:
        if x.ndim == 1:
            shape = [1] * nd
            shape[axis] = x.shape[0]
            x = x.reshape(tuple(shape))
        elif x.ndim != nd:
            raise ValueError("If given, shape of x must be 1-D or the same as y.")
        if x.shape[axis] != n:
            raise ValueError("If given, length of x along axis must be the same as y.")
    if n % 2:
        return _basic_simpson(y, n - 2, x, dx, axis)
    last, second, third = (_at(nd, axis, k) for k in (-1, -2, -3))
    if n == 2:
        width = x[last] - x[second] if x is not None else dx
        return 0.5 * width * (y[last] + y[second]) + 0.0
    result = _basic_simpson(y, n - 3, x, dx, axis)
    if x is None:
        h0 = h1 = dx
    else:
        diffs = diff(x, axis=axis)
        h0, h1 = diffs[_at(nd, axis, -2)], diffs[_at(nd, axis, -1)]
    # Cartwright's correction of the last interval (the irregular-spacing composite rule)
    alpha = _divide_where(2 * h1 ** 2 + 3 * h0 * h1, 6 * (h1 + h0))
    beta = _divide_where(h1 ** 2 + 3.0 * h0 * h1, 6 * h0)
    eta = _divide_where(1 * h1 ** 3, 6 * h0 * (h0 + h1))
    return result + (alpha * y[last] + beta * y[second] - eta * y[third]) + 0.0


def _simpson_panels(y, dx, equal):
    """The integral over each interval [x_i, x_i+1] from the parabola through x_i, x_i+1, x_i+2
    (eqns 8 and 10 of Cartwright 2017), along the last axis: N - 2 values."""
    f1, f2, f3 = y[..., :-2], y[..., 1:-1], y[..., 2:]
    if equal:
        return dx[..., :-1] / 3 * (5 * f1 / 4 + 2 * f2 - f3 / 4)
    x21, x32 = dx[..., :-1], dx[..., 1:]
    x31 = x21 + x32
    x21_x31, x21_x32 = x21 / x31, x21 / x32
    x21x21_x31x32 = x21_x31 * x21_x32
    return x21 / 6 * ((3 - x21_x31) * f1 + (3 + x21x21_x31x32 + x21_x31) * f2 - x21x21_x31x32 * f3)


def _cumulative_simpson_sum(y, dx, equal):
    """SciPy's sub-integrals (the forward parabola's for even intervals, the backward one's for
    odd ones and the last) summed by one scan along the last axis."""
    forward = _simpson_panels(y, dx, equal)
    backward = _simpson_panels(y[..., ::-1], dx[..., ::-1], equal)[..., ::-1]
    shape = forward.shape[:-1] + (forward.shape[-1] + 1,)
    panels = empty(shape, dtype=numpy.result_type(y.dtype, dx.dtype))
    panels[..., :-1:2] = forward[..., ::2]
    panels[..., 1::2] = backward[..., ::2]
    panels[..., -1] = backward[..., -1]
    return cumsum(panels, axis=-1)


def cumulative_simpson(y, *, x=None, dx=1.0, axis=-1, initial=None):
    """See `scipy.integrate.cumulative_simpson`. Two elementwise passes and one scan (`cumsum`) on
    the device; with `x`, one read of whether `x` increases strictly (SciPy's check).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import integrate
    >>> y = cuarray.array([[1., 4., 9., 16., 25.], [0., 1., 0., 1., 0.]])
    >>> integrate.cumulative_simpson(y, dx=0.5, initial=0)
    array([[ 0.        ,  1.16666667,  4.33333333, 10.5       , 20.66666667],
           [ 0.        ,  0.33333333,  0.66666667,  1.        ,  1.33333333]])
    """
    y = _data(y, "cumulative_simpson")
    y = y.astype(_floating(y.dtype), copy=False)
    shape = y.shape
    if not -y.ndim <= axis < y.ndim:
        raise ValueError(f"`axis={axis}` is not valid for `y` with `y.ndim={y.ndim}`.")
    yl = moveaxis(y, axis, -1)
    if yl.shape[-1] < 3:
        res = moveaxis(cumulative_trapezoid(y, x, dx=dx, axis=axis, initial=None), axis, -1)
    elif x is not None:
        x = _data(x, "cumulative_simpson")
        x = x.astype(_floating(x.dtype), copy=False)
        if not (x.shape == shape or (x.ndim == 1 and x.shape[0] == shape[axis])):
            raise ValueError("If given, shape of `x` must be the same as `y` or 1-D with the same length as "
                             "`y` along `axis`.")
        x = broadcast_to(x, yl.shape) if x.ndim == 1 else moveaxis(x, axis, -1)
        d = diff(x, axis=-1)
        if bool(to_host(any_(d <= 0))):  # one read: SciPy's check that x increases
            raise ValueError("Input x must be strictly increasing.")
        res = _cumulative_simpson_sum(yl, d, equal=False)
    else:
        d = _data(dx, "cumulative_simpson")
        d = d.astype(_floating(d.dtype), copy=False)
        if not (d.ndim == 0 or d.shape == _with(shape, axis, 1)):
            raise ValueError("If provided, `dx` must either be a scalar or have the same shape as `y` but "
                             "with only 1 point along `axis`.")
        d = moveaxis(broadcast_to(d, _with(shape, axis, shape[axis] - 1)), axis, -1)
        res = _cumulative_simpson_sum(yl, d, equal=True)
    if initial is not None:
        initial = _data(initial, "cumulative_simpson")
        initial = initial.astype(_floating(initial.dtype), copy=False)
        if not (initial.ndim == 0 or initial.shape == _with(shape, axis, 1)):
            raise ValueError("If provided, `initial` must either be a scalar or have the same shape as `y` "
                             "but with only 1 point along `axis`.")
        initial = moveaxis(broadcast_to(initial, _with(shape, axis, 1)), axis, -1)
        res = res + initial
        res = concatenate((initial.astype(res.dtype), res), axis=-1)
    return moveaxis(res, -1, axis)


def _with(shape, axis, n):
    out = list(shape)
    out[axis] = n
    return tuple(out)


def romb(y, dx=1.0, axis=-1, show=False):
    """See `scipy.integrate.romb`. Richardson's table is built from one strided sum per level on the
    device; `show` prints the table of a single data set after reading it."""
    y = _data(y, "romb")
    nd = y.ndim
    intervals = y.shape[axis] - 1
    n, k = 1, 0
    while n < intervals:
        n <<= 1
        k += 1
    if n != intervals:
        raise ValueError("Number of samples must be one plus a non-negative power of 2.")
    h = intervals * numpy.float64(dx)
    table = {(0, 0): (y[_at(nd, axis, 0)] + y[_at(nd, axis, -1)]) / 2.0 * h}
    start = stop = step = intervals
    for i in range(1, k + 1):
        start >>= 1
        samples = y[_at(nd, axis, slice(start, stop, step))]
        step >>= 1
        table[(i, 0)] = 0.5 * (table[(i - 1, 0)] + h * sum_(samples, axis=axis))
        for j in range(1, i + 1):
            prev = table[(i, j - 1)]
            table[(i, j)] = prev + (prev - table[(i - 1, j - 1)]) / ((1 << (2 * j)) - 1)
        h /= 2.0
    result = table[(k, k)]
    if numpy.result_type(result.dtype, numpy.float64) != result.dtype:
        result = result.astype(numpy.result_type(result.dtype, numpy.float64))
    if show:
        _show(table, k, show, nd - 1)
    return result


def _show(table, k, show, rest_ndim):
    if rest_ndim:
        print("*** Printing table only supported for integrals of a single data set.")
        return
    try:
        precis = show[0]
    except (TypeError, IndexError):
        precis = 5
    try:
        width = show[1]
    except (TypeError, IndexError):
        width = 8
    form = f"%{width}.{precis}f"
    title = "Richardson Extrapolation Table for Romberg Integration"
    print(title, "=" * len(title), sep="\n", end="\n")
    for i in range(k + 1):
        for j in range(i + 1):
            print(form % float(to_host(table[(i, j)])), end=" ")  # the printed table is read
        print()
    print("=" * len(title))


def newton_cotes(rn, equal=0):
    """See `scipy.integrate.newton_cotes`. The weights are host data (a NumPy array), as SciPy's:
    they are a handful of coefficients that a user applies to device samples."""
    import scipy.integrate  # optional dependency: the coefficients are SciPy's host computation

    return scipy.integrate.newton_cotes(rn, equal)

