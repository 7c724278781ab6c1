"""The bench's EM step (shapes-em, issue 32) split into host time and GPU time, per library, in
alternating rounds in one process. A spin kernel holds the legacy default stream (where cuarray,
CuPy and PyTorch launch by default) while a library enqueues `--steps` steps: the host time is the
enqueue time, and the events around the queued steps give the GPU time without host gaps.

    python scripts/perf/em_step.py [--steps 20] [--rounds 8]

About 10 s on an H100.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _peers import gpu_peers  # noqa: E402
from _timing import _spin  # noqa: E402

import cuarray  # noqa: E402
from cuarray.bench.cases.shapes import _em_step  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=8)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    host = [rng.random(s) for s in ((400_000, 2), (2,), (2, 2), (2, 2))]  # X, w, mu, var
    libs = {"cuarray": (cuarray, [cuarray.asarray(h) for h in host])}
    for name, (mod, _) in gpu_peers().items():
        libs[name] = (mod, [mod.as_tensor(h, device="cuda") if name == "torch" else mod.asarray(h) for h in host])
    for name, (mod, a) in libs.items():
        for _ in range(20):
            _em_step(mod, *a, name == "torch")
    cuarray.cuda.Device().synchronize()
    spin = _spin(cuarray.cuda)
    res = {name: ([], []) for name in libs}
    for _ in range(args.rounds):
        for name, (mod, a) in libs.items():
            start, end = cuarray.cuda.Event(), cuarray.cuda.Event()
            spin((1,), (1,), (np.int64(2e8),))  # ~0.1 s at 1.98 GHz: longer than the enqueue
            start.record()
            t = time.perf_counter()
            for _ in range(args.steps):
                _em_step(mod, *a, name == "torch")
            res[name][0].append((time.perf_counter() - t) / args.steps * 1e6)
            end.record()
            end.synchronize()
            res[name][1].append(cuarray.cuda.get_elapsed_time(start, end) * 1e3 / args.steps)
    for name, (h, g) in res.items():
        print("{:8s} host {:6.0f} µs a step (min {:4.0f})   GPU {:6.0f} µs a step".format(
            name, statistics.median(h), min(h), statistics.median(g)))


if __name__ == "__main__":
    main()
