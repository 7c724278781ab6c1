"""permutation, shuffle, permuted and choice: random permutations without a sort.

`_indices(bitgen, n, m, rows)` gives, per row, the first m values of a keyed pseudo-random
permutation of [0, n) (a Feistel network with cycle walking: templates/permutation.cu), one pass
and O(1) work per output. The round keys are Philox words of the next draw (made on the device),
so a permutation depends on (key, draw) only. Arrays are permuted by `take` with those indices.
"""

from __future__ import annotations

import math
import operator

import numpy
from numpy import float64

from .._core.host_input import as_parameter, is_scalar, reject
from .._core.ndarray import ndarray
from .._indexing.inserting import take_along_axis
from .._manipulation.transpose import moveaxis
from .._math.sums_scan import cumsum
from .._sorting.counting import count_nonzero
from .._sorting.sorting import argsort
from . import _kernels
from ._bit_generator import philox4x32_10
from ._params import normalize_size

__all__ = ["permutation", "shuffle", "permuted", "choice", "permutation_model"]

_I64 = numpy.dtype(numpy.int64)


def _indices(bitgen, n: int, m: int, rows: int = 1) -> ndarray:
    out = ndarray((rows, m) if rows != 1 else (m,), _I64)
    draw = bitgen.next_draw()
    if rows * m:
        _kernels.permutation(out, rows, m, n, draw)
    return out


def _axis(axis, ndim):
    from numpy.exceptions import AxisError

    axis = operator.index(axis)
    if not -ndim <= axis < ndim:
        raise AxisError(axis, ndim)
    return axis % ndim


def permutation(bitgen, x, axis=0):
    if isinstance(x, ndarray):
        ax = _axis(axis, x.ndim)
        return x.take(_indices(bitgen, x.shape[ax], x.shape[ax]), axis=ax)
    if is_scalar(x) and numpy.issubdtype(type(x), numpy.integer) and not isinstance(x, bool):
        n = max(int(x), 0)
        return _indices(bitgen, n, n)
    if is_scalar(x):
        from numpy.exceptions import AxisError

        raise AxisError(axis, 0)
    raise reject(x, "random.permutation")


def shuffle(bitgen, x, axis=0):
    if not isinstance(x, ndarray):
        raise TypeError("shuffle: x must be a cuarray.ndarray (in-place shuffling of host data is not possible)")
    ax = _axis(axis, x.ndim)
    if x.shape[ax] > 1:
        x[...] = x.take(_indices(bitgen, x.shape[ax], x.shape[ax]), axis=ax)


def permuted(bitgen, x, axis=None, out=None):
    if not isinstance(x, ndarray):
        raise reject(x, "random.permuted")
    if out is not None:
        if not isinstance(out, ndarray):
            raise TypeError("out must be a cuarray.ndarray")
        if out.shape != x.shape:
            raise ValueError("out must have the same shape as x")
    if axis is None:
        flat = x.ravel()
        res = flat.take(_indices(bitgen, flat.size, flat.size)).reshape(x.shape)
    else:
        ax = _axis(axis, x.ndim)
        moved = moveaxis(x, ax, -1)
        n = moved.shape[-1]
        rows = int(numpy.prod(moved.shape[:-1]))
        idx = _indices(bitgen, n, n, rows if rows != 1 else 1).reshape(moved.shape)
        res = moveaxis(take_along_axis(moved, idx, axis=-1), -1, ax)
    if out is None:
        return res
    out[...] = res
    return out


def _p_array(p, pop_size):
    """p as a device float64 vector, checked as NumPy checks it (a synchronisation for the sum)."""
    p = as_parameter(p, "random.choice")  # a host list or NumPy array, as CuPy accepts
    if p.ndim != 1:
        raise ValueError("p must be 1-dimensional")
    if p.size != pop_size:
        raise ValueError("a and p must have same size")
    p = p.astype(float64)
    if pop_size and bool((p < 0).any()):
        raise ValueError("Probabilities are not non-negative")
    atol = max(numpy.sqrt(numpy.finfo(numpy.float64).eps), 1e-8)
    if abs(float(p.sum()) - 1.0) > atol:
        raise ValueError("Probabilities do not sum to 1. See Notes section of docstring for more information.")
    return p


def _weighted_without_replacement(gen, p, m):
    """The first m indices of a weighted sample without replacement: Efraimidis-Spirakis keys
    E_i / p_i (E_i standard exponential), smallest first. The order of the smallest keys has the
    law of drawing one item at a time in proportion to the weights left, NumPy's sequential law,
    in one pass and one sort instead of NumPy's draw-and-reject rounds."""
    if int(count_nonzero(p > 0)) < m:  # one synchronisation, as NumPy's own check
        raise ValueError("Fewer non-zero entries in p than size")
    keys = gen.standard_exponential(p.size) / p  # p_i == 0 gives inf: never among the first m
    return argsort(keys, kind="stable")[:m]


