"""Argument handling shared by the ndimage functions, as scipy.ndimage._ni_support does it (same
checks, same exception types): outputs, axes, per-axis sequences, origins, host parameters.

Host inputs follow docs/scipy.md ("Host inputs"): the data a function computes on (images, masks,
labels, markers, coordinates) goes through `as_array`, which copies Python scalars, lists and tuples
and refuses NumPy arrays; parameter-like arguments (weights, footprints, structures, matrices,
offsets, index lists) go through `host_param`, which also takes NumPy arrays."""

from __future__ import annotations

import operator
import warnings
from collections.abc import Iterable

import numpy
from numpy.lib.array_utils import normalize_axis_index

from ..._core.copying import astype, copyto_unchecked
from ..._core.host_input import as_array as _strict_array
from ..._core.host_input import as_literal_or_array as as_array
from ..._core.ndarray import ndarray
from ...cuda.limits import shared_per_block

__all__ = ["as_input", "output_dtype", "finish", "check_axes", "normalize_sequence", "host_param",
           "expand_origin", "expand_footprint", "normalize_axis", "invalid_origin", "warp_per_line"]

# A warp per line with the line staged in shared memory (the EDT, the spline prefilter): blocks of
# up to 8 warps within the dynamic shared memory a kernel may use without opting in (the device's
# cudaDevAttrMaxSharedMemoryPerBlock, 48 KiB).
_STAGE_WARPS = 8


# From about this many lines, a thread per line keeps the GPU busy; when the lines are not the
# last axis (`inner` > 1), neighbouring threads then read neighbouring addresses (coalesced) where a
# warp staging one line reads it with a stride of `inner` elements.
LINES_FILL = 65536


