"""Issue 54, "wrong values": the host-side halves (no GPU). arange's length against NumPy's over
random start/stop/step (the underflow rule: a quotient that rounds to zero while stop != start is
one element), the float16 loop's store into a wider out= (rounded to half first), nancumprod's
NaN test on the stored value when the accumulator is an integer, and the float -> integer casts
of x86 (the oracle's machine) in the generated code; all compiled with NVRTC for sm_90."""

from __future__ import annotations

import pathlib
import platform
import random
import warnings

import numpy as np
import pytest

import cuarray._core as core
from cuarray._core import scan
from cuarray._core.elementwise import KernelParam
from cuarray._creation.ranges import arange_plan
from cuarray._math import arithmetic, explog, hyperbolic, misc, trigonometric
from cuarray.cuda import compiler

_VALUES = [0, 1, -1, 2, 3, 7, 10, 0.1, 0.3, -0.7, 1 / 3, 1.5, 1e-300, 1e10, np.float32(0.1),
           np.float16(0.3), np.int8(3), np.uint8(200), np.float32(1e-3), np.float32(3.3),
           np.float64(2.2), np.float32(1 / 3), -0.0]


def _numpy_length(s, e, st, dt):
    if st == 0 or abs((float(e) - float(s)) / float(1 if st is None else st)) > 1e6:
        return "skip"
    try:
        return len(np.arange(s, e, st, dtype=dt))
    except (ValueError, TypeError, OverflowError) as exc:
        return type(exc)


def test_arange_length_matches_numpy():
    rng = random.Random(54)
    checked = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(6000):
            s, e, st = rng.choice(_VALUES), rng.choice(_VALUES), rng.choice(_VALUES + [None])
            dt = rng.choice([None, None, "float32", "float16", "float64", "int64", "int8"])
            want = _numpy_length(s, e, st, dt)
            if want == "skip":
                continue
            try:
                got = arange_plan(s, e, st, dt)[0]
            except (ValueError, TypeError, OverflowError) as exc:
                got = type(exc)
            assert got == want, (s, e, st, dt)
            checked += 1
    assert checked > 3000


@pytest.mark.parametrize("args,n", [((0, 1e-300, np.float32(0.1)), 1), ((np.float16(0.3), 2, 1e10), 1),
                                    ((2, np.float16(0.3), 1e10), 0), ((0.0, 1e-300, -np.float32(0.1)), 0)])
def test_arange_underflow_rule(args, n):
    assert len(np.arange(*args)) == n
    assert arange_plan(*args)[0] == n


def test_arange_too_big_is_numpy_value_error():
    for args in ((-1, 2 ** 62, 2), (-2 ** 63, 3, 3, "int32")):
        with pytest.raises(ValueError):
            np.arange(*args)
        with pytest.raises(ValueError, match="array is too big"):
            arange_plan(*args)


def _compile(sources):
    try:
        return compiler.compile_cubin("\n".join(sources), arch="sm_90")
    except Exception as exc:  # noqa: BLE001
        if "nvrtc" in str(exc).lower() and "not" in str(exc).lower():
            pytest.skip("NVRTC unavailable: {}".format(exc))
        raise


@pytest.mark.parametrize("uf,out", [(trigonometric.sin, "float64"), (explog.log, "complex128"),
                                    (explog.log1p, "float64"), (hyperbolic.arcsinh, "float32")])
def test_float16_loop_rounds_before_the_wider_out(uf, out):
    e = np.dtype("e")
    loop = uf._resolve((e,), None, "same_kind")
    assert loop.out_dtypes == (e,)
    d = uf._definition(loop, (e,), (np.dtype(out),), False)
    name, src = d.source("flat", 1, np.int32)
    assert "(cuarray::cast<__half>(out0))" in src  # rounded to half inside the cast to `out`
    _compile([src])
    same = uf._definition(loop, (e,), (e,), False).source("flat", 1, np.int32)[1]
    assert "(cuarray::cast<__half>(out0))" not in same  # the float16 output: one cast, as before


@pytest.mark.parametrize("uf,out", [(trigonometric.sin, "float32"), (explog.exp, "float64"),
                                    (misc.sqrt, "float32"), (hyperbolic.arcsinh, "float64")])
def test_float16_loop_rounds_in_every_layout(uf, out):
    # A contiguous 7-element call took the vector kernel, whose lane store skipped the rounding
    # (the H100 run's float32/float64 failures; complex128's 16 bytes get no vector kernel).
    e = np.dtype("e")
    loop = uf._resolve((e,), None, "same_kind")
    d = uf._definition(loop, (e,), (np.dtype(out),), False)
    assert d._vec > 1
    srcs = [d.source(layout, 2 if layout == "nd" else 1, np.int32)[1] for layout in ("flat", "vec", "nd", "serial")]
    for src in srcs:
        assert "(cuarray::cast<__half>(out0))" in src
    # the vector body's lane store (the tail after it is the flat store)
    assert "_vout0.v[_k] = cuarray::cast<{}>(cuarray::cast<__half>(out0));".format(
        "float" if out == "float32" else "double") in srcs[1]
    _compile(srcs)


@pytest.mark.parametrize("uf,dt", [(misc.absolute, "D"), (misc.absolute, "F"), (explog.log1p, "D"),
                                   (explog.log1p, "F")])
def test_complex_modulus_and_log1p_compile(uf, dt):
    # |z| rescued from CUDA's double hypot overflowing below DBL_MAX; log1p inf as NumPy's once
    # |1 + z| overflows (both in complex_math.cuh; values checked by the GPU tests)
    c = np.dtype(dt)
    loop = uf._resolve((c,), None, "same_kind")
    d = uf._definition(loop, (c,), loop.out_dtypes, False)
    _compile([d.source(layout, 1, np.int32)[1] for layout in ("flat", "vec")])
    header = (pathlib.Path(core.__file__).parent / "templates" / "cuarray" / "complex_math.cuh").read_text()
    assert "T abs(complex<T> z) { return modulus(z); }" in header


