"""comb and perm (SciPy "Combinatorics"). With `exact=False` they take arrays and are SciPy's own
expressions over the binom and poch ufuncs (0 where k > N, N < 0 or k < 0). With `exact=True`
SciPy takes integer scalars only and returns a Python int: so do these, on the host (a cuarray
0-d array is read back; a larger one raises SciPy's errors)."""

from __future__ import annotations

import math
import numbers

import numpy

from ..._core.host_input import as_array
from ..._core.ndarray import ndarray
from ..._core.transfer import asnumpy
from ..._sorting.searching import where
from ._gamma import binom, poch


def _host_scalar(v):
    # SciPy's int(N) of an exact=True argument: a 0-d array reads back, any other raises as NumPy's
    if isinstance(v, ndarray):
        if v.ndim != 0:
            raise TypeError("only 0-dimensional arrays can be converted to Python scalars")
        return v.item()
    if isinstance(v, numpy.ndarray):
        if v.ndim != 0:
            raise TypeError("only 0-dimensional arrays can be converted to Python scalars")
        return v[()]
    return v


def _comb_exact(N, k):
    N, k = _host_scalar(N), _host_scalar(k)
    if int(N) != N or int(k) != k:
        raise ValueError("Non-integer `N` and `k` with `exact=True` is not supported.")
    N, k = int(N), int(k)
    if k > N or N < 0 or k < 0:
        return 0
    return math.comb(N, k)


def comb(N, k, *, exact=False, repetition=False):
    """See `scipy.special.comb`. `exact=True` computes a Python int on the host (SciPy takes
    scalars only there).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.comb(cuarray.array([5, 10]), 2)
    array([10., 45.])
    >>> special.comb(10, 3, exact=True)   # a Python int
    120
    """
    if repetition:
        if exact:
            Nh, kh = _host_scalar(N), _host_scalar(k)
            if kh == 0 and int(Nh) == Nh and Nh >= 0:
                return 1
            return _comb_exact(Nh + kh - 1, kh)
        N, k = as_array(N, "comb"), as_array(k, "comb")
        # C(N, 0) with repetition is 1 for N >= 0 (binom(N - 1, 0) is 0 at N = 0)
        return where((k == 0) & (N >= 0), 1.0, binom(N + k - 1, k))
    if exact:
        return _comb_exact(N, k)
    N, k = as_array(N, "comb"), as_array(k, "comb")
    return _zero_outside(binom(N, k), N, k)


def perm(N, k, exact=False):
    """See `scipy.special.perm`. `exact=True` computes a Python int on the host (SciPy takes
    scalars only there).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import special
    >>> special.perm(cuarray.array([5, 10]), 2)
    array([20., 90.])
    """
    if exact:
        N, k = numpy.squeeze(_squeezable(N))[()], numpy.squeeze(_squeezable(k))[()]
        if not (isinstance(N, (numbers.Number, numpy.generic)) and isinstance(k, (numbers.Number, numpy.generic))):
            raise ValueError("`N` and `k` must be scalar integers with `exact=True`.")
        floor_N, floor_k = int(N), int(k)
        if not (floor_N == N and floor_k == k):
            raise ValueError("Non-integer `N` and `k` with `exact=True` is not supported.")
        if k > N or N < 0 or k < 0:
            return 0
        return math.perm(floor_N, floor_k)
    N, k = as_array(N, "perm"), as_array(k, "perm")
    return _zero_outside(poch(N - k + 1, k), N, k)


def _squeezable(v):
    # perm(exact=True) squeezes size-1 arrays (SciPy's backward compatibility): a cuarray array
    # comes back to the host for that (it is a scalar's worth)
    return asnumpy(v) if isinstance(v, ndarray) else v


def _zero_outside(vals, N, k):
    cond = (k <= N) & (N >= 0) & (k >= 0)
    return where(cond, vals, 0)
