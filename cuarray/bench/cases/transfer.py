"""`transfer`: host <-> device copies of 1 GiB from/to pageable NumPy memory (BENCHMARKS.md:
>= 3x CuPy, through pinned staging)."""

from __future__ import annotations

import numpy

from . import register

GIB = 2**30

transfer = register(
    "transfer", group="transfer",
    description="1 GiB float32 host->device (asarray) and device->host (get), pageable NumPy memory",
    size=GIB, quick=GIB // 4, params=("H2D", "D2H"), timing="host",
    nbytes=lambda n, p: n,
    size_label=lambda n: "{} MiB".format(n // 2**20),
)


@transfer.setup("cuarray", "cupy", "torch")
def _(xp, nbytes, direction):
    n = nbytes // 4
    host = numpy.random.default_rng(0).random(n, dtype=numpy.float32)
    if getattr(xp, "__name__", "") == "torch":
        dev = xp.from_numpy(host).cuda()
        return (lambda: xp.from_numpy(host).cuda()) if direction == "H2D" else (lambda: dev.cpu())
    dev = xp.asarray(host)
    return (lambda: xp.asarray(host)) if direction == "H2D" else (lambda: dev.get())
