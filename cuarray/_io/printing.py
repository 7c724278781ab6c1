"""String formatting of arrays and NumPy's printing options (NumPy "Input and output / String
formatting", "Text formatting options", "Base-n representations").

Printing happens on the host: each function copies the device array to the host (synchronising)
and asks NumPy, so `repr`, `str` and these agree with NumPy and follow its print options, which
`set_printoptions`/`printoptions` (NumPy's own, re-exported in `cuarray/__init__.py`) change.
"""

from __future__ import annotations

import numpy

from .._core.ndarray import ndarray

__all__ = ["array2string", "array_repr", "array_str"]


def _host(a):
    return a.get() if isinstance(a, ndarray) else a


def array2string(a, *args, **kwargs) -> str:
    """See `numpy.array2string` (of a host copy)."""
    return numpy.array2string(_host(a), *args, **kwargs)


def array_repr(arr, *args, **kwargs) -> str:
    """See `numpy.array_repr` (of a host copy; NumPy's text, 'array(...)')."""
    return numpy.array_repr(_host(arr), *args, **kwargs)


def array_str(a, *args, **kwargs) -> str:
    """See `numpy.array_str` (of a host copy)."""
    return numpy.array_str(_host(a), *args, **kwargs)
