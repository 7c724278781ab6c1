"""`integers` (and the legacy randint/random_integers): uniform integers in [low, high) or
[low, high], every integer dtype and bool, exact at the dtype's edges.

The kernel (templates/random.cu, cuarray_random_integers) adds to `low` a uniform integer of
[0, high - low] made by Lemire's multiply-shift with rejection: unbiased for every range, one
32-bit word per value for ranges below 2**32 (two words above).
"""

from __future__ import annotations

import numpy
from numpy import int64, uint64

from .._core.host_input import is_scalar, reject
from .._core.ndarray import ndarray
from .._creation.basic import full
from .._creation.from_data import ascontiguousarray
from .._logic.truth import any as any_
from .._manipulation.dims import broadcast_to
from . import _kernels
from ._params import normalize_size, output_shape

__all__ = ["integers"]

_U32 = 0xFFFFFFFF


def _int_dtype(dtype, fn):
    dt = numpy.dtype(dtype)
    if dt.kind not in "biu":
        raise TypeError("Unsupported dtype {!r} for {}".format(dt, fn))
    return dt


def integers(bitgen, ref, low, high, size, dtype, endpoint, fn):
    """Uniform integers; `ref` (a NumPy Generator) validates scalar bounds with NumPy's messages."""
    dt = _int_dtype(dtype, fn)
    size = normalize_size(size)
    for v in (low, high):
        if v is not None and not isinstance(v, ndarray) and not is_scalar(v):
            raise reject(v, "random." + fn)
    if not isinstance(low, ndarray) and not isinstance(high, ndarray):
        n = 1 if size is None else int(numpy.prod(size))
        ref.integers(low, high, size=0 if n == 0 else 1, dtype=dt, endpoint=endpoint)
        lo, hi = (0, low) if high is None else (low, high)
        lo, hi = int(lo), int(hi) - (0 if endpoint else 1)
        out = ndarray(() if size is None else size, dt)
        draw = bitgen.next_draw()
        if out._size:
            _kernels.integers(out, out._size, draw, 0, 0, lo, hi - lo, hi - lo > _U32)
        return out
    return _array_bounds(bitgen, low, high, size, dt, endpoint)


def _array_bounds(bitgen, low, high, size, dt, endpoint):
    """Per-element bounds: checked on the device (one synchronisation), passed as uint64 bit
    patterns of the inclusive bounds, broadcast to the output."""
    if high is None:
        low, high = 0, low
    wide = uint64 if dt == numpy.uint64 else int64
    lo = low.astype(wide) if isinstance(low, ndarray) else int(low)
    hi = high.astype(wide) if isinstance(high, ndarray) else int(high)
    info = numpy.iinfo(dt) if dt.kind != "b" else numpy.iinfo(numpy.uint8)
    top = 1 if dt.kind == "b" else info.max
    if not endpoint:
        hi = hi - 1
    shape = output_shape(size, [v.shape if isinstance(v, ndarray) else () for v in (low, high)])
    for name, bad in (("low is out of bounds for {}".format(dt), lo < info.min),
                      ("high is out of bounds for {}".format(dt), hi > top),
                      ("low >= high" if not endpoint else "low > high", lo > hi)):
        if bool(any_(bad)) if isinstance(bad, ndarray) else bad:
            raise ValueError(name)
    bounds = []
    for v in (lo, hi):
        if isinstance(v, ndarray):
            v = ascontiguousarray(broadcast_to(v, shape)).view(uint64)
        else:
            v = _fill_u64(v, shape)
        bounds.append(v)
    out = ndarray(shape, dt)
    draw = bitgen.next_draw()
    if out._size:
        _kernels.integers(out, out._size, draw, bounds[0].data.ptr, bounds[1].data.ptr, 0, 0, True)
    return out


def _fill_u64(v: int, shape):
    return full(shape, numpy.uint64(v % 2**64), dtype=uint64)
