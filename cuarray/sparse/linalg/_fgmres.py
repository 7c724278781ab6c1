"""The flexible GMRES cycle that lgmres and gcrotmk are built on (Saad, "A flexible inner-outer
preconditioned GMRES algorithm", SIAM J. Sci. Comput. 14 (1993)): an Arnoldi basis V of m
(+ augmentation) steps on the device, z_j kept for the update (right preconditioning: z = R v;
left: w = L A z), each new direction first projected off a given orthonormal set C (GCROT's
recycled space, coefficients in B), then orthogonalised against V by classical Gram-Schmidt
applied twice (two products with the basis). The Hessenberg column (with B's column and the
norms of the breakdown test) is read once per step; its QR by Givens rotations and the small
least-squares problem min |H y - e1| run on the host.
"""

from __future__ import annotations

import numpy

from ..._creation.basic import empty
from ..._manipulation.joining import concatenate, stack
from ..._math.arithmetic import true_divide
from ..._math.extrema import maximum
from ._iterative import GivensLSQ, _nrm, cgs2

__all__ = ["fgmres"]


def _identity(v):
    return v


def fgmres(matvec, v0, m, atol, lpsolve=None, rpsolve=None, cs=(), outer_v=(), prepend_outer_v=False):
    """One FGMRES cycle from the unit vector v0: ``(y, H, B, V, zs, res, lsq)`` with H (host, (j + 2)
    x (j + 1)) the Hessenberg matrix, B (host) the projections onto `cs`, V (device, rows) the
    basis, zs the update directions, y the least-squares solution, res its residual norm and
    lsq the GivensLSQ (its R). `outer_v` holds LGMRES's (z, L A z or None) pairs. Raises
    LinAlgError where the triangular factor is not finite (SciPy's)."""
    lpsolve = lpsolve or _identity
    rpsolve = rpsolve or _identity
    n = v0.shape[0]
    dt = v0.dtype
    m = m + len(outer_v)
    V = empty((m + 1, n), dt)
    V[0] = v0
    C = stack(list(cs)) if len(cs) else None
    B = numpy.zeros((len(cs), m), numpy.complex128 if dt.kind == "c" else numpy.float64)
    H = numpy.zeros((m + 1, m), B.dtype)
    lsq = GivensLSQ(m, dt)
    eps = float(numpy.finfo(dt).eps)
    tiny = numpy.finfo(dt).tiny
    zs = []
    res = numpy.nan
    nout = len(outer_v)
    j = 0
    for j in range(m):
        w = None
        if prepend_outer_v and j < nout:
            z, w = outer_v[j]
        elif prepend_outer_v and j == nout:
            z = rpsolve(v0)
        elif not prepend_outer_v and j >= m - nout:
            z, w = outer_v[j - (m - nout)]
        else:
            z = rpsolve(V[j])
        w = lpsolve(matvec(z)) if w is None else w.copy()
        parts = [_nrm(w).astype(B.dtype).reshape(1)]
        if C is not None:
            bc, w = cgs2(C, w)
            parts.append(bc.astype(B.dtype))
        h, w = cgs2(V[:j + 1], w)
        hn = _nrm(w)
        V[j + 1] = true_divide(w, maximum(hn, tiny).astype(dt))
        parts += [h.astype(B.dtype), hn.astype(B.dtype).reshape(1)]
        col = concatenate(parts).get()  # one read per step
        w_norm = float(col[0].real)
        if C is not None:
            B[:, j] = col[1:1 + len(cs)]
        h = col[1 + len(cs):]
        H[:j + 2, j] = h
        hnext = float(h[-1].real)
        breakdown = not (hnext > eps * w_norm)
        zs.append(z)
        res = lsq.add_column(j, h)
        if res < atol or breakdown:
            break
    if not numpy.isfinite(lsq.R[j, j]):
        raise numpy.linalg.LinAlgError("non-finite value in the Hessenberg factorisation")
    y = lsq.solve(j + 1)
    return y, H[:j + 2, :j + 1], B[:, :j + 1], V[:j + 2], zs, res, lsq
