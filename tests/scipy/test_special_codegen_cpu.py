"""Every cuarray.scipy.special ufunc, every loop: the generated kernels compile with NVRTC for sm_90
(no GPU), with arrays, with a scalar operand, strided and under `where=`; and a fused kernel of
several special functions (their preambles concatenated) compiles too. Every one of those kernels
has a stack size ptxas could determine (no recursion: see _assert_stacks_sized).
"""

from __future__ import annotations

import numpy as np
import pytest

from cuarray._core.ufunc import ufunc
from cuarray.scipy import special as cs
from cubin_info import FRAME_SIZE, MIN_STACK_SIZE, kernel_attributes  # tests/ is on sys.path

ARCH = "sm_90"
FAST = ("--Ofast-compile=max",)
UFUNCS = sorted({id(getattr(cs, n)): getattr(cs, n) for n in dir(cs) if isinstance(getattr(cs, n), ufunc)}.values(),
                key=lambda u: u.__name__)


@pytest.fixture(scope="module")
def compile_cubin():
    compiler = pytest.importorskip("cuarray.cuda.compiler")
    try:
        compiler.compile_cubin('extern "C" __global__ void k() {}', arch=ARCH)
    except Exception as exc:  # no NVRTC on this machine
        pytest.skip("NVRTC unavailable: {}".format(exc))
    return compiler.compile_cubin


def _sources(uf):
    out = {}
    for sig in uf.types:
        ins = tuple(np.dtype(c) for c in sig.split("->")[0])
        loop = uf._resolve(ins, None, "same_kind")
        # (SciPy's longlong 'q' loops run on cuarray's int64 'l', the same type)
        assert "".join(d.char for d in loop.in_dtypes + loop.out_dtypes) == sig.replace("->", "").replace("q", "l")
        d = uf._definition(loop, loop.in_dtypes, loop.out_dtypes, False)
        out.update([d.source("flat", 1, np.int32), d.source("nd", 2, np.int64)])
        if uf.nin >= 2:
            ds = uf._definition(loop, (loop.in_dtypes[0], None) + loop.in_dtypes[2:], loop.out_dtypes, False)
            out.update([ds.source("flat", 1, np.int32)])
        dm = uf._definition(loop, loop.in_dtypes, loop.out_dtypes, True)
        out.update([dm.source("vec", 1, np.int32)])
    # float16 input runs the float32 loop with a half-typed operand.
    if "f->f" in uf.types and uf.nin == 1:
        loop = uf._resolve((np.dtype("e"),), None, "same_kind")
        d = uf._definition(loop, (np.dtype("e"),), loop.out_dtypes, False)
        out.update([d.source("flat", 1, np.int32)])
    return out


def _batch(sources: dict) -> str:
    texts = list(sources.values())
    head = ""
    if any("CUARRAY_HAS_HALF" in t for t in texts):
        head = "#define CUARRAY_HAS_HALF 1\n#include <cuda_fp16.h>\n"
    return head + "\n".join(t.replace("#define CUARRAY_HAS_HALF 1\n", "") for t in texts)


MODULES = ["_error", "_gamma", "_bessel", "_airy", "_stats", "_convenience", "_expint", "_zeta", "_elliptic",
           "_legendre", "_hypergeometric", "_lambertw", "_sph_harm"]


@pytest.mark.parametrize("module", MODULES)
def test_every_loop_compiles(module, compile_cubin):
    # every ufunc the module defines, the private ones behind zeta/polygamma included
    import importlib

    mod = importlib.import_module("cuarray.scipy.special." + module)
    sources = {}
    for uf in {id(v): v for v in vars(mod).values() if isinstance(v, ufunc)}.values():
        if uf._np.__class__.__name__ == "LoopTable":
            sources.update(_sources(uf))
    assert sources
    cubin, _ = compile_cubin(_batch(sources), arch=ARCH, options=FAST, name="cuarray_codegen_special" + module)
    assert cubin[:4] == b"\x7fELF"
    _assert_stacks_sized(cubin, sources)


