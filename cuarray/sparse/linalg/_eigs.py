"""eigs: a few eigenpairs of a general square operator. See `scipy.sparse.linalg.eigs`.

SciPy calls ARPACK on the host; here the restarted Arnoldi iteration of `_arnoldi.py` runs on
the device (the basis and every product with it; H's small eigenproblem on the host). The
arguments, checks, defaults (ncv = max(2k + 1, 20), maxiter = 10 n restarts, tol = the dtype's
eps, a starting vector uniform in [-1, 1) from `rng`), the dense fallback for k >= n - 1 and the
exceptions are SciPy's. Shift-invert (`sigma`, M None) runs Arnoldi on (A - sigma I)^-1: `OPinv`
when given, else a cuDSS factorisation of a sparse A (the `cuarray[cudss]` extra), the inverse
of a dense A, or GMRES for an operator (as SciPy's); `which` then applies to 1 / (lambda - sigma).
"""

from __future__ import annotations

import warnings

import numpy

from ..._core.ndarray import ndarray
from ..._creation.from_data import asarray
from ..._creation.matrices import eye
from ...linalg._solve import inv as dense_inv
from ...linalg._decomp import eig as dense_eig
from .._sputils import issparse
from .._construct import eye_array
from ._arnoldi import arnoldi_eigs
from ._arpack_errors import no_convergence
from ._direct import splu
from ._interface import LinearOperator, aslinearoperator
from ._iterative import gmres

__all__ = ["eigs", "shift_invert_op", "solver_dtype", "start_vector"]

_WHICH = ("LM", "SM", "LR", "SR", "LI", "SI")


def solver_dtype(A):
    """SciPy's: f, d, F or D; integers and bools in float64; anything else a ValueError."""
    tp = numpy.dtype(A.dtype)
    if tp.char in "fdFD":
        return tp
    if numpy.can_cast(tp, "d"):
        return numpy.dtype(numpy.float64)
    raise ValueError("matrix type must be 'f', 'd', 'F', or 'D'")


def start_vector(v0, n, dt, rng):
    """The starting vector: a copy of v0, or SciPy's uniform [-1, 1) draw from `rng` (host, then
    uploaded: n numbers once)."""
    if v0 is not None:
        if not isinstance(v0, ndarray):
            raise TypeError("v0 must be a cuarray array (call cuarray.asarray first)")
        return v0.astype(dt).reshape(n)
    return asarray(numpy.random.default_rng(rng).uniform(-1.0, 1.0, n).astype(dt))


def shift_invert_op(A, sigma, OPinv, dt, tol):
    """x -> (A - sigma I)^-1 x: OPinv's matvec, a cuDSS factorisation (sparse A), the inverse
    (dense A) or GMRES to the tolerance SciPy uses (an operator)."""
    if OPinv is not None:
        return aslinearoperator(OPinv).matvec
    n = A.shape[0]
    if issparse(A):
        shifted = (A.astype(dt) - eye_array(n, dtype=dt, format="csr") * sigma).tocsc()
        return splu(shifted).solve
    if isinstance(A, ndarray):
        Ainv = dense_inv(A.astype(dt) - eye(n, dtype=dt) * sigma)
        return lambda x: Ainv @ x
    op = aslinearoperator(A)
    shifted = LinearOperator(op.shape, matvec=lambda x: op.matvec(x) - sigma * x, dtype=dt)
    rtol = 2 * float(numpy.finfo(dt).eps) if tol <= 0 else tol

    def solve(x):
        y, info = gmres(shifted, x, rtol=rtol, atol=0)
        if info != 0:
            raise ValueError("Error in inverting [A-sigma*M]: function gmres did not converge "
                             "(info = {}).".format(info))
        return y

    return solve


def _check_modes(A, M, sigma, Minv, OPinv, OPpart):
    if M is not None:
        if M.shape != A.shape:
            raise ValueError("wrong M dimensions {}, should be {}".format(M.shape, A.shape))
        raise NotImplementedError("eigs: the generalized problem (M) is not supported")
    if sigma is None:
        if OPinv is not None:
            raise ValueError("OPinv should not be specified with sigma = None.")
        if OPpart is not None:
            raise ValueError("OPpart should not be specified with sigma = None or complex A")
        if Minv is not None:
            raise ValueError("Minv should not be specified with M = None.")
        return
    if numpy.dtype(A.dtype).kind == "c":
        if OPpart is not None:
            raise ValueError("OPpart should not be specified with sigma=None or complex A")
    elif OPpart is not None and OPpart.lower() not in ("r", "i"):
        raise ValueError("OPpart must be one of ('r','i')")
    elif OPpart is not None and OPpart.lower() == "i" and numpy.imag(sigma) == 0:
        raise ValueError("OPpart cannot be 'i' if sigma is real")
    elif numpy.imag(sigma) != 0:  # OPpart 'r' with a real sigma is the default mode: supported
        raise NotImplementedError("eigs: a complex shift of a real matrix (OPpart) is not supported")
    if Minv is not None:
        raise ValueError("Minv should not be specified when sigma is specified.")


