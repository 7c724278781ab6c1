"""Test data: random arrays of any dtype, and the same values in non-contiguous layouts.

Data is made on the host with a `numpy.random.Generator` and moved with ``xp.asarray``, so a test
that passes the same `seed` gets the same values under NumPy and cuarray. Never zeros or a
constant: those hide unwritten outputs and wrong indexing.
"""

from __future__ import annotations

import contextlib
import secrets
import threading

import numpy

import cuarray  # the default `xp` (cuarray.testing sits above the package's routines)

from ._asserts import to_host

__all__ = ["shaped_random", "shaped_arange", "shaped_reverse_arange", "non_contiguous", "LAYOUTS",
           "for_layouts", "same_data"]

LAYOUTS = ("contiguous", "transposed", "step2", "negative")


def _default_xp():
    return cuarray


# Inside `same_data`: the generator of seeds for `shaped_random` calls that pass none (per thread).
_shared = threading.local()


def fresh_seed() -> int:
    return secrets.randbits(63)


@contextlib.contextmanager
def same_data(base_seed: int):
    """Inside, `shaped_random` calls without a `seed` take theirs from one sequence started at
    `base_seed`: the NumPy run and the cuarray run of one compared test body see the same data
    (as CuPy's fixed default seed gives), while each test call still gets fresh data."""
    previous = getattr(_shared, "seeds", None)
    _shared.seeds = numpy.random.default_rng(base_seed)
    try:
        yield
    finally:
        _shared.seeds = previous


def _next_seed(seed):
    if seed is not None:
        return seed
    seeds = getattr(_shared, "seeds", None)
    return None if seeds is None else int(seeds.integers(2**63))


def shaped_random(shape, xp=None, dtype=numpy.float32, scale=10, seed=None, positive=False, order="C"):
    """Random values of `shape` and `dtype` on `xp` (default: cuarray).

    bool: random True/False. Integers: in ``[-scale, scale)`` for signed, ``[0, scale)`` for
    unsigned, clipped to the dtype's range. Floats: uniform in ``[-scale, scale)``. Complex:
    random real and imaginary parts. With `positive`, every value is > 0 (bools True/False as usual).
    Arrays of 2 or more elements are never constant. Pass `seed` to reproduce a failure; without
    one, the data is fresh, except inside a compared test body (`same_data`). CuPy's
    `shaped_random` has a fixed seed and values in ``[0, scale)``; `positive` comes closest.
    """
    if xp is None:
        xp = _default_xp()
    rng = numpy.random.default_rng(_next_seed(seed))
    shape = (shape,) if isinstance(shape, (int, numpy.integer)) else tuple(shape)
    dt = numpy.dtype(dtype)
    if dt.kind == "b":
        host = rng.integers(0, 2, size=shape).astype(dt)
    elif dt.kind in "iu":
        info = numpy.iinfo(dt)
        low = 1 if positive else max(-int(scale), int(info.min))
        high = max(low + 2, min(int(scale), int(info.max)))  # at least two values to draw from
        host = rng.integers(low, high, size=shape, dtype=dt, endpoint=positive)
    elif dt.kind in "fc":
        host = _floats(rng, shape, scale, positive)
        if dt.kind == "c":
            host = host + 1j * _floats(rng, shape, scale, positive)
        host = host.astype(dt)
    else:
        raise TypeError("shaped_random: unsupported dtype {}".format(dt))
    if host.size >= 2 and (host == host.flat[0]).all():
        host.flat[0] = _other_value(host.flat[0], dt)
    return xp.asarray(numpy.asarray(host, order=order))


def shaped_arange(shape, xp=None, dtype=numpy.float32, order="C"):
    """``1, 2, ..., size`` in `shape` and `dtype` on `xp` (CuPy's `testing.shaped_arange`).

    bool: the even ones are True; complex: ``k + k*1j``.
    """
    return _arange_like(numpy.arange(1, _size(shape) + 1), shape, xp, dtype, order)


def shaped_reverse_arange(shape, xp=None, dtype=numpy.float32):
    """``size, ..., 2, 1`` in `shape` and `dtype` on `xp` (CuPy's `testing.shaped_reverse_arange`)."""
    return _arange_like(numpy.arange(_size(shape), 0, -1), shape, xp, dtype, "C")


def _size(shape):
    shape = (shape,) if isinstance(shape, (int, numpy.integer)) else tuple(shape)
    return int(numpy.prod(shape, dtype=numpy.int64))


def _arange_like(a, shape, xp, dtype, order):
    dt = numpy.dtype(dtype)
    if dt.kind == "b":
        a = a % 2 == 0
    elif dt.kind == "c":
        a = a + a * 1j
    host = numpy.asarray(a.astype(dt).reshape(shape), order=order)
    return (xp or _default_xp()).asarray(host)


def _floats(rng, shape, scale, positive):
    if positive:
        return scale * (1.0 - rng.random(shape))  # (0, scale]
    return rng.uniform(-scale, scale, size=shape)


def _other_value(v, dt):
    """A value different from `v` of dtype `dt` (to break a constant draw of tiny arrays)."""
    if dt.kind == "b":
        return not v
    return v + 1 if v + 1 != v and (dt.kind not in "iu" or v < numpy.iinfo(dt).max) else v - 1


def non_contiguous(x, kind: str, xp=None):
    """A view with the values and shape of `x` but the layout `kind` (one of `LAYOUTS`).

    ``"contiguous"``: a C-contiguous copy; ``"transposed"``: F order (the transpose of a C array);
    ``"step2"``: every axis strided by 2 inside a larger array; ``"negative"``: every axis
    reversed (negative strides). The layout is built on the host, then moved and viewed on the
    device, so it needs only ``asarray``, basic slicing and ``.T`` from `xp` (default: numpy for a
    NumPy `x`, else cuarray). 0-d arrays are returned as they are.
    """
    if kind not in LAYOUTS:
        raise ValueError("layout must be one of {}, got {!r}".format(LAYOUTS, kind))
    if isinstance(x, numpy.ndarray):
        host, xp = x, xp or numpy
    else:
        host, xp = numpy.asarray(to_host(x)), xp or _default_xp()
    if host.ndim == 0:
        return xp.asarray(host)
    if kind == "contiguous":
        return xp.asarray(numpy.ascontiguousarray(host))
    if kind == "transposed":
        return xp.asarray(numpy.ascontiguousarray(host.T)).T
    if kind == "step2":
        every_other = (slice(None, None, 2),) * host.ndim
        base = numpy.empty(tuple(2 * n for n in host.shape), dtype=host.dtype)
        # Fill the gaps with values a kernel reading the wrong elements would show.
        base[...] = numpy.asarray(99 if host.dtype.kind != "b" else True).astype(host.dtype)
        base[every_other] = host
        return xp.asarray(base)[every_other]
    flip = (slice(None, None, -1),) * host.ndim
    return xp.asarray(numpy.ascontiguousarray(host[flip]))[flip]


def for_layouts(name: str = "layout", layouts=LAYOUTS):
    """Parametrise `name` over memory layouts for `non_contiguous` (ids are the layout names)."""
    import pytest

    return pytest.mark.parametrize(name, list(layouts), ids=list(layouts))