def _assert_stacks_sized(cubin: bytes, kernels) -> None:
    """Every one of `kernels` (names) in `cubin` has a stack size ptxas determined: no recursion in
    any special function it reaches. A kernel whose stack ptxas cannot size gets CU_LIMIT_STACK_SIZE
    a thread (1 KiB by default) whatever its frames need, a fault that shows only on the GPU, only
    where the deep path runs (complex hyp2f1, through beta's recursion). A function that needs to
    treat a reflected argument calls a non-recursive part (beta_no_negint, spherical_kn_pos,
    zeta_minus_one_gt1, lpmv_pos_degree, struve_hl_nonneg), not itself."""
    stacks = _stack_sizes(cubin)
    assert sorted(set(kernels) - set(stacks)) == []  # (else the reader missed them: it would pass anything)
    unsized = sorted(k for k in kernels if stacks[k][1] is None)
    assert unsized == [], "stack size unknown to ptxas (a recursive call): {}".format(unsized)


def _stack_sizes(cubin: bytes) -> dict:
    """{kernel: (its own frame in bytes, its stack size or None)} of the kernels of `cubin`, None
    where ptxas could not determine the stack size (a cycle in the call graph: its warning "Stack
    size for entry function ... cannot be statically determined"). The driver gives those
    CU_LIMIT_STACK_SIZE per thread (1 KiB by default) whatever their frames need: the complex hyp2f1
    kernel's 1192-byte frame overran it (CUDA_ERROR_ILLEGAL_ADDRESS) while beta called itself
    through beta_negint. Read from the cubin's .nv.info records (tests/cubin_info.py): an entry's
    EIATTR_MIN_STACK_SIZE is 0xffffffff then; EIATTR_FRAME_SIZE is its frame."""
    return {k: (v.get(FRAME_SIZE, 0), None if v[MIN_STACK_SIZE] == 0xFFFFFFFF else v[MIN_STACK_SIZE])
            for k, v in kernel_attributes(cubin).items() if MIN_STACK_SIZE in v}


def test_kernel_names_say_what_they_are():
    loop = cs.erf._resolve((np.dtype("f"),), None, "same_kind")
    d = cs.erf._definition(loop, loop.in_dtypes, loop.out_dtypes, False)
    assert d.source("flat", 1, np.int32)[0].startswith("cuarray_erf_float32")


def test_headers_have_include_guards():
    """Fused kernels concatenate the preambles of their special functions: each header must be
    guarded, and no CUDA source lives in Python strings (templates/*.cuh only)."""
    import pathlib

    tdir = pathlib.Path(cs.__file__).parent / "templates"
    for h in tdir.glob("*.cuh"):
        text = h.read_text()
        assert "#ifndef CUARRAY_SPECIAL_" in text and "#endif" in text, h.name


def test_fused_preambles_compile(compile_cubin):
    """Two functions of different headers in one kernel, as fusion emits it: the concatenated
    preambles (common.cuh twice) compile."""
    f8 = np.dtype("d")
    _compile_fused(compile_cubin, "cuarray_fused_special_test", [("in0", "in", f8), ("out0", "out", f8)],
                   "out0 = cuarray_special::erf(cuarray_special::gammaln(in0)) + cuarray_special::i0e(in0)"
                   " + cuarray_special::log_ndtr(in0)", [cs.erf, cs.gammaln, cs.i0e, cs.log_ndtr])


def _compile_fused(compile_cubin, kname, params, operation, ufuncs):
    """One kernel of `operation` over `params` ((name, kind, dtype)) with the ufuncs' preambles
    concatenated, as fusion emits it: it compiles to a cubin."""
    from cuarray._core.elementwise import Definition, KernelParam

    d = Definition(kname, [KernelParam(n, k, dt, dt) for n, k, dt in params], operation,
                   preamble="\n".join(u._preamble for u in ufuncs))
    name, src = d.source("flat", 1, np.int32)
    cubin, _ = compile_cubin(src, arch=ARCH, options=FAST, name=name)
    assert cubin[:4] == b"\x7fELF"
    _assert_stacks_sized(cubin, [name])


