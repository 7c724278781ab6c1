"""The cold-start-libs rows by phase, cuarray (plain and with the library preload) vs CuPy vs PyTorch,
in fresh processes (run on the GPU machine; issue 51, docs/perf-notes.md "First call into a math
library").

1. Per family and variant, the median of --runs fresh processes (warm kernel cache) of the bench
   child's own clock (`cuarray.bench.cases.first_use`): upload (context + upload) and call, ms.
   Variants: cuarray; cuarray with CUARRAY_PREFETCH_LIBS=<the family's libraries> and =all
   (cuda/libs/_preload.py: dlopen without the GIL at the first device use); cupy; torch.
2. Which CUDA math libraries each library has mapped right after its import (/proc/self/maps):
   what the peers load inside `import`, where the bench does not time it.
3. The dlopen of each math library alone in a fresh process after the context (ms, median).

    python scripts/perf/first_call_phases.py [--runs 5] [--families first-fft,first-random]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from cuarray.bench.cases.first_use import FAMILIES, child_env, child_source  # noqa: E402

LIBS_OF = {"first-matmul": "cublasLt,cublas", "first-solve": "cusolver", "first-fft": "cufft",
           "first-random": "", "first-sort": "", "first-spmv": "cusparse"}
MATH = ("cublasLt", "cublas", "cufft", "curand", "cusolver", "cusparse", "nvJitLink")

MAPS = r"""
import json, sys
import {lib}
maps = open('/proc/self/maps').read()
print(json.dumps(sorted({{m for m in {math!r} if 'lib' + m + '.so' in maps}})))
"""

DLOPEN = r"""
import json, time, cuarray
cuarray.cuda.Device().synchronize()
from cuda.pathfinder import load_nvidia_dynamic_lib
t = time.perf_counter(); load_nvidia_dynamic_lib({name!r}); print(json.dumps(time.perf_counter() - t))
"""


def _child(code: str, env: dict) -> dict:
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=600)
    if proc.returncode != 0:
        raise RuntimeError((proc.stderr.strip().splitlines() or ["exit {}".format(proc.returncode)])[-1])
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _variants(fam: str):
    yield "cuarray", "cuarray", {}
    if LIBS_OF[fam]:
        yield "+preload(own)", "cuarray", {"CUARRAY_PREFETCH_LIBS": LIBS_OF[fam]}
    yield "+preload(all)", "cuarray", {"CUARRAY_PREFETCH_LIBS": "all"}
    yield "cupy", "cupy", {}
    yield "torch", "torch", {}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--families", default=",".join(FAMILIES))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="first-call-phases-") as cache:
        print("1. upload / call / total ms, median of {} fresh processes (warm kernel cache)".format(args.runs))
        for fam in args.families.split(","):
            for label, lib, extra in _variants(fam):
                env = dict(child_env(lib, cache), **extra)
                src = child_source(lib, fam)
                try:
                    _child(src, env)  # warm this library's kernel cache
                    outs = [_child(src, env) for _ in range(args.runs)]
                except Exception as exc:  # a peer not installed
                    print("  {:<13} {:<14} n/a ({})".format(fam, label, str(exc)[:70]))
                    continue
                med = {k: 1e3 * statistics.median(o[k] for o in outs) for k in ("upload_s", "call_s", "first_call_s")}
                spread = [round(1e3 * o["first_call_s"]) for o in outs]
                print("  {:<13} {:<14} upload {upload_s:7.1f}  call {call_s:7.1f}  total {first_call_s:7.1f}  "
                      "(totals {})".format(fam, label, spread, **med))
        print("\n2. math libraries mapped right after import")
        for lib in ("cuarray", "cupy", "torch"):
            try:
                print("  {:<8} {}".format(lib, _child(MAPS.format(lib=lib, math=MATH), child_env(lib, cache))))
            except Exception as exc:
                print("  {:<8} n/a ({})".format(lib, str(exc)[:70]))
        print("\n3. dlopen alone after the context (cuda.pathfinder, GIL held), ms, median of {}".format(args.runs))
        for name in MATH:
            try:
                vals = [_child(DLOPEN.format(name=name), child_env("cuarray", cache)) for _ in range(args.runs)]
                print("  {:<10} {:7.1f}".format(name, 1e3 * statistics.median(vals)))
            except Exception as exc:
                print("  {:<10} n/a ({})".format(name, str(exc)[:70]))


if __name__ == "__main__":
    main()
