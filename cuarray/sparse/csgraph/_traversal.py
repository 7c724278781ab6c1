"""connected_components on the GPU (templates/csgraph.cu, plans in _plan.py). See
`scipy.sparse.csgraph.connected_components`.

Weak components (and every component of an undirected graph): a concurrent union-find over the
edges, one pass, whose roots are each component's smallest vertex; the labels are those roots
ranked (a cumulative sum), which is SciPy's numbering exactly (it numbers components by their
first vertex). Union is symmetric, so a CSC matrix (the CSR of the transpose) and a directed
edge list need no transpose.

Strong components: trimming, forward-backward reachability from the vertex of largest in x out
degree (the giant component of most graphs), then colouring rounds for the rest, each a few
label-propagation passes over the edges among the unassigned vertices (one device read a pass);
a small or slow remainder goes to SciPy's Tarjan on the host (`_plan.to_host`). A strongly
connected component of A is one of A^T, so CSC works as it is too. Each component is then named
by its smallest vertex and ranked as in the weak case: the labels equal SciPy's up to a
relabelling (SciPy numbers strong components in the order its depth-first search completes
them).

Input: a cuarray sparse matrix or array (any format; stored entries are edges, explicit zeros
too, as SciPy's), or a dense cuarray array (or a Python list): nonzero, finite entries are edges
(SciPy's null values 0, inf and NaN). Two device reads in all for the weak case (the component
count, and the edge count of a dense input).
"""

from __future__ import annotations

import pathlib

import numpy

from ..._core.host_input import as_literal_or_array
from ..._core.transfer import from_host, to_host
from ..._creation.basic import empty, full, ones, zeros
from ..._creation.ranges import arange
from ..._indexing.inserting import take
from ..._logic.comparison import equal, not_equal
from ..._logic.content import isfinite
from ..._logic.ops import logical_and
from ..._math.arithmetic import multiply, subtract
from ..._math.sums_scan import cumsum
from ..._sorting.searching_nonzero import flatnonzero, nonzero
from ..._sorting.searching_reduce import argmax
from ..._statistics.histograms import bincount
from ...cuda import device as _device
from ...cuda.kernel_family import KernelFamily
from .. import _canonical as canon
from .._sputils import issparse
from . import _plan as plan

__all__ = ["connected_components"]

_U8 = numpy.dtype(numpy.uint8)

CSGRAPH = KernelFamily("cuarray_sparse_csgraph", (pathlib.Path(__file__).parents[1] / "templates" / "csgraph.cu").read_text,
                       namespace="cuarray_csgraph", kernels=(
    "cc_link_coo<I>(const I* row, const I* col, long long nnz, I* parent)",
    "cc_link_csr<I>(const I* indptr, const I* indices, long long n, long long nnz, int chunk, I* parent)",
    "cc_flatten<I>(I* parent, long long n)",
    "cc_min_member<I>(const I* comp, long long n, I* smallest)",
    "scc_degrees<I>(const I* row, const I* col, long long nnz, const unsigned char* live, unsigned char* has_in, "
    "unsigned char* has_out)",
    "scc_trim<I>(long long n, unsigned char* live, const unsigned char* has_in, const unsigned char* has_out, I* comp, "
    "unsigned long long* count)",
    "scc_reach<I>(const I* row, const I* col, long long nnz, const unsigned char* live, unsigned char* fw, "
    "unsigned char* bw, int* changed)",
    "scc_color<I>(const I* row, const I* col, long long nnz, const unsigned char* live, I* color, int* changed)",
    "scc_color_back<I>(const I* row, const I* col, long long nnz, const unsigned char* live, const I* color, "
    "unsigned char* bw, int* changed)",
    "scc_take<I>(long long n, unsigned char* live, const unsigned char* a, const unsigned char* b, const I* id, "
    "I pivot, I* comp, unsigned long long* count)",
))


def _kernels(dtype) -> dict:
    names = plan.kernel_names(dtype)
    return dict(zip(names, CSGRAPH.get(*names.values())))


class _Graph:
    """The edges of a validated graph: n vertices and either a CSR layout (indptr, indices) or
    an edge list (row, col), in the vertex index type `dtype`."""

    def __init__(self, n, dtype, row=None, col=None, indptr=None, indices=None):
        self.n, self.dtype = n, dtype
        self.row, self.col, self.indptr, self.indices = row, col, indptr, indices
        self.nnz = int(col.size if col is not None else indices.size)
        self.sm = _device._sm_count(_device.get_device_id())
        self.k = _kernels(dtype)

    def edge_list(self):
        """(row, col), the CSR rows expanded once (the strong passes read them many times)."""
        if self.row is None:
            self.row = canon.expand(self.indptr, self.nnz, self.dtype)
            self.col = self.indices
        return self.row, self.col


def _index(x, dtype):
    x = x.astype(dtype, copy=False)
    return x if x.flags.c_contiguous else x.copy()


