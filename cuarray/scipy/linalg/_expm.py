"""expm: the scaling-and-squaring algorithm with the [13/13] Pade approximant (N. J. Higham,
"The scaling and squaring method for the matrix exponential revisited", SIAM J. Matrix Anal.
Appl. 26(4), 2005, Algorithm 2.3), on cuBLAS GEMMs and one LU solve; stacks batched."""

from __future__ import annotations

import math

import numpy

import cuarray.linalg as _la  # (the subsystem, by its full name: layers checked in tests/test_layers.py)
from ..._math.misc import abs as abs_
from ..._creation.matrices import eye
from ..._statistics.order import max as max_
from ..._math.sums import sum as sum_
from ...linalg._matmul import matmul
from ...linalg._util import LinAlgError
from ._validate import as_lapack
from ..._math.explog import exp

__all__ = ["expm"]

# Coefficients of the [13/13] Pade approximant of exp (Higham 2005, eq. 2.4's b_j), and theta_13.
_B = (64764752532480000.0, 32382376266240000.0, 7771770303897600.0, 1187353796428800.0, 129060195264000.0,
      10559470521600.0, 670442572800.0, 33522128640.0, 1323241920.0, 40840800.0, 960960.0, 16380.0, 182.0, 1.0)
_THETA13 = 5.371920351148152


def expm(A):
    """See `scipy.linalg.expm` (square matrices and stacks; the scaling reads one norm from the
    device). Always the degree-13 approximant, where SciPy picks a lower degree for small norms:
    the results agree to rounding.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> linalg.expm(cuarray.array([[0., 1.], [0., 0.]]))
    array([[1., 1.],
           [0., 1.]])
    """
    A = as_lapack(A, "expm")
    if A.ndim < 2:
        raise LinAlgError("The input array must be at least two-dimensional")
    if A.shape[-1] != A.shape[-2]:
        raise LinAlgError("Last 2 dimensions of the array must be square")
    if A.dtype.kind in "biu":
        A = A.astype(numpy.float64)
    n = A.shape[-1]
    if A.size == 0:
        return A.copy()
    if n == 1:
        return exp(A)
    norm1 = float(max_(sum_(abs_(A), axis=-2)).get())  # the largest 1-norm of the stack
    s = max(0, int(math.ceil(math.log2(norm1 / _THETA13)))) if norm1 > _THETA13 else 0
    if s:
        A = A * (2.0 ** -s)
    ident = eye(n, dtype=A.dtype)
    A2 = matmul(A, A)
    A4 = matmul(A2, A2)
    A6 = matmul(A4, A2)
    b = _B
    u = matmul(A6, b[13] * A6 + b[11] * A4 + b[9] * A2) + b[7] * A6 + b[5] * A4 + b[3] * A2 + b[1] * ident
    U = matmul(A, u)
    V = matmul(A6, b[12] * A6 + b[10] * A4 + b[8] * A2) + b[6] * A6 + b[4] * A4 + b[2] * A2 + b[0] * ident
    R = _la.solve(V - U, V + U)
    for _ in range(s):
        R = matmul(R, R)
    return R
