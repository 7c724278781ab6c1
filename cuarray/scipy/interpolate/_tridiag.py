"""Tridiagonal systems of the spline builds, solved by cyclic reduction on whole-array operations
(Hockney 1965; Golub & Van Loan, "Matrix Computations", 4.5): each level eliminates the odd rows
against their even neighbours in a few elementwise passes over half the rows, so n unknowns take
log2(n) levels and O(n) work, and every right-hand-side column (a spline's extra axes) is solved
in the same passes. No pivoting, as the spline matrices are diagonally dominant (not-a-knot end
rows excepted, which the elimination of their neighbour absorbs as LAPACK's banded solve does
without a row exchange on these systems). `xp` is this package's array namespace (`_xp`)."""

from __future__ import annotations

from . import _xp

__all__ = ["solve_tridiagonal"]


def _padded(v, n_pad, fill, xp):
    if n_pad == 0:
        return v
    return xp.concatenate((v, xp.full((n_pad,) + v.shape[1:], fill, dtype=v.dtype)))


def solve_tridiagonal(lower, diag, upper, rhs, xp=None):
    """x of A x = rhs for the tridiagonal A with rows (lower[i], diag[i], upper[i]) (lower[0] and
    upper[-1] are ignored); lower/diag/upper are 1-D of length n, rhs (n, r)."""
    xp = _xp if xp is None else xp
    n = rhs.shape[0]
    size = 1
    while size - 1 < n:
        size *= 2
    size -= 1  # 2**k - 1 rows: every odd row has two even neighbours at every level
    pad = size - n
    zero1 = xp.zeros((1,), dtype=diag.dtype)
    a = _padded(xp.concatenate((zero1, lower[1:])), pad, 0, xp)[:, None]
    c = _padded(xp.concatenate((upper[:-1], zero1)), pad, 0, xp)[:, None]
    b = _padded(diag, pad, 1, xp)[:, None]
    d = _padded(rhs, pad, 0, xp)
    levels = []
    while b.shape[0] > 1:
        alpha = -a[1::2] / b[0:-1:2]
        gamma = -c[1::2] / b[2::2]
        levels.append((a, b, c, d))
        a, b, c, d = (alpha * a[0:-1:2], b[1::2] + alpha * c[0:-1:2] + gamma * a[2::2], gamma * c[2::2],
                      d[1::2] + alpha * d[0:-1:2] + gamma * d[2::2])
    x = d / b
    for a, b, c, d in reversed(levels):
        zero = xp.zeros((1,) + x.shape[1:], dtype=x.dtype)
        left = xp.concatenate((zero, x))
        right = xp.concatenate((x, zero))
        even = (d[0::2] - a[0::2] * left - c[0::2] * right) / b[0::2]
        full = xp.empty((b.shape[0],) + x.shape[1:], dtype=even.dtype)
        full[0::2] = even
        full[1::2] = x
        x = full
    return x[:n]
