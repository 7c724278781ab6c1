"""Every ufunc against NumPy on the GPU: an op-record table (JAX's op_record) over every loop.

Each record names a ufunc, the data domain of its inputs and a tolerance class. Every loop NumPy
has (restricted to cuarray's dtypes) runs once on small contiguous random data; layouts, scalars,
`out=`, `where=` and edge values (NaN, inf, -0.0, division by zero, INT_MIN) run for a
representative float and int dtype. Data is fresh random data seeded by the test id.
"""

from __future__ import annotations

import itertools
import zlib
from typing import NamedTuple

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
from cuarray import testing  # noqa: E402
from cuarray._bitwise import ops as _bitwise_ops  # noqa: E402
from cuarray._core.ufunc import ufunc as _ufunc  # noqa: E402
from cuarray._logic import comparison as _comparison, content as _content, ops as _logic_ops  # noqa: E402
from cuarray._math import (arithmetic as _arithmetic, complex as _complex, explog as _explog,  # noqa: E402
                           extrema as _extrema, floating as _floating, hyperbolic as _hyperbolic,
                           misc as _misc, rational as _rational, rounding as _rounding,
                           trigonometric as _trigonometric)
from cuarray._sorting import searching as _searching  # noqa: E402

_MODULES = (_arithmetic, _explog, _trigonometric, _hyperbolic, _rounding, _floating, _rational, _complex,
            _extrema, _misc, _comparison, _logic_ops, _content, _bitwise_ops, _searching)


def cu(name):
    """The cuarray function `name` (the public one once exported, else from its module)."""
    obj = getattr(cuarray, name, None)
    if obj is not None:
        return obj
    for m in _MODULES:
        obj = getattr(m, name, None)
        if obj is not None:
            return obj
    raise AttributeError(name)


# -- the op records ----------------------------------------------------------------------------------
class Op(NamedTuple):
    name: str
    domains: tuple = ("any",)  # one per input (the last repeats)
    tol: str = "arith"         # 'exact' | 'arith' | 'transc' | 'ctransc' (complex transcendental)


OPS = [
    # arithmetic
    Op("add"), Op("subtract"), Op("multiply"), Op("divide", ("any", "nonzero")),
    Op("floor_divide", ("any", "nonzero")), Op("negative"), Op("positive"),
    Op("power", ("pbase", "exponent"), "transc"), Op("float_power", ("pbase", "exponent"), "transc"),
    Op("remainder", ("any", "nonzero")), Op("fmod", ("any", "nonzero")), Op("divmod", ("any", "nonzero")),
    Op("reciprocal", ("nonzero",)),
    # exponents and logarithms
    Op("exp", tol="transc"), Op("exp2", tol="transc"), Op("expm1", tol="transc"),
    Op("log", ("positive",), "transc"), Op("log2", ("positive",), "transc"), Op("log10", ("positive",), "transc"),
    Op("log1p", ("gtm1",), "transc"), Op("logaddexp", tol="transc"), Op("logaddexp2", tol="transc"),
    # trigonometric
    Op("sin", tol="transc"), Op("cos", tol="transc"), Op("tan", ("unit",), "transc"),
    Op("arcsin", ("unit",), "transc"), Op("arccos", ("unit",), "transc"), Op("arctan", tol="transc"),
    Op("arctan2", tol="transc"), Op("hypot"), Op("deg2rad"), Op("rad2deg"), Op("degrees"), Op("radians"),
    # hyperbolic
    Op("sinh", tol="transc"), Op("cosh", tol="transc"), Op("tanh", tol="transc"),
    Op("arcsinh", tol="transc"), Op("arccosh", ("ge1",), "transc"), Op("arctanh", ("unit",), "transc"),
    # rounding
    Op("rint", ("halves",), "exact"), Op("floor", ("halves",), "exact"), Op("ceil", ("halves",), "exact"),
    Op("trunc", ("halves",), "exact"),
    # floating point routines
    Op("signbit", tol="exact"), Op("copysign", tol="exact"), Op("nextafter", tol="exact"),
    Op("spacing", tol="exact"), Op("modf", tol="exact"), Op("ldexp", ("any", "exponent"), "exact"),
    Op("frexp", tol="exact"),
    # rational
    Op("gcd"), Op("lcm"),
    # complex
    Op("conjugate", tol="exact"),
    # extrema
    Op("maximum", tol="exact"), Op("minimum", tol="exact"), Op("fmax", tol="exact"), Op("fmin", tol="exact"),
    # misc
    Op("sqrt", tol="transc"), Op("cbrt", tol="transc"), Op("square"), Op("absolute"), Op("fabs", tol="exact"),
    Op("sign"), Op("heaviside", tol="exact"),
    # comparison, logic, contents
    Op("greater", ("small",)), Op("greater_equal", ("small",)), Op("less", ("small",)),
    Op("less_equal", ("small",)), Op("equal", ("small",)), Op("not_equal", ("small",)),
    Op("logical_and", ("small",)), Op("logical_or", ("small",)), Op("logical_xor", ("small",)),
    Op("logical_not", ("small",)), Op("isfinite"), Op("isinf"), Op("isnan"),
    # bit-wise
    Op("bitwise_and"), Op("bitwise_or"), Op("bitwise_xor"), Op("invert"),
    Op("left_shift", ("any", "shift")), Op("right_shift", ("any", "shift")), Op("bitwise_count"),
]
OPS_BY_NAME = {op.name: op for op in OPS}

