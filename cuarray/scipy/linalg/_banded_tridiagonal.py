"""`solve_banded`'s tridiagonal case, (l, u) = (1, 1) with one matrix: cuSPARSE's gtsv2,
Gaussian elimination with partial pivoting (LAPACK gtsv's method; SciPy runs gbsv's band LU) in
O(n) memory and time, where the general path assembles the dense n x n matrix (80 GB at n = 1e5
in float64). gtsv2 reports no singular pivot: a result with a non-finite entry is solved again
by the dense path (SciPy's LinAlgError or its values) where n x n fits `DENSE_MAX_ROWS`, and past
that raised as singular. Measured (H100, ms, gtsv2 / dense LU): n = 32 0.29 / 0.99, 1024 0.28 /
3.9, 4096 0.42 / 16.4, 1e6 0.43 / - (docs/scipy.md); 2 rows (below gtsv2's 3) stay dense."""

from __future__ import annotations

from ..._creation.basic import zeros
from ..._creation.from_data import ascontiguousarray
from ..._logic.content import isfinite
from ..._logic.truth import all as all_
from ..._manipulation.joining import concatenate
from ...cuda.libs import cusparse as _cusparse
from ...cuda.libs.cusparse import GTSV_MAX_COLUMNS, GTSV_MIN_ROWS, gtsv2_fits
from ...linalg._util import LinAlgError

__all__ = ["use_gtsv", "solve"]

DENSE_MAX_ROWS = 16384  # the dense fallback's limit: 2 GiB of float64 matrix


def use_gtsv(lower: int, upper: int, n: int, batched: bool, columns: int = 1) -> bool:
    """Whether solve_banded takes gtsv2: one tridiagonal matrix of 3 rows or more, fewer than 2**31
    entries in its right-hand sides (gtsv2's sizes are 32-bit), and at most GTSV_MAX_COLUMNS of
    them unless n is past DENSE_MAX_ROWS (gtsv2 takes ~7.5 us a column: below that the dense LU's
    one factorisation wins)."""
    fits = (columns <= GTSV_MAX_COLUMNS or n > DENSE_MAX_ROWS) and gtsv2_fits(n, columns)
    return lower == 1 and upper == 1 and not batched and n >= GTSV_MIN_ROWS and fits


def solve(ab, b, vector: bool, char: str):
    """x of the tridiagonal system whose diagonals are ab's rows (ab[0, 1:] above, ab[1] on and
    ab[2, :-1] below the diagonal) for b (n,) or (n, k), in `char` ('f', 'd', 'F', 'D'); None where
    x has a non-finite entry and the dense path can decide (n <= DENSE_MAX_ROWS)."""
    n = ab.shape[-1]
    zero = zeros((1,), dtype=char)
    dl = concatenate((zero, ab[2, :-1].astype(char)))
    d = ab[1].astype(char)  # a copy: gtsv2 leaves the diagonals alone, but ab is the caller's
    du = concatenate((ab[0, 1:].astype(char), zero))
    cols = (b[:, None] if vector else b).T.astype(char)
    rhs = ascontiguousarray(cols)  # (k, n): column-major n x k, solved in place
    _cusparse.gtsv2(char, n, rhs.shape[0], dl.data.ptr, d.data.ptr, du.data.ptr, rhs.data.ptr, n)
    x = rhs[0] if vector else ascontiguousarray(rhs.T)
    if bool(all_(isfinite(x))):
        return x
    if n <= DENSE_MAX_ROWS:
        return None
    raise LinAlgError("singular matrix (or a solution past the dtype's range): gtsv2 gave a non-finite "
                      "entry for this {} x {} tridiagonal system".format(n, n))
