"""scipy.ndimage's measurements on the GPU: `label` (union-find, templates/label.cu) and
`find_objects` (one pass of per-label coordinate extremes; the slices are built on the host, as
SciPy returns them), `value_indices` (one stable sort of the flat indices by value).

Differences from SciPy: `label` treats the structure as symmetric (a neighbour relation is);
`label` and `find_objects` synchronise to return the count / the slices, as their host results
require."""

from __future__ import annotations

import numpy

from ..._core.ndarray import ndarray
from ..._core.transfer import from_host as _from_host
from ..._manipulation.joining import concatenate as _concatenate
from ..._sorting.searching_nonzero import nonzero as _cu_nonzero
from ..._sorting.sorting import argsort as _argsort
from . import _label_kernels as _k
from . import _support as _s
from ._morphology import binary_structure

__all__ = ["label", "find_objects", "value_indices"]


def label(input, structure=None, output=None):
    """See `scipy.ndimage.label`. Returns (labels, count), or count when `output` is an array.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> a = cuarray.array([[1, 1, 0], [0, 0, 0], [0, 1, 1]])
    >>> labels, n = ndimage.label(a)
    >>> labels
    array([[1, 1, 0],
           [0, 0, 0],
           [0, 2, 2]], dtype=int32)
    >>> int(n)
    2
    """
    x = _s.as_input(input, "label")
    if x.dtype.kind == "c":
        raise TypeError("Complex type not supported")
    structure = binary_structure(x.ndim, 1) if structure is None else _s.host_param(structure, bool)
    if structure.ndim != x.ndim:
        raise RuntimeError("structure and input must have equal rank")
    for ii in structure.shape:
        if ii != 3:
            raise ValueError("structure dimensions must be equal to 3")
    need_64 = x.size >= 2**31 - 2
    provided = _s.is_array(output)
    if provided:
        if output.shape != x.shape:
            raise ValueError("output shape not correct")
        dt = output.dtype
    else:
        dt = numpy.dtype(numpy.intp if need_64 else numpy.int32) if output is None else numpy.dtype(output)
    if x.ndim == 0 or x.size == 0:
        res = ndarray(x.shape, dt)
        maxlabel = 0
        if x.ndim == 0:
            maxlabel = 1 if bool((x != 0).get()) else 0
            res.fill(maxlabel)
        return maxlabel if provided else (res, maxlabel)
    res, count = _k.label(x, structure, dt)
    if count > 0 and dt.kind in "iu" and count > numpy.iinfo(dt).max:
        raise RuntimeError("insufficient bit-depth in requested output type")
    if provided:
        _s.finish(res, output)
        return count
    return res, count


def find_objects(input, max_label=0):
    """See `scipy.ndimage.find_objects`: a host list of tuples of slices (None for absent labels).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> ndimage.find_objects(cuarray.array([[1, 1, 0], [0, 0, 2]]))
    [(slice(0, 1, None), slice(0, 2, None)), (slice(1, 2, None), slice(2, 3, None))]
    """
    x = _s.as_input(input, "find_objects")
    if x.dtype.kind == "c":
        raise TypeError("Complex type not supported")
    if x.dtype.kind not in "iub":
        raise TypeError("find_objects needs an integer label image, got {}".format(x.dtype))
    if max_label < 1:
        max_label = int(x.max().get()) if x.size else 0
    if max_label < 1:
        return []
    lo, hi = _k.bounding_boxes(x, int(max_label))
    out = []
    for i in range(int(max_label)):
        if hi[i, 0] < 0:
            out.append(None)
        else:
            out.append(tuple(slice(int(a), int(b) + 1, None) for a, b in zip(lo[i], hi[i])))
    return out


def _argsort_stable(a):
    return _argsort(a, kind="stable")


def value_indices(arr, *, ignore_value=None, adaptive_index_dtype=False):
    """See `scipy.ndimage.value_indices`: a host dict from each value (a NumPy scalar) to a tuple of
    cuarray index arrays, one per axis, in C order. cupyx's `adaptive_index_dtype=True` gives the
    index arrays the smallest signed integer dtype that holds the coordinates (int64 otherwise).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> idx = ndimage.value_indices(cuarray.array([[1, 1, 0], [0, 2, 2]]))
    >>> idx[2]
    (array([1, 1]), array([1, 2]))
    """
    x = _s.as_array(arr, "value_indices")
    if x.dtype.kind not in "iu":
        raise ValueError("Parameter 'arr' must be an integer array")
    flat = x.ravel()
    if flat.size == 0:
        return {}
    order = _argsort_stable(flat)
    srt = flat[order]
    starts = _nonzero(_concat_true(srt[1:] != srt[:-1]))[0]
    starts_h = numpy.asarray(_host(starts), dtype=numpy.int64)
    values_h = numpy.asarray(_host(srt[starts]))
    bounds = numpy.append(starts_h, flat.size)
    coords, rem = [], order
    for d in range(x.ndim - 1, -1, -1):
        coords.append(rem % x.shape[d])
        rem = rem // x.shape[d]
    coords = coords[::-1]
    if adaptive_index_dtype:
        small = numpy.min_scalar_type(-(max(x.shape, default=0) + 1))
        coords = [c.astype(small) for c in coords]
    out = {}
    ignore = None if ignore_value is None else x.dtype.type(ignore_value)
    for k, v in enumerate(values_h.tolist()):
        key = x.dtype.type(v)
        if ignore is not None and key == ignore:
            continue
        lo, hi = int(bounds[k]), int(bounds[k + 1])
        out[key] = tuple(c[lo:hi] for c in coords)
    return out


def _concat_true(a):
    return _concatenate((_from_host(numpy.ones(1, bool)), a))


def _nonzero(a):
    return _cu_nonzero(a)


def _host(v):
    return v.get() if hasattr(v, "get") else v
