"""eigsh: a few eigenpairs of a Hermitian operator. See `scipy.sparse.linalg.eigsh`.

Thick-restart Lanczos: a Krylov basis of `ncv` vectors built on the device with full
reorthogonalisation (classical Gram-Schmidt twice, two matrix products with the basis per step);
the small projected matrix (tridiagonal, with an arrow after each restart) is solved on the host.
The step coefficients stay on the device until the basis is full: one host read per restart,
not per step. After a restart the `k` wanted Ritz vectors are kept and the basis grows again
from the residual direction.
"""

from __future__ import annotations

import warnings

import numpy

from ..._creation.basic import zeros
from ..._creation.from_data import asarray
from ..._math.arithmetic import true_divide
from ..._math.complex import real
from ..._core.ndarray import ndarray
from ...linalg._decomp import eigh as eigh_dense
from ...linalg._matmul import matmul
from .._sputils import issparse
from ._arnoldi import arnoldi_step, random_direction
from ._arpack_errors import arpack_error, no_convergence
from ._eigs import dense_eig_fallback, shift_invert_op, solver_dtype, start_vector
from ._interface import aslinearoperator
from ._iterative import _nrm

__all__ = ["eigsh"]


_WHICH = ("LM", "SM", "LA", "SA", "BE")


def _pick(theta, k, which):
    """The k wanted of the Ritz values `theta` (ascending, from eigh), SciPy's `which`."""
    if which == "LM":
        return numpy.argsort(-numpy.abs(theta), kind="stable")[:k]
    if which == "SM":
        return numpy.argsort(numpy.abs(theta), kind="stable")[:k]
    if which == "LA":
        return numpy.argsort(-theta, kind="stable")[:k]
    if which == "SA":
        return numpy.argsort(theta, kind="stable")[:k]
    high = (k + 1) // 2  # 'BE': half from each end, the odd one from the high end (SciPy's)
    order = numpy.argsort(theta, kind="stable")
    return numpy.concatenate([order[len(order) - high:], order[:k - high]])


def _extend(matvec, V, alpha, beta, start, end):
    """Lanczos steps start..end-1 into V (rows), alpha/beta device vectors (`arnoldi_step`: full
    reorthogonalisation); returns the last step's unit residual direction (its norm was beta[end
    - 1]). A breakdown (an invariant subspace) leaves beta 0 and a zero next vector, for
    `_lanczos` to replace."""
    q = None
    for i in range(start, end):
        h, beta[i], q = arnoldi_step(matvec, V, i)
        alpha[i] = real(h[i])
        if i + 1 < end:
            V[i + 1] = q
    return q


def _all_eigenvalues(A, return_eigenvectors):
    """SciPy's k >= n case: a warning, then a dense eigh of a dense array (TypeError for a sparse
    matrix or an operator, as SciPy)."""
    warnings.warn("k >= N for N * N square matrix. Attempting to use scipy.linalg.eigh instead.",
                  RuntimeWarning, stacklevel=3)
    if issparse(A):
        raise TypeError("Cannot use scipy.linalg.eigh for sparse A with k >= N. Use "
                        "scipy.linalg.eigh(A.toarray()) or reduce k.")
    if not isinstance(A, ndarray):
        raise TypeError("Cannot use scipy.linalg.eigh for LinearOperator A with k >= N.")
    w, v = eigh_dense(A)
    return (w, v) if return_eigenvectors else w


def _check_modes(A, M, sigma, Minv, OPinv, mode):
    if M is not None:
        if M.shape != A.shape:
            raise ValueError("wrong M dimensions {}, should be {}".format(M.shape, A.shape))
        raise NotImplementedError("eigsh: the generalized problem (M) is not supported")
    if Minv is not None:
        raise ValueError("Minv should not be specified with M = None." if sigma is None else
                         "Minv should not be specified when sigma is specified.")
    if sigma is None:
        if OPinv is not None:
            raise ValueError("OPinv should not be specified with sigma = None.")
        return
    if mode not in ("normal", "buckling", "cayley"):
        raise ValueError("unrecognized mode '{}'".format(mode))
    if mode != "normal":
        raise NotImplementedError("eigsh: mode={!r} is not supported (only 'normal')".format(mode))
    if numpy.imag(sigma) != 0:
        raise NotImplementedError("eigsh: a complex shift is not supported")


