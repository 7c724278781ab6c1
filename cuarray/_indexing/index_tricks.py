"""Index tricks (NumPy "Indexing routines": `r_`, `c_`, `s_`, `index_exp`, `mgrid`, `ogrid`,
`ndindex`, `ndenumerate`).

`s_`, `index_exp` and `ndindex` touch no array data: they are NumPy's own objects. `r_`/`c_` and
`mgrid`/`ogrid` parse the index on the host exactly as NumPy does (`parse_concat_key`,
`grid_plan`: pure Python, tested without a GPU) and build the result on the device with
`arange`/`linspace`/`indices`/`concatenate`. Items of `r_[...]` that are lists or NumPy arrays are
host data given to an array constructor, so they are copied as `cuarray.array` would.
"""

from __future__ import annotations

import math

import numpy

from .._core.host_input import as_array
from .._core.ndarray import ndarray
from .._creation.from_data import array
from .._creation.ranges import arange, linspace
from .._manipulation.joining import concatenate
from .generating import indices

__all__ = ["r_", "c_", "s_", "index_exp", "mgrid", "ogrid", "ndindex", "ndenumerate",
           "parse_concat_key", "grid_plan"]

# Pure index objects: NumPy's own (a tuple of slices is the same object in both libraries).
s_ = numpy.s_
index_exp = numpy.index_exp
ndindex = numpy.ndindex

_SCALARS = (int, float, complex, bool, numpy.generic)


def _is_complex_step(step) -> bool:
    return isinstance(step, (complex, numpy.complexfloating))


# -- mgrid / ogrid ------------------------------------------------------------------------------
def grid_plan(key):
    """The host part of `mgrid[key]`: per slice (start, stop, step-or-count, size), and the dtype.

    Mirrors NumPy's nd_grid: a complex step ``Nj`` means N points with the stop included; the
    dtype is `result_type(0, start, stop, step, ...)` (at least `int_`, weak Python scalars)."""
    size = []
    num_list = [0]
    for k in key:
        start = 0 if k.start is None else k.start
        step = 1 if k.step is None else k.step
        if _is_complex_step(step):
            step = abs(step)
            size.append(int(step))
        else:
            size.append(math.ceil((k.stop - start) / step))
        num_list += [start, k.stop, step]
    typ = numpy.result_type(*num_list)
    coeffs = []
    for k in key:
        start = 0 if k.start is None else k.start
        step = 1 if k.step is None else k.step
        if _is_complex_step(step):
            step = int(abs(step))
            if step != 1:
                step = (k.stop - start) / float(step - 1)
        coeffs.append((start, step))
    return size, typ, coeffs


class _GridClass:
    """`mgrid` (dense) and `ogrid` (open). See `numpy.mgrid` / `numpy.ogrid`."""

    __slots__ = ("sparse",)

    def __init__(self, sparse):
        self.sparse = sparse

    def __getitem__(self, key):
        if isinstance(key, slice):
            return self._one(key)
        key = tuple(key)
        size, typ, coeffs = grid_plan(key)
        size = [int(s) for s in size]
        if self.sparse:
            nn = [arange(s, dtype=typ) for s in size]  # a negative size is an empty axis here
            size = [max(s, 0) for s in size]
            out = []
            for k, (start, step) in enumerate(coeffs):
                v = nn[k] * step + start
                shape = [1] * len(size)
                shape[k] = size[k]
                out.append(v.reshape(tuple(shape)))
            return tuple(out)
        if any(s < 0 for s in size):
            raise ValueError("negative dimensions are not allowed")  # NumPy's `indices` error
        nn = indices(size, typ)
        for k, (start, step) in enumerate(coeffs):
            nn[k] = nn[k] * step + start
        return nn

    @staticmethod
    def _one(key):
        start = 0 if key.start is None else key.start
        step = key.step
        if _is_complex_step(step):
            step_float = abs(step)
            step = length = int(step_float)
            if step != 1:
                step = (key.stop - start) / float(step - 1)
            typ = numpy.result_type(start, key.stop, step_float)
            return arange(0, length, 1, dtype=typ) * step + start
        return arange(start, key.stop, step)

    def __len__(self):
        return 0


mgrid = _GridClass(False)
ogrid = _GridClass(True)


