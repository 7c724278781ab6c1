"""`cov` and `corrcoef` (NumPy "Statistics / Correlating"; `correlate` lives with `convolve` in
`_math/convolution.py`).

NumPy's formulas on the device: weighted means (`average`), one centred product through cuBLAS
(`dot`), the normalisation as ufuncs. Checks on `fweights`/`aweights` (integral, non-negative)
read one bool back to the host each, as they must to raise before computing; the degrees of
freedom with weights read `w_sum` back (NumPy warns on a non-positive value).
"""

from __future__ import annotations

import warnings

import numpy

from .._core.host_input import as_array
from .._core.ndarray import ndarray
from .._creation.basic import zeros
from .._creation.from_data import array
from .._creation.matrices import diag
from .._manipulation.joining import concatenate
from .._math.misc import clip, sqrt
from .._math.rounding import around
from .._math.sums import sum as sum_
from .averages import average

__all__ = ["cov", "corrcoef"]


def _weights(w, n, what, integral):
    w = as_array(w, "cov").astype(numpy.float64)
    if integral:
        if not bool((w == around(w)).all()):
            raise TypeError("fweights must be integer")
    if w.ndim > 1:
        raise RuntimeError("cannot handle multidimensional {}".format(what))
    if w.shape[0] != n:
        raise RuntimeError("incompatible numbers of samples and {}".format(what))
    if bool((w < 0).any()):
        raise ValueError("{} cannot be negative".format(what))
    return w


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *, dtype=None):
    """See `numpy.cov`.

    Examples
    --------
    >>> import cuarray
    >>> x = cuarray.array([[0., 1., 2.], [2., 1., 0.]])
    >>> cuarray.cov(x)
    array([[ 1., -1.],
           [-1.,  1.]])
    """
    if ddof is not None and ddof != int(ddof):
        raise ValueError("ddof must be integer")
    m = as_array(m, "cov")
    if m.ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    if y is not None:
        y = as_array(y, "cov")
        if y.ndim > 2:
            raise ValueError("y has more than 2 dimensions")
    if dtype is None:
        dtype = numpy.result_type(m.dtype, numpy.float64) if y is None else numpy.result_type(
            m.dtype, y.dtype, numpy.float64)
    X = array(m, ndmin=2, dtype=dtype)
    if not rowvar and m.ndim != 1:
        X = X.T
    if X.shape[0] == 0:
        return zeros((0, 0), numpy.float64)
    if y is not None:
        y = array(y, copy=None, ndmin=2, dtype=dtype)
        if not rowvar and y.shape[0] != 1:
            y = y.T
        X = concatenate((X, y), axis=0)
    if ddof is None:
        ddof = 1 if bias == 0 else 0
    w = None
    if fweights is not None:
        w = _weights(fweights, X.shape[1], "fweights", True)
    if aweights is not None:
        aw = _weights(aweights, X.shape[1], "aweights", False)
        w = aw if w is None else w * aw
    avg, w_sum = average(X, axis=1, weights=w, returned=True)
    if w is None:
        fact = X.shape[1] - ddof
    else:
        w_sum = w_sum[0].get()[()]  # a NumPy scalar: the arithmetic below is NumPy's
        if ddof == 0:
            fact = w_sum
        elif aweights is None:
            fact = w_sum - ddof
        else:
            fact = w_sum - ddof * sum_(w * aw).get()[()] / w_sum
    if fact <= 0:
        warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning, stacklevel=2)
        fact = 0.0
    X -= avg[:, None]
    X_T = X.T if w is None else (X * w).T
    c = X.dot(X_T.conj())  # the method: products live in linalg, above statistics
    c *= numpy.true_divide(1, fact)
    return c.squeeze()


def corrcoef(x, y=None, rowvar=True, *, dtype=None):
    """See `numpy.corrcoef`.

    Examples
    --------
    >>> import cuarray
    >>> x = cuarray.array([[0., 1., 2.], [2., 1., 0.]])
    >>> cuarray.corrcoef(x)
    array([[ 1., -1.],
           [-1.,  1.]])
    """
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim != 2:
        return c / c
    d = diag(c)
    stddev = sqrt(d.real)
    c /= stddev[:, None]
    c /= stddev[None, :]
    if c.dtype.kind == "c":
        re = clip(c.real, -1, 1)
        im = clip(c.imag, -1, 1)
        c.real = re
        c.imag = im
    else:
        clip(c, -1, 1, out=c)
    return c