def _graph(csgraph) -> _Graph:
    """SciPy's validation (its messages) and the edges of `csgraph`."""
    if issparse(csgraph):
        m, n = csgraph.shape
        if m != n:
            raise ValueError("compressed-sparse graph must be shape (N, N)")
        fmt = csgraph.format
        if fmt in ("csr", "csc"):
            nnz = int(csgraph.nnz)
            dt = plan.index_dtype(n, csgraph.indices.dtype)
            return _Graph(n, dt, indptr=_index(csgraph.indptr, dt), indices=_index(csgraph.indices[:nnz], dt))
        coo = csgraph if fmt == "coo" else csgraph.tocoo()
        dt = plan.index_dtype(n, coo.row.dtype)
        return _Graph(n, dt, row=_index(coo.row, dt), col=_index(coo.col, dt))
    a = as_literal_or_array(csgraph, "connected_components")
    if a.ndim != 2:
        raise ValueError("graph should have two dimensions")
    n = a.shape[0]
    if a.shape[1] != n:
        raise ValueError("graph should be a square array")
    edge = not_equal(a, 0)
    if a.dtype.kind in "fc":  # SciPy's null values of a dense graph: 0, inf and NaN
        edge = logical_and(edge, isfinite(a))
    row, col = nonzero(edge)  # (one device read: the edge count)
    dt = plan.index_dtype(n)
    return _Graph(n, dt, row=_index(row, dt), col=_index(col, dt))


def _weak_roots(g: _Graph):
    """Each vertex's root: the smallest vertex of its (undirected) component."""
    parent = arange(g.n, dtype=g.dtype)
    if g.nnz:
        if g.row is not None:
            g.k["cc_link_coo"].launch(plan.grid(g.nnz, g.sm), plan.BLOCK, g.row.data.ptr, g.col.data.ptr, g.nnz,
                                      parent.data.ptr)
        else:
            g.k["cc_link_csr"].launch(plan.csr_grid(g.nnz, g.sm), plan.BLOCK, g.indptr.data.ptr, g.indices.data.ptr,
                                      g.n, g.nnz, plan.CSR_CHUNK, parent.data.ptr)
    g.k["cc_flatten"].launch(plan.grid(g.n, g.sm), plan.BLOCK, parent.data.ptr, g.n)
    return parent


def _ranked(roots, n):
    """(count, labels): the roots ranked in increasing order, each vertex labelled with its root's
    rank (int32, SciPy's label dtype)."""
    if n == 0:
        return 0, empty((0,), numpy.int32)
    is_root = equal(roots, arange(n, dtype=roots.dtype))
    prefix = cumsum(is_root, dtype=numpy.int32)
    labels = subtract(take(prefix, roots), numpy.int32(1))
    return int(to_host(prefix[n - 1:])[0]), labels


def connected_components(csgraph, directed=True, connection="weak", return_labels=True):
    """See `scipy.sparse.csgraph.connected_components`. A cuarray sparse matrix or array, or a
    dense cuarray array (or a Python list; a NumPy array is refused: call `cuarray.asarray`).
    Weak components by a GPU union-find, labels exactly SciPy's; strong components by label
    propagation (trimming, forward-backward reachability, colouring), their labels equal to
    SciPy's up to a relabelling (numbered by each component's smallest vertex); a long remainder
    of the strong propagation is finished by SciPy on the host where SciPy is installed. The
    count is a Python int (one device read).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.sparse.csgraph import connected_components
    >>> graph = cuarray.array([[0, 1, 1, 0, 0], [0, 0, 1, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 1], [0, 0, 0, 0, 0]])
    >>> n, labels = connected_components(graph, directed=False)
    >>> n, labels
    (2, array([0, 0, 0, 1, 1], dtype=int32))
    """
    if str(connection).lower() not in ("weak", "strong"):
        raise ValueError("connection must be 'weak' or 'strong'")
    if str(connection).lower() == "weak":
        directed = False
    g = _graph(csgraph)
    roots = strong_roots(g) if directed else _weak_roots(g)
    count, labels = _ranked(roots, g.n)
    return (count, labels) if return_labels else count


def strong_roots(g: _Graph, host=None):
    """Each vertex's strong component named by its smallest vertex. `host`: finish a remainder on
    the host with SciPy (None: where SciPy is installed; False: every pass on the device)."""
    if host is None:
        host = _host_sparse() is not None
    comp = _Strong(g, host).run()
    smallest = full((g.n,), g.n, dtype=g.dtype)
    g.k["cc_min_member"].launch(plan.grid(g.n, g.sm), plan.BLOCK, comp.data.ptr, g.n, smallest.data.ptr)
    return take(smallest, comp)


def _host_sparse():
    """scipy.sparse with its csgraph, or None without SciPy."""
    try:
        # the optional `cuarray[scipy]`, imported when a strong remainder could go to the host
        import scipy.sparse
        import scipy.sparse.csgraph  # noqa: F401  (scipy.sparse.csgraph, used as an attribute)
    except ImportError:
        return None
    return scipy.sparse


