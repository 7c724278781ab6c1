"""Sparse cases (docs/bench-targets.md "sparse"): CSR SpMV and SpMM (64 columns) on a random float32
matrix with 1e6 rows and 1e7 nonzeros; coo -> csr of 1e8 entries (duplicates summed, a fresh COO
each call so neither library reuses a canonical flag); SpGEMM of two such 1e6 x 1e6 matrices with
1e7 nonzeros each; cg for 1000 iterations on the 2-D Poisson matrix with 1e6 unknowns (float64,
tolerance 0 so every library runs all iterations). Peer: CuPy (cupyx.scipy.sparse), same run.
BSR SpMV (4x4 blocks, 1e6 rows, 1e7 stored values, float64) against SciPy's on the host: CuPy has
no BSR.

SpMV bytes: values, column indices and row offsets read once, x read (at least once), y written:
the bandwidth bound the target compares against."""

from __future__ import annotations

import functools

import numpy

from . import NotAvailable, register

ROWS = 10**6


def _sp(xp):
    name = getattr(xp, "__name__", "")
    if name == "cuarray":
        return xp.sparse
    if name == "cupy":
        import cupyx.scipy.sparse

        return cupyx.scipy.sparse
    raise NotAvailable("no sparse module")


def _spla(xp):
    if getattr(xp, "__name__", "") == "cuarray":
        return xp.sparse.linalg
    import cupyx.scipy.sparse.linalg

    return cupyx.scipy.sparse.linalg


@functools.lru_cache(maxsize=4)
def _host_csr(rows: int, nnz: int, seed: int):
    """(data, indices, indptr) of a random CSR float32 matrix, rows x rows, ~nnz entries, sorted."""
    rng = numpy.random.default_rng(seed)
    counts = rng.multinomial(nnz, numpy.full(rows, 1.0 / rows))
    indptr = numpy.zeros(rows + 1, numpy.int32)
    numpy.cumsum(counts, out=indptr[1:])
    cols = rng.integers(0, rows, nnz, dtype=numpy.int32)
    # sort columns within rows: one global sort on (row, col)
    row_of = numpy.repeat(numpy.arange(rows, dtype=numpy.int64), counts)
    cols = cols[numpy.lexsort((cols, row_of))]
    data = (rng.random(nnz, dtype=numpy.float32) + 0.5)
    return data, cols, indptr


def _csr(xp, rows, nnz, seed, dtype="float32"):
    data, cols, indptr = _host_csr(rows, nnz, seed)
    return _sp(xp).csr_matrix((xp.asarray(data.astype(dtype)), xp.asarray(cols), xp.asarray(indptr)),
                              shape=(rows, rows))


def _spmv_bytes(n, p):
    return 4 * n + 4 * n + 4 * (ROWS + 1) + 4 * ROWS + 4 * ROWS


spmv = register("sparse-spmv", group="sparse", description="CSR SpMV, 1e6 rows, float32",
                size=10**7, quick=10**6, nbytes=_spmv_bytes)


@spmv.setup("cuarray", "cupy")
def _(xp, n, param):
    a = _csr(xp, ROWS, n, 1)
    x = xp.asarray(numpy.random.default_rng(2).random(ROWS, dtype=numpy.float32))
    return lambda: a @ x


spmm = register("sparse-spmm", group="sparse", description="CSR SpMM with 64 columns, 1e6 rows, float32",
                size=10**7, quick=10**6, nbytes=lambda n, p: 8 * n + 4 * ROWS + 2 * 4 * 64 * ROWS)


@spmm.setup("cuarray", "cupy")
def _(xp, n, param):
    a = _csr(xp, ROWS, n, 1)
    x = xp.asarray(numpy.random.default_rng(3).random((ROWS, 64), dtype=numpy.float32))
    return lambda: a @ x


coo2csr = register("sparse-coo2csr", group="sparse", description="coo -> csr, float32, 1e6 x 1e6, "
                   "duplicates summed", size=10**8, quick=10**7, nbytes=lambda n, p: 12 * n)


