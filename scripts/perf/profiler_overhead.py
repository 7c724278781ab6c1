"""Host cost per launch of each piece of the profiler (us per 16-element a + b, 2000 ops, one sync).

Rows: plain; a pass-through launch hook (the hook frames); + two perf_counter_ns; + one
cuEventRecord; + two; the full `cuarray.profile()`; `profile(gpu_time=False)`; and the driver
calls alone (cuEventCreate, cuEventRecord, cuda.core's Stream.handle). For docs/profiling.md.
"""

from __future__ import annotations

import time

import numpy as np

import cuarray
from cuarray.cuda import _backend, launch

N = 2000


def per_op(a, b):
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(N):
            a + b
        cuarray.cuda.synchronize()
        best = min(best, (time.perf_counter() - t) / N * 1e6)
    return best


def per_call(fn, n=20000):
    t = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - t) / n * 1e6


def main():
    a = cuarray.asarray(np.random.default_rng(0).random(16, dtype=np.float32))
    b = cuarray.asarray(np.random.default_rng(1).random(16, dtype=np.float32))
    per_op(a, b)
    drv = _backend.driver()
    events = [_backend.check(drv.cuEventCreate(0)) for _ in range(2 * N + 2)]
    now = time.perf_counter_ns
    rec = drv.cuEventRecord

    def passthrough(raw, s, c, k, args):
        raw(s, c, k, *args)

    def clocks(raw, s, c, k, args):
        now()
        raw(s, c, k, *args)
        now()

    it = [0]

    def one_event(raw, s, c, k, args):
        raw(s, c, k, *args)
        i = it[0] = (it[0] + 1) % len(events)
        rec(events[i], s.handle)

    def two_events(raw, s, c, k, args):
        h = s.handle
        i = it[0] = (it[0] + 2) % (len(events) - 1)
        rec(events[i], h)
        raw(s, c, k, *args)
        rec(events[i + 1], h)

    rows = [("plain", per_op(a, b))]
    for name, hook in (("hook, pass-through", passthrough), ("hook + 2 perf_counter_ns", clocks),
                       ("hook + 1 cuEventRecord", one_event), ("hook + 2 cuEventRecord", two_events)):
        launch.set_launch_hook(hook)
        rows.append((name, per_op(a, b)))
        launch.set_launch_hook(None)
    with cuarray.profile():
        rows.append(("cuarray.profile()", per_op(a, b)))
    with cuarray.profile(gpu_time=False):
        rows.append(("cuarray.profile(gpu_time=False)", per_op(a, b)))
    base = rows[0][1]
    for name, us in rows:
        print("{:<36} {:7.2f} us/op  (+{:.2f})".format(name, us, us - base))
    cs = cuarray.cuda.get_current_stream()._core()
    print("{:<36} {:7.2f} us".format("cuEventCreate", per_call(lambda: drv.cuEventCreate(0), 2000)))
    print("{:<36} {:7.2f} us".format("cuEventRecord (null stream)", per_call(lambda: rec(events[0], cs.handle))))
    print("{:<36} {:7.2f} us".format("cuda.core Stream.handle", per_call(lambda: cs.handle)))
    cuarray.cuda.synchronize()


if __name__ == "__main__":
    main()