# Complex loops of these functions are the formulas of complex_math.cuh: looser tolerances.
_COMPLEX_TRANSCENDENTAL = {"power", "float_power", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p",
                           "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh",
                           "arcsinh", "arccosh", "arctanh", "sqrt", "reciprocal", "divide"}

# (rtol, atol) by tolerance class and result dtype character.
_TOL = {
    "exact": {"e": (0, 0), "f": (0, 0), "d": (0, 0)},
    "arith": {"e": (1e-3, 1e-3), "f": (2e-6, 1e-6), "d": (1e-12, 1e-14)},
    "transc": {"e": (2e-3, 2e-3), "f": (2e-5, 2e-6), "d": (1e-12, 1e-13)},
    "ctransc": {"e": (2e-3, 2e-3), "f": (1e-4, 1e-5), "d": (1e-9, 1e-12)},
}


def tolerance(op: Op, result_dtype, input_dtype=None):
    dt = np.dtype(result_dtype)
    if dt.kind not in "fc":
        return 0, 0
    cls = op.tol
    in_kind = np.dtype(input_dtype).kind if input_dtype is not None else dt.kind
    if in_kind == "c" and op.name in _COMPLEX_TRANSCENDENTAL:
        cls = "ctransc"
    elif cls == "exact" and in_kind == "c":
        cls = "arith"
    char = np.finfo(dt).dtype.char if dt.kind == "c" else dt.char
    return _TOL[cls][char]


# -- data ------------------------------------------------------------------------------------------------
def rng_for(request):
    return np.random.default_rng(zlib.crc32(request.node.nodeid.encode()))


_FLOAT_DOMAINS = {
    "any": (-5.0, 5.0), "small": (-3.0, 3.0), "nonzero": (0.25, 5.0), "positive": (0.1, 5.0),
    "unit": (-0.95, 0.95), "ge1": (1.05, 5.0), "gtm1": (-0.9, 5.0), "pbase": (0.1, 4.0),
    "exponent": (-3.0, 3.0), "halves": (-4.0, 4.0), "shift": (0.0, 5.0),
}


def random_data(rng, dtype, domain, shape):
    """Host data of `dtype` for `domain`; never constant."""
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.integers(0, 2, size=shape).astype(dt)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        lo, hi = {"any": (-20, 20), "small": (-3, 3), "nonzero": (1, 20), "positive": (1, 20),
                  "pbase": (-4, 4), "exponent": (0, 5), "shift": (0, info.bits - 1)}.get(domain, (-20, 20))
        lo = max(lo, int(info.min))
        x = rng.integers(lo, hi, size=shape, endpoint=True).astype(dt)
        if domain == "nonzero" and dt.kind == "i":
            x = x * rng.choice(np.array([-1, 1], dt), size=shape)
        return x
    lo, hi = _FLOAT_DOMAINS[domain]
    x = rng.uniform(lo, hi, size=shape)
    if domain == "nonzero":
        x = x * rng.choice([-1.0, 1.0], size=shape)
    if domain == "halves":
        x = np.round(x * 2) / 2  # exact .5 ties for the rounding functions
    if dt.kind == "c":
        y = rng.uniform(-2.0, 2.0, size=shape) if domain not in ("unit", "nonzero") else rng.uniform(-0.9, 0.9, size=shape)
        x = x + 1j * y
    return x.astype(dt)


def loops(name):
    """Input dtype tuples of every loop of NumPy's ufunc `name`, restricted to cuarray's dtypes."""
    ok = set("?bhilqBHILQefdFD")
    seen, out = set(), []
    for t in getattr(np, name).types:
        if not set(t.replace("->", "")) <= ok:
            continue
        ins = tuple(np.dtype(c) for c in t.split("->")[0])
        if ins not in seen:
            seen.add(ins)
            out.append(ins)
    return out


def _loop_params():
    for op in OPS:
        for ins in loops(op.name):
            yield pytest.param(op.name, ins, id="{}-{}".format(op.name, "-".join(d.name for d in ins)))


def make_inputs(rng, op: Op, in_dtypes, shape=(7, 5)):
    doms = op.domains + (op.domains[-1],) * (len(in_dtypes) - len(op.domains))
    return [random_data(rng, dt, dom, shape) for dt, dom in zip(in_dtypes, doms)]


def numpy_call(name, *args, **kwargs):
    with np.errstate(all="ignore"):
        return getattr(np, name)(*args, **kwargs)


