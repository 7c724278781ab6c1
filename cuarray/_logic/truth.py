"""Truth value testing (NumPy "Logic functions / Truth value testing"): all, any.

Results are arrays (0-d for a full reduction), not Python bools: no device synchronisation.
"""

from __future__ import annotations

from .._core import reduction_ops as _r

__all__ = ["all", "any"]


def all(a, axis=None, out=None, keepdims=False, *, where=True):  # noqa: A001
    """See `numpy.all`.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([[True, False], [True, True]])
    >>> bool(cuarray.all(a))  # a host value: waits for the GPU
    False
    >>> cuarray.all(a, axis=0)
    array([ True, False])
    """
    return _r.reduce_fast("all", a, axis, None, out, keepdims, _r.NOVALUE, where)


def any(a, axis=None, out=None, keepdims=False, *, where=True):  # noqa: A001
    """See `numpy.any`.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.array([[True, False], [True, True]])
    >>> bool(cuarray.any(a))
    True
    >>> cuarray.any(a, axis=1)
    array([ True,  True])
    """
    return _r.reduce_fast("any", a, axis, None, out, keepdims, _r.NOVALUE, where)
