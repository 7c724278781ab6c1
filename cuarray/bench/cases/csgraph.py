"""csgraph cases (group "sparse"): dijkstra (1 and 64 sources) and minimum_spanning_tree against SciPy on the
host; connected_components of a random directed graph with 1e6
vertices and 1e7 edges (the sparse cases' random CSR matrix), weak and strong, against
cupyx.scipy.sparse.csgraph (which needs pylibcugraph: "n/a" without it) and SciPy on the host,
the same run. Each call validates the graph and returns the count and the labels, as a user's
call does (cuarray reads the count: one synchronisation, the strong case one a propagation pass)."""

from __future__ import annotations

from . import NotAvailable, register
from .sparse import ROWS, _host_csr


def _csgraph(xp):
    name = getattr(xp, "__name__", "")
    if name == "cuarray":
        return xp.sparse.csgraph  # (bound on first use, as cuarray's subsystems are)
    if name == "cupy":
        try:
            import pylibcugraph  # noqa: F401  (cupyx's connected_components needs it)
        except ImportError as e:
            raise NotAvailable("cupyx.scipy.sparse.csgraph needs pylibcugraph: {}".format(e)) from None
        import cupyx.scipy.sparse.csgraph as g

        return g
    import scipy.sparse.csgraph as g

    return g


def _graph(xp, nnz):
    data, cols, indptr = _host_csr(ROWS, nnz, 8)
    name = getattr(xp, "__name__", "")
    if name == "numpy":
        import scipy.sparse

        return scipy.sparse.csr_array((data, cols, indptr), shape=(ROWS, ROWS))
    if name == "cuarray":
        sp = xp.sparse
    else:
        import cupyx.scipy.sparse as sp
    return sp.csr_matrix((xp.asarray(data), xp.asarray(cols), xp.asarray(indptr)), shape=(ROWS, ROWS))


cc = register("csgraph-cc", group="sparse", description="connected_components, 1e6 vertices, 1e7 directed edges",
              size=10**7, quick=10**6, params=("weak", "strong"), param_label=lambda p: p)


@cc.setup("cuarray", "cupy", "numpy")
def _(xp, n, connection):
    g = _graph(xp, n)
    f = _csgraph(xp).connected_components
    return lambda: f(g, directed=True, connection=connection)


sp = register("csgraph-dijkstra", group="sparse",
              description="dijkstra from 1 and 64 sources, 1e6 vertices, 1e7 directed edges (weights 0.5-1.5)",
              size=10**7, quick=10**6, params=(1, 64), param_label=lambda p: "{} source{}".format(p, "s" * (p > 1)))


@sp.setup("cuarray", "numpy")
def _(xp, n, sources):
    g = _graph(xp, n)
    f = _csgraph(xp).dijkstra
    indices = 0 if sources == 1 else list(range(sources))
    return lambda: f(g, indices=indices)


mst = register("csgraph-mst", group="sparse",
               description="minimum_spanning_tree, 1e6 vertices, 1e7 edges (weights 0.5-1.5)", size=10**7, quick=10**6)


@mst.setup("cuarray", "numpy")
def _(xp, n, param):
    g = _graph(xp, n)
    f = _csgraph(xp).minimum_spanning_tree
    return lambda: f(g)


def _flow_graph(xp, edges):
    """A random directed graph of edges // 5 vertices and `edges` int32 capacities 1-9 (duplicates
    summed), CSR; the same graph for every library (a fixed seed)."""
    import numpy
    import scipy.sparse

    n = max(2, edges // 5)
    rng = numpy.random.default_rng(96)
    row, col = rng.integers(0, n, edges, dtype=numpy.int32), rng.integers(0, n, edges, dtype=numpy.int32)
    host = scipy.sparse.csr_array((rng.integers(1, 10, edges, dtype=numpy.int32), (row, col)), shape=(n, n))
    return _on(xp, host)


def _on(xp, host):
    """A host CSR array as `xp`'s (SciPy's itself for the numpy column)."""
    if getattr(xp, "__name__", "") == "numpy":
        return host
    return xp.sparse.csr_array((xp.asarray(host.data), xp.asarray(host.indices), xp.asarray(host.indptr)),
                               shape=host.shape)


flow = register("csgraph-maxflow", group="sparse",
                description="maximum_flow (dinic) from vertex 0 to the last, 1e5 vertices, 5e5 directed edges (int "
                            "capacities 1-9); cuarray runs SciPy's on the host (graph copied there, flow back)",
                size=5 * 10**5, quick=5 * 10**4)


@flow.setup("cuarray", "numpy")
def _(xp, n, param):
    g = _flow_graph(xp, n)
    f = _csgraph(xp).maximum_flow
    return lambda: f(g, 0, g.shape[0] - 1, method="dinic")


srank = register("csgraph-structural-rank", group="sparse",
                 description="structural_rank, 1e5 x 1e5, 5e5 entries (a maximum bipartite matching: cuarray's parallel "
                             "Hopcroft-Karp on the device, SciPy's on the host)",
                 size=5 * 10**5, quick=5 * 10**4)


@srank.setup("cuarray", "numpy")
def _(xp, n, param):
    g = _flow_graph(xp, n)
    f = _csgraph(xp).structural_rank
    return lambda: f(g)


def _rcm_graph(xp, n, shape):
    """`shape` "grid": a 5-point grid of about n vertices, shuffled (many breadth-first levels);
    "random": n vertices and 5n random directed entries (few levels). Float ones, CSR, a fixed seed;
    reverse_cuthill_mckee sums A + A^T itself."""
    import numpy
    import scipy.sparse

    rng = numpy.random.default_rng(96)
    if shape == "grid":
        side = max(2, int(round(n ** 0.5)))
        n = side * side
        i = numpy.arange(n).reshape(side, side)
        p = rng.permutation(n)
        row, col = p[numpy.r_[i[:, :-1].ravel(), i[:-1, :].ravel()]], p[numpy.r_[i[:, 1:].ravel(), i[1:, :].ravel()]]
    else:
        row, col = rng.integers(0, n, 5 * n), rng.integers(0, n, 5 * n)
    host = scipy.sparse.csr_array((numpy.ones(row.size), (row.astype(numpy.int32), col.astype(numpy.int32))),
                                  shape=(n, n))
    return _on(xp, host)


rcm = register("csgraph-rcm", group="sparse",
               description="reverse_cuthill_mckee of a shuffled 2-D grid (1e6 vertices, ~2000 levels) and of a random "
                           "graph (1e6 vertices, 5e6 entries); cuarray's level-synchronous search on the device",
               size=10**6, quick=10**5, params=("grid", "random"), param_label=lambda p: p)


@rcm.setup("cuarray", "numpy")
def _(xp, n, shape):
    g = _rcm_graph(xp, n, shape)
    f = _csgraph(xp).reverse_cuthill_mckee
    return lambda: f(g)
