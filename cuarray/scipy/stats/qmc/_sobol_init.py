"""The host side of `Sobol`: the direction numbers and their scrambling, small parameters
(d x bits integers) made once an engine, as SciPy's `_sobol.pyx` makes them.

The direction numbers are Joe & Kuo's (S. Joe and F. Y. Kuo, "Constructing Sobol sequences with
better two-dimensional projections", SIAM J. Sci. Comput. 30(5):2635-2654, 2008; their file
new-joe-kuo-6.21201, https://web.maths.unsw.edu.au/~fkuo/sobol/, search criterion D(6), 21201
dimensions, BSD-style licence), in the packing SciPy ships (`_sobol_direction_numbers.npz`: the
primitive polynomials as 2a + 2^s + 1 and the initial numbers, with the degenerate first
dimension added), copied here unchanged: SciPy is no run-time dependency of cuarray. The
recurrence filling the remaining numbers is Bratley & Fox's (ACM TOMS 14(1):88-100, 1988,
Algorithm 659); the scrambling is SciPy's left linear matrix scramble plus a digital shift
(Owen 1998; Matousek 1998), drawn from the engine's NumPy Generator in SciPy's order, so an
engine seeded as SciPy's is scrambled as SciPy's."""

from __future__ import annotations

import pathlib

import numpy

__all__ = ["MAXDIM", "direction_numbers", "scrambled", "engine_rng"]

MAXDIM = 21201
MAXDEG = 18
_DATA = pathlib.Path(__file__).parent / "_sobol_direction_numbers.npz"


def direction_numbers(d: int, bits: int) -> numpy.ndarray:
    """SciPy's `_initialize_v`: the (d, bits) direction numbers as uint64, each column scaled by
    its power of two (the recurrence vectorised over the dimensions)."""
    v = numpy.zeros((d, bits), dtype=numpy.uint64)
    if d == 0:
        return v
    with numpy.load(_DATA) as data:
        poly = data["poly"][:d].astype(numpy.uint64)
        vinit = data["vinit"][:d].astype(numpy.uint64)
    v[0, :] = 1
    m = numpy.array([int(p).bit_length() - 1 for p in poly], dtype=numpy.int64)  # each polynomial's degree
    m[0] = 0
    for j in range(min(bits, MAXDEG)):
        v[1:, j] = numpy.where(j < m[1:], vinit[1:, j], v[1:, j])
    rows = numpy.arange(d)
    for j in range(bits):
        todo = (rows > 0) & (j >= m)
        if not todo.any():
            continue
        r, mr, p = rows[todo], m[todo], poly[todo]
        newv = v[r, j - mr]
        for k in range(int(mr.max())):
            use = (k < mr) & (((p >> numpy.maximum(mr - 1 - k, 0).astype(numpy.uint64)) & numpy.uint64(1)) == 1)
            src = v[r, numpy.maximum(j - k - 1, 0)]
            newv = numpy.where(use, newv ^ (src << numpy.uint64(k + 1)), newv)
        v[r, j] = newv
    return v << numpy.arange(bits - 1, -1, -1, dtype=numpy.uint64)[None, :]


def scrambled(v: numpy.ndarray, bits: int, rng, dtype) -> tuple:
    """SciPy's `Sobol._scramble`: (the shift, the scrambled direction numbers), both of `dtype`,
    drawn from `rng` as SciPy draws them (the shift's bits first, then the lower-triangular
    matrices)."""
    d = v.shape[0]
    bit = rng.integers if isinstance(rng, numpy.random.Generator) else rng.randint  # a legacy `seed`: RandomState
    pow2 = 2 ** numpy.arange(bits, dtype=dtype)
    shift = numpy.dot(bit(2, size=(d, bits), dtype=dtype), pow2)
    ltm = numpy.tril(bit(2, size=(d, bits, bits), dtype=dtype)).astype(numpy.uint64)
    ltm[:, numpy.arange(bits), numpy.arange(bits)] = 1
    # row p of a matrix as an integer, its last column the lowest bit; new bit (bits-1-p) of a
    # direction number is the parity of that row AND the number
    rowbits = numpy.zeros((d, bits), dtype=numpy.uint64)
    for i in range(bits):
        rowbits |= ltm[:, :, bits - 1 - i] << numpy.uint64(i)
    out = numpy.zeros_like(v)
    for p in range(bits):
        parity = numpy.bitwise_count(rowbits[:, p, None] & v).astype(numpy.uint64) & numpy.uint64(1)
        out |= parity << numpy.uint64(bits - 1 - p)
    return shift.astype(dtype), out.astype(dtype)


def engine_rng(rng, seed):
    """The engine's own Generator as SciPy's `QMCEngine` makes it (`rng` a Generator: a child
    spawned from it; an int or None: a child of `default_rng(rng)`; the legacy `seed`: a
    Generator's child, a RandomState itself, an int `default_rng(seed)`)."""
    if rng is not None and seed is not None:
        raise TypeError("Sobol() got multiple values for argument now known as `rng`. Specify one of `rng` or `seed`.")
    if seed is not None:
        if isinstance(seed, numpy.random.Generator):
            return seed.spawn(1)[0]
        if isinstance(seed, numpy.random.RandomState):
            return seed
        return numpy.random.default_rng(seed)
    if not isinstance(rng, numpy.random.Generator):
        rng = numpy.random.default_rng(rng)
    return rng.spawn(1)[0]
