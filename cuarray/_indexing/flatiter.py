"""`ndarray.flat` and its iterator (NumPy "Indexing routines / Iterating over arrays": `flatiter`).

Indexing a flatiter indexes the array seen as 1-D in C order: a view of a C-contiguous array,
otherwise a C-order copy (a result of `a.flat[...]` is a copy in NumPy too). Assignment writes
through that view, or into the copy that is then copied back; like NumPy, a value shorter than
the selection is repeated (`a.flat[:6] = [1, 2]`). Iteration reads the whole array to the host
once (one synchronisation, not one per element) and yields NumPy scalars, as NumPy does.
"""

from __future__ import annotations

import numpy

from .._core.copying import copyto_unchecked
from .._core.host_input import as_array
from .._core.ndarray import ndarray
from .._creation.from_data import array
from .._manipulation.adding_removing import resize
from .._manipulation.shape import ravel

__all__ = ["flatiter", "flat_get", "flat_set"]


def _flat_view(a: ndarray):
    """(1-D array in C order, is_view)."""
    if a._c:
        return a.reshape((a.size,)), True

    flat = ravel(a, order="C")
    return flat, flat._root() is a._root()


def _selection_size(n: int, key, flat: ndarray) -> int | None:
    """How many elements `flat[key]` selects (None when the key is not a simple 1-D index)."""
    if isinstance(key, (int, numpy.integer)):
        return 1
    if isinstance(key, slice):
        return len(range(*key.indices(n)))
    if isinstance(key, ndarray):
        if key.dtype == numpy.bool_:
            return int(key.sum())  # the count of a boolean index
        return key.size
    if key is Ellipsis or (type(key) is tuple and not key):
        return n
    return None


def _cycled(value, count: int):
    """`value` repeated (C order) to `count` elements, NumPy's rule for flat assignment."""
    v = value if isinstance(value, ndarray) else (
        as_array(value, "flatiter") if not isinstance(value, (list, tuple, numpy.ndarray)) else array(value))
    if v.size in (1, count) or v.size == 0 or count == 0:
        return v.reshape((-1,)) if v.ndim > 1 and v.size == count else v
    return resize(v.reshape((-1,)), (count,))


def flat_get(a: ndarray, key):
    flat, _ = _flat_view(a)
    return flat[key]


def flat_set(a: ndarray, key, value) -> None:
    if not a._writeable:
        raise ValueError("assignment destination is read-only")
    flat, is_view = _flat_view(a)
    count = _selection_size(a.size, key, flat)
    if count is not None:
        value = _cycled(value, count)
    flat[key] = value
    if not is_view:
        copyto_unchecked(a, flat.reshape(a.shape))


class flatiter:
    """A flat iterator over an array. See `numpy.flatiter`: index it (`a.flat[3]`,
    `a.flat[2:5] = 1`), iterate it, `copy()` it.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.arange(6).reshape(2, 3)
    >>> int(a.flat[4])
    4
    >>> a.flat[[1, 5]]
    array([1, 5])
    >>> a.flat[2:4] = 0
    >>> a
    array([[0, 1, 0],
           [0, 4, 5]])
    """

    __slots__ = ("_base", "_index", "_host")

    def __init__(self, base: ndarray):
        self._base = base
        self._index = 0
        self._host = None

    @property
    def base(self) -> ndarray:
        return self._base

    @property
    def index(self) -> int:
        return self._index

    @property
    def coords(self) -> tuple:
        shape = self._base.shape
        if not shape:
            return ()
        return tuple(int(c) for c in numpy.unravel_index(min(self._index, max(self._base.size - 1, 0)), shape))

    def __len__(self) -> int:
        return self._base.size

    def __getitem__(self, key):
        return flat_get(self._base, key)

    def __setitem__(self, key, value) -> None:
        flat_set(self._base, key, value)

    def __iter__(self):
        return self

    def __next__(self):
        if self._host is None:
            self._host = self._base.get().ravel(order="C")  # one host copy for the whole iteration
        if self._index >= self._host.size:
            raise StopIteration
        v = self._host[self._index]
        self._index += 1
        return v

    def copy(self) -> ndarray:
        """A 1-D copy of the array in C order. See `numpy.flatiter.copy`."""
        out = ravel(self._base, order="C")
        return out.copy() if out._root() is self._base._root() else out

    def __array__(self, dtype=None, copy=None):
        raise TypeError("Implicit conversion to a NumPy array is not allowed. Please use `.copy().get()`.")


def _flat_property_get(self) -> flatiter:
    return flatiter(self)


def _flat_property_set(self, value) -> None:
    flat_set(self, slice(None), value)


flat_property = property(_flat_property_get, _flat_property_set, doc="See `numpy.ndarray.flat`.")
