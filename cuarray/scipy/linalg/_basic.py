"""solve (with assume_a), inv, det, and the SVD/eigen-based routines: eigh (subsets,
generalized), svd, svdvals, null_space, orth, orthogonal_procrustes. All on cuarray.linalg."""

from __future__ import annotations

import numpy

import cuarray.linalg as _la  # (the subsystem, by its full name: layers checked in tests/test_layers.py)
from ..._math.complex import conj
from ..._indexing.inserting import diagonal, take_along_axis
from ..._creation.basic import zeros
from ..._creation.matrices import eye, tril, triu
from ..._creation.ranges import arange
from ..._logic.truth import any as any_
from ..._manipulation.dims import broadcast_to
from ..._sorting.searching import where
from ...linalg._util import LinAlgError, compute_char
from ._validate import as_lapack, banded_operands, batch_shape, require_finite
from ..._statistics.order import max as max_
from ..._math.sums import sum as sum_
from ..._manipulation.transpose import swapaxes
from ...linalg._matmul import matmul
from ..._creation.from_data import asarray
from ..._core.ndarray import ndarray
from ._triangular import cho_factor, cho_solve, solve_triangular
from . import _banded_tridiagonal as _tridiagonal

__all__ = ["solve", "solve_banded", "inv", "det", "eigh", "svd", "svdvals", "null_space", "orth", "orthogonal_procrustes"]

_ASSUME = {"gen": "gen", "general": "gen", "sym": "gen", "symmetric": "gen", "her": "gen", "hermitian": "gen",
           "pos": "pos", "positive definite": "pos", "diagonal": "diagonal", "tridiagonal": "gen",
           "banded": "gen", "upper triangular": "upper", "lower triangular": "lower"}


def _one_triangle(a, lower, hermitian):
    """The symmetric (Hermitian) matrix SciPy's 'sym' ('her') solvers see: only the `lower` (or
    upper) triangle of `a` is read, as LAPACK's sysv/hesv do."""
    t = tril(a, -1) if lower else triu(a, 1)
    other = swapaxes(t, -1, -2)
    return t + (conj(other) if hermitian else other) + triu(tril(a))  # the last term: the diagonal


def _diagonal_solve(a, b):
    """x with diag(a) x = b for (stacks of) (n, k) blocks `b`; a zero on the diagonal raises
    SciPy's LinAlgError (one device read)."""
    d = diagonal(a, 0, -2, -1)
    if d.size and bool(any_(d == 0).get()):
        raise LinAlgError("A singular matrix detected")
    x = b / d[..., :, None]
    return x.astype(numpy.result_type(x.dtype, numpy.float64 if x.dtype.kind in "biu" else x.dtype))


def solve(a, b, lower=False, overwrite_a=False, overwrite_b=False, check_finite=True, assume_a=None,
          transposed=False):
    """See `scipy.linalg.solve` (stacks, with SciPy's rule: a 1-D `b` is one vector for every
    matrix, otherwise b is a stack of (n, k) blocks). assume_a 'pos' runs Cholesky, 'diagonal' a
    division, the triangular ones cuBLAS trsm, 'sym'/'her' the general LU on the triangle `lower`
    names mirrored (cuSOLVER has no batched LDL^T), 'banded'/'tridiagonal' the general LU. The
    condition-number LinAlgWarning of SciPy is not emitted (no device read); `check_finite`
    reads one flag per operand back (a synchronisation).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> a = cuarray.array([[3., 1.], [1., 2.]])
    >>> linalg.solve(a, cuarray.array([9., 8.]))
    array([2., 3.])
    """
    a, b = as_lapack(a, "solve"), as_lapack(b, "solve")
    kind = _ASSUME.get("gen" if assume_a is None else assume_a)
    if kind is None:
        raise ValueError("{} is not a recognized matrix structure".format(assume_a))
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError("Expected square matrix, got a1.shape={}".format(a.shape))
    vector = b.ndim == 1
    if b.ndim == 0 or b.shape[0 if vector else -2] != a.shape[-1]:
        raise ValueError("incompatible shapes: a1.shape={} and b1.shape={}".format(
            a.shape, b.shape if not vector else b.shape + (1,)))
    require_finite(check_finite, a, b)
    if transposed:
        a = swapaxes(a, -1, -2)
    if assume_a in ("sym", "symmetric", "her", "hermitian"):
        a = _one_triangle(a, lower, assume_a in ("her", "hermitian"))
    bb = b[:, None] if vector else b
    if kind == "pos":
        x = cho_solve(cho_factor(a, lower=lower, check_finite=False), bb, check_finite=False)
    elif kind == "diagonal":
        x = _diagonal_solve(a, bb)
    elif kind in ("upper", "lower"):
        x = solve_triangular(a, bb, lower=kind == "lower", check_finite=False)
    else:
        x = _la.solve(a, bb)
    return x[..., 0] if vector else x