def check(op: Op, expected, actual, in_dtype=None, signed_zero=False):
    if isinstance(expected, tuple):
        assert isinstance(actual, tuple) and len(actual) == len(expected)
        for e, a in zip(expected, actual):
            check(op, e, a, in_dtype, signed_zero)
        return
    assert isinstance(actual, cuarray.ndarray), type(actual)
    got = actual.get()
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    assert got.shape == expected.shape
    rtol, atol = tolerance(op, expected.dtype, in_dtype)
    if rtol == 0 and atol == 0:
        np.testing.assert_array_equal(got, expected)
    else:
        np.testing.assert_allclose(got, expected, rtol=rtol, atol=atol, equal_nan=True)
    if signed_zero and expected.dtype.kind == "f":
        zero = expected == 0
        np.testing.assert_array_equal(np.signbit(got[zero]), np.signbit(expected[zero]), err_msg="sign of zero")


# -- every loop, contiguous --------------------------------------------------------------------------
@pytest.mark.parametrize("name,in_dtypes", list(_loop_params()))
def test_every_loop(name, in_dtypes, request):
    op = OPS_BY_NAME[name]
    host = make_inputs(rng_for(request), op, in_dtypes)
    expected = numpy_call(name, *host)
    actual = cu(name)(*[cuarray.asarray(h) for h in host])
    check(op, expected, actual, in_dtypes[0])


# -- layouts, for float32 and int32 -----------------------------------------------------------------------
LAYOUT_OPS = [op.name for op in OPS]


def _rep_loops(name):
    """The float32 loop and one integer loop of `name`, where NumPy has them."""
    out = []
    for ins in loops(name):
        kinds = "".join(d.char for d in ins)
        if ins[0] == np.float32 and ins not in out and (not out or out[0][0] != np.float32):
            out.append(ins)
    for ins in loops(name):
        if ins[0] == np.int32:
            out.append(ins)
            break
    if not out:
        out.append(loops(name)[0])
    return out


def _layout_params():
    for name in LAYOUT_OPS:
        for ins in _rep_loops(name):
            yield pytest.param(name, ins, id="{}-{}".format(name, "-".join(d.name for d in ins)))


@pytest.mark.parametrize("layout", ["transposed", "negative", "step2"])
@pytest.mark.parametrize("name,in_dtypes", list(_layout_params()))
def test_layouts(name, in_dtypes, layout, request):
    op = OPS_BY_NAME[name]
    host = make_inputs(rng_for(request), op, in_dtypes, shape=(6, 4))
    dev = [testing.non_contiguous(h, layout, xp=cuarray) for h in host]
    hosts = [testing.non_contiguous(h, layout, xp=np) for h in host]
    expected = numpy_call(name, *hosts)
    actual = cu(name)(*dev)
    check(op, expected, actual, in_dtypes[0])
    # NumPy's output order 'K': a transposed input gives a transposed (F-contiguous) result.
    first = actual[0] if isinstance(actual, tuple) else actual
    if layout == "transposed":
        assert first.flags.f_contiguous


@pytest.mark.parametrize("shape", [(), (0,), (3, 0)], ids=["0d", "empty", "empty2d"])
@pytest.mark.parametrize("name,in_dtypes", list(_layout_params()))
def test_0d_and_empty(name, in_dtypes, shape, request):
    op = OPS_BY_NAME[name]
    host = make_inputs(rng_for(request), op, in_dtypes, shape=shape)
    expected = numpy_call(name, *host)
    actual = cu(name)(*[cuarray.asarray(h) for h in host])
    check(op, expected, actual, in_dtypes[0])


BINARY = [op.name for op in OPS if getattr(np, op.name).nin == 2]


@pytest.mark.parametrize("name,in_dtypes", [p for p in _layout_params() if p.values[0] in BINARY])
def test_broadcast(name, in_dtypes, request):
    op = OPS_BY_NAME[name]
    rng = rng_for(request)
    a, b = make_inputs(rng, op, in_dtypes, shape=(3, 1))
    b = random_data(rng, in_dtypes[1], (op.domains + op.domains)[1], (1, 4))
    expected = numpy_call(name, a, b)
    actual = cu(name)(cuarray.asarray(a), cuarray.asarray(b))
    check(op, expected, actual, in_dtypes[0])


@pytest.mark.parametrize("name,in_dtypes", [p for p in _layout_params() if p.values[0] in BINARY])
def test_python_scalar_operand(name, in_dtypes, request):
    """The second operand a Python scalar: weak (NEP 50), a kernel argument."""
    op = OPS_BY_NAME[name]
    rng = rng_for(request)
    a, b = make_inputs(rng, op, in_dtypes, shape=(5, 3))
    s = b.flat[1].item()
    if isinstance(s, bool) and in_dtypes[1].kind != "b":
        s = int(s)
    if name == "power" and a.dtype.kind in "iu":
        a = np.abs(a)  # as an exponent array, negative values raise only in NumPy (docs/ufuncs.md)
    for args in ((a, s), (s, a)):
        try:
            expected = numpy_call(name, *args)
        except Exception as exc:  # e.g. ldexp(x, int): NumPy finds no loop; cuarray must raise alike
            with pytest.raises(type(exc)):
                cu(name)(*[cuarray.asarray(v) if isinstance(v, np.ndarray) else v for v in args])
            continue
        actual = cu(name)(*[cuarray.asarray(v) if isinstance(v, np.ndarray) else v for v in args])
        check(op, expected, actual, in_dtypes[0])


