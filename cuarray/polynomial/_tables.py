"""Host tables of a basis's linear maps, built from its three-term recurrence once per size.

A basis is given by ``B_{i+1} = (a_i x + b_i) B_i - c_i B_{i-1}``
(`rec(i)` returns ``(a_i, b_i, c_i)``). The products ``B_i B_j``, the powers of x and the basis
polynomials themselves are then small constant tables: with them a product of two short series is
one outer product and one matrix-vector product on the device, and a conversion to or from a power
series one matrix-vector product, where NumPy's recursions take several small steps per
coefficient (each a kernel launch here). Tables are float64 host arrays (read-only, cached); the
caller copies one to the device in its series' dtype. Larger sizes than `TABLE_MAX` elements go
through the recursions instead.
"""

from __future__ import annotations

import functools

import numpy

__all__ = ["TABLE_MAX", "fits", "mulx_matrix", "products", "from_power", "to_power", "derivative"]

TABLE_MAX = 1 << 15  # elements (256 KiB of float64; 64 cached tables a kind at most): ~25 coefficients a factor


def fits(elements: int) -> bool:
    return elements <= TABLE_MAX


def mulx_matrix(rec, n):
    """(n + 1, n): column i is x B_i = (B_{i+1} - b_i B_i + c_i B_{i-1}) / a_i."""
    x = numpy.zeros((n + 1, n))
    for i in range(n):
        a, b, c = rec(i)
        x[i + 1, i] = 1.0 / a
        x[i, i] = -b / a
        if i:
            x[i - 1, i] = c / a
    return x


def _frozen(a):
    a.setflags(write=False)
    return a


@functools.lru_cache(maxsize=64)
def products(rec, n1, n2):
    """(n1 + n2 - 1, n1, n2): ``[:, i, j]`` holds the coefficients of B_i B_j."""
    k = n1 + n2 - 1
    x = mulx_matrix(rec, k - 1)
    out = numpy.zeros((k, n1, n2))
    prev, cur = None, numpy.eye(k, n2)  # B_0 B_j = B_j
    out[:, 0] = cur
    for i in range(1, n1):
        a, b, c = rec(i - 1)
        nxt = a * (x @ cur[:k - 1]) + b * cur  # degrees stay below k: the top row of cur is zero here
        if i > 1:
            nxt -= c * prev
        prev, cur = cur, nxt
        out[:, i] = cur
    return _frozen(out)


@functools.lru_cache(maxsize=64)
def from_power(rec, n):
    """(n, n): column k holds x**k in the basis."""
    x = mulx_matrix(rec, n - 1)
    out = numpy.zeros((n, n))
    out[0, 0] = 1.0
    for k in range(1, n):
        out[:, k] = x @ out[:n - 1, k - 1]
    return _frozen(out)


@functools.lru_cache(maxsize=64)
def to_power(rec, n):
    """(n, n): column i holds B_i as a power series."""
    out = numpy.zeros((n, n))
    out[0, 0] = 1.0
    for i in range(n - 1):
        a, b, c = rec(i)
        out[1:, i + 1] = a * out[:-1, i]
        out[:, i + 1] += b * out[:, i]
        if i:
            out[:, i + 1] -= c * out[:, i - 1]
    return _frozen(out)


@functools.lru_cache(maxsize=64)
def derivative(first, n, m):
    """(n - m, n): the m-th derivative of a series of n coefficients, from the basis's first
    derivative matrix `first(n)` ((n - 1, n), exact small integers)."""
    out = first(n)
    for k in range(1, m):
        out = first(n - k) @ out
    return _frozen(out)