def _diagonal_counts(v):
    """A number of lower or upper diagonals of `solve_banded`: an int, or (SciPy 1.18's batching)
    an integer array, one count per matrix, broadcast against the batch (host values: they shape
    the gather)."""
    host = numpy.asarray(v.get() if isinstance(v, ndarray) else v)
    if host.dtype.kind not in "biu":  # SciPy's TypeError (an index is required, 1.0 included)
        raise TypeError("the numbers of lower and upper diagonals must be integers, got {!r}".format(v))
    return host.astype(numpy.int64)


def solve_banded(l_and_u, ab, b, overwrite_ab=False, overwrite_b=False, check_finite=True):
    """See `scipy.linalg.solve_banded` (stacks as SciPy 1.18: leading dimensions of `ab`, of a
    2-D-core `b`, and of `l_and_u` given as integer arrays, one (l, u) per matrix with l + u + 1
    rows each). One tridiagonal matrix ((l, u) = (1, 1), at least 3 rows) is solved by cuSPARSE's
    gtsv2 (partial pivoting, O(n): `_banded_tridiagonal`). Otherwise (cuSOLVER has no banded
    solver) the n x n matrix is assembled on the device from its diagonals (one gather) and solved
    by cuarray.linalg's LU with partial pivoting, gbsv's factorisation without the band storage:
    the memory and time of a dense n x n solve, for n up to the tens of thousands.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> ab = cuarray.array([[0., 1., 1.], [4., 4., 4.], [1., 1., 0.]])   # one band above, one below
    >>> linalg.solve_banded((1, 1), ab, cuarray.array([5., 7., 9.]))
    array([1., 1., 2.])
    """
    nlower, nupper = (_diagonal_counts(v) for v in l_and_u)
    ab, b, vector = banded_operands(ab, b, "solve_banded")
    width = nlower + nupper + 1
    if numpy.any(width != ab.shape[-2]):
        raise ValueError("invalid values for the number of lower and upper diagonals: l+u+1 ({}) does not "
                         "equal ab.shape[0] ({})".format(width.ravel()[width.ravel() != ab.shape[-2]][0],
                                                         ab.shape[-2]))
    counts = numpy.broadcast_shapes(nlower.shape, nupper.shape)
    band_batch = numpy.broadcast_shapes(ab.shape[:-2], counts)
    batch = batch_shape("solve_banded", ab.shape[:-2], counts, () if vector else b.shape[:-2])
    require_finite(check_finite, ab, b)
    char = compute_char(ab, b)
    n = ab.shape[-1]
    if b.size == 0 or n == 0:
        return zeros(batch + b.shape[-1 if vector else -2:], dtype=char)
    # The row of ab holding the main diagonal: u, one per matrix when the counts are arrays.
    up = int(nupper) if not counts else asarray(numpy.broadcast_to(nupper, counts).copy())[..., None, None]
    ab = broadcast_to(ab, band_batch + ab.shape[-2:])
    if n == 1:
        # SciPy's 1 x 1 case: a division by row `u` (no singularity error, as SciPy's).
        if counts:
            d = take_along_axis(ab, broadcast_to(up, band_batch + (1, 1)), axis=-2)[..., 0, :]
        else:
            d = ab[..., up, :]
        x = (b / (d if vector else d[..., :, None])).astype(char)
        core = x.shape[-1:] if vector else x.shape[-2:]
        return x if x.shape[:-len(core)] == batch else broadcast_to(x, batch + core).copy()
    columns = 1 if vector else b.shape[-1]
    if not counts and _tridiagonal.use_gtsv(int(nlower), int(nupper), n, bool(batch), columns):
        x = _tridiagonal.solve(ab, b, vector, char)
        if x is not None:
            return x
    # A[i, j] = ab[u + i - j, j] inside the band (0 <= u + i - j <= l + u), 0 outside.
    i, j = arange(n)[:, None], arange(n)[None, :]
    r = up + i - j
    inside = (r >= 0) & (r <= ab.shape[-2] - 1)
    rows = where(inside, r, 0)
    dense = take_along_axis(ab, broadcast_to(rows, band_batch + (n, n)), axis=-2)
    dense = where(inside, dense, 0).astype(char)
    bb = b[:, None] if vector else b
    x = _la.solve(dense, bb.astype(char))
    if x.shape[:-2] != batch:
        x = broadcast_to(x, batch + x.shape[-2:]).copy()
    return x[..., 0] if vector else x


