"""datetime64 / timedelta64 without a device: dtype tables, loop resolution (NumPy's units), the
generated kernels compiled by NVRTC for sm_90, and the generated C (unit casts, NaT rules, the
ufunc loops) built with g++ over random dates of every unit with NaT sprinkled in, against NumPy."""

import ctypes
import math
import shutil

import numpy as np
import pytest

import cuarray
from cuarray._core import datetimes, dtypes
from cuarray._core.copying import _copy_def
from cuarray._core.elementwise import cast_expr
from cuarray._core import interop, reduction_ops
from cuarray.cuda import compiler
import host_build  # tests/ is on sys.path

NAT = np.iinfo(np.int64).min
UNITS = ["Y", "M", "W", "D", "h", "m", "s", "ms", "us", "ns", "ps", "fs", "as"]
TEMPLATES = __import__("pathlib").Path(datetimes.__file__).parent / "templates"


def _M(u):
    return np.dtype("M8[{}]".format(u))


def _m(u):
    return np.dtype("m8[{}]".format(u))


def _random_counts(rng, dt, n=400):
    """Counts of `dt` that land within +-1000 years of 1970 in any unit (so no conversion overflows
    int64), a few at the edges of a month/day, NaT sprinkled in."""
    unit, count = np.datetime_data(dt)
    per_year = {"Y": 1, "M": 12, "W": 52, "D": 365, "h": 8766, "m": 525960, "s": 31557600}.get(unit)
    if per_year is None:
        per_year = 31557600 * {"ms": 10**3, "us": 10**6, "ns": 10**9, "ps": 10**12, "fs": 10**15, "as": 10**18}[unit]
    span = min(per_year * 250, 2**62) // count  # as, fs, ps: the range of the unit itself (~292 years)
    if unit in ("ps", "fs", "as"):
        span = 2**62 // max(count, 1) // 4
    x = rng.integers(-span, span, n, dtype=np.int64)
    x[:8] = [0, -1, 1, 59, -60, 11, -12, 13]
    x[rng.random(n) < 0.1] = NAT
    return x


# -- tables and resolution ---------------------------------------------------------------------------
@pytest.mark.parametrize("spec", ["M8[ns]", "m8[s]", "M8[10ms]", "m8", "M8[Y]"])
def test_datetime_dtypes_are_int64_storage(spec):
    dt = dtypes.normalize_dtype(spec)
    assert dt == np.dtype(spec) and dtypes.is_supported(dt) and dtypes.is_datetime(dt)
    assert dtypes.ctype(dt) == "long long"
    assert dtypes.short_name(dt).isidentifier()
    assert not dtypes.is_integer(dt) and not dtypes.is_float(dt)
    assert dt not in dtypes.SUPPORTED_DTYPES  # the numeric types routines loop over stay the 14


def test_non_native_datetime_is_refused_with_the_byte_order_message():
    with pytest.raises(TypeError, match="byte order"):
        dtypes.normalize_dtype(">M8[ns]")


@pytest.mark.parametrize("a, b", [("M8[s]", "M8[ms]"), ("M8[Y]", "M8[D]"), ("m8[h]", "m8[us]"), ("M8[D]", "m8[h]")])
def test_result_type_follows_numpy_units(a, b):
    assert dtypes.result_type(np.dtype(a), np.dtype(b)) == np.result_type(a, b)


@pytest.mark.parametrize("name, ins", [
    ("subtract", ("M8[s]", "M8[ms]")), ("subtract", ("M8[D]", "m8[h]")), ("add", ("m8[s]", "M8[D]")),
    ("add", ("m8[s]", "m8[ms]")), ("multiply", ("m8[s]", "int32")), ("multiply", ("float32", "m8[us]")),
    ("less", ("M8[s]", "M8[D]")), ("maximum", ("m8[W]", "m8[D]")), ("isnat", ("M8[ns]",)),
    ("divide", ("m8[s]", "m8[ms]")),
])
def test_loops_are_numpy_s(name, ins):
    uf = getattr(cuarray, name)
    in_types = tuple(np.dtype(t) for t in ins)
    loop = uf._resolve(in_types, None, "same_kind")
    expect = getattr(np, name).resolve_dtypes(in_types + (None,))
    assert loop.in_dtypes + loop.out_dtypes == expect
    datetimes.ufunc_op(name, loop.in_dtypes, loop.out_dtypes)  # a row exists


