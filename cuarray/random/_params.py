"""Distribution parameters: NumPy's validation, broadcasting and `size` rules, on the host.

Scalar parameters are validated by NumPy itself: the same method of a NumPy generator is called
with the same scalars and a size of 0 or 1, so the exception type and message are NumPy's by
construction, and no kernel runs on bad input. Array parameters (cuarray arrays) are checked on
the device by the predicate of INVALID (one reduction and one synchronisation, as any host
decision on device values needs); the first offending element is then handed to NumPy for the
message. Arrays are broadcast to the output shape and passed as contiguous float64.
"""

from __future__ import annotations

import operator

import types

import numpy

from .._core.host_input import is_scalar, reject
from .._core.ndarray import ndarray
from .._creation.from_data import ascontiguousarray
from .._logic.content import isfinite, isnan
from .._manipulation.dims import broadcast_arrays, broadcast_to
from .._math.floating import signbit
from .._math.misc import sqrt
from .._sorting.searching_reduce import argmax

__all__ = ["INVALID", "INT_PARAMS", "normalize_size", "output_shape", "prepare"]

_POISSON_MAX = numpy.float64(9.223372006484771e18)  # NumPy's POISSON_LAM_MAX (int64 max - 10 sqrt)


def _nan(xp, x):
    return xp.isnan(x)


def _neg(xp, x):
    """NumPy's CONS_NON_NEGATIVE: the sign bit (so -0.0 is refused), NaN accepted."""
    return xp.signbit(x) & ~xp.isnan(x)


# method -> f(xp, *params): True where the parameters are invalid (NumPy's constraints).
INVALID = {
    "uniform": lambda xp, lo, hi: _neg(xp, hi - lo) | ~xp.isfinite(hi - lo),
    "normal": lambda xp, loc, scale: _neg(xp, scale),
    "exponential": lambda xp, scale: _neg(xp, scale),
    "standard_gamma": lambda xp, shape: _neg(xp, shape),
    "gamma": lambda xp, shape, scale: _neg(xp, shape) | _neg(xp, scale),
    "beta": lambda xp, a, b: (a <= 0) | (b <= 0),
    "chisquare": lambda xp, df: df <= 0,
    "noncentral_chisquare": lambda xp, df, nonc: (df <= 0) | _neg(xp, nonc),
    "f": lambda xp, dfnum, dfden: (dfnum <= 0) | (dfden <= 0),
    "noncentral_f": lambda xp, dfnum, dfden, nonc: (dfnum <= 0) | (dfden <= 0) | _neg(xp, nonc),
    "standard_t": lambda xp, df: df <= 0,
    "poisson": lambda xp, lam: (lam < 0) | _nan(xp, lam) | (lam > _POISSON_MAX),
    "binomial": lambda xp, n, p: (n < 0) | (p < 0) | (p > 1) | _nan(xp, p),
    "negative_binomial": lambda xp, n, p: ((n <= 0) | _nan(xp, n) | (p <= 0) | (p > 1) | _nan(xp, p)
                                         | ((1 - p) / p * (n + 10 * xp.sqrt(n)) > _POISSON_MAX)),
    "geometric": lambda xp, p: (p <= 0) | (p > 1) | _nan(xp, p),
    "gumbel": lambda xp, loc, scale: _neg(xp, scale),
    "laplace": lambda xp, loc, scale: _neg(xp, scale),
    "logistic": lambda xp, loc, scale: _neg(xp, scale),
    "lognormal": lambda xp, mean, sigma: _neg(xp, sigma),
    "rayleigh": lambda xp, scale: _neg(xp, scale),
    "weibull": lambda xp, a: _neg(xp, a),
    "pareto": lambda xp, a: a <= 0,
    "power": lambda xp, a: a <= 0,
    "triangular": lambda xp, left, mode, right: (left > mode) | (mode > right) | (left == right),
    "vonmises": lambda xp, mu, kappa: _neg(xp, kappa),
    "wald": lambda xp, mean, scale: (mean <= 0) | (scale <= 0),
    "zipf": lambda xp, a: (a <= 1) | _nan(xp, a),
    "logseries": lambda xp, p: (p < 0) | (p >= 1) | _nan(xp, p),
    "hypergeometric": lambda xp, g, b, s: (g < 0) | (b < 0) | (s < 0) | (g + b < s),
}
# Parameters NumPy converts to int64 before sampling (by position).
INT_PARAMS = {"binomial": (0,), "hypergeometric": (0, 1, 2)}


