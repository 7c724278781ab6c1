"""cholesky, eigvalsh, eig, eigvals, polar, pinv, norm, lstsq, solveh_banded: SciPy-shaped
wrappers over cuarray.linalg's Cholesky, eigensolvers, SVD and norms (no second factorisation)."""

from __future__ import annotations

import numpy


from ...linalg import _decomp
from ...linalg._matmul import matmul
from ...linalg._util import LinAlgError, compute_char, real_char
from ..._creation.ranges import arange
from ..._indexing.inserting import take_along_axis
from ..._manipulation.dims import broadcast_to
from ..._manipulation.transpose import swapaxes
from ..._logic.truth import any as any_
from ..._math.complex import conj, imag, real
from ..._sorting.searching import where
from ._basic import _one_triangle, eigh
from ...linalg import _norms, _svd
from ..._creation.basic import empty, ones, zeros
from ..._creation.from_data import asarray
from ..._manipulation.joining import stack
from ..._math.sums import sum as sum_
from ..._statistics.order import max as max_
from ._triangular import cho_solve
from ._validate import as_lapack, banded_operands, require_finite

__all__ = ["cholesky", "eigvalsh", "eig", "eigvals", "polar", "pinv", "norm", "lstsq", "solveh_banded"]


def cholesky(a, lower=False, overwrite_a=False, check_finite=True):
    """See `scipy.linalg.cholesky` (stacks; upper factor by default, as SciPy). Only the requested
    triangle of `a` is read.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> linalg.cholesky(cuarray.array([[4., 2.], [2., 3.]]))
    array([[2.        , 1.        ],
           [0.        , 1.41421356]])
    """
    a = as_lapack(a, "cholesky")
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError("Input array is expected to be square but has the shape: {}.".format(a.shape))
    require_finite(check_finite, a)
    try:
        return _decomp.cholesky(a, upper=not lower)
    except LinAlgError:
        raise LinAlgError("not positive definite") from None


def eigvalsh(a, b=None, *, lower=True, overwrite_a=False, overwrite_b=False, type=1, check_finite=True,  # noqa: A002
             subset_by_index=None, subset_by_value=None, driver=None):
    """See `scipy.linalg.eigvalsh`: `eigh(..., eigvals_only=True)`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> linalg.eigvalsh(cuarray.array([[2., 1.], [1., 2.]]))
    array([1., 3.])
    """
    return eigh(a, b, lower=lower, eigvals_only=True, type=type, check_finite=check_finite,
                subset_by_index=subset_by_index, subset_by_value=subset_by_value, driver=driver)


