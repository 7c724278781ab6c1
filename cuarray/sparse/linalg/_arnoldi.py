"""The restarted Arnoldi iteration under `eigs`: a Krylov-Schur-type thick restart.

G. W. Stewart, "A Krylov-Schur algorithm for large eigenproblems", SIAM J. Matrix Anal. Appl.
23 (2001): a Krylov decomposition A V = V H + f b^T of `ncv` vectors is truncated, at each
restart, to the invariant subspace of H that belongs to the `keep` best Ritz values (the k
wanted and as many more as ARPACK keeps, `_kept`), and extended again by Arnoldi steps. The
subspace is spanned here by an orthonormal basis of the kept eigenvectors of H (NumPy's `eig`
and `qr`; Stewart's reordered Schur vectors span the same space), real for a real operator (a
conjugate pair gives its real and imaginary parts, and is never split). The basis V (rows) and
every product with it are on the device, orthogonalised by classical Gram-Schmidt applied twice;
the step coefficients stay on the device until the basis is full (one host read per restart);
H's eigenproblem is host work (ncv x ncv).
Convergence is ARPACK's test: |f| |y_last| <= tol max(eps^(2/3), |theta|) for each wanted pair.
"""

from __future__ import annotations

import numpy

from ..._creation.basic import zeros
from ..._creation.from_data import asarray
from ..._logic.comparison import greater
from ..._math.arithmetic import multiply, true_divide
from ..._math.extrema import maximum
from ..._sorting.searching import where
from ...linalg._matmul import matmul
from ._iterative import _nrm, cgs2

__all__ = ["order_of", "arnoldi_eigs", "arnoldi_step", "arnoldi_steps", "random_direction", "BREAKDOWN"]


def order_of(theta, which, real_operator):
    """Indices of `theta` best first for `which` (ARPACK's meanings: 'LI'/'SI' by the magnitude of
    the imaginary part for a real operator, by its value for a complex one)."""
    im = numpy.abs(theta.imag) if real_operator else theta.imag
    keys = {"LM": -numpy.abs(theta), "SM": numpy.abs(theta), "LR": -theta.real, "SR": theta.real,
            "LI": -im, "SI": im, "LA": -theta.real, "SA": theta.real}
    return numpy.argsort(keys[which], kind="stable")


# A step whose new direction keeps less than this share of |A v| (times eps) has found an
# invariant subspace: Gram-Schmidt's remainder is then rounding noise, no longer orthogonal to the
# basis relative to its own size, so the direction is dropped (H's entry 0) and replaced.
BREAKDOWN = 64.0


def arnoldi_step(op, V, j):
    """One step from v_j = V[j] (device values, no read): ``(h, hn, q)`` with h = V[:j+1]^H A v_j
    and hn, q the norm and the direction of the remainder w of A v_j (Gram-Schmidt twice). A
    breakdown (|w| <= BREAKDOWN eps |A v_j|) gives hn 0 and q the zero vector."""
    tiny = numpy.finfo(V.dtype).tiny
    w = op(V[j])
    floor = multiply(_nrm(w), BREAKDOWN * float(numpy.finfo(V.dtype).eps))
    h, w = cgs2(V[:j + 1], w)
    hn = _nrm(w)
    keep = greater(hn, floor)
    return h, where(keep, hn, 0), multiply(w, where(keep, true_divide(1, maximum(hn, tiny)), 0).astype(V.dtype))


def arnoldi_steps(op, V, Hd, start, end):
    """Arnoldi steps start..end-1: V rows, Hd the device coefficients by rows (row j: V[:j+1]^H A
    v_j, then |w|: column j of H, written contiguously). A breakdown leaves a zero |w| and a zero
    vector V[j + 1] (the caller reads H and starts afresh there)."""
    for j in range(start, end):
        h, Hd[j, j + 1], V[j + 1] = arnoldi_step(op, V, j)
        Hd[j, :j + 1] = h


def random_direction(V, j, rng):
    """A unit vector orthogonal to V[:j] (after an exact breakdown: an invariant subspace)."""
    basis = V[:j]
    w = asarray(rng.uniform(-1.0, 1.0, V.shape[1]).astype(V.dtype))
    w = cgs2(basis, w)[1]
    V[j] = true_divide(w, _nrm(w).astype(V.dtype))


def _pair_of(i, theta):
    """The index of theta[i]'s conjugate partner (LAPACK's eig of a real matrix lists a complex
    pair together, the positive imaginary part first)."""
    return i + 1 if theta[i].imag > 0 else i - 1


