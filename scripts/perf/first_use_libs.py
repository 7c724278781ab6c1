"""First use of each library family in fresh processes: cuarray vs CuPy vs PyTorch, and where
cuarray's time goes (run on the GPU machine; docs/perf-notes.md "First call into a math library").

Prints three tables:
1. per family (matmul, solve, fft, random, sort, spmv) and library, the median over --runs fresh
   processes (warm kernel cache) of upload + first call, and of the call alone; cuarray also with
   `cuarray.cuda.libs.prefetch()` called right after `import cuarray` (what starting nvmath's import
   at the first device use would give: the decision in perf-notes);
2. cuarray's first matmul / solve / fft / spmv split into stages (context, nvmath's package import,
   handle, plan or heuristic, first call, a second call);
3. nvmath's import alone: the libraries' dlopen through cuda.pathfinder, then the Python import, and
   the top entries of ``python -X importtime``.

    python scripts/perf/first_use_libs.py [--runs 5] [--families first-matmul,first-fft]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from cuarray.bench.cases.first_use import FAMILIES, child_env, run_child  # noqa: E402

# first-add: no library at all; shows what the prefetch thread costs a program that uses none.
ALL = FAMILIES + ("first-add",)

PREFETCH = "import cuarray.cuda.libs._handles as _h; _h.prefetch()"

STAGES = r"""
import json, time, numpy
pc = time.perf_counter
rng = numpy.random.default_rng(0)
T = {}
import cuarray as xp
sync = xp.cuda.Device().synchronize
t = pc(); a = xp.asarray(rng.random((64, 64), dtype=numpy.float32) + 0.5); sync(); T["context + upload"] = pc() - t
t = pc(); import nvmath; T["import nvmath (package __init__: subpackages, library preload)"] = pc() - t
t = pc(); import nvmath.bindings.cublasLt, nvmath.bindings.cublas; T["import nvmath.bindings.cublas(Lt)"] = pc() - t
from cuarray.cuda.libs import cublas, cusolver, cufft, cusparse
t = pc(); lth = cublas._lt_handle(0); T["cublasLtCreate"] = pc() - t
t = pc(); p = cublas._lt_plan(lth, "f", 68, 0, 0, 64, 64, 64, 64, 64, 64); T["first Lt heuristic (64^3 plan)"] = pc() - t
t = pc(); p2 = cublas._lt_plan(lth, "f", 68, 0, 0, 96, 96, 96, 96, 96, 96); T["second Lt heuristic (96^3)"] = pc() - t
t = pc(); p3 = cublas._lt_plan(lth, "f", 68, 0, 0, 100, 100, 100, 100, 100, 100); T["third Lt heuristic (100^3)"] = pc() - t
# What a shape-class cache would pay instead of a heuristic: checking a known algorithm on new layouts.
L = cublas.lt_bindings(); chk = L.MatmulHeuristicResult(1)
t = pc(); L.matmul_algo_check(lth, p3.desc, p3.la, p3.lb, p3.lc, p3.lc, p2.algo, chk.ptr); T["AlgoCheck of 96^3's algorithm on 100^3 (shape-class reuse)"] = pc() - t
t = pc(); z = a @ a; sync(); T["first a @ a (kernel load + launch + sync)"] = pc() - t
t = pc(); z = a @ a; sync(); T["second a @ a"] = pc() - t
t = pc(); h = cublas.handle(); T["cublasCreate + bind (classic path)"] = pc() - t
t = pc(); cusolver.handle(); T["cusolverDnCreate"] = pc() - t
A = xp.asarray(rng.random((64, 64)) + 64 * numpy.eye(64)); b = xp.asarray(rng.random(64)); sync()
t = pc(); x = xp.linalg.solve(A, b); sync(); T["first solve (64, float64)"] = pc() - t
t = pc(); x = xp.linalg.solve(A, b); sync(); T["second solve"] = pc() - t
c = xp.asarray((rng.random(4096) + 1j * rng.random(4096)).astype(numpy.complex64)); sync()
t = pc(); y = xp.fft.fft(c); sync(); T["first fft (plan + call)"] = pc() - t
t = pc(); y = xp.fft.fft(c); sync(); T["second fft"] = pc() - t
t = pc(); cusparse.handle(); T["cusparseCreate"] = pc() - t
m = xp.sparse.identity(4096, format="csr") * 2.0; v = xp.asarray(rng.random(4096)); sync()
t = pc(); w = m @ v; sync(); T["first spmv (descriptors + buffer size + call)"] = pc() - t
t = pc(); w = m @ v; sync(); T["second spmv"] = pc() - t
print(json.dumps(T))
"""

NVMATH = r"""
import json, time
pc = time.perf_counter
import numpy, cuda.core, cuda.bindings.driver
from cuda.pathfinder import load_nvidia_dynamic_lib
T = {}
for name in ("nvJitLink", "cublasLt", "cublas", "cufft", "curand", "cusparse", "cusolver"):
    t = pc()
    try:
        load_nvidia_dynamic_lib(name)
        T["dlopen " + name] = pc() - t
    except Exception as e:
        T["dlopen " + name + " FAILED " + type(e).__name__] = pc() - t
