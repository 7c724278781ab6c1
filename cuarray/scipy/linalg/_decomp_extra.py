"""cholesky, eigvalsh, eig, eigvals, polar, pinv, norm, lstsq, solveh_banded: SciPy-shaped
wrappers over cuarray.linalg's Cholesky, eigensolvers, SVD and norms (no second factorisation)."""

from __future__ import annotations

import numpy


from ...linalg import _decomp
from ...linalg._matmul import matmul
from ...linalg._util import LinAlgError, compute_char
from ..._creation.ranges import arange
from ..._indexing.inserting import take_along_axis
from ..._manipulation.dims import broadcast_to
from ..._manipulation.transpose import swapaxes
from ..._logic.truth import any as any_
from ..._math.complex import conj, imag, real
from ..._sorting.searching import where
from ._basic import _one_triangle, eigh
from ...linalg import _norms, _solve, _svd
from ..._creation.basic import empty, full, ones
from ..._manipulation.joining import stack
from ..._math.sums import sum as sum_
from ..._statistics.order import max as max_
from ._triangular import cho_solve
from ._validate import as_lapack, banded_operands

__all__ = ["cholesky", "eigvalsh", "eig", "eigvals", "polar", "pinv", "norm", "lstsq", "solveh_banded"]


def cholesky(a, lower=False, overwrite_a=False, check_finite=True):
    """See `scipy.linalg.cholesky` (stacks; upper factor by default, as SciPy). Only the requested
    triangle of `a` is read."""
    a = as_lapack(a, "cholesky")
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError("Input array is expected to be square but has the shape: {}.".format(a.shape))
    try:
        return _decomp.cholesky(a, upper=not lower)
    except LinAlgError:
        raise LinAlgError("not positive definite") from None


def eigvalsh(a, b=None, *, lower=True, overwrite_a=False, overwrite_b=False, type=1, check_finite=True,  # noqa: A002
             subset_by_index=None, subset_by_value=None, driver=None):
    """See `scipy.linalg.eigvalsh`: `eigh(..., eigvals_only=True)`."""
    return eigh(a, b, lower=lower, eigvals_only=True, type=type, subset_by_index=subset_by_index,
                subset_by_value=subset_by_value, driver=driver)


def polar(a, side="right"):
    """See `scipy.linalg.polar`: from the reduced SVD, U = W V^H and P = V S V^H ('right') or
    W S W^H ('left')."""
    if side not in ("right", "left"):
        raise ValueError("`side` must be either 'right' or 'left'")
    a = as_lapack(a, "polar")
    if a.ndim != 2:
        raise ValueError("`a` must be a 2-D array.")
    w, s, vh = _svd.svd(a, full_matrices=False)
    u = matmul(w, vh)
    if side == "right":
        p = matmul(conj(swapaxes(vh, -1, -2)) * s[..., None, :], vh)
    else:
        p = matmul(w * s[..., None, :], conj(swapaxes(w, -1, -2)))
    return u, p


def solveh_banded(ab, b, overwrite_ab=False, overwrite_b=False, lower=False, check_finite=True):
    """See `scipy.linalg.solveh_banded` (stacks). As `solve_banded`: the Hermitian matrix is
    assembled on the device from its diagonals and solved by cuarray.linalg's Cholesky (pbsv's
    factorisation without band storage; memory and time of a dense n x n solve)."""
    ab, b, vector = banded_operands(ab, b, "solveh_banded")
    char = compute_char(ab, b)
    n, u = ab.shape[-1], ab.shape[-2] - 1
    i, j = arange(n)[:, None], arange(n)[None, :]
    # lower form: A[i, j] = ab[i - j, j] for i >= j; upper form: A[i, j] = ab[u + i - j, j], i <= j
    r = (i - j) if lower else (u + i - j)
    inside = ((i >= j) if lower else (i <= j)) & (r >= 0) & (r <= u)
    dense = take_along_axis(ab, broadcast_to(where(inside, r, 0), ab.shape[:-2] + (n, n)), axis=-2)
    tri = where(inside, dense, 0).astype(char)
    a = _one_triangle(tri, lower, True)
    x = cho_solve((_decomp.cholesky(a, upper=not lower), lower), b.astype(char))
    return x




def eig(a, b=None, left=False, right=True, overwrite_a=False, overwrite_b=False, check_finite=True,
        homogeneous_eigvals=False):
    """See `scipy.linalg.eig` (stacks): cuSOLVER geev through `cuarray.linalg.eig`. The eigenvalues
    are complex, as SciPy's; the eigenvectors of a real matrix are real when every eigenvalue of
    the whole stack is (SciPy's rule; deciding it reads the eigenvalues back). The generalized
    problem (`b`) and left eigenvectors are not supported (NotImplementedError: cuSOLVER has no
    ggev)."""
    if b is not None:
        raise NotImplementedError("eig: the generalized problem (b) is not supported on the GPU")
    if left:
        raise NotImplementedError("eig: left eigenvectors are not supported on the GPU")
    a = as_lapack(a, "eig")
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError("expected square matrix")
    if right:
        w, v = _decomp.eig(a)
        # SciPy: a real matrix's eigenvectors are real when every eigenvalue of the stack is real.
        # cuarray.linalg.eig follows the installed NumPy, whose newer versions make them complex.
        if a.dtype.kind != "c" and v.dtype.kind == "c" and not bool(any_(imag(w) != 0).get()):
            v = real(v).copy()
    else:
        w, v = _decomp.eigvals(a), None
    w = _homogeneous(_complex(w), homogeneous_eigvals)
    return w if not right else (w, v)