def test_store_of_a_plain_loop_unchanged():
    p = KernelParam("out0", "out", np.dtype("f8"), np.dtype("f4"))
    assert "__half" not in p.store("flat")


@pytest.mark.parametrize("dt,acc,nan", [("f8", "i1", 1), ("f4", "i8", 0), ("D", "f8", 0), ("e", "i2", 1)])
def test_nan_scan_tests_the_stored_value(dt, acc, nan):
    uf = arithmetic.multiply if nan == 1 else arithmetic.add
    op = scan.op_for(uf, np.dtype(dt), np.dtype(acc), np.dtype(acc), nan)
    assert op.load_expr.startswith("(cuarray::scan::is_nan(v)")
    k, j = scan.flat_shape(op.in_dtype, op.out_dtype)
    src = op.source("flat", k, j, False, False)[1]
    _compile([src])


def test_integer_scans_have_no_nan_test():
    op = scan.op_for(arithmetic.add, np.dtype("i4"), np.dtype("i8"), np.dtype("i8"), 0)
    assert op.load_expr == "x"


def test_x86_float_to_int_rules_in_the_header():
    """The rules the casts follow, on the host: NumPy's own casts on this x86-64 machine."""
    if platform.machine() not in ("x86_64", "AMD64"):
        pytest.skip("the oracle's rules are x86-64's")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = np.array([2.0 ** 63, -2.0 ** 63 - 4096, np.nan, 1e19, 3e9, 300.0, -11.0])
        assert (a.astype(np.int64)[:4] == np.iinfo(np.int64).min).all()
        assert a.astype(np.int32)[4] == np.iinfo(np.int32).min
        assert a.astype(np.int8)[4] == 0 and a.astype(np.uint8)[6] == 245
    text = (pathlib.Path(core.__file__).parent / "templates" / "cuarray" / "common.cuh").read_text()
    assert "x86_to_i64" in text and "x86_to_i32" in text  # the header states the same rules


def test_unary_definition_is_keyed_by_its_operation():
    # i0(+-inf) came back inf on the H100 where a CPU codegen test in the same worker had built an
    # "i0" definition with i0's older operation first: the cache key lacked the operation
    dt = np.dtype("f4")
    a = misc._unary_definition("i0", "out0 = cyl_bessel_i0f(fabs(in0))", dt, dt, dt)
    b = misc._unary_definition("i0", "out0 = ::isinf(in0) ? in0 - in0 : cyl_bessel_i0f(fabs(in0))", dt, dt, dt)
    assert a is not b and "isinf" in b.operation and "isinf" not in a.operation



@pytest.mark.nvrtc_fast
def test_every_complex_function_compiles():
    """Every function of complex_math.cuh and complex.cuh's fused product in one sm_90 compile, float
    and double (host/complex_math_device.cu): the special cases and far-field branches use scalbn,
    ilogb, signbit and fma, whose device overloads must exist for both (values:
    test_complex_math_host_cpu.py on the host, test_wrong_values_gpu.py on the device)."""
    _compile([(pathlib.Path(__file__).parent / "host" / "complex_math_device.cu").read_text()])


@pytest.mark.parametrize("ins", [("D", "D"), ("F", "F"), ("?", "D"), ("D", None)], ids=str)
def test_complex_divide_is_numpys_loop(ins):
    """Complex divide takes NumPy's loop (ops.cuh numpy_divide: Smith's ratio, 1/d times each part),
    as sinc does: 0 / (2.8e-309 - 2.8e-309j) is NaN there (1/d overflows, 0 * inf), where the
    direct quotient gave 0 (fuzz seed 12 index 293). A bool operand and a scalar compile too."""
    dts = tuple(np.dtype(c) if c else None for c in ins)
    loop = arithmetic.divide._resolve(tuple(d or np.dtype("D") for d in dts), None, "same_kind")
    assert loop.out_dtypes[0].kind == "c"
    d = arithmetic.divide._definition(loop, dts, loop.out_dtypes, False)
    srcs = [d.source(layout, 1, np.int32)[1] for layout in ("flat", "vec")]
    assert all("cuarray::numpy_divide(in0, in1)" in s for s in srcs)
    _compile(srcs)
    f = np.dtype("d")
    real = arithmetic.divide._resolve((f, f), None, "same_kind")
    assert "numpy_divide" not in arithmetic.divide._definition(real, (f, f), real.out_dtypes, False).source(
        "flat", 1, np.int32)[1]


@pytest.mark.parametrize("dt", ["F", "D"])
def test_complex_clip_is_numpys_loop_and_compiles(dt):
    """Complex clip takes its own overload (ops.cuh: the lexicographic steps of NumPy's clip loop,
    x kept where NaN), not minimum(maximum()) whose NaN-propagation made clip(1, nanj, False) 0+nanj
    where NumPy's is 0 (fuzz seed 17 index 136; values: test_ufuncs_gpu.py)."""
    c = np.dtype(dt)
    loop = misc._clip._resolve((c, c, c), None, "same_kind")
    d = misc._clip._definition(loop, (c, c, c), loop.out_dtypes, False)
    _compile([d.source(layout, 1, np.int32)[1] for layout in ("flat", "vec")])
    header = (pathlib.Path(core.__file__).parent / "templates" / "cuarray" / "ops.cuh").read_text()
    assert "complex<T> clip(complex<T> x, complex<T> lo, complex<T> hi)" in header
