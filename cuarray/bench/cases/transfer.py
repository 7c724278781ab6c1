"""`transfer`: host <-> device copies of 1 GiB from/to pageable NumPy memory (docs/bench-targets.md:
>= 3x CuPy, through pinned staging), and from/to page-locked memory (the bus limit)."""

from __future__ import annotations

import numpy

from . import register

GIB = 2**30

transfer = register(
    "transfer", group="transfer",
    description="1 GiB float32 host->device (asarray) and device->host (get), pageable NumPy memory",
    size=GIB, quick=GIB // 4, params=("H2D", "D2H", "H2D pinned", "D2H pinned"), timing="host",
    nbytes=lambda n, p: n,
    size_label=lambda n: "{} MiB".format(n // 2**20),
)


def _pinned_host(xp, n):
    """A float32 NumPy array in page-locked memory, allocated by the library under test."""
    name = getattr(xp, "__name__", "")
    if name == "torch":
        return xp.empty(n, dtype=xp.float32).pin_memory().numpy()
    if name == "cupy":
        mem = xp.cuda.alloc_pinned_memory(4 * n)
        return numpy.frombuffer(mem, numpy.float32, n)
    mem = xp.cuda.alloc_pinned_memory(4 * n)
    return mem.numpy_view(4 * n).view(numpy.float32)


@transfer.setup("cuarray", "cupy", "torch")
def _(xp, nbytes, direction):
    n = nbytes // 4
    data = numpy.random.default_rng(0).random(n, dtype=numpy.float32)
    if direction.endswith("pinned"):
        host = _pinned_host(xp, n)
        host[...] = data
    else:
        host = data
    h2d = direction.startswith("H2D")
    pinned = direction.endswith("pinned")
    # Pageable rows: what users write (asarray(host), get() into a new array). Pinned rows: into
    # and out of an existing page-locked buffer (the bus limit).
    if getattr(xp, "__name__", "") == "torch":
        dev = xp.from_numpy(data).cuda()
        if h2d:
            return lambda: xp.from_numpy(host).cuda()
        return (lambda: xp.from_numpy(host).copy_(dev)) if pinned else (lambda: dev.cpu())
    dev = xp.asarray(data)
    if h2d:
        return lambda: xp.asarray(host)
    return (lambda: dev.get(out=host)) if pinned else (lambda: dev.get())