def _kept(k, ncv, nconv):
    """How many Ritz vectors a restart keeps: ARPACK's dsaup2 (Lehoucq, Sorensen and Yang, the
    ARPACK Users' Guide, 1998), the k wanted and min(nconv, (ncv - k) / 2) more once nconv of them
    have converged, and for k = 1 half the basis (two for ncv < 6), so that a restart does not
    stagnate on the Ritz values it keeps; always fewer than ncv (one new direction at least)."""
    keep = k + min(nconv, (ncv - k) // 2)
    if keep == 1 and ncv > 2:
        keep = ncv // 2 if ncv >= 6 else 2
    return min(keep, ncv - 1)


def _lanczos(matvec, n, dt, k, ncv, which, tol, maxiter, v0, rng):
    """Thick-restart Lanczos: ``(theta, ritz rows, conv, restarts)`` for the k wanted of `which`."""
    rdt = numpy.dtype(dt.char.lower())
    eps23 = float(numpy.finfo(rdt).eps) ** (2.0 / 3.0)
    V = zeros((ncv, n), dt)
    alpha = zeros((ncv,), rdt)
    beta = zeros((ncv,), rdt)
    V[0] = true_divide(v0, _nrm(v0).astype(dt))
    start = 0
    u = _extend(matvec, V, alpha, beta, 0, ncv)
    kept, arrow = 0, None
    for restart in range(max(1, maxiter)):
        a, b = alpha.get().astype(numpy.float64), beta.get().astype(numpy.float64)  # one read
        zero = [j for j in range(start, ncv - 1) if not b[j] != 0]
        while zero:  # invariant subspaces: go on from new directions orthogonal to them
            random_direction(V, zero[0] + 1, rng)
            u = _extend(matvec, V, alpha, beta, zero[0] + 1, ncv)
            a, b = alpha.get().astype(numpy.float64), beta.get().astype(numpy.float64)
            zero = [j for j in range(zero[0] + 1, ncv - 1) if not b[j] != 0]
        T = numpy.diag(a) + numpy.diag(b[:-1], 1) + numpy.diag(b[:-1], -1)
        if kept:
            T[:kept, :kept] = numpy.diag(a[:kept])
            T[kept, :kept] = T[:kept, kept] = arrow
        theta, s = numpy.linalg.eigh(T)
        idx = _pick(theta, k, which)
        res = numpy.abs(b[-1] * s[-1, idx])
        conv = res <= tol * numpy.maximum(numpy.abs(theta[idx]), eps23)  # ARPACK's test
        ritz = matmul(asarray(numpy.ascontiguousarray(s[:, idx].T).astype(dt)), V)
        if conv.all() or restart == maxiter - 1:
            return theta[idx], ritz, conv, restart + 1
        # thick restart: keep the Ritz vectors ARPACK keeps, continue from the residual direction
        keep = _kept(k, ncv, int(conv.sum()))
        sel = _pick(theta, keep, which)
        V[:keep] = ritz if keep == k else matmul(asarray(numpy.ascontiguousarray(s[:, sel].T).astype(dt)), V)
        V[keep] = u
        alpha[:keep] = asarray(theta[sel].astype(rdt))
        arrow = b[-1] * s[-1, sel]
        kept = start = keep
        u = _extend(matvec, V, alpha, beta, keep, ncv)


def eigsh(A, k=6, M=None, sigma=None, which="LM", v0=None, ncv=None, maxiter=None, tol=0,
          return_eigenvectors=True, Minv=None, OPinv=None, mode="normal", rng=None):
    """See `scipy.sparse.linalg.eigsh`: thick-restart Lanczos on the device (not ARPACK), `which`
    'LM', 'SM', 'LA', 'SA' or 'BE'; shift-invert with a real `sigma` in mode 'normal' (`OPinv`, or
    as `eigs` builds it: cuDSS for a sparse A). Restarts keep as many Ritz vectors as ARPACK's
    dsaup2; a complex Hermitian A follows the rules of `eigs`, as SciPy hands it to eigs (k < n - 1,
    ncv > k + 1). Eigenvalues ascending (SciPy's order without eigenvectors is ARPACK's own). Not
    supported: the generalized problem (`M`, `Minv`), modes
    'buckling' and 'cayley' and a complex `sigma` (NotImplementedError).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.sparse import linalg as splinalg
    >>> from cuarray import sparse
    >>> a = sparse.diags([1., 2., 3., 4., 5., 6.]).tocsr()
    >>> w = splinalg.eigsh(a, k=2, return_eigenvectors=False)
    >>> cuarray.round(cuarray.sort(w), 6)
    array([5., 6.])
    """
    hermitian = numpy.dtype(A.dtype).kind == "c"
    if hermitian:  # SciPy solves a complex Hermitian problem with eigs: eigs's rules for k and ncv
        if mode != "normal":
            raise ValueError("mode={} cannot be used with complex matrix A".format(mode))
        if which == "BE":
            raise ValueError("which='BE' cannot be used with complex matrix A")
        which = {"LR": "LA", "SR": "SA"}.get(which, which)
    if len(A.shape) > 2:
        raise ValueError("{}-dimensional `A` is unsupported, expected 2-D.".format(len(A.shape)))
    if A.shape[0] != A.shape[1]:
        raise ValueError("expected square matrix (shape={})".format(A.shape))
    n = A.shape[0]
    if k <= 0:
        raise ValueError("k={} must be greater than 0.".format(k) if hermitian else "k must be greater than 0.")
    if k >= n - hermitian:
        if M is not None:
            raise NotImplementedError("eigsh: the generalized problem (M) is not supported")
        if hermitian:  # eigs's dense path: every eigenvalue (real parts), SciPy's warning and errors
            out = dense_eig_fallback(A, M, return_eigenvectors)
            return (real(out[0]), out[1]) if return_eigenvectors else real(out)
        return _all_eigenvalues(A, return_eigenvectors)
    _check_modes(A, M, sigma, Minv, OPinv, mode)
    if which not in _WHICH:
        raise ValueError("which must be one of {}".format(" ".join(_WHICH)))
    dt = solver_dtype(A)
    rdt = numpy.dtype(dt.char.lower())
    ncv = min(max(2 * k + 1, 20) if ncv is None else ncv, n)  # SciPy's default and clip
    if ncv <= k + hermitian:
        raise ValueError("ncv must be k+1<ncv<=n, ncv={}".format(ncv) if hermitian else
                         "ncv must be k<ncv<=n, ncv={}".format(ncv))
    maxiter = 10 * n if maxiter is None else maxiter
    if maxiter <= 0:
        raise ValueError("maxiter must be positive, maxiter={}".format(maxiter))
    if which == "BE" and k == 1:  # ARPACK's dsaupd refuses one eigenvalue from both ends (info -13)
        raise arpack_error(-13, {-13: "NEV and WHICH = 'BE' are incompatible. "})
    tol = float(numpy.finfo(rdt).eps) if tol == 0 else float(tol)
    rng = numpy.random.default_rng(rng)
    x0 = start_vector(v0, n, dt, rng)
    op = aslinearoperator(A).matvec if sigma is None else shift_invert_op(A, sigma, OPinv, dt, tol)
    theta, ritz, conv, restarts = _lanczos(op, n, dt, k, ncv, which, tol, maxiter, x0, rng)
    if sigma is not None:
        theta = sigma + 1.0 / theta
    order = numpy.argsort(theta, kind="stable")
    vals = asarray(theta[order].astype(rdt))
    vecs = ritz[asarray(order)].T
    if not conv.all():
        good = asarray(numpy.flatnonzero(conv[order]))
        raise no_convergence("No convergence ({} iterations, {}/{} eigenvectors converged)".format(
            restarts, int(conv.sum()), k), vals[good], vecs[:, good])
    return (vals, vecs) if return_eigenvectors else vals