def polar(a, side="right"):
    """See `scipy.linalg.polar` (stacks): from the reduced SVD, U = W V^H and P = V S V^H
    ('right') or W S W^H ('left'). The SVD checks that `a` is finite, as SciPy's (one device
    read).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> u, p = linalg.polar(cuarray.array([[2., 1.], [1., 2.]]))
    >>> p
    array([[2., 1.],
           [1., 2.]])
    """
    if side not in ("right", "left"):
        raise ValueError("`side` must be either 'right' or 'left'")
    a = as_lapack(a, "polar")
    if a.ndim < 2:
        raise ValueError("`a` must be a 2-D array.")
    require_finite(True, a)
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
    factorisation without band storage; memory and time of a dense n x n solve).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> ab = cuarray.array([[0., 1., 1.], [4., 4., 4.]])   # the upper band, then the diagonal
    >>> linalg.solveh_banded(ab, cuarray.array([5., 7., 9.]))
    array([1., 1., 2.])
    """
    ab, b, vector = banded_operands(ab, b, "solveh_banded")
    require_finite(check_finite, ab, b)
    char = compute_char(ab, b)
    n, u = ab.shape[-1], ab.shape[-2] - 1
    i, j = arange(n)[:, None], arange(n)[None, :]
    # lower form: A[i, j] = ab[i - j, j] for i >= j; upper form: A[i, j] = ab[u + i - j, j], i <= j
    r = (i - j) if lower else (u + i - j)
    inside = ((i >= j) if lower else (i <= j)) & (r >= 0) & (r <= u)
    dense = take_along_axis(ab, broadcast_to(where(inside, r, 0), ab.shape[:-2] + (n, n)), axis=-2)
    tri = where(inside, dense, 0).astype(char)
    a = _one_triangle(tri, lower, True)
    x = cho_solve((_decomp.cholesky(a, upper=not lower), lower), b.astype(char), check_finite=False)
    return x




def eig(a, b=None, left=False, right=True, overwrite_a=False, overwrite_b=False, check_finite=True,
        homogeneous_eigvals=False):
    """See `scipy.linalg.eig` (stacks): cuSOLVER geev through `cuarray.linalg.eig`. The eigenvalues
    are complex, as SciPy's; the eigenvectors of a real matrix are real when every eigenvalue of
    the whole stack is (SciPy's rule; deciding it reads the eigenvalues back). Not supported
    (NotImplementedError, before any device work): the generalized problem `b` (cuSOLVER has no
    generalized non-symmetric solver, LAPACK's ggev/QZ; for Hermitian `a` and positive definite `b`
    use `eigh(a, b)`, otherwise `eig(solve(b, a))` where `b` is well conditioned, or SciPy on the
    host) and `left=True` (cuSOLVER's geev computes right eigenvectors only; those of `a^H` are
    the left ones of `a`, for the conjugate eigenvalues).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> w, v = linalg.eig(cuarray.array([[1., 2.], [3., 2.]]))
    >>> cuarray.sort(w.real)   # the order of the eigenvalues is not defined
    array([-1.,  4.])
    """
    if b is not None:
        raise NotImplementedError(
            "eig(a, b): cuSOLVER has no generalized non-symmetric eigensolver (LAPACK's ggev). For a "
            "Hermitian a and a positive definite b use cuarray.scipy.linalg.eigh(a, b); otherwise "
            "eig(solve(b, a)) for a well-conditioned b, or scipy.linalg.eig on the host (a.get(), b.get())")
    if left:
        raise NotImplementedError(
            "eig(left=True): cuSOLVER's geev computes right eigenvectors only. The left eigenvectors of a "
            "are the right eigenvectors of a.conj().T (for the conjugate eigenvalues): eig(a.conj().T)")
    a = as_lapack(a, "eig")
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError("expected square matrix")
    require_finite(check_finite, a)
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
    `b` raises NotImplementedError: see `eig`).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> cuarray.sort(linalg.eigvals(cuarray.array([[1., 2.], [3., 2.]])).real)
    array([-1.,  4.])
    """
    return eig(a, b, right=False, check_finite=check_finite, homogeneous_eigvals=homogeneous_eigvals)


def _complex(w):
    return w if w.dtype.kind == "c" else w.astype(numpy.complex64 if w.dtype == numpy.float32 else numpy.complex128)


def _homogeneous(w, yes):
    if not yes:
        return w
    return stack([w, ones(w.shape, dtype=w.dtype)], axis=-2)


def pinv(a, *, atol=None, rtol=None, return_rank=False, check_finite=True):
    """See `scipy.linalg.pinv` (stacks): from the reduced SVD, singular values above
    atol + rtol max(s) inverted. `return_rank` reads the rank of one matrix (one device read; a
    NumPy int64, as SciPy 1.18) and keeps a stack's ranks on the device.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> linalg.pinv(cuarray.array([[1., 2.], [3., 4.], [5., 6.]]))
    array([[-1.33333333, -0.33333333,  0.66666667],
           [ 1.08333333,  0.33333333, -0.41666667]])
    """
    a = as_lapack(a, "pinv")
    if a.ndim < 2:
        raise ValueError("expected matrix")
    atol = 0.0 if atol is None else atol
    char = compute_char(a)
    rtol = max(a.shape[-2:]) * numpy.finfo(char).eps if rtol is None else rtol
    if atol < 0.0 or rtol < 0.0:
        raise ValueError("atol and rtol values must be positive.")
    require_finite(check_finite, a)
    u, s, vh = _svd.svd(a, full_matrices=False)
    val = atol + max_(s, axis=-1, keepdims=True, initial=0.0) * rtol
    keep = s > val
    sinv = where(keep, 1 / where(keep, s, 1), 0).astype(s.dtype)
    B = conj(swapaxes(matmul(u * sinv[..., None, :], vh), -1, -2))
    if return_rank:
        rank = sum_(keep, axis=-1)
        return B, (numpy.int64(rank.get()) if rank.ndim == 0 else rank)
    return B


def norm(a, ord=None, axis=None, keepdims=False, check_finite=True):  # noqa: A002
    """See `scipy.linalg.norm`: `cuarray.linalg.norm`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> a = cuarray.array([[3., 4.], [6., 8.]])
    >>> round(float(linalg.norm(a[0])), 6)  # waits for the GPU
    5.0
    >>> linalg.norm(a, axis=1)
    array([ 5., 10.])
    """
    a = as_lapack(a, "norm")
    require_finite(check_finite, a)
    return _norms.norm(a, ord=ord, axis=axis, keepdims=keepdims)


def lstsq(a, b, cond=None, overwrite_a=False, overwrite_b=False, check_finite=True, lapack_driver=None):
    """See `scipy.linalg.lstsq` (stacks, as SciPy 1.18: `a` (..., M, N), `b` (M,) for every matrix
    or (..., M, K) broadcast against `a`). The minimum-norm solution through the batched SVD
    (gelsd's answer), with SciPy's cut-off (singular values at or below cond * s_max, cond the
    machine epsilon by default) and SciPy 1.18's results: the rank a NumPy int64 for one matrix,
    an int64 array of the batch shape for a stack (read from the device: one synchronisation);
    residues (the squared column norms of b - a x, the solution's dtype) for an overdetermined
    system, NaN where the rank is deficient, none with 'gelsy' or M <= N; `s` None with 'gelsy'.
    `lapack_driver` otherwise picks nothing (one algorithm).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> a = cuarray.array([[1., 0.], [1., 1.], [1., 2.]])
    >>> x, residues, rank, s = linalg.lstsq(a, cuarray.array([1., 2., 4.]))
    >>> x
    array([0.83333333, 1.5       ])
    >>> int(rank)
    2
    """
    if lapack_driver not in (None, "gelsd", "gelsy", "gelss"):
        raise ValueError('LAPACK driver "{}" is not found'.format(lapack_driver))
    a, b = as_lapack(a, "lstsq"), as_lapack(b, "lstsq")
    if a.ndim < 2:
        raise ValueError("Input array a should be at least 2D, got a.shape = {}".format(a.shape))
    b = b.reshape(1) if b.ndim == 0 else b
    char = compute_char(a, b)
    m, n = a.shape[-2:]
    if m == 0 or n == 0:
        require_finite(check_finite, a, b)
        # SciPy 1.18's early return, shapes and all (before its shape check; the rank a Python int).
        x = zeros((n,) + b.shape[1:], dtype=char)
        resid = sum_(real(b * conj(b)), axis=0).astype(real_char(char)) if n == 0 else empty((0,))
        return x, resid, 0, empty((0,))
    vector = b.ndim == 1
    bb = b[:, None] if vector else b
    if bb.shape[-2] != m:
        raise ValueError("Shape mismatch: a and b should have the same number of rows ({} != {}).".format(
            m, bb.shape[-2]))
    batch = numpy.broadcast_shapes(a.shape[:-2], bb.shape[:-2])
    require_finite(check_finite, a, b)
    a = a.astype(char, copy=False)
    bb = broadcast_to(bb.astype(char, copy=False), batch + bb.shape[-2:])
    u, s, vh = _svd.svd(a, full_matrices=False)
    large = s > (numpy.finfo(char).eps if cond is None else float(cond)) * s[..., :1]
    rank_dev = sum_(large, axis=-1)
    sinv = where(large, 1 / where(large, s, 1), 0).astype(s.dtype)
    x = matmul(conj(swapaxes(vh, -1, -2)), matmul(conj(swapaxes(u, -1, -2)), bb) * sinv[..., :, None])
    if x.shape[:-2] != batch:
        x = broadcast_to(x, batch + x.shape[-2:]).copy()
    rank_host = numpy.broadcast_to(rank_dev.get(), batch).astype(numpy.int64)
    rank = rank_host[()] if rank_host.ndim == 0 else asarray(rank_host)
    if m > n and lapack_driver != "gelsy":
        r = bb - matmul(a, x)
        resid = sum_(r * conj(r), axis=-2).astype(x.dtype)  # complex for complex input, as SciPy's
        if numpy.any(rank_host < n):
            # SciPy 1.18: LAPACK makes no promise for a rank-deficient matrix, so NaN.
            resid = where(asarray(rank_host < n)[..., None], numpy.nan, resid).astype(x.dtype)
        if vector:
            resid = resid[..., 0]
    else:
        resid = empty(batch + (0,), dtype=x.dtype)
    if vector:
        x = x[..., 0]
    if lapack_driver == "gelsy":
        return x, resid, rank, None
    if s.shape[:-1] != batch:  # b's batch dimensions reach the singular values too, as SciPy's
        s = broadcast_to(s, batch + s.shape[-1:]).copy()
    return x, resid, rank, s