def inv(a, overwrite_a=False, check_finite=True, *, assume_a=None, lower=False):
    """See `scipy.linalg.inv` (stacks). `assume_a`: 'diagonal' a reciprocal, the triangular ones
    cuBLAS trsm, 'pos' Cholesky, 'sym'/'her' the LU of the triangle `lower` names mirrored. No
    condition-number LinAlgWarning (no device read).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> linalg.inv(cuarray.array([[4., 7.], [2., 6.]]))
    array([[ 0.6, -0.7],
           [-0.2,  0.4]])
    """
    structures = (None, "general", "gen", "diagonal", "upper triangular", "lower triangular", "pos", "sym", "her")
    if assume_a not in structures:
        raise KeyError(assume_a)
    a = as_lapack(a, "inv")
    if a.ndim < 2:
        raise ValueError("Expected at least ndim=2, got a1.ndim={}".format(a.ndim))
    if a.shape[-1] != a.shape[-2]:
        raise ValueError("Expected square matrix, got a1.shape={}".format(a.shape))
    char = compute_char(a)
    n = a.shape[-1]
    require_finite(check_finite, a)
    if a.size == 0:
        return zeros(a.shape, dtype=char)
    if assume_a in ("sym", "her"):
        a = _one_triangle(a, lower, assume_a == "her")
    if assume_a in (None, "general", "gen", "sym", "her"):
        return _la.inv(a)
    ident = broadcast_to(eye(n, dtype=char), a.shape)
    if assume_a == "diagonal":
        return _diagonal_solve(a.astype(char), ident)
    if assume_a == "pos":
        return cho_solve(cho_factor(a, lower=lower, check_finite=False), ident, check_finite=False)
    return solve_triangular(a, ident, lower=assume_a == "lower triangular", check_finite=False)


def det(a, overwrite_a=False, check_finite=True):
    """See `scipy.linalg.det`: float64 (complex128) for every input, as SciPy >= 1.17 (single
    precision input is factored in double). A 0-d array for one matrix.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> round(float(linalg.det(cuarray.array([[4., 7.], [2., 6.]]))), 6)  # waits for the GPU
    10.0
    """
    a = as_lapack(a, "det")
    if a.ndim < 2:
        raise ValueError("The input array must be at least two-dimensional.")
    if a.shape[-1] != a.shape[-2]:
        raise ValueError("Last 2 dimensions of the array must be square but received shape {}.".format(a.shape))
    require_finite(check_finite, a)
    return _la.det(a.astype(numpy.complex128 if a.dtype.kind == "c" else numpy.float64))


def _matrix(a, fn, finite):
    a = as_lapack(a, fn)
    if a.ndim < 2:
        raise ValueError("expected matrix")
    require_finite(finite, a)
    return a


def svd(a, full_matrices=True, compute_uv=True, overwrite_a=False, check_finite=True, lapack_driver="gesdd"):
    """See `scipy.linalg.svd` (stacks; cuSOLVER's drivers, `lapack_driver` is checked and
    otherwise ignored).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> u, s, vh = linalg.svd(cuarray.array([[3., 0.], [4., 5.]]))
    >>> s
    array([6.70820393, 2.23606798])
    """
    if lapack_driver not in ("gesdd", "gesvd"):
        raise ValueError('lapack_driver must be "gesdd" or "gesvd", not "{}"'.format(lapack_driver))
    return _la.svd(_matrix(a, "svd", check_finite), full_matrices=full_matrices, compute_uv=compute_uv)


