"""Narrow levels of reverse_cuthill_mckee's breadth-first search, run on the host.

A level on the device costs about 40 launches, two radix sorts and one device read whatever its
width (about 1.7 ms on an H200). A mesh has thousands of levels of a few thousand entries (a
1000 x 1000 grid: ~2,000 levels of ~4,000 entries), where those fixed costs are the whole time; the
host runs such a level in NumPy in tens of microseconds. So a level whose frontier lists at most
`HOST_LEVEL_EDGES` entries runs here, on host copies of the graph made once per call, and a wide
level on the device; the visited flags and the order found move across when the search switches
(a hybrid search of the kind high-diameter graphs call for). Either way a level is the same array
algorithm (see _ordering's docstring), so the permutation is SciPy's either way.

`HOST_LEVEL_EDGES`: the host pays ~30 us a level plus ~40 ns an entry (a stable sort of int64
keys), the device ~1.7 ms flat: they meet near 40,000 entries; 2**15 keeps the host side of it.
The graph's copy to the host (~10 ms for 1e7 entries) is paid only once the narrow levels run on
the device so far have cost as much (`worth_copying`: a graph with a few narrow levels, such as a
random graph's first and last, never copies; a mesh copies after a handful).
docs/perf-notes.md ("csgraph: reverse_cuthill_mckee on meshes") has the measurement."""

from __future__ import annotations

import numpy

__all__ = ["HOST_LEVEL_EDGES", "HostGraph", "on_host", "worth_copying", "level"]

HOST_LEVEL_EDGES = 1 << 15
DEVICE_LEVEL_S = 1.7e-3  # a level's fixed cost on the device (H200, measured)
COPY_BYTES_PER_S = 10e9  # device-to-pageable-host copies


def worth_copying(narrow_levels: int, nbytes: int) -> bool:
    """Whether `narrow_levels` run on the device have cost as much as copying `nbytes` of graph
    to the host would (from then on the narrow levels run there: at most twice the better of the
    two choices made in hindsight)."""
    return narrow_levels * DEVICE_LEVEL_S >= nbytes / COPY_BYTES_PER_S


def on_host(total: int, limit: int = HOST_LEVEL_EDGES) -> bool:
    """Whether a level whose frontier lists `total` CSR entries runs on the host."""
    return total <= limit


class HostGraph:
    """Host copies (NumPy int64) of the CSR structure, the degrees and the row lengths."""

    __slots__ = ("indptr", "indices", "degree", "rowlen")

    def __init__(self, indptr, indices, degree, rowlen):
        self.indptr, self.indices, self.degree, self.rowlen = indptr, indices, degree, rowlen


def level(g: HostGraph, visited: numpy.ndarray, frontier: numpy.ndarray, total: int, radix: int, n: int):
    """(the next level, its frontier's entry count): the unvisited targets of `frontier`'s rows,
    each at its first occurrence in queue order, ordered by (position of the vertex that found it,
    degree, position of that entry), marked visited in `visited` (host, updated in place)."""
    start = g.indptr[frontier]
    counts = g.indptr[frontier + 1] - start
    seg = numpy.repeat(numpy.arange(frontier.size, dtype=numpy.int64), counts)
    seg_ptr = numpy.concatenate([numpy.zeros(1, numpy.int64), numpy.cumsum(counts)])
    edge = start[seg] + (numpy.arange(total, dtype=numpy.int64) - seg_ptr[seg])
    target = g.indices[edge]
    fresh = numpy.flatnonzero(~visited[target])
    if fresh.size == 0:
        return fresh, 0
    _, first = numpy.unique(target[fresh], return_index=True)  # the first occurrence of each
    pos = numpy.sort(fresh[first])
    found = target[pos]
    order = numpy.argsort(seg[pos] * radix + g.degree[found], kind="stable")  # ties: entry order
    nxt = found[order]
    visited[nxt] = True
    return nxt, int(g.rowlen[nxt].sum())
