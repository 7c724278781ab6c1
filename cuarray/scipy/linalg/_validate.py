"""Input handling shared by cuarray.scipy.linalg: SciPy's dtype rule on top of cuarray.linalg's
(float16 is computed in float32, as SciPy's LAPACK wrappers do, where NumPy refuses it)."""

from __future__ import annotations

import numpy

from ...linalg._util import as_array

__all__ = ["as_lapack", "square"]


def as_lapack(x, fn: str):
    """`x` as a cuarray array (host input by cuarray's policy), float16 cast to float32."""
    a = as_array(x, fn)
    return a.astype(numpy.float32) if a.dtype == numpy.float16 else a


def square(a, message: str = "expected square matrix", exc=ValueError):
    """Raise `exc(message)` unless `a` is a (stack of) square matrices."""
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise exc(message)
    return a
