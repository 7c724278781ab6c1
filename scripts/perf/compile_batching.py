"""NVRTC cost of one elementwise kernel against a module holding several (CPU only: sm_90 cubins,
no device). Answers "would compiling every layout, or every dtype loop, of an operation in one
module on its first use pay?" for issue 35's "compile less on varied data".

    python scripts/perf/compile_batching.py

Prints milliseconds per NVRTC call (median of 3) and per kernel in it.
"""

from __future__ import annotations

import statistics
import time

import numpy

from cuarray._core.elementwise import Definition, KernelParam
from cuarray.cuda import compiler

LAYOUTS = [("flat", 1), ("vec", 1), ("nd", 1), ("nd", 2), ("nd", 3), ("nd", 4)]
DTYPES = ["b", "h", "i", "l", "B", "H", "I", "L", "f", "d"]
OPS = {"add": "out0 = in0 + in1", "sin": "out0 = sin(in0)", "power": "out0 = cuarray::power(in0, in1)"}


def definition(op, ch, salt):
    dt = numpy.dtype(ch)
    nin = 1 if op == "sin" else 2
    ct = numpy.dtype("d") if op == "sin" and dt.kind in "iu" else dt
    params = [KernelParam("in{}".format(i), "in", dt, ct) for i in range(nin)]
    params.append(KernelParam("out0", "out", ct))
    return Definition("cuarray_{}_{}_{}".format(op, dt.name, salt), params, OPS[op], options=("-fmad=false",))


def timed(sources):
    times = []
    for _ in range(3):  # compile_cubin has no cache: every call runs NVRTC
        t = time.perf_counter()
        compiler.compile_cubin("\n".join(sources), arch="sm_90", options=("-fmad=false",))
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1e3


def main():
    print("{:<8} {:<34} {:>8} {:>10} {:>12}".format("op", "module", "kernels", "ms/call", "ms/kernel"))
    for op in OPS:
        cases = {
            "one kernel (flat, float64)": [definition(op, "d", "x").source("flat", 1, numpy.int32)[1]],
            "6 layouts of float64": [definition(op, "d", "x").source(l, n, numpy.int32)[1] for l, n in LAYOUTS],
            "10 dtype loops, flat": [definition(op, c, "x").source("flat", 1, numpy.int32)[1] for c in DTYPES],
            "10 dtype loops x 6 layouts": [definition(op, c, "x").source(l, n, numpy.int32)[1]
                                           for c in DTYPES for l, n in LAYOUTS],
        }
        for label, srcs in cases.items():
            ms = timed(srcs)
            print("{:<8} {:<34} {:>8} {:>10.1f} {:>12.1f}".format(op, label, len(srcs), ms, ms / len(srcs)))


if __name__ == "__main__":
    main()