def normalize_size(size):
    """`size` as a tuple, or None; NumPy's errors for negative or non-integer sizes."""
    if size is None:
        return None
    if isinstance(size, (tuple, list)):
        dims = tuple(size)
    else:
        dims = (size,)
    try:
        dims = tuple(operator.index(d) for d in dims)
    except TypeError:
        raise TypeError("expected a sequence of integers or a single integer, got '{}'".format(size)) from None
    if any(d < 0 for d in dims):
        raise ValueError("negative dimensions are not allowed")
    return dims


def _dummy(shape):
    return numpy.broadcast_to(numpy.empty((), numpy.int8), shape)


def output_shape(size, shapes) -> tuple:
    """The output shape from `size` (a tuple or None) and the parameters' shapes, NumPy's errors."""
    if size is None:
        return numpy.broadcast_shapes(*shapes) if shapes else ()
    b = numpy.broadcast(_dummy(size), *[_dummy(s) for s in shapes]) if shapes else None
    if b is not None and b.shape != size:
        raise ValueError("Output size {} is not compatible with broadcast dimensions of inputs {}.".format(
            size, b.shape))
    return size


def _scalar(x):
    return x.item() if isinstance(x, numpy.generic) else x


def prepare(ref, method: str, values: tuple, size, fn: str, check: bool = True):
    """(shape, params): `params` are three (pointer or 0, scalar) pairs for the kernel, plus the
    arrays that must stay alive during the launch. `ref` is the NumPy generator whose method
    validates scalars (numpy.random.Generator or RandomState)."""
    size = normalize_size(size)
    arrays = [v for v in values if isinstance(v, ndarray)]
    for v in values:
        if not isinstance(v, ndarray) and not is_scalar(v):
            raise reject(v, "random." + fn)
    ints = INT_PARAMS.get(method, ())
    if not arrays:
        n = 1 if size is None else int(numpy.prod(size))
        getattr(ref, fn)(*values, size=0 if n == 0 else 1)  # NumPy's checks and messages
        vals = [int(_scalar(v)) if j in ints else float(_scalar(v)) for j, v in enumerate(values)]
        params = [(0, v) for v in vals] + [(0, 0.0)] * (3 - len(vals))
        return (() if size is None else size), params, ()

    shape = output_shape(size, [v.shape if isinstance(v, ndarray) else () for v in values])
    for v in arrays:
        if v.dtype.kind not in "biuf":
            raise TypeError("Cannot cast array data from dtype('{}') to dtype('float64') according to the rule "
                            "'safe'".format(v.dtype))
    dev = [v.astype(numpy.int64).astype(numpy.float64) if (isinstance(v, ndarray) and j in ints)
           else (v.astype(numpy.float64) if isinstance(v, ndarray) else float(_scalar(v)))
           for j, v in enumerate(values)]
    if check:
        _check_arrays(ref, method, fn, dev, values)
    params, keep = [], []
    for v in dev:
        if isinstance(v, ndarray):
            full = ascontiguousarray(broadcast_to(v, shape))
            keep.append(full)
            params.append((full.data.ptr, 0.0))
        else:
            params.append((0, v))
    params += [(0, 0.0)] * (3 - len(params))
    return shape, params, keep


def _check_arrays(ref, method, fn, dev, values):
    """Raise NumPy's error for the first invalid element (one device reduction and sync)."""
    check = INVALID.get(method)
    if check is None:
        return
    bad = check(_DeviceXp, *dev)
    if isinstance(bad, ndarray):
        if not bool(bad.any()):
            return
        first = int(argmax(bad.ravel()))
    elif not bad:  # the predicate only involved scalar parameters
        return
    else:
        first = 0
    full = broadcast_arrays(*[v for v in dev if isinstance(v, ndarray)])
    picked, it = [], iter(full)
    for v in dev:
        picked.append(float(next(it).ravel()[first].get()) if isinstance(v, ndarray) else v)
    ints = INT_PARAMS.get(method, ())
    picked = [int(p) if j in ints else p for j, p in enumerate(picked)]
    getattr(ref, fn)(*picked, size=1)
    raise ValueError("invalid parameters for {}".format(fn))  # NumPy accepted them: predicate too strict


# The `xp` of INVALID's predicates on device arrays: the four routines they use.
_DeviceXp = types.SimpleNamespace(isfinite=isfinite, isnan=isnan, signbit=signbit, sqrt=sqrt)
