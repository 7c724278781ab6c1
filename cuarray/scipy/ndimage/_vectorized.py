"""scipy.ndimage's `vectorized_filter` on the device, SciPy's algorithm on cuarray arrays: the input
padded by `cuarray.pad` (SciPy's modes as NumPy's pad modes), a sliding-window view of it (no copy:
the windows are strides), and `function(window, axis=...)` called on slices of that view along its
first axis, each under `batch_memory` bytes were it materialised. `function` receives cuarray arrays:
cuarray's own functions (`cuarray.mean`, `cuarray.median`), NumPy's (`numpy.mean` runs on the
device through `__array_function__`) or any function of array methods. SciPy's argument rules,
messages and result (the dtype `function` returns) are kept; see `_vectorized_filter_iv` in
scipy/ndimage/_filters.py (SciPy 1.16+), which this follows step by step.
"""

from __future__ import annotations

import math

import numpy

from ..._core.host_input import as_array
from ..._core.ndarray import ndarray
from ..._creation.basic import empty as _empty
from ..._manipulation.transpose import moveaxis as _moveaxis
from ..._padding.padding import pad as _pad
from ...lib.stride_tricks import sliding_window_view as _sliding_window_view
from . import _support as _s

__all__ = ["vectorized_filter"]

_MODES = {"reflect", "constant", "nearest", "mirror", "wrap", "grid-mirror", "grid-constant", "grid-wrap", "valid"}
# SciPy's modes as numpy.pad's (what SciPy passes to np.pad / cp.pad)
_PAD_MODES = {"nearest": "edge", "reflect": "symmetric", "mirror": "reflect", "grid-mirror": "reflect",
              "grid-constant": "constant", "grid-wrap": "wrap"}


def _dtype_of(v) -> numpy.dtype:
    """The dtype SciPy's xp.asarray(v) has (a cuarray array's own; a host value's NumPy's)."""
    return v.dtype if isinstance(v, ndarray) else numpy.asarray(v).dtype


def _integral(v) -> bool:
    return _dtype_of(v).kind in "iu"


def _numeric(v) -> bool:  # the array API's 'numeric' kind: no bool
    return _dtype_of(v).kind in "iufc"


def _host_value(v):
    """A small argument (cval, batch_memory) on the host."""
    return v.get() if isinstance(v, ndarray) else v


def _check_arguments(x, function, size, footprint, mode, cval, origin, axes, batch_memory):
    """SciPy's validation, in its order: (size, origin, axes, footprint, pad mode, cval)."""
    if not callable(function):
        raise ValueError("`function` must be a callable.")
    if size is None and footprint is None:
        raise ValueError("Either `size` or `footprint` must be provided.")
    if size is not None and footprint is not None:
        raise ValueError("Either `size` or `footprint` may be provided, not both.")
    if axes is None:
        axes = tuple(range(-x.ndim, 0))
    elif numpy.isscalar(axes):
        axes = (axes,)
    n_axes = len(axes)
    if n_axes > x.ndim:
        raise ValueError("The length of `axes` may not exceed the dimensionality of `input`(`input.ndim`).")
    if size is not None:
        size = (size,) * n_axes if numpy.isscalar(size) else tuple(size)
        if not all(_integral(i) and i > 0 for i in size):
            raise ValueError("All elements of `size` must be positive integers.")
    else:
        footprint = numpy.asarray(_s.host_param(footprint), dtype=bool)
        size = footprint.shape
    if n_axes != len(size):
        raise ValueError("`axes` must be compatible with the dimensionality of the window specified by `size` or "
                         "`footprint`.")
    if origin is None:
        origin = (0,) * n_axes
    else:
        origin = (origin,) * n_axes if numpy.isscalar(origin) else tuple(origin)
        if not all(_integral(i) for i in origin):
            raise ValueError("All elements of `origin` must be integers.")
        if len(origin) != n_axes:
            raise ValueError("`origin` must be an integer or tuple of integers with length equal to the number of "
                             "axes.")
    if mode not in _MODES:  # (a list: SciPy's TypeError, unhashable)
        raise ValueError("`mode` must be one of {}.".format(_MODES))
    mode = _PAD_MODES.get(mode, mode)
    if mode == "valid" and any(origin):
        raise ValueError("`mode='valid'` is incompatible with use of `origin`.")
    if cval is None:
        cval = 0.0
    elif mode != "constant":
        raise ValueError("Use of `cval` is compatible only with `mode='constant'`.")
    cval = _host_value(cval)
    if not _numeric(cval):
        raise ValueError("`cval` must include only numbers.")
    bm = numpy.asarray(_host_value(batch_memory))
    if bm.ndim != 0 or bm.dtype.kind not in "iufc" or not bm > 0:
        raise ValueError("`batch_memory` must be positive number.")
    return size, footprint, mode, cval, tuple(int(o) for o in origin), axes, n_axes


