"""Mixed-dtype ufunc calls on the GPU (issue 35): an input stored in another dtype than its loop's
is loaded through a runtime type code by a kernel shared across stored dtypes
(tests/_core/test_mixed_kernels_cpu.py has the code generation). Every ufunc of the namespace over
every numeric input dtype pair (binary) or dtype (unary), fresh random data of values every cast
keeps, against two oracles: cuarray on the inputs first cast to the loop's dtypes (the unmixed
kernel: must agree bit for bit, since NumPy's own mixed call is that cast then the loop) and
NumPy (same dtype, values to NumPy's float tolerance). Then views (negative strides, transposes),
broadcasting, 0-d, empty, `out=` of another dtype and `where=` for a set of ufuncs and pairs, and
calls on both sides of the sharing limit."""

from __future__ import annotations

import concurrent.futures
import os
import warnings

import numpy as np
import pytest

import cuarray as cp
from cuarray._core import ufunc as ufunc_module
from cuarray._core.ufunc import ufunc

pytestmark = pytest.mark.gpu

DTYPES = [np.dtype(c) for c in "?bhiqBHIQefdFD"]
UFUNCS = sorted(n for n in dir(cp) if isinstance(getattr(cp, n), ufunc))
BINARY = [n for n in UFUNCS if getattr(cp, n).nin == 2]
UNARY = [n for n in UFUNCS if getattr(cp, n).nin == 1]
# Integer operands >= 0 only: negative shifts and negative integer powers are undefined or raise.
NONNEGATIVE = {"power", "pow", "float_power", "left_shift", "right_shift", "bitwise_left_shift",
               "bitwise_right_shift", "ldexp"}
N = 257


def _values(dt, shape, rng, nonneg=False):
    """Values every cast between the numeric dtypes keeps exactly (small integers, floats in
    +-[0.5, 3)), with no zero (no integer division by zero), of dtype `dt`."""
    n = int(np.prod(shape))
    sign = np.ones(n) if nonneg else rng.choice([-1.0, 1.0], n)
    if dt.kind == "b":
        v = rng.random(n) < 0.5
    elif dt.kind in "iu":
        v = rng.integers(1, 4, n) * (sign if dt.kind == "i" else 1)
    elif dt.kind == "f":
        v = rng.uniform(0.5, 3.0, n) * sign
    else:
        v = rng.uniform(0.5, 3.0, n) * sign + 1j * rng.uniform(-3.0, 3.0, n)
    return v.astype(dt).reshape(shape)


def _tol(dt):
    dt = np.dtype(dt)
    if dt.kind not in "fc":
        return 0.0
    return {16: 4e-3, 32: 2e-5, 64: 1e-12}[np.finfo(dt).bits]  # complex: its parts' float


def _as_tuple(r):
    return r if isinstance(r, tuple) else (r,)


def _numpy(name, args, **kw):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _as_tuple(getattr(np, name)(*args, **kw))


def _check(name, got, oracle, want, where=""):
    """`got` (the mixed call) equals `oracle` (the pre-cast call) exactly and NumPy's `want`."""
    got, oracle = _as_tuple(got), _as_tuple(oracle)
    assert len(got) == len(want) == len(oracle)
    for g, o, w in zip(got, oracle, want):
        assert g.dtype == w.dtype and g.shape == w.shape, (name, where, g.dtype, w.dtype, g.shape, w.shape)
        gh = g.get()
        np.testing.assert_array_equal(gh, o.get(), err_msg="{} {}: shared vs unmixed kernel".format(name, where))
        t = _tol(w.dtype)
        if t:
            np.testing.assert_allclose(gh, w, rtol=t, atol=t, equal_nan=True, err_msg="{} {}".format(name, where))
        else:
            np.testing.assert_array_equal(gh, w, err_msg="{} {}".format(name, where))


def _loop(uf, dts):
    return uf._resolve(tuple(dts), None, "same_kind")


def _precast(uf, xs):
    """The inputs cast to the loop's dtypes (arrays only; what NumPy's mixed call computes on)."""
    loop = _loop(uf, [x.dtype for x in xs])
    with warnings.catch_warnings():  # logical_and(float32, complex128) runs the '??->?' loop
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        return [x.astype(ld) for x, ld in zip(xs, loop.in_dtypes)]


