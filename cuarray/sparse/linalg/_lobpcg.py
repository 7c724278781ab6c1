"""lobpcg: the locally optimal block preconditioned conjugate gradient eigensolver (Knyazev,
2001). See `scipy.sparse.linalg.lobpcg`.

The blocks (X, the preconditioned residuals W, the directions P) and every product with A, B and
M live on the device; the Rayleigh-Ritz step is host work: the Gram matrices of the trial basis
[X, W, P] (at most 3k x 3k) are read to the host and solved there by SciPy's generalized `eigh`,
the coefficients uploaded again. Blocks are B-orthonormalised by a Cholesky factor of their small
Gram matrix. Problems too small for the iteration (n - size of Y < 5 k) are solved densely, as
SciPy does. Returns device arrays; `verbosityLevel` printing is not reproduced.
"""

from __future__ import annotations

import warnings

import numpy

from ..._core.host_input import as_array
from ..._core.ndarray import ndarray
from ..._core.transfer import from_host, to_host
from ..._creation.matrices import eye
from ..._manipulation.joining import concatenate
from ..._math.misc import sqrt
from .._base import issparse
from ._interface import LinearOperator

__all__ = ["lobpcg"]


def _operator(A):
    """A block product X -> A X for a sparse matrix, a dense array, an operator or a callable."""
    if A is None:
        return None
    if isinstance(A, LinearOperator):
        return A.matmat
    if issparse(A) or isinstance(A, ndarray):
        return lambda X: A @ X
    if callable(A):
        return A
    raise TypeError("unsupported operator type {!r}".format(type(A)))


def _gram(U, V):
    """U^H V read to the host (small)."""
    return to_host(U.conj().T @ V)


def _b_orthonormalize(V, BV):
    """V and BV scaled so that V^H B V = I (Cholesky of the Gram matrix); None where V is rank
    deficient."""
    G = _gram(V, BV)
    G = (G + G.conj().T) / 2
    try:
        L = numpy.linalg.cholesky(G)
    except numpy.linalg.LinAlgError:
        return None
    Linv = from_host(numpy.linalg.inv(L).conj().T.astype(V.dtype))
    return V @ Linv, BV @ Linv


def _pick(vals, k, largest):
    order = numpy.argsort(vals)
    return order[:-k - 1:-1] if largest else order[:k]


def _dense(A, B, n, k, largest, dt):
    """SciPy's dense fallback for small problems: the full matrices and one eigh."""
    # host work: the problem is smaller than 5 k, solved densely as SciPy does
    from scipy.linalg import eigh

    I = eye(n, dtype=dt)
    a = to_host(_operator(A)(I))
    b = None if B is None else to_host(_operator(B)(I))
    k = min(k, n)
    vals, vecs = eigh(a, b, subset_by_index=(n - k, n - 1) if largest else (0, k - 1), check_finite=False)
    if largest:
        vals, vecs = vals[::-1], vecs[:, ::-1]
    return from_host(numpy.ascontiguousarray(vals)), from_host(numpy.ascontiguousarray(vecs))