def test_fused_complex_preambles_compile(compile_cubin):
    """Complex special functions fused with a real one, as fusion emits them: the Faddeeva and
    Lambert W headers (cmath.cuh twice, guarded) with erf's real header, on complex<double>."""
    import importlib

    c16, i8 = np.dtype("D"), np.dtype("l")
    lw = importlib.import_module("cuarray.scipy.special._lambertw")._lambertw  # the ufunc behind lambertw
    _compile_fused(compile_cubin, "cuarray_fused_special_complex_test",
                   [("in0", "in", c16), ("in1", "in", i8), ("out0", "out", c16)],
                   "out0 = cuarray_special::wofz(in0) + cuarray_special::erf_c(in0)"
                   " + cuarray_special::lambertw(in0, (long long)in1, 1e-8) + cuarray_special::psi_c(in0)"
                   " + cuarray_special::exp1_c(in0) + cuarray_special::gamma_c(in0)",
                   [cs.wofz, cs.erf, lw, cs.psi, cs.exp1, cs.gamma])


# The float64 kernels whose first call compiled for minutes (bdtr: 104 s on this machine, past the
# GPU run's 120 s test limit) while betaln, beta, incbet, betaincinv and the incomplete gamma's
# inverse were inlined into every one of the kernel's unrolled elements; as out-of-line functions
# each kernel compiles in 1-3 s. A limit 10x above that catches the inlining coming back.
@pytest.mark.parametrize("name", ["betainc", "betaincinv", "bdtr", "bdtri", "fdtr", "stdtrit", "beta", "binom",
                                  "gammaincinv", "pdtri"])
def test_first_call_compiles_in_seconds(name, compile_cubin):
    uf = getattr(cs, name)
    _first_call_compiles_in_seconds(uf, next(s for s in uf.types if "d" in s.split("->")[0]), compile_cubin)


# The complex loops with the most code (psi's out-of-line digamma: 2-3 s here; the others 1-2 s; hyp2f1's,
# 11-14 s of CPU, in test_complex_hyp2f1_kernel_knows_its_stack below).
@pytest.mark.parametrize("name", ["psi", "exp1", "expi", "sici", "shichi", "loggamma", "hyp1f1"])
def test_first_call_of_complex_loops_compiles_in_seconds(name, compile_cubin):
    uf = getattr(cs, name)
    _first_call_compiles_in_seconds(uf, next(s for s in uf.types if "D" in s.split("->")[0]), compile_cubin)


def _first_call_compiles_in_seconds(uf, sig, compile_cubin):
    import time

    name = uf.__name__
    loop = uf._resolve(tuple(np.dtype(c) for c in sig.split("->")[0]), None, "same_kind")
    d = uf._definition(loop, loop.in_dtypes, loop.out_dtypes, False)
    kname, src = d.source("flat", 1, np.int32)
    # CPU time of this process (NVRTC compiles in it), not wall time: on a shared machine's busy cores
    # wall time doubled (hyp2f1's complex loop: 14 s of CPU, 32-37 s wall at a load of 10 on 2 cores)
    start = time.process_time()
    cubin, _ = compile_cubin(src, arch=ARCH, options=d.options, name=kname)
    took = time.process_time() - start
    _assert_stacks_sized(cubin, [kname])  # (with the loop's own options, as its first call compiles)
    assert took < 30, "{} took {:.0f} s to compile".format(name, took)
    return _stack_sizes(cubin)[kname]


def test_complex_hyp2f1_kernel_knows_its_stack(compile_cubin):
    """Complex hyp2f1's kernel faulted on the H100 (CUDA_ERROR_ILLEGAL_ADDRESS) in every region that
    ran a Maclaurin series: beta called itself through beta_negint, so ptxas could not size the
    kernel's stack, and the driver gave each thread CU_LIMIT_STACK_SIZE (1 KiB), under the kernel's
    1192-byte frame. Its stack is sized now, and its frame (series generators passed by value: 360
    bytes) is under that 1 KiB too. Compiled with the loop's own options, as its first call is (the
    batch above, compiled for speed, has smaller frames); 12 s."""
    frame, stack = _first_call_compiles_in_seconds(cs.hyp2f1, "dddD->D", compile_cubin)
    assert stack is not None and frame < 1024, (frame, stack)
