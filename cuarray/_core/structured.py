"""Arrays of structured dtypes: field views, struct values, and the word views that move them.

A structured array is storage (`dtypes.storage_dtype` says which dtypes): nothing computes on the
structs, but everything that moves bytes works, as in CuPy 14 (cupy/cupy#9440), and a field is a
numeric array like any other:

- `field(a, name)`: ``a['x']``, a view of the field's dtype at the field's offset with the parent's
  strides (nested structs give structured views, so ``a['outer']['inner']`` works);
- `fields(a, names)`: ``a[['x', 'y']]``, NumPy 2's view with the parent's itemsize and offsets,
  read-only here (see below);
- `getfield(a, dtype, offset)`: `numpy.ndarray.getfield`;
- `words(a)`: the array as unsigned integers of the widest width (up to 8 bytes) that its address,
  strides and itemsize allow, with one more axis (the item's words): copies, gathers and scatters
  of structs are the engine's integer ones over this view, so a packed dtype (itemsize 9, odd
  offsets) never meets an 8-byte load at an odd address;
- `host_value(value, dtype)`: tuples, `numpy.void` and host data as a NumPy array of `dtype`.

A numeric view must be aligned for the GPU, which loads an element of n bytes (complex: 2 x its
part) from addresses that are multiples of n: a field at an odd offset of a packed dtype, or a
complex128 field at an offset that is a multiple of 8 only (NumPy's align=True allows it), raises
ValueError (CuPy's rule) instead of a misaligned-address fault that would end the CUDA context.

Multi-field views are read-only: their dtype has gaps holding the other fields, and cuarray's
whole-item copies would overwrite them; ``a[['x', 'y']] = value`` assigns field by field instead.
"""

from __future__ import annotations

import numpy
from numpy.lib.format import descr_to_dtype

from . import dtypes as _dtypes
from . import shapes as _shapes
from .ndarray import ndarray

__all__ = ["field", "fields", "field_names", "getfield", "words", "word_column", "width", "from_words",
           "host_value", "refuse_cast", "descr_dtype"]

_UINT = {w: numpy.dtype("u{}".format(w)) for w in (1, 2, 4, 8)}


def _view_of_part(a: ndarray, dtype, offset: int) -> ndarray:
    """`a`'s elements' part of `dtype` at byte `offset` (a field or `getfield`)."""
    if dtype.subdtype is not None:
        # (Structured dtypes with sub-array fields are refused at creation; getfield may ask.)
        raise ValueError("cuarray does not support sub-array dtypes ({}) in field views".format(dtype))
    dtype = _dtypes.storage_dtype(dtype)
    ptr = a.data.ptr + offset
    _shapes.check_gpu_aligned(a._shape, a._strides, dtype, ptr)
    return ndarray._view(a._shape, a._strides, dtype, a.data + offset if offset else a.data, a)


def field(a: ndarray, name: str) -> ndarray:
    """``a[name]``: a view of one field. ValueError, as NumPy, for a name the dtype lacks."""
    try:
        fdt, offset = a._dtype.fields[name][:2]
    except KeyError:
        raise ValueError("no field of name {}".format(name)) from None
    return _view_of_part(a, fdt, offset)


def field_names(index) -> bool:
    """Whether `index` is a list of field names (multi-field indexing)."""
    return type(index) is list and len(index) > 0 and all(type(n) is str for n in index)


def fields(a: ndarray, names: list) -> ndarray:
    """``a[names]``: NumPy 2's view of several fields (the parent's itemsize and offsets), read-only
    (see the module's docstring). KeyError and ValueError as NumPy's."""
    dt = a._dtype
    if len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        raise ValueError("duplicate field of name {!r}".format(dup))
    formats, offsets = [], []
    for n in names:
        fdt, off = dt.fields[n][:2]  # KeyError(name), as NumPy
        formats.append(fdt)
        offsets.append(off)
    view_dt = numpy.dtype({"names": list(names), "formats": formats, "offsets": offsets, "itemsize": dt.itemsize})
    out = ndarray._view(a._shape, a._strides, view_dt, a.data, a, a._c, a._f)
    out._writeable = False
    return out


def getfield(a: ndarray, dtype, offset: int = 0) -> ndarray:
    """See `numpy.ndarray.getfield`: a view of `dtype` at byte `offset` of each element."""
    dtype = numpy.dtype(dtype)
    offset = int(offset)
    if offset < 0:
        raise ValueError("offset must be non-negative")  # NumPy's message
    if offset + dtype.itemsize > a._dtype.itemsize:
        raise ValueError("Need 0 <= offset <= {} for requested type but received offset = {}".format(
            a._dtype.itemsize - dtype.itemsize, offset))
    return _view_of_part(a, dtype, offset)


def _width(a: ndarray) -> int:
    n = a._dtype.itemsize
    ptr = a.data.ptr
    for w in (8, 4, 2):
        if not n % w and not ptr % w and not any(s % w for d, s in zip(a._shape, a._strides) if d > 1):
            return w
    return 1


def words(a: ndarray, width: int = 0) -> ndarray:
    """`a` as unsigned integers with a last axis over each item (`width` bytes each: the widest
    `a` allows when 0; a smaller one the caller needs to match another array's)."""
    w = width or _width(a)
    return ndarray._view(a._shape + (a._dtype.itemsize // w,), a._strides + (w,), _UINT[w], a.data, a)


def word_column(a: ndarray, w: int, k: int) -> ndarray:
    """Word `k` (of `w` bytes) of every element of `a`, as an array of `a`'s shape."""
    return ndarray._view(a._shape, a._strides, _UINT[w], a.data + k * w if k else a.data, a)


def width(*arrays) -> int:
    """The widest word every one of `arrays` can be read in."""
    return min(_width(x) for x in arrays)


def from_words(w: ndarray, dtype) -> ndarray:
    """The structured array whose `words` view `w` is (its last axis dense: a new gather's result)."""
    return ndarray._view(w._shape[:-1], w._strides[:-1], dtype, w.data, w)


def host_value(value, dtype) -> numpy.ndarray:
    """A host value for a structured array of `dtype` (a tuple, a list of tuples, a `numpy.void`, a
    NumPy structured array, a number for every field) as a NumPy array of `dtype`: NumPy converts
    it, by its rules (structs of another dtype by field position)."""
    return numpy.asarray(value, dtype=dtype)


def refuse_cast(src, dst):
    raise TypeError("cuarray does not cast between dtypes {} and {}: structured arrays are copied and "
                    "assigned with the same dtype (assign field by field, a['x'] = b['x'])".format(src, dst))


def descr_dtype(descr, typestr: str):
    """The dtype of a `__cuda_array_interface__` whose typestr is `typestr` ('|V<n>') and whose
    `descr` lists the fields (padding as unnamed '|V<k>' entries, as NumPy's `dtype.descr`)."""
    try:
        dt = descr_to_dtype([tuple(d) for d in descr])
    except (TypeError, ValueError) as e:
        raise TypeError("cannot read the __cuda_array_interface__ descr {!r}: {}".format(descr, e)) from None
    if dt.itemsize != numpy.dtype(typestr).itemsize:
        raise ValueError("__cuda_array_interface__ descr {!r} is {} bytes wide but typestr {!r} says {}".format(
            descr, dt.itemsize, typestr, numpy.dtype(typestr).itemsize))
    return dt