@pytest.mark.parametrize("name, ins", [("add", ("M8[s]", "M8[s]")), ("multiply", ("m8[s]", "m8[s]")),
                                       ("isnat", ("float64",)), ("sqrt", ("m8[s]",)), ("equal", ("M8[s]", "m8[s]"))])
def test_loops_numpy_refuses_raise_numpy_s_error(name, ins):
    in_types = tuple(np.dtype(t) for t in ins)
    with pytest.raises(TypeError) as ours:
        getattr(cuarray, name)._resolve(in_types, None, "same_kind")
    with pytest.raises(TypeError) as theirs:
        getattr(np, name)(*[np.empty(0, t) for t in in_types])
    assert type(ours.value) is type(theirs.value)


@pytest.mark.parametrize("name, ins", [("sign", ("m8[s]",)), ("floor_divide", ("m8[s]", "m8[s]")),
                                       ("remainder", ("m8[s]", "m8[s]"))])
def test_loops_numpy_has_but_not_the_gpu_raise_type_error(name, ins):
    uf = getattr(cuarray, name)
    loop = uf._resolve(tuple(np.dtype(t) for t in ins), None, "same_kind")
    with pytest.raises(TypeError, match="not supported on the GPU for datetime64"):
        uf._op_for(loop)


def test_unit_overflow_raises_numpy_s_overflow_error():
    with pytest.raises(OverflowError):
        cast_expr("x", _M("Y"), _M("as"), "long long")
    with pytest.raises(OverflowError):
        np.zeros(1, "M8[Y]").astype("M8[as]")


def test_kernel_keys_tell_units_apart():
    assert _copy_def(_M("s"), _M("ms")) is not _copy_def(_M("s"), _M("us"))
    a = cuarray.subtract._definition(cuarray.subtract._resolve((_M("s"), _M("ms")), None, "same_kind"),
                                     (_M("s"), _M("ms")), (_m("ms"),), False)
    b = cuarray.subtract._definition(cuarray.subtract._resolve((_M("s"), _M("us")), None, "same_kind"),
                                     (_M("s"), _M("us")), (_m("us"),), False)
    assert a.key != b.key and a.name.isidentifier() and a.name == "cuarray_subtract_datetime64_s_datetime64_ms"


def test_ordinary_kernels_are_unchanged():
    """No datetime header and the same casts for the numeric types (same source, same disk cache)."""
    d = _copy_def(np.dtype("float32"), np.dtype("int16"))
    src = d.source("flat", 1, np.int32)[1]
    assert "datetime" not in src and "out0_ptr[i] = cuarray::cast<short>(out0);" in src


def test_dlpack_refuses_datetimes_as_numpy_does():
    with pytest.raises(BufferError) as theirs:
        np.zeros(1, "M8[ns]").__dlpack__()
    with pytest.raises(BufferError, match=str(theirs.value)[:20]):
        interop.dlpack_dtype(_M("ns"))


