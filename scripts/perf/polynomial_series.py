"""Time cuarray.polynomial's series functions and classes against numpy.polynomial: short series
(launch- and read-back-bound: wall time per call, synchronised, is what a user waits for) and
evaluation / Vandermonde matrices over a large x (bandwidth-bound).

    PYTHONPATH=TREE python scripts/perf/polynomial_series.py [--n 8] [--big 10000000] [--bases leg,cheb]

Prints one row per (basis, case): cuarray and NumPy microseconds per call (median of repeats after
a warm-up) and their ratio.
"""

import argparse
import statistics
import time

import numpy
import numpy.polynomial as NPP

import cuarray
import cuarray.polynomial as CPP

MODULES = {"poly": "polynomial", "cheb": "chebyshev", "leg": "legendre", "lag": "laguerre", "herm": "hermite",
           "herme": "hermite_e"}
CLASSES = {"poly": "Polynomial", "cheb": "Chebyshev", "leg": "Legendre", "lag": "Laguerre", "herm": "Hermite",
           "herme": "HermiteE"}


def wall_us(fn, sync, reps=20, warmup=3):
    for _ in range(warmup):
        fn()
    sync()
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        sync()
        times.append((time.perf_counter() - t0) * 1e6)
    return statistics.median(times)


def cases(p, mod, K, put, n, big):
    rng = numpy.random.default_rng(0)
    c1, c2 = put(rng.uniform(-1, 1, n) + numpy.r_[numpy.zeros(n - 1), 2]), put(rng.uniform(-1, 1, n // 2 + 1) + 1)
    xs, xb = put(rng.uniform(-1, 1, 100)), put(rng.uniform(-1, 1, big))
    fx, fy = put(numpy.linspace(-1, 1, 1000)), put(rng.uniform(-1, 1, 1000))
    f = {name: getattr(mod, p + name) for name in ("add", "mul", "div", "pow", "val", "der", "int", "fit", "roots",
                                                   "fromroots", "vander")}
    a, b = K(c1), K(c2)
    out = {
        "add": lambda: f["add"](c1, c2),
        "mul": lambda: f["mul"](c1, c2),
        "div": lambda: f["div"](c1, c2),
        "pow3": lambda: f["pow"](c2, 3),
        "der": lambda: f["der"](c1),
        "int": lambda: f["int"](c1, 1, k=1.0, lbnd=0.5),
        "val x100": lambda: f["val"](xs, c1),
        "val x{}".format(big): lambda: f["val"](xb, c1),
        "vander x{} deg{}".format(big // 10, n): lambda: f["vander"](xb[:big // 10], n),
        "fit 1000 deg{}".format(n): lambda: f["fit"](fx, fy, n),
        "roots deg{}".format(n - 1): lambda: f["roots"](c1),
        "fromroots {}".format(n): lambda: f["fromroots"](xs[:n]),
        "class a*b": lambda: a * b,
        "class a(x100)": lambda: a(xs),
        "class deriv": lambda: a.deriv(),
    }
    if p != "poly":
        out["gauss 32"] = lambda: getattr(mod, p + "gauss")(32)
        out["to power series"] = lambda: getattr(mod, p + "2poly")(c1)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=8, help="coefficients of the longer short series")
    ap.add_argument("--big", type=int, default=10**7, help="points of the large evaluations")
    ap.add_argument("--bases", default=",".join(MODULES))
    a = ap.parse_args()
    dev_sync = cuarray.cuda.Device().synchronize
    print("{:6s} {:24s} {:>11s} {:>11s} {:>7s}".format("basis", "case", "cuarray us", "numpy us", "ratio"))
    for p in a.bases.split(","):
        ours = cases(p, getattr(CPP, MODULES[p]), getattr(CPP, CLASSES[p]), cuarray.asarray, a.n, a.big)
        theirs = cases(p, getattr(NPP, MODULES[p]), getattr(NPP, CLASSES[p]), numpy.asarray, a.n, a.big)
        for name in ours:
            t_ours = wall_us(ours[name], dev_sync)
            t_np = wall_us(theirs[name], lambda: None, reps=5 if "x1" in name else 20)
            print("{:6s} {:24s} {:11.1f} {:11.1f} {:7.2f}".format(p, name, t_ours, t_np, t_ours / t_np), flush=True)


if __name__ == "__main__":
    main()
