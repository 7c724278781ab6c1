"""eigsh (a few eigenpairs of a Hermitian operator) and svds. See `scipy.sparse.linalg.eigsh`.

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
from ..._manipulation.joining import stack
from ..._math.arithmetic import add, multiply, subtract, true_divide
from ..._math.complex import conj, real
from ..._math.extrema import maximum
from ..._math.misc import sqrt
from ..._core.ndarray import ndarray
from ...linalg._decomp import eigh as eigh_dense
from ...linalg._matmul import matmul
from .._base import issparse
from ._interface import LinearOperator
from ._interface import aslinearoperator
from ._iterative import _nrm

__all__ = ["eigsh", "svds"]


def _pick(theta, k, which):
    if which == "LM":
        return numpy.argsort(-numpy.abs(theta), kind="stable")[:k]
    if which == "LA":
        return numpy.argsort(-theta, kind="stable")[:k]
    if which == "SA":
        return numpy.argsort(theta, kind="stable")[:k]
    raise ValueError("which must be one of 'LM', 'LA', 'SA' (got {!r})".format(which))


def _extend(matvec, V, alpha, beta, u, start, end):
    """Lanczos steps start..end-1 into V (rows), alpha/beta device vectors; returns the last
    residual vector (unnormalised; its norm is beta[end - 1])."""
    for i in range(start, end):
        u = matvec(V[i])
        basis = V[:i + 1]
        h = matmul(conj(basis), u)
        u = subtract(u, matmul(h, basis))
        h2 = matmul(conj(basis), u)
        u = subtract(u, matmul(h2, basis))
        alpha[i] = real(add(h[i], h2[i]))
        nb = _nrm(u)
        beta[i] = nb
        if i + 1 < end:
            V[i + 1] = true_divide(u, nb.astype(V.dtype))
    return u


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


def eigsh(A, k=6, M=None, sigma=None, which="LM", v0=None, ncv=None, maxiter=None, tol=0,
          return_eigenvectors=True, Minv=None, OPinv=None, mode="normal"):
    """See `scipy.sparse.linalg.eigsh` for `which` in 'LM', 'LA', 'SA' (no shift-invert: `M`,
    `sigma`, `Minv`, `OPinv` raise NotImplementedError). Eigenvalues ascending, as SciPy.

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
    if M is not None or sigma is not None or Minv is not None or OPinv is not None:
        raise NotImplementedError("eigsh: generalized and shift-invert modes are not supported")
    if len(A.shape) > 2:
        raise ValueError("{}-dimensional `A` is unsupported, expected 2-D.".format(len(A.shape)))
    if A.shape[0] != A.shape[1]:
        raise ValueError("expected square matrix (shape={})".format(A.shape))
    n = A.shape[0]
    if k <= 0:
        raise ValueError("k must be greater than 0.")
    if k >= n:
        return _all_eigenvalues(A, return_eigenvectors)
    A = aslinearoperator(A)
    dt = numpy.result_type(A.dtype, numpy.float32)
    if dt.char not in "fdFD":
        dt = numpy.dtype(numpy.float64)
    rdt = numpy.dtype(dt.char.lower())
    ncv = min(max(2 * k, k + 32) if ncv is None else ncv, n)  # SciPy's k < ncv <= n
    if ncv <= k:
        raise ValueError("ncv must be k<ncv<=n, ncv={}".format(ncv))
    maxiter = 10 * n if maxiter is None else maxiter
    tol = float(numpy.finfo(rdt).eps) if tol == 0 else float(tol)
    V = zeros((ncv, n), dt)
    alpha = zeros((ncv,), rdt)
    beta = zeros((ncv,), rdt)
    if v0 is None:
        v0 = asarray(numpy.random.default_rng(0).random(n).astype(dt))
    V[0] = true_divide(v0, _nrm(v0).astype(dt))
    matvec = A.matvec
    u = _extend(matvec, V, alpha, beta, None, 0, ncv)
    kept, arrow = 0, None
    for restart in range(max(1, maxiter)):
        a, b = alpha.get().astype(numpy.float64), beta.get().astype(numpy.float64)
        T = numpy.diag(a) + numpy.diag(b[:-1], 1) + numpy.diag(b[:-1], -1)
        if kept:
            T[:kept, :kept] = numpy.diag(a[:kept])
            T[kept, :kept] = T[:kept, kept] = arrow
        theta, s = numpy.linalg.eigh(T)
        idx = _pick(theta, k, which)
        res = numpy.abs(b[-1] * s[-1, idx])
        done = bool(numpy.all(res <= tol * numpy.maximum(numpy.abs(theta[idx]), tol)))
        ritz = matmul(asarray(numpy.ascontiguousarray(s[:, idx].T).astype(dt)), V)
        if done or restart == maxiter - 1:
            break
        # thick restart: keep the k Ritz vectors, continue from the residual direction
        V[:k] = ritz
        V[k] = true_divide(u, asarray(numpy.asarray(b[-1], rdt)).astype(dt))
        alpha[:k] = asarray(theta[idx].astype(rdt))
        arrow = b[-1] * s[-1, idx]
        kept = k
        u = _extend(matvec, V, alpha, beta, None, k, ncv)
    order = numpy.argsort(theta[idx], kind="stable")
    vals = asarray(theta[idx][order].astype(rdt))
    if not return_eigenvectors:
        return vals
    vecs = ritz[asarray(order)].T
    return vals, vecs


def svds(A, k=6, ncv=None, tol=0, which="LM", v0=None, maxiter=None, return_singular_vectors=True,
         solver="arpack", random_state=None, options=None):
    """See `scipy.sparse.linalg.svds`: the k largest singular triplets from eigsh of A^H A (or
    A A^H, the smaller); 'LM' only. Singular values ascending, as SciPy.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.sparse import linalg as splinalg
    >>> from cuarray import sparse
    >>> a = sparse.diags([1., 2., 3., 4., 5., 6.]).tocsr()
    >>> s = splinalg.svds(a, k=2, return_singular_vectors=False)
    >>> cuarray.round(cuarray.sort(s), 6)
    array([5., 6.])
    """
    if which != "LM":
        raise NotImplementedError("svds: only which='LM' is supported")
    A = aslinearoperator(A)
    m, n = A.shape
    if k <= 0 or k >= min(m, n):
        raise ValueError("k must be between 1 and min(A.shape)-1")

    if n <= m:
        gram = LinearOperator((n, n), matvec=lambda x: A.rmatvec(A.matvec(x)), dtype=A.dtype)
    else:
        gram = LinearOperator((m, m), matvec=lambda x: A.matvec(A.rmatvec(x)), dtype=A.dtype)
    w, X = eigsh(gram, k=k, ncv=ncv, tol=tol, which="LA", maxiter=maxiter)
    sv = sqrt(maximum(w, 0))
    if not return_singular_vectors:
        return sv
    inv = true_divide(1, maximum(sv, numpy.finfo(sv.dtype).tiny))
    if n <= m:
        v = X
        u = multiply(stack([A.matvec(v[:, j]) for j in range(k)], axis=1), inv.reshape(1, -1))
    else:
        u = X
        v = multiply(stack([A.rmatvec(u[:, j]) for j in range(k)], axis=1), inv.reshape(1, -1))
    return u, sv, conj(v).T
