"""docs/profiling.md's worked example: profile the seed logistic regression and print the table.

    python scripts/profile_logreg.py [--steps 200] [--trace PATH]
"""

from __future__ import annotations

import argparse

import numpy

import cuarray as np


def train(x, y, w, steps):
    N = x.shape[0]
    b = 0.0
    for _ in range(steps):
        p_1 = 1 / (1 + np.exp(-np.dot(x, w) - b))
        prediction = p_1 > 0.5  # noqa: F841 - the tutorial computes it every step
        xent = -y * np.log(p_1) - (1 - y) * np.log(1 - p_1)
        cost = xent.mean() + 0.01 * (w ** 2).sum()  # noqa: F841
        gw = np.dot(x.T, p_1 - y) / N + 0.02 * w
        gb = (p_1 - y).mean()
        w = w - 0.1 * gw
        b = b - 0.1 * gb
    return w, b


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--trace")
    args = ap.parse_args()
    rng = numpy.random.default_rng(7)
    x = np.asarray(rng.random((400, 784), dtype=numpy.float32))
    y = np.asarray((rng.random(400) > 0.5).astype(numpy.float32))
    w = np.asarray(rng.random(784, dtype=numpy.float32))
    train(x, y, w, 2)  # compile the kernels first: the table is then about steady state
    np.cuda.synchronize()
    with np.profile() as prof:
        w, b = train(x, y, w, args.steps)
        print("final b = {:.4f}".format(float(b)))
    print(prof.table(limit=20))
    print()
    print(prof.table(sort="host_time", limit=5))
    if args.trace:
        prof.export_chrome_trace(args.trace)


if __name__ == "__main__":
    main()
