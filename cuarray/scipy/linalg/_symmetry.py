"""issymmetric and ishermitian: a comparison of the matrix with its (conjugate) transpose and one
reduction over each matrix, on the device; batched over leading dimensions as SciPy 1.18."""

from __future__ import annotations

import numpy

from ..._creation.matrices import eye
from ..._logic.comparison_reduce import isclose
from ..._logic.truth import all as all_
from ..._logic.truth import any as any_
from ..._math.complex import conj
from ...linalg._util import as_array
from ._validate import batch_shape, deprecate_dtypes

__all__ = ["issymmetric", "ishermitian"]


def _matches_transpose(a, atol, rtol, fn, hermitian):
    """True where each matrix of `a` equals its transpose (conjugate transpose for `hermitian`
    and complex input) as SciPy's Cython check decides: exactly, with the diagonal skipped unless
    a complex matrix is checked for being Hermitian; with `atol`/`rtol` given (and `a` not of an
    integer type), numpy.allclose's test over every entry, the diagonal included. A Python bool
    for one matrix (one device read), a device bool array of the batch shape for a stack."""
    a = as_array(a, fn)
    deprecate_dtypes(fn, a, stacklevel=4)
    batch_shape(fn, a.shape[:-2])
    if a.ndim < 2:
        raise ValueError("Input array must be a 2D NumPy array.")
    n = a.shape[-1]
    if a.shape[-2] != n:
        raise ValueError("Input array must be square.")
    conjugate = hermitian and a.dtype.kind == "c"
    t = conj(a.mT) if conjugate else a.mT
    if (atol or rtol) and a.dtype.kind not in "iu":
        same = all_(isclose(a, t, rtol=rtol if rtol else 0.0, atol=atol if atol else 0.0), axis=(-2, -1))
    else:
        if a.dtype.char == "e":  # SciPy's Cython routine has no float16 loop
            raise TypeError("{}: no exact comparison for float16 input (give atol or rtol, or cast it to "
                            "float32)".format(fn))
        differ = a != t
        if not conjugate:  # SciPy skips the diagonal there (a NaN on it does not count)
            differ = differ & ~eye(n, dtype=numpy.bool_)
        same = ~any_(differ, axis=(-2, -1))
    return bool(same) if a.ndim == 2 else same


def issymmetric(a, atol=None, rtol=None):
    """See `scipy.linalg.issymmetric`. One elementwise comparison with the transpose and one
    reduction on the device; one matrix gives a Python bool (one device read), a stack a device
    bool array of the batch shape (SciPy: a NumPy array), read by nothing.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> linalg.issymmetric(cuarray.array([[1., 2.], [2., 3.]]))
    True
    >>> linalg.issymmetric(cuarray.array([[1., 2.], [2.001, 3.]]), atol=0.01)
    True
    """
    return _matches_transpose(a, atol, rtol, "issymmetric", False)


def ishermitian(a, atol=None, rtol=None):
    """See `scipy.linalg.ishermitian`. As `issymmetric`, against the conjugate transpose (for a
    complex matrix the diagonal is checked too, as SciPy's).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import linalg
    >>> linalg.ishermitian(cuarray.array([[1., 2. + 3.j], [2. - 3.j, 4.]]))
    True
    >>> linalg.ishermitian(cuarray.array([[1. + 1.j, 0.], [0., 1.]]))
    False
    """
    return _matches_transpose(a, atol, rtol, "ishermitian", True)