# -- NVRTC -------------------------------------------------------------------------------------------
def test_generated_datetime_kernels_compile_for_sm_90():
    sources = []
    for name, ins in [("subtract", (_M("s"), _M("ms"))), ("subtract", (_M("Y"), _M("D"))),
                      ("add", (_M("D"), _m("h"))), ("less", (_M("s"), _M("D"))), ("multiply", (_m("s"), int)),
                      ("multiply", (_m("s"), float)), ("maximum", (_M("M"), _M("s"))), ("divide", (_m("s"), _m("ms"))),
                      ("isnat", (_m("ns"),)), ("fmin", (_M("h"), _M("h")))]:
        uf = getattr(cuarray, name)
        loop = uf._resolve(ins, None, "same_kind")
        kinds = tuple(t if isinstance(t, np.dtype) else None for t in ins)
        d = uf._definition(loop, kinds, loop.out_dtypes, False)
        sources += [d.source(layout, 2, np.int32)[1] for layout in ("flat", "nd", "vec")]
    for src, dst in [(_M("ms"), _M("s")), (_M("D"), _M("M")), (np.dtype("float32"), _m("s")), (_m("s"), np.dtype("f2")),
                     (np.dtype("f2"), _m("s")), (np.dtype("c8"), _M("s"))]:
        sources.append(_copy_def(src, dst).source("nd", 3, np.int64)[1])
    compiler.compile_cubin("\n".join(sources), arch="sm_90")


# -- the generated C on the host -----------------------------------------------------------------------
_SHIM = r"""
#define CUARRAY_DT_FN static inline
#include "cuarray/datetime.cuh"
namespace cuarray { template <typename T, typename F> static inline T cast(F x) { return static_cast<T>(x); } }
"""

CAST_PAIRS = ([(_M(a), _M(b)) for a in UNITS for b in UNITS if a != b][::5] +
              [(_m(a), _m(b)) for a in UNITS for b in UNITS if a != b][::5] +
              [(_M("D"), _M(u)) for u in ("Y", "M", "W", "h", "ns")] +
              [(_M(u), _M("D")) for u in ("Y", "M", "W", "h")] +
              [(_M("3M"), _M("2D")), (_M("3D"), _M("5M")), (_M("10D"), _M("3D")), (_m("Y"), _m("D")),
               (_m("M"), _m("h")), (_M("s"), _m("ms")), (np.dtype("m8"), _m("s")), (_M("D"), _M("Y"))])

# (ufunc, input dtypes): arrays only; each becomes a host loop over the Definition's own C.
OP_CASES = [
    ("subtract", ("M8[s]", "M8[ms]")), ("subtract", ("M8[Y]", "M8[D]")), ("subtract", ("M8[D]", "m8[h]")),
    ("subtract", ("m8[us]", "m8[ms]")), ("add", ("M8[M]", "m8[D]")), ("add", ("m8[s]", "M8[W]")),
    ("add", ("m8[ns]", "m8[ns]")), ("multiply", ("m8[s]", "int64")), ("multiply", ("int32", "m8[ms]")),
    ("multiply", ("m8[s]", "float64")), ("divide", ("m8[s]", "m8[ms]")), ("divide", ("m8[s]", "int64")),
    ("divide", ("m8[s]", "float64")), ("negative", ("m8[s]",)), ("absolute", ("m8[h]",)),
    ("isnat", ("M8[ns]",)), ("isfinite", ("m8[s]",)), ("isinf", ("M8[s]",)),
    ("equal", ("M8[s]", "M8[ms]")), ("not_equal", ("M8[D]", "M8[D]")), ("less", ("M8[s]", "M8[D]")),
    ("less_equal", ("m8[s]", "m8[s]")), ("greater", ("M8[M]", "M8[D]")), ("greater_equal", ("m8[h]", "m8[m]")),
    ("maximum", ("M8[s]", "M8[s]")), ("minimum", ("m8[s]", "m8[ms]")), ("fmax", ("M8[D]", "M8[h]")),
    ("fmin", ("m8[s]", "m8[s]")),
]
_HOST_CT = {"?": "bool", "l": "long long", "d": "double", "i": "int", "f": "float"}


def _host_ct(dt):
    return "long long" if dt.kind in "Mm" else _HOST_CT[dt.char]


