"""The fuzzer against cuarray's complex math without a GPU: complex_math.cuh, the functions cuarray's
complex ufunc kernels call (`out0 = atan(in0)` and so on: cuarray/_math), built for the host with
g++ (__device__ empty, as tests/_math/test_complex_math_host_cpu.py builds it) and put where NumPy's
complex loops are; every other input stays NumPy's. Over the catalog's unary rows of these
functions, with the generators' special values (huge and subnormal parts, C99's special pairs),
it must report nothing beyond the differences docs/differences.md lists. The host's libm differs
from CUDA's in the last bits only, within the rows' tolerances."""

from __future__ import annotations

import ctypes
import pathlib

import numpy as np
import pytest

import cuarray._core as core
import fuzz_allowances as fa
import fuzz_catalog as fc
import fuzzlib
import host_build

# NumPy's name -> the C function cuarray's kernel calls on a complex element
FUNCTIONS = {"exp": "exp", "exp2": "exp2", "expm1": "expm1", "log": "log", "log2": "log2", "log10": "log10",
             "log1p": "log1p", "sqrt": "sqrt", "sin": "sin", "cos": "cos", "tan": "tan", "arcsin": "asin",
             "arccos": "acos", "arctan": "atan", "sinh": "sinh", "cosh": "cosh", "tanh": "tanh", "arcsinh": "asinh",
             "arccosh": "acosh", "arctanh": "atanh", "reciprocal": "reciprocal"}

_DRIVER = """#include <math.h>
#include <cmath>
#include <cfloat>
#define __device__
#define __host__
#define __forceinline__ inline
#include "cuarray/complex.cuh"
#include "cuarray/complex_math.cuh"
using cuarray::complex;
#define UNARY(NAME, T, F) extern "C" void NAME(const T* z, T* out, long n) { \\
  for (long i = 0; i < n; ++i) { complex<T> r = cuarray::F(complex<T>(z[2*i], z[2*i+1])); \\
    out[2*i] = r.re; out[2*i+1] = r.im; } }
#define BOTH(F) UNARY(F##_d, double, F) UNARY(F##_f, float, F)
"""


@pytest.fixture(scope="module")
def lib():
    source = _DRIVER + "".join("BOTH({})\n".format(c) for c in sorted(set(FUNCTIONS.values())))
    templates = pathlib.Path(core.__file__).parent / "templates"
    return host_build.library_of(source, ["-O1", "-std=c++17", "-ffp-contract=off", "-shared", "-fPIC", "-w",
                                          "-I", str(templates)])


class _HostComplex:
    """NumPy with its complex loops of FUNCTIONS answered by the host build."""

    __name__ = "cuarray complex_math.cuh (host build)"

    def __init__(self, lib):
        self._lib = lib

    def __getattr__(self, name):
        f = getattr(np, name)
        if name not in FUNCTIONS:
            return f
        c = FUNCTIONS[name]

        def call(x, *args, **kw):
            x = np.asarray(x)
            if x.dtype.kind != "c" or args or kw:
                return f(x, *args, **kw)
            real = np.float32 if x.dtype == np.complex64 else np.float64
            pair = np.ascontiguousarray(x).reshape(-1).view(real).copy()
            out = np.empty_like(pair)
            getattr(self._lib, c + ("_f" if real is np.float32 else "_d"))(
                pair.ctypes.data_as(ctypes.c_void_p), out.ctypes.data_as(ctypes.c_void_p), ctypes.c_long(x.size))
            return out.view(x.dtype).reshape(x.shape)

        return call


def _elements(row, m, side):
    """The first elements of a mismatch that differ: input, NumPy's value, the host build's."""
    args, _ = row.make(fuzzlib.case_rng(row.key, m.seed, m.index))
    z = np.asarray(args[0].host())
    with np.errstate(all="ignore"):
        e, g = np.asarray(getattr(np, row.name)(z)), np.asarray(getattr(side, row.name)(z))
    if e.shape != z.shape or g.shape != z.shape or e.dtype.kind != "c":
        return [m.what.splitlines()[0]]
    bad = fa._differs(e, g, fa._row_rtol(row, e.dtype))
    return ["{}({!r}) {}: NumPy {!r}, cuarray {!r}".format(row.name, complex(z.flat[i]), z.dtype, complex(e.flat[i]),
                                                           complex(g.flat[i])) for i in np.flatnonzero(bad)[:3]]


def test_complex_functions_against_numpy(lib):
    rows = [fc.BY_KEY["{}(a)".format(n)] for n in FUNCTIONS]
    side = _HostComplex(lib)
    st = fuzzlib.fuzz(rows, 1, fuzzlib.Side(np), fuzzlib.Side(side), calls=len(rows) * 100)
    lines = []
    for m in st.mismatches:
        lines += ["{} (seed {}, index {}): ".format(m.row, m.seed, m.index) + x
                  for x in _elements(fc.BY_KEY[m.row], m, side)]
    assert not st.mismatches, "{} mismatches:\n".format(len(st.mismatches)) + "\n".join(lines)
