"""onenormest: a lower bound of the 1-norm of an operator. See `scipy.sparse.linalg.onenormest`.

The block algorithm of N. J. Higham and F. Tisseur ("A block algorithm for matrix 1-norm
estimation, with an application to 1-norm pseudospectra", SIAM J. Matrix Anal. Appl. 21 (2000),
Algorithm 2.4): t columns at a time, products with A and A^H on the device (`matmat`,
`rmatmat`), the bookkeeping (column norms, the sign matrices' parallel-column tests, the
visited indices) read to the host per step, a few numbers each. The random +-1 columns come
from a NumPy generator on the host (SciPy uses NumPy's global one), uploaded as int8.
For t >= n the norm is computed exactly from A I, as SciPy does.
"""

from __future__ import annotations

import numpy

from ..._creation.basic import zeros
from ..._creation.from_data import asarray
from ..._creation.matrices import eye
from ..._logic.comparison import equal
from ..._manipulation.joining import concatenate, stack
from ..._math.arithmetic import true_divide
from ..._math.misc import absolute
from ..._math.sums import sum as sum_
from ..._sorting.sorting import argsort
from ..._statistics.order import max as max_
from ...linalg._matmul import matmul
from .._sputils import issparse
from ._interface import aslinearoperator

__all__ = ["onenormest", "exact_onenorm"]


def exact_onenorm(A):
    """max_j sum_i |A_ij| of a sparse matrix or a dense array (a host float; one read)."""
    if issparse(A):
        return float(max_(abs(A).sum(axis=0))) if A.nnz else 0.0
    return float(max_(sum_(absolute(A), axis=0))) if A.size else 0.0


def _sign(Y):
    """Higham and Tisseur's sign: Y / |Y| with sign(0) = 1 (complex too)."""
    a = absolute(Y)
    zero = equal(a, 0)
    return true_divide(Y + zero, a + zero)


def _random_signs(n, rng):
    return asarray((rng.integers(0, 2, n).astype(numpy.int8) * 2 - 1)).astype(numpy.float64)


def _resample_parallel(S, S_old, rng):
    """Columns of S parallel to an earlier column of S or to a column of S_old (|s.t| = n, +-1
    entries) replaced by random +-1 columns, until none is (SciPy's loop); returns S."""
    n, t = S.shape
    for i in range(t):
        for _ in range(100):
            others = [S[:, :i]] + ([S_old] if S_old is not None else [])
            block = concatenate(others, axis=1) if any(o.shape[1] for o in others) else None
            if block is None:
                break
            dots = numpy.abs(matmul(block.T, S[:, i]).get())
            if not (dots == n).any():
                break
            S[:, i] = _random_signs(n, rng)
    return S


def _every_column_parallel(S, S_old):
    n = S.shape[0]
    dots = numpy.abs(matmul(S_old.T, S).get())
    return bool((dots == n).any(axis=0).all())


def _estimate(A, t, itmax, rng):
    """Algorithm 2.4: ``(est, v, w)``."""
    n = A.shape[0]
    X = zeros((n, t), numpy.float64) + 1
    for i in range(1, t):
        X[:, i] = _random_signs(n, rng)
    if t > 1:
        X = _resample_parallel(X, None, rng)
    X = true_divide(X, float(n))
    ind_hist = numpy.zeros(0, numpy.intp)
    est_old, S, ind, ind_best, w = 0.0, None, None, None, None
    k = 1
    while True:
        Y = A.matmat(X)
        mags = sum_(absolute(Y), axis=0).get()  # one read: the t column norms
        est = mags.max()
        best_j = int(numpy.argmax(mags))
        if est > est_old or k == 2:
            if k >= 2:
                ind_best = ind[best_j]
            w = Y[:, best_j]
        if k >= 2 and est <= est_old:
            est = est_old
            break
        est_old, S_old = est, S
        if k > itmax:
            break
        S = _sign(Y)
        if S_old is not None and _every_column_parallel(S, S_old):
            break
        if t > 1:
            S = _resample_parallel(S, S_old, rng)
        h = max_(absolute(A.rmatmat(S)), axis=1)
        if k >= 2:
            hmax, hbest = stack([max_(h), h[int(ind_best)]]).get()  # one read
            if hmax == hbest:
                break
        ind = argsort(-h)[:min(n, t + ind_hist.size)].get()  # the most promising rows
        if t > 1:
            seen = numpy.isin(ind, ind_hist)
            if seen[:t].all():
                break
            ind = numpy.concatenate([ind[~seen], ind[seen]])
        X = zeros((n, t), numpy.float64)
        for j in range(t):
            X[int(ind[j]), j] = 1
        ind_hist = numpy.concatenate([ind_hist, ind[:t][~numpy.isin(ind[:t], ind_hist)]])
        k += 1
    v = zeros((n,), numpy.float64)
    v[int(ind_best)] = 1
    return numpy.float64(est), v, w


def onenormest(A, t=2, itmax=5, compute_v=False, compute_w=False):
    """See `scipy.sparse.linalg.onenormest`. The estimate is a NumPy float64 (it was read to the
    host to steer the iteration); `v` and `w` are cuarray arrays.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.sparse import linalg as splinalg
    >>> from cuarray import sparse
    >>> a = sparse.csc_array(cuarray.array([[1., 0., 0.], [5., 8., 2.], [0., -1., 0.]]))
    >>> float(splinalg.onenormest(a))
    9.0
    """
    A = aslinearoperator(A)
    if A.shape[0] != A.shape[1]:
        raise ValueError("expected the operator to act like a square matrix")
    n = A.shape[1]
    if t >= n:
        explicit = A.matmat(eye(n, dtype=numpy.result_type(A.dtype, numpy.float64)))
        sums = sum_(absolute(explicit), axis=0).get()
        j = int(numpy.argmax(sums))
        est = sums[j]
        v = zeros((n,), numpy.float64)
        v[j] = 1
        w = explicit[:, j]
    else:
        if itmax < 2:
            raise ValueError("at least two iterations are required")
        if t < 1:
            raise ValueError("at least one column is required")
        est, v, w = _estimate(A, t, itmax, numpy.random.default_rng())
    if compute_v or compute_w:
        return (est,) + ((v,) if compute_v else ()) + ((w,) if compute_w else ())
    return est
