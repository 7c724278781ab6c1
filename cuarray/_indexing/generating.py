"""Generating index arrays (NumPy "Indexing routines"): indices, ix_, unravel_index,
ravel_multi_index, diag_indices(_from), tril_indices(_from), triu_indices(_from), mask_indices.

Index sets that depend only on shapes (diag/tril/triu) are computed by NumPy on the host and copied
once; those that depend on device data (unravel_index, ravel_multi_index) are elementwise kernels.
"""

from __future__ import annotations

import numpy

from .._core import device_errors as _errors
from .._core import shapes as _shapes
from .._core.copying import copyto_unchecked
from .._core.elementwise import Definition, KernelParam
from .._core.ndarray import ndarray
from .._core.transfer import from_host
from .._creation.basic import ones
from .._creation.ranges import arange
from ..cuda import caches as _caches

__all__ = ["indices", "ix_", "unravel_index", "ravel_multi_index", "diag_indices", "diag_indices_from",
           "tril_indices", "tril_indices_from", "triu_indices", "triu_indices_from", "mask_indices"]

_I64 = numpy.dtype(numpy.int64)


def _up(host) -> ndarray:
    return from_host(numpy.ascontiguousarray(host))


def indices(dimensions, dtype=int, sparse=False):
    """See `numpy.indices`: one arange per axis, broadcast into the result by one copy each.

    Examples
    --------
    >>> import cuarray
    >>> rows, cols = cuarray.indices((2, 3))
    >>> rows
    array([[0, 0, 0],
           [1, 1, 1]])
    >>> cols
    array([[0, 1, 2],
           [0, 1, 2]])
    """
    dimensions = tuple(int(d) for d in dimensions)
    dtype = numpy.dtype(dtype)
    n = len(dimensions)
    parts = []
    for i, d in enumerate(dimensions):
        shape = (1,) * i + (d,) + (1,) * (n - i - 1)
        parts.append(arange(d, dtype=dtype).reshape(shape))
    if sparse:
        return tuple(parts)
    out = ndarray((n,) + dimensions, dtype)
    for i, p in enumerate(parts):
        copyto_unchecked(out[i], p)
    return out


def ix_(*args):
    """See `numpy.ix_`.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.arange(12).reshape(3, 4)
    >>> a[cuarray.ix_(cuarray.array([0, 2]), cuarray.array([1, 3]))]
    array([[ 1,  3],
           [ 9, 11]])
    """
    out = []
    nd = len(args)
    _shapes.check_ndim(nd)
    for k, new in enumerate(args):
        if not isinstance(new, ndarray):
            host = numpy.asarray(new)
            if host.size == 0:
                host = host.astype(numpy.intp)
            new = _up(host)
        if new.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if new._dtype == numpy.dtype(bool):
            new = new.nonzero()[0]
        out.append(new.reshape((1,) * k + (new._size,) + (1,) * (nd - k - 1)))
    return tuple(out)


_ravel_defs: dict = {}
_caches.register("ravel/unravel definitions", _ravel_defs)


def _unravel_def(ndim, in_dt, order):
    key = ("unravel", ndim, in_dt.char, order)
    d = _ravel_defs.get(key)
    if d is None:
        params = [KernelParam("x", "in", in_dt, _I64), KernelParam("_err", "raw", numpy.dtype(numpy.uint64))]
        params += [KernelParam("_dim{}".format(k), "scalar", _I64) for k in range(ndim)]
        params += [KernelParam("_o{}".format(k), "raw", _I64) for k in range(ndim)]
        axes = range(ndim - 1, -1, -1) if order == "C" else range(ndim)
        # (`_rem`, `_dim<k>`: `_r` and `_d<k>` are the nd layout's own names)
        lines = ["long long _rem = x;", "long long _tot = 1;"]
        lines += ["_tot *= _dim{};".format(k) for k in range(ndim)]
        lines.append("if (_rem < 0 || _rem >= _tot) { cuarray::index_error(_err, _rem, -1, _tot); continue; }")
        for k in axes:
            lines.append("_o{k}[i] = _rem % _dim{k}; _rem /= _dim{k};".format(k=k))
        d = _ravel_defs[key] = Definition("cuarray_unravel_{}d_{}".format(ndim, in_dt.name), params,
                                          "\n    ".join(lines), preamble='#include "cuarray/indexing.cuh"')
    return d


