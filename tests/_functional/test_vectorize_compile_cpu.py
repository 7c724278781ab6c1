"""vectorize's source compiler without a GPU: the Python CuPy's vectorize compiles (control flow,
loops, tuples, math, casts, several returns) gives NumPy's result dtypes (those numpy.vectorize
gives on the same body), the kernels compile with NVRTC for sm_90, and what cannot be compiled
raises CuPy's exception types."""

import math
import sys
import warnings

import numpy
import pytest

from cuarray._functional import vectorize as V
from cuarray._functional import vectorize_compile as C
from cuarray.cuda import compiler


class _Const:
    x = 10


CONST = _Const()


def _compile(fn, *dts, otypes=None, kwargs=None, nvrtc=True):
    tr = V._Tracer()
    els = [V._Element(tr, numpy.dtype(d), "v%d" % i) for i, d in enumerate(dts)]
    d, outs, is_tuple = V.compile_definition(fn, tr, [numpy.dtype(x) for x in dts], els, kwargs or {}, otypes)
    if nvrtc:
        _, src = d.source("nd", 2, numpy.int64)
        cubin, _ = compiler.compile_cubin(src, arch="sm_90")
        assert cubin[:4] == b"\x7fELF"
    return d, outs, is_tuple


# Bodies of CuPy's own vectorize tests and the list; each has one result type on every
# path, so numpy.vectorize's (the first element's) is the one to match.
def f_if(x):
    if x % 2 == 0:
        y = x
    else:
        y = -x
    return y


def f_elif(x):
    y = 0
    if x % 2 == 0:
        y = x
    elif x % 3 == 0:
        y = -x
    return y


def f_while(x):
    y = 0
    while x > 0:
        y += x
        x -= 1
    return y


def f_for(x):
    y = 0
    for i in range(x):
        y += i
    return y


def f_for_step(x, y, z):
    res = 0
    for i in range(x, y, z):
        res += i * i
    return res


def f_for_counter_after(x):
    for i in range(10):
        pass
    return x + i


def f_for_update_counter(x):
    for i in range(10):
        x += i
        i += 1
    return x


def f_weak_counter(x):
    y = x
    for i in range(3):
        y = y + i  # a Python int: float32 stays float32
    return y


def f_tuple(x, y):
    x, y = y, x
    z = x, y
    (a, b), y = z, x
    return a * a + b + y


def f_return_tuple(x, y):
    return x + y, x / y


def f_minmax(x, y):
    return max(x, y) - min(x, y)


def f_math(x):
    return math.sqrt(abs(x)) + math.exp(-abs(x)) * x + math.floor(x) + math.atan2(x, 2.0)


def f_casts(x):
    return float(x), numpy.float32(x), int(x) if x == x else 0, bool(x)


def f_and_or(x, y):
    return (x > 0 and y > 0) or not x


def f_values_and_or(x, y):
    return x and y


def f_break_continue(x):
    s = 0.0
    for i in range(20):
        if i % 3 == 0:
            continue
        s += x * i
        if s > 50:
            break
    return s


def f_nested(x):
    t = 0
    for i in range(4):
        for j in range(i):
            if (i + j) % 2:
                t += x
            else:
                t -= 1
    return t


def f_const_attr(x):
    cast = numpy.dtype("f").type
    return cast(x) + CONST.x


def f_complex_compare(x, y):
    return x < y, x >= y, max(x, y)


def f_ifexp_chain(x):
    return 1.0 if x < -1 else 0.5 if -1 <= x < 1 else 2.0


def f_defaults(x, k=3):
    return x * k


CASES = [
    (f_if, ["i8"]), (f_elif, ["i8"]), (f_while, ["i8"]), (f_for, ["i8"]), (f_for, ["u8"]),
    (f_for_step, ["i8", "i8", "i8"]), (f_for_counter_after, ["i8"]), (f_for_update_counter, ["i8"]),
    (f_weak_counter, ["f4"]), (f_tuple, ["i8", "i8"]), (f_return_tuple, ["i8", "i8"]),
    (f_minmax, ["f4", "i2"]), (f_minmax, ["i4", "f8"]), (f_math, ["f4"]), (f_math, ["i4"]),
    (f_casts, ["f4"]), (f_casts, ["i2"]), (f_and_or, ["f8", "i4"]), (f_values_and_or, ["f8", "f8"]),
    (f_break_continue, ["f4"]), (f_nested, ["i4"]), (f_const_attr, ["i4"]),
    (f_ifexp_chain, ["f4"]), (f_defaults, ["f4"]),
]


