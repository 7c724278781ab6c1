"""cuarray._core.dtypes against NumPy (the oracle)."""

import itertools
import warnings

import numpy as np
import pytest

from cuarray._core import dtypes as D

DTYPES = D.SUPPORTED_DTYPES
DT_IDS = [dt.name for dt in DTYPES]
WEAK_VALUES = {int: 1, float: 1.0, complex: 1j, bool: True}

UFUNCS = sorted((name for name in dir(np) if isinstance(getattr(np, name), np.ufunc)
                 and getattr(np, name).nin in (1, 2)))


# ----------------------------------------------------------------------------- tables

def test_supported_order():
    assert [dt.name for dt in DTYPES] == [
        "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
        "float16", "float32", "float64", "complex64", "complex128"]


@pytest.mark.parametrize("dt", DTYPES, ids=DT_IDS)
def test_ctype_and_short_name(dt):
    c = D.ctype(dt)
    assert D.ctype(dt.type) == D.ctype(dt.name) == c
    assert D.short_name(dt) == D.short_name(dt.type) == dt.name
    if dt.kind in "iu":
        base = c.replace("unsigned ", "").replace("signed ", "")
        size = {"char": 1, "short": 2, "int": 4, "long long": 8}[base]
        assert size == dt.itemsize
        assert c.startswith("unsigned") == (dt.kind == "u")


def test_ctype_values():
    assert D.ctype(np.bool_) == "bool"
    assert D.ctype(np.int8) == "signed char"
    assert D.ctype(np.uint64) == "unsigned long long"
    assert D.ctype(np.float16) == "__half"
    assert D.ctype(np.complex64) == "complex<float>"
    assert D.ctype(np.complex128) == "complex<double>"


# ----------------------------------------------------------------------------- normalisation

@pytest.mark.parametrize("spec", [
    None, bool, int, float, complex, "f4", "float32", "int64", "q", "l", "p", "L", "Q", "i", "I",
    "h", "b", "e", "d", "F", "D", "?", "<f8", "=i2", "|u1", np.float32, np.intp, np.uintp,
    np.longlong, np.ulonglong, np.dtype("q"), np.int_, np.double, np.csingle,
], ids=repr)
def test_normalize_matches_numpy(spec):
    dt = D.normalize_dtype(spec)
    assert dt == np.dtype(spec)
    assert dt in DTYPES
    # Canonical instance: one object per supported dtype.
    assert any(dt is s for s in DTYPES)
    assert D.normalize_dtype(spec) is dt  # memoised path


@pytest.mark.parametrize("spec", [
    object, "O", str, "U5", bytes, "S3", "V8", np.longdouble,
    np.clongdouble, [("a", "i4")], "(2,)f4", np.dtype([("x", "f8"), ("y", "f8")]),
], ids=repr)
def test_normalize_rejects_unsupported(spec):
    with pytest.raises(TypeError) as info:
        D.normalize_dtype(spec)
    assert str(np.dtype(spec)) in str(info.value)
    assert "cuarray does not support dtype" in str(info.value)


@pytest.mark.parametrize("spec", [">f4", ">i8", ">c16", np.dtype("<u2").newbyteorder()], ids=repr)
def test_normalize_rejects_non_native(spec):
    with pytest.raises(TypeError, match="byte order") as info:
        D.normalize_dtype(spec)
    assert np.dtype(spec).str in str(info.value)


def test_normalize_bad_spec_is_type_error():
    with pytest.raises(TypeError):
        D.normalize_dtype("not a dtype")


# ----------------------------------------------------------------------------- categories

@pytest.mark.parametrize("dt", DTYPES, ids=DT_IDS)
def test_categories(dt):
    assert D.is_bool(dt) == (dt == np.bool_)
    assert D.is_signed_int(dt) == np.issubdtype(dt, np.signedinteger)
    assert D.is_unsigned_int(dt) == np.issubdtype(dt, np.unsignedinteger)
    assert D.is_integer(dt) == np.issubdtype(dt, np.integer)
    assert D.is_float(dt) == np.issubdtype(dt, np.floating)
    assert D.is_complex(dt) == np.issubdtype(dt, np.complexfloating)
    assert D.is_inexact(dt) == np.issubdtype(dt, np.inexact)
    assert D.is_float(dt.type) == D.is_float(dt.name) == D.is_float(dt)


