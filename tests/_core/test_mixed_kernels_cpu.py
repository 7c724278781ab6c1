"""Kernels shared across stored dtypes (issue 35, "compile less on varied data"), checked without a
GPU: a ufunc call whose input is stored in another dtype than its loop's (int16 + float32 runs the
'ff->f' loop) loads that input through a runtime type code (cuarray/load_as.cuh), so one kernel per
(op, loop, layout) serves every such stored dtype. Here: the shared kernels of every loop of many
ufuncs compile with NVRTC for sm_90; the kernels of every other call are byte-identical to those
before sharing; on the fake device, mixed calls request the shared kernel with the right type
codes, and larger calls the specialised one."""

from __future__ import annotations

import hashlib
import pathlib
import re

import numpy as np
import pytest

import cuarray as cp
from cuarray._core import dtypes as _dtypes
from cuarray._core import ufunc as ufunc_module
from cuarray._core.elementwise import RUNTIME_TYPES, KernelParam
from cuarray._core.ufunc import _Loop, ufunc
from cuarray.cuda import compiler

UFUNCS = ["add", "multiply", "true_divide", "maximum", "fmin", "arctan2", "left_shift", "equal", "less",
          "logical_and", "copysign", "sqrt", "negative", "isnan", "power", "remainder", "bitwise_and"]
LAYOUTS = [("flat", 1, np.int32), ("vec", 1, np.int32), ("nd", 2, np.int32), ("nd", 3, np.int64)]
F8, I1, I2, F4, U1, B = map(np.dtype, ["f8", "i1", "i2", "f4", "u1", "?"])
HEADER = pathlib.Path(cp.__file__).parent / "_core" / "templates" / "cuarray" / "load_as.cuh"


def _loop(t: str) -> _Loop:
    ins, outs = t.split("->")
    return _Loop(tuple(np.dtype(c) for c in ins), tuple(np.dtype(c) for c in outs))


def _other(dt):
    """A stored dtype other than `dt` (what a mixed call's input could be)."""
    return I2 if dt != I2 else U1


def test_type_codes_are_the_header_cases():
    # load_as.cuh's case k loads SUPPORTED_DTYPES[k]'s C type; the last case is the default.
    # float16 (9) is not a runtime type: no shared kernel includes cuda_fp16.h for it.
    cases = re.findall(r"(?:case (\d+)|default): return cast<T>\(static_cast<const ([\w <>]+)\*>", HEADER.read_text())
    runtime = [(k, dt) for k, dt in enumerate(_dtypes.SUPPORTED_DTYPES) if dt.char != "e"]
    assert [c for _, c in cases] == [_dtypes.ctype(dt) for _, dt in runtime]
    assert [int(k) for k, _ in cases[:-1]] == [k for k, _ in runtime[:-1]]
    assert {dt: int(c) for dt, c in RUNTIME_TYPES.items()} == dict((dt, k) for k, dt in runtime)


def _unmixed_digest():
    """(count, sha256) of the name and source of every kernel that a call with no runtime-typed
    input gets, for many ufuncs and loops: loop dtypes, `where=`, `out=` of float64, a Python
    scalar on either side, and a mixed call above the sharing limit (specialised on int8)."""
    h = hashlib.sha256()
    n = 0
    for name in UFUNCS:
        uf = getattr(cp, name)
        for t in uf.types:
            loop = _loop(t)
            kinds = loop.in_dtypes
            defs = [uf._definition(loop, kinds, loop.out_dtypes, False),
                    uf._definition(loop, kinds, loop.out_dtypes, True),
                    uf._definition(loop, kinds, (F8,) * uf.nout, False)]
            if uf.nin == 2:
                defs.append(uf._definition(loop, (kinds[0], None), loop.out_dtypes, False))
                defs.append(uf._definition(loop, (None, kinds[1]), loop.out_dtypes, False))
            if kinds[0] != I1:
                defs.append(uf._definition(loop, (I1,) + kinds[1:], loop.out_dtypes, False))
            for d in defs:
                assert not d.runtime
                for lay in LAYOUTS:
                    kname, src = d.source(*lay)
                    h.update(kname.encode())
                    h.update(src.encode())
                    n += 1
    return n, h.hexdigest()


def test_unmixed_kernels_are_byte_identical_to_before_sharing():
    # The digest was computed on the code before kernels were shared (commit a76c560): same
    # names, same sources, so no disk-cache entry is invalidated and no kernel changes speed.
    # A deliberate change of the engine's code generation updates it. (Issue 54: a float16 loop's
    # result stored into a wider out= is rounded to half first, as NumPy's 'e->e' loop then cast:
    # only the float16 loops' out=float64 kernels changed; then the same rounding in their vector
    # kernels' lane store, which had been missed. Then complex true_divide's loops: NumPy's division
    # loop, 1/d times the parts, so that a subnormal divisor overflows as NumPy's does.)
    assert _unmixed_digest() == (4852, "7c54370de93aec1146644c07349f0c3ff4417b71124b5ba53ea46382d9d6ca86")