def dense_eig_fallback(A, M, return_eigenvectors):
    warnings.warn("k >= N - 1 for N * N square matrix. Attempting to use scipy.linalg.eig instead.",
                  RuntimeWarning, stacklevel=3)
    if issparse(A):
        raise TypeError("Cannot use scipy.linalg.eig for sparse A with k >= N - 1. Use "
                        "scipy.linalg.eig(A.toarray()) or reduce k.")
    if isinstance(A, LinearOperator) or not isinstance(A, ndarray):
        raise TypeError("Cannot use scipy.linalg.eig for LinearOperator A with k >= N - 1.")
    w, v = dense_eig(A)
    cdt = numpy.result_type(solver_dtype(A), numpy.complex64)
    w = w.astype(cdt)
    return (w, v.astype(cdt)) if return_eigenvectors else w


def eigs(A, k=6, M=None, sigma=None, which="LM", v0=None, ncv=None, maxiter=None, tol=0, return_eigenvectors=True,
         Minv=None, OPinv=None, OPpart=None, rng=None):
    """See `scipy.sparse.linalg.eigs`: a restarted Arnoldi iteration on the device (not ARPACK).
    Eigenvalues come best first for `which` (ARPACK's order is its own); eigenvectors are unit
    vectors with an arbitrary phase. Not supported: the generalized problem (`M`, `Minv`) and a
    complex shift of a real matrix (`OPpart`), which raise NotImplementedError.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.sparse import linalg as splinalg
    >>> from cuarray import sparse
    >>> a = sparse.diags(cuarray.arange(1., 11.)).tocsr()
    >>> w = splinalg.eigs(a, k=3, return_eigenvectors=False)
    >>> cuarray.sort(w.real).round(6)
    array([ 8.,  9., 10.])
    """
    if len(A.shape) > 2:
        raise ValueError("{}-dimensional `A` is unsupported, expected 2-D.".format(len(A.shape)))
    if A.shape[0] != A.shape[1]:
        raise ValueError("expected square matrix (shape={})".format(A.shape))
    n = A.shape[0]
    if k <= 0:
        raise ValueError("k={} must be greater than 0.".format(k))
    if k >= n - 1:
        if M is not None:
            raise NotImplementedError("eigs: the generalized problem (M) is not supported")
        return dense_eig_fallback(A, M, return_eigenvectors)
    _check_modes(A, M, sigma, Minv, OPinv, OPpart)
    if which not in _WHICH:
        raise ValueError("which must be one of {}".format(" ".join(_WHICH)))
    dt = solver_dtype(A)
    maxiter = n * 10 if maxiter is None else maxiter
    if maxiter <= 0:
        raise ValueError("maxiter must be positive, maxiter={}".format(maxiter))
    ncv = min(max(2 * k + 1, 20) if ncv is None else ncv, n)
    if ncv > n or ncv <= k + 1:
        raise ValueError("ncv must be k+1<ncv<=n, ncv={}".format(ncv))
    tol = float(numpy.finfo(dt).eps) if tol == 0 else float(tol)
    rng = numpy.random.default_rng(rng)
    x0 = start_vector(v0, n, dt, rng)
    op = aslinearoperator(A).matvec if sigma is None else shift_invert_op(A, sigma, OPinv, dt, tol)
    theta, X, conv, restarts = arnoldi_eigs(op, n, dt, k, ncv, which, tol, maxiter, x0, rng,
                                             real_operator=dt.kind != "c")
    cdt = numpy.result_type(dt, numpy.complex64)
    if sigma is not None:
        theta = sigma + 1.0 / theta
    w = asarray(theta.astype(cdt))
    if not conv.all():
        good = asarray(numpy.flatnonzero(conv))
        raise no_convergence("No convergence ({} iterations, {}/{} eigenvectors converged)".format(
            restarts, int(conv.sum()), k), w[good], X[:, good].astype(cdt))
    return (w, X.astype(cdt)) if return_eigenvectors else w
