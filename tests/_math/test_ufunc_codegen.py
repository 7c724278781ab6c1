"""Every ufunc row, every NumPy loop: the generated kernels compile with NVRTC for sm_90 (no GPU).

Kernels of one module are concatenated into one source and compiled once (headers are
`#pragma once`; kernel names differ) at NVRTC's fast-compile level, which keeps this file fast.
(Whether the kernels are also right is tests/_math/test_ufuncs_gpu.py's job.) Also checks that the loop
tables are NumPy's and that every NumPy ufunc of the elementwise issue exists.
"""

from __future__ import annotations

import numpy as np
import pytest

from cuarray._bitwise import ops as bitwise_ops
from cuarray._core import dtypes as _dtypes
from cuarray._core.ufunc import ufunc
from cuarray._logic import comparison, content
from cuarray._logic import ops as logic_ops
from cuarray._math import (arithmetic, complex as complex_mod, explog, extrema, floating, hyperbolic,
                           misc, rational, rounding, trigonometric)
from cuarray._sorting import searching

MODULES = {
    "arithmetic": arithmetic, "explog": explog, "trigonometric": trigonometric, "hyperbolic": hyperbolic,
    "rounding": rounding, "floating": floating, "rational": rational, "complex": complex_mod,
    "extrema": extrema, "misc": misc, "comparison": comparison, "logic_ops": logic_ops,
    "content": content, "bitwise_ops": bitwise_ops,
}

# The NumPy ufuncs of the elementwise issue (aliases included), by public name.
ISSUE_UFUNCS = """
add subtract multiply divide true_divide floor_divide negative positive power pow float_power remainder
mod fmod divmod reciprocal exp exp2 expm1 log log2 log10 log1p logaddexp logaddexp2 sin cos tan arcsin
arccos arctan arctan2 hypot deg2rad rad2deg degrees radians asin acos atan atan2 sinh cosh tanh arcsinh
arccosh arctanh asinh acosh atanh rint floor ceil trunc signbit copysign nextafter spacing modf ldexp
frexp gcd lcm conjugate conj maximum minimum fmax fmin sqrt cbrt square absolute abs fabs sign heaviside
greater greater_equal less less_equal equal not_equal logical_and logical_or logical_xor logical_not
isfinite isinf isnan bitwise_and bitwise_or bitwise_xor bitwise_not invert left_shift right_shift
bitwise_count bitwise_invert bitwise_left_shift bitwise_right_shift
""".split()

ARCH = "sm_90"
# Full front end (every template instantiated, every C++ error caught) with the fastest back end:
# the batch of one module compiles about 3.5x faster than at -O3 (7.9 s -> 2.2 s for arithmetic).
FAST = ("--Ofast-compile=max",)


def _ufuncs_of(module):
    seen, out = set(), []
    for name in sorted(vars(module)):
        obj = getattr(module, name)
        if isinstance(obj, ufunc) and id(obj) not in seen:
            seen.add(id(obj))
            out.append(obj)
    return out


def _public(name):
    for mod in MODULES.values():
        obj = getattr(mod, name, None)
        if obj is not None:
            return obj
    return None


def _loop_dtypes(sig):
    ins, outs = sig.split("->")
    return tuple(_dtypes.normalize_dtype(np.dtype(c)) for c in ins)


def _sources(uf, nd_sample: bool):
    """Kernel sources for every loop of `uf`: arrays-only (flat), second input a scalar, and,
    for the first loop of each kind, the strided 2-d layout and a `where=` mask."""
    out = {}
    kinds_done = set()
    for sig in uf.types:
        in_dts = _loop_dtypes(sig)
        loop = uf._resolve(in_dts, None, "same_kind")
        expected = [np.dtype(c) for c in sig.replace("->", "")]
        assert list(loop.in_dtypes + loop.out_dtypes) == expected, sig
        d = uf._definition(loop, loop.in_dtypes, loop.out_dtypes, False)
        name, src = d.source("flat", 1, np.int32)
        out[name] = src
        if uf.nin >= 2:
            kinds = (loop.in_dtypes[0], None) + tuple(loop.in_dtypes[2:])
            ds = uf._definition(loop, kinds, loop.out_dtypes, False)
            name, src = ds.source("flat", 1, np.int32)
            out[name] = src
        kind = loop.in_dtypes[0].kind
        if nd_sample and kind not in kinds_done:
            kinds_done.add(kind)
            name, src = d.source("nd", 2, np.int64)
            out[name] = src
            dm = uf._definition(loop, loop.in_dtypes, loop.out_dtypes, True)
            name, src = dm.source("vec", 1, np.int32)
            out[name] = src
    return out


def _batch(sources: dict) -> str:
    """One translation unit. float16 support (cuda_fp16.h) goes first when any kernel needs it:
    common.cuh is included once, so it must see CUARRAY_HAS_HALF before its first inclusion."""
    texts = list(sources.values())
    head = ""
    if any("CUARRAY_HAS_HALF" in t for t in texts):
        head = "#define CUARRAY_HAS_HALF 1\n#include <cuda_fp16.h>\n"
    return head + "\n".join(t.replace("#define CUARRAY_HAS_HALF 1\n", "") for t in texts)


@pytest.fixture(scope="module")
def compile_cubin():
    compiler = pytest.importorskip("cuarray.cuda.compiler")
    try:
        compiler.compile_cubin('extern "C" __global__ void k() {}', arch=ARCH)
    except Exception as exc:  # no NVRTC on this machine
        pytest.skip("NVRTC unavailable: {}".format(exc))
    return compiler.compile_cubin


