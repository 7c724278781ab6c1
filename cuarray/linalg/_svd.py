"""svd and svdvals on cuSOLVER, with the algorithm picked per shape (docs/perf-notes.md).

The matrix handed to cuSOLVER is always "tall" (rows >= columns), which gesvd requires: a wide or
square A is copied as it lies (row-major, so cuSOLVER sees B = A^T), a tall one into column-major
blocks (B = A). From B = U_b S V_b^H: for B = A, u = U_b and vh = V_b^H; for B = A^T,
u = conj(V_b) and vh = U_b^T. The output buffers are allocated so that each of these is a view
(a conjugate only where a routine returns V_b rather than V_b^H for complex input).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy

from .._creation.basic import empty
from .._creation.matrices import eye
from .._creation.ranges import arange
from .._indexing.inserting import put_along_axis, take_along_axis
from .._logic.content import isfinite
from .._manipulation.dims import broadcast_to
from .._math.complex import conj
from .._math.misc import abs as abs_
from .._math.sums import sum as sum_
from .._sorting.searching import where
from ..cuda.libs import cusolver as _cs
from ._decomp import eigh, eigvalsh, qr
from ._matmul import matmul
from ._util import (as_array, assert_stacked_2d, batch_of, compute_char, info_array,
                    raise_on_info, real_char, stacked_copy)

__all__ = ["svd", "svdvals", "rank_svd", "SVDResult", "ALGORITHMS"]

ALGORITHMS = ("gesvd", "gesvdj", "gesvdp", "qr+gesvd", "qr+gesvdj", "qr+gesvdp")


class SVDResult(NamedTuple):
    U: object
    S: object
    Vh: object


def choose_algorithm(rows: int, cols: int, full: bool, uv: bool) -> str:
    """The cuSOLVER routine for one rows x cols (rows >= cols) column-major matrix.

    Measured on H100/H200 (docs/perf-notes.md, one in-process sweep): see `_CHOICE`."""
    if cols <= _CHOICE["small"]:
        return "gesvdj"
    if full and rows != cols:
        return _CHOICE["full_rect"]
    return _CHOICE["large"]


# Filled from the sweep of docs/perf-notes.md.
# H100, float64 (docs/perf-notes.md): gesvdp (polar decomposition + syevd) is 0.16 x CuPy's gesvd
# at 4096^2 with gesvd-level accuracy, 0.21 x on 8192x1024 (economy); gesvdp gives economy factors
# only, so full U/V of a rectangular matrix go to gesvdj (0.54 x CuPy), not gesvd (1.0 x).
_CHOICE = {"small": 32, "large": "gesvdp", "full_rect": "gesvdj"}


def _conj(x):
    return conj(x) if x.dtype.kind == "c" else x


def _svd(a, full_matrices=True, compute_uv=True, algorithm=None, fn="linalg.svd"):
    a = as_array(a, fn)
    assert_stacked_2d(a)
    char = compute_char(a)
    rchar = real_char(char)
    m, n = a.shape[-2:]
    batch_shape = a.shape[:-2]
    k = min(m, n)
    transposed = n >= m
    rows, cols = (n, m) if transposed else (m, n)
    if a.size == 0:
        s = empty(batch_shape + (k,), dtype=rchar)
        if not compute_uv:
            return s
        ucols, vrows = (m, n) if full_matrices else (k, k)
        eye_m = broadcast_to(eye(m, ucols, dtype=char), batch_shape + (m, ucols)).copy()
        eye_n = broadcast_to(eye(vrows, n, dtype=char), batch_shape + (vrows, n)).copy()
        return SVDResult(eye_m, s, eye_n)
    b = stacked_copy(a, char, "C" if transposed else "F")
    batch = batch_of(b)
    s = empty(batch_shape + (k,), dtype=rchar)
    infos = info_array(batch)
    step = rows * cols * b.itemsize
    if _batched(a.shape):
        # gesvdjBatched: one launch for the stack; always full U_b (rows^2) and V_b (cols^2).
        ub = empty(batch_shape + (rows, rows), dtype=char).mT
        vb = empty(batch_shape + (cols, cols), dtype=char).mT
        _cs.gesvdj_batched(char, _cs.VECTOR if compute_uv else _cs.NOVECTOR, rows, cols, b.data.ptr, rows,
                           s.data.ptr, ub.data.ptr, rows, vb.data.ptr, cols, infos.data.ptr, batch)
        raise_on_info(infos, "SVD did not converge")
        if not compute_uv:
            return s
        if not full_matrices:
            ub, vb = ub[..., :, :k], vb[..., :, :k]
        return _assemble(transposed, ub, None, vb, s)
    algo = algorithm or choose_algorithm(rows, cols, full_matrices and compute_uv, compute_uv)
    if algo.startswith("qr+"):
        if full_matrices and compute_uv:
            algo = algo[3:]
        else:
            return _svd_qr_first(a, m, n, compute_uv, algo[3:])
    if algo == "gesvdp" and full_matrices and compute_uv and rows != cols:
        algo = "gesvd"  # gesvdp computes the economy factors only
    ucols = rows if full_matrices else k
    vcols = cols
    if compute_uv or algo != "gesvd":  # gesvdj/gesvdp need valid U/V buffers even without vectors
        ub = empty(batch_shape + (ucols, rows), dtype=char).mT      # U_b: rows x ucols
        if algo == "gesvd":
            vt = empty(batch_shape + (cols, vcols), dtype=char).mT  # V_b^H: cols x cols
        else:
            vt = empty(batch_shape + (vcols, cols), dtype=char).mT  # V_b: cols x cols
        ustep, vstep = rows * ucols * b.itemsize, cols * cols * b.itemsize
    for i in range(batch):
        ap, sp, ip = b.data.ptr + i * step, s.data.ptr + i * k * s.itemsize, infos.data.ptr + 4 * i
        up = ub.data.ptr + i * ustep if compute_uv or algo != "gesvd" else 0
        vp = vt.data.ptr + i * vstep if compute_uv or algo != "gesvd" else 0
        if algo == "gesvd":
            job = ("A" if full_matrices else "S") if compute_uv else "N"
            _cs.gesvd(char, job, job if compute_uv else "N", rows, cols, ap, rows, sp, up, rows, vp, cols, ip)
        elif algo == "gesvdj":
            _cs.gesvdj(char, _cs.VECTOR if compute_uv else _cs.NOVECTOR, 0 if full_matrices else 1,
                       rows, cols, ap, rows, sp, up, rows, vp, cols, ip)
        elif algo == "gesvdp":
            _cs.gesvdp(char, _cs.VECTOR if compute_uv else _cs.NOVECTOR, 1, rows, cols, ap, rows, sp,
                       up, rows, vp, cols, ip)
        else:
            raise ValueError("unknown svd algorithm {!r}".format(algo))
    raise_on_info(infos, "SVD did not converge")
    if not compute_uv:
        return s
    if algo == "gesvd":
        return _assemble(transposed, ub, vt, None, s)
    return _assemble(transposed, ub, None, vt, s)


def _svd_qr_first(a, m, n, compute_uv, algo):
    """Tall (or, through the transpose, wide) A: QR first, then the SVD of the small triangle."""
    if m >= n:
        q, r = qr(a)
        res = _svd(r, False, compute_uv, algo)
        return SVDResult(matmul(q, res.U), res.S, res.Vh) if compute_uv else res
    q, r = qr(_conj(a).mT)   # A^H = Q R: A = R^H Q^H
    res = _svd(_conj(r).mT, False, compute_uv, algo)
    return SVDResult(res.U, res.S, matmul(res.Vh, _conj(q).mT)) if compute_uv else res


def _assemble(transposed, ub, vh_b, v_b, s):
    """(u, s, vh) of A from U_b and either V_b^H or V_b (each a view shaped as the matrix it holds)."""
    if transposed:  # B = A^T: u = conj(V_b), vh = U_b^T
        u = vh_b.mT if vh_b is not None else _conj(v_b)
        vh = ub.mT
    else:           # B = A: u = U_b, vh = V_b^H
        u = ub
        vh = vh_b if vh_b is not None else _conj(v_b).mT
    return SVDResult(u, s, vh)


def _descending(aw):
    """The order of the last axis of `aw` by descending value, ties by position, computed by
    ranking (no sort needed): position of aw_i = #{j: aw_j > aw_i} + #{j < i: aw_j == aw_i}."""
    n = aw.shape[-1]
    ai, aj = aw[..., :, None], aw[..., None, :]
    idx = arange(n)
    earlier = idx[None, :] < idx[:, None]
    pos = sum_((aj > ai) | ((aj == ai) & earlier), axis=-1)   # (..., n): where each value goes
    order = empty(pos.shape, dtype=numpy.int64)
    put_along_axis(order, pos, broadcast_to(idx, pos.shape), axis=-1)
    return order