def warp_per_line(lines: int, line_bytes: int, inner: int = 1):
    """(grid, block, shared_mem) of a launch with a warp per line and `line_bytes` of shared
    memory per warp; None when one line does not fit, or when `lines` (each `inner` elements
    apart from the next element of its own line) are many enough for a thread each (LINES_FILL)."""
    stage_bytes = shared_per_block()
    if line_bytes > stage_bytes or (inner > 1 and lines >= LINES_FILL):
        return None
    per_block = max(1, min(_STAGE_WARPS, stage_bytes // line_bytes))
    return -(-lines // per_block), 32 * per_block, per_block * line_bytes

# What scipy.ndimage's C core accepts (float16 raises there too).
_KINDS = "biufc"


def as_input(x, fn: str) -> ndarray:
    """A cuarray array (host arrays raise TypeError: the one host-input policy), of a dtype SciPy's
    C core accepts (RuntimeError otherwise, as SciPy)."""
    x = as_array(x, fn)
    if x.dtype.kind not in _KINDS or x.dtype.char == "e":
        raise RuntimeError("array type {!r} not supported".format(x.dtype))
    return x


def output_dtype(output, x: ndarray, complex_output: bool = False, shape=None) -> numpy.dtype:
    """The result dtype `output` asks for (None, a dtype or type, a string, or a cuarray array of
    `shape`, default x's), with _ni_support._get_output's checks."""
    shape = x.shape if shape is None else tuple(shape)
    if output is None:
        dt = x.dtype
        if complex_output:
            dt = numpy.promote_types(dt, numpy.complex64)
    elif isinstance(output, ndarray):
        if output.shape != shape:
            raise RuntimeError("output shape not correct")
        if complex_output and output.dtype.kind != "c":
            raise RuntimeError("output must have complex dtype")
        dt = output.dtype
    elif isinstance(output, str):
        dt = numpy.dtype(output)
        if complex_output and dt.kind != "c":
            raise RuntimeError("output must have complex dtype")
        if not issubclass(dt.type, numpy.number):
            raise RuntimeError("output must have numeric dtype")
    elif isinstance(output, (type, numpy.dtype)):
        dt = numpy.dtype(output)
        if complex_output and dt.kind != "c":
            warnings.warn("promoting specified output dtype to complex", stacklevel=4)
            dt = numpy.promote_types(dt, numpy.complex64)
    else:
        raise TypeError("output must be None, a dtype or a cuarray array, not {}".format(type(output).__name__))
    if dt.kind not in _KINDS or dt.char == "e":
        raise RuntimeError("array type {!r} not supported".format(dt))
    return dt


def finish(result: ndarray, output) -> ndarray:
    """`result` written into the user's `output` array when one was given (any layout), else itself."""
    if isinstance(output, ndarray):
        if output is not result:
            copyto_unchecked(output, result)
        return output
    return result


def is_array(x) -> bool:
    return isinstance(x, ndarray)


def like(x: ndarray, dt) -> ndarray:
    return astype(x, dt, copy=False)


def normalize_axis(axis, ndim: int) -> int:
    return normalize_axis_index(operator.index(axis), ndim)


def check_axes(axes, ndim: int) -> tuple:
    if axes is None:
        return tuple(range(ndim))
    if numpy.isscalar(axes):
        axes = (operator.index(axes),)
    elif isinstance(axes, Iterable):
        axes = tuple(operator.index(ax) for ax in axes)
        for ax in axes:
            if ax < -ndim or ax > ndim - 1:
                raise ValueError("specified axis: {} is out of range".format(ax))
        axes = tuple(ax % ndim if ax < 0 else ax for ax in axes)
    else:
        raise ValueError("axes must be an integer, iterable of integers, or None")
    if len(set(axes)) != len(axes):
        raise ValueError("axes must be unique")
    return axes


def normalize_sequence(value, rank: int) -> list:
    if is_array(value) and not isinstance(value, numpy.ndarray):
        value = value.get()  # a per-axis parameter (sigma, shift, zoom, origin...) given on the device
        value = value[()] if value.ndim == 0 else value
    if not isinstance(value, str) and numpy.iterable(value):
        out = list(value)
        if len(out) != rank:
            raise RuntimeError("sequence argument must have length equal to input rank")
        return out
    return [value] * rank


def compares_in_double(dt: numpy.dtype, cval) -> bool:
    """Whether a 1-D min/max pass over integer type `dt` (minimum_filter1d, and minimum_filter
    with a `size` or an all-true footprint, a pass an axis) must compare in double, as SciPy's 1-D
    passes do (their line buffers are double): `cval` is a value `dt` cannot hold (a fraction, a
    value out of range, nan, inf). Cast to `dt` first, it would win or lose against the elements
    where SciPy's double does not (cval=-1 on uint8: SciPy's minimum is -1, cast 255; the cast cval
    255 loses to every element). SciPy's footprint and rank filters cast cval to the input's type
    first, and so do cuarray's."""
    if dt.kind not in "biu" or isinstance(cval, (complex, numpy.complexfloating)):
        return False
    c = float(cval)
    lo, hi = (0, 1) if dt.kind == "b" else (numpy.iinfo(dt).min, numpy.iinfo(dt).max)
    return not (numpy.isfinite(c) and lo <= c <= hi and c == int(c))


def in_double(x: ndarray) -> ndarray:
    return astype(x, numpy.float64)


def host_param(w, dtype=None) -> numpy.ndarray:
    """A small parameter (weights, footprint, structure, matrix, index list) on the host: Python
    values and host arrays as they are, cuarray arrays copied down (SciPy takes all three; they
    become kernel metadata). Another library's device array raises the host-input policy's
    TypeError (a lazy cuarray array is computed first)."""
    if isinstance(w, ndarray) and not isinstance(w, numpy.ndarray):
        w = w.get()
    elif not isinstance(w, (numpy.ndarray, numpy.generic)) and any(
            hasattr(type(w), a) for a in ("__cuda_array_interface__", "__dlpack__", "__cuarray_materialize__")):
        w = _strict_array(w, "scipy.ndimage").get()
    return numpy.asarray(w, dtype=dtype)


def expand_origin(ndim: int, axes, origin) -> list:
    origins = normalize_sequence(origin, len(axes))
    if len(axes) < ndim:
        full = [0] * ndim
        for o, ax in zip(origins, axes):
            full[ax] = o
        origins = full
    return [operator.index(o) for o in origins]


def expand_footprint(ndim: int, axes, footprint: numpy.ndarray, name: str = "footprint") -> numpy.ndarray:
    if len(axes) < ndim:
        if footprint.ndim != len(axes):
            raise RuntimeError("{}.ndim ({}) must match len(axes) ({})".format(name, footprint.ndim, len(axes)))
        footprint = numpy.expand_dims(footprint, tuple(ax for ax in range(ndim) if ax not in axes))
    return footprint


def invalid_origin(origin: int, lenw: int) -> bool:
    return origin < -(lenw // 2) or origin > (lenw - 1) // 2
