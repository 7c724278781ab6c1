"""bsr_array / bsr_matrix against scipy.sparse's (host shim and GPU, the `dev` fixture).

Random block matrices with unsorted and duplicate blocks, empty block rows and an all-zero
block; every float/complex dtype; blocksizes (1, 1), (2, 3) (rectangular: CSR products) and
(4, 4) (square: cuSPARSE's bsrmv/bsrmm on the GPU). Structures (indptr, indices, block order)
are compared exactly where SciPy's are determined by the same rule; values within the dtype's
rounding (sums of at most ~40 terms of size <= 1.1: n * eps well inside `assert_dense`'s 1e-4
(single) and 1e-10 (double) tolerances).
"""

from __future__ import annotations

import inspect

import numpy as np
import pytest
import scipy.sparse as ssp

from ._util import D, H, assert_dense, rand_values

DTYPES = ["float32", "float64", "complex64", "complex128"]
BLOCKS = [(1, 1), (2, 3), (4, 4)]


def rand_bsr(mb, nb, r, c, dtype, seed, kind="array"):
    """A SciPy BSR of mb x nb blocks of r x c: blocks unsorted within their block row, the
    first two repeated (duplicates), block row 1 empty, the last block all zeros."""
    rng = np.random.default_rng(seed)
    k = max(2, mb * nb // 2)
    brow = rng.integers(0, mb, k)
    brow[brow == 1] = 0 if mb > 2 else brow[brow == 1]
    bcol = rng.integers(0, nb, k)
    brow, bcol = np.concatenate([brow, brow[:2]]), np.concatenate([bcol, bcol[:2]])
    order = np.lexsort((rng.random(brow.size), brow))     # rows sorted, columns shuffled
    brow, bcol = brow[order], bcol[order]
    data = rand_values(rng, brow.size * r * c, dtype).reshape(-1, r, c)
    data[-1] = 0
    indptr = np.concatenate([[0], np.cumsum(np.bincount(brow, minlength=mb))]).astype(np.int32)
    cls = ssp.bsr_array if kind == "array" else ssp.bsr_matrix
    return cls((data, bcol.astype(np.int32), indptr), shape=(mb * r, nb * c))


def dev_bsr(dev, h, kind="array"):
    cls = dev.sp.bsr_array if kind == "array" else dev.sp.bsr_matrix
    return cls((D(h.data), D(h.indices), D(h.indptr)), shape=h.shape)


def sorted_bsr(h):
    """SciPy's BSR with its blocks sorted: SciPy's `tobsr` keeps blocks in their order of first
    appearance, cuarray's sorts them (the same matrix, canonical)."""
    h = h.copy()
    h.sort_indices()
    return h


def assert_same(a, h, exact_values=False):
    """Same structure (indptr, indices, blocksize) and values as the SciPy BSR `h`."""
    assert a.format == "bsr" and a.shape == h.shape and a.blocksize == h.blocksize
    np.testing.assert_array_equal(H(a.indptr), h.indptr)
    np.testing.assert_array_equal(H(a.indices), h.indices)
    assert H(a.data).dtype == h.data.dtype
    if exact_values:
        np.testing.assert_array_equal(H(a.data), h.data)
    else:
        assert_dense(H(a.data).reshape(-1, 1), h.data.reshape(-1, 1))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("blocksize", BLOCKS)
def test_conversions_and_canonical_form(dev, dtype, blocksize):
    r, c = blocksize
    h = rand_bsr(5, 4, r, c, dtype, seed=DTYPES.index(dtype) * 10 + BLOCKS.index(blocksize))
    a = dev_bsr(dev, h)
    assert a.nnz == h.nnz and a.blocksize == blocksize and a.dtype == np.dtype(dtype)
    assert_same(a, h, exact_values=True)
    assert_dense(a.toarray(), h.toarray())
    assert_dense(a.todense(), h.toarray())
    # tocsr/tocoo: every element of every block, in SciPy's order (a gather: values exact)
    hc, ac = h.tocsr(), a.tocsr()
    assert ac.format == "csr" and ac.nnz == hc.nnz
    for x, y in ((ac.indptr, hc.indptr), (ac.indices, hc.indices), (ac.data, hc.data)):
        np.testing.assert_array_equal(H(x), y)
    ho, ao = h.tocoo(), a.tocoo()
    for x, y in ((ao.row, ho.row), (ao.col, ho.col), (ao.data, ho.data)):
        np.testing.assert_array_equal(H(x), y)
    assert_dense(a.tocsc().toarray(), h.toarray())
    assert a.get().format == "bsr" and a.get().blocksize == blocksize
    c = a.copy()
    c.data[...] = 7
    c.indices[...] = 0
    assert_same(a, h, exact_values=True)                   # the copy owns its arrays
    # canonical form: flags, sort (stable, exact), sum of duplicate blocks
    assert not a.has_canonical_format and not h.has_canonical_format     # duplicate blocks
    assert a.has_sorted_indices == h.has_sorted_indices
    s, hs = a.sorted_indices(), h.sorted_indices()
    assert s.has_sorted_indices and a.has_sorted_indices == h.has_sorted_indices
    assert_same(s, hs, exact_values=True)
    a.sum_duplicates()
    h.sum_duplicates()
    assert a.has_canonical_format
    assert_same(a, h)
    a.eliminate_zeros()
    h.eliminate_zeros()
    assert_same(a, h)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("blocksize", BLOCKS)
def test_products_and_reductions(dev, dtype, blocksize):
    r, c = blocksize
    h = rand_bsr(6, 5, r, c, dtype, seed=100 + DTYPES.index(dtype) * 10 + BLOCKS.index(blocksize))
    h.sort_indices()   # sorted, duplicates kept: the case cuSPARSE's bsrmv/bsrmm take on the GPU
    a = dev_bsr(dev, h)
    rng = np.random.default_rng(3)
    m, n = h.shape
    x = rand_values(rng, n, dtype)
    xs = rand_values(rng, n * 3, dtype).reshape(n, 3)
    y = rand_values(rng, m, dtype)
    assert_dense(a @ D(x), h @ x, dtype)
    assert_dense(a.dot(D(x)), h @ x, dtype)
    assert_dense(a @ D(xs), h @ xs, dtype)
    assert_dense(a @ D(np.asfortranarray(xs)), h @ xs, dtype)
    assert_dense(D(y) @ a, y @ h, dtype)
    assert_dense(D(xs.T) @ a.T, xs.T @ h.T, dtype)
    assert_dense(a.H @ D(y), h.conj().T @ y, dtype)
    hm = ssp.bsr_matrix(h)
    assert_dense(dev_bsr(dev, hm, "matrix") * D(x), hm * x, dtype)     # spmatrix: * is @
    assert_dense(a.sum(), h.copy().sum())    # SciPy's sum() sums duplicates in place
    for axis in (0, 1):
        assert_dense(a.sum(axis=axis), h.copy().sum(axis=axis))
    for k in (-2, 0, 1):
        assert_dense(a.diagonal(k), h.diagonal(k))
    assert_dense(a.mean(), h.copy().mean())
    assert a.count_nonzero() == h.copy().count_nonzero() and a.getnnz() == h.nnz
    if np.dtype(dtype).kind == "f":
        assert_dense(a.max(), h.copy().max())
        assert_dense(a.min(), h.copy().min())
    t, ht = a.T, h.T
    assert t.blocksize == (c, r)
    assert_same(t, ht, exact_values=True)
    for got, want in ((2 * a, 2 * h), (a * 3, h * 3), (-a, -h),
                      (a.astype("complex128"), h.copy().astype("complex128")), (a.conj(), h.conj())):
        # SciPy's astype sums duplicates first; cuarray's keeps the stored blocks as they are
        assert got.format == "bsr" and got.blocksize == blocksize and got.dtype == want.dtype
        assert_dense(got.toarray(), want.toarray())


@pytest.mark.parametrize("dtype", ["float32", "complex128"])
@pytest.mark.parametrize("blocksize", BLOCKS)
def test_products_unsorted_and_integer(dev, dtype, blocksize):
    # unsorted blocks and integer values go through CSR (cuSPARSE's BSR routines want sorted
    # blocks and float/complex values)
    r, c = blocksize
    h = rand_bsr(4, 6, r, c, dtype, seed=11 + r)
    a = dev_bsr(dev, h)
    rng = np.random.default_rng(4)
    x, xs = rand_values(rng, h.shape[1], dtype), rand_values(rng, h.shape[1] * 2, dtype).reshape(-1, 2)
    assert_dense(a @ D(x), h @ x, dtype)
    assert_dense(a @ D(xs), h @ xs, dtype)
    if dtype == "float32":
        hi, ai = (h * 9).astype(np.int64), (a * 9).astype(np.int64)
        xi = np.arange(h.shape[1], dtype=np.int64)
        np.testing.assert_array_equal(H(ai @ D(xi)), hi @ xi)
        np.testing.assert_array_equal(H(D(xi[: h.shape[0]]) @ ai), xi[: h.shape[0]] @ hi)


@pytest.mark.parametrize("kind", ["array", "matrix"])
def test_construction_forms(dev, kind):
    cls = getattr(dev.sp, "bsr_" + kind)
    hcls = getattr(ssp, "bsr_" + kind)
    dense = np.zeros((6, 8))
    dense[0:2, 2:4] = [[1, 2], [3, 0]]
    dense[4:6, 0:2] = [[0, 0], [0, 5]]
    dense[4:6, 6:8] = [[6, 7], [8, 9]]
    for bs in [(2, 2), (3, 4), (1, 1), (6, 8)]:
        assert_same(cls(D(dense), blocksize=bs), sorted_bsr(hcls(dense, blocksize=bs)), exact_values=True)
    h = sorted_bsr(hcls(dense, blocksize=(2, 2)))
    for fmt in ("csr", "csc", "coo", "dia"):
        src = getattr(dev.sp, "{}_{}".format(fmt, kind))(D(dense))
        assert_same(cls(src, blocksize=(2, 2)), h, exact_values=True)
        assert_same(src.tobsr(blocksize=(2, 2)), h, exact_values=True)
        assert_same(src.asformat("bsr").tobsr((2, 2)), h, exact_values=True)
    assert_same(cls(h), h, exact_values=True)                      # a scipy.sparse BSR
    assert_same(cls(dev.sp.csr_array(D(dense)).tobsr((2, 2))), h)  # another BSR
    co = ssp.coo_array(dense)
    got = cls((D(co.data), (D(co.row), D(co.col))), shape=(6, 8), blocksize=(2, 2))
    assert_same(got, h, exact_values=True)
    e = cls((6, 9), blocksize=(3, 3), dtype=np.complex64)
    he = hcls((6, 9), blocksize=(3, 3), dtype=np.complex64)
    assert_same(e, he)
    assert e.nnz == 0 and H(e.toarray()).shape == (6, 9) and e.T.blocksize == (3, 3)
    assert_dense(e @ D(np.ones(9, np.complex64)), np.zeros(6, np.complex64))
    assert cls((4, 5)).blocksize == (1, 1) and cls((4, 5)).dtype == np.float64
    assert (kind == "matrix") == dev.sp.isspmatrix_bsr(cls((2, 2)))


@pytest.mark.parametrize("kind", ["array", "matrix"])
def test_npz_round_trip(dev, kind, tmp_path):
    h = sorted_bsr(rand_bsr(3, 2, 2, 3, "complex64", seed=31, kind=kind))
    path = str(tmp_path / "b.npz")
    dev.sp.save_npz(path, dev_bsr(dev, h, kind))
    back = dev.sp.load_npz(path)
    assert dev.sp.issparse(back) and dev.sp.isspmatrix_bsr(back) == (kind == "matrix")
    assert_same(back, h, exact_values=True)
    assert_same(dev_bsr(dev, ssp.load_npz(path), kind), h, exact_values=True)   # SciPy reads it too


def test_default_blocksize_is_scipys_estimate(dev):
    rng = np.random.default_rng(5)
    seen = set()
    for shape, bs, density in (((12, 12), 3, 0.5), ((12, 24), 4, 0.4), ((6, 6), 2, 0.6), ((10, 10), 1, 0.3),
                               ((36, 36), 6, 0.3), ((8, 12), 2, 0.5)):
        mask = np.kron(rng.random((shape[0] // bs, shape[1] // bs)) < density, np.ones((bs, bs)))
        dense = mask * (rng.random(shape) + 0.5)
        want = sorted_bsr(ssp.bsr_array(dense))
        seen.add(want.blocksize)
        assert_same(dev.sp.bsr_array(D(dense)), want, exact_values=True)
        assert_same(dev.sp.csr_array(D(dense)).tobsr(), want, exact_values=True)
    assert len(seen) >= 3, seen     # the heuristic's branches, not only (1, 1)


def test_tobsr_sums_duplicates_and_keeps_stored_zeros(dev):
    row = np.array([0, 0, 3, 1, 0, 5, 2])
    col = np.array([1, 1, 4, 0, 5, 5, 2])
    val = np.array([1.0, 2.0, 0.0, 4.0, 5.0, 6.0, -7.0])
    h = ssp.coo_array((val, (row, col)), shape=(6, 6)).tocsr()
    h.sum_duplicates()
    for bs in ((2, 2), (3, 3), (2, 3), (1, 1)):
        a = dev.sp.coo_array((D(val), (D(row), D(col))), shape=(6, 6)).tobsr(blocksize=bs)
        want = sorted_bsr(h.tobsr(blocksize=bs))
        assert a.has_sorted_indices
        assert_same(a, want)


def test_sparse_products_and_sums_in_scipys_format(dev):
    ha = rand_bsr(3, 4, 2, 3, "float64", seed=21)
    hb = rand_bsr(4, 2, 3, 2, "float64", seed=22)
    a, b = dev_bsr(dev, ha), dev_bsr(dev, hb)
    p, hp = a @ b, ha @ hb
    assert p.format == "bsr" and p.blocksize == hp.blocksize == (2, 2)
    assert_dense(p.toarray(), hp.toarray())
    hc = ssp.random_array((12, 5), density=0.4, rng=np.random.default_rng(1), format="csr")
    q = a @ dev.sp.csr_array(hc)
    assert q.format == "bsr" and q.blocksize == (ha @ hc).blocksize == (2, 1)
    assert_dense(q.toarray(), (ha @ hc).toarray())
    r = dev.sp.csr_array(hc.T.tocsr()) @ a.T
    assert r.format == "csr"
    assert_dense(r.toarray(), (hc.T @ ha.T).toarray())
    for got, want in ((a + a, ha + ha), (a - 2 * a, ha - 2 * ha), (a.multiply(a), ha.multiply(ha))):
        assert got.format == "bsr" and got.blocksize == want.blocksize
        assert_dense(got.toarray(), want.toarray())


def test_solvers_take_bsr(dev):
    # SPD with eigenvalues in [n, n + ||B||^2]: condition number below 3, so CG reaches 1e-10
    # in a few dozen iterations and x matches the dense solve to ~cond * rtol.
    rng = np.random.default_rng(8)
    n = 24
    bmat = rng.random((n, n)) * (rng.random((n, n)) < 0.2)
    dense = bmat @ bmat.T + n * np.eye(n)
    b = rng.random(n)
    want = np.linalg.solve(dense, b)
    for bs in ((2, 2), (3, 3), (4, 6)):
        a = dev.sp.bsr_array(D(dense), blocksize=bs)
        x, info = dev.cla.cg(a, D(b), rtol=1e-10, atol=0)
        assert info == 0
        np.testing.assert_allclose(H(x), want, rtol=1e-8, atol=1e-12)
        x, info = dev.cla.gmres(dev.sp.bsr_matrix(a), D(b), rtol=1e-10, atol=0)
        assert info == 0
        np.testing.assert_allclose(H(x), want, rtol=1e-8, atol=1e-12)


def test_errors_are_scipys(dev):
    sp = dev.sp
    with pytest.raises(ValueError, match="shape must be multiple of blocksize"):
        sp.bsr_array((5, 6), blocksize=(2, 3))
    with pytest.raises(ValueError, match=r"invalid blocksize \(2, 4\)"):
        sp.csr_array(D(np.ones((4, 6)))).tobsr((2, 4))
    with pytest.raises(ValueError, match=r"invalid blocksize \(2, 4\)"):
        sp.bsr_array(D(np.ones((4, 6))), blocksize=(2, 4))
    data, ind, ptr = D(np.ones((2, 2, 3))), D(np.array([0, 1])), D(np.array([0, 1, 2]))
    with pytest.raises(ValueError, match=r"mismatching blocksize=\(2, 2\) vs \(2, 3\)"):
        sp.bsr_array((data, ind, ptr), blocksize=(2, 2))
    with pytest.raises(ValueError, match="BSR data must be 3-dimensional"):
        sp.bsr_array((D(np.ones((2, 2))), ind, ptr))
    with pytest.raises(ValueError, match=r"index pointer size \(3\) should be \(4\)"):
        sp.bsr_array((D(np.ones((2, 2, 2))), ind, ptr), shape=(6, 4))
    with pytest.raises(ValueError, match="invalid blocksize"):
        sp.bsr_array((4, 4), blocksize=(2, 2, 1))
    with pytest.raises(ValueError, match="don't support 3D input"):
        sp.bsr_array(D(np.ones((2, 2, 2))))
    with pytest.raises(TypeError, match="host data"):
        sp.bsr_array(np.eye(4), blocksize=(2, 2))
    a = sp.bsr_array(D(np.eye(4)), blocksize=(2, 2))
    with pytest.raises(NotImplementedError):
        a[0, 0]
    with pytest.raises(NotImplementedError):
        a[0, 0] = 1.0
    assert a.shape == (4, 4) and sp.bsr_array((D(np.ones((1, 2, 2))), D(np.array([1])),
                                               D(np.array([0, 1])))).shape == (2, 4)


def test_signatures_are_scipys():
    import cuarray.sparse as sp
    from cuarray.scipy import sparse as csp

    for cls in ("bsr_array", "bsr_matrix", "csr_array", "coo_matrix", "csc_array"):
        for meth in ("tobsr",) + (("__init__", "tocoo", "tocsr", "transpose", "sort_indices")
                                  if cls.startswith("bsr") else ()):
            assert inspect.signature(getattr(getattr(sp, cls), meth)) == \
                inspect.signature(getattr(getattr(ssp, cls), meth)), (cls, meth)
    assert csp.bsr_array is sp.bsr_array and csp.bsr_matrix is sp.bsr_matrix
    assert csp.isspmatrix_bsr is sp.isspmatrix_bsr