def unravel_index(indices, shape, order="C"):
    """See `numpy.unravel_index`. An index outside the array raises ValueError, as NumPy's: for
    device indices after one synchronisation (as CuPy's).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.unravel_index(cuarray.array([2, 3, 5]), (2, 3))
    (array([0, 1, 1]), array([2, 0, 2]))
    """
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    shape = (shape,) if isinstance(shape, int) else tuple(int(s) for s in shape)
    _shapes.check_ndim(len(shape))
    total = _total_size(shape, "dimensions are too large; arrays and shapes with a total size greater "
                               "than 'intp' are not supported.")
    if not isinstance(indices, ndarray):
        host = numpy.asarray(indices)
        _check_int_indices(host.dtype, host.size)
        bad = (host < 0) | (host >= total)
        if host.size and bad.any():
            raise ValueError("index {} is out of bounds for array with size {}".format(
                int(numpy.asarray(host)[bad].flat[0]), total))
        indices = _up(host.astype(numpy.intp))
    _check_int_indices(indices._dtype, indices._size)
    idx = indices if indices._c else indices.copy()
    outs = tuple(ndarray(idx._shape, _I64) for _ in shape)
    if idx._size:
        _errors.check_index_errors()  # earlier launches' errors, as what they are
        err = _errors.error_buffer("unravel_index")
        scal = tuple(numpy.int64(s) for s in shape)
        _unravel_def(len(shape), idx._dtype, order).run((idx,), scal, idx._shape, raw=(err,) + outs)
        _errors.raise_now(lambda value, axis, size: ValueError(
            "index {} is out of bounds for array with size {}".format(value, size)))
    return outs


def _check_int_indices(dtype, size):
    # NumPy casts indices to intp with 'same_kind': bool and integers pass, floats do not.
    if dtype.kind not in "biu":
        if dtype.kind == "f" and size == 0:
            raise TypeError("indices must be integral: the provided empty sequence was inferred as float. "
                            "Wrap it with 'np.array(indices, dtype=np.intp)'")
        raise TypeError("only int indices permitted")


def _total_size(dims, message):
    """The product of `dims` as NumPy computes it (ValueError `message` past intp's range)."""
    total = 1
    for d in dims:
        total *= d
        if abs(total) > numpy.iinfo(numpy.intp).max:
            raise ValueError(message)
    return total


def _ravel_def(ndim, dts, modes, order):
    """`modes`: one of 'raise', 'wrap', 'clip' per axis."""
    key = ("ravel", ndim, tuple(d.char for d in dts), modes, order)
    d = _ravel_defs.get(key)
    if d is None:
        # The dims are `_dim<k>`: `_d<k>` are the nd layout's own shape parameters (a strided
        # coordinate array made NVRTC fail with "duplicate parameter name").
        params = [KernelParam("m{}".format(k), "in", dt, _I64) for k, dt in enumerate(dts)]
        params.append(KernelParam("_err", "raw", numpy.dtype(numpy.uint64)))
        params += [KernelParam("_dim{}".format(k), "scalar", _I64) for k in range(ndim)]
        params.append(KernelParam("out0", "out", _I64))
        axes = list(range(ndim)) if order == "C" else list(range(ndim - 1, -1, -1))
        lines = ["long long _acc = 0; bool _bad = false;"]
        for k in axes:
            mode = modes[k]
            lines.append("{ long long _v = m%d;" % k)
            if mode == "wrap":
                lines.append("_v %= _dim{k}; if (_v < 0) _v += _dim{k};".format(k=k))
            elif mode == "clip":
                lines.append("_v = _v < 0 ? 0 : (_v >= _dim{k} ? _dim{k} - 1 : _v);".format(k=k))
            else:
                lines.append("if (_v < 0 || _v >= _dim{k}) {{ cuarray::index_error(_err, _v, {k}, _dim{k}); _bad = true; }}".format(k=k))
            lines.append("_acc = _acc * _dim{k} + _v; }}".format(k=k))
        lines.append("out0 = _bad ? 0 : _acc;")
        tag = modes[0] if len(set(modes)) == 1 else "_".join(modes)
        d = _ravel_defs[key] = Definition("cuarray_ravel_multi_{}d_{}".format(ndim, tag), params,
                                          "\n    ".join(lines), preamble='#include "cuarray/indexing.cuh"')
    return d