t = pc(); import nvmath.bindings.cublas; T["import nvmath.bindings.cublas (libraries already loaded)"] = pc() - t
print(json.dumps(T))
"""


def _median_child(code: str, runs: int, cache_dir: str) -> dict:
    outs = []
    for _ in range(runs):
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              env=child_env("cuarray", cache_dir), timeout=600)
        if proc.returncode != 0:
            return {"FAILED": (proc.stderr.strip().splitlines() or ["?"])[-1]}
        outs.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    return {k: statistics.median(o[k] for o in outs) for k in outs[0]}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--families", default=",".join(ALL))
    args = ap.parse_args()
    families = args.families.split(",")
    variants = [("cuarray", "cuarray", ""), ("cuarray+prefetch", "cuarray", PREFETCH), ("cupy", "cupy", ""),
                ("torch", "torch", "")]
    with tempfile.TemporaryDirectory(prefix="first-use-libs-") as cache:
        print("1. upload + first call / call alone, ms (median of {} fresh processes, warm kernel cache)".format(args.runs))
        print("| family | " + " | ".join(v[0] for v in variants) + " |")
        print("|---|" + "---|" * len(variants))
        for fam in families:
            cells = []
            for _, lib, prelude in variants:
                try:
                    run_child(lib, fam, cache, prelude)  # warm this library's kernel cache
                    outs = [run_child(lib, fam, cache, prelude) for _ in range(args.runs)]
                    first = statistics.median(o["first_call_s"] for o in outs)
                    call = statistics.median(o["call_s"] for o in outs)
                    cells.append("{:.1f} / {:.1f}".format(1e3 * first, 1e3 * call))
                except Exception as exc:  # a peer not installed, a family not supported
                    cells.append("n/a ({})".format(str(exc)[:60]))
            print("| {} | {} |".format(fam, " | ".join(cells)))
        print()
        print("2. cuarray's first use by stage, ms (median of {} processes)".format(args.runs))
        for k, v in _median_child(STAGES, args.runs, cache).items():
            print("  {:<62} {}".format(k, v if isinstance(v, str) else "{:8.1f}".format(1e3 * v)))
        print()
        print("3. nvmath's import: dlopen vs Python, ms (median of {} processes)".format(args.runs))
        for k, v in _median_child(NVMATH, args.runs, cache).items():
            print("  {:<62} {}".format(k, v if isinstance(v, str) else "{:8.1f}".format(1e3 * v)))
        proc = subprocess.run([sys.executable, "-X", "importtime", "-c",
                               "import numpy, cuda.core, cuarray; import nvmath.bindings.cublas"],
                              capture_output=True, text=True, env=child_env("cuarray", cache), timeout=600)
        rows = []
        for line in proc.stderr.splitlines():
            parts = line.split("|")
            if len(parts) == 3 and parts[1].strip().isdigit():
                rows.append((int(parts[1]), int(parts[0].split(":")[1]), parts[2].rstrip()))
        print("  -X importtime after numpy, cuda.core and cuarray (cumulative / self us, top 15):")
        for cum, self_us, name in sorted(rows, reverse=True)[:15]:
            print("  {:>9} {:>9} {}".format(cum, self_us, name))


if __name__ == "__main__":
    main()
