"""Special matrices (SciPy "Special matrices"): built on the GPU by one gather or a few slice
assignments from their defining vectors; hadamard, helmert and invhilbert, which depend only on n,
are built on the host (integer arithmetic exact as SciPy's) and copied once."""

from __future__ import annotations

import math

import numpy

from ..._creation.ranges import arange
from ..._creation.from_data import asarray
from ..._manipulation.joining import concatenate
from ..._math.complex import conj
from ..._creation.basic import zeros
from ..._creation.matrices import eye
from ..._indexing.inserting import take
from ..._logic.truth import any as any_
from ..._manipulation.dims import broadcast_to
from ..._sorting.searching import where
from ...linalg._products import kron as kron  # noqa: F401 (re-exported: scipy.linalg.kron's successor)
from ..._core.host_input import as_parameter
from ._validate import batch_shape

__all__ = ["toeplitz", "circulant", "hankel", "hilbert", "invhilbert", "hadamard", "helmert", "leslie", "companion",
           "block_diag", "khatri_rao", "kron"]


# The constructors take their defining vectors from the host too (lists, NumPy arrays), as
# SciPy does and CuPy's take: small parameter arrays, copied once (docs/scipy.md).
def _vector(x, fn):
    x = as_parameter(x, fn)
    return x.ravel() if x.ndim != 1 else x


def _atleast_1d(x, fn):
    x = as_parameter(x, fn)
    return x.reshape(1) if x.ndim == 0 else x


def toeplitz(c, r=None):
    """See `scipy.linalg.toeplitz`; leading dimensions of `c` and `r` are batches (SciPy >= 1.17).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> linalg.toeplitz(cuarray.array([1, 2, 3]), cuarray.array([1, 4, 5]))
    array([[1, 4, 5],
           [2, 1, 4],
           [3, 2, 1]])
    """
    c = _atleast_1d(c, "toeplitz")
    r = conj(c) if r is None else _atleast_1d(r, "toeplitz")
    batch = batch_shape("toeplitz", c.shape[:-1], r.shape[:-1])
    c = broadcast_to(c, batch + c.shape[-1:])
    r = broadcast_to(r, batch + r.shape[-1:])
    m, n = c.shape[-1], r.shape[-1]
    vals = concatenate((r[..., :0:-1], c), axis=-1)  # r reversed (without r[0]), then c
    idx = (n - 1) + arange(m)[:, None] - arange(n)[None, :]
    return take(vals, idx, axis=-1)


def circulant(c):
    """See `scipy.linalg.circulant`; leading dimensions of `c` are batches.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> linalg.circulant(cuarray.array([1, 2, 3]))
    array([[1, 3, 2],
           [2, 1, 3],
           [3, 2, 1]])
    """
    c = _atleast_1d(c, "circulant")
    n = c.shape[-1]
    idx = (arange(n)[:, None] - arange(n)[None, :]) % n
    return take(c, idx, axis=-1)


def hankel(c, r=None):
    """See `scipy.linalg.hankel` (1-D c and r).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> linalg.hankel(cuarray.array([1, 2, 3]), cuarray.array([3, 4, 5]))
    array([[1, 2, 3],
           [2, 3, 4],
           [3, 4, 5]])
    """
    c = _vector(c, "hankel")
    r = zeros(c.shape, dtype=c.dtype) if r is None else _vector(r, "hankel")
    m, n = c.shape[0], r.shape[0]
    vals = concatenate((c, r[1:]))
    idx = arange(m)[:, None] + arange(n)[None, :]
    return vals[idx]


def hilbert(n):
    """See `scipy.linalg.hilbert`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> linalg.hilbert(3)
    array([[1.        , 0.5       , 0.33333333],
           [0.5       , 0.33333333, 0.25      ],
           [0.33333333, 0.25      , 0.2       ]])
    """
    i = arange(n, dtype=numpy.float64)
    return 1.0 / (i[:, None] + i[None, :] + 1.0)


def _float(v: int) -> float:
    # SciPy's floating comb products overflow to +-inf; a Python int too large for a double raises.
    try:
        return float(v)
    except OverflowError:
        return math.inf if v > 0 else -math.inf


def invhilbert(n, exact=False):
    """See `scipy.linalg.invhilbert`. Built on the host in exact integer arithmetic and copied
    once. exact=False: float64, each entry the correctly rounded exact value (SciPy multiplies
    rounded binomials: the last bits may differ). exact=True: int64 for n <= 14, as SciPy; for
    larger n SciPy returns an object array of Python ints (entries overflow int64 from n = 15),
    and so does this function: a NumPy object array on the host, since the GPU has no object
    dtype.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> linalg.invhilbert(3)
    array([[   9.,  -36.,   30.],
           [ -36.,  192., -180.],
           [  30., -180.,  180.]])
    """
    rows = [[(-1) ** (i + j) * (i + j + 1) * math.comb(n + i, n - j - 1) * math.comb(n + j, n - i - 1)
             * math.comb(i + j, i) ** 2 for j in range(n)] for i in range(n)]
    if exact and n > 14:
        host = numpy.empty((n, n), dtype=object)
        for i, row in enumerate(rows):
            host[i, :] = row
        return host
    if exact:
        return asarray(numpy.array(rows, dtype=numpy.int64).reshape(n, n))
    return asarray(numpy.array([[_float(v) for v in row] for row in rows], dtype=numpy.float64).reshape(n, n))