def _numpy_dtypes(fn, dts):
    rng = numpy.random.default_rng()
    args = [(rng.random(5) * 8 + 1).astype(d) for d in dts]
    with numpy.errstate(all="ignore"):
        res = numpy.vectorize(fn)(*args)
    return [r.dtype for r in (res if isinstance(res, tuple) else (res,))], isinstance(res, tuple)


@pytest.mark.parametrize("fn,dts", CASES, ids=lambda c: c.__name__ if callable(c) else "-".join(c))
def test_result_dtypes_are_numpy_vectorizes_and_kernel_compiles(fn, dts):
    want, want_tuple = _numpy_dtypes(fn, dts)
    _, outs, is_tuple = _compile(fn, *dts)
    assert list(outs) == want
    assert is_tuple == want_tuple


def test_complex_comparisons_are_numpys_order():
    # (numpy.vectorize itself calls the function on Python complex numbers, which have no order;
    # NumPy's scalars and arrays order complex numbers lexicographically, and so does the kernel.)
    d, outs, is_tuple = _compile(f_complex_compare, "c16", "c16")
    assert outs == (numpy.dtype("?"), numpy.dtype("?"), numpy.dtype("c16")) and is_tuple
    assert "cuarray::less(" in d.operation


def test_two_lambdas_on_one_line_are_told_apart():
    # CuPy raises ValueError ("Multiple callables are found"); the code's columns say which is which.
    fs = [lambda a, b: a + b, lambda a, b: a * b]
    d0, _, _ = _compile(fs[0], "i8", "i8", nvrtc=False)
    d1, _, _ = _compile(fs[1], "i8", "i8", nvrtc=False)
    assert "in0 + in1" in d0.operation and "in0 * in1" not in d0.operation
    assert "in0 * in1" in d1.operation


def test_loop_variable_types_settle_to_the_promoted_type():
    def f(x):
        y = 0
        for i in range(3):
            y += x * 0.5  # int y meets float: y is float64 at the loop's head
        return y

    d, outs, _ = _compile(f, "i4")
    assert outs == (numpy.dtype("f8"),)
    assert "double l_y_float64" in d.operation


def test_branch_decided_by_a_constant_is_not_compiled():
    flag = False

    def f(x):
        if flag:
            return x.no_such_attribute
        return x + 1

    _, outs, _ = _compile(f, "i2", nvrtc=False)
    assert outs == (numpy.dtype("i2"),)


def test_excluded_argument_is_a_python_value():
    def f(x, table):
        return x * table[1]

    tr = V._Tracer()
    el = V._Element(tr, numpy.dtype("f4"), "v0")
    d, outs, _ = V.compile_definition(f, tr, [numpy.dtype("f4")], [el, (1, 2.5)], {})
    assert outs == (numpy.dtype("f4"),) and [float(v) for _, _, v in tr.consts] == [2.5]


def test_otypes_cast_the_returns():
    _, outs, _ = _compile(f_if, "i8", otypes=(numpy.dtype("f4"),))
    assert outs == (numpy.dtype("f4"),)


@pytest.mark.parametrize("fn,exc,match", [
    (lambda x: None, TypeError, "Invalid return type"),
    (lambda x: (x, (x, x)), TypeError, "nested tuple"),
], ids=["none", "nested"])
def test_lambda_errors(fn, exc, match):
    with pytest.raises(exc, match=match):
        _compile(fn, "f4", nvrtc=False)


def g_no_return(x):
    x + 1


def g_bare_return(x):
    return


def g_const_not_top(x):
    if x == 3:
        typecast = numpy.dtype("f").type  # noqa: F841
    return x


def g_for_list(x):
    for v in [1, 2]:
        x += v
    return x


def g_nested_def(x):
    def h(y):
        return y
    return h(x)


def g_import(x):
    import math as m  # noqa: F401
    return x


def g_try(x):
    try:
        return x
    except Exception:
        return x


def g_with(x):
    with open("f"):
        return x


def g_return_counts(x):
    if x > 0:
        return x, x
    return x


def g_unpack(x):
    a, b, c = x, x
    return a


def g_may_fall_off(x):
    if x > 0:
        return x


def g_unbound(x):
    return x + not_defined_anywhere  # noqa: F821


def g_range_float(x):
    for i in range(x):
        pass
    return x


