"""Single linkage on the device: the minimum spanning tree of the complete graph over the condensed
distances by Boruvka's rounds (Boruvka 1926; each round every component takes its least edge to
another component, so the components at least halve: about log2(n) rounds, each one pass over the
n (n - 1) / 2 distances, rows in chunks so that the work arrays are O(chunk * n)), then the n - 1
edges sorted by weight and labelled as SciPy labels its minimum spanning tree (a union-find in that
order, sequential: on the host, on the n - 1 edges read once).

Edges are ordered totally by (weight, min(i, j), max(i, j)): every component's least edge is then
unique, two components can only choose each other by the same edge, and the chosen edges hold no
cycle. With distinct distances the tree and its sorted order are SciPy's (its Prim tree sorted
stably by distance); with ties the tree's weights and its components below every height are the
same for every minimum spanning tree, while the order of equal-height merges may differ."""

from __future__ import annotations

import numpy

from ..._core.transfer import to_host
from ..._creation.ranges import arange
from ..._indexing.inserting import take, take_along_axis
from ..._manipulation.joining import concatenate, stack
from ..._math.extrema import maximum, minimum
from ..._sorting.counting import count_nonzero
from ..._sorting.searching import where
from ..._sorting.searching_reduce import argmin
from ..._sorting.sorting import lexsort

# distances gathered per chunk of rows (a few work arrays of this many elements: tens of MB)
CHUNK = 1 << 22


def _least_edges(y, n, comp, chunk):
    """Each vertex's least edge (weight, other end) to another component, in the total order: a
    row's first minimum is its least edge, as (w, min, max) orders equal weights by the other end."""
    rows_per = max(1, chunk // n)
    cols = arange(n)
    weights, ends = [], []
    for r0 in range(0, n, rows_per):
        rows = arange(r0, min(n, r0 + rows_per))[:, None]
        lo, hi = minimum(rows, cols), maximum(rows, cols)
        # (lo, hi)'s place in the condensed vector; the diagonal (masked below) is clamped into it
        k = maximum(lo * (2 * n - 3 - lo) // 2 + hi - 1, 0)
        d = where(take(comp, rows) == comp, numpy.inf, take(y, k))
        j = argmin(d, axis=1)
        weights.append(take_along_axis(d, j[:, None], axis=1)[:, 0])
        ends.append(j)
    # + 0.0: -0.0 becomes 0.0, so that the sorts below order it as the comparisons above did
    return concatenate(weights) + 0.0, concatenate(ends)


def spanning_tree(y, n, chunk=CHUNK):
    """The minimum spanning tree's n - 1 edges as (weight, lo, hi) sorted by that total order; one
    read per round (the number of components left)."""
    vertex = arange(n)
    comp = vertex  # each vertex's component, named by one of its vertices
    ncomp = n
    found = []
    while ncomp > 1:
        w, j = _least_edges(y, n, comp, chunk)
        lo, hi = minimum(vertex, j), maximum(vertex, j)
        # each component's least edge: the first of its vertices in (component, weight, lo, hi) order
        order = lexsort((hi, lo, w, comp))
        cs = take(comp, order)
        first = concatenate([cs[:1] >= 0, cs[1:] != cs[:-1]])
        best = take(order, lexsort((order, ~first))[:ncomp])  # a sort keeps the count on the host
        c, to = take(comp, best), take(comp, take(j, best))
        parent = vertex.copy()
        parent[c] = to
        # two components that chose each other chose the same edge: the smaller keeps it once and
        # becomes the root of the tree of hooks (the only cycle a hook graph with unique least
        # edges can hold)
        root = (take(parent, to) == c) & (c < to)
        parent[c] = where(root, c, to)
        for _ in range(ncomp.bit_length()):  # pointer jumping: the hook trees are < ncomp deep
            parent = take(parent, parent)
        comp = take(parent, comp)
        found.append(stack([take(w, best), take(lo, best), take(hi, best), ~root]))
        ncomp = int(to_host(count_nonzero(root)))  # the one read of a round: one root per new component
    edges = concatenate(found, axis=1)
    keep = edges[3] > 0
    order = lexsort((edges[2], edges[1], edges[0], ~keep))[:n - 1]
    return take(edges[:3], order, axis=1)


def label(edges, n):
    """SciPy's linkage matrix of the sorted tree edges (3 x (n - 1), on the host): merge i joins the
    clusters of its two ends (ids: observations 0..n-1, merge i's cluster n + i), the smaller id
    first, and the new cluster's size."""
    lo, hi = edges[1].astype(numpy.int64).tolist(), edges[2].astype(numpy.int64).tolist()
    parent = list(range(2 * n - 1))
    size = [1] * n + [0] * (n - 1)
    z = numpy.empty((n - 1, 4))
    pairs = []
    for i, (a, b) in enumerate(zip(lo, hi)):
        while parent[a] != a:  # path halving keeps the finds short
            parent[a] = a = parent[parent[a]]
        while parent[b] != b:
            parent[b] = b = parent[parent[b]]
        parent[a] = parent[b] = n + i
        size[n + i] = size[a] + size[b]
        pairs.append((a, b) if a < b else (b, a))
    if n > 1:
        z[:, :2] = pairs
    z[:, 2] = edges[0]
    z[:, 3] = size[n:]
    return z
