"""Code generation of the elementwise engine, checked without a GPU: every layout compiles with
NVRTC for sm_90, the source reads like CUDA, and ElementwiseKernel parses its parameters."""

import numpy
import pytest

from cuarray._core.elementwise import Definition, KernelParam
from cuarray._core.elementwise_kernel import ElementwiseKernel, parse_params
from cuarray.cuda import compiler

F4, F2, F8, C8, C16, B, I8, U8 = map(numpy.dtype, ["f4", "f2", "f8", "c8", "c16", "?", "i8", "u1"])

LAYOUTS = [("flat", 1, numpy.int32), ("vec", 1, numpy.int32), ("nd", 3, numpy.int64), ("nd", 2, numpy.int32),
           ("serial", 1, numpy.int64)]


def _defs():
    return {
        "add_f4": Definition("cuarray_add_float32_float32",
                             [KernelParam("in0", "in", F4), KernelParam("in1", "in", F4), KernelParam("out0", "out", F4)],
                             "out0 = in0 + in1"),
        "mul_f2_scalar": Definition("cuarray_multiply_float16_sfloat16",
                                    [KernelParam("in0", "in", F2), KernelParam("in1", "scalar", F2),
                                     KernelParam("out0", "out", F2)], "out0 = in0 * in1"),
        "add_c8_mixed": Definition("cuarray_add_complex64_float32",
                                   [KernelParam("in0", "in", C8), KernelParam("in1", "in", F4, C8),
                                    KernelParam("out0", "out", C8)], "out0 = in0 + in1"),
        "copy_c16_u8": Definition("cuarray_copy_complex128_uint8",
                                  [KernelParam("in0", "in", C16), KernelParam("out0", "out", U8, C16)], "out0 = in0"),
        "copy_b_f2": Definition("cuarray_copy_bool_float16",
                                [KernelParam("in0", "in", B), KernelParam("out0", "out", F2, B)], "out0 = in0"),
        "where_i8": Definition("cuarray_add_int64_int64_where",
                               [KernelParam("in0", "in", I8), KernelParam("in1", "in", I8), KernelParam("_w", "in", B),
                                KernelParam("out0", "out", I8)], "if (!_w) continue;\n    out0 = in0 + in1"),
    }


@pytest.mark.parametrize("layout,ndim,index_t", LAYOUTS, ids=lambda x: str(x))
def test_every_layout_compiles(layout, ndim, index_t):
    # One NVRTC call per layout: all definitions in one translation unit (kernel names differ).
    sources = []
    for d in _defs().values():
        name, src = d.source(layout, ndim, index_t)
        assert name.startswith(d.name)
        sources.append(src)
    cubin, _ = compiler.compile_cubin("\n".join(sources), arch="sm_90")
    assert cubin[:4] == b"\x7fELF"


def test_source_is_readable():
    name, src = _defs()["add_f4"].source("vec", 1, numpy.int32)
    assert name == "cuarray_add_float32_float32__vec4"
    assert "extern \"C\" __global__ void cuarray_add_float32_float32__vec4(" in src
    assert "cuarray::vec<float, 4>" in src  # 16-byte loads
    assert "out0 = in0 + in1;" in src
    # No template holes left over, no header comment of the skeleton.
    assert "${" not in src and "<name>" not in src
    name, src = _defs()["add_f4"].source("nd", 2, numpy.int64)
    assert name.endswith("__nd2__i64") and "long long _r = i;" in src


def test_vector_width_follows_widest_operand():
    d = _defs()
    assert d["add_f4"]._vec == 4
    assert d["mul_f2_scalar"]._vec == 8
    assert d["add_c8_mixed"]._vec == 2
    assert d["copy_c16_u8"]._vec == 1
    assert d["where_i8"]._vec == 1  # a masked kernel must not store whole vectors


def test_parse_params():
    ps = parse_params("float32 x, T y, raw int64 z")
    assert [(p.name, p.raw, p.dtype, p.typevar) for p in ps] == [
        ("x", False, F4, None), ("y", False, None, "T"), ("z", True, I8, None)]
    assert parse_params("") == ()
    with pytest.raises(ValueError, match="raw"):
        parse_params("float32")
    with pytest.raises(ValueError, match="Duplicate"):
        parse_params("float32 x, int32 x")


