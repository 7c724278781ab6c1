"""`pool-churn`: the memory pool under a seq2seq-like allocation pattern (docs/bench-targets.md).

10 000 allocations of random sizes between 1 KiB and 4 MiB, at most 65 live: before each
allocation the oldest live one is freed once 65 are live. The sequence is fixed (seeded), so every
library sees the same one. Reported: wall time of the whole sequence, and the bytes the library
keeps reserved afterwards against the peak live bytes of the sequence (target: time <= CuPy,
reserved <= 1.5 x peak). cuarray runs twice, with a fresh MemoryPool (best fit) and a fresh
MallocAsyncMemoryPool; the note says which of the two is cuarray's default.
"""

from __future__ import annotations

import collections
import functools

import numpy

from . import register
from ..report import fmt_bytes

LIVE = 65
MIN_BYTES, MAX_BYTES = 2**10, 4 * 2**20
SEED = 20261121


@functools.cache
def churn_sizes(n: int) -> tuple[int, ...]:
    """The allocation sizes, the same for every library and run."""
    rng = numpy.random.default_rng(SEED)
    return tuple(int(s) for s in rng.integers(MIN_BYTES, MAX_BYTES, size=n, endpoint=True))


def peak_live_bytes(sizes) -> int:
    """Most bytes live at once when `sizes` run through `churn`."""
    live, total, peak = collections.deque(), 0, 0
    for s in sizes:
        if len(live) == LIVE:
            total -= live.popleft()
        live.append(s)
        total += s
        peak = max(peak, total)
    return peak


def churn(alloc, sizes) -> None:
    live = collections.deque()
    for s in sizes:
        if len(live) == LIVE:
            live.popleft()  # dropping the last reference frees it
        live.append(alloc(s))
    live.clear()


def _note(row) -> str:
    peak = row["extras"]["peak_live_bytes"]
    parts = []
    for name, cell in row["libs"].items():
        reserved = (cell.get("extras") or {}).get("reserved_bytes")
        if reserved is not None:
            parts.append("{} {:.2f}".format(name, reserved / peak))
    default = " (cuarray's default)" if row["libs"].get("cuarray", {}).get("extras", {}).get("is_default") else ""
    if not parts:
        return "peak live {}{}".format(fmt_bytes(peak), default)
    return "reserved/peak: {} (peak {}){}".format(", ".join(parts), fmt_bytes(peak), default)


pool_churn = register(
    "pool-churn",
    group="pool-churn",
    description="10000 allocations of 1 KiB-4 MiB, <= 65 live; wall time and reserved bytes after",
    size=10_000,
    params=("MemoryPool", "MallocAsyncMemoryPool"),
    timing="host",
    peers_once=True,
    size_label="{} allocs".format,
    row_extras=lambda n, p: {"peak_live_bytes": peak_live_bytes(churn_sizes(n))},
    note=_note,
)


def _cuarray_alloc(xp):
    """`cuarray.empty(n, uint8)`, or raw `cuda.memory.alloc(n)` while `empty` is not written."""
    try:
        xp.empty(1, dtype=numpy.uint8)
    except (AttributeError, NotImplementedError, TypeError):
        return xp.cuda.memory.alloc
    return functools.partial(xp.empty, dtype=numpy.uint8)


@pool_churn.setup("cuarray")
def _(xp, n, param):
    # A fresh pool of each kind, so "reserved after" counts this sequence only; the allocator is
    # put back to the default pool afterwards.
    mem = xp.cuda.memory
    default = mem.get_default_memory_pool()
    default.free_all_blocks()
    pool = getattr(mem, param)()
    mem.set_allocator(pool.malloc)
    try:
        alloc, sizes = _cuarray_alloc(xp), churn_sizes(n)
        is_default = type(pool) is type(default)

        def run():
            churn(alloc, sizes)
            return {"reserved_bytes": pool.total_bytes(), "is_default": is_default}

        yield run
    finally:
        mem.set_allocator(default.malloc)
        pool.free_all_blocks()


@pool_churn.setup("cupy")
def _(cp, n, param):
    pool = cp.get_default_memory_pool()
    pool.free_all_blocks()
    alloc, sizes = functools.partial(cp.empty, dtype=cp.uint8), churn_sizes(n)

    def run():
        churn(alloc, sizes)
        return {"reserved_bytes": pool.total_bytes()}

    return run


@pool_churn.setup("torch")
def _(torch, n, param):
    torch.cuda.empty_cache()
    alloc = functools.partial(torch.empty, dtype=torch.uint8, device="cuda")
    sizes = churn_sizes(n)

    def run():
        churn(alloc, sizes)
        return {"reserved_bytes": torch.cuda.memory_reserved()}

    return run


@pool_churn.setup("numpy")
def _(np, n, param):
    alloc, sizes = functools.partial(np.empty, dtype=np.uint8), churn_sizes(n)
    return lambda: churn(alloc, sizes)
