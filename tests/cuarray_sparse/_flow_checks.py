"""Shared graph generators and invariant checks of maximum_flow, the matchings and yen (host arrays
in): they hold for any correct result, not only SciPy's."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as ssp
from scipy.sparse import csgraph as scg


def random_capacities(rng, n, k, dtype=np.int32, dup=True, loops=True):
    """A CSR capacity graph: random integer capacities 1..9, duplicates (summed by CSR) and self
    loops if asked, some vertices isolated."""
    row, col = rng.integers(0, n, k), rng.integers(0, n, k)
    if not loops:
        keep = row != col
        row, col = row[keep], col[keep]
    if not dup:
        key = np.unique(row.astype(np.int64) * n + col)
        row, col = key // n, key % n
    cap = rng.integers(1, 10, row.size).astype(dtype)
    return ssp.csr_array((cap, (row.astype(np.int32), col.astype(np.int32))), shape=(n, n))


def raises_like(f, g):
    """f and g raise the same exception type with the same message."""
    with pytest.raises(Exception) as want:
        f()
    with pytest.raises(type(want.value)) as got:
        g()
    assert str(got.value) == str(want.value)


def check_flow(graph, source, sink, value, flow):
    """`flow` (a host CSR) is a valid flow of `value` from source to sink under the capacities of
    `graph`: antisymmetric, within capacity, conserved at every other vertex."""
    cap = graph.toarray().astype(np.int64)
    f = flow.toarray().astype(np.int64)
    n = cap.shape[0]
    assert f.shape == (n, n)
    np.testing.assert_array_equal(f, -f.T, err_msg="flow is not antisymmetric")
    assert (f <= cap).all(), "flow above capacity"  # a reverse-only pair has capacity 0 and f <= 0
    net = f.sum(1)
    inner = np.ones(n, bool)
    inner[[source, sink]] = False
    assert (net[inner] == 0).all(), "flow not conserved"
    assert net[source] == value and net[sink] == -value, (net[source], net[sink], value)


def check_matching(graph, match, perm_type, size):
    """`match` is a matching of `graph` with `size` matched pairs, SciPy's encoding (-1 unmatched)."""
    g = ssp.csr_array(graph)
    m, n = g.shape
    match = np.asarray(match)
    assert match.dtype == np.int32
    assert match.shape == ((n,) if perm_type == "row" else (m,))
    hit = match[match >= 0]
    assert hit.size == size and np.unique(hit).size == size, "not a matching of the right size"
    has = g.toarray() != 0
    idx = np.flatnonzero(match >= 0)
    pairs = (hit, idx) if perm_type == "row" else (idx, hit)
    assert has[pairs].all(), "a matched pair is no edge"


def check_yen(graph, source, sink, dist, pred, want_dist, directed=True):
    """Distances equal SciPy's; each predecessor row is a simple path source -> sink of that length."""
    np.testing.assert_allclose(dist, want_dist, rtol=1e-12)
    g = graph.toarray() if ssp.issparse(graph) else np.asarray(graph)
    paths = set()
    for d, p in zip(dist, pred):
        node, total, seen = sink, 0.0, {sink}
        while node != source:
            prev = p[node]
            w = [g[prev, node]] + ([] if directed else [g[node, prev]])
            total += min(x for x in w if x != 0)  # the lightest of parallel edges between the two
            node = prev
            assert node not in seen, "not a simple path"
            seen.add(node)
        assert abs(total - d) <= 1e-9 * max(1.0, abs(d))
        paths.add(tuple(p))
    assert len(paths) == len(dist), "paths repeat"
