"""lgmres: restarted GMRES augmented with the last outer errors. See `scipy.sparse.linalg.lgmres`.

The method of A. H. Baker, E. R. Jessup and T. Manteuffel ("A technique for accelerating the
convergence of restarted GMRES", SIAM J. Matrix Anal. Appl. 26 (2005)): each cycle is an FGMRES
cycle (`_fgmres.fgmres`, left preconditioning) whose space holds `inner_m` Krylov directions and
the last `outer_k` corrections dx (with their products M A dx where `store_outer_Av`), and whose
inner tolerance adapts to the progress of the last cycle, as SciPy's. SciPy's contract: `(x,
info)`, 0 converged (norm(b - A x) <= max(atol, rtol * norm(b))), `maxiter` cycles without
converging, the number of cycles done where the cycle's numbers overflow; `outer_v` (a list) is
extended in place with device vectors for reuse by the next call.
"""

from __future__ import annotations

import numpy

from ..._creation.from_data import asarray
from ..._manipulation.joining import stack
from ..._logic.truth import all as all_
from ..._logic.content import isfinite
from ..._math.arithmetic import add, multiply, negative, subtract, true_divide
from ...linalg._matmul import matmul
from ._fgmres import fgmres
from ._iterative import _nrm, make_system, tolerance

__all__ = ["lgmres"]


def check_finite_rhs(b):
    if not bool(all_(isfinite(b))):
        raise ValueError("RHS must contain only finite numbers")


def combine(vectors, coefficients, dtype):
    """sum_i coefficients[i] * vectors[i] (host coefficients, device vectors): one product."""
    return matmul(asarray(numpy.asarray(coefficients).astype(dtype)), stack(list(vectors)))


def lgmres(A, b, x0=None, *, rtol=1e-5, atol=0.0, maxiter=1000, M=None, callback=None, inner_m=30, outer_k=3,
           outer_v=None, store_outer_Av=True, prepend_outer_v=False):
    """See `scipy.sparse.linalg.lgmres`. `outer_v` entries are pairs of cuarray vectors.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.sparse import linalg as splinalg
    >>> from cuarray import sparse
    >>> a = sparse.csr_matrix(cuarray.array([[3., 2., 0.], [1., -1., 0.], [0., 5., 1.]]))
    >>> x, info = splinalg.lgmres(a, cuarray.array([2., 4., -1.]), atol=1e-5)
    >>> cuarray.round(x, 4), int(info)
    (array([ 2., -2.,  9.]), 0)
    """
    A, M, x, b = make_system(A, M, x0, b)
    check_finite_rhs(b)
    matvec, psolve = A.matvec, M.matvec
    outer_v = [] if outer_v is None else outer_v
    b_norm, tol = tolerance(b, atol, rtol)
    if b_norm == 0:
        return b, 0
    dt = b.dtype
    ptol_max_factor = 1.0
    for k_outer in range(maxiter):
        r_outer = subtract(matvec(x), b)
        if callback is not None:
            callback(x)
        r_norm = float(_nrm(r_outer))
        if r_norm <= tol:
            return x, 0
        v0 = negative(psolve(r_outer))
        inner_res_0 = float(_nrm(v0))
        if inner_res_0 == 0:
            raise RuntimeError("Preconditioner returned a zero vector; |v| ~ {:.1g}, |M v| = 0".format(r_norm))
        v0 = multiply(v0, 1.0 / inner_res_0)
        ptol = min(ptol_max_factor, tol / r_norm)
        try:
            y, H, _, V, zs, pres, _ = fgmres(matvec, v0, inner_m, ptol, lpsolve=psolve, outer_v=outer_v,
                                             prepend_outer_v=prepend_outer_v)
            y = y * inner_res_0
            if not numpy.isfinite(y).all():
                raise numpy.linalg.LinAlgError()
        except numpy.linalg.LinAlgError:
            return x, k_outer + 1
        ptol_max_factor = min(1.0, 1.5 * ptol_max_factor) if pres > ptol else max(1e-16, 0.25 * ptol_max_factor)
        dx = combine(zs, y, dt)
        nx = float(_nrm(dx))
        if nx > 0:
            ax = true_divide(matmul(asarray((H @ y).astype(dt)), V), nx) if store_outer_Av else None
            outer_v.append((true_divide(dx, nx), ax))
        while len(outer_v) > outer_k:
            del outer_v[0]
        x = add(x, dx)
    return x, maxiter