def svdvals(a, overwrite_a=False, check_finite=True):
    """See `scipy.linalg.svdvals` (stacks).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> linalg.svdvals(cuarray.array([[3., 0.], [4., 5.]]))
    array([6.70820393, 2.23606798])
    """
    return _la.svd(_matrix(a, "svdvals", check_finite), compute_uv=False)


def eigh(a, b=None, *, lower=True, eigvals_only=False, overwrite_a=False, overwrite_b=False,
         type=1, check_finite=True, subset_by_index=None, subset_by_value=None, driver=None):  # noqa: A002
    """See `scipy.linalg.eigh` (stacks). All eigenpairs are computed (cuSOLVER syevd, syevj for
    stacks of small matrices) and the subset is selected after; `subset_by_value` reads the
    eigenvalues (one device read; every matrix of a stack must keep as many, as SciPy's stacking
    requires). The generalized problem by Cholesky B = L L^H: type 1 solves C y = w y with
    C = L^-1 A L^-H, x = L^-H y; types 2 and 3 use C = L^H A L, with x = L^-H y (type 2) or
    x = L y (type 3). `driver` is checked and otherwise ignored.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> w, v = linalg.eigh(cuarray.array([[2., 1.], [1., 2.]]))
    >>> w
    array([1., 3.])
    """
    a = as_lapack(a, "eigh")
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError('expected square "a" matrix')
    if subset_by_index is not None and subset_by_value is not None:
        raise ValueError("Either index or value subset can be requested.")
    if type not in (1, 2, 3):
        raise ValueError("'type' keyword must be 1, 2, or 3")
    if driver not in (None, "ev", "evd", "evr", "evx", "gv", "gvd", "gvx"):
        raise ValueError('"{}" is unknown. Possible values are "None", "ev", "evd", "evr", "evx", "gv", '
                         '"gvd", "gvx".'.format(driver))
    n = a.shape[-1]
    if subset_by_index is not None:
        lo, hi = (int(i) for i in subset_by_index)
        if not (0 <= lo <= hi < n):
            raise ValueError("Requested eigenvalue indices are not valid. Valid range is [0, {}] and start "
                             "<= end, but start={}, end={} is given".format(n - 1, lo, hi))
    if subset_by_value is not None and not subset_by_value[0] < subset_by_value[1]:
        raise ValueError("Requested eigenvalue bounds are not valid. Valid range is (-inf, inf) and "
                         "low < high, but low={}, high={} is given".format(*subset_by_value))
    uplo = "L" if lower else "U"
    if b is not None:
        b = as_lapack(b, "eigh")
        if b.ndim < 2 or b.shape[-1] != b.shape[-2]:
            raise ValueError('expected square "b" matrix')
        if b.shape[-1] != a.shape[-1]:
            raise ValueError("wrong b dimensions {}, should be {}".format(b.shape, a.shape))
    require_finite(check_finite, a, b)
    if b is not None:
        # Only the `lower` triangles of A and B are read, as LAPACK's sygvd does.
        a = _one_triangle(a, lower, True)
        low = _la.cholesky(_one_triangle(b, lower, True))
        low_h = conj(swapaxes(low, -1, -2))
        if type == 1:
            c = solve_triangular(low, a, lower=True, check_finite=False)
            c = conj(swapaxes(solve_triangular(low, conj(swapaxes(c, -1, -2)), lower=True, check_finite=False),
                              -1, -2))
        else:
            c = matmul(low_h, matmul(a, low))
        w, v = _la.eigh(c, UPLO="L")
        v = solve_triangular(low, v, lower=True, trans=2, check_finite=False) if type in (1, 2) else matmul(low, v)
    elif eigvals_only:
        w, v = _la.eigvalsh(a, UPLO=uplo), None
    else:
        w, v = _la.eigh(a, UPLO=uplo)
    if subset_by_index is not None:
        w = w[..., lo:hi + 1]
        v = None if v is None else v[..., lo:hi + 1]
    elif subset_by_value is not None:
        lo, hi = subset_by_value
        host = w.get()
        first = numpy.sum(host <= lo, axis=-1)  # eigenvalues are ascending: the subset is a run
        count = numpy.sum((host > lo) & (host <= hi), axis=-1)
        if numpy.ndim(count) and numpy.any(count != count.flat[0]):
            raise ValueError("subset_by_value selects a different number of eigenvalues in the matrices "
                             "of the stack")
        k = int(numpy.ravel(count)[0]) if count.size else 0
        idx = asarray((first[..., None] + numpy.arange(k)).astype(numpy.int64))
        w = take_along_axis(w, idx, axis=-1)
        v = None if v is None else take_along_axis(v, broadcast_to(idx[..., None, :], v.shape[:-1] + (k,)), axis=-1)
    if eigvals_only or v is None:
        return w
    return w, v


