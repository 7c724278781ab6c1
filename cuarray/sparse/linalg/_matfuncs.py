"""Matrix functions of sparse matrices: expm and inv. See `scipy.sparse.linalg.expm` and
`scipy.sparse.linalg.inv`.

expm is the scaling and squaring algorithm of A. H. Al-Mohy and N. J. Higham ("A new scaling and
squaring algorithm for the matrix exponential", SIAM J. Matrix Anal. Appl. 31 (2009), Algorithm
6.1): the Pade degree m in {3, 5, 7, 9, 13} and the scaling s from 1-norms of powers of A (exact
where n < 200 or the power is at hand, `onenormest` of operator products otherwise, SciPy's
choice) and the backward-error bound ell; the Pade coefficients are Higham's (2005). The powers
A^2, A^4, A^6 are sparse products on the device (SpGEMM); the Pade solve Q X = P is one cuDSS
factorisation with n dense right-hand sides (the `cuarray[cudss]` extra; without it the clear
ImportError of the direct solvers), and the s squarings are dense products (cuBLAS) of that
n x n result, returned as a sparse matrix of A's kind (CSR for CSR input, else CSC). A dense
cuarray array runs the same algorithm with dense products and `cuarray.linalg.solve`. Not done:
Al-Mohy and Higham's recomputation of the diagonal for upper-triangular input (SciPy's Code
Fragment 2.1), so such matrices with a large norm may differ from SciPy's in the last digits.

inv solves A X = I by one cuDSS factorisation (`splu`, SciPy's exception for a singular matrix).
"""

from __future__ import annotations

import math

import numpy

from ..._core.ndarray import ndarray
from ..._creation.basic import zeros
from ..._creation.matrices import eye
from ..._math.explog import exp
from ..._math.misc import absolute
from ...linalg._matmul import matmul
from ...linalg._solve import solve as dense_solve
from .._base import sparray
from .._sputils import issparse
from .._construct import eye_array
from .._format_csc import csc_array, csc_matrix
from .._format_csr import csr_array, csr_matrix
from ._direct import splu
from ._interface import aslinearoperator
from ._onenormest import exact_onenorm, onenormest

__all__ = ["expm", "inv"]

# Higham's Pade coefficients b_0..b_m of the [m/m] approximant to exp (SIAM J. Matrix Anal. Appl.
# 26 (2005), and Al-Mohy and Higham 2009, eq. (2.5)).
_PADE = {
    3: (120., 60., 12., 1.),
    5: (30240., 15120., 3360., 420., 30., 1.),
    7: (17297280., 8648640., 1995840., 277200., 25200., 1512., 56., 1.),
    9: (17643225600., 8821612800., 2075673600., 302702400., 30270240., 2162160., 110880., 3960., 90., 1.),
    13: (64764752532480000., 32382376266240000., 7771770303897600., 1187353796428800., 129060195264000.,
         10559470521600., 670442572800., 33522128640., 1323241920., 40840800., 960960., 16380., 182., 1.),
}
# theta_m of Al-Mohy and Higham 2009, Table 3.1 (u = 2^-53).
_THETA = {3: 1.495585217958292e-2, 5: 2.539398330063230e-1, 7: 9.504178996162932e-1, 9: 2.097847961257068,
          13: 4.25}


def _sparse_result(A, X):
    """The dense device result X as a sparse matrix of A's kind (CSR for CSR, CSC otherwise)."""
    if A.format == "csr":
        return (csr_array if isinstance(A, sparray) else csr_matrix)(X)
    return (csc_array if isinstance(A, sparray) else csc_matrix)(X)


def inv(A):
    """See `scipy.sparse.linalg.inv`: one cuDSS factorisation, solved against I (n dense
    right-hand sides), returned sparse (CSR for CSR input, CSC otherwise; zeros not stored).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.sparse import linalg as splinalg
    >>> from cuarray import sparse
    >>> a = sparse.csc_array(cuarray.array([[2., 0.], [0., 4.]]))
    >>> splinalg.inv(a).toarray()
    array([[0.5 , 0.  ],
           [0.  , 0.25]])
    """
    if not issparse(A):
        raise TypeError("Input must be a sparse arrays")
    lu = splu(A)
    n = A.shape[0]
    return _sparse_result(A, lu.solve(eye(n, dtype=lu._dtype)))


# SciPy's products for the even powers (A^8 = A^6 A^2, A^10 = A^4 A^6) and the factors whose
# product onenormest estimates for the 'loose' d_p.
_PRODUCT = {2: (1, 1), 4: (2, 2), 6: (4, 2), 8: (6, 2), 10: (4, 6)}
_ESTIMATE = {4: (2, 2), 6: (2, 2, 2), 8: (4, 4), 10: (4, 6)}


class _Powers:
    """A and its even powers (lazily, once each), and the d_p = |A^p|_1^(1/p) that steer the
    algorithm: 'tight' exact, 'loose' estimated by onenormest unless the exact norm is cheap
    (n < 200) or already known (SciPy's _ExpmPadeHelper)."""

    def __init__(self, A, exact):
        self.A, self.exact, self._pow, self._exact, self._approx = A, exact, {1: A}, {}, {}
        self.sparse = issparse(A)

    def mul(self, X, Y):
        return X @ Y if self.sparse else matmul(X, Y)

    def power(self, p):
        if p not in self._pow:
            i, j = _PRODUCT[p]
            self._pow[p] = self.mul(self.power(i), self.power(j))
        return self._pow[p]

    def d(self, p, tight):
        if (tight or self.exact) and p not in self._exact:
            self._exact[p] = exact_onenorm(self.power(p)) ** (1.0 / p)
        if p in self._exact:
            return self._exact[p]
        if p not in self._approx:
            factors = _ESTIMATE[p]
            op = aslinearoperator(self.power(factors[0]))
            for q in factors[1:]:
                op = op @ aslinearoperator(self.power(q))
            self._approx[p] = float(onenormest(op)) ** (1.0 / p)
        return self._approx[p]