def _svd_hermitian(a, compute_uv):
    """NumPy's hermitian=True path: eigh, singular values |w| in descending order (`_descending`),
    signs moved into vh."""
    if compute_uv:
        w, u = eigh(a)
    else:
        w, u = eigvalsh(a), None
    n = w.shape[-1]
    aw = abs_(w)
    if n == 0:
        return SVDResult(u, aw, _conj(u).mT) if compute_uv else aw
    order = _descending(aw)
    s = take_along_axis(aw, order, axis=-1)
    if not compute_uv:
        return s
    sgn = where(take_along_axis(w, order, axis=-1) < 0, -1.0, 1.0).astype(w.dtype)
    u = take_along_axis(u, order[..., None, :], axis=-1)
    vh = _conj(u * sgn[..., None, :]).mT
    return SVDResult(u, s, vh)


def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    """See `numpy.linalg.svd`. The cuSOLVER routine (gesvd, gesvdj, gesvdp, or gesvdjBatched for
    stacks of small matrices) is chosen per shape from measurements (docs/perf-notes.md).

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([[3.0, 0.0], [0.0, -4.0], [0.0, 0.0]])
    >>> u, s, vh = cuarray.linalg.svd(a)
    >>> u.shape, s.shape, vh.shape
    ((3, 3), (2,), (2, 2))
    >>> cuarray.round(s, 6)            # descending
    array([4., 3.])
    >>> bool(cuarray.allclose((u[:, :2] * s) @ vh, a))
    True
    """
    if hermitian:
        a = as_array(a, "linalg.svd")
        return _svd_hermitian(a, compute_uv)
    return _svd(a, full_matrices, compute_uv)