def test_weak_scalars_keep_the_array_dtype():
    x = cuarray.asarray(np.arange(6, dtype=np.float32))
    assert (x * 2).dtype == np.float32
    assert cu("multiply")(x, 2.5).dtype == np.float32
    i8 = cuarray.asarray(np.arange(6, dtype=np.int8))
    assert cu("add")(i8, 100).dtype == np.int8
    with pytest.raises(OverflowError):
        cu("add")(i8, 1000)


# -- out= and where= --------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["add", "multiply", "floor_divide", "maximum", "arctan2", "left_shift"])
def test_out_aliasing_an_input(name, request):
    op = OPS_BY_NAME[name]
    dt = np.dtype(np.float32) if "f" in "".join(getattr(np, name).types) else np.dtype(np.int32)
    dt = dt if (dt,) * 2 in loops(name) else loops(name)[-1][0]
    a, b = make_inputs(rng_for(request), op, (dt, dt))
    x = cuarray.asarray(a)
    r = cu(name)(x, cuarray.asarray(b), out=x)
    assert r is x
    check(op, numpy_call(name, a, b), x, dt)


def test_out_with_another_dtype_and_casting(request):
    rng = rng_for(request)
    a = random_data(rng, np.float32, "any", (4, 5))
    b = random_data(rng, np.float32, "any", (4, 5))
    out64 = cuarray.empty((4, 5), dtype=np.float64)
    cu("add")(cuarray.asarray(a), cuarray.asarray(b), out=out64)
    np.testing.assert_allclose(out64.get(), np.add(a, b).astype(np.float64), rtol=1e-6)
    outi = cuarray.empty((4, 5), dtype=np.int32)
    with pytest.raises(TypeError):
        cu("add")(cuarray.asarray(a), cuarray.asarray(b), out=outi)
    cu("add")(cuarray.asarray(a), cuarray.asarray(b), out=outi, casting="unsafe")
    np.testing.assert_array_equal(outi.get(), np.add(a, b, out=np.empty((4, 5), np.int32), casting="unsafe"))


