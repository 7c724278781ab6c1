"""gcrotmk: flexible GCROT(m, k). See `scipy.sparse.linalg.gcrotmk`.

The simplified flexible GCROT of J. E. Hicken and D. W. Zingg ("A simplified and flexible
variant of GCROT for solving nonsymmetric linear systems", SIAM J. Sci. Comput. 32 (2010)), with
E. de Sturler's truncation of the recycled space ("Truncation strategies for optimal Krylov
subspace methods", SIAM J. Numer. Anal. 36 (1999)) for `truncate='smallest'`. Each cycle is an
FGMRES cycle (`_fgmres.fgmres`, right preconditioning) in the space orthogonal to the kept
C = A U; the cycle's best correction joins (C, U). SciPy's contract: `(x, info)`, 0 converged
(norm(b - A x) <= max(atol, rtol * norm(b))), otherwise the number of cycles done (`maxiter` when
they ran out); `CU` (a list of (c, u) device vector pairs, c possibly None) is updated in place
and ends with (None, x), as SciPy's, for the next call.
"""

from __future__ import annotations

import numpy

from ..._creation.from_data import asarray
from ..._manipulation.joining import concatenate, stack
from ..._math.arithmetic import add, multiply, subtract, true_divide
from ...linalg._matmul import matmul
from ._fgmres import fgmres
from ._iterative import _dot, _nrm, cgs2, make_system, tolerance
from ._lgmres import check_finite_rhs, combine

__all__ = ["gcrotmk"]


def _orthonormalise_cu(CU, matvec, dt):
    """SciPy's preparation of a given CU: c = A u where c is None, then C = Q R (Gram-Schmidt
    twice per column on the device, one read each) cut at the first column with |R[j, j]| <
    1e-12 |R[0, 0]|, U R^-1 alongside; the pairs in reverse order, as SciPy keeps them."""
    CU.sort(key=lambda cu: cu[0] is not None)
    pairs = [(matvec(u) if c is None else c, u) for c, u in CU]
    CU.clear()
    qs = []
    R = numpy.zeros((len(pairs), len(pairs)), numpy.complex128 if dt.kind == "c" else numpy.float64)
    for j, (c, _) in enumerate(pairs):
        w = c.astype(dt)
        h = None
        if qs:
            h, w = cgs2(stack(qs), w)
        nw = _nrm(w)
        col = (concatenate([h, nw.astype(h.dtype).reshape(1)]) if h is not None else nw.reshape(1)).get()  # one read
        R[:j + 1, j] = col
        if abs(R[j, j]) < 1e-12 * abs(R[0, 0]) or R[j, j] == 0:
            break
        qs.append(true_divide(w, nw.astype(dt)))
    r = len(qs)
    if r == 0:
        return
    Rinv = numpy.linalg.inv(R[:r, :r])
    us = combine_rows([u for _, u in pairs[:r]], Rinv.T, dt)
    CU[:] = list(zip(qs, us))[::-1]


def combine_rows(vectors, coefficients, dt):
    """The rows of coefficients @ stack(vectors) (host coefficients, device vectors)."""
    out = matmul(asarray(numpy.ascontiguousarray(coefficients).astype(dt)), stack(list(vectors)))
    return [out[i] for i in range(out.shape[0])]


def _truncate_smallest(CU, lsq, B, k, dt):
    """de Sturler's truncation: keep the k - 1 combinations of C whose projections B R^-1 of the
    last cycle are largest (left singular vectors), C orthonormalised again."""
    ncols = B.shape[1]
    D = numpy.linalg.solve(numpy.triu(lsq.R[:ncols, :ncols]).T, B.T).T
    W = numpy.linalg.svd(D)[0]
    cs = [c for c, _ in CU]
    us = [u for _, u in CU]
    new_c = combine_rows(cs, W[:, :k - 1].T, dt)
    new_u = combine_rows(us, W[:, :k - 1].T, dt)
    kept = []
    for c, u in zip(new_c, new_u):
        for cp, up in kept:
            alpha = _dot(cp, c)
            c = subtract(c, multiply(alpha, cp))
            u = subtract(u, multiply(alpha, up))
        nc = _nrm(c).astype(dt)
        kept.append((true_divide(c, nc), true_divide(u, nc)))
    CU[:] = kept