def choice(gen, a, size, replace, p, axis, fn):
    bitgen = gen._bit_generator

    if isinstance(a, (list, tuple, numpy.ndarray)):
        a = as_parameter(a, "random." + fn)  # the population as a host sequence, as CuPy accepts
    if isinstance(a, ndarray):
        if a.ndim == 0:
            raise ValueError("a must be a sequence or an integer, not {}".format(type(a)))
        ax = _axis(axis, a.ndim)
        pop_size = a.shape[ax]
    elif is_scalar(a) and numpy.issubdtype(type(a), numpy.integer) and not isinstance(a, bool):
        pop_size, ax = int(a), None
    elif is_scalar(a):
        raise ValueError("a must be a sequence or an integer, not {}".format(type(a)))
    else:
        raise reject(a, "random." + fn)
    dims = normalize_size(size)
    m = 1 if dims is None else math.prod(dims)
    shape = () if dims is None else dims
    if pop_size <= 0 and m != 0:
        raise ValueError("a cannot be empty unless no samples are taken" if ax is not None
                         else "a must be a positive integer unless no samples are taken")
    if p is not None:
        p = _p_array(p, pop_size)
    if replace:
        if p is None:
            idx = gen.integers(0, max(pop_size, 1), size=shape)
        else:
            idx = ndarray(shape, _I64)
            draw = bitgen.next_draw()
            if m:
                _kernels.choice_cdf(idx, m, draw, cumsum(p))
    else:
        if m > pop_size:
            raise ValueError("Cannot take a larger sample than population when replace is False")
        if p is not None:
            idx = _weighted_without_replacement(gen, p, m).reshape(shape)
        else:
            idx = _indices(bitgen, pop_size, m).reshape(shape)
    if ax is None:
        return idx
    return a.take(idx, axis=ax)


def _mix(r, key):
    """feistel_round of templates/permutation.cu on uint32 arrays."""
    h = (numpy.asarray(r, numpy.uint64) ^ numpy.uint64(key)) & numpy.uint64(0xFFFFFFFF)
    m32 = numpy.uint64(0xFFFFFFFF)
    h ^= h >> numpy.uint64(16)
    h = (h * numpy.uint64(0x7FEB352D)) & m32
    h ^= h >> numpy.uint64(15)
    h = (h * numpy.uint64(0x846CA68B)) & m32
    h ^= h >> numpy.uint64(16)
    return h


def permutation_model(draw: tuple, n: int, m: int, rows: int = 1) -> numpy.ndarray:
    """NumPy model of cuarray_random_permutation (rows x m int64) for n < 2**31: what the kernel
    must give bit for bit, and a CPU-testable statement of its uniformity."""
    k0, k1, call = (int(v) for v in draw)
    ctr = numpy.array([[j, 0xFFFFFFFF, 0xFFFFFFFF, call] for j in range(6)], numpy.uint32)
    keys = [int(v) for v in philox4x32_10(ctr, (k0, k1)).reshape(-1)]
    bits = max(1, (n - 1).bit_length())
    if n == 1 << bits or n == 1:
        bits += 1
    a = bits // 2
    b = bits - a
    ma, mb = numpy.uint64((1 << a) - 1), numpy.uint64((1 << b) - 1)
    r = numpy.repeat(numpy.arange(rows, dtype=numpy.uint64), m)
    tweak = numpy.where(r == 0, numpy.uint64(0), _mix(r & numpy.uint64(0xFFFFFFFF), 0x85EBCA6B))
    swap = (_mix(tweak, keys[0] ^ 0x5BD1E995) & numpy.uint64(1)).astype(bool)
    x = numpy.tile(numpy.arange(m, dtype=numpy.uint64), rows)
    todo = numpy.ones(x.shape, bool)
    while todo.any():
        y, tw = x[todo], tweak[todo]
        left, right = y >> numpy.uint64(b), y & mb
        for j in range(0, len(keys), 2):
            nr = (left ^ _mix_keyed(right, keys[j], tw)) & ma
            left, right = right, nr
            nr = (left ^ _mix_keyed(right, keys[j + 1], tw)) & mb
            left, right = right, nr
        y = (left << numpy.uint64(b)) | right
        sw = swap[todo] & (y < 2)
        y[sw] ^= numpy.uint64(1)
        x[todo] = y
        todo[todo] = y >= n
    return x.astype(numpy.int64).reshape(rows, m)


def _mix_keyed(right, key, tweak):
    """feistel_round(right, key ^ tweak) with a per-element tweak."""
    k = (numpy.uint64(key) ^ tweak) & numpy.uint64(0xFFFFFFFF)
    return _mix(right ^ k, 0)