class _Strong:
    """The strong components' state: `live` (1 while a vertex has no component), `comp` (a
    member of its component, the representative), the counters read after each pass."""

    def __init__(self, g: _Graph, host: bool):
        self.g, self.host = g, host
        self.row, self.col = g.edge_list() if g.n else (None, None)
        self.live = ones((g.n,), _U8)
        self.comp = empty((g.n,), g.dtype)
        self.left = g.n
        self.passes = 0
        self.count = zeros((1,), numpy.uint64)
        self.changed = zeros((1,), numpy.int32)

    def _edges(self, name, *args):
        g = self.g
        g.k[name].launch(plan.grid(g.nnz, g.sm), plan.BLOCK, self.row.data.ptr, self.col.data.ptr, g.nnz, *args)

    def _vertices(self, name, *args):
        g = self.g
        g.k[name].launch(plan.grid(g.n, g.sm), plan.BLOCK, g.n, *args)

    def _taken(self):
        """Vertices the last vertex kernel assigned (one read); the counter starts again at 0."""
        taken = int(to_host(self.count)[0])
        self.count.fill(0)
        self.left -= taken
        return taken

    def _until_still(self, name, *args):
        """Passes of an edge kernel until one changes nothing (one read each)."""
        while True:
            self.changed.fill(0)
            self._edges(name, *args, self.changed.data.ptr)
            self.passes += 1
            if not int(to_host(self.changed)[0]):
                return

    def run(self):
        g = self.g
        if self.left and g.nnz == 0:  # no edges: every vertex alone
            return arange(g.n, dtype=g.dtype)
        self._trim()
        if self.left and not plan.to_host(self.left, self.passes, self.host):
            self._pivot_component()
        while self.left:
            if plan.to_host(self.left, self.passes, self.host):
                self._on_host()
                break
            self._trim()
            if self.left:
                self._colour_round()
        return self.comp

    def _trim(self):
        g = self.g
        has_in, has_out = empty((g.n,), _U8), empty((g.n,), _U8)
        while self.left:
            has_in.fill(0)
            has_out.fill(0)
            self._edges("scc_degrees", self.live.data.ptr, has_in.data.ptr, has_out.data.ptr)
            self._vertices("scc_trim", self.live.data.ptr, has_in.data.ptr, has_out.data.ptr, self.comp.data.ptr,
                           self.count.data.ptr)
            self.passes += 1
            if not plan.trim_again(self._taken(), self.left):
                return

    def _pivot_component(self):
        """The component of the live vertex of largest in-degree x out-degree (forward and
        backward reachability from it, both in each pass)."""
        g = self.g
        score = multiply(multiply(bincount(self.row, minlength=g.n), bincount(self.col, minlength=g.n)), self.live)
        pivot = int(to_host(argmax(score).reshape(1))[0])
        fw, bw = zeros((g.n,), _U8), zeros((g.n,), _U8)
        fw[pivot] = 1
        bw[pivot] = 1
        self._until_still("scc_reach", self.live.data.ptr, fw.data.ptr, bw.data.ptr)
        self._vertices("scc_take", self.live.data.ptr, fw.data.ptr, bw.data.ptr, 0, pivot, self.comp.data.ptr,
                       self.count.data.ptr)
        self._taken()

    def _colour_round(self):
        """Every live vertex coloured by the largest live id that reaches it; each root (a vertex
        of its own colour) takes the vertices of its colour that reach it."""
        g = self.g
        ids = arange(g.n, dtype=g.dtype)
        colour = ids.copy()
        self._until_still("scc_color", self.live.data.ptr, colour.data.ptr)
        back = logical_and(equal(colour, ids), self.live).astype(_U8)
        self._until_still("scc_color_back", self.live.data.ptr, colour.data.ptr, back.data.ptr)
        self._vertices("scc_take", self.live.data.ptr, back.data.ptr, back.data.ptr, colour.data.ptr, 0,
                       self.comp.data.ptr, self.count.data.ptr)
        self._taken()

    def _on_host(self):
        """The live subgraph to SciPy's Tarjan: each of its components named by its smallest
        vertex. Host work: a remainder too slow for label propagation (a long path) or small."""
        g = self.g
        live = self.live.astype(bool)
        members = flatnonzero(live)
        new_id = subtract(cumsum(live, dtype=g.dtype), g.dtype.type(1))
        keep = logical_and(take(live, self.row), take(live, self.col))
        r = to_host(take(new_id, self.row[keep]))
        c = to_host(take(new_id, self.col[keep]))
        m = members.size
        sp = _host_sparse()
        sub = sp.csr_array((numpy.ones(r.size, numpy.int8), (r, c)), shape=(m, m))
        _, labels = sp.csgraph.connected_components(sub, directed=True, connection="strong")
        order = to_host(members)
        _, first = numpy.unique(labels, return_index=True)  # members ascending: a label's first is its smallest
        self.comp[members] = from_host(order[first][labels].astype(g.dtype))
        self.left = 0