def test_elementwise_kernel_rejects_same_name_in_and_out():
    with pytest.raises(ValueError, match="both input and output"):
        ElementwiseKernel("float32 x", "float32 x", "x = 1")


def test_elementwise_kernel_source_with_typedefs_compiles():
    k = ElementwiseKernel("T x, T y", "T z", "T d = x - y; z = d * d", "squared_diff_generic")
    d = k._definition([("in", F8, F8), ("in", F8, F8), ("out", F8, F8)], {"T": F8})
    name, src = d.source("flat", 1, numpy.int32)
    assert "typedef double T;" in src and name == "squared_diff_generic_float64_float64_float64"
    raw = ElementwiseKernel("S x", "raw U y", "atomicAdd(&y[x], 1)", "bincount_k")
    d2 = raw._definition([("in", I8, I8), ("raw", numpy.dtype("u4"), numpy.dtype("u4"))],
                         {"S": I8, "U": numpy.dtype("u4")})
    assert d2._vec == 1
    compiler.compile_cubin(src + "\n" + d2.source("flat", 1, numpy.int32)[1], arch="sm_90")


def test_compile_error_shows_user_operation():
    d = Definition("cuarray_bad", [KernelParam("in0", "in", F4), KernelParam("out0", "out", F4)],
                   "out0 = in0 +* 2", user_source="out0 = in0 +* 2")
    name, src = d.source("flat", 1, numpy.int32)
    with pytest.raises(compiler.CompileError) as info:
        compiler.compile_cubin(src, arch="sm_90")
    assert "error" in str(info.value)


def test_grids_cover_every_element():
    # The kernels have no grid loop: the grid alone must reach every element, tails included.
    from cuarray._core import elementwise as ew

    d = _defs()["add_f4"]
    for n in [1, 3, 4, 5, 255, 256, 257, 1023, 1024, 1025, 10**6 + 3]:
        v = d._vec
        assert d.grid("vec", n) * ew._BLOCK >= n // v + n % v
        assert d.grid("flat", n) * ew._BLOCK * ew._ITEMS >= n
        assert d.grid("nd", n) * ew._BLOCK * ew._ITEMS >= n
        assert (d.grid("flat", n) - 1) * ew._BLOCK * ew._ITEMS < n  # and no block is idle


def test_grid_past_the_limit_is_an_error():
    from cuarray.cuda import launch

    with pytest.raises(ValueError, match="grid limit"):
        launch.grid_one_pass(256 * (launch.MAX_GRID_X + 1))


def test_string_scans_match_the_regexes_they_replace():
    # uses_index, check_kernel_name and parse_params scan with str methods (no regex compile on a
    # process's first kernel, issue 32): they must accept and reject what the regexes did.
    import random
    import re

    from cuarray._core.elementwise import uses_index
    from cuarray._core.elementwise_kernel import check_kernel_name

    index_re = re.compile(r"\b(i|_ind)\b")
    name_re = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*\Z")
    param_re = re.compile(r"^\s*(raw\s+)?([A-Za-z_][A-Za-z0-9_]*)\s+([A-Za-z_][A-Za-z0-9_]*)\s*$")
    rng = random.Random(0)
    alphabet = ["i", "_ind", "_", "x", "n", "d", "raw", "T", "1", " ", "\t", "[", "]", "=", "(", ")", ";", "é"]
    texts = ["", "i", "_ind", "a[i] = b", "_ind.size()", "xi", "i_", "_i", "_indx", "ii", "y = x", "raw T x",
             "raw x", "raw raw x", "float32 x", " raw  float32\tx ", "float32", "a b c", "1a x", "é x"]
    texts += ["".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 8))) for _ in range(3000)]
    for t in texts:
        assert uses_index(t) == bool(index_re.search(t)), t
        ok = name_re.match(t) is not None
        if ok:
            assert check_kernel_name(t) == t
        else:
            with pytest.raises(ValueError, match="Invalid kernel name"):
                check_kernel_name(t)
        m = param_re.match(t)
        if "," in t or not t.strip():  # several declarations; none
            continue
        if m is None or "raw" in (m.group(2), m.group(3)) or m.group(3).startswith("_"):  # (_: reserved)
            with pytest.raises(ValueError):
                parse_params(t)
        else:
            (p,) = parse_params(t)
            assert (p.raw, p.name) == (bool(m.group(1)), m.group(3)), t
