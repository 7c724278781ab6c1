"""Tridiagonal systems of the spline builds (CubicSpline's slopes, and through it
make_interp_spline's and RegularGridInterpolator's cubic splines), two ways (`use_gtsv`):
- few right-hand sides: cuSPARSE's gtsv2, Gaussian elimination with partial pivoting (LAPACK
  gtsv's method; SciPy solves the same rows with LAPACK's banded solver). `pack` lays a system
  out as gtsv2 takes it (the diagonals with lower[0] = upper[-1] = 0, at least 3 rows: identity
  rows pad a shorter one, one row a right-hand side, complex ones as their real and imaginary
  columns: the matrix is real); `gtsv` solves in place (the CPU tests' NumPy stand-in: a
  dense solve of the same packed system); `unpack` returns the (n, r) solution.
- many (a grid's lines along one axis): cyclic reduction on whole-array operations, every column
  in the same log2(n) levels of elementwise passes, where gtsv2 takes ~7.5 us a column.

Measured (H100, ms, cyclic reduction / gtsv2; docs/perf-notes.md): 1e5 rows, 1 column 14.0 /
0.58; 1e6 rows 10.4 / 0.45; 1e5 rows, 3 complex columns 13.5 / 0.87; 128 rows, 128^2 columns
9.2 / 129; 512 rows, 512^2 columns 24.6 / 1954."""

from __future__ import annotations

import numpy

from ..._creation.basic import empty, full, ones, zeros
from ..._manipulation.joining import concatenate
from ..._math.complex import imag, real
from ...cuda.libs import cusparse as _cusparse
from ...cuda.libs.cusparse import GTSV_MAX_COLUMNS, GTSV_MIN_ROWS, gtsv2_fits

__all__ = ["solve_tridiagonal", "use_gtsv", "pack", "unpack", "cyclic_reduction", "gtsv"]


def gtsv(dl, d, du, b):
    """Solve in place the m x m tridiagonal system (diagonals dl, d, du: dl[0] = du[-1] = 0,
    m >= 3) for the k right-hand sides of b (k, m), C-contiguous: cuSPARSE's gtsv2 (partial
    pivoting) on the current stream."""
    k, m = b.shape
    _cusparse.gtsv2(b.dtype.char, m, k, dl.data.ptr, d.data.ptr, du.data.ptr, b.data.ptr, m)


def use_gtsv(n: int, columns: int) -> bool:
    """Whether `solve_tridiagonal` takes gtsv2 for n rows and `columns` real right-hand sides
    (complex ones count twice): ~0.5 ms + ~7.5 us a column, against cyclic reduction's ~0.6 ms a
    level of log2(n) levels, launch-bound until the columns make it a pass over memory. gtsv2's
    sizes are 32-bit: systems of 2**31 entries or more (rows times columns) take cyclic reduction."""
    return columns <= GTSV_MAX_COLUMNS and gtsv2_fits(n, columns)


def pack(lower, diag, upper, rhs):
    """(dl, d, du, b, complex) for gtsv: the m = max(n, 3) diagonals in the real dtype of the
    system, and b, the right-hand sides (k, m) C-contiguous (k = r, or 2 r for complex rhs: real
    and imaginary columns)."""
    n = rhs.shape[0]
    cplx = rhs.dtype.kind == "c"
    part = numpy.finfo(rhs.dtype).dtype if cplx else rhs.dtype  # the right-hand sides' real dtype
    dt = numpy.result_type(lower.dtype, diag.dtype, upper.dtype, part)
    dt = dt if dt in (numpy.float32, numpy.float64) else numpy.dtype(numpy.float64)
    pad = max(GTSV_MIN_ROWS - n, 0)
    zero, pad0, pad1 = zeros((1,), dtype=dt), zeros((pad,), dtype=dt), ones((pad,), dtype=dt)
    dl = concatenate((zero, lower.astype(dt)[1:], pad0))
    d = concatenate((diag.astype(dt), pad1))
    du = concatenate((upper.astype(dt)[:-1], zero, pad0))
    if cplx:
        rhs = concatenate((real(rhs), imag(rhs)), axis=1)
    b = zeros((rhs.shape[1], n + pad), dtype=dt)
    b[:, :n] = rhs.T
    return dl, d, du, b, cplx


def unpack(b, n, cplx):
    """The (n, r) solution from gtsv's b (k, m): complex from its real and imaginary columns."""
    x = b[:, :n].T
    if not cplx:
        return x
    r = x.shape[1] // 2
    pairs = empty((n, r, 2), dtype=x.dtype)
    pairs[..., 0] = x[:, :r]
    pairs[..., 1] = x[:, r:]
    return pairs.view(numpy.result_type(x.dtype, numpy.complex64)).reshape((n, r))


def solve_tridiagonal(lower, diag, upper, rhs):
    """x of A x = rhs for the tridiagonal A with rows (lower[i], diag[i], upper[i]) (lower[0] and
    upper[-1] are ignored); lower/diag/upper are 1-D of length n, rhs (n, r)."""
    n, r = rhs.shape
    if not use_gtsv(n, 2 * r if rhs.dtype.kind == "c" else r):
        return cyclic_reduction(lower, diag, upper, rhs)
    dl, d, du, b, cplx = pack(lower, diag, upper, rhs)
    if b.size:
        gtsv(dl, d, du, b)
    return unpack(b, n, cplx)


def _padded(v, n_pad, fill):
    if n_pad == 0:
        return v
    return concatenate((v, full((n_pad,) + v.shape[1:], fill, dtype=v.dtype)))


def cyclic_reduction(lower, diag, upper, rhs):
    """solve_tridiagonal's answer by cyclic reduction on whole-array operations (Hockney 1965;
    Golub & Van Loan, "Matrix Computations", 4.5): each level eliminates the odd rows against
    their even neighbours in a few elementwise passes over half the rows (log2(n) levels, O(n)
    work), every column in the same passes. No pivoting: the spline matrices are diagonally
    dominant (not-a-knot end rows excepted, which the elimination of their neighbour absorbs)."""
    n = rhs.shape[0]
    size = 1
    while size - 1 < n:
        size *= 2
    size -= 1  # 2**k - 1 rows: every odd row has two even neighbours at every level
    pad = size - n
    zero1 = zeros((1,), dtype=diag.dtype)
    a = _padded(concatenate((zero1, lower[1:])), pad, 0)[:, None]
    c = _padded(concatenate((upper[:-1], zero1)), pad, 0)[:, None]
    b = _padded(diag, pad, 1)[:, None]
    d = _padded(rhs, pad, 0)
    levels = []
    while b.shape[0] > 1:
        alpha = -a[1::2] / b[0:-1:2]
        gamma = -c[1::2] / b[2::2]
        levels.append((a, b, c, d))
        a, b, c, d = (alpha * a[0:-1:2], b[1::2] + alpha * c[0:-1:2] + gamma * a[2::2], gamma * c[2::2],
                      d[1::2] + alpha * d[0:-1:2] + gamma * d[2::2])
    x = d / b
    for a, b, c, d in reversed(levels):
        zero = zeros((1,) + x.shape[1:], dtype=x.dtype)
        left = concatenate((zero, x))
        right = concatenate((x, zero))
        even = (d[0::2] - a[0::2] * left - c[0::2] * right) / b[0::2]
        merged = empty((b.shape[0],) + x.shape[1:], dtype=even.dtype)
        merged[0::2] = even
        merged[1::2] = x
        x = merged
    return x[:n]
