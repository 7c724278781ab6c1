"""scipy.ndimage's `watershed_ift` through SciPy on the host: the image foresting transform is a
sequential bucket queue whose first-in-first-out order at equal costs decides contested pixels, so
no parallel version reproduces SciPy's labels bit for bit; the input and markers are copied down,
SciPy labels them (its checks and errors), and the labels are copied up."""

from __future__ import annotations

import numpy

from ..._core.copying import copyto_unchecked
from ..._core.host_input import as_array
from ..._core.transfer import from_host
from . import _support as _s

__all__ = ["watershed_ift"]


def _scipy_ndimage():
    import scipy.ndimage  # host work: the optional `cuarray[scipy]` dependency, imported on first use

    return scipy.ndimage


def watershed_ift(input, markers, structure=None, output=None):
    """See `scipy.ndimage.watershed_ift`. Computed by SciPy on the host (its tie-breaking is a
    sequential queue's order): `input` and `markers` (cuarray arrays) are copied to the host and
    the labels back to the device, into `output` when it is a cuarray array.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> image = cuarray.array([[1, 1, 1, 1], [9, 9, 9, 9], [1, 1, 1, 1]], dtype=cuarray.uint8)
    >>> markers = cuarray.array([[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]], dtype=cuarray.int8)
    >>> ndimage.watershed_ift(image, markers)
    array([[1, 1, 1, 1],
           [2, 2, 2, 2],
           [2, 2, 2, 2]], dtype=int8)
    """
    x = _s.as_array(input, "watershed_ift")
    if x.dtype.type not in (numpy.uint8, numpy.uint16):  # (before any copy)
        raise TypeError("only 8 and 16 unsigned inputs are supported")
    m = _s.as_array(markers, "watershed_ift")
    host_out = None
    if output is not None and not isinstance(output, (type, numpy.dtype, str)):
        output = as_array(output, "watershed_ift")
        host_out = numpy.empty(output.shape, output.dtype)  # SciPy checks its dtype and shape
    st = None if structure is None else _s.host_param(structure)
    labels = _scipy_ndimage().watershed_ift(x.get(), m.get(), st, host_out if host_out is not None else output)
    if host_out is None:
        return from_host(labels)
    copyto_unchecked(output, from_host(labels))
    return output
