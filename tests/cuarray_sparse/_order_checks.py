"""Random graphs for reverse_cuthill_mckee and maximum_bipartite_matching, host SciPy arrays: the
CPU tests (NumPy stand-ins) and the GPU tests draw from the same kinds."""

from __future__ import annotations

import numpy as np
import scipy.sparse as ssp

# the raw CSR layouts SciPy's reordering treats differently: a sorted CSR without duplicates (its
# sum's merge), rows unsorted with duplicates (its general sum), explicit zeros kept, symmetric
KINDS = ("canonical", "unsorted", "zeros", "symmetric")


def rcm_graph(rng, n, k, kind, fmt="csr", index=np.int32):
    """A random n x n graph of about k entries, values in -2..2 so that entries of A + A^T cancel
    to 0 (an integer-valued float: every sum exact); many vertices isolated or in small components
    when k is about n."""
    row, col = rng.integers(0, n, k), rng.integers(0, n, k)
    data = rng.integers(-2, 3, k).astype(np.float64)
    if kind == "unsorted":
        order = np.argsort(row, kind="stable")
        indptr = np.r_[0, np.cumsum(np.bincount(row, minlength=n))]
        g = ssp.csr_array((data[order], col[order], indptr), shape=(n, n))
    else:
        g = ssp.csr_array((data, (row, col)), shape=(n, n))
        if kind == "symmetric":
            g = (g + g.T).tocsr()
        elif kind == "canonical":
            g.eliminate_zeros()
    if fmt == "csc":
        g = g.tocsc()
    g.indices, g.indptr = g.indices.astype(index), g.indptr.astype(index)
    return g


def grid_graph(rng, side):
    """A side x side 5-point grid, vertices shuffled: Cuthill-McKee's use (a mesh of long levels)."""
    n = side * side
    i = np.arange(n).reshape(side, side)
    row = np.r_[i[:, :-1].ravel(), i[:-1, :].ravel(), np.arange(n)]
    col = np.r_[i[:, 1:].ravel(), i[1:, :].ravel(), np.arange(n)]
    p = rng.permutation(n)
    g = ssp.csr_array((np.ones(row.size), (p[row], p[col])), shape=(n, n))
    return (g + g.T).tocsr()


def bipartite(rng, m, n, degree):
    """A random m x n biadjacency of about `degree` entries a row, an empty row when m > 2,
    duplicates kept (each an edge)."""
    k = int(degree * m)
    row, col = rng.integers(0, max(m, 1), k), rng.integers(0, max(n, 1), k)
    if m > 2:
        keep = row != 1
        row, col = row[keep], col[keep]
    if not (m and n):
        row = col = np.zeros(0, int)
    return ssp.csr_array((np.ones(row.size), (row, col)), shape=(m, n))