def _warm(uf, kind_lists):
    """Compile in parallel threads (NVRTC runs outside the GIL; compiles of different kernels
    overlap) the kernels that contiguous calls of these input dtypes will ask for: the shared one
    (flat; or the specialised one, vector, for a float16 input) and the pre-cast oracle's (vector
    when it has one), so the test's time is not ~150 ms
    of NVRTC per kernel one after another. A kernel missed here is compiled when called."""
    todo = {}
    for kinds in kind_lists:
        try:
            loop = _loop(uf, kinds)
            d = uf._definition(loop, tuple(kinds), loop.out_dtypes, False, True)
            plain = uf._definition(loop, loop.in_dtypes, loop.out_dtypes, False)
        except Exception:  # no such loop: the test skips the combination
            continue
        if tuple(kinds) == loop.in_dtypes:
            continue  # not mixed: the test skips it
        # a specialised kernel where the call keeps one (a float16 input): vector when aligned
        todo[d.key, "flat" if d._vec == 1 else "vec"] = d
        todo[plain.key, "vec" if plain._vec > 1 else "flat"] = plain
    workers = min(16, os.cpu_count() or 1)
    with concurrent.futures.ThreadPoolExecutor(workers) as ex:
        list(ex.map(lambda kd: kd[1]._kernel(kd[0][1], 1, np.int32), todo.items()))


def _run(uf, name, hs, **kw):
    """(NumPy's results, or None when NumPy refuses the dtypes; cuarray's mixed call; the pre-cast
    call), or None where cuarray has no GPU loop for the pre-cast dtypes either."""
    try:
        want = _numpy(name, hs, **kw)
    except (TypeError, ValueError):
        return None
    xs = [cp.asarray(h) for h in hs]
    try:
        oracle = uf(*_precast(uf, xs))
    except (TypeError, NotImplementedError):
        return None  # this loop has no GPU implementation: not a question of sharing
    return want, uf(*xs, **kw), oracle


@pytest.mark.parametrize("name", BINARY)
def test_binary_every_dtype_pair(name):
    uf = getattr(cp, name)
    rng = np.random.default_rng()
    pairs = [(a, b) for a in DTYPES for b in DTYPES]
    _warm(uf, pairs)
    for a, b in pairs:
        try:
            loop = _loop(uf, (a, b))
        except Exception:
            continue
        if loop.in_dtypes == (a, b):
            continue  # not mixed: the unchanged kernels
        nonneg = name in NONNEGATIVE
        hs = [_values(a, (N,), rng, nonneg), _values(b, (N,), rng, nonneg)]
        r = _run(uf, name, hs)
        if r is None:
            continue
        want, got, oracle = r
        _check(name, got, oracle, want, "{} {}".format(a, b))


@pytest.mark.parametrize("name", UNARY)
def test_unary_every_dtype(name):
    uf = getattr(cp, name)
    rng = np.random.default_rng()
    _warm(uf, [(a,) for a in DTYPES])
    for a in DTYPES:
        try:
            loop = _loop(uf, (a,))
        except Exception:
            continue
        if loop.in_dtypes == (a,):
            continue
        r = _run(uf, name, [_values(a, (N,), rng)])
        if r is not None:
            want, got, oracle = r
            _check(name, got, oracle, want, str(a))


LAYOUT_UFUNCS = ["add", "subtract", "multiply", "true_divide", "floor_divide", "maximum", "fmin", "arctan2",
                 "left_shift", "equal", "less", "logical_and", "copysign", "power", "hypot", "divmod"]
LAYOUT_PAIRS = [("int8", "float32"), ("uint16", "int8"), ("bool", "float64"), ("int64", "uint64"),
                ("float32", "complex128")]


def _layouts(rng, a, b, nonneg):
    """(label, x, y) host operands of dtypes a, b in several layouts (views of larger arrays)."""
    v = lambda dt, shape: _values(np.dtype(dt), shape, rng, nonneg)  # noqa: E731
    big_a, big_b = v(a, (24, 40)), v(b, (24, 40))
    return [
        ("negative strides", big_a[::-1, ::-2], big_b[::-1, 1::2]),
        ("transposed", big_a.T, big_b.T),
        ("broadcast row", big_a, v(b, (40,))),
        ("broadcast column view", v(a, (24, 1)), big_b[:, ::-1]),
        ("3-d strided", v(a, (6, 8, 10))[:, ::2, 1::3], v(b, (8,))[::2, None]),
        ("0-d and 1-d", v(a, ()), v(b, (7,))),
        ("0-d and 0-d", v(a, ()), v(b, ())),
        ("empty", v(a, (0, 5)), v(b, (5,))),
    ]


