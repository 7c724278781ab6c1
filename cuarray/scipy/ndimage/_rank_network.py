"""Selection networks for the small-window rank filters (templates/rank_tile.cu): Batcher's
odd-even merge sort on n wires, pruned to what the output of rank k depends on. Pure Python.

A comparator (i, j), i < j, puts the smaller value on wire i and the larger on j. Walking the
sorting network backwards from wire k keeps a comparator only when one of its outputs is still
needed, and then as one instruction when only one is: `lo` (wire i = min) or `hi` (wire j = max);
`ce` when both are. Batcher's network for n that is not a power of two is the one for the next
power of two with the wires past n removed: padded with +inf there, every comparator touching
them leaves the +inf in place and the other wire unchanged. The 0-1 principle makes the whole
thing checkable on the host (tests/scipy/ndimage/test_ndimage_rank_cpu.py).

Size (min/max instructions) for the middle rank: n = 9: 40, 25: 202, 49: 590, 64: 827. Two
vertically adjacent windows share most of their values (20 of 25 for a 5x5 box): `pair_ops`
selects from the shared ones once what either window's rank can be, then finishes each window on
the few values left (per output: 3x3 33, 5x5 138, 7x7 346).
"""

from __future__ import annotations

import functools

__all__ = ["batcher", "select_ops", "select_range_ops", "pair_ops", "op_count", "apply"]


@functools.cache
def batcher(n: int) -> tuple:
    """Batcher's odd-even merge sort on n wires: ((i, j), ...) in order, i < j."""
    p2 = 1
    while p2 < n:
        p2 *= 2
    out = []
    p = 1
    while p < p2:
        k = p
        while k >= 1:
            for j in range(k % p, p2 - k, 2 * k):
                for i in range(min(k, p2 - j - k)):
                    if (i + j) // (2 * p) == (i + j + k) // (2 * p) and i + j + k < n:
                        out.append((i + j, i + j + k))
            k //= 2
        p *= 2
    return tuple(out)


@functools.cache
def select_ops(n: int, k: int) -> tuple:
    """The pruned network for the value of rank k (0-based) of n: (("ce"|"lo"|"hi", i, j), ...)
    in execution order; the result is on wire k."""
    if not 0 <= k < n:
        raise ValueError("rank {} out of range for {} values".format(k, n))
    return select_range_ops(n, k, k)


@functools.cache
def select_range_ops(n: int, lo: int, hi: int) -> tuple:
    """The pruned network that leaves the values of ranks lo..hi of n on wires lo..hi."""
    if not 0 <= lo <= hi < n:
        raise ValueError("ranks {}..{} out of range for {} values".format(lo, hi, n))
    need = set(range(lo, hi + 1))
    ops = []
    for i, j in reversed(batcher(n)):
        ni, nj = i in need, j in need
        if ni and nj:
            ops.append(("ce", i, j))
        elif ni:
            ops.append(("lo", i, j))
        elif nj:
            ops.append(("hi", i, j))
        else:
            continue
        need.add(i)
        need.add(j)
    ops.reverse()
    return tuple(ops)


@functools.cache
def pair_ops(s: int, u: int, k: int) -> tuple:
    """Rank k of two windows of s + u values that share s of them: (lo, hi, shared, final).
    `shared` (select_range_ops) leaves ranks lo..hi of the shared values on wires lo..hi, once
    for both windows; `final` then selects rank k - lo of those m = hi - lo + 1 values and the
    window's own u. Why it is exact: the lo shared values below are below rank k in either
    window (each has at most lo - 1 + u = k - 1 values under it), the shared values past hi are
    above it (hi = k, or none past s - 1), so rank k is rank k - lo of what is left."""
    lo, hi = max(0, k - u), min(s - 1, k)
    return lo, hi, select_range_ops(s, lo, hi), select_ops(hi - lo + 1 + u, k - lo)


def op_count(ops) -> int:
    """min/max instructions of a pruned network."""
    return sum(2 if op == "ce" else 1 for op, _, _ in ops)


def apply(ops, values, minimum, maximum):
    """Run `ops` over a list of wires (any objects `minimum`/`maximum` take, e.g. NumPy arrays of
    a batch of windows); returns the list. The host model of rank_tile.cu's network."""
    v = list(values)
    for op, i, j in ops:
        a, b = v[i], v[j]
        if op != "hi":
            v[i] = minimum(a, b)
        if op != "lo":
            v[j] = maximum(a, b)
    return v