@coo2csr.setup("cuarray", "cupy")
def _(xp, n, param):
    rng = numpy.random.default_rng(4)
    row = xp.asarray(rng.integers(0, ROWS, n, dtype=numpy.int32))
    col = xp.asarray(rng.integers(0, ROWS, n, dtype=numpy.int32))
    data = xp.asarray(rng.random(n, dtype=numpy.float32))
    sp = _sp(xp)
    return lambda: sp.coo_matrix((data, (row, col)), shape=(ROWS, ROWS)).tocsr()


spgemm = register("sparse-spgemm", group="sparse", description="CSR @ CSR, 1e6 x 1e6, nnz each, float32",
                  size=10**7, quick=10**6)


@spgemm.setup("cuarray", "cupy")
def _(xp, n, param):
    a = _csr(xp, ROWS, n, 5)
    b = _csr(xp, ROWS, n, 6)
    return lambda: a @ b


def _poisson(xp, k):
    sp = _sp(xp)
    t = sp.diags([xp.asarray(-numpy.ones(k - 1)), xp.asarray(2 * numpy.ones(k)), xp.asarray(-numpy.ones(k - 1))],
                 [-1, 0, 1], format="csr")
    i = sp.identity(k, format="csr")
    return (sp.kron(i, t, format="csr") + sp.kron(t, i, format="csr")).tocsr()


cg = register("sparse-cg", group="sparse", description="cg, 1000 iterations, 2-D Poisson, float64",
              size=1000, quick=300, size_label=lambda k: "{}^2 unknowns".format(k))


@cg.setup("cuarray", "cupy")
def _(xp, k, param):
    a = _poisson(xp, k)
    b = xp.asarray(numpy.random.default_rng(7).random(k * k))
    solve = _spla(xp).cg

    def run():
        try:
            return solve(a, b, maxiter=1000, rtol=0.0, atol=0.0)
        except TypeError:  # CuPy releases whose cg names the tolerance `tol`
            return solve(a, b, maxiter=1000, tol=0.0, atol=0.0)

    return run


def _host_bsr(rows: int, nnz: int, block: int, seed: int):
    """(data, indices, indptr) of a random BSR float64 matrix, rows x rows in block x block blocks,
    ~nnz stored values, block columns sorted within each block row."""
    nbr = rows // block
    rng = numpy.random.default_rng(seed)
    nnzb = max(1, nnz // (block * block))
    counts = rng.multinomial(nnzb, numpy.full(nbr, 1.0 / nbr))
    indptr = numpy.zeros(nbr + 1, numpy.int32)
    numpy.cumsum(counts, out=indptr[1:])
    brow = numpy.repeat(numpy.arange(nbr, dtype=numpy.int64), counts)
    cols = rng.integers(0, nbr, nnzb, dtype=numpy.int32)
    cols = cols[numpy.lexsort((cols, brow))]
    data = rng.random((nnzb, block, block)) + 0.5
    return data, cols, indptr


bsr_spmv = register("sparse-bsr-spmv", group="sparse", description="BSR SpMV, 4x4 blocks, 1e6 rows, float64 "
                    "(against SciPy on the host)", size=10**7, quick=10**6,
                    nbytes=lambda n, p: 8 * n + 4 * (n // 16) + 4 * (ROWS // 4 + 1) + 2 * 8 * ROWS)


@bsr_spmv.setup("cuarray", "numpy")
def _(xp, n, param):
    data, cols, indptr = _host_bsr(ROWS, n, 4, 9)
    x = numpy.random.default_rng(10).random(ROWS)
    if getattr(xp, "__name__", "") == "numpy":
        import scipy.sparse

        a = scipy.sparse.bsr_array((data, cols, indptr), shape=(ROWS, ROWS))
        return lambda: a @ x
    a = xp.sparse.bsr_array((xp.asarray(data), xp.asarray(cols), xp.asarray(indptr)), shape=(ROWS, ROWS))
    xd = xp.asarray(x)
    return lambda: a @ xd
