"""linspace's and logspace's kernels compile for sm_90 with NVRTC (no GPU): every calc dtype with
each mode (step, scaled, nodiv), array arguments or scalars, an integer output's floor; the complex
ones take NumPy's complex product with the step (R::cmul_re/cmul_im in templates/ranges.cuh)."""

import numpy
import pytest

from cuarray._creation import ranges
from cuarray.cuda import compiler


@pytest.mark.parametrize("calc", "efdFD")
def test_linspace_kernels_compile_for_sm90(calc):
    calc = numpy.dtype(calc)
    outs = [calc, numpy.dtype(numpy.float64)] + ([numpy.dtype(numpy.int64)] if calc.kind == "f" else [])
    names, src = [], []
    for out in outs:
        for mode in ("step", "scaled", "nodiv"):
            for arrays in (False, True):
                d = ranges._linspace_def(calc, out, mode, out.kind == "i", arrays)
                name, s = d.source("flat", 1, numpy.int32)
                names.append(name)
                src.append(s)
    for name, s in zip(names, src):
        cubin, mapping = compiler.compile_cubin(s, arch="sm_90", name_expressions=[name])
        assert cubin and set(mapping) == {name}


def test_complex_linspace_takes_numpys_complex_product():
    d = ranges._linspace_def(numpy.dtype("D"), numpy.dtype("D"), "scaled", False, False)
    _, src = d.source("flat", 1, numpy.int32)
    assert "R::cmul_re(R::mul(lin_t, R::div((double)1, (double)div)), val.real(), val.imag())" in src
    assert "R::cmul_im(" in src and "val.real() * " not in src


@pytest.mark.parametrize("res, out", [("f", "D"), ("d", "D"), ("e", "e"), ("f", "f"), ("d", "q")])
def test_logspace_power_computes_in_numpys_result_type(res, out):
    """NumPy's power(10.0, y) of a float32 y is float32's (a Python base is weak): the kernel
    computes in float for a float32 or float16 result, even into a complex128 output (the H100's
    fuzzer: logspace(float32(-3), 1, dtype=complex128) gave 1e-3 where NumPy gives 1.00000005e-3)."""
    d = ranges._pow_def(numpy.dtype(res), numpy.dtype(res), numpy.dtype(out), res == "d")
    assert d.params[0].dtype.char == ("d" if res == "d" else "f")
    name, src = d.source("flat", 1, numpy.int32)
    cubin, mapping = compiler.compile_cubin(src, arch="sm_90", name_expressions=[name])
    assert cubin and set(mapping) == {name}
