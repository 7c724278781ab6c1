"""Why the lazy fuse-chain row runs at 0.54 of the copy rate on an H200 (59.9 us at 64 MiB f32)
while `fuse` runs at 0.89 (36.1 us): the kernel each one launches (name, grid, block), each
one's GPU time alone (CUDA events around one call after a spin kernel, so the host's time is
hidden), and the host time a call back to back (no sync). On the GPU machine:
  PYTHONPATH=$PWD python scripts/perf/lazy_chain_probe.py"""

import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import cuarray as cp  # noqa: E402
from _timing import event_times  # noqa: E402
from cuarray.bench.cases.fusion import _chain  # noqa: E402
from cuarray.cuda import launch as _launch  # noqa: E402


def main():
    x = cp.random.random(16 * 2**20).astype(cp.float32)
    f = cp.fuse()(lambda x: _chain(cp, x))

    def lazy():
        with cp.lazy():
            y = _chain(cp, x)
        return y

    seen = []

    def hook(raw, stream, config, kernel, args):
        seen.append((getattr(kernel, "name", None) or str(kernel)[:60], getattr(config, "grid", None),
                     getattr(config, "block", None), len(args)))
        raw(stream, config, kernel, *args)

    for name, fn in (("fuse", lambda: f(x)), ("lazy", lazy)):
        fn()
        prev = _launch.set_launch_hook(hook)
        del seen[:]
        fn()
        _launch.set_launch_hook(prev)
        print(name, "launches:", seen)
    for rnd in range(2):
        for name, fn in (("fuse", lambda: f(x)), ("lazy", lazy), ("eager", lambda: _chain(cp, x))):
            gpu = statistics.median(event_times(fn, reps=20, spin_cycles=2_000_000))
            cp.cuda.synchronize()
            t = time.perf_counter()
            for _ in range(200):
                fn()
            host = (time.perf_counter() - t) / 200 * 1e6
            cp.cuda.synchronize()
            drained = (time.perf_counter() - t) / 200 * 1e6
            pairs = [(cp.cuda.Event(), cp.cuda.Event()) for _ in range(200)]
            for s, e in pairs:  # the bench's own clock (harness._event_samples): events around each call
                s.record()
                fn()
                e.record()
            cp.cuda.synchronize()
            ev = statistics.median(cp.cuda.get_elapsed_time(s, e) * 1e3 for s, e in pairs)
            print("round {} {:6s} gpu alone {:7.1f} us   back to back: host {:7.1f} us/call, drained {:7.1f}, "
                  "events a call {:7.1f}".format(rnd, name, gpu, host, drained, ev))


if __name__ == "__main__":
    main()