def _rank(s, shape, rcond):
    """Numerical rank of each matrix from its singular values (one device read); all matrices of
    a stack must agree (SciPy stacks the per-matrix results)."""
    M, N = shape[-2:]
    if rcond is None:
        rcond = numpy.finfo(s.dtype).eps * max(M, N)
    if s.shape[-1] == 0:
        return 0
    tol = max_(s, axis=-1, keepdims=True) * rcond
    num = numpy.atleast_1d(sum_(s > tol, axis=-1).get())
    if numpy.any(num != num[0]):
        raise ValueError("the matrices of the stack have different ranks ({}): their results cannot be "
                         "stacked".format(sorted(set(num.tolist()))))
    return int(num[0])


def null_space(A, rcond=None, *, overwrite_a=False, check_finite=True, lapack_driver="gesdd"):
    """See `scipy.linalg.null_space` (stacks of equal rank; the rank is read from the device).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> cuarray.abs(linalg.null_space(cuarray.array([[1., 1.]])))   # the sign is LAPACK's choice
    array([[0.70710678],
           [0.70710678]])
    """
    A = _matrix(A, "null_space", check_finite)
    u, s, vh = _la.svd(A, full_matrices=True)
    num = _rank(s, A.shape, rcond)
    return conj(swapaxes(vh[..., num:, :], -1, -2))


def orth(A, rcond=None):
    """See `scipy.linalg.orth` (stacks of equal rank; the rank is read from the device).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> cuarray.abs(linalg.orth(cuarray.array([[1., 1.], [1., 1.]])))   # the sign is LAPACK's choice
    array([[0.70710678],
           [0.70710678]])
    """
    A = _matrix(A, "orth", True)
    u, s, vh = _la.svd(A, full_matrices=False)
    return u[..., :, :_rank(s, A.shape, rcond)]


def orthogonal_procrustes(A, B, check_finite=True):
    """See `scipy.linalg.orthogonal_procrustes` (stacks, SciPy's batching: the matrices' shapes
    equal, the leading dimensions broadcast): (R, scale) with R = argmin ||A R - B||.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> a = cuarray.array([[1., 2.], [3., 4.]])
    >>> r, scale = linalg.orthogonal_procrustes(a, a[:, ::-1])
    >>> bool(cuarray.allclose(a @ r, a[:, ::-1]))
    True
    >>> round(float(scale), 6)
    30.0
    """
    A, B = as_lapack(A, "orthogonal_procrustes"), as_lapack(B, "orthogonal_procrustes")
    if A.ndim < 2:
        raise ValueError("expected ndim to be 2, but observed {}".format(A.ndim))
    if B.ndim < 2 or A.shape[-2:] != B.shape[-2:]:
        raise ValueError("the shapes of A and B differ ({} vs {})".format(A.shape, B.shape))
    numpy.broadcast_shapes(A.shape[:-2], B.shape[:-2])  # SciPy's ValueError for batches that do not
    require_finite(check_finite, A, B)
    u, w, vt = _la.svd(swapaxes(matmul(swapaxes(B, -1, -2), conj(A)), -1, -2))
    return matmul(u, vt), sum_(w, axis=-1)
