"""Compiling and launching templates/label.cu: connected components by union-find."""

from __future__ import annotations

import pathlib

import numpy

from ..._core import dtypes as _dtypes
from ..._core.copying import astype
from ..._core.ndarray import ndarray
from ..._core.scan import inclusive_sum_1d
from ..._core.transfer import from_host
from ...cuda import launch as _launch
from ...cuda.kernel_family import KernelFamily
from ._tables import constant_table

__all__ = ["source", "names", "neighbour_table", "label"]

_TEMPLATE = pathlib.Path(__file__).parent / "templates" / "label.cu"
_BLOCK = 256


def source() -> str:
    return _TEMPLATE.read_text()


LABEL = KernelFamily("cuarray_ndimage_label", source, namespace="cuarray_ndimage", kernels=(
    "label_init<T, I>(const T* in, I* parent, I total)",
    "label_merge<I>(I* parent, const I* meta, const int* offs, const I* loff, int nnb, int nd, I total)",
    "label_compress<I>(I* parent, int* is_root, I total)",
    "label_relabel<I, O>(const I* parent, const long long* rank, O* out, I total)",
    "bounding_boxes<T>(const T* labels, const long long* shape, int nd, long long total, long long max_label, "
    "long long* lo, long long* hi)",
))


def names(in_dt, out_dt, idx64: bool) -> tuple:
    i = "long long" if idx64 else "int"
    return ("cuarray_ndimage::label_init<{}, {}>".format(_dtypes.ctype(in_dt), i),
            "cuarray_ndimage::label_merge<{}>".format(i),
            "cuarray_ndimage::label_compress<{}>".format(i),
            "cuarray_ndimage::label_relabel<{}, {}>".format(i, _dtypes.ctype(out_dt)))


def neighbour_table(shape, structure: numpy.ndarray):
    """(offs, loff): the structure's true elements before its centre in C order (coordinate
    offsets, and linear offsets in a C-contiguous array of `shape`). The structure is made
    symmetric first: linking is symmetric."""
    s = numpy.asarray(structure, bool)
    s = s | s[(slice(None, None, -1),) * s.ndim]
    pos = numpy.argwhere(s) - 1
    strides = numpy.ones(len(shape), numpy.int64)
    for d in range(len(shape) - 2, -1, -1):
        strides[d] = strides[d + 1] * shape[d + 1]
    lin = pos @ strides
    keep = lin < 0
    return pos[keep].astype(numpy.int32), lin[keep]


def label(x: ndarray, structure: numpy.ndarray, out_dt) -> tuple:
    """(labels of out_dt, number of components) of the non-zero elements of x."""
    total = x.size
    out = ndarray(x.shape, out_dt)
    x = x if x._c else astype(x, x._dtype, order="C", copy=True)
    idx64 = total >= 2**31 - 2
    it = numpy.dtype(numpy.int64 if idx64 else numpy.int32)
    k_init, k_merge, k_compress, k_relabel = LABEL.get(*names(x._dtype, out_dt, idx64))
    parent = ndarray(x.shape, it)
    is_root = ndarray(x.shape, numpy.dtype(numpy.int32))
    grid = _launch.grid_one_pass(total, _BLOCK)
    n = total
    k_init.launch(grid, _BLOCK, x.data.ptr, parent.data.ptr, n)
    offs, loff = neighbour_table(x.shape, structure)
    if len(offs):
        meta = constant_table(numpy.asarray(x.shape, it))
        d_offs = constant_table(offs)
        d_loff = constant_table(loff.astype(it))
        k_merge.launch(grid, _BLOCK, parent.data.ptr, meta.data.ptr, d_offs.data.ptr, d_loff.data.ptr, len(offs),
                       x.ndim, n)
    k_compress.launch(grid, _BLOCK, parent.data.ptr, is_root.data.ptr, n)
    rank = inclusive_sum_1d(is_root.reshape((total,)), numpy.int64)
    k_relabel.launch(grid, _BLOCK, parent.data.ptr, rank.data.ptr, out.data.ptr, n)
    return out, int(rank[total - 1].get())


def bbox_name(dt) -> str:
    return "cuarray_ndimage::bounding_boxes<{}>".format(_dtypes.ctype(dt))


def bounding_boxes(labels: ndarray, max_label: int) -> tuple:
    """(lo, hi) host int64 arrays (max_label, ndim): each label's extreme coordinates."""
    nd = labels.ndim
    lo = from_host(numpy.full((max_label, nd), numpy.iinfo(numpy.int64).max, numpy.int64))
    hi = from_host(numpy.full((max_label, nd), -1, numpy.int64))
    total = labels.size
    if total and max_label:
        x = labels if labels._c else astype(labels, labels._dtype, order="C", copy=True)
        (k,) = LABEL.get(bbox_name(x._dtype))
        shape = from_host(numpy.asarray(x.shape, numpy.int64))
        k.launch(_launch.grid_one_pass(total, _BLOCK), _BLOCK, x.data.ptr, shape.data.ptr, nd, total, max_label,
                 lo.data.ptr, hi.data.ptr)
    return lo.get(), hi.get()