# ----------------------------------------------------------------------------- promotion

@pytest.mark.parametrize("a", DTYPES, ids=DT_IDS)
def test_result_type_pairs(a):
    for b in DTYPES:
        assert D.result_type(a, b) == np.result_type(a, b), (a, b)
        assert D.result_type(a.type, b.name) == np.result_type(a, b), (a, b)


@pytest.mark.parametrize("a", DTYPES, ids=DT_IDS)
def test_result_type_weak_scalars(a):
    arr = np.ones(2, a)
    for value in (True, 0, 1, -1, 1000, 2**70, 0.5, 1e300, 1j, 1e300j):
        expected = np.result_type(arr, value)
        assert D.result_type(a, value) == expected, (a, value)
        assert D.result_type(value, arr) == np.result_type(value, arr), (a, value)
        # NumPy scalars and arrays are strong.
        strong = np.asarray(value)
        if strong.dtype != object:
            assert D.result_type(arr, strong) == np.result_type(arr, strong), (a, value)
            assert D.result_type(arr, strong[()]) == np.result_type(arr, strong[()]), (a, value)
    # The Python *type* as a dtype spec is strong (int -> int64), as in NumPy.
    for t in (int, float, complex, bool):
        assert D.result_type(a, t) == np.result_type(a, t), (a, t)


def test_result_type_triples_and_weak_only():
    rng = np.random.default_rng(0)
    for _ in range(300):
        args = [DTYPES[i] for i in rng.integers(0, len(DTYPES), 3)]
        assert D.result_type(*args) == np.result_type(*args), args
    for combo in itertools.product([True, 1, 1.0, 1j], repeat=2):
        assert D.result_type(*combo) == np.result_type(*combo), combo
    assert D.result_type(np.float32(1), 2) == np.float32
    args = (np.int8(1), np.int16(1), 1.0)
    assert D.result_type(*args) == np.result_type(*args)
    assert D.result_type(np.float16(1), 1.0) == np.float16
    with pytest.raises(ValueError):
        D.result_type()


def test_weak_scalar_kind():
    class MyInt(int):
        pass
    assert D.weak_scalar_kind(1) is int
    assert D.weak_scalar_kind(True) is bool
    assert D.weak_scalar_kind(1.0) is float
    assert D.weak_scalar_kind(1j) is complex
    # NumPy 2 treats NumPy scalars and int subclasses as strong.
    assert D.weak_scalar_kind(np.float64(1)) is None
    assert D.weak_scalar_kind(MyInt(1)) is None
    assert np.result_type(np.int8, MyInt(1)) == np.int64
    assert D.weak_scalar_kind(np.ones(1)) is None


# ----------------------------------------------------------------------------- weak scalar values

SCALARS = [
    True, False, 0, 1, -1, 127, 128, -128, -129, 255, 256, 1000, -1000, 2**15, 2**16, 2**31,
    -2**31 - 1, 2**32, 2**63 - 1, 2**63, -2**63, -2**63 - 1, 2**64 - 1, 2**64, 2**100, -2**100,
    2**1024, 0.5, -1.5, 1e300, -1e300, 1e-300, 65504.0, 65520.0, 3.5e38, float("nan"),
    float("inf"), 1j, 1 + 2j, 1e300 + 1j, complex(float("inf"), 0),
]