ERRORS = [
    (g_no_return, TypeError, "Invalid return type"),
    (g_bare_return, TypeError, "Invalid return type"),
    (g_const_not_top, TypeError, "Cannot assign constant value not at top-level"),
    (g_for_list, NotImplementedError, "only for range"),
    (g_nested_def, NotImplementedError, "Nested functions"),
    (g_import, ValueError, "Cannot import"),
    (g_try, ValueError, "throw/catch"),
    (g_with, ValueError, "Switching contexts"),
    (g_return_counts, ValueError, "Failed to infer the return type"),
    (g_unpack, ValueError, "not enough values to unpack"),
    (g_may_fall_off, TypeError, "without returning"),
    (g_unbound, NameError, "not_defined_anywhere"),
    (g_range_float, TypeError, "range supports only for integer type"),
]


@pytest.mark.parametrize("fn,exc,match", ERRORS, ids=[e[0].__name__ for e in ERRORS])
def test_what_cannot_be_compiled_raises_cupys_exception_type(fn, exc, match):
    with pytest.raises(exc, match=match):
        _compile(fn, "f4", nvrtc=False)


def test_error_message_shows_the_statement():
    with pytest.raises(TypeError) as info:
        _compile(g_const_not_top, "i4", nvrtc=False)
    assert ">         typecast = numpy.dtype" in str(info.value)


@pytest.mark.parametrize("fn", [lambda x: float(x), lambda x: math.sqrt(x), lambda x: numpy.float64(x)],
                         ids=["float", "math", "numpy"])
def test_complex_to_real_warns_as_numpy(fn):
    with pytest.warns(numpy.exceptions.ComplexWarning):
        _compile(fn, "c8", nvrtc=False)


def test_int_of_complex_warns_and_complex_of_int_is_complex128():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert _compile(lambda x: complex(x), "i1", nvrtc=False)[1] == (numpy.dtype("c16"),)


def test_sources_that_cannot_be_read_are_traced():
    assert C.function_source(numpy.exp) is None
    assert C.function_source(math.sqrt) is None
    ns = {}
    exec("def f(x):\n    return x + 1\n", ns)  # (no file: what the interactive prompt gives)
    assert C.function_source(ns["f"]) is None


# -- what the code computes: the generated body run on the host (g++), against numpy.vectorize --

import _host_cpp  # noqa: E402  (tests/_functional is on sys.path under pytest)

HOST_CASES = [c for c in CASES] + [(f_complex_compare, ["c16", "c16"])]


def _host_data(fn, dts, n=48):
    rng = numpy.random.default_rng()
    out = []
    for d in dts:
        d = numpy.dtype(d)
        if d.kind in "iu":
            out.append(rng.integers(1, 12, n).astype(d))
        elif d.kind == "c":
            out.append((rng.integers(0, 3, n) + 1j * rng.integers(0, 3, n)).astype(d))
        else:
            out.append(((rng.random(n) - 0.3) * 8).astype(d))
    if fn is f_for_step:
        out[2] = (numpy.where(out[2] % 2 == 0, -1, 2) * (out[2] % 3 + 1)).astype(dts[2])
    return out


@pytest.mark.skipif(not _host_cpp.HAVE_GXX, reason="no g++")
@pytest.mark.parametrize("fn,dts", HOST_CASES, ids=lambda c: c.__name__ if callable(c) else "-".join(c))
def test_values_are_numpy_vectorizes_on_the_host(fn, dts):
    args = _host_data(fn, dts)
    tr = V._Tracer()
    els = [V._Element(tr, numpy.dtype(d), "v%d" % i) for i, d in enumerate(dts)]
    d, outs, is_tuple = V.compile_definition(fn, tr, [numpy.dtype(x) for x in dts], els, {})
    got = _host_cpp.run(d, tr.consts, args)
    if fn is f_complex_compare:  # (NumPy's order of complex numbers; Python's complex has none)
        x, y = args
        want = [x < y, x >= y, numpy.where(y > x, y, x)]
    else:
        with numpy.errstate(all="ignore"):
            want = numpy.vectorize(fn)(*args)
        want = list(want) if is_tuple else [want]
    for g, w in zip(got, want):
        tol = 1e-5 if w.dtype.char in "fF" else 1e-12
        numpy.testing.assert_allclose(g.astype(w.dtype), w, rtol=tol, atol=tol)


def f_ufunc_dtype(x, y):
    return numpy.add(x, y, dtype=numpy.float64), numpy.multiply(x, 2, dtype="f4")


