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
from ..._math.arithmetic import subtract, true_divide
from ..._math.complex import conj
from ..._math.extrema import maximum
from ...linalg._matmul import matmul
from ._iterative import _nrm

__all__ = ["GivensLSQ", "fgmres"]


class GivensLSQ:
    """min |H y - beta e1| for an upper Hessenberg H given a column at a time (host): Givens
    rotations keep R = Q^H H triangular and g = Q^H beta e1; |g[j + 1]| is the residual norm."""

    def __init__(self, m, dtype, beta=1.0):
        dt = numpy.complex128 if numpy.dtype(dtype).kind == "c" else numpy.float64
        self.R = numpy.zeros((m + 1, m), dt)
        self.c = numpy.zeros(m, numpy.float64)
        self.s = numpy.zeros(m, dt)
        self.g = numpy.zeros(m + 1, dt)
        self.g[0] = beta

    def add_column(self, j, h):
        """Column j of H (its j + 2 entries); returns the new residual norm |g[j + 1]|."""
        h = numpy.array(h, dtype=self.R.dtype)
        for i in range(j):  # the earlier rotations
            t = self.c[i] * h[i] + self.s[i] * h[i + 1]
            h[i + 1] = -numpy.conj(self.s[i]) * h[i] + self.c[i] * h[i + 1]
            h[i] = t
        a, b = h[j], h[j + 1]
        den = numpy.hypot(abs(a), abs(b))
        if den == 0:
            c, s = 1.0, 0.0
        elif a == 0:
            c, s = 0.0, 1.0
        else:  # c real, s chosen so that the rotation zeroes h[j + 1]
            c, s = abs(a) / den, (a / abs(a)) * numpy.conj(b) / den
        self.c[j], self.s[j] = c, s
        h[j] = c * a + s * b
        h[j + 1] = 0
        self.g[j + 1] = -numpy.conj(s) * self.g[j]
        self.g[j] = c * self.g[j]
        self.R[:j + 2, j] = h[:j + 2]
        return float(abs(self.g[j + 1]))

    def solve(self, ncols):
        """y of the first `ncols` columns (least squares, so a singular R gives SciPy's answer)."""
        R = numpy.triu(self.R[:ncols, :ncols])
        return numpy.linalg.lstsq(R, self.g[:ncols], rcond=None)[0]


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
            b1 = matmul(conj(C), w)
            w = subtract(w, matmul(b1, C))
            b2 = matmul(conj(C), w)
            w = subtract(w, matmul(b2, C))
            parts.append((b1 + b2).astype(B.dtype))
        basis = V[:j + 1]
        h1 = matmul(conj(basis), w)
        w = subtract(w, matmul(h1, basis))
        h2 = matmul(conj(basis), w)
        w = subtract(w, matmul(h2, basis))
        hn = _nrm(w)
        V[j + 1] = true_divide(w, maximum(hn, tiny).astype(dt))
        parts += [(h1 + h2).astype(B.dtype), hn.astype(B.dtype).reshape(1)]
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
