"""The ufunc fast path's kernel choice (vector kernel only when every operand's address allows it)
and the operator shortcut (`a + b` reaches the same prepared launcher as `add(a, b)`), with the
launch recorded and kernels as placeholders named by their layout: no device. The ufuncs here are
fresh copies of add/multiply: the placeholders must not reach the shared ufuncs' prepared launchers
(a GPU test in the same process would launch them)."""

from __future__ import annotations

import numpy as np
import pytest

import cuarray as cp
from cuarray import _array_methods
from cuarray._core.ndarray import ndarray
from cuarray._core import ufunc as ufunc_module
from cuarray._core.ufunc import ufunc


@pytest.fixture
def recorded(recorded_launches):
    return recorded_launches


def _fresh(uf):
    return ufunc(uf.__name__, uf.nin, uf.nout, uf._ops, np_name=uf._np.__name__, preamble=uf._preamble)


def _shifted(a, nbytes):
    """A view of `a`'s memory starting `nbytes` later (same shape: reads past the end are never run)."""
    return ndarray._view(a.shape, a.strides, a.dtype, a.data + nbytes, a)


def _layouts(calls):
    return [c[2][1] for c in calls]


@pytest.fixture
def specialised():
    """Mixed-dtype calls get kernels specialised on every input dtype (which have the vector
    layout), as above `ufunc._SHARED_LIMIT` elements."""
    prev = ufunc_module._set_shared_limit(0)
    yield
    ufunc_module._set_shared_limit(prev)


@pytest.mark.parametrize("da,db", [("float32", "float32"), ("float32", "float64"), ("int8", "int64")])
def test_vector_kernel_only_when_every_address_is_aligned(recorded, specialised, da, db):
    add = _fresh(cp.add)
    plus = _array_methods._binary(add)
    a = cp.empty(4096, dtype=da)
    b = cp.empty(4096, dtype=db)
    for _ in range(2):  # the first call prepares, the second takes the fast path
        add(a, b)
    assert add._fast and _layouts(recorded) == ["vec", "vec"]
    del recorded[:]
    for x, y in ((_shifted(a, a.itemsize), b), (a, _shifted(b, b.itemsize))):
        add(x, y)
        plus(x, y)
    assert _layouts(recorded) == ["flat"] * 4


def test_operator_and_function_launch_the_same(recorded):
    multiply = _fresh(cp.multiply)
    times = _array_methods._binary(multiply)
    a = cp.empty((64, 64), dtype="float32")
    b = cp.empty((64, 64), dtype="float32")
    multiply(a, b)
    multiply(a, b)
    times(a, b)
    times(a, 2.0)
    multiply(a, 2.0)
    multiply(a, 2.0)
    times(a.T, b.T)  # both F-contiguous
    first, second = recorded[1], recorded[2]  # add(a, b) prepared, then a * b
    assert first[:3] == second[:3] and first[3:5] == second[3:5]
    assert recorded[3][:3] == recorded[5][:3] and recorded[3][3:5] == recorded[5][3:5]
    assert recorded[3][4] == np.float32(2.0) and type(recorded[3][4]) is np.float32
    assert len(recorded) == 7


def _strided_cases():
    f32 = "float32"
    m = cp.empty((64, 96), dtype=f32)
    r = cp.empty(96, dtype=f32)
    col = cp.empty((64, 1), dtype=f32)
    y = cp.empty(400, dtype=f32)
    row = cp.empty((1, 400), dtype=f32)
    zero_d = cp.empty((), dtype=f32)
    big = cp.empty((8, 16, 32), dtype=f32)
    return [
        (m, r), (r, m), (m, col), (y, zero_d), (zero_d, y),  # broadcasts
        (m.T, m.T), (m[::-1], m), (m[:, ::-1], m), (m[:, ::2], m[:, 1::2]), (big.transpose(0, 2, 1), big[0].T),  # views
        (row, y), (_shifted(row, 4), y), (row, _shifted(y, 4)),  # one contiguous run, either alignment
    ]


def test_strided_launches_are_memoised_without_changing_them(recorded):
    # The memoised layout (per shapes, strides and dtypes) must launch exactly what deriving it
    # afresh launches: same kernel, grid, pointers and stride/extent arguments, alignment included.
    add = _fresh(cp.add)
    cases = _strided_cases()
    fresh = []
    for x, y in cases:
        add._fast.clear()
        for d in _definitions(add):
            d._strided.clear()
        add(x, y)
        fresh.append(recorded.pop())
    for _ in range(2):
        for (x, y), want in zip(cases, fresh):
            add(x, y)
            got = recorded.pop()
            assert _without_output(got) == _without_output(want), (x.shape, x.strides, y.shape, y.strides)
    assert any(d._strided for d in _definitions(add))


def _definitions(uf):
    return [d for loop in uf._loops.values() for d in loop._defs.values()]


