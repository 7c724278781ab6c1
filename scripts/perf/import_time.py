"""Median import time of numpy and then cuarray in fresh processes, for trees given as paths (default: .base then . twice): python scripts/perf/import_time.py [TREE ...]"""
import subprocess, sys, statistics, os
def t(path):
    code = "import time; t=time.perf_counter(); import numpy; t1=time.perf_counter(); import cuarray; print(t1-t, time.perf_counter()-t1)"
    env = dict(os.environ, PYTHONPATH=path + ":/tmp/site")
    xs = [tuple(map(float, subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd="/tmp").stdout.split())) for _ in range(7)]
    return statistics.median(x[0] for x in xs), statistics.median(x[1] for x in xs)
for p in (sys.argv[1:] or [".base", ".", ".base", "."]):
    print(p, "numpy %.3f cuarray %.3f" % t(os.path.abspath(p)))
