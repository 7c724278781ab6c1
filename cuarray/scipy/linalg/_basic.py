"""solve (with assume_a), inv, det, and the SVD/eigen-based routines: eigh (subsets,
generalized), svd, svdvals, null_space, orth, orthogonal_procrustes. All on cuarray.linalg."""

from __future__ import annotations

import numpy

import cuarray.linalg as _la  # (the subsystem, by its full name: layers checked in tests/test_layers.py)
from ..._math.complex import conj
from ..._indexing.inserting import diagonal
from ..._statistics.order import max as max_
from ..._math.sums import sum as sum_
from ..._manipulation.transpose import swapaxes
from ...linalg._matmul import matmul
from ...linalg._util import as_array
from ._triangular import cho_factor, cho_solve, solve_triangular

__all__ = ["solve", "inv", "det", "eigh", "svd", "svdvals", "null_space", "orth", "orthogonal_procrustes"]

_ASSUME = {"gen": "gen", "general": "gen", "sym": "gen", "symmetric": "gen", "her": "gen", "hermitian": "gen",
           "pos": "pos", "positive definite": "pos", "diagonal": "diagonal", "tridiagonal": "gen",
           "banded": "gen", "upper triangular": "upper", "lower triangular": "lower"}


def solve(a, b, lower=False, overwrite_a=False, overwrite_b=False, check_finite=True, assume_a=None,
          transposed=False):
    """See `scipy.linalg.solve`. assume_a 'pos' runs Cholesky, 'diagonal' a division, the
    triangular ones cuBLAS trsm; 'sym'/'her'/'banded'/'tridiagonal' run the general LU (same
    results, cuSOLVER has no batched LDL^T)."""
    a, b = as_array(a, "solve"), as_array(b, "solve")
    kind = _ASSUME.get("gen" if assume_a is None else assume_a)
    if kind is None:
        raise ValueError("{} is not a recognized matrix structure".format(assume_a))
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError("Input a needs to be a square matrix.")
    if b.shape[0 if b.ndim == 1 else -2] != a.shape[-1]:
        raise ValueError("Input b has to have same number of rows as input a")
    if transposed:
        a = swapaxes(a, -1, -2)
    if kind == "pos":
        return cho_solve(cho_factor(a, lower=lower), b)
    if kind == "diagonal":
        d = diagonal(a, 0, -2, -1)
        x = b / (d if b.ndim == a.ndim - 1 else d[..., :, None])
        return x.astype(numpy.result_type(x.dtype, numpy.float64 if x.dtype.kind in "biu" else x.dtype))
    if kind in ("upper", "lower"):
        return solve_triangular(a, b, lower=kind == "lower")
    if b.ndim == a.ndim - 1:
        return _la.solve(a, b[..., None])[..., 0]
    return _la.solve(a, b)


def inv(a, overwrite_a=False, check_finite=True):
    """See `scipy.linalg.inv`."""
    return _la.inv(as_array(a, "inv"))


def det(a, overwrite_a=False, check_finite=True):
    """See `scipy.linalg.det`."""
    return _la.det(as_array(a, "det"))


def svd(a, full_matrices=True, compute_uv=True, overwrite_a=False, check_finite=True, lapack_driver="gesdd"):
    """See `scipy.linalg.svd` (cuSOLVER's drivers; `lapack_driver` is accepted and ignored)."""
    return _la.svd(as_array(a, "svd"), full_matrices=full_matrices, compute_uv=compute_uv)


def svdvals(a, overwrite_a=False, check_finite=True):
    """See `scipy.linalg.svdvals`."""
    return _la.svd(as_array(a, "svdvals"), compute_uv=False)


def eigh(a, b=None, *, lower=True, eigvals_only=False, overwrite_a=False, overwrite_b=False,
         type=1, check_finite=True, subset_by_index=None, subset_by_value=None, driver=None):  # noqa: A002
    """See `scipy.linalg.eigh`. All eigenpairs are computed (cuSOLVER syevd) and the subset is
    selected after; `subset_by_value` reads the eigenvalues' count (one device read). The
    generalized problem (type 1) by Cholesky: A x = w B x is C y = w y, C = L^-1 A L^-H, x = L^-H y."""
    a = as_array(a, "eigh")
    if subset_by_index is not None and subset_by_value is not None:
        raise ValueError("Either index or value subset can be requested.")
    uplo = "L" if lower else "U"
    if b is not None:
        if type != 1:
            raise NotImplementedError("eigh: only type=1 generalized problems")
        b = as_array(b, "eigh")
        low = _la.cholesky(b if lower else conj(swapaxes(b, -1, -2)))
        c = solve_triangular(low, a, lower=True)
        c = conj(swapaxes(solve_triangular(low, conj(swapaxes(c, -1, -2)), lower=True), -1, -2))
        w, v = _la.eigh(c, UPLO="L")
        v = solve_triangular(low, v, lower=True, trans=2)
    elif eigvals_only:
        w, v = _la.eigvalsh(a, UPLO=uplo), None
    else:
        w, v = _la.eigh(a, UPLO=uplo)
    if subset_by_index is not None:
        lo, hi = (int(i) for i in subset_by_index)
        n = w.shape[-1]
        if not (0 <= lo <= hi < n):
            raise ValueError("Requested eigenvalue indices are not valid. Valid range is [0, {}] and start "
                             "<= end, but start={}, end={} is given".format(n - 1, lo, hi))
        w = w[..., lo:hi + 1]
        v = None if v is None else v[..., lo:hi + 1]
    elif subset_by_value is not None:
        lo, hi = subset_by_value
        if w.ndim != 1:
            raise NotImplementedError("subset_by_value on stacks")
        host = w.get()
        keep = numpy.nonzero((host > lo) & (host <= hi))[0]
        s = slice(int(keep[0]), int(keep[-1]) + 1) if keep.size else slice(0, 0)
        w = w[s]
        v = None if v is None else v[:, s]
    if eigvals_only or v is None:
        return w
    return w, v


def null_space(A, rcond=None, *, overwrite_a=False, check_finite=True, lapack_driver="gesdd"):
    """See `scipy.linalg.null_space` (the rank is read from the device)."""
    A = as_array(A, "null_space")
    u, s, vh = _la.svd(A, full_matrices=True)
    M, N = A.shape[-2:]
    if rcond is None:
        rcond = numpy.finfo(s.dtype).eps * max(M, N)
    num = int(sum_(s > (max_(s) * rcond if s.size else 0)).get()) if s.size else 0
    return conj(vh[num:, :].T)


def orth(A, rcond=None):
    """See `scipy.linalg.orth` (the rank is read from the device)."""
    A = as_array(A, "orth")
    u, s, vh = _la.svd(A, full_matrices=False)
    M, N = A.shape[-2:]
    if rcond is None:
        rcond = numpy.finfo(s.dtype).eps * max(M, N)
    num = int(sum_(s > (max_(s) * rcond if s.size else 0)).get()) if s.size else 0
    return u[:, :num]


def orthogonal_procrustes(A, B, check_finite=True):
    """See `scipy.linalg.orthogonal_procrustes`: (R, scale) with R = argmin ||A R - B||."""
    A, B = as_array(A, "orthogonal_procrustes"), as_array(B, "orthogonal_procrustes")
    if A.ndim != 2:
        raise ValueError("expected ndim to be 2, but observed {}".format(A.ndim))
    if A.shape != B.shape:
        raise ValueError("the shapes of A and B differ ({} vs {})".format(A.shape, B.shape))
    u, w, vt = _la.svd(matmul(swapaxes(B, 0, 1), conj(A)).T)
    return matmul(u, vt), sum_(w)