def _without_output(call):
    """A recorded launch with the output's address left out (each call allocates its own)."""
    # stream, config, kernel, in0, in1, [out0], strides, extents, size; a kernel shared across
    # stored dtypes has a type code after each runtime-typed input's pointer (elementwise.py)
    # (its name spells it 'asfloat32': cuarray_add_float32_asfloat32)
    at = 5 + sum(1 for part in call[2][0].split("_")[2:] if part.startswith("as"))
    return call[:at] + call[at + 1:]


@pytest.mark.parametrize("db", ["float32", "float64", "int16"])
def test_general_path_returns_and_launches_what_the_full_call_does(recorded, db):
    # A pair of arrays that the contiguous fast path does not take (broadcasts, views, 0-d with
    # 1-d) reaches `ufunc._general` from its second call: same output (shape, dtype, strides) and
    # the same launch as the full `_call`, per layout, with the pair's own dtypes.
    add = _fresh(cp.add)
    cases = [(x, y.astype(db) if y.dtype != np.dtype(db) else y) for x, y in _strided_cases()
             if not (x.shape == y.shape and x.flags.f_contiguous and y.flags.f_contiguous)]  # (fast path)
    want = []
    for x, y in cases:
        out = add._call(x, y)
        want.append((out.shape, out.dtype, out.strides, _without_output(recorded.pop())))
    assert len(add._general) == len({(x.dtype, y.dtype, x.shape, y.shape, x.strides, y.strides)
                                     for x, y in cases})  # each layout registered once
    for (x, y), w in zip(cases, want):
        add._call = None  # the general path must not fall back to the full call
        try:
            out = add(x, y)
        finally:
            del add._call
        assert (out.shape, out.dtype, out.strides, _without_output(recorded.pop())) == w


def test_a_ufunc_called_with_too_few_arguments_says_so_as_numpy():
    """NumPy: "add() takes from 2 to 3 positional arguments but 1 was given" (cuarray said 'were')."""
    import pytest

    import cuarray

    with pytest.raises(TypeError, match=r"add\(\) takes from 2 to 3 positional arguments but 1 was given"):
        cuarray.add(1)
    with pytest.raises(TypeError, match=r"but 0 were given"):
        cuarray.add()


def test_power_operator_takes_numpy_fast_paths(recorded):
    # NumPy's ndarray calls square for `a ** 2` (any numeric or bool array), reciprocal / sqrt for
    # `a ** -1`, `a ** 0.5` of a float or complex array (Python int/float exponent only): their
    # types and special values differ from power's
    # (float16 (-inf) ** 0.5 is nan; complex (-4+0j) ** 0.5 is exactly 2j). Before, every `**` was power.
    ufs = [_fresh(u) for u in (cp.power, cp.square, cp.reciprocal, cp.sqrt)]
    pow_op, ipow_op = _array_methods._power_operators(*ufs)

    def kernels(a, e, op=pow_op):
        del recorded[:]
        op(a, e)
        return [c[2][0] for c in recorded]

    for dt in ("float16", "float32", "float64", "complex64", "complex128"):
        a = cp.empty(16, dtype=dt)
        t = a.dtype.name
        assert kernels(a, 2) == ["cuarray_square_" + t]
        assert kernels(a, -1) == ["cuarray_reciprocal_" + t]
        assert kernels(a, 0.5) == ["cuarray_sqrt_" + t]
        assert kernels(a, 0.5, ipow_op) == ["cuarray_sqrt_" + t]
        for other in (2.0, 3, -2, 0.25, True, np.float64(0.5), np.int64(2)):
            assert kernels(a, other)[0].startswith("cuarray_power_"), (dt, other)
    for dt in ("int32", "uint8", "bool"):
        # integer and bool arrays: square for the Python int 2 (NumPy's bool ** 2 is int8, power's
        # int64), power otherwise (an int ** 0.5 is float64's pow; an int ** -1 power's ValueError)
        a = cp.empty(16, dtype=dt)
        assert kernels(a, 2)[0].startswith("cuarray_square_")
        assert pow_op(a, 2).dtype == (np.array([1], dt) ** 2).dtype
        assert kernels(a, 0.5)[0].startswith("cuarray_power_")
        assert kernels(a, 3)[0].startswith("cuarray_power_")


def test_numpy_power_reaches_the_checked_power(recorded):
    # numpy.power(gpu_array, ...) dispatches through the registry: it held the plain ufunc, so NumPy's
    # call skipped power's checks (no ValueError for an integer base with a negative exponent)
    from cuarray._core import registry

    assert registry.ufuncs["power"] is cp.power
    with pytest.raises(ValueError, match="negative integer powers"):
        np.power(cp.empty(4, dtype="int32"), -1)
    assert not recorded


# -- into a given output: ufunc(..., out=o), ufunc(a, b, o), the in-place operators --------------------
def _spy_full_calls(monkeypatch, uf):
    """Count the calls that reach `uf._call` (the full path) on this fresh ufunc only."""
    seen = []
    full = uf._call

    def spy(*args, **kwargs):
        seen.append(1)
        return full(*args, **kwargs)

    monkeypatch.setattr(uf, "_call", spy)
    return seen