@pytest.mark.nvrtc_fast
@pytest.mark.parametrize("module_name", sorted(MODULES))
def test_every_loop_compiles(module_name, compile_cubin):
    sources = {}
    for uf in _ufuncs_of(MODULES[module_name]):
        sources.update(_sources(uf, nd_sample=True))
    if module_name == "misc":
        sources.update(_misc_function_sources())
    assert sources
    cubin, _ = compile_cubin(_batch(sources), arch=ARCH, options=FAST, name="cuarray_codegen_" + module_name)
    assert cubin[:4] == b"\x7fELF"


def _misc_function_sources():
    """The non-ufunc kernels: where, nan_to_num, i0, sinc, for every dtype they accept."""
    out = {}
    all_dts = [d for d in _dtypes.SUPPORTED_DTYPES]
    for dt in all_dts:
        for kinds in ((np.dtype(bool), dt, dt), (None, dt, None), (dt, None, None)):
            d = searching._definition(kinds, dt)
            name, src = d.source("flat", 1, np.int32)
            out[name] = src
        if dt.kind == "c":
            part = np.dtype(dt.char.lower())
            op = ("out0 = complex<{t}>(cuarray::nan_to_num(in0.re, nan, posinf, neginf), "
                  "cuarray::nan_to_num(in0.im, nan, posinf, neginf))").format(t=_dtypes.ctype(part))
        else:
            part = dt
            op = "out0 = cuarray::nan_to_num(in0, nan, posinf, neginf)"
        if dt.kind in "fc":
            d = misc._unary_definition("nan_to_num", op, dt, dt, dt,
                                       (("nan", part), ("posinf", part), ("neginf", part)))
            out.update([d.source("flat", 1, np.int32)])
        if dt.kind != "c":
            out_dt = dt if dt.kind == "f" else np.dtype(np.float64)
            compute = np.dtype(np.float64) if out_dt == np.float64 else np.dtype(np.float32)
            fn = "cyl_bessel_i0f" if compute == np.float32 else "cyl_bessel_i0"
            d = misc._unary_definition("i0", "out0 = ::isinf(in0) ? in0 - in0 : {}(fabs(in0))".format(fn), dt,
                                       compute, out_dt)
            out.update([d.source("flat", 1, np.int32)])
        out_dt = np.dtype(np.float64) if dt.kind in "biu" else dt
        op = "out0 = cuarray::sinc_half(in0)" if dt.char == "e" else "out0 = cuarray::sinc(in0)"
        d = misc._unary_definition("sinc", op, dt, out_dt, out_dt)
        out.update([d.source("flat", 1, np.int32)])
    return out


@pytest.mark.parametrize("name", ISSUE_UFUNCS)
def test_types_are_numpys(name):
    uf = _public(name)
    assert isinstance(uf, ufunc), name
    ok = set("?bhilqBHILQefdFD")
    expected = [t for t in getattr(np, name).types if set(t.replace("->", "")) <= ok]
    assert uf.types == expected
    assert uf.nin == getattr(np, name).nin and uf.nout == getattr(np, name).nout
    assert uf.__name__ == getattr(np, name).__name__ or name in ("true_divide",)


def test_every_numpy_ufunc_of_the_issue_exists():
    numpy_ufuncs = {n for n in dir(np) if isinstance(getattr(np, n), np.ufunc)}
    # gufuncs (matmul, vecdot, ...) and datetime (isnat) belong to other issues.
    elsewhere = {"matmul", "matvec", "vecmat", "vecdot", "isnat"}
    missing = sorted(n for n in numpy_ufuncs - elsewhere if not isinstance(_public(n), ufunc))
    assert missing == []


def test_aliases_are_the_same_objects():
    assert arithmetic.true_divide is arithmetic.divide
    assert arithmetic.mod is arithmetic.remainder
    assert arithmetic.pow is arithmetic.power
    assert misc.abs is misc.absolute
    assert bitwise_ops.bitwise_not is bitwise_ops.invert
    assert complex_mod.conj is complex_mod.conjugate
    assert trigonometric.asin is trigonometric.arcsin


def test_identities_match_numpy():
    for name in ISSUE_UFUNCS:
        uf = _public(name)
        ident = getattr(np, name).identity
        if ident is None:
            assert uf.identity is None, name
        else:
            assert uf.identity == ident, name


def test_kernel_names_are_readable():
    loop = arithmetic.add._resolve((np.dtype(np.float32), np.dtype(np.float32)), None, "same_kind")
    d = arithmetic.add._definition(loop, loop.in_dtypes, loop.out_dtypes, False)
    assert d.source("flat", 1, np.int32)[0] == "cuarray_add_float32_float32"


# -- __array_ufunc__ without a device: the refusals ---------------------------------------------------------
def test_array_ufunc_refuses_host_arrays_and_unknown_ufuncs():
    from cuarray._core.numpy_protocol import array_ufunc

    host = np.ones(3)
    assert array_ufunc(None, np.add, "__call__", host, 1.0) is NotImplemented
    assert array_ufunc(None, np.vecmat, "__call__", 1.0) is NotImplemented  # (isnat, once unknown, now exists)
    assert array_ufunc(None, np.add, "no_such_method", 1.0, 2.0) is NotImplemented
    assert array_ufunc(None, np.add, "__call__", 1.0, 2.0, out=(host,)) is NotImplemented
