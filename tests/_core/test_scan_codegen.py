"""Scan code generation and dtype rules, checked without a GPU: every kernel variant the scans (and
ufunc.reduceat, the family's "segments" kernel) can launch compiles with NVRTC for sm_90 (batched,
one NVRTC call per group), and result dtypes match NumPy's for cumsum, cumprod and ufunc.accumulate."""

import numpy
import pytest

from cuarray._bitwise import ops as _bitwise
from cuarray._core import scan
from cuarray._logic import ops as _logic
from cuarray._math import arithmetic, extrema, rational
from cuarray.cuda import compiler

ALL = [numpy.dtype(c) for c in "?bhilqBHILQefdFD" if c not in "lL" or numpy.dtype(c).itemsize == 8]
ALL = list(dict.fromkeys(ALL))


def _variants(op, full=True):
    """The (layout, ...) specialisations the planner can pick for this operator (the flat kernel
    only, unless `full`)."""
    if not op.associative:
        return [("serial",), ("segments",)]
    k, j = scan.flat_shape(op.in_dtype, op.out_dtype)
    out = [("flat", k, j, False, False)]
    if full:
        out += [("flat", k, j, True, False), ("columns", scan.column_rows(op.acc_dtype)), ("serial",),
                ("segments",), ("segment_blocks", 128), ("segment_blocks", 1024)]  # (ufunc.reduceat's)
        if k != 1:
            out.append(("flat", 1, 16, False, False))
    return out


# Every variant for these input dtypes; the flat kernel alone for the others (keeps NVRTC time down).
FULL = set(map(numpy.dtype, "?fdeD"))


def _ops(uf, dtypes, nan=None):
    ops = []
    for dt in dtypes:
        try:
            rd = scan.result_dtype(uf, dt)
        except TypeError:
            continue  # NumPy has no loop (e.g. bitwise ops on floats)
        ops.append(scan.op_for(uf, dt, rd, rd, nan))
    return ops


GROUPS = {
    "add": lambda: _ops(arithmetic.add, ALL),
    "multiply": lambda: _ops(arithmetic.multiply, ALL),
    "nan": lambda: _ops(arithmetic.add, [numpy.dtype(c) for c in "efdFD"], nan=0)
    + _ops(arithmetic.multiply, [numpy.dtype(c) for c in "fD"], nan=1),
    "extrema": lambda: [o for uf in (extrema.maximum, extrema.minimum, extrema.fmax, extrema.fmin)
                        for o in _ops(uf, [numpy.dtype(c) for c in "?bBiqefdF"])],
    "logic_bits": lambda: [o for uf in (_logic.logical_and, _logic.logical_or, _logic.logical_xor,
                                        _bitwise.bitwise_and, _bitwise.bitwise_or, _bitwise.bitwise_xor,
                                        rational.gcd)
                           for o in _ops(uf, [numpy.dtype(c) for c in "?bIqf"])],
    # a float16 loop read from a wider input (dtype=float16; out= float32 too): cast through __half
    "half_loop": lambda: [scan.op_for(arithmetic.add, numpy.dtype(i), numpy.dtype(o), numpy.dtype("e"), nan)
                          for i, o, nan in (("D", "e", 0), ("d", "e", None), ("f", "f", 0), ("q", "e", None))]
    + [scan.op_for(arithmetic.multiply, numpy.dtype("F"), numpy.dtype("e"), numpy.dtype("e"), 1)],
    "serial_only": lambda: _ops(arithmetic.subtract, [numpy.dtype(c) for c in "ifD"])
    + _ops(arithmetic.divide, [numpy.dtype(c) for c in "fe"]),
}


@pytest.mark.parametrize("group", sorted(GROUPS))
@pytest.mark.nvrtc_fast
def test_every_variant_compiles(group):
    sources = []
    for op in GROUPS[group]():
        for v in _variants(op, full=op.in_dtype in FULL):
            name, src = op.source(*v)
            assert name.startswith("cuarray_") and "${" not in src
            sources.append(src)
    # Sources with float16 first: they include cuda_fp16.h before common.cuh (which is #pragma once).
    sources.sort(key=lambda s: "CUARRAY_HAS_HALF" not in s)
    cubin, _ = compiler.compile_cubin("\n".join(sources), arch="sm_90")
    assert cubin[:4] == b"\x7fELF"


@pytest.mark.nvrtc_fast
def test_exclusive_and_internal_sum_compile():
    sources = []
    for dt in map(numpy.dtype, "?biqI"):
        op = scan._sum_op(dt, numpy.dtype(numpy.int64))
        k, j = scan.flat_shape(op.in_dtype, op.out_dtype)
        for excl in (False, True):
            sources.append(op.source("flat", k, j, False, excl)[1])
    compiler.compile_cubin("\n".join(sources), arch="sm_90")


def test_source_is_readable():
    f4 = numpy.dtype(numpy.float32)
    op = scan.op_for(arithmetic.add, f4, f4, f4)
    name, src = op.source("flat", 4, 4, False, False)
    assert name == "cuarray_add_float32__flat_k4j4"
    assert 'extern "C" __global__ void __launch_bounds__(256, 4) cuarray_add_float32__flat_k4j4(' in src
    assert "out0 = in0 + in1;" in src
    assert "flat_scan<4, 4, false, false," in src
    i1, i8 = numpy.dtype(numpy.int8), numpy.dtype(numpy.int64)
    name, _ = scan.op_for(arithmetic.add, i1, i8, i8).source("columns", 8)
    assert name == "cuarray_add_int8_to_int64__columns_r8"


