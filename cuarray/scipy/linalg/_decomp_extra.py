"""cholesky, eigvalsh, polar, solveh_banded: thin SciPy-shaped wrappers over cuarray.linalg's
Cholesky, eigensolver and SVD (no second factorisation)."""

from __future__ import annotations


from ...linalg import _decomp
from ...linalg._matmul import matmul
from ...linalg._util import LinAlgError, compute_char
from ..._creation.ranges import arange
from ..._indexing.inserting import take_along_axis
from ..._manipulation.dims import broadcast_to
from ..._manipulation.transpose import swapaxes
from ..._math.complex import conj
from ..._sorting.searching import where
from ._basic import _one_triangle, eigh
from ...linalg import _svd
from ._triangular import cho_solve
from ._validate import as_lapack

__all__ = ["cholesky", "eigvalsh", "polar", "solveh_banded"]


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
    ab, b = as_lapack(ab, "solveh_banded"), as_lapack(b, "solveh_banded")
    if ab.ndim < 2:
        raise ValueError("expected a 2-D array of diagonals, got ab.shape={}".format(ab.shape))
    vector = b.ndim == 1
    if b.ndim == 0 or ab.shape[-1] != b.shape[0 if vector else -2]:
        raise ValueError("shapes of ab and b are not compatible.")
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


