"""The matrix-function iterations behind sqrtm and logm, written once over a small namespace of
NumPy-named operations (`xp`), so the same code runs on cuarray (`_matfuncs.CUARRAY`) and, in the
CPU tests, on NumPy against SciPy.

cuSOLVER has no Schur decomposition, so SciPy's Schur methods are out of reach. These are the
Schur-free methods of N. J. Higham, "Functions of Matrices" (SIAM 2008):

- square root: the product form of the Denman-Beavers iteration with determinant scaling
  (section 6.3, eqs. 6.17 and 6.28), which converges to the principal square root of any matrix
  with no eigenvalue on the closed negative real axis;
- logarithm: inverse scaling and squaring without Schur (Cheng, Higham, Kenney, Laub, SIAM J. Matrix
  Anal. Appl. 22(4), 2001): square roots until ||A^(1/2^k) - I||_1 <= theta_m, then the [m/m] Pade
  approximant of log(I + X) in partial fractions (Gauss-Legendre on [0, 1]), times 2^k.

Eigenvalues on the negative real axis (where SciPy's Schur diagonal takes the principal branch,
sqrt(-x) = i sqrt(x), log(-x) = log(x) + i pi) are handled by a rotation: for theta below every
eigenvalue's angle from the lower side of the branch cut, sqrt(A) = e^(i theta/2) sqrt(e^(-i theta) A)
and log(A) = i theta I + log(e^(-i theta) A), both exact identities of primary matrix functions on
those branches (`rotation`).
"""

from __future__ import annotations

import math

import numpy

__all__ = ["rotation", "db_sqrtm", "iss_logm", "THETA"]

# theta_m of Al-Mohy and Higham, SIAM J. Sci. Comput. 34(4), 2012, Table 2.1 (SciPy's
# `_logm_triu` uses the same): ||X||_1 <= theta_m keeps the [m/m] Pade error of log(I + X) at
# double precision's unit roundoff.
THETA = (None, 1.59e-5, 2.31e-3, 1.94e-2, 6.21e-2, 1.28e-1, 2.06e-1, 2.88e-1)
_M_MAX = 7
_MAX_DB = 60       # Denman-Beavers iterations before giving up (the result is then NaN)
_MAX_ROOTS = 64    # square roots in logm (a matrix that needs more is not one logm can treat)


def rotation(eigvals: numpy.ndarray, rtol: float = 0.0):
    """(on_cut, theta) from host eigenvalues of shape (..., n): `on_cut` whether any eigenvalue
    lies on the negative real axis (then a real matrix has no real principal square root or
    logarithm), and per matrix the angle theta (shape (...,)) of the rotation that moves the cut's
    eigenvalues off it without moving any other eigenvalue across it: half the smallest angle
    between a lower-half-plane eigenvalue and the cut, at most pi/4; 0 where no eigenvalue is on
    the cut. An eigenvalue within `rtol` (relative) of the cut counts as on it, on its upper side
    (a complex matrix's eigenvalue -x +- 1e-17i; a real one's are exactly real or pairs)."""
    lam = numpy.asarray(eigvals).astype(numpy.complex128)
    cut = (abs(lam.imag) <= rtol * abs(lam)) & (lam.real < 0)
    below = (lam.imag < 0) & ~cut
    gap = numpy.where(below, numpy.angle(lam) + numpy.pi, numpy.inf)  # angle above -pi
    theta = numpy.minimum(numpy.min(gap, axis=-1, initial=numpy.inf) / 2, numpy.pi / 4)
    theta = numpy.where(numpy.any(cut, axis=-1), theta, 0.0)
    return bool(cut.any()), theta


def _norm1(xp, x):
    """The largest 1-norm of a stack of matrices, as a host float (one device read)."""
    return float(xp.host(xp.max(xp.sum(xp.abs(x), axis=-2))))


def db_sqrtm(xp, a, eps):
    """Principal square root of each matrix of `a` (no eigenvalue on the closed negative real
    axis) by the scaled product-form Denman-Beavers iteration:
    M_0 = Y_0 = A; mu = |det M|^(-1/(2n));
    Y <- mu/2 Y (I + M^-1/mu^2);  M <- 1/2 (I + (mu^2 M + M^-1/mu^2)/2);  Y -> A^(1/2), M -> I.
    Scaling stops once ||M - I||_1 < 1e-2 (it then only costs accuracy); the iteration stops one
    step after ||M - I||_1 < sqrt(eps) (convergence is quadratic). One scalar device read per step."""
    n = a.shape[-1]
    ident = xp.eye(n, dtype=a.dtype)
    m, y = a, a
    scale, last = True, False
    for _ in range(_MAX_DB):
        minv, logabsdet = xp.inv_logabsdet(m)
        if scale:
            mu = xp.exp(logabsdet * (-1.0 / (2 * n)))[..., None, None]
            mu2 = mu * mu
            y = xp.matmul(y, ident + minv / mu2) * (mu * 0.5)
            m = ident * 0.5 + (m * mu2 + minv / mu2) * 0.25
        else:
            y = xp.matmul(y, ident + minv) * 0.5
            m = ident * 0.5 + (m + minv) * 0.25
        if last:
            return y
        err = _norm1(xp, m - ident)
        if not math.isfinite(err):
            break
        scale = scale and err >= 1e-2
        last = err < math.sqrt(eps)
    return y * numpy.nan


def _gauss_legendre(m):
    """Nodes and weights of the m-point Gauss-Legendre rule on [0, 1]."""
    x, w = numpy.polynomial.legendre.leggauss(m)
    return (x + 1) / 2, w / 2


def iss_logm(xp, a, eps):
    """Principal logarithm of each matrix of `a` (no eigenvalue on the closed negative real axis)
    by inverse scaling and squaring: k Denman-Beavers square roots until X = A^(1/2^k) - I has
    ||X||_1 <= theta_7 (with m the smallest degree whose theta_m bounds it), then
    log A = 2^k sum_j w_j X (I + x_j X)^-1. One norm read per square root."""
    n = a.shape[-1]
    ident = xp.eye(n, dtype=a.dtype)
    k = 0
    x = a - ident
    nx = _norm1(xp, x)
    while nx > THETA[_M_MAX] and k < _MAX_ROOTS:
        a = db_sqrtm(xp, a, eps)
        k += 1
        x = a - ident
        nx = _norm1(xp, x)
    if not math.isfinite(nx) or nx > THETA[_M_MAX]:
        return x * numpy.nan
    m = next(j for j in range(1, _M_MAX + 1) if nx <= THETA[j])
    nodes, weights = _gauss_legendre(m)
    acc = None
    for xj, wj in zip(nodes, weights):
        term = xp.solve(ident + x * float(xj), x) * float(wj)
        acc = term if acc is None else acc + term
    return acc * float(2 ** k)