def gcrotmk(A, b, x0=None, *, rtol=1e-5, atol=0.0, maxiter=1000, M=None, callback=None, m=20, k=None, CU=None,
            discard_C=False, truncate="oldest"):
    """See `scipy.sparse.linalg.gcrotmk`. `CU` pairs are cuarray vectors. A given `CU` is made
    orthonormal by Gram-Schmidt without SciPy's column pivoting, and U follows as U R^-1.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.sparse import linalg as splinalg
    >>> from cuarray import sparse
    >>> a = sparse.csr_matrix(cuarray.array([[3., 2., 0.], [1., -1., 0.], [0., 5., 1.]]))
    >>> x, info = splinalg.gcrotmk(a, cuarray.array([2., 4., -1.]), atol=1e-5)
    >>> cuarray.round(x, 4), int(info)
    (array([ 2., -2.,  9.]), 0)
    """
    A, M, x, b = make_system(A, M, x0, b)
    check_finite_rhs(b)
    if truncate not in ("oldest", "smallest"):
        raise ValueError("Invalid value for 'truncate': {!r}".format(truncate))
    matvec, psolve = A.matvec, M.matvec
    CU = [] if CU is None else CU
    k = m if k is None else k
    dt = b.dtype
    r = b.copy() if x0 is None else subtract(b, matvec(x))
    b_norm, tol = tolerance(b, atol, rtol)
    if b_norm == 0:
        return b, 0
    if discard_C:
        CU[:] = [(None, u) for _, u in CU]
    if CU:
        _orthonormalise_cu(CU, matvec, dt)
    for c, u in CU:
        yc = _dot(c, r)
        x = add(x, multiply(yc, u))
        r = subtract(r, multiply(yc, c))
    j_outer = 0
    for j_outer in range(maxiter):
        if callback is not None:
            callback(x)
        beta = float(_nrm(r))
        if beta <= tol and (j_outer > 0 or CU):
            r = subtract(b, matvec(x))     # the true residual before declaring convergence
            beta = float(_nrm(r))
        if beta <= tol:
            j_outer = -1
            break
        ml = m + max(k - len(CU), 0)
        try:
            y, H, B, V, zs, _, lsq = fgmres(matvec, multiply(r, 1.0 / beta), ml, tol / beta, rpsolve=psolve,
                                            cs=[c for c, _ in CU])
            y = y * beta
        except numpy.linalg.LinAlgError:
            break
        ux = combine(zs, y, dt)
        if CU:
            ux = subtract(ux, combine([u for _, u in CU], B @ y, dt))
        with numpy.errstate(invalid="ignore", over="ignore"):
            hy = H @ y
        cx = matmul(asarray(hy.astype(dt)), V)
        ncx = float(_nrm(cx))
        if not (ncx > 0 and numpy.isfinite(ncx) and numpy.isfinite(1.0 / ncx)):
            continue
        cx = multiply(cx, 1.0 / ncx)
        ux = multiply(ux, 1.0 / ncx)
        gamma = _dot(cx, r)
        r = subtract(r, multiply(gamma, cx))
        x = add(x, multiply(gamma, ux))
        if truncate == "oldest":
            while len(CU) >= k and CU:
                del CU[0]
        elif len(CU) >= k and CU:
            _truncate_smallest(CU, lsq, B, k, dt)
        CU.append((cx, ux))
    CU.append((None, x.copy()))
    if discard_C:
        CU[:] = [(None, u) for _, u in CU]
    return x, j_outer + 1
