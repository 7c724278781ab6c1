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
    """See `numpy.array2string` (of a host copy).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.array2string(cuarray.array([1.5, 2.0, 3.25]))
    '[1.5  2.   3.25]'
    >>> cuarray.array2string(cuarray.array([1, 2, 3]), separator=', ')
    '[1, 2, 3]'
    """
    return numpy.array2string(_host(a), *args, **kwargs)


def array_repr(arr, *args, **kwargs) -> str:
    """See `numpy.array_repr` (of a host copy; NumPy's text, 'array(...)').

    Examples
    --------
    >>> import cuarray
    >>> cuarray.array_repr(cuarray.array([1.0, 2.0], dtype=cuarray.float32))
    'array([1., 2.], dtype=float32)'
    """
    return numpy.array_repr(_host(arr), *args, **kwargs)


def array_str(a, *args, **kwargs) -> str:
    """See `numpy.array_str` (of a host copy).

    Examples
    --------
    >>> import cuarray
    >>> print(cuarray.array_str(cuarray.arange(6).reshape(2, 3)))
    [[0 1 2]
     [3 4 5]]
    """
    return numpy.array_str(_host(a), *args, **kwargs)