def _shared_defs(uf):
    """Per loop, the shared definitions: every input runtime-typed (and whether to compile its
    strided layout too), then the first input alone, then the second beside a scalar with where=."""
    for t in uf.types:
        loop = _loop(t)
        kinds = tuple(_other(d) for d in loop.in_dtypes)
        yield uf._definition(loop, kinds, loop.out_dtypes, False, True), True
        if uf.nin == 2:
            yield uf._definition(loop, (kinds[0], loop.in_dtypes[1]), loop.out_dtypes, False, True), False
            yield uf._definition(loop, (None, kinds[1]), loop.out_dtypes, True, True), False


@pytest.mark.nvrtc_fast
@pytest.mark.parametrize("name", UFUNCS)
def test_shared_kernels_of_every_loop_compile(name):
    # One NVRTC call per ufunc: every loop's shared kernels, flat and strided, in one unit.
    uf = getattr(cp, name)
    sources = {}  # by kernel name: 'l' and 'q' loops are one int64 loop
    for d, strided in _shared_defs(uf):
        assert d.runtime and d._vec == 1
        for lay in (("flat", 1, np.int32), ("nd", 2, np.int64))[: 1 + strided]:
            kname, src = d.source(*lay)
            assert "cuarray::load_as<" in src
            sources[kname] = src
    cubin, _ = compiler.compile_cubin("\n".join(sources.values()), arch="sm_90", options=("-fmad=false",))
    assert cubin[:4] == b"\x7fELF"


def test_special_ufunc_shared_kernels_compile():
    # scipy.special's ufuncs (their own headers) share too: a mixed call there gets the same load.
    from cuarray.scipy import special

    sources = {}
    for name in ("erf", "gammaln", "xlogy", "expit"):
        for d, _ in _shared_defs(getattr(special, name)):
            kname, src = d.source("flat", 1, np.int32)
            sources[kname] = src
    cubin, _ = compiler.compile_cubin("\n".join(sources.values()), arch="sm_90", options=("-fmad=false",))
    assert cubin[:4] == b"\x7fELF"


def test_one_kernel_for_every_stored_dtype():
    loop = cp.add._resolve((I2, F4), None, "same_kind")
    defs = [cp.add._definition(loop, (k, F4), loop.out_dtypes, False, True) for k in (I1, I2, U1, B)]
    assert {d.key for d in defs} == {defs[0].key} and {d.name for d in defs} == {"cuarray_add_asfloat32_float32"}
    assert {d.source("flat", 1, np.int32) for d in defs} == {defs[0].source("flat", 1, np.int32)}
    assert [d._pack((1, 2, 3), (), ())[1] for d in defs] == [RUNTIME_TYPES[k] for k in (I1, I2, U1, B)]
    # an input of the loop's dtype keeps its compile-time load; a call with none converted is unshared
    src = defs[0].source("nd", 2, np.int32)[1]
    assert "const void* __restrict__ in0_ptr, const int in0_t, const float* __restrict__ in1_ptr" in src
    assert "cuarray::load_as<float>((const char*)in0_ptr + _off_in0, 0, in0_t)" in src
    same = cp.add._definition(loop, (F4, F4), loop.out_dtypes, False, True)
    assert not same.runtime and same is cp.add._definition(loop, (F4, F4), loop.out_dtypes, False)


def test_datetimes_keep_compile_time_types():
    M, m, q = np.dtype("M8[s]"), np.dtype("m8[s]"), np.dtype("q")
    loop = cp.add._resolve((M, m), None, "same_kind")
    assert not cp.add._definition(loop, (M, m), loop.out_dtypes, False, True).runtime
    with pytest.raises(ValueError):
        KernelParam("in0", "in", M, F8, runtime=True)


# -- the host path on the fake device ------------------------------------------------------------------
def _fresh(uf):
    return ufunc(uf.__name__, uf.nin, uf.nout, uf._ops, np_name=uf._np.__name__, preamble=uf._preamble)


def _kernel(call):
    return call[2]


@pytest.fixture
def limit():
    prev = ufunc_module._SHARED_LIMIT[0]
    yield ufunc_module._set_shared_limit
    ufunc_module._set_shared_limit(prev)