def eigvals(a, b=None, overwrite_a=False, overwrite_b=False, check_finite=True, homogeneous_eigvals=False):
    """See `scipy.linalg.eigvals` (SciPy 1.18's signature, with `overwrite_b`; complex, as SciPy's;
    `b` not supported, see `eig`)."""
    return eig(a, b, right=False, homogeneous_eigvals=homogeneous_eigvals)


def _complex(w):
    return w if w.dtype.kind == "c" else w.astype(numpy.complex64 if w.dtype == numpy.float32 else numpy.complex128)


def _homogeneous(w, yes):
    if not yes:
        return w
    return stack([w, ones(w.shape, dtype=w.dtype)], axis=-2)


def pinv(a, *, atol=None, rtol=None, return_rank=False, check_finite=True):
    """See `scipy.linalg.pinv` (stacks): from the reduced SVD, singular values above
    atol + rtol max(s) inverted. `return_rank` reads the rank (one device read)."""
    a = as_lapack(a, "pinv")
    if a.ndim < 2:
        raise ValueError("expected matrix")
    atol = 0.0 if atol is None else atol
    char = compute_char(a)
    rtol = max(a.shape[-2:]) * numpy.finfo(char).eps if rtol is None else rtol
    if atol < 0.0 or rtol < 0.0:
        raise ValueError("atol and rtol values must be positive.")
    u, s, vh = _svd.svd(a, full_matrices=False)
    val = atol + max_(s, axis=-1, keepdims=True, initial=0.0) * rtol
    keep = s > val
    sinv = where(keep, 1 / where(keep, s, 1), 0).astype(s.dtype)
    B = conj(swapaxes(matmul(u * sinv[..., None, :], vh), -1, -2))
    if return_rank:
        rank = sum_(keep, axis=-1)
        return B, (int(rank.get()) if rank.ndim == 0 else rank)
    return B


def norm(a, ord=None, axis=None, keepdims=False, check_finite=True):  # noqa: A002
    """See `scipy.linalg.norm`: `cuarray.linalg.norm`."""
    return _norms.norm(as_lapack(a, "norm"), ord=ord, axis=axis, keepdims=keepdims)


def lstsq(a, b, cond=None, overwrite_a=False, overwrite_b=False, check_finite=True, lapack_driver=None):
    """See `scipy.linalg.lstsq`: `cuarray.linalg.lstsq` (minimum-norm solution through the SVD,
    gelsd's answer) with SciPy 1.18's default cut-off (cond = machine epsilon) and results: the
    rank a NumPy int64; residues for an overdetermined system (except with 'gelsy'), NaN where the
    rank is deficient, in the solution's dtype (complex for complex input), a 0-d array for a
    vector `b`; otherwise an empty array. `lapack_driver` is checked, not used."""
    if lapack_driver not in (None, "gelsd", "gelsy", "gelss"):
        raise ValueError('LAPACK driver "{}" is not found'.format(lapack_driver))
    a, b = as_lapack(a, "lstsq"), as_lapack(b, "lstsq")
    if a.ndim != 2:
        raise ValueError("Input array a should be 2D")
    if b.ndim not in (1, 2) or b.shape[0] != a.shape[0]:
        raise ValueError("Shape mismatch: a and b should have the same number of rows ({} != {}).".format(
            a.shape[0], b.shape[0] if b.ndim else 1))
    char = compute_char(a, b)
    x, resid, rank, s = _solve.lstsq(a, b, rcond=numpy.finfo(char).eps if cond is None else cond)
    m, n = a.shape
    if m == 0 or n == 0:  # SciPy's early return (rank a Python int there)
        return x, (resid[0] if b.ndim == 1 and resid.size else resid), 0, s
    rank = numpy.int64(rank)
    if m > n and lapack_driver != "gelsy":
        k = 1 if b.ndim == 1 else b.shape[1]
        # SciPy 1.18: LAPACK makes no promise for a rank-deficient matrix, so NaN (NumPy: empty)
        resid = resid.astype(x.dtype) if rank == n else full((k,), numpy.nan, dtype=x.dtype)
        if b.ndim == 1:
            resid = resid[0]
    else:
        resid = empty((0,), dtype=x.dtype)
    return x, resid, rank, s
