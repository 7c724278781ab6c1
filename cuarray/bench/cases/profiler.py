"""`profiler` (docs/bench-targets.md): ew-small (16-element a + b, 1000 ops, one sync) with the profiler off,
recording, and NVTX ranges on, so the table reads as the per-op cost of each.

Rows: ``off`` (nothing installed: must match ew-small), ``profile`` (inside one open
`cuarray.profile()`: two CUDA events and a record per launch), ``profile+stop`` (a fresh profile
per 1000 ops, its closing included: synchronise and read 2000 event times back), ``host-only``
(`cuarray.profile(gpu_time=False)`: no events, calls and host times only), ``nvtx`` (NVTX
ranges around each launch, no profile; needs the `nvtx` package). Peers run once, for reference.
"""

from __future__ import annotations

from . import NotAvailable, random_array, register
from cuarray.cuda import launch, nvtx

profiler = register(
    "profiler", group="profiler",
    description="ew-small (16-element a + b, 1000 ops, one sync) with the profiler off / on / NVTX",
    size=1000, quick=1000, timing="host", ops=1000, peers_once=True,
    params=("off", "profile", "profile+stop", "host-only", "nvtx"),
    size_label=lambda n: "16 el x {}".format(n),
)


@profiler.setup("cuarray")
def _(xp, n, param):
    a = random_array(xp, 16, "float32", seed=5)
    b = random_array(xp, 16, "float32", seed=6)

    def ops():
        for _ in range(n):
            a + b

    if param == "off":
        yield ops
    elif param == "profile":
        prof = xp.profile()
        with prof:
            yield ops
    elif param == "host-only":
        with xp.profile(gpu_time=False):
            yield ops
    elif param == "profile+stop":
        def fresh():
            with xp.profile():
                ops()

        yield fresh
    else:
        if not nvtx.available():
            raise NotAvailable("the nvtx package is not installed")
        prev = launch.set_launch_hook(nvtx.launch_hook())
        try:
            yield ops
        finally:
            launch.set_launch_hook(prev)


@profiler.setup("cupy", "torch")
def _(xp, n, param):
    a = random_array(xp, 16, "float32", seed=5)
    b = random_array(xp, 16, "float32", seed=6)

    def ops():
        for _ in range(n):
            a + b

    return ops
