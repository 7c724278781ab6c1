"""`threads`: work from 8 threads started after the main thread used the GPU.

- `threads[small]`: each of 8 threads runs 1000 16-element `a + b` (host overhead under
  contention: the GIL and the launch path), one device sync at the end.
- `threads[large]`: each of 8 threads runs a 3-op elementwise chain on its own 256 MiB float32
  array; `threads[large-1thread]` runs the same 8 chains one after another in one thread. Target:
  large <= 1.1 x large-1thread (the GPU stays busy while threads take turns at the GIL).

Wall time of the whole batch (perf_counter around it, then a device sync). Targets: <= CuPy on both.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from . import register

THREADS = 8
SMALL_OPS = 1000
LARGE_ELEMS = 2**26  # 256 MiB of float32


threads = register(
    "threads",
    group="threads",
    description="8 threads x 1000 16-element adds; 8 threads x a 3-op chain on 256 MiB (vs one thread)",
    size=LARGE_ELEMS,
    quick=2**24,
    params=("small", "large", "large-1thread"),
    timing="host",
    size_label="{} float32 per large array".format,
)


def _chain(x):
    y = x * 2.0
    y += 1.0
    return y * x


def _setup(make, sync, n, param):
    """Arrays made in the main thread; a pool of 8 threads, warmed by the harness's warm-up calls."""
    if param == "small":
        pairs = [make(16, k) for k in range(THREADS)]

        def small(pair):
            a, b = pair
            for _ in range(SMALL_OPS):
                a + b

        ex = ThreadPoolExecutor(THREADS)

        def run():
            list(ex.map(small, pairs))
            sync()

        return ex, run
    xs = [make(n, k)[0] for k in range(THREADS)]
    if param == "large-1thread":
        def run():
            for x in xs:
                _chain(x)
            sync()

        return None, run
    ex = ThreadPoolExecutor(THREADS)

    def run():
        list(ex.map(_chain, xs))
        sync()

    return ex, run


def _generator(make, sync, n, param):
    ex, run = _setup(make, sync, n, param)
    try:
        yield run
    finally:
        if ex is not None:
            ex.shutdown()


@threads.setup("cuarray", "cupy")
def _(xp, n, param):
    def make(size, k):
        return xp.full(size, 1.0 + k, dtype="float32"), xp.full(size, 0.5, dtype="float32")

    yield from _generator(make, xp.cuda.Device().synchronize, n, param)


@threads.setup("torch")
def _(torch, n, param):
    def make(size, k):
        return (torch.full((size,), 1.0 + k, dtype=torch.float32, device="cuda"),
                torch.full((size,), 0.5, dtype=torch.float32, device="cuda"))

    yield from _generator(make, torch.cuda.synchronize, n, param)