@pytest.mark.skipif(not _host_cpp.HAVE_GXX, reason="no g++")
def test_ufunc_dtype_keyword_is_the_loops_type():
    # CuPy's test_vectorize_ufunc_call_dtype: add(x, y, dtype=...) inside the function.
    args = _host_data(f_ufunc_dtype, ["i2", "i2"])
    tr = V._Tracer()
    els = [V._Element(tr, numpy.dtype("i2"), "v%d" % i) for i in range(2)]
    d, outs, _ = V.compile_definition(f_ufunc_dtype, tr, [numpy.dtype("i2")] * 2, els, {})
    want = numpy.vectorize(f_ufunc_dtype)(*args)
    assert list(outs) == [w.dtype for w in want]
    for g, w in zip(_host_cpp.run(d, tr.consts, args), want):
        numpy.testing.assert_array_equal(g, w)


def test_ufunc_keywords_other_than_dtype_are_refused():
    with pytest.raises(TypeError, match="dtype= is"):
        _compile(lambda x: numpy.add(x, 1, casting="unsafe"), "f4", nvrtc=False)


def _helper(v):
    return v * 2 + 1


def f_misc(x):
    n = 0
    while True:  # (a loop left by break only)
        n += 1
        if n * x > 20 or n > 50:
            break
    for k in range(5):
        if k == 3:
            return _helper(x) + math.log(abs(x) + 1, 2) + n
    return x


@pytest.mark.skipif(not _host_cpp.HAVE_GXX, reason="no g++")
def test_while_true_return_in_loop_helper_and_log_base():
    args = _host_data(f_misc, ["f8"])
    tr = V._Tracer()
    d, outs, _ = V.compile_definition(f_misc, tr, [numpy.dtype("f8")], [V._Element(tr, numpy.dtype("f8"), "v0")], {})
    want = numpy.vectorize(f_misc)(*args)
    assert outs == (want.dtype,)
    numpy.testing.assert_allclose(_host_cpp.run(d, tr.consts, args)[0], want, rtol=1e-13)


# -- the program cache: reused while every name the source read is the same object --

SCALE = 2.0


def f_scaled(x):
    return x * SCALE + math.pi


def f_mutable(x):
    return x + CONST.x


class _Arr:
    def __init__(self, dt):
        self.dtype = numpy.dtype(dt)


def _cached_call(vec, monkeypatch, dts, extra=()):
    compiled = []
    real = V.compile_definition

    def counting(*a, **k):
        compiled.append(1)
        return real(*a, **k)

    monkeypatch.setattr(V, "compile_definition", counting)
    monkeypatch.setattr(V.vectorize, "_launch", staticmethod(lambda d, arrays, o, t, consts, shape: (d, consts)))
    tr = V._Tracer()
    els = [V._Element(tr, numpy.dtype(d), "v%d" % i) for i, d in enumerate(dts)]
    d, consts = vec._compiled(tr, [_Arr(x) for x in dts], els + list(extra), {}, (3,))
    return d, [float(c) for c in consts], len(compiled)


def test_program_is_reused_until_a_name_it_read_changes(monkeypatch):
    global SCALE
    vec = V.vectorize(f_scaled)
    d1, c1, n1 = _cached_call(vec, monkeypatch, ["f4"])
    d2, c2, n2 = _cached_call(vec, monkeypatch, ["f4"])
    assert (n1, n2) == (1, 0) and d2 is d1 and c2 == c1 == [2.0, numpy.float32(math.pi)]
    _, _, n3 = _cached_call(vec, monkeypatch, ["f8"])  # another dtype: compiled
    assert n3 == 1
    monkeypatch.setattr(sys.modules[__name__], "SCALE", 3.0)
    _, c4, n4 = _cached_call(vec, monkeypatch, ["f4"])
    assert n4 == 1 and c4[0] == 3.0


def test_program_reading_a_mutable_object_is_compiled_at_every_call(monkeypatch):
    vec = V.vectorize(f_mutable)
    assert _cached_call(vec, monkeypatch, ["i4"])[2] == 1
    monkeypatch.setattr(_Const, "x", 11)
    _, consts, n = _cached_call(vec, monkeypatch, ["i4"])
    assert n == 1 and consts == [11.0]


