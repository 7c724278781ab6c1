"""More of SciPy's special matrices and `bandwidth`: dft, fiedler, fiedler_companion and
convolution_matrix gathered on the GPU from their defining vectors (batched over leading
dimensions where SciPy 1.18 batches); pascal and invpascal, which depend only on n, built on the
host in exact integer arithmetic and copied once."""

from __future__ import annotations

import math

import numpy

from ..._core.host_input import as_parameter
from ..._creation.from_data import asarray
from ..._creation.basic import empty, zeros
from ..._creation.ranges import arange
from ..._indexing.inserting import take
from ..._logic.truth import any as any_
from ..._manipulation.joining import concatenate
from ..._math.explog import exp
from ..._math.misc import abs as abs_
from ..._sorting.searching import where
from ..._statistics.order import max as max_
from ...linalg._util import as_array

__all__ = ["bandwidth", "convolution_matrix", "dft", "fiedler", "fiedler_companion", "pascal", "invpascal"]


def _vec(a, fn):
    a = as_parameter(a, fn)
    return a.reshape(1) if a.ndim == 0 else a


def bandwidth(a):
    """See `scipy.linalg.bandwidth`. Two masked max-reductions and one device read; a stack
    gives two int64 device arrays of the batch shape (SciPy: NumPy arrays), one matrix two ints.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> linalg.bandwidth(cuarray.array([[1., 2., 0.], [0., 3., 0.], [4., 0., 5.]]))
    (2, 1)
    """
    a = as_array(a, "bandwidth")
    if a.ndim < 2:
        raise ValueError("Input array must be at least 2D.")
    if a.dtype.char in "egG":
        raise TypeError("Input array with {} dtype is not supported.".format(a.dtype))
    if a.dtype.kind not in "biufc":
        raise TypeError("Input array must have a numeric dtype, got {}.".format(a.dtype))
    m, n = a.shape[-2:]
    if a.size == 0:
        if a.ndim == 2:
            return 0, 0
        return zeros(a.shape[:-2], dtype=numpy.int64), zeros(a.shape[:-2], dtype=numpy.int64)
    off = arange(m, dtype=numpy.int64)[:, None] - arange(n, dtype=numpy.int64)[None, :]  # i - j
    nz = a != 0
    lower = max_(where(nz, off, 0), axis=(-2, -1))
    upper = max_(where(nz, -off, 0), axis=(-2, -1))
    if a.ndim == 2:
        both = concatenate((lower.reshape(1), upper.reshape(1))).get()
        return int(both[0]), int(both[1])
    return lower, upper


def convolution_matrix(a, n, mode="full"):
    """See `scipy.linalg.convolution_matrix`; leading dimensions of `a` are batches (one gather).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> linalg.convolution_matrix(cuarray.array([1., 2.]), 2)
    array([[1., 0.],
           [2., 1.],
           [0., 2.]])
    """
    if n <= 0:
        raise ValueError("n must be a positive integer.")
    a = as_parameter(a, "convolution_matrix")
    if a.size == 0:
        raise ValueError("len(a) must be at least 1.")
    if mode not in ("full", "valid", "same"):
        raise ValueError("'mode' argument must be one of ('full', 'valid', 'same')")
    a = a.reshape(1) if a.ndim == 0 else a
    m = a.shape[-1]
    idx = _convolution_index(m, n, mode)
    ext = concatenate((a, zeros(a.shape[:-1] + (1,), dtype=a.dtype)), axis=-1)
    return take(ext, asarray(idx.ravel()), axis=-1).reshape(a.shape[:-1] + idx.shape)


def _convolution_index(m: int, n: int, mode: str) -> numpy.ndarray:
    """A[i, j] = a[i + tb - j] where 0 <= i + tb - j < m, else index m (a zero appended to a);
    tb and the row count per mode as numpy.convolve trims the full product."""
    if mode == "full":
        rows, tb = m + n - 1, 0
    elif mode == "same":
        rows, tb = max(m, n), (min(n, m) - 1) // 2
    else:
        rows, tb = max(m, n) - min(m, n) + 1, min(n, m) - 1
    idx = numpy.arange(rows)[:, None] + tb - numpy.arange(n)[None, :]
    return numpy.where((idx >= 0) & (idx < m), idx, m)


def dft(n, scale=None):
    """See `scipy.linalg.dft`. Each entry is exp(-2 pi i ((j k) mod n) / n), built on the GPU:
    the reduced exponent keeps large n as accurate as small (SciPy raises powers of a root).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> linalg.dft(4).shape
    (4, 4)
    """
    if scale not in (None, "sqrtn", "n"):
        raise ValueError("scale must be None, 'sqrtn', or 'n'; {!r} is not valid.".format(scale))
    k = arange(n, dtype=numpy.int64)
    jk = (k[:, None] * k[None, :]) % max(n, 1)
    m = exp(jk * (-2j * math.pi / n)) if n else empty((0, 0), dtype=numpy.complex128)
    if scale == "sqrtn":
        m = m / math.sqrt(n)
    elif scale == "n":
        m = m / n
    return m


