"""Do a loop body's fused kernels compile once per machine, and load in < 1 ms each from a warm
cache? (issue 17; run on the GPU machine: `python3 scripts/perf/fused_cache_load.py`)

Two fresh processes share one empty kernel-cache directory. Each runs the seed gradient and the
six-op chain under `lazy()` for a few iterations. Every `compiler.compile_module` call is timed,
split into disk-cache hit or NVRTC compile (the first process), and module load into the context.
Printed per process: how many fused kernels it made, how many it compiled, and the median and
worst time per fused kernel from asking for it to having it loaded.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

_CHILD = r"""
import json, time
import cuarray as cp
from cuarray.cuda import compiler, _kernel_cache

rows = []
_load = _kernel_cache.load
_module = compiler.compile_module
state = {"hit": None}

def load(key):
    hit = _load(key)
    state["hit"] = hit is not None
    return hit

def compile_module(source, **kw):
    n = len(compiler._modules)
    state["hit"] = None
    t = time.perf_counter()
    mod = _module(source, **kw)
    dt = time.perf_counter() - t
    if len(compiler._modules) > n:  # not in this process's memory yet: read from disk or compiled
        rows.append({"name": kw.get("name") or "", "ms": dt * 1e3, "disk_hit": state["hit"]})
    return mod

_kernel_cache.load = load
compiler.compile_module = compile_module  # the engines call it through the module

rng = cp.random.default_rng(1)
X = rng.random((1024, 784), dtype="float32"); h = rng.random((1024, 512), dtype="float32")
x = rng.random((1024, 10), dtype="float32"); z = rng.random((1024, 10), dtype="float32")
W = rng.random((10, 512), dtype="float32"); v = rng.random(1 << 20, dtype="float32")
cp.cuda.Device().synchronize()
rows.clear()
for _ in range(3):
    with cp.lazy():
        delta_o = -(x - z)
        delta_h = cp.dot(delta_o, W) * h * (1.0 - h)
        g = cp.dot(X.T, delta_h)
        c = 1 / (1 + cp.exp(-(2 * v - 1))) * v + 0.5
    float(g[0, 0]); float(c[0])
print(json.dumps(rows))
"""


def main():
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, CUARRAY_CACHE_DIR=cache)
        for label in ("first process (empty cache)", "second process (warm cache)"):
            out = subprocess.run([sys.executable, "-c", _CHILD], env=env, capture_output=True, text=True)
            if out.returncode:
                print(label, "failed:\n", out.stderr[-3000:])
                return 1
            rows = json.loads(out.stdout.strip().splitlines()[-1])
            fused = [r for r in rows if "fused" in r["name"]]
            ms = sorted(r["ms"] for r in fused)
            compiled = sum(1 for r in fused if r["disk_hit"] is False)
            print("{}: {} kernels loaded, {} fused, {} fused compiled with NVRTC; per fused kernel "
                  "median {:.3f} ms, worst {:.3f} ms".format(
                      label, len(rows), len(fused), compiled, ms[len(ms) // 2] if ms else float("nan"),
                      ms[-1] if ms else float("nan")))
            for r in fused:
                print("   {:8.3f} ms  disk hit {!s:5}  {}".format(r["ms"], r["disk_hit"], r["name"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