def _op_function(k, name, ins):
    uf = getattr(cuarray, name)
    in_types = tuple(np.dtype(t) for t in ins)
    loop = uf._resolve(in_types, None, "same_kind")
    d = uf._definition(loop, in_types, loop.out_dtypes, False)
    params = ", ".join("{}{}* {}_ptr".format("const " if p.kind == "in" else "", _host_ct(p.dtype), p.name)
                       for p in d.params)
    body = " ".join(s for s in [p.load("flat") for p in d.params] + [d.operation + ";"] +
                    [p.store("flat") for p in d.params] if s)
    fn = 'extern "C" void op{}({}, long long n) {{ for (long long i = 0; i < n; ++i) {{ {} }} }}\n'.format(
        k, params, body)
    return fn, loop


@pytest.fixture(scope="module")
def host_lib():
    if shutil.which("g++") is None:
        pytest.skip("no g++")
    src = [_SHIM]
    for k, (s, d) in enumerate(CAST_PAIRS):
        try:
            expr = cast_expr("x[i]", s, d, "long long")
        except OverflowError:
            expr = "0"
        src.append('extern "C" void cast{}(const long long* x, long long* y, long long n) '
                   "{{ for (long long i = 0; i < n; ++i) y[i] = {}; }}\n".format(k, expr))
    for k, (name, ins) in enumerate(OP_CASES):
        src.append(_op_function(k, name, ins)[0])
    src.append('extern "C" void from_float(const double* x, long long* y, long long n) '
               "{ for (long long i = 0; i < n; ++i) y[i] = cuarray::dt::from_float(x[i]); }\n")
    return host_build.library_of("".join(src), ["-O2", "-std=c++17", "-shared", "-fPIC", "-fwrapv", "-I", TEMPLATES])


def _ptr(a):
    return a.ctypes.data_as(ctypes.c_void_p)


