"""Symmetric positive definite banded systems on the device by block cyclic reduction (Heller,
"Some aspects of the cyclic reduction algorithm for block tridiagonal linear systems", SIAM J.
Numer. Anal. 13, 1976; Golub & Van Loan, "Matrix Computations", 4.5): a matrix of half-bandwidth p
is block tridiagonal in p x p blocks, and each level eliminates the even blocks, which are coupled
only to the odd ones, so every level is a few batched operations over half the blocks (a batched
small solve, two batched products) and n unknowns take log2(n / p) levels and O(n p^2) work. The
elimination is Gaussian elimination in the odd-even order of the blocks without pivoting, which is
stable for a positive definite matrix (its Schur complements stay positive definite). The log of
the determinant is the sum over the eliminated blocks of theirs (each level's Schur complement).
LAPACK's pbsv (SciPy's banded Cholesky) is a sequential sweep down the band; this is its parallel
counterpart, and rounds differently (both backward stable).

`whittaker_henderson` (_whittaker.py) solves its penalised least squares with it. cuarray's
`solve_banded`/`solveh_banded` assemble the dense n x n matrix (O(n^2) memory), which a long
signal cannot afford."""

from __future__ import annotations

import numpy

from ..._core.transfer import from_host as _from_host
from ..._creation.basic import empty as _empty
from ..._creation.basic import zeros as _zeros
from ..._creation.ranges import arange as _arange
from ..._indexing.inserting import take as _take
from ..._manipulation.joining import concatenate as _concatenate
from ..._math.sums import sum as _sum
from ..._sorting.searching import where as _where
from ...linalg import _small_solve
from ...linalg._matmul import matmul as _matmul
from ...linalg._solve import slogdet as _slogdet
from ...linalg._solve import solve as _solve

__all__ = ["band_blocks", "solve_blocks"]

_F8 = numpy.float64


def _block_solve(D, R):
    """D^-1 R for the stacks D (m, p, p), R (m, p, k): the small-system kernel without its
    singularity read (a singular block gives inf/nan, caught by the determinants), else
    cuarray.linalg.solve."""
    p, k = D.shape[-1], R.shape[-1]
    if _small_solve.fits(p, k):
        return _small_solve.solve(D, R, "d", D.shape[:-2], check=False)
    return _solve(D, R)


def band_blocks(ab, n_blocks):
    """The diagonal blocks D (M, p, p) and the blocks below them L (M, p, p), L[i] = A[i, i - 1]
    (L[0] = 0), of the symmetric matrix whose lower band form is `ab` ((p + 1, n) device array,
    ab[k, j] = A[j + k, j]), padded with identity blocks to M = n_blocks >= ceil(n / p) blocks."""
    p = ab.shape[0] - 1
    n = ab.shape[1]
    cols = n_blocks * p
    band = _zeros((p + 1, cols), dtype=_F8)
    band[0, n:] = 1.0  # the padding: identity rows, coupled to nothing
    band[:, :n] = ab
    flat = band.reshape(-1)
    a, c = numpy.meshgrid(numpy.arange(p), numpy.arange(p), indexing="ij")
    start = (_arange(n_blocks, dtype=numpy.int64) * p)[:, None, None]
    # D[I, a, c] = A[Ip + a, Ip + c] = ab[|a - c|, Ip + min(a, c)]
    D = _take(flat, start + _from_host(numpy.abs(a - c) * cols + numpy.minimum(a, c)))
    # L[I, a, c] = A[Ip + a, (I - 1)p + c] = ab[p + a - c, (I - 1)p + c] where a <= c, else 0
    inside = a <= c
    below = _take(flat, start[1:] + _from_host(numpy.where(inside, (p + a - c) * cols + c - p, 0)))
    L = _where(_from_host(inside), below, 0.0)
    return D, _concatenate((_zeros((1, p, p), dtype=_F8), L))


def _log_dets(D):
    """(sum of log |det| of the blocks D (m, p, p), number of blocks that are not positive definite
    by Sylvester's criterion: a leading principal minor not positive, NaN included; LAPACK's
    Cholesky stops at a pivot that is not positive, the same test one minor at a time)."""
    p = D.shape[-1]
    sign, logabsdet = _slogdet(D)
    positive = sign > 0
    for k in range(1, p):
        positive = positive & (_slogdet(D[..., :k, :k])[0] > 0)
    return _sum(logabsdet), _sum(~positive)


def solve_blocks(D, L, B):
    """X of A X = B for the block tridiagonal symmetric A with diagonal blocks D (M, p, p) and
    blocks L (M, p, p) below them (L[i] = A[i, i - 1], L[0] = 0), M = 2^k - 1; B (M, p, r).
    Returns (X (M, p, r), log |det A|, the count of eliminated blocks whose determinant is not
    positive: nonzero when A is not (numerically) positive definite), the last two as 0-d device
    arrays (nothing is read back)."""
    p = D.shape[-1]
    levels = []
    logdet, bad = 0.0, 0
    while D.shape[0] > 1:
        De, Do, Le, Lo, Be, Bo = D[0::2], D[1::2], L[0::2], L[1::2], B[0::2], B[1::2]
        # Even block 2j couples to the odd blocks 2j - 1 (through Le[j]) and 2j + 1 (through
        # A[2j, 2j + 1] = Lo[j]^T; the last even block has no right neighbour).
        Ue = _concatenate((Lo.swapaxes(-1, -2), _zeros((1, p, p), dtype=_F8)))
        S = _block_solve(De, _concatenate((Le, Ue, Be), axis=-1))  # De^-1 [Le, Ue, Be]
        d, b = _log_dets(De)
        logdet, bad = logdet + d, bad + b
        # Odd block 2j + 1 after eliminating its neighbours 2j (left) and 2j + 2 (right):
        #   D' = Do - Lo De^-1 Ue - Le'^T De'^-1 Le',  L' = -Lo De^-1 Le,  B' = Bo - Lo De^-1 Be - Le'^T De'^-1 Be'
        left = _matmul(Lo, S[:-1])  # Lo [De^-1 Le, De^-1 Ue, De^-1 Be] of the left neighbours
        right = _matmul(Le[1:].swapaxes(-1, -2), S[1:])  # the right neighbours' (Le' = Le[j + 1])
        levels.append(S)
        D = Do - left[..., p:2 * p] - right[..., :p]
        L = -left[..., :p]
        B = Bo - left[..., 2 * p:] - right[..., 2 * p:]
    S = _block_solve(D, B)
    d, b = _log_dets(D)
    logdet, bad = logdet + d, bad + b
    x = S
    for S in reversed(levels):
        # x_2j = De^-1 (Be - Le x_{2j-1} - Ue x_{2j+1}) = S_B - [S_L, S_U] [x_{2j-1}; x_{2j+1}]
        zero = _zeros((1,) + x.shape[1:], dtype=_F8)
        neighbours = _concatenate((_concatenate((zero, x)), _concatenate((x, zero))), axis=-2)
        even = S[..., 2 * p:] - _matmul(S[..., :2 * p], neighbours)
        full = _empty((S.shape[0] + x.shape[0],) + x.shape[1:], dtype=_F8)
        full[0::2] = even
        full[1::2] = x
        x = full
    return x, logdet, bad
