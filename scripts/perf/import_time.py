"""`import cuarray` in fresh processes, several trees interleaved (before/after on one machine).

Each child imports NumPy, then cuarray, and reports both times (wall and the process's CPU time:
the CPU time is steadier on a shared box; OpenBLAS is held to one thread so that its idle workers
do not count). `--compile` first writes every tree's bytecode (as `pip install` does); without it a
tree with no __pycache__ (or PYTHONDONTWRITEBYTECODE=1) compiles each module it imports, every run.

    python scripts/perf/import_time.py --roots /path/to/base,. -n 10 [--compile]
"""

import argparse
import compileall
import json
import os
import statistics
import subprocess
import sys

_CHILD = """import time, json
c0, w0 = time.process_time(), time.perf_counter()
import numpy
c1, w1 = time.process_time(), time.perf_counter()
import cuarray
c2, w2 = time.process_time(), time.perf_counter()
assert cuarray.__file__.startswith({root!r}), cuarray.__file__
print(json.dumps([w1 - w0, w2 - w1, c2 - c1]))
"""

ap = argparse.ArgumentParser()
ap.add_argument("--roots", default=".", help="comma-separated trees holding a cuarray/ package")
ap.add_argument("-n", type=int, default=10)
ap.add_argument("--compile", action="store_true", help="compile every tree's bytecode first")
args = ap.parse_args()
roots = [os.path.abspath(r) for r in args.roots.split(",")]
if args.compile:
    for r in roots:
        compileall.compile_dir(os.path.join(r, "cuarray"), quiet=1)
runs = {r: [] for r in roots}
for _ in range(args.n):
    for r in roots:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([r] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]),
                   OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
        out = subprocess.run([sys.executable, "-c", _CHILD.format(root=r)], env=env, capture_output=True,
                             text=True, check=True, cwd="/")
        runs[r].append(json.loads(out.stdout.strip().splitlines()[-1]))
print("bytecode: {}; PYTHONDONTWRITEBYTECODE={!r}; {} runs each, median [min]".format(
    "compiled first" if args.compile else "as found", os.environ.get("PYTHONDONTWRITEBYTECODE"), args.n))
for r, rows in runs.items():
    np_w, ca_w, ca_c = (sorted(c) for c in zip(*rows))
    print("{}: import numpy {:.0f} ms; import cuarray after it {:.0f} [{:.0f}] ms wall, {:.0f} [{:.0f}] ms CPU".format(
        r, statistics.median(np_w) * 1e3, statistics.median(ca_w) * 1e3, ca_w[0] * 1e3,
        statistics.median(ca_c) * 1e3, ca_c[0] * 1e3))