def lobpcg(A, X, B=None, M=None, Y=None, tol=None, maxiter=None, largest=True, verbosityLevel=0,
           retLambdaHistory=False, retResidualNormsHistory=False, restartControl=20):
    """See `scipy.sparse.linalg.lobpcg`. Device blocks, the small Rayleigh-Ritz problems on the
    host (SciPy's `eigh`); returns device arrays (the histories as lists of them).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.sparse import linalg as splinalg
    >>> from cuarray import sparse
    >>> a = sparse.diags([1., 2., 3., 4., 5., 6.]).tocsr()
    >>> w, v = splinalg.lobpcg(a, cuarray.ones((6, 1)), tol=1e-8, maxiter=50)
    >>> round(float(w[0]), 4)
    6.0
    """
    if X is None:
        raise ValueError("The mandatory initial matrix X cannot be None")
    X = as_array(X, "lobpcg")
    if X.ndim != 2:
        raise ValueError("expected rank-2 array for argument X")
    if X.dtype.kind not in "fc":
        warnings.warn("Data type for argument X is {}, which is not inexact, so casted to np.float32.".format(
            X.dtype), UserWarning, stacklevel=2)
        X = X.astype(numpy.float32)
    n, k = X.shape
    sizeY = 0 if Y is None else Y.shape[1]
    maxiter = 20 if maxiter is None else maxiter
    if n - sizeY < 5 * k:
        warnings.warn("The problem size {} minus the constraints size {} is too small relative to the block "
                      "size {}. Using a dense eigensolver instead of LOBPCG iterations.No output of the history "
                      "of the iterations.".format(n, sizeY, k), UserWarning, stacklevel=2)
        if Y is not None:
            raise NotImplementedError("The dense eigensolver does not support constraints.")
        return _dense(A, B, n, k, largest, X.dtype)
    tol = float(numpy.sqrt(numpy.finfo(X.dtype).eps) * n) if tol is None or tol <= 0 else float(tol)
    opA, opB, opM = _operator(A), _operator(B), _operator(M)

    def with_b(V):
        return V if opB is None else opB(V)

    project = _constraints(as_array(Y, "lobpcg").astype(X.dtype) if Y is not None else None, with_b)
    X = project(X.copy())
    orth = _b_orthonormalize(X, with_b(X))
    if orth is None:
        raise ValueError("Linearly dependent initial approximations")
    X, BX = orth
    AX = opA(X)
    lam, C = _host_eigh(_gram(X, AX), None)
    idx = _pick(lam, k, largest)
    Cd = from_host(C[:, idx].astype(X.dtype))
    X, AX, BX, lam = X @ Cd, AX @ Cd, BX @ Cd, lam[idx]
    P = AP = BP = None
    lam_hist, res_hist = [from_host(lam.copy())], []
    for _ in range(maxiter):
        R = AX - BX * from_host(lam.astype(X.dtype))
        norms = to_host(sqrt((abs(R) ** 2).sum(axis=0)))
        res_hist.append(from_host(norms.copy()))
        active = norms > tol
        if not active.any():
            break
        sel = from_host(numpy.flatnonzero(active))
        W = R[:, sel] if not active.all() else R
        if opM is not None:
            W = opM(W)
        W = project(W)
        orth = _b_orthonormalize(W, with_b(W))
        if orth is None:
            break
        W, BW = orth
        AW = opA(W)
        step = _rayleigh_ritz(X, AX, BX, W, AW, BW, P, AP, BP, k, largest)
        if step is None and P is not None:  # [X, W, P] ill-conditioned: restart without P
            P = AP = BP = None
            step = _rayleigh_ritz(X, AX, BX, W, AW, BW, None, None, None, k, largest)
        if step is None:
            break
        lam, X, AX, BX, P, AP, BP = step
        lam_hist.append(from_host(lam.copy()))
    R = AX - BX * from_host(lam.astype(X.dtype))
    final = to_host(sqrt((abs(R) ** 2).sum(axis=0)))
    if final.max(initial=0) > tol:
        warnings.warn("Exited at iteration {} with accuracies \n{}\nnot reaching the requested tolerance {}.".format(
            len(lam_hist) - 1, final, tol), UserWarning, stacklevel=2)
    out = [from_host(lam), X]
    if retLambdaHistory:
        out.append(lam_hist)
    if retResidualNormsHistory:
        out.append(res_hist)
    return tuple(out)


def _host_eigh(GA, GB):
    # host work: the Rayleigh-Ritz problem of the small trial basis (SciPy's generalized eigh)
    from scipy.linalg import eigh

    GA = (GA + GA.conj().T) / 2
    if GB is not None:
        GB = (GB + GB.conj().T) / 2
    return eigh(GA, GB, check_finite=False)


def _rayleigh_ritz(X, AX, BX, W, AW, BW, P, AP, BP, k, largest):
    """One Rayleigh-Ritz step on [X, W, P]: (lambda, X, AX, BX, P, AP, BP) or None when the basis
    is too ill-conditioned for the generalized eigh."""
    S = concatenate([X, W] + ([P] if P is not None else []), axis=1)
    AS = concatenate([AX, AW] + ([AP] if P is not None else []), axis=1)
    BS = concatenate([BX, BW] + ([BP] if P is not None else []), axis=1)
    try:
        lam, C = _host_eigh(_gram(S, AS), _gram(S, BS))
    except numpy.linalg.LinAlgError:
        return None
    idx = _pick(lam, k, largest)
    Ck = C[:, idx]
    Cd = from_host(numpy.ascontiguousarray(Ck).astype(X.dtype))
    Cp = Ck.copy()
    Cp[:k] = 0  # the new directions: the part of the update outside the old X
    Cpd = from_host(numpy.ascontiguousarray(Cp).astype(X.dtype))
    return lam[idx], S @ Cd, AS @ Cd, BS @ Cd, S @ Cpd, AS @ Cpd, BS @ Cpd


def _constraints(Y, with_b):
    """X -> X minus its B-projection on span(Y) (SciPy's constraints), or the identity."""
    if Y is None:
        return lambda V: V
    BY = with_b(Y)
    G = _gram(Y, BY)
    try:
        Ginv = from_host(numpy.linalg.inv((G + G.conj().T) / 2).astype(Y.dtype))
    except numpy.linalg.LinAlgError as e:
        raise ValueError("Linearly dependent constraints") from e
    return lambda V: V - Y @ (Ginv @ (BY.conj().T @ V))