def fiedler(a):
    """See `scipy.linalg.fiedler`; leading dimensions are batches.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> linalg.fiedler(cuarray.array([1., 4., 2.]))
    array([[0., 3., 1.],
           [3., 0., 2.],
           [1., 2., 0.]])
    """
    a = _vec(a, "fiedler")
    if a.size == 0:
        return empty(a.shape[:-1] + (a.shape[-1], a.shape[-1]), dtype=a.dtype)
    if a.size == 1:
        return zeros((1, 1))
    return abs_(a[..., :, None] - a[..., None, :])


def _fiedler_companion_index(n: int) -> numpy.ndarray:
    """Where each entry of the n x n Fiedler companion comes from in ext = (-a1..-an, 1, 0)
    (a normalised to a0 = 1): -a_k is ext[k - 1], one is ext[n], zero ext[n + 1]."""
    t = numpy.full((n, n), n + 1)
    r = numpy.arange(3, n, 2)
    t[r, r - 2] = n
    r = numpy.arange(2, n, 2)
    t[r, r - 1] = r                # -a[r + 1]
    r = numpy.arange(0, n - 2, 2)
    t[r, r + 2] = n
    r = numpy.arange(0, n - 1, 2)
    t[r, r + 1] = r + 1            # -a[r + 2]
    t[0, 0], t[1, 0] = 0, n        # -a[1], 1
    return t


def fiedler_companion(a):
    """See `scipy.linalg.fiedler_companion`; leading dimensions are batches (a zero leading
    coefficient is checked with one device read).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> linalg.fiedler_companion(cuarray.array([1., -6., 11., -6.]))
    array([[  6., -11.,   1.],
           [  1.,   0.,   0.],
           [  0.,   6.,   0.]])
    """
    a = _vec(a, "fiedler_companion")
    size = a.shape[-1]
    batch = a.shape[:-1]
    if size <= 2:
        if size == 2:
            return (-(a[..., 1:] / a[..., :1]))[..., None]
        if size == 1:
            return empty(batch + (0, 0), dtype=a.dtype)
        return empty(batch + (0,), dtype=a.dtype)
    if bool(any_(a[..., 0] == 0).get()):
        raise ValueError("Leading coefficient is zero.")
    an = a / a[..., :1]
    n = size - 1
    one = numpy.ones(batch + (1,), dtype=an.dtype)
    ext = concatenate((-an[..., 1:], asarray(numpy.concatenate((one, 0 * one), axis=-1))), axis=-1)
    return take(ext, asarray(_fiedler_companion_index(n).ravel()), axis=-1).reshape(batch + (n, n))


def _host_scipy_matrix(name, n, kind, exact):
    # host work: an n-only integer matrix, exact as SciPy's (uint64/int64, or Python ints past n 34)
    from scipy import linalg as _sl

    m = getattr(_sl, name)(n, kind=kind, exact=exact)
    return m if m.dtype == object else asarray(m)


def pascal(n, kind="symmetric", exact=True):
    """See `scipy.linalg.pascal`. Built on the host (exact integers, as SciPy's) and copied once;
    where SciPy returns a NumPy object array (exact, n >= 35) so does this (no object arrays on
    the GPU).

    Examples
    --------
    >>> from cuarray.scipy import linalg
    >>> linalg.pascal(3)
    array([[1, 1, 1],
           [1, 2, 3],
           [1, 3, 6]], dtype=uint64)
    """
    if kind not in ("symmetric", "lower", "upper"):
        raise ValueError("kind must be 'symmetric', 'lower', or 'upper'")
    return _host_scipy_matrix("pascal", n, kind, exact)


def invpascal(n, kind="symmetric", exact=True):
    """See `scipy.linalg.invpascal`. Built on the host (exact integers, as SciPy's) and copied
    once; a NumPy object array where SciPy returns one (exact, n > 34).

    Examples
    --------
    >>> from cuarray.scipy import linalg
    >>> linalg.invpascal(3)
    array([[ 3, -3,  1],
           [-3,  5, -2],
           [ 1, -2,  1]])
    """
    if kind not in ("symmetric", "lower", "upper"):
        raise ValueError("'kind' must be 'symmetric', 'lower' or 'upper'.")
    return _host_scipy_matrix("invpascal", n, kind, exact)