@pytest.mark.parametrize("form", ["keyword", "tuple", "positional", "inplace"])
def test_out_launches_what_the_full_call_launches(recorded, monkeypatch, form):
    add = _fresh(cp.add)
    a, b, c = (cp.empty((64, 32), dtype="float32") for _ in range(3))
    add(a, b, out=c)  # the full path: prepares the launcher (an out= call of the loop's dtype does)
    assert (np.dtype("float32"), np.dtype("float32")) in add._fast
    seen = _spy_full_calls(monkeypatch, add)
    if form == "keyword":
        r = add(a, b, out=c)
    elif form == "tuple":
        r = add(a, b, out=(c,))
    elif form == "positional":
        r = add(a, b, c)
    else:
        r = _array_methods._inplace(add)(c, b)
    assert not seen and r is c
    full, fast = recorded
    if form == "inplace":  # c += b: the operands are (c, b)
        assert fast[:3] == full[:3] and fast[3:] == (c.data.ptr, b.data.ptr, c.data.ptr, full[-1])
    else:
        assert fast == full


def test_out_with_a_scalar_and_a_unary_ufunc(recorded, monkeypatch):
    multiply, exp = _fresh(cp.multiply), _fresh(cp.exp)
    a, c = cp.empty(4096, dtype="float64"), cp.empty(4096, dtype="float64")
    multiply(a, 2.0, out=c)
    exp(a, out=c)
    seen = _spy_full_calls(monkeypatch, multiply) + _spy_full_calls(monkeypatch, exp)
    assert multiply(2.0, a, out=c) is c and exp(a, out=a) is a and exp(a, c) is c
    assert not seen
    assert recorded[2][3:5] == (np.float64(2.0), a.data.ptr) and recorded[2][5] == c.data.ptr
    assert recorded[3][3:5] == (a.data.ptr, a.data.ptr) and recorded[4][3:5] == (a.data.ptr, c.data.ptr)


def test_out_the_fast_path_declines(recorded, monkeypatch):
    # Each of these is `_call`'s: a cast into the output, another layout, a shape the inputs
    # broadcast to, a read-only output (NumPy's ValueError). (An output sharing memory with an
    # input other than element for element is `_partly_shared`'s, below: `_call` computes it into
    # a temporary and copies, which the fake device cannot; the GPU test runs it.)
    add = _fresh(cp.add)
    a, b = cp.empty((8, 16), dtype="float32"), cp.empty((8, 16), dtype="float32")
    add(a, b, out=cp.empty((8, 16), dtype="float32"))
    seen = _spy_full_calls(monkeypatch, add)
    for o in (cp.empty((8, 16), dtype="float64"), cp.empty((16, 8), dtype="float32").T,
              cp.empty((2, 8, 16), dtype="float32")):
        assert add(a, b, out=o) is o
    assert len(seen) == 3
    ro = cp.empty((8, 16), dtype="float32")
    ro._writeable = False
    with pytest.raises(ValueError, match="read-only"):
        add(a, b, out=ro)
    assert len(seen) == 4


def test_partly_shared_and_fits(recorded):
    from cuarray._core.ufunc_launchers import _fits, _partly_shared

    x = cp.empty(64, dtype="float32")
    assert not _partly_shared(x, x) and not _partly_shared(2.0, x)
    assert not _partly_shared(x[:32], x[32:]) and _partly_shared(x[:32], x[16:48])
    assert _partly_shared(x.view("int32")[:32], x[:32].view("int16")[:32])  # one address, other items
    assert not _partly_shared(x.view("int32"), x.view("float32"))  # same elements
    m = cp.empty((4, 8), dtype="float32")
    assert _fits(m, m, m.dtype) and not _fits(m, m, np.dtype("float64"))
    assert not _fits(cp.empty((8, 4), dtype="float32").T, m, m.dtype)  # F into C
    assert _fits(cp.empty((4, 8), dtype="float32").T, m.T, m.dtype)


def test_out_none_is_the_plain_call(recorded, monkeypatch):
    # routines pass their own out=None through (clip to minimum/maximum, positive): the fast path
    minimum = _fresh(cp.minimum)
    a = cp.empty(256, dtype="float32")
    minimum(a, 1.0)
    seen = _spy_full_calls(monkeypatch, minimum)
    r = minimum(a, 1.0, out=None)
    assert not seen and r.shape == a.shape and recorded[1][:3] == recorded[0][:3]


def test_positional_output_that_is_not_an_array(recorded):
    # add(a, b, None) is NumPy's new output; another object is the full call's TypeError
    add = _fresh(cp.add)
    a = cp.empty(64, dtype="float32")
    add(a, a)
    r = add(a, a, None)
    assert r.shape == (64,) and r is not a
    with pytest.raises(TypeError):
        add(a, a, [1.0])
