"""expm_cond: the relative condition number of the matrix exponential in the Frobenius norm, by
SciPy's method, on the device: kappa(A) = ||K||_2 ||A||_F / ||expm(A)||_F, with K the n^2 x n^2
Kronecker form of the Frechet derivative L(A, .) of expm at A.

K's columns are vec(L(A, e_i e_j^T)) for the n^2 unit matrices. They are computed here as batches
of `expm_frechet` (the upper-right block of expm([[A, E], [0, A]]), Pade-13 with scaling and
squaring), a chunk of unit matrices per batch so that the 2n x 2n block matrices stay within
`CHUNK_BYTES`; ||K||_2 is its largest singular value (cuSOLVER's SVD). The 2-norm is unchanged by
permuting K's rows and columns, so K is assembled in the order the batches give. O(n^5) work and
O(n^4) memory (K itself), as SciPy's (which calls expm_frechet n^2 times on the host)."""

from __future__ import annotations

import numpy

from ..._creation.basic import zeros
from ..._indexing.inserting import put
from ..._manipulation.joining import concatenate, stack
from ...linalg import _norms
from ...linalg._util import as_array
from ._expm import expm
from ._structured import expm_frechet
from ._validate import batch_shape, deprecate_dtypes, require_finite

__all__ = ["expm_cond"]

# Bytes of 2n x 2n block matrices per batch of Frechet derivatives: the expm of a batch holds about
# eight such arrays at once (powers, the Pade numerator and denominator, the LU).
CHUNK_BYTES = 1 << 28


def chunk_size(n: int, itemsize: int) -> int:
    """How many of the n^2 Frechet derivatives one expm_frechet batch computes."""
    per = 8 * (2 * n) ** 2 * itemsize
    return max(1, min(n * n, CHUNK_BYTES // per))


def _kronecker_norm(a) -> object:
    """||K||_2 of one n x n matrix `a` (float64 or complex128), a 0-d device array."""
    n = a.shape[-1]
    step = chunk_size(n, a.itemsize)
    rows = []
    for start in range(0, n * n, step):
        count = min(step, n * n - start)
        e = zeros((count, n, n), dtype=a.dtype)
        put(e, numpy.arange(count) * (n * n) + numpy.arange(start, start + count), 1)  # e_i e_j^T
        lf = expm_frechet(a, e, compute_expm=False, check_finite=False)
        rows.append(lf.reshape(count, n * n))
    kt = rows[0] if len(rows) == 1 else concatenate(rows, axis=0)  # K^T with its columns permuted
    return _norms.norm(kt, 2)


def expm_cond(A, check_finite=True):
    """See `scipy.linalg.expm_cond`; leading dimensions are batches, as SciPy 1.18's. SciPy's
    method on the device (see the module's notes): the Kronecker form from n^2 Frechet
    derivatives, batched, and its 2-norm by SVD; O(n^5) work and O(n^4) memory, for the small
    matrices the function is meant for. A float64 0-d device array for one matrix (SciPy: a
    NumPy float64), a float64 device array of the batch shape for a stack.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> a = cuarray.array([[-0.3, 0.2, 0.6], [0.6, 0.3, -0.1], [-0.7, 1.2, 0.9]])
    >>> round(float(linalg.expm_cond(a)), 6)
    1.778781
    """
    A = as_array(A, "expm_cond")
    deprecate_dtypes("expm_cond", A)
    batch = batch_shape("expm_cond", A.shape[:-2])
    require_finite(check_finite, A)
    if A.ndim < 2 or A.shape[-1] != A.shape[-2]:
        raise ValueError("expected a square matrix")
    if A.shape[-1] == 0:
        raise ValueError("need at least one array to concatenate")  # SciPy's, from its empty vstack
    x = expm(A)
    a_norm = _norms.norm(A, "fro", axis=(-2, -1))
    x_norm = _norms.norm(x, "fro", axis=(-2, -1))
    a = A.astype("D" if A.dtype.kind == "c" else "d")
    if batch:
        flat = a.reshape((-1,) + a.shape[-2:])
        k_norm = stack([_kronecker_norm(flat[i]) for i in range(flat.shape[0])]).reshape(batch)
    else:
        k_norm = _kronecker_norm(a)
    return (k_norm * a_norm / x_norm).astype(numpy.float64)
