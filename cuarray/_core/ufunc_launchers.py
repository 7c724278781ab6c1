"""The prepared launchers behind `ufunc`'s fast paths (cuarray/_core/ufunc.py): what a call of a
type combination seen before runs with no resolution, broadcasting or output checks.

- `make_fast`: operands of one shape, all C- (or all F-) contiguous, and Python scalars; a new
  output, or (its `into`) a given one: `add(a, b, out=c)`, `c += b`, `exp(a, out=a)`.
- `make_fast_runtime`: the same for a mixed-dtype call's shared kernel (runtime type codes).
- `make_general`: two arrays of another layout or shape, seen before with the same strides.

Each falls back to `ufunc._call` (the full call, which raises NumPy's errors) on anything unusual.
"""

from __future__ import annotations

import numpy

from ..cuda import stream as _stream
from . import device_check as _device_check
from .elementwise import ELEMENTWISE as _EW
from .elementwise import _INT32_MAX as _INT32_LIMIT
from .ndarray import _new_c, _new_f, ndarray

__all__ = ["weak_bool", "make_general", "make_fast", "make_fast_runtime"]


def weak_bool(v):
    """A weak scalar as a bool loop's operand, as NumPy converts it (logical_and(x, 2**64)): a
    Python int goes through a C long first, so one out of int64's range raises OverflowError."""
    if type(v) is int and not -2**63 <= v < 2**63:
        raise OverflowError("Python int too large to convert to C long")
    return numpy.bool_(v)


def make_general(d, shape, od, strides):
    """The launcher of `ufunc._general`: a new output of `shape` and dtype `od` (C order, or
    `strides`: the 'K' order `_alloc_out` chose), then the engine's launch (whose strided layout
    is memoised too)."""
    run = d.run
    if strides is None:
        def general(a, b):
            out = _new_c(shape, od)
            run((a, b, out), (), shape)
            return out
    else:
        def general(a, b):
            out = ndarray._new_strided(shape, od, strides)
            run((a, b, out), (), shape)
            return out
    return general


def make_fast(uf, loop, d, pattern, lower=0):
    """A launcher for operands of one shape that are all C- (or all F-) contiguous: allocate, pick
    the flat or vector kernel by alignment, enqueue on the current stream. Anything unusual falls
    back to `ufunc._call`. `pattern`: per input, True for an array, False for a Python scalar
    (passed by value as the loop's input type). One body per arity: the binary one serves
    array-array, array-scalar and scalar-array calls.

    Measured on CPU with the launch stubbed (python 3.11): the general path cost 9.6 us of host
    time per `a + b`, this one ~3 us; CuPy's whole call is 11.6 us on an H200 host. The launch is
    `launch.enqueue`, looked up per call, so that a launch hook sees it. Calls of at most `lower`
    elements go to `ufunc._call` (a mixed-dtype call's specialised kernel serves only calls larger
    than `_SHARED_LIMIT`; the test is the one of empty calls, at no cost).

    The launcher's `into(*operands, o)` writes into the ndarray `o` instead (`ufunc(..., out=o)`,
    the in-place operators): the same kernel and launch, taken when `o` is what `_call` would
    launch into unchanged -- the loop's output dtype, the operands' shape and contiguity,
    writeable, and sharing no memory with an input other than element for element (else `_call`
    computes into a temporary, as NumPy does).
    """
    od = loop.out_dtypes[0]
    limit = _INT32_LIMIT
    core_stream = _stream.current_core_stream
    multi, check = _device_check.active, _device_check.check  # operands of another device
    # The engine's launch policy (elementwise.FlatLaunch): its cache is looked up inline below
    # (a frame and a tuple less per call, ~0.1 us stubbed); `prepare` on a miss.
    policy = d._flat
    v, m_all, cfgs, prepare = policy.vec, policy.mask, policy.cfgs, policy.prepare

    if len(pattern) == 1:
        def fast(a, out=None):
            n = a._size
            if n <= lower or n > limit:
                return uf._call(a) if out is None else uf._call(a, out=out)
            if multi[0]:
                check((a,))
            if out is None:
                out = _new_c(a._shape, od) if a._c else _new_f(a._shape, od)
            pa, po = a.data.ptr, out.data.ptr
            orp = pa | po
            hit = cfgs.get(n if n >= v and not orp & m_all else -n - 1) if m_all is not None else None
            k, cfg, n32 = hit or prepare(n, (pa, po))
            _EW.enqueue(core_stream(), cfg, k, pa, po, n32)
            return out

        def into(a, o):
            if _fits(o, a, od) and not _partly_shared(a, o):
                if multi[0]:
                    check((a, o))
                return fast(a, o)
            return uf._call(a, out=o)

        fast.into = into
        return fast

    sp = pattern.index(False) if False in pattern else -1  # position of the scalar operand, if any
    if sp >= 0:
        conv, cast = loop.scalar_types[sp], loop.in_dtypes[sp].type
        if loop.in_dtypes[sp].kind == "b":
            cast = weak_bool

    def fast(a, b, out=None):
        x = b if sp == 0 else a  # the array operand: shape and layout
        n = x._size
        if n <= lower or n > limit:
            return uf._call(a, b) if out is None else uf._call(a, b, out=out)
        if multi[0]:
            check((a, b) if sp < 0 else (x,))
        if sp < 0:
            if out is None:
                out = _new_c(x._shape, od) if x._c else _new_f(x._shape, od)
            pa, pb, po = a.data.ptr, b.data.ptr, out.data.ptr
            orp = pa | pb | po
            hit = cfgs.get(n if n >= v and not orp & m_all else -n - 1) if m_all is not None else None
            k, cfg, n32 = hit or prepare(n, (pa, pb, po))
            _EW.enqueue(core_stream(), cfg, k, pa, pb, po, n32)
            return out
        try:
            sv = conv(cast(a if sp == 0 else b))
        except OverflowError:  # out-of-range int: _call raises or (comparisons) answers
            return uf._call(a, b) if out is None else uf._call(a, b, out=out)
        if out is None:
            out = _new_c(x._shape, od) if x._c else _new_f(x._shape, od)
        px, po = x.data.ptr, out.data.ptr
        orp = px | po
        hit = cfgs.get(n if n >= v and not orp & m_all else -n - 1) if m_all is not None else None
        k, cfg, n32 = hit or prepare(n, (px, po))
        if sp:
            _EW.enqueue(core_stream(), cfg, k, px, sv, po, n32)
        else:
            _EW.enqueue(core_stream(), cfg, k, sv, px, po, n32)
        return out

    def into(a, b, o):
        x = b if sp == 0 else a
        if _fits(o, x, od) and not _partly_shared(a, o) and not _partly_shared(b, o):
            if multi[0]:
                check((x, o))
            return fast(a, b, o)
        return uf._call(a, b, out=o)

    fast.into = into
    return fast