def test_two_outputs_into_out(request):
    rng = rng_for(request)
    a = random_data(rng, np.float64, "any", (9,))
    b = random_data(rng, np.float64, "nonzero", (9,))
    q, r = cuarray.empty(9, dtype=np.float64), cuarray.empty(9, dtype=np.float64)
    res = cu("divmod")(cuarray.asarray(a), cuarray.asarray(b), out=(q, r))
    assert res[0] is q and res[1] is r
    eq, er = np.divmod(a, b)
    np.testing.assert_allclose(q.get(), eq)
    np.testing.assert_allclose(r.get(), er, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("name", ["add", "sin", "maximum", "sqrt"])
def test_where_mask(name, request):
    rng = rng_for(request)
    op = OPS_BY_NAME[name]
    host = make_inputs(rng, op, (np.dtype(np.float32),) * getattr(np, name).nin, shape=(5, 6))
    mask = rng.integers(0, 2, size=(5, 6)).astype(bool)
    init = random_data(rng, np.float32, "any", (5, 6))
    expected = init.copy()
    numpy_call(name, *host, out=expected, where=mask)
    out = cuarray.asarray(init)
    cu(name)(*[cuarray.asarray(h) for h in host], out=out, where=cuarray.asarray(mask))
    check(op, expected, out, np.float32)


# -- edge values ---------------------------------------------------------------------------------------------
FLOAT_EDGES = [np.nan, np.inf, -np.inf, -0.0, 0.0, 1.0, -1.0, 2.5, -2.5, 0.5, -0.5, 3.0, 1e-30, -1e30, 7.0]


def _int_edges(dt):
    info = np.iinfo(dt)
    vals = [info.min, info.min + 1, -7, -2, -1, 0, 1, 2, 3, 7, info.max - 1, info.max]
    return np.array([v for v in vals if info.min <= v <= info.max], dtype=dt)


EDGE_FLOAT_DTYPES = [np.float16, np.float32, np.float64]
EDGE_INT_DTYPES = [np.int8, np.int32, np.int64, np.uint8, np.uint64]
# NumPy's choice between -0.0 and +0.0 in maximum/minimum/fmax/fmin varies with its SIMD path.
_NO_SIGNED_ZERO_CHECK = {"arctan2", "hypot", "heaviside", "maximum", "minimum", "fmax", "fmin"}


def _edge_params():
    for op in OPS:
        for dt in EDGE_FLOAT_DTYPES + EDGE_INT_DTYPES:
            dt = np.dtype(dt)
            ins = tuple(dt for _ in range(getattr(np, op.name).nin))
            if op.name == "ldexp":
                ins = (dt, np.dtype(np.int32))
            if ins in loops(op.name):
                yield pytest.param(op.name, ins, id="{}-{}".format(op.name, dt.name))


@pytest.mark.parametrize("name,in_dtypes", list(_edge_params()))
def test_edge_values(name, in_dtypes):
    """Every pair of edge values (NaN, +-inf, -0.0, 0, INT_MIN, ...) through the ufunc."""
    op = OPS_BY_NAME[name]
    dt = in_dtypes[0]
    base = np.array(FLOAT_EDGES, dtype=dt) if dt.kind == "f" else _int_edges(dt)
    if name == "ldexp":
        host = [np.repeat(base, 5), np.tile(np.array([-3, 0, 1, 20, 2000], np.int32), len(base))]
    elif len(in_dtypes) == 2:
        a, b = np.meshgrid(base, base, indexing="ij")
        host = [a.ravel(), b.ravel().astype(in_dtypes[1])]
        if name in ("left_shift", "right_shift"):
            host[1] = np.resize(np.array([0, 1, 3, 7, 8, 31, 63, 64, 100] + ([-1] if dt.kind == "i" else []),
                                         dtype=dt), host[0].shape)
        if name == "power" and dt.kind in "iu":
            host[1] = np.abs(host[1]) % 9  # negative integer powers raise in NumPy
            host[1] = host[1].astype(dt)
    else:
        host = [base]
    expected = numpy_call(name, *host)
    actual = cu(name)(*[cuarray.asarray(h) for h in host])
    check(op, expected, actual, dt, signed_zero=name not in _NO_SIGNED_ZERO_CHECK)


COMPLEX_EDGES = [complex(a, b) for a in (0.0, -0.0, 1.0, -2.0, np.inf, -np.inf, np.nan)
                 for b in (0.0, -0.0, 1.5, -1.0, np.inf, np.nan)]


@pytest.mark.parametrize("name", ["add", "multiply", "divide", "absolute", "sign", "isnan", "isinf", "isfinite",
                                  "maximum", "minimum", "fmax", "fmin", "greater", "less", "less_equal",
                                  "greater_equal", "equal", "not_equal", "logical_and", "logical_not", "conjugate",
                                  "square", "reciprocal", "rint"])
def test_complex_edge_values(name):
    op = OPS_BY_NAME[name]
    base = np.array(COMPLEX_EDGES, dtype=np.complex128)
    if getattr(np, name).nin == 2:
        a, b = np.meshgrid(base, base, indexing="ij")
        host = [a.ravel(), b.ravel()]
    else:
        host = [base]
    expected = numpy_call(name, *host)
    actual = cu(name)(*[cuarray.asarray(h) for h in host])
    check(op, expected, actual, np.complex128)


@pytest.mark.parametrize("name", ["exp", "log", "sqrt", "sin", "cos", "tan", "sinh", "cosh", "tanh",
                                  "arcsin", "arccos", "arctan", "arcsinh", "arccosh", "arctanh",
                                  "log1p", "expm1", "exp2", "log2", "log10"])
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_transcendental_wide(name, dtype, request):
    """Random complex data over several decades of magnitude, both half planes, and branch cuts."""
    rng = rng_for(request)
    mag = 10.0 ** rng.uniform(-3, 1.3, size=200)
    ang = rng.uniform(-np.pi, np.pi, size=200)
    z = mag * np.exp(1j * ang)
    cuts = np.array([complex(x, s) for x in (-3.0, -1.5, -0.5, 0.5, 1.5, 3.0) for s in (0.0, -0.0)]
                    + [complex(s, y) for y in (-3.0, -1.5, -0.5, 0.5, 1.5, 3.0) for s in (0.0, -0.0)])
    host = np.concatenate([z, cuts]).astype(dtype)
    expected = numpy_call(name, host)
    actual = cu(name)(cuarray.asarray(host)).get()
    rtol = 2e-4 if dtype == np.complex64 else 1e-9
    scale = np.maximum(np.abs(expected), 1.0)
    err = np.abs(actual - expected) / scale
    finite = np.isfinite(expected)
    assert np.all(err[finite] <= rtol), (host[finite][err[finite] > rtol], actual[finite][err[finite] > rtol],
                                          expected[finite][err[finite] > rtol])
    np.testing.assert_array_equal(np.isnan(actual), np.isnan(expected))


def test_integer_power_negative_scalar_exponent_raises():
    x = cuarray.asarray(np.arange(1, 5, dtype=np.int32))
    with pytest.raises(ValueError, match="negative integer powers"):
        cu("power")(x, -1)
    np.testing.assert_allclose(cu("power")(x.astype(np.float32), -1).get(), 1 / np.arange(1, 5, dtype=np.float32))


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128], ids=testing.dtype_id)
def test_complex_integer_power_nonfinite_like_numpy(dtype, request):
    # NumPy squares onto 1 for |n| >= 4 and n < 0, so 1 * (inf+0j) makes a NaN part: (inf+0j)**4,
    # (inf+0j)**-1 and complex64's (-1e30+0j)**-2 are nan+nanj (cuarray gave inf or 0 before)
    rng = rng_for(request)
    special = [np.inf + 0j, -np.inf + 0j, complex(0, np.inf), -1e30 + 0j, 1e30 + 1e30j, 1e-30 + 0j,
               complex(np.nan, 0), 1 - 0j, -1 + 0j, 1j]
    base = np.concatenate([np.array(special, dtype), (rng.uniform(0.3, 2, 16) * np.exp(2j * np.pi * rng.random(16)))
                           .astype(dtype)])  # |z| < 2: finite to the 99th power even in complex64
    for n in [-99, -7, -4, -3, -2, -1, 1, 2, 3, 4, 5, 8, 13, 99]:
        with np.errstate(all="ignore"):
            expected = np.power(base, dtype(n))
        got = cu("power")(cuarray.asarray(base), dtype(n)).get()
        for part in (np.real, np.imag):
            np.testing.assert_array_equal(np.isnan(part(got)), np.isnan(part(expected)), err_msg="n={}".format(n))
            np.testing.assert_array_equal(np.isinf(part(got)), np.isinf(part(expected)), err_msg="n={}".format(n))
        finite = np.isfinite(expected)
        np.testing.assert_allclose(got[finite], expected[finite], rtol=1e-4 if dtype == np.complex64 else 1e-12,
                                   atol=0, err_msg="n={}".format(n))