def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    """See `numpy.ravel_multi_index`. With mode='raise', coordinates out of range raise ValueError,
    as NumPy's: for device coordinates after one synchronisation (as CuPy's).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.ravel_multi_index((cuarray.array([0, 1, 1]), cuarray.array([2, 0, 1])), (2, 3))
    array([2, 3, 4])
    """
    dims = tuple(int(x) for x in dims)
    _shapes.check_ndim(len(dims))
    modes = (mode,) * len(dims) if isinstance(mode, str) else tuple(mode)
    if len(modes) != len(dims):
        raise ValueError("list of clipmodes has wrong length ({} instead of {})".format(len(modes), len(dims)))
    for md in modes:
        if md not in ("raise", "wrap", "clip"):
            raise ValueError("clipmode must be one of 'clip', 'raise', or 'wrap'")
    if len(multi_index) != len(dims):
        raise ValueError("parameter multi_index must be a sequence of length {}".format(len(dims)))
    if 0 in dims:  # NumPy's check, before wrap/clip would divide by zero
        raise ValueError("cannot unravel if shape has zero entries (is empty).")
    _total_size(dims, "invalid dims: array size defined by dims is larger than the maximum possible size.")
    arrs = []
    for k, m in enumerate(multi_index):
        if not isinstance(m, ndarray):
            host = numpy.asarray(m)
            _check_int_indices(host.dtype, host.size)
            if modes[k] == "raise" and host.size and ((host < 0) | (host >= dims[k])).any():
                raise ValueError("invalid entry in coordinates array")
            m = _up(host.astype(numpy.intp))
        else:
            _check_int_indices(m._dtype, m._size)
        arrs.append(m)
    shape = _shapes.broadcast_shapes(*[a._shape for a in arrs])
    out = ndarray(shape, _I64)
    if out._size:
        _errors.check_index_errors()  # earlier launches' errors, as what they are
        err = _errors.error_buffer("ravel_multi_index")
        d = _ravel_def(len(dims), [a._dtype for a in arrs], modes, order)
        d.run(tuple(arrs) + (out,), tuple(numpy.int64(x) for x in dims), shape, raw=(err,))
        if "raise" in modes:
            _errors.raise_now(lambda value, axis, size: ValueError("invalid entry in coordinates array"))
    return out


def diag_indices(n, ndim=2):
    """See `numpy.diag_indices`.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.zeros((3, 3), dtype=int)
    >>> a[cuarray.diag_indices(3)] = 1
    >>> a
    array([[1, 0, 0],
           [0, 1, 0],
           [0, 0, 1]])
    """
    idx = arange(n)
    return (idx,) * ndim


def diag_indices_from(arr):
    """See `numpy.diag_indices_from`.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.diag_indices_from(cuarray.ones((2, 2)))
    (array([0, 1]), array([0, 1]))
    """
    if arr.ndim < 2:
        raise ValueError("input array must be at least 2-d")
    if len(set(arr.shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    return diag_indices(arr.shape[0], arr.ndim)


def tril_indices(n, k=0, m=None):
    """See `numpy.tril_indices` (computed on the host, copied once).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.tril_indices(3)
    (array([0, 1, 1, 2, 2, 2]), array([0, 0, 1, 0, 1, 2]))
    """
    return tuple(_up(x) for x in numpy.tril_indices(n, k, m))


def tril_indices_from(arr, k=0):
    """See `numpy.tril_indices_from`.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.arange(9).reshape(3, 3)
    >>> a[cuarray.tril_indices_from(a)]
    array([0, 3, 4, 6, 7, 8])
    """
    if arr.ndim != 2:
        raise ValueError("input array must be 2-d")
    return tril_indices(arr.shape[-2], k=k, m=arr.shape[-1])


def triu_indices(n, k=0, m=None):
    """See `numpy.triu_indices` (computed on the host, copied once).

    Examples
    --------
    >>> import cuarray
    >>> cuarray.triu_indices(3, k=1)
    (array([0, 0, 1]), array([1, 2, 2]))
    """
    return tuple(_up(x) for x in numpy.triu_indices(n, k, m))


def triu_indices_from(arr, k=0):
    """See `numpy.triu_indices_from`.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.arange(9).reshape(3, 3)
    >>> a[cuarray.triu_indices_from(a, k=1)]
    array([1, 2, 5])
    """
    if arr.ndim != 2:
        raise ValueError("input array must be 2-d")
    return triu_indices(arr.shape[-2], k=k, m=arr.shape[-1])


def mask_indices(n, mask_func, k=0):
    """See `numpy.mask_indices`: `mask_func` runs on a device array of ones.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.mask_indices(3, cuarray.triu, 1)
    (array([0, 0, 1]), array([1, 2, 2]))
    """
    m = mask_func(ones((n, n), int), k)
    return (m != 0).nonzero()