def _fits(o, x, od) -> bool:
    """Whether `o` is the output `make_fast`'s launcher would allocate for the array operand `x`:
    dtype `od`, `x`'s shape, C-contiguous where `x` is (else F), and writeable."""
    return o._dtype == od and o._shape == x._shape and (o._c if x._c else o._f) and o._writeable


def _partly_shared(y, o) -> bool:
    """Whether the operand `y` (an array or a Python scalar) and `o`, of one shape and one
    contiguity, share memory other than element for element (what `ufunc._avoid_overlap` computes
    into a temporary)."""
    if type(y) is not ndarray or y is o:
        return False
    py, po = y.data.ptr, o.data.ptr
    if py == po:
        return y._dtype.itemsize != o._dtype.itemsize
    return py < po + o._size * o._dtype.itemsize and po < py + y._size * y._dtype.itemsize


def make_fast_runtime(uf, loop, d, pattern, big, shared_limit):
    """`make_fast` for a definition with runtime-typed inputs (a mixed-dtype call, `_SHARED_LIMIT`
    elements at most): a type code follows each such input's pointer (`Definition._pack`'s order,
    written out here per case) and there is no vector layout, so the prepared launch is always
    the flat one (`FlatLaunch`'s key -n - 1). Larger calls go to `big`, the specialised kernel's
    launcher."""
    od = loop.out_dtypes[0]
    limit = min(_INT32_LIMIT, shared_limit)
    core_stream = _stream.current_core_stream
    multi, check = _device_check.active, _device_check.check
    prepare, cfgs = d._flat.prepare, d._flat.cfgs
    codes = [p.code for p in d.params if p.kind in ("in", "scalar") and p.name != "_w"]
    c0 = codes[0]

    if len(pattern) == 1:
        def fast(a):
            n = a._size
            if n > limit:
                return big(a)
            if n == 0:
                return uf._call(a)
            if multi[0]:
                check((a,))
            out = _new_c(a._shape, od) if a._c else _new_f(a._shape, od)
            pa, po = a.data.ptr, out.data.ptr
            k, cfg, n32 = cfgs.get(-n - 1) or prepare(n, (pa, po))
            _EW.enqueue(core_stream(), cfg, k, pa, c0, po, n32)
            return out

        return fast

    c1 = codes[1]
    both = c0 is not None and c1 is not None
    sp = pattern.index(False) if False in pattern else -1
    if sp >= 0:
        conv, cast = loop.scalar_types[sp], loop.in_dtypes[sp].type
        if loop.in_dtypes[sp].kind == "b":
            cast = weak_bool

    def fast(a, b):
        x = b if sp == 0 else a
        n = x._size
        if n > limit:
            return big(a, b)
        if n == 0:
            return uf._call(a, b)
        if multi[0]:
            check((a, b) if sp < 0 else (x,))
        if sp < 0:
            out = _new_c(x._shape, od) if x._c else _new_f(x._shape, od)
            pa, pb, po = a.data.ptr, b.data.ptr, out.data.ptr
            k, cfg, n32 = cfgs.get(-n - 1) or prepare(n, (pa, pb, po))
            if both:
                _EW.enqueue(core_stream(), cfg, k, pa, c0, pb, c1, po, n32)
            elif c0 is not None:
                _EW.enqueue(core_stream(), cfg, k, pa, c0, pb, po, n32)
            else:
                _EW.enqueue(core_stream(), cfg, k, pa, pb, c1, po, n32)
            return out
        try:
            sv = conv(cast(a if sp == 0 else b))
        except OverflowError:  # out-of-range int: _call raises or (comparisons) answers
            return uf._call(a, b)
        out = _new_c(x._shape, od) if x._c else _new_f(x._shape, od)
        px, po = x.data.ptr, out.data.ptr
        k, cfg, n32 = cfgs.get(-n - 1) or prepare(n, (px, po))
        if sp:  # the array operand is the runtime-typed one
            _EW.enqueue(core_stream(), cfg, k, px, c0, sv, po, n32)
        else:
            _EW.enqueue(core_stream(), cfg, k, sv, px, c1, po, n32)
        return out

    return fast