_POWER_BASES = [-np.inf, -0.0, 0.0, np.inf, np.nan, -4.0, 2.5, 0.75, -1.5]


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex64, np.complex128],
                         ids=testing.dtype_id)
def test_power_operator_takes_numpy_fast_paths(dtype, request):
    # NumPy's `a ** 2`, `a ** -1`, `a ** 0.5` (Python int/float) are square, reciprocal, sqrt for float and
    # complex arrays; np.power's float32/float64 loops take sqrt for a scalar exponent 0.5. Before: cuarray
    # computed pow, so float32 (-inf) ** 0.5 was inf (NumPy: nan), complex (-4) ** 0.5 had a 1e-16 real part.
    rng = rng_for(request)
    base = np.array(_POWER_BASES, dtype)
    if np.dtype(dtype).kind == "c":
        base = np.concatenate([base, np.array([complex(-np.inf, 0), complex(0, -2), complex(-4, -0.0)], dtype)])
    base = np.concatenate([base, (rng.standard_normal(8) * 4).astype(dtype)])
    tight = {"e": 1e-3, "f": 2e-6, "d": 1e-15, "F": 2e-6, "D": 1e-15}[np.dtype(dtype).char]
    with np.errstate(all="ignore"):
        for e in (2, -1, 0.5, 2.0, 3, 0.25):
            for form in ("operator", "inplace", "ufunc", "numpy"):
                b = base
                if np.dtype(dtype).kind == "c" and float(e) != int(e) and (form in ("ufunc", "numpy") or e != 0.5):
                    b = base[np.isfinite(base)]  # exp(e log z) of an infinity: libm's cpow, not compared here
                if form == "operator":
                    expected, got = b ** e, (cuarray.asarray(b) ** e).get()
                elif form == "inplace":
                    h, g = b.copy(), cuarray.asarray(b)
                    h **= e
                    g **= e
                    expected, got = h, g.get()
                elif form == "ufunc":
                    expected, got = np.power(b, e), cu("power")(cuarray.asarray(b), e).get()
                else:  # numpy.power on the device array: __array_ufunc__ must reach the same power
                    expected, got = np.power(b, e), np.power(cuarray.asarray(b), e).get()
                msg = "{} {} {!r}".format(form, np.dtype(dtype), e)
                assert got.dtype == expected.dtype, msg
                for part in ((np.real, np.imag) if np.dtype(dtype).kind == "c" else (np.real,)):
                    x, y = part(got).astype(np.float64), part(expected).astype(np.float64)
                    np.testing.assert_array_equal(np.isnan(x), np.isnan(y), err_msg=msg)
                    np.testing.assert_array_equal(np.isinf(x), np.isinf(y), err_msg=msg)
                    fin = np.isfinite(y)
                    np.testing.assert_allclose(x[fin], y[fin], rtol=tight if e in (2, -1, 0.5) else 10 * tight,
                                               atol=0, err_msg=msg)
                    if np.dtype(dtype).kind == "f" and e in (2, -1, 0.5):  # the sign of a zero result, too
                        zero = fin & (y == 0)
                        np.testing.assert_array_equal(np.signbit(x[zero]), np.signbit(y[zero]), err_msg=msg)


# -- the non-ufunc functions -----------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", testing.ALL_DTYPES, ids=testing.dtype_id)
def test_where(dtype, request):
    rng = rng_for(request)
    cond = rng.integers(0, 2, size=(4, 5)).astype(bool)
    x = random_data(rng, dtype, "any", (4, 5))
    y = random_data(rng, dtype, "any", (1, 5))
    got = cu("where")(cuarray.asarray(cond), cuarray.asarray(x), cuarray.asarray(y))
    check(Op("where", tol="exact"), np.where(cond, x, y), got)
    s = 3 if np.dtype(dtype).kind != "b" else True
    got = cu("where")(cuarray.asarray(cond), cuarray.asarray(x), s)
    check(Op("where", tol="exact"), np.where(cond, x, s), got)