# -- r_ / c_ ----------------------------------------------------------------------------------
def parse_concat_key(key, axis=0, ndmin=1, trans1d=-1):
    """Split an `r_[...]` key into (items, axis, ndmin, trans1d): the directive string (NumPy's
    "axis,ndmin,trans1d" or an axis) is read, 'r'/'c' (matrix output) is refused."""
    if isinstance(key, str):
        raise NotImplementedError("cuarray has no matrix class: r_/c_ with a matrix string is not supported")
    if not isinstance(key, tuple):
        key = (key,)
    items = []
    for k, item in enumerate(key):
        if isinstance(item, str):
            if k != 0:
                raise ValueError("special directives must be the first entry.")
            if item in ("r", "c"):
                raise NotImplementedError("cuarray has no matrix class: the 'r'/'c' directives are not supported")
            if "," in item:
                vec = item.split(",")
                try:
                    axis, ndmin = [int(x) for x in vec[:2]]
                    if len(vec) == 3:
                        trans1d = int(vec[2])
                    continue
                except Exception as e:
                    raise ValueError("unknown special directive {!r}".format(item)) from e
            try:
                axis = int(item)
                continue
            except (ValueError, TypeError) as e:
                raise ValueError("unknown special directive") from e
        items.append(item)
    return items, axis, ndmin, trans1d


def _ndmin(a: ndarray, ndmin: int) -> ndarray:
    if a.ndim < ndmin:
        return a.reshape((1,) * (ndmin - a.ndim) + a.shape)
    return a


class _AxisConcatenator:
    __slots__ = ("axis", "ndmin", "trans1d")

    def __init__(self, axis=0, ndmin=1, trans1d=-1):
        self.axis, self.ndmin, self.trans1d = axis, ndmin, trans1d

    def __getitem__(self, key):
        items, axis, ndmin, trans1d = parse_concat_key(key, self.axis, self.ndmin, self.trans1d)
        objs = []
        rt_objs = []
        for item in items:
            scalar = False
            if isinstance(item, slice):
                start = 0 if item.start is None else item.start
                step = 1 if item.step is None else item.step
                if _is_complex_step(step):
                    newobj = linspace(start, item.stop, num=int(abs(step)))
                else:
                    newobj = arange(start, item.stop, step)
                if ndmin > 1:
                    newobj = _ndmin(newobj, ndmin)
                    if trans1d != -1:
                        newobj = newobj.swapaxes(-1, trans1d)
            elif type(item) in _SCALARS or isinstance(item, numpy.generic):
                scalar = True
                newobj = item
            else:
                newobj = item if isinstance(item, ndarray) else array(item)
                item_ndim = newobj.ndim
                newobj = _ndmin(newobj, ndmin)
                if trans1d != -1 and item_ndim < ndmin:
                    k2 = ndmin - item_ndim
                    k1 = trans1d
                    if k1 < 0:
                        k1 += k2 + 1
                    defaxes = list(range(ndmin))
                    newobj = newobj.transpose(defaxes[:k1] + defaxes[k2:] + defaxes[k1:k2])
            objs.append(newobj)
            rt_objs.append(item if scalar else newobj.dtype)
        if not objs:
            raise ValueError("need at least one array to concatenate")
        final = numpy.result_type(*rt_objs)
        objs = [array(o, dtype=final, copy=None, ndmin=ndmin) for o in objs]
        return concatenate(tuple(objs), axis=axis)

    def __len__(self):
        return 0


class RClass(_AxisConcatenator):
    """Translates slice objects to concatenation along the first axis. See `numpy.r_`."""

    __slots__ = ()

    def __init__(self):
        super().__init__(0)


class CClass(_AxisConcatenator):
    """Translates slice objects to concatenation along the second axis. See `numpy.c_`."""

    __slots__ = ()

    def __init__(self):
        super().__init__(-1, ndmin=2, trans1d=0)


r_ = RClass()
c_ = CClass()


# -- ndenumerate -----------------------------------------------------------------------------
class ndenumerate:
    """Multidimensional index iterator. See `numpy.ndenumerate`.

    The values come from ONE device-to-host copy made when the iterator is created (a per-element
    device read would be a synchronisation each); they are NumPy scalars, as NumPy yields, and
    writes to the array after that are not seen.

    Examples
    --------
    >>> import cuarray
    >>> [(i, int(v)) for i, v in cuarray.ndenumerate(cuarray.array([[1, 2], [3, 4]]))]
    [((0, 0), 1), ((0, 1), 2), ((1, 0), 3), ((1, 1), 4)]
    """

    def __init__(self, arr):
        a = as_array(arr, "ndenumerate")
        self._it = numpy.ndenumerate(a.get())

    def __next__(self):
        return next(self._it)

    def __iter__(self):
        return self