def test_excluded_values_are_compared_by_identity(monkeypatch):
    def f(x, table):
        return x * table[1]

    vec = V.vectorize(f, excluded={1})
    t1 = (1, 2.5)
    assert _cached_call(vec, monkeypatch, ["f8"], (t1,))[2] == 1
    assert _cached_call(vec, monkeypatch, ["f8"], (t1,))[2] == 0
    _, consts, n = _cached_call(vec, monkeypatch, ["f8"], ((1, 4.5),))
    assert n == 1 and consts == [4.5]


def test_keyword_order_is_part_of_the_key(monkeypatch):
    def f(x, y):
        return x - y

    vec = V.vectorize(f)
    monkeypatch.setattr(V.vectorize, "_launch", staticmethod(lambda d, arrays, o, t, consts, shape: d))
    ops = []
    for names in (("x", "y"), ("y", "x")):
        tr = V._Tracer()
        kw = {n: V._Element(tr, numpy.dtype("f4"), "v%d" % i) for i, n in enumerate(names)}
        ops.append(vec._compiled(tr, [_Arr("f4"), _Arr("f4")], [], kw, (3,)).operation)
    assert "cast<float>(v0); const float in1 = cuarray::cast<float>(v1)" in ops[0]
    assert "cast<float>(v1); const float in1 = cuarray::cast<float>(v0)" in ops[1]


# CuPy's test_vectorize_typecast / _ifexp / _logical_not bodies over a sample of dtype pairs, on the host.
CAST_PAIRS = [("i1", "f8"), ("u2", "i1"), ("f4", "i4"), ("f8", "u1"), ("i8", "f4"), ("?", "i2"), ("f4", "?"),
              ("c8", "f4"), ("c16", "i8"), ("i4", "c8"), ("u8", "f8"), ("f2", "f8")]


def _run_host(fn, dts, args):
    tr = V._Tracer()
    els = [V._Element(tr, numpy.dtype(d), "v%d" % i) for i, d in enumerate(dts)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", numpy.exceptions.ComplexWarning)
        d, outs, _ = V.compile_definition(fn, tr, [numpy.dtype(x) for x in dts], els, {})
        want = numpy.vectorize(fn)(*args)
    return outs, _host_cpp.run(d, tr.consts, args), want


@pytest.mark.skipif(not _host_cpp.HAVE_GXX, reason="no g++")
@pytest.mark.parametrize("src,dst", CAST_PAIRS, ids=lambda d: d)
def test_typecast_ifexp_and_not_on_the_host(src, dst):
    typecast = numpy.dtype(dst).type
    rng = numpy.random.default_rng()
    x = (rng.random(40) * 10).astype(src)  # (non-negative, below 10: every cast is defined)
    c = (rng.random(40) > 0.5).astype(dst if dst not in ("c8", "c16") else "?")
    y = (rng.random(40) * 10).astype(src)

    def cast(v):
        return typecast(v)

    def ifexp(k, a, b):
        return a if k else b

    def lnot(v):
        return not v

    for fn, args in ((cast, [x]), (ifexp, [c, x, y]), (lnot, [x])):
        if fn is cast and x.dtype.kind == "c" and numpy.dtype(dst).kind != "c":
            # numpy.vectorize calls the function on Python complex numbers, which float()/int()
            # refuse (TypeError); cuarray casts as NumPy's scalars do (ComplexWarning, the real
            # part), as CuPy does.
            with pytest.warns(numpy.exceptions.ComplexWarning):
                _compile(cast, x.dtype.str, nvrtc=False)
            tr = V._Tracer()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", numpy.exceptions.ComplexWarning)
                d, _, _ = V.compile_definition(cast, tr, [x.dtype], [V._Element(tr, x.dtype, "v0")], {})
                want = numpy.array([typecast(v) for v in x])
            numpy.testing.assert_array_equal(_host_cpp.run(d, tr.consts, [x])[0].astype(want.dtype), want)
            continue
        outs, got, want = _run_host(fn, [a.dtype.str for a in args], args)
        assert outs == (want.dtype,), fn.__name__
        numpy.testing.assert_array_equal(got[0].astype(want.dtype), want)


def f_where(x, y):
    return numpy.where(x > y, x, 0.5) + 0


@pytest.mark.skipif(not _host_cpp.HAVE_GXX, reason="no g++")
def test_where_of_elements_is_a_selection():
    rng = numpy.random.default_rng()
    x, y = rng.random(30).astype("f4"), rng.random(30).astype("f4")
    outs, got, want = _run_host(f_where, ["f4", "f4"], [x, y])
    assert outs == (want.dtype,)
    numpy.testing.assert_array_equal(got[0], want)
