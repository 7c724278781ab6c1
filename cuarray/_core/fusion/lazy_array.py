"""The `LazyArray` type: a node of a lazy graph with its shape and dtype (metadata only).

Defined here, below `fast_paths` and `lazy_mode`, so both name the one type without importing
each other; `lazy_mode` binds its computing methods and operators at import (as
`_array_methods` does for `ndarray`).
"""

from __future__ import annotations

from .. import shapes as _shapes
from ..nodecore import LAYOUTS as _LAYOUTS
from ..nodecore import leaf_class as _leaf_class

__all__ = ["LazyArray", "MAX_CHAIN"]

# A lazy elementwise chain longer than this is computed when built (a loop that never looks at
# its values would otherwise make one kernel of thousands of nodes, slow to compile). Reasoned:
# 128 nodes compile in well under a second and are far past any memory-bound gain.
MAX_CHAIN = 128


class _LazyFields:
    """A LazyArray's field as a Python slot: `_nodecore.LazyFields`'s fallback (the C operators
    read and write it without a look-up by name; one layout: `nodecore.LAYOUTS`)."""

    __slots__ = _LAYOUTS["LazyFields"]


class _LazyMethods:
    """An array whose value is computed when needed. See `cuarray.lazy`; shape, dtype, ndim and
    size are known without computing anything.

    Examples
    --------
    >>> import numpy as np
    >>> import cuarray
    >>> with cuarray.lazy(evaluate="numpy") as lz:   # NumPy leaves: no GPU needed
    ...     y = lz.leaf(np.ones((2, 3))) * 2
    ...     print(type(y).__name__, y.shape, y.dtype, y.ndim, y.size)
    LazyArray (2, 3) float64 2 6
    """

    __slots__ = ()  # (`LazyArray`'s methods: `_node` is the base's)
    __array_priority__ = 200  # NumPy defers to our reflected operators

    def __init__(self, node):
        self._node = node

    shape = property(lambda self: self._node.shape)
    dtype = property(lambda self: self._node.dtype)
    ndim = property(lambda self: len(self._node.shape))
    size = property(lambda self: self._node.size)
    itemsize = property(lambda self: self._node.dtype.itemsize)
    nbytes = property(lambda self: self._node.size * self._node.dtype.itemsize)
    strides = property(lambda self: _shapes.c_strides(self._node.shape, self._node.dtype.itemsize))

    @property
    def is_computed(self) -> bool:
        return self._node.value is not None


LazyArray = _leaf_class("lazy", "LazyArray", _LazyMethods, _LazyFields)  # (C over `LazyFields` where built)