def test_where_weak_scalars_and_one_argument():
    cond = np.array([True, False, True])
    x32 = np.array([1.5, 2.5, 3.5], np.float32)
    assert cu("where")(cuarray.asarray(cond), cuarray.asarray(x32), 2.0).dtype == np.float32
    assert cu("where")(cuarray.asarray(cond), 1, 2.5).dtype == np.where(cond, 1, 2.5).dtype
    i8 = np.array([1, 2, 3], np.int8)
    try:
        expected = np.where(cond, i8, 1000)  # NumPy 2.4 wraps the scalar; 2.5 raises OverflowError
    except OverflowError:
        with pytest.raises(OverflowError):
            cu("where")(cuarray.asarray(cond), cuarray.asarray(i8), 1000)
    else:
        assert cu("where")(cuarray.asarray(cond), cuarray.asarray(i8), 1000).dtype == expected.dtype
    # One argument: nonzero(cond), a tuple of index arrays.
    got = cu("where")(cuarray.asarray(cond))
    ref = np.where(cond)
    assert len(got) == len(ref)
    for g, r in zip(got, ref):
        np.testing.assert_array_equal(g.get(), r)


@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.uint8, np.float16, np.float32, np.float64, np.complex64],
                         ids=testing.dtype_id)
def test_clip(dtype, request):
    rng = rng_for(request)
    a = random_data(rng, dtype, "any", (6, 5))
    a_dev = cuarray.asarray(a)
    check(Op("clip"), np.clip(a, -2, 3), cu("clip")(a_dev, -2, 3))
    check(Op("clip"), np.clip(a, None, 3), cu("clip")(a_dev, None, 3))
    check(Op("clip"), np.clip(a, -2, None), cu("clip")(a_dev, -2, None))
    lo = random_data(rng, dtype, "any", (1, 5))
    check(Op("clip"), np.clip(a, lo, 3), cu("clip")(a_dev, cuarray.asarray(lo), 3))
    if np.dtype(dtype).kind == "i":
        check(Op("clip"), np.clip(a, -1000, 1000), cu("clip")(a_dev, -1000, 1000))


def test_clip_nan():
    a = np.array([np.nan, 1.0, 5.0, -3.0])
    check(Op("clip"), np.clip(a, 0.0, 2.0), cu("clip")(cuarray.asarray(a), 0.0, 2.0))
    check(Op("clip"), np.clip(a, np.nan, 2.0), cu("clip")(cuarray.asarray(a), np.nan, 2.0))


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128], ids=testing.dtype_id)
def test_clip_complex_nan_parts(dtype):
    """NumPy's complex clip compares lexicographically and keeps x where x is NaN: a NaN part of a
    bound counts only where it is compared (clip(1+0j, nanj, 5) is 1+0j; fuzz seed 17 index 136
    gave 0+nanj for clip(uint8 1, nanj, False))."""
    n = np.nan
    parts = [complex(1, 0), complex(0, n), complex(n, 0), complex(1, n), complex(-2, 1), complex(n, n), complex(1, 2)]
    x, lo, hi = (np.array(v, dtype) for v in zip(*itertools.product(parts, repeat=3)))
    x8 = np.array(1, np.uint8)
    for want, got in ((np.clip(x, lo, hi), cu("clip")(*(cuarray.asarray(v) for v in (x, lo, hi)))),
                      (np.clip(x8, complex(0, n), False), cu("clip")(cuarray.asarray(x8), complex(0, n), False))):
        got = got.get()
        assert got.dtype == want.dtype and got.shape == want.shape
        for part in ("real", "imag"):  # each part, NaN where NumPy's is
            np.testing.assert_array_equal(getattr(got, part), getattr(want, part), err_msg=part)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex64, np.complex128, np.int32],
                         ids=testing.dtype_id)
def test_nan_to_num(dtype):
    vals = [np.nan, np.inf, -np.inf, 1.5, -0.0]
    a = np.array(vals, dtype=np.float64)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * np.array(vals[::-1])
    a = a.astype(dtype) if np.dtype(dtype).kind != "i" else np.arange(5, dtype=dtype)
    check(Op("nan_to_num", tol="exact"), np.nan_to_num(a), cu("nan_to_num")(cuarray.asarray(a)))
    if np.dtype(dtype).kind in "fc":
        check(Op("nan_to_num", tol="exact"), np.nan_to_num(a, nan=9.0, posinf=7.0, neginf=-7.0),
              cu("nan_to_num")(cuarray.asarray(a), nan=9.0, posinf=7.0, neginf=-7.0))
        x = cuarray.asarray(a)
        assert cu("nan_to_num")(x, copy=False) is x


