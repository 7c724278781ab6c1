"""norm of a sparse matrix. See `scipy.sparse.linalg.norm`.

Matrix norms: 'fro' (the default), 1, -1, inf, -inf (absolute column/row sums, computed as
sparse sums) and 2 (the largest singular value from `svds`, as SciPy's). Vector norms along an
axis: any p. Bad `ord`/`axis` raise SciPy's exception types.
Results are cuarray arrays (0-d for matrix norms).
"""

from __future__ import annotations

import numpy

from ..._creation.basic import zeros
from ..._math.arithmetic import multiply, power
from ..._math.misc import absolute, sqrt
from ..._math.sums import sum as sum_
from ..._statistics.order import max as max_, min as min_
from .._sputils import issparse
from ._svds import svds

__all__ = ["norm"]


def _abs_sum(A, axis):
    return abs(A).sum(axis=axis)


def norm(x, ord=None, axis=None):  # noqa: A002
    """See `scipy.sparse.linalg.norm`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.sparse import linalg as splinalg
    >>> from cuarray import sparse
    >>> a = sparse.csr_matrix(cuarray.array([[4., 1.], [1., 3.]]))
    >>> round(float(splinalg.norm(a)), 6)
    5.196152
    >>> splinalg.norm(a, axis=1)
    array([4.12310563, 3.16227766])
    """
    if not issparse(x):
        raise TypeError("input is not sparse. use cuarray.linalg.norm")
    if axis is None and ord in (None, "fro", "f"):
        d = x.tocsr(copy=True)
        d.sum_duplicates()
        a = absolute(d.data)
        return sqrt(sum_(multiply(a, a))) if d.nnz else zeros((), numpy.float64)
    if axis is None:
        axis = (0, 1)
    elif not isinstance(axis, tuple):
        if not isinstance(axis, (int, numpy.integer)):
            raise TypeError("'axis' must be None, an integer or a tuple of integers")
        axis = (int(axis),)
    if len(axis) not in (1, 2):
        raise ValueError("Improper number of dimensions to norm.")
    if not all(isinstance(a, (int, numpy.integer)) for a in axis):
        raise TypeError("'axis' must be None, an integer or a tuple of integers")
    if not all(-2 <= a < 2 for a in axis):
        raise ValueError("Invalid axis {!r} for an array with shape {!r}".format(axis, x.shape))
    if len(axis) == 2:
        r, c = (a % 2 for a in axis)
        if r == c:
            raise ValueError("Duplicate axes given.")
        if ord == 2:  # the largest singular value, by svds as SciPy's
            return svds(x, k=1, return_singular_vectors=False)[0]
        if ord == -2:
            raise NotImplementedError
        if ord in (1, -1):
            s = _abs_sum(x, r).reshape(-1)
            return max_(s) if ord == 1 else min_(s)
        if ord in (numpy.inf, -numpy.inf):
            s = _abs_sum(x, c).reshape(-1)
            return max_(s) if ord == numpy.inf else min_(s)
        if ord in (None, "fro", "f"):
            return norm(x)
        raise ValueError("Invalid norm order for matrices.")
    a = int(axis[0]) % 2
    d = x.tocsr(copy=True)
    d.sum_duplicates()
    if ord in (None, 2):
        sq = d._with_data(multiply(absolute(d.data), absolute(d.data)))
        return sqrt(sq.sum(axis=a).reshape(-1))
    if ord == numpy.inf:
        return abs(d).max(axis=a).reshape(-1)
    if ord == -numpy.inf:
        return abs(d).min(axis=a).reshape(-1)
    if ord == 0:
        d.eliminate_zeros()
        return d._getnnz_axis(a)
    if ord == 1:
        return _abs_sum(d, a).reshape(-1)
    if isinstance(ord, str):
        raise ValueError("Invalid norm order for vectors.")
    p = d._with_data(power(absolute(d.data), ord))
    return power(p.sum(axis=a).reshape(-1), 1.0 / ord)
