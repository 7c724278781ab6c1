"""Time the rejection samplers (poisson, binomial, gamma, standard_gamma float32) of the cuarray
found on PYTHONPATH, and save the first values of each for a bit-for-bit comparison between
trees (run once per tree, then `--compare A.npz B.npz`).

    PYTHONPATH=TREE python scripts/perf/random_dists.py --save OUT.npz [--n 100000000]
    python scripts/perf/random_dists.py --compare A.npz B.npz
"""

import argparse
import os
import sys

import numpy

CASES = {
    "poisson10": lambda g, n: g.poisson(10.0, size=n),
    "poisson3": lambda g, n: g.poisson(3.0, size=n),
    "poisson1e4": lambda g, n: g.poisson(1e4, size=n),
    "binomial100_0.3": lambda g, n: g.binomial(100, 0.3, size=n),
    "binomial1e6_0.5": lambda g, n: g.binomial(10**6, 0.5, size=n),
    "gamma2": lambda g, n: g.gamma(2.0, 1.0, size=n),
    "gamma0.5": lambda g, n: g.gamma(0.5, 3.0, size=n),
    "standard_gamma2_f32": lambda g, n: g.standard_gamma(2.0, size=n, dtype=numpy.float32),
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--save")
    ap.add_argument("--n", type=int, default=10**8)
    ap.add_argument("--compare", nargs=2)
    a = ap.parse_args()
    if a.compare:
        x, y = numpy.load(a.compare[0]), numpy.load(a.compare[1])
        for k in x.files:
            diff = int(numpy.count_nonzero(x[k] != y[k]))
            print("{:22s} {} of {} values differ".format(k, diff, x[k].size))
        return
    sys.path.insert(0, os.path.dirname(__file__))
    import cuarray
    from _timing import event_us

    saved = {}
    for name, f in CASES.items():
        g = cuarray.random.default_rng(1234)
        saved[name] = f(g, 10**6).get()
        g = cuarray.random.default_rng(1)
        print("{:22s} {:9.3f} ms".format(name, event_us(lambda: f(g, a.n), reps=10) / 1e3), flush=True)
    if a.save:
        numpy.savez(a.save, **saved)


if __name__ == "__main__":
    main()