@pytest.mark.parametrize("decimals", [0, 1, 2, -1, -2])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64, np.complex128], ids=testing.dtype_id)
def test_around(dtype, decimals, request):
    rng = rng_for(request)
    a = (random_data(rng, np.float64, "any", (20,)) * 300).astype(dtype)
    if np.dtype(dtype).kind == "f":
        a[:4] = np.array([0.125, 2.5, -3.5, 1250.0]).astype(dtype)
    else:
        a[:4] = np.array([1250, -1250, 150, 149]).astype(dtype)
    check(Op("around", tol="arith"), np.around(a, decimals), cu("around")(cuarray.asarray(a), decimals))


@pytest.mark.parametrize("decimals", [0, 2, -1])
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128], ids=testing.dtype_id)
def test_around_complex_parts_each(dtype, decimals, request):
    # NumPy rounds the real and imaginary parts each: an infinity or NaN in one part leaves the
    # other alone (the fuzzer's seed 6: round(-inf+0j, -1) gave nan+nanj); out= and 0-d too
    rng = rng_for(request)
    inf, nan = np.inf, np.nan
    a = (rng.normal(size=12) * 300 + 1j * rng.normal(size=12) * 300).astype(dtype)
    a[:6] = np.array([complex(-inf, 0.0), complex(inf, 1250.0), complex(nan, -3.5), complex(2.5, inf),
                      complex(0.0, -inf), complex(125.0, nan)], dtype)
    with np.errstate(invalid="ignore"):
        want = np.around(a, decimals)
        want0 = np.around(a[0], decimals)
    x = cuarray.asarray(a)
    np.testing.assert_array_equal(cu("around")(x, decimals).get(), want)
    out = cuarray.empty(a.shape, dtype)
    assert cu("around")(x, decimals, out=out) is out
    np.testing.assert_array_equal(out.get(), want)
    np.testing.assert_array_equal(cu("around")(x[0], decimals).get(), want0)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int16, np.bool_], ids=testing.dtype_id)
def test_i0_sinc_fix(dtype, request):
    rng = rng_for(request)
    a = random_data(rng, dtype, "any", (30,))
    if np.dtype(dtype).kind == "f":
        a[0] = 0
    x = cuarray.asarray(a)
    check(Op("i0", tol="transc"), np.i0(a), cu("i0")(x))
    check(Op("sinc", tol="transc"), np.sinc(a), cu("sinc")(x))
    if np.dtype(dtype).kind != "b":
        check(Op("fix", tol="exact"), np.fix(a), cu("fix")(x))


def test_real_imag_angle_views(request):
    rng = rng_for(request)
    z = random_data(rng, np.complex64, "any", (4, 6))
    zd = cuarray.asarray(z)
    re, im = cu("real")(zd), cu("imag")(zd)
    check(Op("real", tol="exact"), z.real.copy(), re)
    check(Op("imag", tol="exact"), z.imag.copy(), im)
    assert re.strides == zd.strides and im.strides == zd.strides
    re.fill(1.5)  # a view: writes go to the complex array
    np.testing.assert_array_equal(zd.get().real, np.full((4, 6), 1.5, np.float32))
    zt = zd.T
    check(Op("imag", tol="exact"), z.T.imag.copy(), cu("imag")(zt))
    check(Op("angle", tol="transc"), np.angle(zd.get()), cu("angle")(zd))
    check(Op("angle", tol="transc"), np.angle(zd.get(), deg=True), cu("angle")(zd, deg=True))
    x = cuarray.asarray(np.arange(5, dtype=np.int8))
    assert cu("real")(x) is x
    zi = cu("imag")(x)
    assert not zi.flags.writeable
    check(Op("imag", tol="exact"), np.imag(np.arange(5, dtype=np.int8)), zi)
    check(Op("angle", tol="transc"), np.angle(np.arange(-2, 3, dtype=np.int8)),
          cu("angle")(cuarray.asarray(np.arange(-2, 3, dtype=np.int8))))


# -- __array_ufunc__ ---------------------------------------------------------------------------------------------
def test_array_ufunc_dispatch(request):
    from cuarray._core.numpy_protocol import array_ufunc

    rng = rng_for(request)
    a = random_data(rng, np.float32, "any", (5,))
    x = cuarray.asarray(a)
    r = array_ufunc(x, np.add, "__call__", x, x)
    assert isinstance(r, cuarray.ndarray)
    np.testing.assert_allclose(r.get(), a + a)
    if isinstance(getattr(cuarray, "divmod", None), _ufunc):  # once exported by cuarray/__init__.py
        q, m = array_ufunc(x, np.divmod, "__call__", x, 2.0)
        np.testing.assert_allclose(q.get(), np.divmod(a, 2.0)[0])
        out = cuarray.empty(5, dtype=np.float32)
        r = array_ufunc(x, np.sin, "__call__", x, out=(out,))
        assert r is out
    assert array_ufunc(x, np.add, "__call__", x, a) is NotImplemented
    if getattr(cuarray.ndarray, "__array_ufunc__", None) is not None:
        r = np.multiply(x, 3)
        assert isinstance(r, cuarray.ndarray)
        np.testing.assert_allclose(r.get(), a * 3)
        with pytest.raises(TypeError):
            np.add(x, a)