@pytest.mark.parametrize("name", LAYOUT_UFUNCS)
def test_layouts_out_and_where(name):
    uf = getattr(cp, name)
    rng = np.random.default_rng()
    nonneg = name in NONNEGATIVE
    for a, b in LAYOUT_PAIRS:
        try:
            loop = _loop(uf, (np.dtype(a), np.dtype(b)))
        except Exception:
            continue
        for label, x, y in _layouts(rng, a, b, nonneg):
            r = _run(uf, name, [x, y])
            if r is None:
                break  # this pair has no loop (NumPy or cuarray): next pair
            want, got, oracle = r
            _check(name, got, oracle, want, "{} {} {}".format(a, b, label))
        if uf.nout != 1:
            continue
        # out= of another dtype (a transposed view), and where= (the masked kernel)
        od = loop.out_dtypes[0]
        other = next((np.dtype(t) for t in ("float64", "complex128") if np.dtype(t) != od
                      and np.can_cast(od, t, "same_kind")), None)
        x, y = _values(np.dtype(a), (40, 24), rng, nonneg), _values(np.dtype(b), (40, 24), rng, nonneg)
        try:
            want = _numpy(name, [x, y])[0]
        except (TypeError, ValueError):
            continue
        dx, dy = cp.asarray(x), cp.asarray(y)
        if other is not None:
            o = cp.empty((40, 24), dtype=other)  # written through its transpose: a strided output
            assert uf(dx.T, dy.T, out=o.T).dtype == other
            np.testing.assert_allclose(o.get(), want.astype(other), rtol=_tol(od), atol=_tol(od),
                                       equal_nan=True, err_msg="{} {} {} out={}".format(name, a, b, other))
            np.testing.assert_array_equal(o.get(), uf(*_precast(uf, [dx, dy])).astype(other).get())
        w = _values(np.dtype(bool), (40, 24), rng)
        start = _values(od, (40, 24), rng)
        o = cp.asarray(start)
        uf(dx, dy, out=o, where=cp.asarray(w))
        expect = np.where(w, want, start)
        if _tol(od):
            np.testing.assert_allclose(o.get(), expect, rtol=_tol(od), atol=_tol(od), equal_nan=True)
        else:
            np.testing.assert_array_equal(o.get(), expect)


def test_both_sides_of_the_sharing_limit():
    # Mixed calls up to the limit share a kernel, larger ones keep the specialised (vector) kernel:
    # both agree with NumPy and with each other, on the prepared path (second call) too.
    rng = np.random.default_rng()
    limit = ufunc_module._SHARED_LIMIT[0]
    for n in (limit - 1, limit, limit + 1, limit + 4099):
        x, y = _values(np.dtype("int16"), (n,), rng), _values(np.dtype("float32"), (n,), rng)
        dx, dy = cp.asarray(x), cp.asarray(y)
        for _ in range(2):
            np.testing.assert_array_equal(cp.add(dx, dy).get(), x + y)
            np.testing.assert_array_equal(cp.multiply(dy, dx[::-1]).get(), y * x[::-1])
            np.testing.assert_array_equal((dx * 2.5).get(), x * 2.5)


def test_switch_restores_the_specialised_kernels():
    # The private switch (scripts/perf/mixed_dtype_kernels.py): same answers either way.
    rng = np.random.default_rng()
    x, y = _values(np.dtype("uint8"), (1000,), rng), _values(np.dtype("float64"), (1000,), rng)
    dx, dy = cp.asarray(x), cp.asarray(y)
    prev = ufunc_module._set_shared_limit(0)
    try:
        old = [cp.arctan2(dx, dy).get(), cp.less(dx, dy).get(), cp.subtract(dy, dx).get()]
    finally:
        ufunc_module._set_shared_limit(prev)
    new = [cp.arctan2(dx, dy).get(), cp.less(dx, dy).get(), cp.subtract(dy, dx).get()]
    for o, n in zip(old, new):
        np.testing.assert_array_equal(o, n)
    np.testing.assert_array_equal(new[1], x < y)
