"""funm_multiply_krylov: y = f(tA) b by a restarted Krylov method. See
`scipy.sparse.linalg.funm_multiply_krylov`.

The restarted Arnoldi method of M. Eiermann and O. G. Ernst ("A restarted Krylov subspace method
for the evaluation of matrix functions", SIAM J. Numer. Anal. 44 (2006)) as implemented by M.
Afanasjew, M. Eiermann, O. G. Ernst and S. Guettel (Linear Algebra Appl. 429 (2008)): each cycle
builds m Arnoldi vectors on the device (Gram-Schmidt twice against the cycle's basis), appends
its Hessenberg block to the growing Hessenberg matrix of all cycles, evaluates f on that (small)
matrix and adds the new cycle's part of f(tH) e_1 to y. The cycle's coefficients are read once.
f receives the projected matrix as a cuarray array (use cuarray's functions, e.g.
`cuarray.scipy.linalg.expm`; a NumPy result is accepted). 'hermitian' keeps H tridiagonal
(the Lanczos structure; the vectors are still orthogonalised in full).
"""

from __future__ import annotations

import numpy

from ..._core.ndarray import ndarray
from ..._creation.basic import zeros
from ..._creation.from_data import asarray
from ...linalg._matmul import matmul
from ._arnoldi import arnoldi_steps
from ._interface import aslinearoperator
from ._iterative import _nrm, tolerance

__all__ = ["funm_multiply_krylov"]


def _cycle(matvec, v, m, dt):
    """m Arnoldi steps from the unit vector v: (V rows (m + 1, n), H block (m + 1, m), j) with j the
    number of valid steps (m, or fewer at a breakdown: an invariant subspace)."""
    n = v.shape[0]
    V = zeros((m + 1, n), dt)
    Hd = zeros((m, m + 1), dt)
    V[0] = v
    arnoldi_steps(matvec, V, Hd, 0, m)
    H = Hd.get().T  # one read per cycle
    tol = numpy.finfo(dt).eps ** 2
    for k in range(m):
        if not abs(H[k + 1, k]) >= tol:
            return V, H, k + 1, True
    return V, H, m, False


def funm_multiply_krylov(f, A, b, *, assume_a="general", t=1.0, atol=0.0, rtol=1e-06, restart_every_m=None,
                         max_restarts=20):
    """See `scipy.sparse.linalg.funm_multiply_krylov`. `f` gets a cuarray array. A breakdown (an
    invariant subspace) keeps the last valid step (SciPy's drops it).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.sparse import linalg as splinalg
    >>> from cuarray import sparse
    >>> a = sparse.csr_array(cuarray.array([[3., 2., 0.], [1., -1., 0.], [0., 5., 1.]]))
    >>> b = cuarray.array([2., 4., -1.])
    >>> poly = lambda X: X @ X @ X - X
    >>> splinalg.funm_multiply_krylov(poly, a, b).round(6)
    array([132.,  24.,  70.])
    """
    if assume_a not in ("hermitian", "general", "her", "gen"):
        raise ValueError("scipy.sparse.linalg.funm_multiply_krylov: {} is not a recognized matrix "
                         "structure".format(assume_a))
    hermitian = assume_a in ("her", "hermitian")
    if not isinstance(b, ndarray):
        raise TypeError("b must be a cuarray array (call cuarray.asarray first)")
    if b.ndim != 1:
        raise ValueError("scipy.sparse.linalg.funm_multiply_krylov: argument 'b' must be a 1D array.")
    n = b.shape[0]
    m = int(min(20, n) if restart_every_m is None else restart_every_m)
    max_restarts = int(max_restarts)
    if m <= 0:
        raise ValueError("scipy.sparse.linalg.funm_multiply_krylov: argument 'restart_every_m' must be positive.")
    if max_restarts <= 0:
        raise ValueError("scipy.sparse.linalg.funm_multiply_krylov: argument 'max_restarts' must be positive.")
    max_restarts = min(max_restarts, int(n / m) + 1)
    bnorm, atol = tolerance(b, atol, rtol)
    if bnorm == 0:
        return b.copy()
    A = aslinearoperator(A)
    dt = numpy.result_type(A.dtype, b.dtype, numpy.float32)
    if dt.kind not in "fc":
        dt = numpy.dtype(numpy.float64)
    hdt = numpy.complex128 if dt.kind == "c" else numpy.float64
    Hall = numpy.zeros((m * max_restarts + 1, m * max_restarts), hdt)
    v = b.astype(dt) * (1.0 / bnorm)
    y = None
    for restart in range(max_restarts):
        V, H, j, breakdown = _cycle(A.matvec, v, m, dt)
        begin = restart * m
        if hermitian:
            H = numpy.triu(numpy.tril(H, 1), -1)
            for k in range(min(j, m - 1)):
                H[k, k + 1] = H[k + 1, k]
        Hall[begin:begin + j + 1, begin:begin + j] = H[:j + 1, :j]
        end = begin + j
        fH = f(asarray((t * Hall[:end, :end]).astype(dt)))
        col = (fH if isinstance(fH, ndarray) else asarray(numpy.asarray(fH)))[begin:end, 0]
        part = matmul(col.astype(dt) * bnorm, V[:j])
        y = part if y is None else y + part
        if breakdown:
            return y
        if float(_nrm(col)) * bnorm <= atol:
            return y
        v = V[m]
    return y