@pytest.mark.parametrize("stored", ["int8", "int16", "uint8", "uint16", "bool"])
def test_mixed_calls_launch_the_shared_kernel_with_type_codes(recorded_launches, stored):
    add = _fresh(cp.add)
    a = cp.empty(1000, dtype=stored)
    b = cp.empty(1000, dtype="float32")
    code = RUNTIME_TYPES[np.dtype(stored)]
    for _ in range(2):  # the full call, then the prepared launcher
        out = add(a, b)
        assert out.dtype == np.float32
    for call in recorded_launches:
        assert _kernel(call) == ("cuarray_add_asfloat32_float32", "flat", 1, np.int32)
        assert call[3:6] == (a.data.ptr, code, b.data.ptr) and call[7] == 1000 and len(call) == 8
        assert type(call[4]) is np.int32
    assert len(add._fast) == 1
    del recorded_launches[:]
    for _ in range(2):  # the other side, and a Python scalar (the loop's type, by value)
        add(b, a)
        add(a, 2.5)
    names = [_kernel(c)[0] for c in recorded_launches]
    assert names == ["cuarray_add_float32_asfloat32", "cuarray_add_asfloat64_sfloat64"] * 2  # NEP 50: float64
    assert [c[5] for c in recorded_launches[0::2]] == [code, code]  # after b's pointer and a's
    assert [c[3:6] for c in recorded_launches[1::2]] == [(a.data.ptr, code, np.float64(2.5))] * 2


def test_float16_inputs_keep_the_specialised_kernel(recorded_launches):
    add = _fresh(cp.add)
    a, b = cp.empty(1000, dtype="float16"), cp.empty(1000, dtype="float32")
    add(a, b)
    add(b, a)
    assert [_kernel(c)[0] for c in recorded_launches] == ["cuarray_add_float16_float32", "cuarray_add_float32_float16"]


def test_mixed_strided_where_and_out_calls_share(recorded_launches):
    add, sqrt = _fresh(cp.add), _fresh(cp.sqrt)
    a = cp.empty((40, 30), dtype="int16")
    b = cp.empty((30,), dtype="float32")
    w = cp.empty((40, 30), dtype=bool)
    o = cp.empty((40, 30), dtype="float64")
    add(a[:, ::-1], b)  # a negative-stride view broadcast with a row: the strided kernel
    add(a.T, b[:, None], out=o.T)  # out= of another dtype: the output keeps its compile-time type
    add(a, b, where=w)
    sqrt(a[::2])  # unary: int16 -> the 'f->f' loop
    got = [_kernel(c) for c in recorded_launches]
    assert [g[0] for g in got] == ["cuarray_add_asfloat32_float32", "cuarray_add_asfloat32_float32_to_float64",
                                   "cuarray_add_asfloat32_float32_where", "cuarray_sqrt_asfloat32"]
    assert [g[1] for g in got] == ["nd"] * 4  # b is broadcast in every add
    code = RUNTIME_TYPES[np.dtype("int16")]
    assert all(c[4] == code and type(c[4]) is np.int32 for c in recorded_launches)


def test_calls_above_the_limit_keep_the_specialised_kernel(recorded_launches, limit):
    limit(100)
    add = _fresh(cp.add)
    small, big = cp.empty(100, dtype="int16"), cp.empty(101, dtype="int16")
    fs, fb = cp.empty(100, dtype="float32"), cp.empty(101, dtype="float32")
    for _ in range(2):  # whichever size comes first, both go their own way from then on
        add(big, fb)
        add(small, fs)
        add(fb, 2)  # unmixed: unchanged
    assert [_kernel(c)[:2] for c in recorded_launches] == [
        ("cuarray_add_int16_float32", "vec"), ("cuarray_add_asfloat32_float32", "flat"),
        ("cuarray_add_float32_sfloat32", "vec")] * 2
    assert len(recorded_launches[1]) == len(recorded_launches[0]) + 1  # the type code of in0
    del recorded_launches[:]
    limit(0)  # the switch: every mixed call specialised (the kernels before sharing)
    add(small, fs)
    assert [_kernel(c)[0] for c in recorded_launches] == ["cuarray_add_int16_float32"]


def test_prepared_launchers_pass_every_type_code(recorded_launches):
    # Both inputs converted (int32 * float32 runs 'dd->d'), and a unary call (int16 -> 'f->f'):
    # the full call and the prepared launcher (second call) pass the same arguments.
    multiply, sqrt = _fresh(cp.multiply), _fresh(cp.sqrt)
    a, b = cp.empty(500, dtype="int32"), cp.empty(500, dtype="float32")
    c = cp.empty(500, dtype="int16")
    for _ in range(2):
        multiply(a, b)
        sqrt(c)
    ci, cf, ch = (RUNTIME_TYPES[np.dtype(t)] for t in ("int32", "float32", "int16"))
    got = [(_kernel(k)[0], k[3:-2], k[-1]) for k in recorded_launches]
    assert got == [("cuarray_multiply_asfloat64_asfloat64", (a.data.ptr, ci, b.data.ptr, cf), 500),
                   ("cuarray_sqrt_asfloat32", (c.data.ptr, ch), 500)] * 2
    assert multiply._fast and sqrt._fast