def _batched(function, footprint, working_axes, n_axes, batch_memory, output):
    """SciPy's wrapped function: `function` over the footprint's elements (one trailing axis) or
    the window's axes, on slices of the view's first axis of at most `batch_memory` bytes each,
    into `output` when given."""
    if footprint is None:
        call = function
    else:
        def call(window, axis=-1):
            return function(window[..., footprint], axis=-1)

    def run(view):
        if working_axes == ():
            return call(view, axis=working_axes)
        chunk = math.prod(view.shape[1:]) * view.dtype.itemsize
        per_batch = min(view.shape[0], int(batch_memory // chunk))  # (SciPy's float batch_memory fails in range)
        if per_batch < 1:
            raise ValueError("`batch_memory` is insufficient for minimum chunk size.")
        out = output
        if per_batch == view.shape[0]:
            if out is None:
                return call(view, axis=working_axes)
            out[...] = call(view, axis=working_axes)
            return out
        for i in range(0, view.shape[0], per_batch):
            i2 = min(i + per_batch, view.shape[0])
            part = call(view[i:i2], axis=working_axes)
            if out is None:  # the dtype `function` returns
                out = _empty(view.shape[:-n_axes], dtype=part.dtype)
            out[i:i2, ...] = part
        return out

    return run


def vectorized_filter(input, function, *, size=None, footprint=None, output=None, mode="reflect", cval=None,
                      origin=None, axes=None, batch_memory=1073741824):
    """See `scipy.ndimage.vectorized_filter`. `input` and `output` are cuarray arrays and `function`
    is called with cuarray arrays (windows as strided views of the padded input, or with
    `footprint` a gathered copy), so it must take them: cuarray's functions, NumPy's through
    `__array_function__` (`numpy.mean`, `numpy.median`, ...), or array methods. `batch_memory`
    bounds the windows of one call as in SciPy (device memory here).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> ndimage.vectorized_filter(cuarray.array([1., 5., 2., 8., 3.]), cuarray.median, size=3)
    array([1., 2., 5., 3., 3.])
    """
    x = _s.as_array(input, "vectorized_filter")
    if output is not None:
        output = as_array(output, "vectorized_filter")
    size, footprint, mode, cval, origin, axes, n_axes = _check_arguments(
        x, function, size, footprint, mode, cval, origin, axes, batch_memory)
    n_batch = x.ndim - n_axes
    working_axes = tuple(range(-n_axes, 0))
    x = _moveaxis(x, axes, working_axes)
    if output is not None:
        output = _moveaxis(output, axes, working_axes)
    run = _batched(function, footprint, working_axes, n_axes, batch_memory, output)
    if x.size == 0:  # SciPy returns the (moved) input itself
        return x
    if x.ndim == 0 and size == ():
        return as_array(function(x) if footprint is None else function(x[footprint]), "vectorized_filter")
    if mode != "valid":
        kwargs = {"constant_values": cval} if mode == "constant" else {}
        borders = tuple((i // 2 + j, (i - 1) // 2 - j) for i, j in zip(size, origin))
        x = _pad(x, ((0, 0),) * n_batch + borders, mode=mode, **kwargs)
    res = run(_sliding_window_view(x, size, working_axes))
    return _moveaxis(res, working_axes, axes)
