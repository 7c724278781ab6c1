"""Input handling shared by cuarray.scipy.linalg: SciPy's dtype rule on top of cuarray.linalg's
(float16 is computed in float32, as SciPy's LAPACK wrappers do, where NumPy refuses it)."""

from __future__ import annotations

import numpy

from ...linalg._util import as_array

__all__ = ["as_lapack", "LinAlgWarning"]


def as_lapack(x, fn: str):
    """`x` as a cuarray array (host input by cuarray's policy), float16 cast to float32."""
    a = as_array(x, fn)
    return a.astype(numpy.float32) if a.dtype == numpy.float16 else a


class LinAlgWarning(RuntimeWarning):
    """See `scipy.linalg.LinAlgWarning`. Exported for code that filters it; cuarray does not emit
    it (detecting ill-conditioning would cost a device read per call)."""