@pytest.mark.parametrize("k", range(len(CAST_PAIRS)), ids=["{}->{}".format(s.str, d.str) for s, d in CAST_PAIRS])
def test_unit_casts_match_numpy(host_lib, k):
    src, dst = CAST_PAIRS[k]
    try:
        cast_expr("x", src, dst, "long long")
    except OverflowError:
        with pytest.raises(OverflowError):
            np.zeros(1, src).astype(dst)
        return
    rng = np.random.default_rng(k)
    x = _random_counts(rng, src if np.datetime_data(src)[0] != "generic" else _m("s"))
    y = np.empty_like(x)
    getattr(host_lib, "cast{}".format(k))(_ptr(x), _ptr(y), ctypes.c_longlong(x.size))
    try:
        want = x.view(src).astype(dst).view(np.int64)
    except OverflowError:
        # NumPy 2.5 raises where a count overflows (gh-31085); cuarray wraps as NumPy 2.4 did
        # (docs/differences.md). Those elements against the wrapped product; the rest against NumPy.
        want = _wrapped_rescale(x, src, dst)
        fits = (x == NAT) | (want != NAT) & (np.abs(x) <= np.iinfo(np.int64).max // max(1, _unit_ratio(src, dst)[0]))
        np.testing.assert_array_equal(y[fits], x[fits].view(src).astype(dst).view(np.int64))
    np.testing.assert_array_equal(y, want)


_ATTO = {"W": 604800 * 10**18, "D": 86400 * 10**18, "h": 3600 * 10**18, "m": 60 * 10**18, "s": 10**18, "ms": 10**15,
         "us": 10**12, "ns": 10**9, "ps": 10**6, "fs": 10**3, "as": 1}


def _unit_ratio(src, dst):
    """(num, den): a count of `src` is count * num / den of `dst` (units of fixed length only)."""
    (su, sc), (du, dc) = np.datetime_data(src), np.datetime_data(dst)
    num, den = _ATTO[su] * sc, _ATTO[du] * dc
    g = math.gcd(num, den)
    return num // g, den // g


def _wrapped_rescale(x, src, dst):
    """NumPy 2.4's unit cast: the count times num, wrapping in int64, floor-divided by den; NaT kept."""
    num, den = _unit_ratio(src, dst)
    with np.errstate(over="ignore"):
        p = x * np.array(num % 2**64, np.uint64).view(np.int64)[()]  # int64 multiplication wraps
    return np.where(x == NAT, NAT, p // np.int64(den))


def test_float_to_timedelta_matches_numpy(host_lib):
    rng = np.random.default_rng(1)
    x = np.concatenate([rng.normal(0, 1e6, 200), [np.nan, np.inf, -np.inf, 1e300, -1e300, 9.3e18, -9.3e18, -0.7, 0.7]])
    y = np.empty(x.size, np.int64)
    host_lib.from_float(_ptr(x), _ptr(y), ctypes.c_longlong(x.size))
    with np.errstate(invalid="ignore"):
        np.testing.assert_array_equal(y, x.astype("m8[s]").view(np.int64))


def _operand(rng, dt, n):
    if dt.kind in "Mm":
        return _random_counts(rng, dt, n).view(dt)
    if dt.kind == "f":
        v = rng.normal(0, 10, n).astype(dt)
        v[rng.random(n) < 0.05] = np.nan
        return v
    return rng.integers(-1000, 1000, n).astype(dt)


@pytest.mark.parametrize("k", range(len(OP_CASES)), ids=["{}-{}".format(n, "-".join(i)) for n, i in OP_CASES])
def test_ufunc_loops_match_numpy(host_lib, k):
    name, ins = OP_CASES[k]
    _, loop = _op_function(k, name, ins)
    rng = np.random.default_rng(100 + k)
    n = 500
    args = [_operand(rng, np.dtype(t), n) for t in ins]
    if name == "divide" and ins[1] in ("int64", "float64"):
        args[1][:5] = 0  # division by zero: NaT
    out = np.empty(n, loop.out_dtypes[0])
    getattr(host_lib, "op{}".format(k))(*[_ptr(np.ascontiguousarray(a)) for a in args], _ptr(out),
                                         ctypes.c_longlong(n))
    with np.errstate(all="ignore"):
        expect = getattr(np, name)(*args)
    if expect.dtype.kind in "Mm":
        np.testing.assert_array_equal(out.view(np.int64), expect.view(np.int64))
    else:
        np.testing.assert_array_equal(out, expect)


# -- the host path on the fake device (launches recorded, not run) ----------------------------------------
def _last(calls):
    """(kernel name, layout, scalar arguments) of the last flat launch (the element count, last,
    left out)."""
    stream, cfg, kernel, *args = calls[-1]
    return kernel[0], kernel[1], [a for a in args[:-1] if isinstance(a, np.generic)]


def test_creation_and_views_keep_the_dtype(recorded_launches):
    a = cuarray.empty((2, 3), dtype="M8[ns]")  # (zeros is a memset: a driver call, not recorded)
    assert a.dtype == np.dtype("M8[ns]") and a.strides == (24, 8)
    a = cuarray.full((4,), np.datetime64("2020-01-01"), dtype="M8[s]")
    name, _, scalars = _last(recorded_launches)
    assert name == "cuarray_fill_datetime64_s" and scalars == [np.int64(1577836800)]
    assert type(scalars[0]) is np.int64
    assert a.reshape(2, 2).T.dtype == a.dtype and a[::2].shape == (2,)
    assert a.view("i8").dtype == np.int64 and a.view("m8[s]").dtype == np.dtype("m8[s]")
    cai = a.__cuda_array_interface__
    assert cai["typestr"] == "<M8[s]" and cai["descr"] == [("", "<M8[s]")]
    with pytest.raises(BufferError):
        a.__dlpack__()


def test_arithmetic_dispatch_and_scalar_packing(recorded_launches):
    a = cuarray.empty((5,), dtype="M8[s]")
    d = a - np.datetime64("2020-01-01")  # the day is converted to the loop's seconds on the host
    name, _, scalars = _last(recorded_launches)
    assert d.dtype == np.dtype("m8[s]") and scalars == [np.int64(1577836800)]
    assert name.startswith("cuarray_subtract_datetime64_s_sdatetime64_s")
    for _ in range(2):  # the prepared fast path, then again
        t = d * 3
        assert t.dtype == np.dtype("m8[s]") and _last(recorded_launches)[2] == [np.int64(3)]
    t = d + np.timedelta64(2, "ms")  # the loop is in ms: the array converts in the kernel
    assert t.dtype == np.dtype("m8[ms]") and _last(recorded_launches)[2] == [np.int64(2)]
    b = cuarray.empty((5,), dtype="M8[ms]")
    assert (a - b).dtype == np.dtype("m8[ms]")
    assert (a < b).dtype == np.bool_ and (a == b).dtype == np.bool_
    assert cuarray.isnat(a).dtype == np.bool_
    assert cuarray.maximum(a, b).dtype == np.dtype("M8[ms]")
    assert a.astype("M8[D]").dtype == np.dtype("M8[D]")
    assert _last(recorded_launches)[0] == "cuarray_copy_datetime64_s_datetime64_D"
    assert a.astype(np.int64).dtype == np.int64 and cuarray.asarray(a, dtype="M8[us]").dtype == np.dtype("M8[us]")
    assert cuarray.concatenate([a, b[::-1]]).dtype == np.dtype("M8[ms]")  # (no memcpy: a driver call)


@pytest.mark.parametrize("expr", [
    lambda x, y: x + y, lambda x, y: x * y, lambda x, y: x * 2,
    lambda x, y: x + 1.5, lambda x, y: np.sqrt(x) if x.__class__ is np.ndarray else cuarray.sqrt(x),
    lambda x, y: x.sum(),
])
def test_what_numpy_refuses_raises_numpy_s_error(recorded_launches, expr):
    h = np.array(["2020-01-01", "NaT"], "M8[s]")
    x = cuarray.empty((2,), dtype="M8[s]")
    with pytest.raises(TypeError) as theirs:
        expr(h, h)
    with pytest.raises(TypeError) as ours:
        expr(x, x)
    assert type(ours.value) is type(theirs.value)


def test_sort_keys_put_nat_last_and_invert(host_lib):
    """The sort's key map, built with g++: order kept, NaT largest, and the inverse exact."""
    x = np.concatenate([_random_counts(np.random.default_rng(5), _M("ns")),
                        np.array([NAT, NAT + 1, -1, 0, 1, 2**63 - 1], np.int64)])
    keys = (x.astype(np.uint64) + np.uint64(2**63 - 1))  # what SORT_KEY computes (wrapping)
    assert datetimes.SORT_KEY == "out0 = (unsigned long long)in0 + 0x7fffffffffffffffULL"
    order = np.argsort(keys, kind="stable")
    np.testing.assert_array_equal(x[order].view("M8[ns]"), np.sort(x.view("M8[ns]"), kind="stable"))
    np.testing.assert_array_equal(order, np.argsort(x.view("M8[ns]"), kind="stable"))
    assert ((keys - np.uint64(2**63 - 1)).view(np.int64) == x).all()


def test_sort_and_reductions_dispatch(recorded_launches, monkeypatch):
    from cuarray._core import reduction, sort as engine
    from cuarray.cuda import device

    monkeypatch.setattr(reduction.ReductionDef, "_kernel", lambda self, st: (self.name, st))
    monkeypatch.setattr(reduction, "_new_counter", lambda dev: 1 << 39)
    monkeypatch.setitem(device._SM_COUNT, 0, 132)
    a = cuarray.empty((3, 4), dtype="m8[s]")
    assert cuarray.sort(a).dtype == a.dtype and cuarray.argsort(a, axis=0).dtype == np.int64
    names = [c[2][0] for c in recorded_launches if isinstance(c[2], tuple)]
    assert "cuarray_datetime_sort_keys" in names and "cuarray_datetime_sort_values" in names
    assert any("unsigned long long" in str(c[2]) for c in recorded_launches if isinstance(c[2], str))
    sources = []
    for f in (cuarray.max, cuarray.min, cuarray.nanmax, cuarray.nanmin, cuarray.sum):
        assert f(a, axis=1).dtype == a.dtype
        name, st = recorded_launches[-1][2]
        d = next(d for d in reduction_ops._defs.values() if d.name == name)
        sources.append(d.source(st)[1])
    assert "cuarray::dt::maximum(a, b)" in sources[0] and "cuarray::dt::fmin(a, b)" in sources[3]
    sources += [d.source(layout, 1, np.int32)[1] for d in engine._key_defs.values() for layout in ("flat", "vec")]
    compiler.compile_cubin("\n".join(sources), arch="sm_90")
    with pytest.raises(TypeError, match="not supported on the GPU"):
        cuarray.argmax(a)
    with pytest.raises(TypeError):
        cuarray.sum(cuarray.empty((3,), dtype="M8[s]"))  # NumPy's refusal


def test_fuse_refuses_datetimes_rather_than_guess(recorded_launches):
    a = cuarray.empty((4,), dtype="M8[s]")
    b = cuarray.empty((4,), dtype="M8[ms]")

    @cuarray.fuse()
    def f(x, y):
        return (x - y) * 2

    with pytest.raises(TypeError, match="datetime64"):
        f(a, b)


def test_no_datetime_scalar_reaches_a_launch(recorded_launches):
    """cuda.core's launch refuses numpy.datetime64 arguments: every path hands kernels the int64 count."""
    a = cuarray.empty((6,), dtype="M8[s]")
    t = cuarray.empty((6,), dtype="m8[ms]")
    day, hour = np.datetime64("2020-01-01", "D"), np.timedelta64(1, "h")
    a[1] = day
    a[1:4] = day
    a[cuarray.empty((6,), dtype=bool)] = day
    cuarray.copyto(a, day, where=cuarray.empty((6,), dtype=bool))
    a.fill(np.datetime64("NaT"))
    t.fill(hour)
    _ = a - day, t + hour, t * 2, a < day, cuarray.maximum(a, day), cuarray.where(a < day, a, day)
    args = [x for call in recorded_launches for x in call[3:]]
    assert args and not any(isinstance(x, (np.datetime64, np.timedelta64)) for x in args)


@pytest.mark.parametrize("call", [
    lambda x: cuarray.median(x), lambda x: cuarray.percentile(x, 50), lambda x: cuarray.histogram(x),
    lambda x: cuarray.interp(x, x, x), lambda x: cuarray.argmax(x), lambda x: cuarray.mean(x),
    lambda x: cuarray.cumsum(x), lambda x: cuarray.sign(x), lambda x: cuarray.clip(x, x, x),
    lambda x: cuarray.arange(0, 3, dtype="m8[D]"),
], ids=["median", "percentile", "histogram", "interp", "argmax", "mean", "cumsum", "sign", "clip", "arange"])
def test_what_the_gpu_does_not_run_raises_type_error(recorded_launches, call):
    """NumPy computes these; cuarray raises TypeError rather than an int64 answer (NaT first)."""
    with pytest.raises(TypeError):
        call(cuarray.empty((6,), dtype="m8[s]"))


@pytest.mark.parametrize("call", [
    lambda x: x @ x, lambda x: cuarray.dot(x, x), lambda x: cuarray.einsum("i,i", x, x),
    lambda x: cuarray.vectorize(lambda v: v + v)(x),
    lambda x: cuarray.add.at(x, cuarray.empty((2,), dtype=np.int64), np.timedelta64(1, "s")),
], ids=["matmul", "dot", "einsum", "vectorize", "ufunc.at"])
def test_products_and_vectorize_refuse_datetimes(recorded_launches, call):
    with pytest.raises(TypeError):
        call(cuarray.empty((6,), dtype="m8[s]"))
