"""Host time and Python calls per `cuarray.convolve`/`correlate` call on the fake device (issue 52's
`convolve[k=15]` row: convolve(x, w, 'same') of 2^22 float32 by 15 taps, ~11 us of kernel on the
H100, where the host's path was what PyTorch's conv1d beat). Rows: the bench call and its
neighbours (correlate, float64 'full', a complex correlate on the per-output kernel, an int
convolve). Each row: us per call (the minimum over rounds of a timed loop, `time.thread_time`: this
thread's CPU, less another process's load) and the Python calls a call makes (`_calls.count_calls`:
steady where the us move on a shared machine), and the launches one call records.

`--root DIR` imports cuarray from another tree (`git archive <commit> cuarray | tar -x -C DIR`,
the C cores copied beside it); `--compare DIR` runs DIR and this tree alternately in fresh
processes, `--rounds` times each, and prints both minima and calls per row.

    python scripts/perf/convolve_host.py --compare /tmp/base [--rounds 5]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def cases():
    import numpy as np

    import cuarray as cp

    x = cp.empty((2 ** 22,), np.float32)
    w = cp.empty((15,), np.float32)
    x8, w8 = cp.empty((2 ** 20,), np.float64), cp.empty((31,), np.float64)
    xc, wc = cp.empty((2 ** 16,), np.complex64), cp.empty((7,), np.complex64)
    xi, wi = cp.empty((4096,), np.int32), cp.empty((5,), np.int32)
    return {
        "convolve f4 2^22 k=15 same": lambda: cp.convolve(x, w, "same"),
        "correlate f4 2^22 k=15 same": lambda: cp.correlate(x, w, "same"),
        "convolve f8 2^20 k=31 full": lambda: cp.convolve(x8, w8),
        "convolve f4 w first (swap)": lambda: cp.convolve(w, x, "valid"),
        "correlate c8 2^16 k=7": lambda: cp.correlate(xc, wc, "same"),
        "convolve i4 4096 k=5": lambda: cp.convolve(xi, wi, "same"),
    }


def measure(root: str, n: int, rounds: int) -> dict:
    sys.path.insert(0, root)
    sys.path.insert(0, HERE)
    from _calls import count_calls
    from cuarray.testing.fake_device import install, recording

    install()
    out = {}
    for name, f in cases().items():
        for _ in range(200):
            f()  # warm: kernels compiled (placeholders), memos filled
        best = float("inf")
        for _ in range(rounds):
            t = time.thread_time()
            for _ in range(n):
                f()
            best = min(best, (time.thread_time() - t) / n * 1e6)
        calls = count_calls(f)
        with recording() as launches:
            f()
        out[name] = (best, calls, len(launches))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", help="import cuarray from this directory")
    ap.add_argument("--compare", help="a baseline tree: run it and this one alternately")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("-n", type=int, default=5000)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    here = os.path.abspath(os.path.join(HERE, "..", ".."))
    if args.compare:
        runs = {"base": [], "this": []}
        for _ in range(args.rounds):
            for tag, root in (("base", os.path.abspath(args.compare)), ("this", here)):
                r = subprocess.run([sys.executable, __file__, "--root", root, "-n", str(args.n), "--rounds", "3",
                                    "--json"], check=True, capture_output=True, text=True)
                runs[tag].append(json.loads(r.stdout.strip().splitlines()[-1]))
        print("{:30s} {:>8s} {:>8s} {:>6s}  {:>6s} {:>6s}  {:>8s}".format(
            "case (us: min of rounds)", "base us", "this us", "diff", "base", "this", "launches"))
        for name in runs["this"][0]:
            b = min(r[name][0] for r in runs["base"])
            t = min(r[name][0] for r in runs["this"])
            (_, cb, lb), (_, ct, lt) = runs["base"][0][name], runs["this"][0][name]
            print("{:30s} {:8.2f} {:8.2f} {:+5.0f}%  {:6d} {:6d}  {:>4d} {:>3d}".format(
                name, b, t, 100 * (t - b) / b, cb, ct, lb, lt))
        return
    res = measure(os.path.abspath(args.root) if args.root else here, args.n, args.rounds)
    if args.json:
        print(json.dumps(res))
    else:
        for name, (us, calls, launches) in res.items():
            print("{:30s} {:7.2f} us {:5d} calls {:2d} launches".format(name, us, calls, launches))


if __name__ == "__main__":
    main()