def hadamard(n, dtype=int):
    """See `scipy.linalg.hadamard` (Sylvester's construction).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> linalg.hadamard(4)
    array([[ 1,  1,  1,  1],
           [ 1, -1,  1, -1],
           [ 1,  1, -1, -1],
           [ 1, -1, -1,  1]])
    """
    if n < 1:
        lg2 = 0
    else:
        lg2 = int(math.log(n, 2))
    if 2 ** lg2 != n:
        raise ValueError("n must be an positive integer, and n must be a power of 2")
    h = numpy.array([[1]], dtype=dtype)
    for _ in range(lg2):
        h = numpy.vstack((numpy.hstack((h, h)), numpy.hstack((h, -h))))
    return asarray(h)


def helmert(n, full=False):
    """See `scipy.linalg.helmert`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> linalg.helmert(3)
    array([[ 0.70710678, -0.70710678,  0.        ],
           [ 0.40824829,  0.40824829, -0.81649658]])
    """
    h = numpy.tril(numpy.ones((n, n)), -1) - numpy.diag(numpy.arange(n))
    d = numpy.arange(n) * numpy.arange(1, n + 1)
    h[0] = 1
    d[0] = n
    h_full = h / numpy.sqrt(d)[:, numpy.newaxis]
    return asarray(h_full if full else h_full[1:])


def leslie(f, s):
    """See `scipy.linalg.leslie`; leading dimensions of `f` and `s` are batches.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> linalg.leslie(cuarray.array([0.1, 2., 1.]), cuarray.array([0.2, 0.8]))
    array([[0.1, 2. , 1. ],
           [0.2, 0. , 0. ],
           [0. , 0.8, 0. ]])
    """
    f, s = _atleast_1d(f, "leslie"), _atleast_1d(s, "leslie")
    if f.shape[-1] != s.shape[-1] + 1:
        raise ValueError("Incorrect lengths for f and s. The length of s along "
                         "the last axis must be one less than the length of f.")
    if s.shape[-1] == 0:
        raise ValueError("The length of s must be at least 1.")
    n = f.shape[-1]
    dt = numpy.result_type(f.dtype, s.dtype)
    # Row 0 is f; the subdiagonal (i, i - 1) is s: one elementwise kernel over two masks.
    s_ext = concatenate((s, zeros(s.shape[:-1] + (1,), dtype=s.dtype)), axis=-1)
    first = (arange(n) == 0)[:, None]
    below = eye(n, k=-1, dtype=bool)
    return where(first, f[..., None, :], where(below, s_ext[..., None, :], 0)).astype(dt)


def companion(a):
    """See `scipy.linalg.companion`; leading dimensions are batches (a zero first coefficient is
    checked with one device read).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> linalg.companion(cuarray.array([1., -3., 2.]))
    array([[ 3., -2.],
           [ 1.,  0.]])
    """
    a = _atleast_1d(a, "companion")
    n = a.shape[-1]
    if n < 2:
        raise ValueError("The length of `a` along the last axis must be at least 2.")
    if bool(any_(a[..., 0] == 0).get()):
        raise ValueError("The first coefficient(s) of `a` (i.e. elements of `a[..., 0]`) must not be zero.")
    first_row = -a[..., 1:] / (1.0 * a[..., 0:1])
    first = (arange(n - 1) == 0)[:, None]
    below = eye(n - 1, k=-1, dtype=bool)
    return where(first, first_row[..., None, :], where(below, 1, 0)).astype(first_row.dtype)


def block_diag(*arrs):
    """See `scipy.linalg.block_diag` (stacks too, as SciPy >= 1.17: leading dimensions are batch
    dimensions, broadcast across the arguments).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> linalg.block_diag(cuarray.array([[1, 2]]), cuarray.array([[3], [4]]))
    array([[1, 2, 0],
           [0, 0, 3],
           [0, 0, 4]])
    """
    if not arrs:
        return zeros((1, 0))
    arrs = [as_parameter(a, "block_diag") for a in arrs]
    arrs = [a.reshape((1,) * (2 - a.ndim) + a.shape) if a.ndim < 2 else a for a in arrs]
    batch = numpy.broadcast_shapes(*[a.shape[:-2] for a in arrs])  # (a zero-size batch too, as SciPy)
    shapes = numpy.array([a.shape[-2:] for a in arrs])
    out = zeros(batch + tuple(int(v) for v in numpy.sum(shapes, axis=0)),
                dtype=numpy.result_type(*[a.dtype for a in arrs]))
    r, c = 0, 0
    for a, (rr, cc) in zip(arrs, shapes):
        out[..., r:r + rr, c:c + cc] = a
        r += int(rr)
        c += int(cc)
    return out


def khatri_rao(a, b):
    """See `scipy.linalg.khatri_rao` (the column-wise Kronecker product); leading dimensions are
    batches.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> linalg.khatri_rao(cuarray.array([[1, 2], [3, 4]]), cuarray.array([[5, 6], [7, 8]]))
    array([[ 5, 12],
           [ 7, 16],
           [15, 24],
           [21, 32]])
    """
    a, b = as_parameter(a, "khatri_rao"), as_parameter(b, "khatri_rao")
    if a.ndim < 2 or b.ndim < 2:
        raise ValueError("The both arrays should be 2-dimensional.")
    if a.shape[-1] != b.shape[-1]:
        raise ValueError("The number of columns for both arrays should be equal.")
    c = a[..., :, None, :] * b[..., None, :, :]
    return c.reshape(c.shape[:-3] + (-1, a.shape[-1]))