def _invariant_basis(Y, theta, sel, real_operator):
    """An orthonormal basis of the span of the eigenvectors Y[:, sel] (real columns for a real
    operator: the real and imaginary parts of one vector of each conjugate pair)."""
    if not real_operator:
        return numpy.linalg.qr(Y[:, sel])[0]
    cols = []
    for i in sel:
        if theta[i].imag == 0:
            cols.append(Y[:, i].real)
        elif theta[i].imag > 0:
            cols += [Y[:, i].real, Y[:, i].imag]
    return numpy.linalg.qr(numpy.stack(cols, axis=1))[0]


def _kept(order, theta, k, p, nconv, real_operator):
    """The Ritz values a restart keeps (indices into theta), best first: ARPACK's choice (dnaup2
    and znaup2, the ARPACK Users' Guide, Lehoucq, Sorensen and Yang 1998), the k wanted and
    min(nconv, (p - k) / 2) more, where nconv of the wanted have converged, at most p - 2 in all,
    and a conjugate pair never split (one more). A fixed share of the unwanted (0.35, before)
    leaves too few new directions: on a spectrum whose wanted end is crowded (`_normal_plus`,
    'SR') the restarts stalled, or converged to other eigenvalues than the wanted ones."""
    keep = k + min(nconv, (p - k) // 2)
    if keep == 1 and p > 3:
        keep = p // 2 if p >= 6 else 2
    sel = list(order[:min(keep, p - 2)])
    if real_operator:
        sel += [_pair_of(i, theta) for i in sel if theta[i].imag != 0 and _pair_of(i, theta) not in sel]
    return sel


def arnoldi_eigs(op, n, dt, k, ncv, which, tol, maxiter, v0, rng, real_operator):
    """The k wanted Ritz pairs of `op` (n x n, device dtype `dt`): ``(theta, X, conv, restarts)``
    with theta (host, complex, best first), X the device Ritz vectors (n x k), conv which of them
    passed the test (host bools)."""
    p = ncv
    hdt = numpy.float64 if real_operator else numpy.complex128
    eps23 = float(numpy.finfo(dt).eps) ** (2.0 / 3.0)
    V = zeros((p + 1, n), dt)
    Hd = zeros((p, p + 1), dt)
    V[0] = true_divide(v0, _nrm(v0).astype(dt))
    H = numpy.zeros((p + 1, p), hdt)
    start = 0
    theta = Y = wanted = None
    conv = numpy.zeros(0, bool)
    for restart in range(max(1, maxiter)):
        while True:
            arnoldi_steps(op, V, Hd, start, p)
            H[:, start:] = Hd.get().T[:, start:]  # one read per restart
            zero = [j for j in range(start, p - 1) if not H[j + 1, j] != 0]
            if not zero:
                break
            j = zero[0]  # an invariant subspace: go on from a new direction orthogonal to it
            H[j + 1:, :] = 0
            random_direction(V, j + 1, rng)
            start = j + 1
        beta = abs(H[p, p - 1])
        theta, Y = numpy.linalg.eig(H[:p, :p])
        theta = theta.astype(numpy.complex128)
        order = order_of(theta, which, real_operator)
        res = beta * numpy.abs(Y[p - 1, :])
        ok = res <= tol * numpy.maximum(eps23, numpy.abs(theta))
        wanted = order[:k]
        conv = ok[wanted]
        if conv.all() or restart == maxiter - 1:
            break
        sel = _kept(order, theta, k, p, int(conv.sum()), real_operator)
        keep = len(sel)
        Q = _invariant_basis(Y, theta, sel, real_operator).astype(hdt)
        T = Q.conj().T @ H[:p, :p] @ Q
        V[:keep] = matmul(asarray(numpy.ascontiguousarray(Q.T).astype(dt)), V[:p])
        V[keep] = V[p]
        coupling = H[p, p - 1] * Q[p - 1, :]   # A (V Q) = (V Q) T + v_p (h_p e_p^T Q)
        H[:] = 0
        H[:keep, :keep] = T
        H[keep, :keep] = coupling
        start = keep
    cdt = numpy.result_type(dt, numpy.complex64)
    rows = matmul(asarray(numpy.ascontiguousarray(Y[:, wanted].T).astype(cdt)), V[:p].astype(cdt))
    return theta[wanted], rows.T, conv, restart + 1
