"""Splitting arrays (NumPy "Array manipulation / Splitting arrays"): split, array_split, hsplit,
vsplit, dsplit, unstack. Every piece is a view (no kernel)."""

from __future__ import annotations

import operator

from .._core import shapes as _shapes

__all__ = ["split", "array_split", "hsplit", "vsplit", "dsplit", "unstack"]


def _piece(a, axis, start, stop):
    idx = [slice(None)] * a.ndim
    idx[axis] = slice(start, stop)
    return a[tuple(idx)]


def array_split(ary, indices_or_sections, axis=0):
    """See `numpy.array_split`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.array_split(cuarray.arange(5), 2)
    [array([0, 1, 2]), array([3, 4])]
    """
    axis = _shapes.normalize_axis_index(axis, ary.ndim)
    n = ary.shape[axis]
    try:
        sections = operator.index(indices_or_sections)
    except TypeError:
        bounds = [0] + [int(i) for i in indices_or_sections] + [n]
    else:
        if sections <= 0:
            raise ValueError("number sections must be larger than 0.")
        each, extra = divmod(n, sections)
        sizes = [each + 1] * extra + [each] * (sections - extra)
        bounds = [0]
        for s in sizes:
            bounds.append(bounds[-1] + s)
    return [_piece(ary, axis, bounds[i], bounds[i + 1]) for i in range(len(bounds) - 1)]


def split(ary, indices_or_sections, axis=0):
    """See `numpy.split`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.split(cuarray.arange(6), 3)
    [array([0, 1]), array([2, 3]), array([4, 5])]
    >>> cuarray.split(cuarray.arange(6), [1, 4])
    [array([0]), array([1, 2, 3]), array([4, 5])]
    """
    try:
        sections = operator.index(indices_or_sections)
    except TypeError:
        return array_split(ary, indices_or_sections, axis)
    n = ary.shape[_shapes.normalize_axis_index(axis, ary.ndim)]
    if sections <= 0 or n % sections:
        if sections == 0:  # NumPy's split takes n % sections before array_split's check
            raise ZeroDivisionError("integer modulo by zero")
        if sections < 0:
            raise ValueError("number sections must be larger than 0.")
        raise ValueError("array split does not result in an equal division")
    return array_split(ary, sections, axis)


def hsplit(ary, indices_or_sections):
    """See `numpy.hsplit`.

    Examples
    --------
    >>> import cuarray
    >>> left, right = cuarray.hsplit(cuarray.arange(8).reshape(2, 4), 2)
    >>> left
    array([[0, 1],
           [4, 5]])
    """
    if ary.ndim == 0:
        raise ValueError("hsplit only works on arrays of 1 or more dimensions")
    return split(ary, indices_or_sections, 1 if ary.ndim > 1 else 0)


def vsplit(ary, indices_or_sections):
    """See `numpy.vsplit`.

    Examples
    --------
    >>> import cuarray
    >>> top, bottom = cuarray.vsplit(cuarray.arange(8).reshape(4, 2), 2)
    >>> bottom
    array([[4, 5],
           [6, 7]])
    """
    if ary.ndim < 2:
        raise ValueError("vsplit only works on arrays of 2 or more dimensions")
    return split(ary, indices_or_sections, 0)


def dsplit(ary, indices_or_sections):
    """See `numpy.dsplit`.

    Examples
    --------
    >>> import cuarray
    >>> [p.shape for p in cuarray.dsplit(cuarray.ones((2, 2, 4)), 2)]
    [(2, 2, 2), (2, 2, 2)]
    """
    if ary.ndim < 3:
        raise ValueError("dsplit only works on arrays of 3 or more dimensions")
    return split(ary, indices_or_sections, 2)


def unstack(x, /, *, axis=0) -> tuple:
    """See `numpy.unstack`: a tuple of views, one per index along `axis`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.unstack(cuarray.arange(6).reshape(2, 3))
    (array([0, 1, 2]), array([3, 4, 5]))
    """
    if x.ndim == 0:
        raise ValueError("Input array must be at least 1-d.")
    axis = _shapes.normalize_axis_index(axis, x.ndim)
    return tuple(_piece(x, axis, i, i + 1).squeeze(axis) for i in range(x.shape[axis]))
