"""The complex Bessel kernels (AMOS: templates/amos_*.cuh, cbessel.cuh; airy.cuh and csph_bessel.cuh
over them) compile with NVRTC for sm_90 (no GPU) with their loops' own options, in seconds, and ptxas
knows their stack size: AMOS's routines are out of line (CSF_NOINLINE) and call each other without a
cycle, so the driver gives each thread the frame it needs (a kernel whose stack size ptxas cannot
determine gets CU_LIMIT_STACK_SIZE, 1 KiB, whatever its frame: complex hyp2f1's 1192 bytes overran
it on the H100)."""

from __future__ import annotations

import time

import numpy as np
import pytest

from cuarray.scipy import special as cs
from cubin_info import MIN_STACK_SIZE, kernel_attributes  # tests/ is on sys.path

ARCH = "sm_90"


@pytest.fixture(scope="module")
def compile_cubin():
    compiler = pytest.importorskip("cuarray.cuda.compiler")
    try:
        compiler.compile_cubin('extern "C" __global__ void k() {}', arch=ARCH)
    except Exception as exc:  # no NVRTC on this machine
        pytest.skip("NVRTC unavailable: {}".format(exc))
    return compiler.compile_cubin


def kernel_stacks(cubin: bytes) -> dict:
    """{kernel: bytes of stack a thread needs} (tests/cubin_info.py); None where ptxas could not
    determine it (0xffffffff: a cycle in the call graph)."""
    return {k: (None if v[MIN_STACK_SIZE] == 0xFFFFFFFF else v[MIN_STACK_SIZE])
            for k, v in kernel_attributes(cubin).items() if MIN_STACK_SIZE in v}


def _first_call(uf, sig, compile_cubin):
    loop = uf._resolve(tuple(np.dtype(c) for c in sig.split("->")[0]), None, "same_kind")
    d = uf._definition(loop, loop.in_dtypes, loop.out_dtypes, False)
    kname, src = d.source("flat", 1, np.int32)
    start = time.process_time()
    cubin, _ = compile_cubin(src, arch=ARCH, options=d.options, name=kname)
    return kname, cubin, time.process_time() - start


@pytest.mark.parametrize("name", ["jv", "kve", "hankel2"])
def test_complex_bessel_kernel_knows_its_stack(name, compile_cubin):
    """The first call's kernel (the loop's own options): its stack size is determined and at most
    1216 bytes a thread (jv 1216, iv 1104, kve 976, hankel2 928 here; xsf's work arrays made jv's
    2912 as first ported: templates/amos_core.cuh says what was reduced, with values bit-identical).
    Compiles in 10-17 s of CPU here (each kernel holds nearly all of AMOS: its drivers reach the
    series, Miller, the uniform expansions and the continuation through one another)."""
    kname, cubin, took = _first_call(getattr(cs, name), "dD->D", compile_cubin)
    stacks = kernel_stacks(cubin)
    assert kname in stacks and stacks[kname] is not None, stacks
    assert stacks[kname] <= 1232, stacks
    assert took < 60, "{} took {:.0f} s of CPU to compile".format(kname, took)


def test_complex64_loop_compiles(compile_cubin):
    kname, cubin, _ = _first_call(cs.iv, "fF->F", compile_cubin)
    assert kernel_stacks(cubin).get(kname) is not None


@pytest.mark.parametrize("module,name,sig", [("_airy", "airy", "d->dddd"), ("_bessel", "_spherical_jn", "lD->D")])
def test_airy_and_complex_spherical_kernels_know_their_stacks(module, name, sig, compile_cubin):
    """The kernels over AMOS added beside the Bessel functions (templates/airy.cuh: real airy reaches
    AMOS beyond |x| = 10; templates/csph_bessel.cuh, whose reflection on the negative real axis calls
    the unreflected part, not itself): the first call's kernel has a sized stack (airy 1056 bytes,
    _spherical_jn 1264 here) and compiles in 12-17 s of CPU."""
    import importlib

    uf = getattr(importlib.import_module("cuarray.scipy.special." + module), name)
    kname, cubin, took = _first_call(uf, sig, compile_cubin)
    stacks = kernel_stacks(cubin)
    assert kname in stacks and stacks[kname] is not None, stacks
    assert stacks[kname] <= 1400, stacks
    assert took < 60, "{} took {:.0f} s of CPU to compile".format(kname, took)


@pytest.mark.parametrize("sig", ["ddd->d", "fff->f"])
def test_lpmv_kernel_compiles_in_a_second(sig, compile_cubin):
    """lpmv's series, log series and degree recurrence are out of line (CSF_NOINLINE): inlined,
    the three calls of the degree path, each with two of each series (psi twice in the log
    series), made a 650 KB cubin in 11 s of CPU here, and cupyx's TestLegendreFunctions timed
    out (> 60 s) in its first call's compile on the loaded GPU machine; now 0.8 s and 120 KB,
    with a sized stack (no cycle)."""
    kname, cubin, took = _first_call(cs.lpmv, sig, compile_cubin)
    stacks = kernel_stacks(cubin)
    assert kname in stacks and stacks[kname] is not None, stacks
    assert took < 4, "{} took {:.1f} s of CPU to compile".format(kname, took)
