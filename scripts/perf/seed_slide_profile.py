"""Host cost of each step of the seed-slide case, `arange(1_000_000).reshape(1000, -1).T * 2`:
per-call wall time of 2000 calls with one sync at the end (the bench's timing), for cuarray and,
when installed, CuPy. Run on the GPU machine."""

import time


def per_call(fn, sync, reps=2000):
    for _ in range(20):
        fn()
    sync()
    t0 = time.perf_counter()
    for _ in range(reps):
        fn()
    sync()
    return (time.perf_counter() - t0) / reps * 1e6


def profile(xp, sync):
    a = xp.arange(1_000_000)
    r = a.reshape(1000, -1)
    t = r.T
    small = xp.arange(16, dtype=xp.float32)
    steps = [
        ("arange(1e6)", lambda: xp.arange(1_000_000)),
        ("reshape", lambda: a.reshape(1000, -1)),
        (".T", lambda: r.T),
        ("T * 2", lambda: t * 2),
        ("empty(1e6 int64)", lambda: xp.empty(1_000_000, dtype=xp.int64)),
        ("small + small", lambda: small + small),
        ("whole expression", lambda: xp.arange(1_000_000).reshape(1000, -1).T * 2),
    ]
    return [(name, per_call(fn, sync)) for name, fn in steps]


def main():
    import cuarray

    rows = {"cuarray": profile(cuarray, cuarray.cuda.Device().synchronize)}
    try:
        import cupy

        rows["cupy"] = profile(cupy, cupy.cuda.Device().synchronize)
    except ImportError:
        pass
    names = [n for n, _ in rows["cuarray"]]
    print("{:20s} ".format("us per call") + " ".join("{:>9s}".format(k) for k in rows))
    for i, n in enumerate(names):
        print("{:20s} ".format(n) + " ".join("{:9.2f}".format(rows[k][i][1]) for k in rows))


if __name__ == "__main__":
    main()
