"""svds: a few singular triplets. See `scipy.sparse.linalg.svds`.

SciPy's method and checks: the k wanted eigenvectors of the Gram operator X^H X (X = A, or A^H
when A is wide) from `eigsh` (or `lobpcg`), made orthonormal by a QR, then the SVD of the small
block X V (n x k) on the device gives the singular values and both sets of vectors.
"""

from __future__ import annotations

import math

import numpy

from ..._core.ndarray import ndarray
from ..._creation.from_data import asarray
from ..._math.complex import conj
from ...linalg._decomp import qr
from ...linalg._svd import svd
from ._eigsh import eigsh
from ._interface import LinearOperator, aslinearoperator
from ._lobpcg import lobpcg

__all__ = ["svds"]


def _checked(A, k, ncv, tol, which, v0, maxiter, return_singular_vectors, solver):
    """SciPy's input validation of svds, with its messages."""
    solver = str(solver).lower()
    if solver not in ("arpack", "lobpcg", "propack"):
        raise ValueError("solver must be one of {}.".format({"arpack", "lobpcg", "propack"}))
    A = aslinearoperator(A)
    if not numpy.issubdtype(A.dtype, numpy.number):
        raise ValueError("`A` must be of numeric data type.")
    if math.prod(A.shape) == 0:
        raise ValueError("`A` must not be empty.")
    kmax = min(A.shape) - 1
    if int(k) != k or not (0 < k <= kmax):
        raise ValueError("`k` must be an integer satisfying `0 < k < min(A.shape)`.")
    if ncv is not None and solver == "arpack" and (int(ncv) != ncv or not (k < ncv < min(A.shape))):
        raise ValueError("`ncv` must be an integer satisfying `k < ncv < min(A.shape)`.")
    if tol < 0 or not numpy.isfinite(tol):
        raise ValueError("`tol` must be a non-negative floating point value.")
    which = str(which).upper()
    if which not in ("LM", "SM"):
        raise ValueError("`which` must be in {}.".format({"LM", "SM"}))
    if v0 is not None:
        if not isinstance(v0, ndarray):
            raise TypeError("v0 must be a cuarray array (call cuarray.asarray first)")
        if v0.dtype.kind not in "fc":
            raise ValueError("`v0` must be of floating or complex floating data type.")
        if v0.shape != (min(A.shape),):
            raise ValueError("`v0` must have shape {}.".format((min(A.shape),)))
    if maxiter is not None and (int(maxiter) != maxiter or maxiter <= 0):
        raise ValueError("`maxiter` must be a positive integer.")
    if return_singular_vectors not in (True, False, "vh", "u"):
        raise ValueError("`return_singular_vectors` must be in {}.".format({True, False, "vh", "u"}))
    return A, int(k), ncv, float(tol), which, int(maxiter) if maxiter is not None else None, solver


def svds(A, k=6, ncv=None, tol=0, which="LM", v0=None, maxiter=None, return_singular_vectors=True,
         solver="arpack", rng=None, options=None, *, random_state=None):
    """See `scipy.sparse.linalg.svds`. `solver` 'arpack' and 'propack' run `eigsh` (device
    Lanczos), 'lobpcg' runs `lobpcg`; `options` is unused. Singular values ascending, as SciPy's.

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
    A, k, ncv, tol, which, maxiter, solver = _checked(A, k, ncv, tol, which, v0, maxiter,
                                                      return_singular_vectors, solver)
    gen = numpy.random.default_rng(rng if rng is not None else random_state)
    m, n = A.shape
    transpose = m < n
    X_mat, XH_mat = (A.rmatmat, A.matmat) if transpose else (A.matmat, A.rmatmat)
    X_vec, XH_vec = (A.rmatvec, A.matvec) if transpose else (A.matvec, A.rmatvec)
    size = min(m, n)
    gram = LinearOperator((size, size), matvec=lambda x: XH_vec(X_vec(x)), matmat=lambda x: XH_mat(X_mat(x)),
                          dtype=A.dtype)
    if solver == "lobpcg":
        X0 = v0.reshape(-1, 1) if k == 1 and v0 is not None else asarray(gen.standard_normal((size, k)))
        _, eigvec = lobpcg(gram, X0.astype(numpy.result_type(A.dtype, numpy.float32)), tol=tol ** 2,
                           maxiter=maxiter, largest=which == "LM")
    else:
        start = v0 if v0 is not None else asarray(gen.standard_normal(size))
        _, eigvec = eigsh(gram, k=k, tol=tol ** 2, maxiter=maxiter, ncv=ncv, which=which, v0=start)
        eigvec = qr(eigvec)[0]   # orthonormal even for clustered eigenvalues (SciPy's step)
    Av = X_mat(eigvec)
    if not return_singular_vectors:
        return svd(Av, compute_uv=False)[::-1]
    u, s, vh = svd(Av, full_matrices=False)
    u, s, vh = u[:, ::-1], s[::-1], vh[::-1]
    jobu = return_singular_vectors in (True, "u")
    jobv = return_singular_vectors in (True, "vh")
    if transpose:
        u_new = eigvec @ conj(vh).T if jobu else None
        vh = conj(u).T if jobv else None
        u = u_new
    else:
        u = u if jobu else None
        vh = vh @ conj(eigvec).T if jobv else None
    return u, s, vh