def _identity_like(A):
    n = A.shape[0]
    if issparse(A):
        return eye_array(n, dtype=A.dtype, format="csr")
    return eye(n, dtype=A.dtype)


def _ell(A, m):
    """Al-Mohy and Higham's ell(A, m): the extra scaling that keeps the backward error of the
    [m/m] approximant at unit roundoff, from |c_{2m+1}| |(|A|)^(2m+1)|_1 / |A|_1 (the power of
    the non-negative |A| is exact: 2m + 1 products with a vector)."""
    y = zeros((A.shape[0],), numpy.float64) + 1
    absT = abs(A).T if issparse(A) else absolute(A).T
    for _ in range(2 * m + 1):
        y = absT @ y
    abs_norm = float(y.max())
    if not abs_norm:
        return 0
    c_recip = math.factorial(2 * m) * math.factorial(2 * m + 1) / math.factorial(m) ** 2
    alpha = abs_norm / (exact_onenorm(A) * c_recip)
    return max(int(math.ceil(math.log2(alpha / 2.0 ** -53) / (2 * m))), 0)


def _pade(h, m, s=0):
    """U and V of the [m/m] Pade approximant of exp(2^-s A)."""
    b = _PADE[m]
    ident = _identity_like(h.A)
    if m < 13:
        evens = [ident] + [h.power(p) for p in range(2, m, 2)]
        u = sum((b[2 * i + 1] * P for i, P in enumerate(evens)), start=0 * ident)
        v = sum((b[2 * i] * P for i, P in enumerate(evens)), start=0 * ident)
        return h.mul(h.A, u), v
    B, B2, B4, B6 = (h.A * 2.0 ** -s, h.power(2) * 2.0 ** (-2 * s), h.power(4) * 2.0 ** (-4 * s),
                     h.power(6) * 2.0 ** (-6 * s))
    u2 = h.mul(B6, b[13] * B6 + b[11] * B4 + b[9] * B2)
    u = h.mul(B, u2 + b[7] * B6 + b[5] * B4 + b[3] * B2 + b[1] * ident)
    v2 = h.mul(B6, b[12] * B6 + b[10] * B4 + b[8] * B2)
    return u, v2 + b[6] * B6 + b[4] * B4 + b[2] * B2 + b[0] * ident


def _solve_pq(U, V):
    """X with (V - U) X = V + U: dense (a cuDSS solve against the dense P for sparse input)."""
    P, Q = U + V, V - U
    if issparse(Q):
        return splu(Q).solve(P.toarray())
    return dense_solve(Q, P)


def expm(A):
    """See `scipy.sparse.linalg.expm` (sparse input: cuDSS for the Pade solve, the result sparse
    of A's kind; dense cuarray input: a dense result).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.sparse import linalg as splinalg
    >>> from cuarray import sparse
    >>> a = sparse.csc_array(cuarray.array([[1., 0., 0.], [0., 2., 0.], [0., 0., 3.]]))
    >>> splinalg.expm(a).toarray()
    array([[ 2.71828183,  0.        ,  0.        ],
           [ 0.        ,  7.3890561 ,  0.        ],
           [ 0.        ,  0.        , 20.08553692]])
    """
    if not issparse(A) and not isinstance(A, ndarray):
        raise TypeError("A must be a cuarray sparse matrix or array (call cuarray.asarray first)")
    if len(A.shape) != 2 or A.shape[0] != A.shape[1]:
        raise ValueError("expected a square matrix")
    sparse = issparse(A)
    if A.shape == (0, 0) or A.shape == (1, 1):
        dense = A.toarray() if sparse else A
        out = exp(dense) if A.shape == (1, 1) else dense.copy()
        return _sparse_result(A, out) if sparse else out
    if A.dtype.kind not in "fc":
        A = A.astype(numpy.float64)
    h = _Powers(A, exact=A.shape[0] < 200)
    for m in (3, 5, 7, 9):
        eta = {3: max(h.d(4, False), h.d(6, False)), 5: max(h.d(4, True), h.d(6, False)),
               7: max(h.d(6, True), h.d(8, False)), 9: max(h.d(6, True), h.d(8, False))}[m]
        if eta < _THETA[m] and _ell(A, m) == 0:
            X = _solve_pq(*_pade(h, m))
            return _sparse_result(A, X) if sparse else X
    eta5 = min(max(h.d(6, True), h.d(8, False)), max(h.d(8, False), h.d(10, False)))
    s = 0 if eta5 == 0 else max(int(math.ceil(math.log2(eta5 / _THETA[13]))), 0)
    s += _ell(A * 2.0 ** -s, 13)
    X = _solve_pq(*_pade(h, 13, s))
    for _ in range(s):
        X = matmul(X, X)
    return _sparse_result(A, X) if sparse else X