def rank_svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    """`svd` for the callers that count or invert the small singular values (pinv, matrix_rank,
    lstsq): cuSOLVER's gesvd (bidiagonal QR iteration, LAPACK's method), not gesvdp, which perturbs
    a matrix with a singular value near zero so that its polar decomposition converges and leaves
    the zeros of a rank-deficient matrix at ~1e-11 of the largest, nor gesvdj, whose sweeps stop at
    eps of the matrix's norm and return 0 for the singular values below it (a scaled permutation's
    1e-16 ... 1e-40, which NumPy returns exactly and pinv(rtol=0) inverts). Measured on an H200
    (docs/perf-notes.md, "svd: which cuSOLVER routine"): gesvd is as exact as LAPACK there and no
    slower without U/V.
    Stacks of matrices up to 32x32 still take the batched Jacobi routine (one launch for the stack).
    Its singular values of a matrix with at most one nonzero in each row and column are a few ulps
    off, where LAPACK's are exact (the magnitudes of the entries): pinv(rcond=1e-7) of singular values
    1 and 1e-7 kept the 1e-7 that NumPy's cutoff drops. Such matrices of the stack take their exact
    decomposition (`_permuted_diagonal`), but for full U/V."""
    if hermitian:
        return _svd_hermitian(as_array(a, "linalg.svd"), compute_uv)
    res = _svd(a, full_matrices, compute_uv, algorithm="gesvd")
    a = as_array(a, "linalg.svd")
    if not _batched(a.shape) or (full_matrices and compute_uv):
        return res
    mask, exact = _permuted_diagonal(a.astype(compute_char(a), copy=False), compute_uv)
    if not compute_uv:
        return where(mask[..., None], exact, res)
    return SVDResult(where(mask[..., None, None], exact.U, res.U), where(mask[..., None], exact.S, res.S),
                     where(mask[..., None, None], exact.Vh, res.Vh))


def _batched(shape) -> bool:
    """Whether `_svd` decomposes a stack of this shape with gesvdjBatched."""
    return len(shape) > 2 and math.prod(shape[:-2]) > 1 and 0 < max(shape[-2:]) <= _cs.BATCHED_MAX_N \
        and min(shape[-2:]) > 0


def _permuted_diagonal(a, compute_uv):
    """(mask, economy SVD) of the stack `a` (..., m, n): which matrices hold at most one nonzero in
    each row and column, all finite, and the SVD such a matrix has exactly (LAPACK's for it): s the
    entries' magnitudes in descending order, vh rows of the identity, u the columns divided by their
    magnitudes (a zero column for a zero singular value: the callers multiply it by 0). Elsewhere
    the values are meaningless (the mask is False there)."""
    m, n = a.shape[-2:]
    if m < n:  # A^H = U S V^H: A = V S U^H
        mask, res = _permuted_diagonal(_conj(a).mT, compute_uv)
        return (mask, res) if not compute_uv else (mask, SVDResult(_conj(res.Vh).mT, res.S, _conj(res.U).mT))
    nz = a != 0
    bad = sum_(sum_(nz, axis=-1) > 1, axis=-1) + sum_(sum_(nz, axis=-2) > 1, axis=-1)
    bad = bad + sum_(sum_(~isfinite(a), axis=-1), axis=-1)
    mask = bad == 0
    # each column's one nonzero, exactly (the rest are zeros); 0 in the other matrices (no NaN
    # for the ranking, whose order must be a permutation)
    mag = where(mask[..., None], abs_(sum_(a, axis=-2)), 0)
    order = _descending(mag)
    s = take_along_axis(mag, order, axis=-1)
    if not compute_uv:
        return mask, s
    u = take_along_axis(a, order[..., None, :], axis=-1) / where(s > 0, s, 1)[..., None, :]
    vh = (order[..., :, None] == arange(n)).astype(a.dtype)
    return mask, SVDResult(u, s, vh)


def svdvals(x, /):
    """See `numpy.linalg.svdvals`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.round(cuarray.linalg.svdvals(cuarray.array([[3.0, 0.0], [0.0, -4.0]])), 6)
    array([4., 3.])
    """
    return _svd(x, False, False, fn="linalg.svdvals")