def _outcome(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = fn()
        except Exception as exc:  # noqa: BLE001 - comparing exceptions is the point
            return ("raise", type(exc), str(exc)), []
    return result, sorted({w.category.__name__ for w in caught})


@pytest.mark.parametrize("dt", DTYPES, ids=DT_IDS)
def test_check_weak_scalar_like_numpy_add(dt):
    bad = []
    for value in SCALARS:
        expected, exp_warn = _outcome(lambda: np.zeros(1, dt) + value)
        try:
            loop = D.ufunc_loop_dtypes(np.add, (dt, type(value)))
        except TypeError:
            continue  # no loop: the op fails before conversion (not the case for add)
        got, got_warn = _outcome(lambda: D.check_weak_scalar(value, loop[1]))
        if isinstance(expected, tuple):
            if got != expected:
                bad.append((value, expected, got))
            continue
        if isinstance(got, tuple):
            bad.append((value, expected, got))
            continue
        if expected.dtype != loop[2] or got.dtype != loop[1] or exp_warn != got_warn:
            bad.append((value, expected.dtype, got.dtype, exp_warn, got_warn))
        elif not np.array_equal(expected[0], np.zeros((), loop[1]) + got, equal_nan=True):
            bad.append((value, expected[0], got))
    assert not bad, f"{dt}: {bad}"


def test_check_weak_scalar_messages():
    with pytest.raises(OverflowError, match="Python integer 1000 out of bounds for int8"):
        D.check_weak_scalar(1000, np.dtype(np.int8))
    with pytest.raises(OverflowError, match="Python integer -1 out of bounds for uint8"):
        D.check_weak_scalar(-1, np.dtype(np.uint8))
    with pytest.warns(RuntimeWarning, match="overflow"):
        assert np.isinf(D.check_weak_scalar(1e300, np.dtype(np.float32)))
    assert D.check_weak_scalar(1.5, np.dtype(np.float64)) == 1.5
    assert type(D.check_weak_scalar(1, np.dtype(np.int8))) is np.int8


@pytest.mark.parametrize("name", ["logical_and", "logical_or", "maximum", "copysign", "left_shift",
                                  "heaviside", "arctan2", "gcd", "fmod"])
def test_check_weak_scalar_other_ufuncs(name):
    ufunc = getattr(np, name)
    bad = []
    for dt, value in itertools.product(DTYPES, SCALARS):
        try:
            loop = D.ufunc_loop_dtypes(ufunc, (dt, type(value)))
        except TypeError:
            continue
        expected, exp_warn = _outcome(lambda: ufunc(np.ones(1, dt), value))
        got, got_warn = _outcome(lambda: D.check_weak_scalar(value, loop[1]))
        if isinstance(expected, tuple) != isinstance(got, tuple):
            bad.append((dt, value, expected, got))
        elif isinstance(expected, tuple) and expected != got:
            bad.append((dt, value, expected, got))
        elif not isinstance(expected, tuple) and "RuntimeWarning" in got_warn and not exp_warn:
            bad.append((dt, value, exp_warn, got_warn))
    assert not bad, f"{name}: {bad[:10]}"


@pytest.mark.parametrize("name", ["equal", "not_equal", "less", "less_equal", "greater",
                                  "greater_equal"])
@pytest.mark.parametrize("dt", [dt for dt in DTYPES if dt.kind in "iu"], ids=lambda d: d.name)
def test_int_out_of_range_comparisons(name, dt):
    ufunc = getattr(np, name)
    info = np.iinfo(dt)
    arr = np.array([info.min, 0, info.max], dt)
    for value in (-1, 1000, -1000, 2**63, 2**64, -2**63 - 1, 2**100, -2**100, 5):
        side = D.int_out_of_range(value, dt)
        assert side == (-1 if value < info.min else 1 if value > info.max else 0)
        if side:
            # Every element compares the same way: like comparing with +-infinity.
            expected = ufunc(arr, value)
            assert (expected == ufunc(arr.astype(float), side * np.inf)).all(), (name, dt, value)
        else:
            D.check_weak_scalar(value, dt)


def test_check_weak_scalar_unsafe_dtype_argument():
    # Only an explicit dtype= with casting='unsafe' narrows a scalar's kind.
    for dt, value in [(np.int8, 1000.5), (np.int16, 2.5), (np.float32, 1 + 1j), (np.bool_, 0.5)]:
        dt = np.dtype(dt)
        expected, exp_warn = _outcome(
            lambda: np.add(np.zeros(1, dt), value, dtype=dt, casting="unsafe"))
        got, got_warn = _outcome(lambda: D.check_weak_scalar(value, dt))
        assert exp_warn == got_warn, (dt, value)
        assert expected[0] == np.zeros((), dt) + got, (dt, value)


# ----------------------------------------------------------------------------- ufunc loops

def _operand(dt, weak):
    if weak is not None:
        return WEAK_VALUES[weak]
    # 2x2 so that the gufuncs (matmul, vecdot, matvec, vecmat) accept it too.
    return np.array([[1, 2], [1, 2]]).astype(dt)


def _numpy_out_dtypes(ufunc, operands, **kwargs):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            out = ufunc(*operands, **kwargs)
        except TypeError:
            return "TypeError"
        except ValueError:
            return None  # e.g. gufunc core dims with a scalar: not a dtype question
    out = out if isinstance(out, tuple) else (out,)
    return tuple(np.asarray(o).dtype for o in out)


def _ours(ufunc, in_types, **kwargs):
    try:
        loop = D.ufunc_loop_dtypes(ufunc, in_types, **kwargs)
    except TypeError:
        return "TypeError"
    assert len(loop) == ufunc.nin + ufunc.nout
    assert all(any(d is s for s in DTYPES) for d in loop), loop
    return loop[ufunc.nin:]


def _type_cases(nin):
    if nin == 1:
        return [(dt,) for dt in DTYPES]
    cases = list(itertools.product(DTYPES, repeat=2))
    for dt in DTYPES:
        for weak in (bool, int, float, complex):
            cases += [(dt, weak), (weak, dt)]
    return cases


@pytest.mark.parametrize("name", UFUNCS)
def test_ufunc_loop_dtypes_match_numpy(name):
    ufunc = getattr(np, name)
    bad = []
    for in_types in _type_cases(ufunc.nin):
        operands = [_operand(t, None) if isinstance(t, np.dtype) else _operand(None, t)
                    for t in in_types]
        expected = _numpy_out_dtypes(ufunc, operands)
        if expected is None:
            continue
        got = _ours(ufunc, in_types)
        if got != expected:
            bad.append((tuple(getattr(t, "name", t.__name__) for t in in_types), expected, got))
    assert not bad, f"{name}: {bad[:10]}"


@pytest.mark.parametrize("name", ["add", "multiply", "sqrt", "divmod", "true_divide",
                                  "floor_divide", "negative", "less", "modf", "power"])
def test_ufunc_loop_dtypes_dtype_argument(name):
    ufunc = getattr(np, name)
    bad = []
    rng = np.random.default_rng(1)
    cases = _type_cases(ufunc.nin)
    for i in rng.permutation(len(cases))[:60]:
        in_types = cases[i]
        operands = [_operand(t, None) if isinstance(t, np.dtype) else _operand(None, t)
                    for t in in_types]
        for out_dt in (np.dtype(np.float32), np.dtype(np.int16), np.dtype(np.complex128)):
            for casting in ("same_kind", "unsafe"):
                expected = _numpy_out_dtypes(ufunc, operands, dtype=out_dt, casting=casting)
                if expected is None:
                    continue
                got = _ours(ufunc, in_types, dtype=out_dt, casting=casting)
                if got != expected:
                    bad.append((in_types, out_dt, casting, expected, got))
    assert not bad, f"{name}: {bad[:10]}"


def test_ufunc_loop_dtypes_examples():
    f4, i1, u1, b = (np.dtype(t) for t in (np.float32, np.int8, np.uint8, np.bool_))
    assert D.ufunc_loop_dtypes(np.add, (f4, float)) == (f4, f4, f4)
    assert D.ufunc_loop_dtypes(np.add, (i1, int)) == (i1, i1, i1)
    assert D.ufunc_loop_dtypes(np.add, (u1, int)) == (u1, u1, u1)
    assert D.ufunc_loop_dtypes(np.add, (b, int))[2] == np.int64
    assert D.ufunc_loop_dtypes(np.add, (i1, float))[2] == np.float64
    assert D.ufunc_loop_dtypes(np.add, [i1, i1]) == (i1, i1, i1)  # list accepted
    # The input loop dtypes say what to cast each input to.
    assert D.ufunc_loop_dtypes(np.add, (i1, f4)) == (f4, f4, f4)
    with pytest.raises(TypeError):  # NumPy's own _UFuncNoLoopError
        D.ufunc_loop_dtypes(np.bitwise_and, (f4, i1))
    with pytest.raises(TypeError):  # NumPy's _UFuncInputCastingError
        D.ufunc_loop_dtypes(np.add, (np.dtype(np.float64), f4), dtype=np.int8)


def test_can_cast():
    for a, b in itertools.product(DTYPES, repeat=2):
        for casting in ("no", "equiv", "safe", "same_kind", "unsafe"):
            assert D.can_cast(a, b, casting) == np.can_cast(a, b, casting), (a, b, casting)
    assert D.can_cast(np.int8, "f4") is True
