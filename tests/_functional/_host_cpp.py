"""Run an elementwise Definition's operation on the host: the operation (C++ of the kernel's body)
and cuarray's device headers compiled by g++ with `__device__` defined away, over a few elements.
A CPU-only check of what generated code computes (not of the kernel skeleton). No float16."""

import math
import os
import shutil
import subprocess
import tempfile

import numpy

from cuarray._core.elementwise import compute_ctype

TEMPLATES = os.path.join(os.path.dirname(__file__), "..", "..", "cuarray", "_core", "templates")
HAVE_GXX = shutil.which("g++") is not None

_PRELUDE = r"""
#include <math.h>
#include <cmath>
#include <cstdio>
#define __device__
#define __host__
#define __forceinline__ inline
static inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
static inline float __int_as_float(int i) { float f; __builtin_memcpy(&f, &i, 4); return f; }
#include "cuarray/common.cuh"
#include "cuarray/ops.cuh"
"""


def _lit(v, dt):
    ct = compute_ctype(dt)
    if dt.kind == "b":
        return "true" if v else "false"
    if dt.kind == "i":
        return "({})({}LL)".format(ct, int(v)) if int(v) != -2**63 else "({})(-9223372036854775807LL - 1)".format(ct)
    if dt.kind == "u":
        return "({})({}ULL)".format(ct, int(v))
    if dt.kind == "f":
        f = float(v)
        if math.isnan(f):
            return "({})NAN".format(ct)
        if math.isinf(f):
            return "({})({}INFINITY)".format(ct, "-" if f < 0 else "")
        return "({})({})".format(ct, f.hex())
    c = complex(v)
    real = numpy.dtype("f4" if dt.char == "F" else "f8")
    return "{}({}, {})".format(ct, _lit(c.real, real), _lit(c.imag, real))


def _print(name, dt):
    if dt.kind == "b":
        return 'printf("%d ", (int){});'.format(name)
    if dt.kind == "i":
        return 'printf("%lld ", (long long){});'.format(name)
    if dt.kind == "u":
        return 'printf("%llu ", (unsigned long long){});'.format(name)
    if dt.kind == "f":
        return 'printf("%a ", (double){});'.format(name)
    return 'printf("%a %a ", (double){n}.real(), (double){n}.imag());'.format(n=name)


def run(definition, consts, inputs):
    """Outputs (NumPy arrays of the out params' computed dtypes) of `definition` over 1-d `inputs`
    (NumPy arrays, one per 'in' param, same length); `consts`: the tracer's (name, dtype, value)."""
    params = definition.params
    ins = [p for p in params if p.kind == "in"]
    outs = [p for p in params if p.kind == "out"]
    n = len(inputs[0])
    src = [_PRELUDE, "int main() {"]
    for p, a in zip(ins, inputs):
        src.append("  static const {} {}_data[{}] = {{{}}};".format(
            compute_ctype(p.compute), p.name, n, ", ".join(_lit(x, p.compute) for x in a)))
    for name, dt, v in consts:
        src.append("  const {} {} = {};".format(compute_ctype(dt), name, _lit(v, dt)))
    src.append("  for (int i = 0; i < {}; ++i) {{".format(n))
    for p in ins:
        src.append("    const {} {} = {}_data[i];".format(compute_ctype(p.compute), p.name, p.name))
    for p in outs:
        src.append("    {} {}{{}};".format(compute_ctype(p.compute), p.name))
    src.append("    " + definition.operation + ";")
    src += ["    " + _print(p.name, p.compute) for p in outs]
    src += ['    printf("\\n");', "  }", "  return 0;", "}"]
    with tempfile.TemporaryDirectory() as d:
        cpp, exe = os.path.join(d, "t.cpp"), os.path.join(d, "t")
        with open(cpp, "w") as f:
            f.write("\n".join(src))
        subprocess.run(["g++", "-std=c++17", "-O0", "-fpermissive", "-w", "-I", TEMPLATES, cpp, "-o", exe],
                       check=True, capture_output=True, text=True)
        lines = subprocess.run([exe], check=True, capture_output=True, text=True).stdout.splitlines()
    cols = [[] for _ in outs]
    for line in lines:
        tok = line.split()
        k = 0
        for j, p in enumerate(outs):
            if p.compute.kind == "c":
                cols[j].append(complex(float.fromhex(tok[k]), float.fromhex(tok[k + 1])))
                k += 2
            else:
                t = tok[k]
                cols[j].append(float.fromhex(t) if p.compute.kind == "f" else int(t))
                k += 1
    return [numpy.array(c).astype(p.compute) for c, p in zip(cols, outs)]
