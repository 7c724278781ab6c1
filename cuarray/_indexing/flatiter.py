"""`ndarray.flat` and its iterator (NumPy "Indexing routines / Iterating over arrays": `flatiter`).

Indexing a flatiter indexes the array seen as 1-D in C order: a view of a C-contiguous array,
otherwise a C-order copy (a result of `a.flat[...]` is a copy in NumPy too). Assignment writes
through that view, or into the copy that is then copied back; like NumPy, a value shorter than
the selection is repeated (`a.flat[:6] = [1, 2]`). Iteration reads the whole array to the host
once (one synchronisation, not one per element) and yields NumPy scalars, as NumPy does.

A flat iterator is 1-D and takes NumPy 2.4's keys only (`flat_key`): no `None`, no tuple of more
than one index, boolean indices only as 1-D arrays of its size, with NumPy's IndexErrors and its
DeprecationWarnings (a Python bool or float key).
"""

from __future__ import annotations

import warnings

import numpy

from .._core.copying import copyto_unchecked
from .._core.host_input import as_array
from .._core.ndarray import ndarray
from .._creation.from_data import array
from .._manipulation.adding_removing import resize
from .._manipulation.shape import ravel

__all__ = ["flatiter", "flat_get", "flat_set", "flat_key"]

_ONLY = "only integers, slices (`:`), ellipsis (`...`) and integer or boolean arrays are valid indices"
_BOOL_SEQUENCE = ("boolean indices for iterators are not supported because of previous behavior that was "
                  "confusing (valid boolean indices are expected to work in the future)")
_BOOL_0D = ("Indexing flat iterators with a 0-dimensional boolean index is deprecated and may be removed "
            "in a future version. (Deprecated NumPy 2.4)")
_NON_ARRAY = ("Invalid non-array indices for iterator objects are deprecated and will be removed in a "
              "future version. (Deprecated NumPy 2.4)")


def _too_many(count: int) -> IndexError:
    return IndexError("too many indices for flat iterator: flat iterator is 1-dimensional, but {} were "
                      "indexed".format(count))


# The user's frame for a warning from `flat_key`: flatiter.__getitem__ -> flat_get -> flat_key.
_USER = 4


def _bool_0d(value: bool, stacklevel: int):
    """NumPy's deprecated 0-d boolean key: True selects the first element, False nothing."""
    warnings.warn(_BOOL_0D, DeprecationWarning, stacklevel=stacklevel)
    return 0 if value else slice(0, 0)


def _array_key(key, n: int, host: bool):
    """An integer or boolean array key (device or host) checked as NumPy's flat iterator checks it."""
    kind = key.dtype.kind
    if kind == "b":
        if key.ndim == 0:
            return _bool_0d(bool(key), _USER + 2)  # (a device 0-d bool is read: one synchronisation)
        if key.ndim > 1:
            raise _too_many(key.ndim)
        if key.shape[0] != n:
            raise IndexError("boolean index did not match indexed flat iterator along axis 0; size of axis is {} "
                             "but size of corresponding boolean axis is {}".format(n, key.shape[0]))
        return key
    if kind not in "iu":
        raise IndexError("arrays used as indices must be of integer (or boolean) type")
    return key.astype(numpy.intp, copy=False) if host else key


def flat_key(key, n: int, assign: bool):
    """`key` of `a.flat[key]` (`a.flat[key] = v` when `assign`) as an index of the 1-D view of
    `n` elements, refused where NumPy's flat iterator refuses it, with NumPy's messages."""
    if type(key) is tuple:
        if not key or (len(key) == 1 and key[0] is Ellipsis):
            if assign:
                raise IndexError("Assigning to a flat iterator with a 0-D index is not supported")
            return slice(None)
        if len(key) > 1:
            if any(k is None or k is Ellipsis for k in key):
                raise IndexError(_ONLY)
            count = 0
            for k in key:
                dt = getattr(k, "dtype", None)
                count += k.ndim if dt is not None and dt.kind == "b" else 1
            raise _too_many(count)
        key = key[0]
        if type(key) is tuple:  # a sequence inside the one index: an integer list, as NumPy reads it
            key = list(key)
        elif isinstance(key, bool):  # (True,) is a boolean sequence to NumPy, not a 0-d boolean
            raise IndexError(_BOOL_SEQUENCE)
    if key is None or isinstance(key, (str, bytes)):
        raise IndexError(_ONLY)
    if key is Ellipsis or isinstance(key, slice):
        return key
    if isinstance(key, bool):
        return _bool_0d(key, _USER + 1)
    if isinstance(key, numpy.bool_):
        raise IndexError(_BOOL_SEQUENCE)
    if isinstance(key, (int, numpy.integer)):
        return key
    if isinstance(key, (float, numpy.floating)):
        warnings.warn(_NON_ARRAY, DeprecationWarning, stacklevel=_USER)
        return int(key)
    if isinstance(key, ndarray):
        return _array_key(key, n, False)
    if isinstance(key, numpy.ndarray):
        return _array_key(key, n, True)
    if isinstance(key, list):
        host = numpy.asarray(key)
        if host.dtype.kind == "b":
            raise IndexError(_BOOL_SEQUENCE)
        if host.dtype.kind == "f" and host.size:
            warnings.warn(_NON_ARRAY, DeprecationWarning, stacklevel=_USER)
            host = host.astype(numpy.intp)
        elif host.dtype.kind not in "iu":
            host = numpy.array([int(k) for k in host.ravel()], numpy.intp).reshape(host.shape)  # NumPy's TypeError
        return host.astype(numpy.intp, copy=False)
    return key


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
    if isinstance(key, numpy.ndarray):
        return int(numpy.count_nonzero(key)) if key.dtype == numpy.bool_ else key.size
    if key is Ellipsis or (type(key) is tuple and not key):
        return n
    return None


def _cycled(value, count: int):
    """`value` repeated (C order) to `count` elements, NumPy's rule for flat assignment."""
    v = value if isinstance(value, ndarray) else (
        as_array(value, "flatiter") if not isinstance(value, (list, tuple, numpy.ndarray)) else array(value))
    if count == 0:
        return v.reshape((-1,))[:0]  # nothing selected: nothing written, whatever the value's length
    if v.size in (1, count) or v.size == 0:
        return v.reshape((-1,)) if v.ndim > 1 and v.size == count else v
    return resize(v.reshape((-1,)), (count,))


def flat_get(a: ndarray, key):
    key = flat_key(key, a.size, False)
    flat, _ = _flat_view(a)
    return flat[key]


def flat_set(a: ndarray, key, value) -> None:
    if not a._writeable:
        raise ValueError("assignment destination is read-only")
    key = flat_key(key, a.size, True)
    if isinstance(key, (ndarray, numpy.ndarray)) and key.dtype.kind in "iu" and key.ndim > 1:
        key = key.reshape(-1)  # the values go to the indexed positions in the index's C order
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
