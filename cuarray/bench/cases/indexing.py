"""Indexing cases (docs/bench-targets.md "gather; boolean mask; concat"): `x[idx]` with 1e8 random int64
indices into a 1 GiB float32 array; `x[mask]` selecting half of 1 Gi float32 elements;
`concatenate` of 100 arrays of 4 MiB; and `flatnonzero` of the same mask (not in docs/bench-targets.md).

Bytes counted: gather reads the indices (8 B) and one element (4 B), writes one (4 B) per index;
mask selection reads the mask (1 B) and the element (4 B) per input element and writes the selected
ones; concatenate reads and writes every byte once; flatnonzero reads the mask and writes 8 B per
true element.
"""

from __future__ import annotations

from . import register

GIB = 2**30

gather = register(
    "idx-gather", group="indexing",
    description="x[idx]: 1e8 random int64 indices into a 1 GiB float32 array",
    size=100_000_000, quick=10_000_000,
    nbytes=lambda n, p: 16 * n,
    size_label=lambda n: "{:.0e} idx".format(n),
)


def _gather_data(xp, n, torch=False):
    import numpy

    rng = numpy.random.default_rng(1)
    if torch:
        x = xp.rand(GIB // 4, device="cuda", dtype=xp.float32)
        idx = xp.randint(0, GIB // 4, (n,), device="cuda", dtype=xp.int64)
        return x, idx
    x = xp.asarray(rng.random(GIB // 4, dtype=numpy.float32))
    idx = xp.asarray(rng.integers(0, GIB // 4, n, dtype=numpy.int64))
    return x, idx


@gather.setup("cuarray", "cupy")
def _(xp, n, param):
    x, idx = _gather_data(xp, n)
    return lambda: x[idx]


@gather.setup("torch")
def _(torch, n, param):
    x, idx = _gather_data(torch, n, torch=True)
    return lambda: x[idx]


mask = register(
    "idx-mask", group="indexing",
    description="x[mask]: a random mask selecting half of 1 Gi float32 elements (one host sync)",
    size=GIB, quick=GIB // 8,
    nbytes=lambda n, p: 5 * n + 4 * (n // 2),
    timing="host",
    size_label=lambda n: "{} Mi elem".format(n // 2**20),
)

_masks: dict = {}


def _host_mask(n):
    """The same random half-true mask for every library (bits of random bytes)."""
    import numpy

    m = _masks.get(n)
    if m is None:
        rng = numpy.random.default_rng(2)
        m = _masks[n] = numpy.unpackbits(numpy.frombuffer(rng.bytes(n // 8), numpy.uint8)).view(bool)
    return m


@mask.setup("cuarray", "cupy")
def _(xp, n, param):
    x = xp.ones(n, dtype="float32")
    m = xp.asarray(_host_mask(n))
    return lambda: x[m]


@mask.setup("torch")
def _(torch, n, param):
    x = torch.ones(n, dtype=torch.float32, device="cuda")
    m = torch.from_numpy(_host_mask(n)).cuda()
    return lambda: x[m]


nonzero = register(
    "idx-nonzero", group="indexing",
    description="flatnonzero of a random half-true mask of 1 Gi elements (one host sync)",
    size=GIB, quick=GIB // 8,
    nbytes=lambda n, p: n + 8 * (n // 2),
    timing="host",
    size_label=lambda n: "{} Mi elem".format(n // 2**20),
)


@nonzero.setup("cuarray", "cupy")
def _(xp, n, param):
    m = xp.asarray(_host_mask(n))
    return lambda: xp.flatnonzero(m)


@nonzero.setup("torch")
def _(torch, n, param):
    m = torch.from_numpy(_host_mask(n)).cuda()
    return lambda: torch.nonzero(m).view(-1)


concat = register(
    "idx-concat", group="indexing",
    description="concatenate 100 float32 arrays of 4 MiB",
    size=100, quick=100,
    nbytes=lambda n, p: 2 * n * 4 * 2**20,
    size_label=lambda n: "{} x 4 MiB".format(n),
)


@concat.setup("cuarray", "cupy")
def _(xp, n, param):
    parts = [xp.ones(2**20, dtype="float32") for _ in range(n)]
    fn = xp.concatenate
    return lambda: fn(parts)


@concat.setup("torch")
def _(torch, n, param):
    parts = [torch.ones(2**20, dtype=torch.float32, device="cuda") for _ in range(n)]
    return lambda: torch.cat(parts)