def test_narrow_kernels_only_stream_and_force_residency(monkeypatch):
    # 8 warps, evict-first accesses and 4 blocks/SM won for float32 and lost for float64
    # (perf-notes): they go to kernels whose widest type is 4 bytes at most. The ticket order
    # still compiles, and a tuning run's knobs name their kernels apart.
    f4, f8, i4, i8 = map(numpy.dtype, ["f4", "f8", "i4", "i8"])
    narrow = scan.op_for(arithmetic.add, f4, f4, f4)
    wide = [scan.op_for(arithmetic.add, f8, f8, f8), scan.op_for(arithmetic.add, i4, i8, i8)]
    _, src = narrow.source("flat", 4, 12, False, False)
    assert narrow.narrow() and "#define CUARRAY_SCAN_STREAMING 1" in src and "__launch_bounds__(256, 4)" in src
    assert "#define CUARRAY_SCAN_WARPS 8" in src
    for op in wide:
        _, src = op.source("flat", 2, 12, False, False)
        assert not op.narrow() and "CUARRAY_SCAN_STREAMING 1" not in src and "__launch_bounds__(128, " not in src
        assert "CUARRAY_SCAN_WARPS" not in src
    monkeypatch.setattr(scan, "_NARROW_KNOBS", (4, 1, 8, 0, 1, 8))
    monkeypatch.setattr(scan, "_WIDE_KNOBS", (4, 1, 8, 0, 0, 0))
    sources = []
    for op, suffix in zip([narrow] + wide, ["_w4v1s8o0c1m8", "_w4v1s8o0c0m0", "_w4v1s8o0c0m0"]):
        k, j = scan.flat_shape(op.in_dtype, op.out_dtype, acc_dtype=op.acc_dtype)
        name, src = op.source("flat", k, j, True, False)
        assert name.endswith(suffix) and "#define CUARRAY_SCAN_TILE_ORDER 0" in src
        sources.append(src)
    compiler.compile_cubin("\n".join(sources), arch="sm_90")


@pytest.mark.parametrize("dt", ALL, ids=lambda d: d.name)
def test_result_dtypes_match_numpy(dt):
    x = numpy.ones(2, dt)
    assert scan.result_dtype(arithmetic.add, dt) == numpy.cumsum(x).dtype
    assert scan.result_dtype(arithmetic.multiply, dt) == numpy.cumprod(x).dtype
    assert scan.result_dtype(extrema.maximum, dt) == numpy.maximum.accumulate(x).dtype
    for req in (numpy.float32, numpy.int16, numpy.complex128):
        assert scan.result_dtype(arithmetic.add, dt, numpy.dtype(req)) == numpy.cumsum(x, dtype=req).dtype


def test_accumulator_types():
    f2 = numpy.dtype(numpy.float16)
    op = scan.op_for(arithmetic.add, f2, f2, f2)
    assert op.acc_dtype == numpy.float32  # float16 accumulates in float32
    b, i8 = numpy.dtype(bool), numpy.dtype(numpy.int64)
    op = scan.op_for(arithmetic.add, b, i8, scan.result_dtype(arithmetic.add, b))
    assert op.acc_dtype == i8 and op.operation == "out0 = in0 + in1"
    assert not scan.op_for(arithmetic.subtract, i8, i8, i8).associative


def test_float16_loop_casts_the_input_to_float16_first():
    # NumPy casts the input to dtype=float16 before its float16 loop adds (fuzz seed 4 index 41:
    # nancumsum of complex128 holding -1e30 with dtype=float16 adds -inf: inf + -inf is NaN there,
    # where float32's -1e30 kept the sum inf). The float32 accumulator reads the float16 value.
    e, f, D = map(numpy.dtype, "efD")
    for out, nan in ((e, None), (e, 0), (f, 0)):
        op = scan.op_for(arithmetic.add, D, out, e, nan)
        assert op.acc_dtype == f and "cuarray::cast<acc_t>(cuarray::cast<__half>(v))" in op.load_expr
        assert "cuda_fp16.h" in op.source("serial")[1]
    assert scan.op_for(arithmetic.add, e, e, e).load_expr == "x"  # float16 input: no second cast
    assert scan.op_for(arithmetic.add, D, f, f).load_expr == "x"  # a float32 loop reads float32


def test_flat_shape_vectors():
    f4, f8, b, i8, c16 = map(numpy.dtype, ["f4", "f8", "?", "i8", "c16"])
    # (elements per 16-byte access, accesses per thread): 48 float32 per thread (tile 6144 with
    # 4 warps), fewer for wide accumulators (register pressure; docs/perf-notes.md).
    assert scan.flat_shape(f4, f4) == (4, 12)
    assert scan.flat_shape(f8, f8) == (2, 12)
    assert scan.flat_shape(b, i8) == (2, 12)
    assert scan.flat_shape(c16, c16) == (1, 12)
    assert scan.flat_shape(f4, f4, in_ptr=4) == (1, 48)  # misaligned: scalar accesses
