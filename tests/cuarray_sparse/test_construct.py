"""eye, diags, kron, stacking, tril/triu/find, random against scipy.sparse."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as ssp

import cuarray.sparse as sp

from ._util import D, H, assert_dense, rand_coo


@pytest.mark.parametrize("fmt", [None, "csr", "csc", "coo"])
def test_eye_identity(dev, fmt):
    for args in [(5,), (4, 6), (6, 4)]:
        for k in (0, 1, -2):
            a = dev.sp.eye(*args, k=k, format=fmt)
            h = ssp.eye(*args, k=k, format=fmt)
            assert a.format == h.format
            assert_dense(a.toarray(), h.toarray())
    assert_dense(dev.sp.identity(4, dtype=np.int32).toarray(), ssp.identity(4, dtype=np.int32).toarray(),
                 dtype=np.int32)
    assert isinstance(dev.sp.eye_array(3), dev.sp.sparray)


def test_diags_spdiags(dev):
    d0, d1 = np.arange(1.0, 6.0), np.arange(1.0, 5.0)
    assert_dense(dev.sp.diags([D(d0), D(d1)], [0, 1]).toarray(), ssp.diags([d0, d1], [0, 1]).toarray())
    assert_dense(dev.sp.diags_array([D(d1), D(d0), D(d1)], offsets=[-1, 0, 1], format="csr").toarray(),
                 ssp.diags_array([d1, d0, d1], offsets=[-1, 0, 1]).toarray())
    assert_dense(dev.sp.diags(D(d0), 0, shape=(5, 7)).toarray(), ssp.diags(d0, 0, shape=(5, 7)).toarray())
    data = np.arange(12.0).reshape(3, 4)
    assert_dense(dev.sp.spdiags(D(data), [0, -1, 2], 4, 4).toarray(), ssp.spdiags(data, [0, -1, 2], 4, 4).toarray())
    with pytest.raises(ValueError):
        dev.sp.diags([D(d0), D(d0)], [0, 1])


def test_kron_kronsum(dev):
    ha = rand_coo(4, 3, 0.5, seed=30).tocsr()
    hb = rand_coo(3, 5, 0.5, seed=31).tocsr()
    assert_dense(dev.sp.kron(dev.sp.csr_matrix(ha), dev.sp.csr_matrix(hb)).toarray(), ssp.kron(ha, hb).toarray())
    hc = rand_coo(3, 3, 0.5, seed=32).tocsr()
    hd = rand_coo(4, 4, 0.5, seed=33).tocsr()
    assert_dense(dev.sp.kronsum(dev.sp.csr_matrix(hc), dev.sp.csr_matrix(hd)).toarray(), ssp.kronsum(hc, hd).toarray())


def test_stack_bmat_block_diag(dev):
    ha = rand_coo(4, 3, 0.5, seed=34).tocsr()
    hb = rand_coo(4, 2, 0.5, seed=35).tocsr()
    hc = rand_coo(2, 3, 0.5, seed=36, dtype="complex64").tocoo()
    a, b, c = dev.sp.csr_matrix(ha), dev.sp.csr_matrix(hb), dev.sp.coo_matrix(hc)
    assert_dense(dev.sp.hstack([a, b]).toarray(), ssp.hstack([ha, hb]).toarray())
    assert_dense(dev.sp.vstack([a, c], format="csr").toarray(), ssp.vstack([ha, hc]).toarray())
    assert dev.sp.vstack([a, c]).dtype == np.complex128
    assert_dense(dev.sp.bmat([[a, b], [c, None]]).toarray(), ssp.bmat([[ha, hb], [hc, None]]).toarray())
    assert_dense(dev.sp.block_diag([a, b, c]).toarray(), ssp.block_diag([ha, hb, hc]).toarray())
    with pytest.raises(ValueError):
        dev.sp.hstack([a, c])
    # block_array: a sparse array whatever the blocks (SciPy's bmat of matrices is a matrix)
    for fmt in (None, "csr"):
        got, want = dev.sp.block_array([[a, b], [c, None]], format=fmt), ssp.block_array([[ha, hb], [hc, None]], format=fmt)
        assert type(got).__name__ == type(want).__name__, (type(got).__name__, type(want).__name__)
        assert_dense(got.toarray(), want.toarray())
    assert type(dev.sp.bmat([[a, b], [c, None]])).__name__ == type(ssp.bmat([[ha, hb], [hc, None]])).__name__
    for f in (dev.sp.bmat, dev.sp.block_array):  # a 1-D list of blocks (it gave one matrix's rows)
        for blocks in ([a, a], [], [[a, a], [a]]):
            with pytest.raises(ValueError, match="blocks must be 2-D"):
                f(blocks)
    # SciPy's default format: CSR (CSC) where every block is CSR (CSC), COO otherwise
    hd = rand_coo(4, 3, 0.5, seed=38).tocsc()
    d = dev.sp.csc_matrix(hd)
    for got, want in ((dev.sp.hstack([a, b]), ssp.hstack([ha, hb])), (dev.sp.vstack([a, a]), ssp.vstack([ha, ha])),
                      (dev.sp.hstack([d, d]), ssp.hstack([hd, hd])), (dev.sp.vstack([d, d]), ssp.vstack([hd, hd])),
                      (dev.sp.bmat([[a, a], [a, a]]), ssp.bmat([[ha, ha], [ha, ha]])),
                      (dev.sp.bmat([[a, None], [None, a]]), ssp.bmat([[ha, None], [None, ha]])),
                      (dev.sp.hstack([a, d]), ssp.hstack([ha, hd])), (dev.sp.vstack([a, c]), ssp.vstack([ha, hc])),
                      (dev.sp.hstack([a, b], format="coo"), ssp.hstack([ha, hb], format="coo"))):
        assert got.format == want.format, (got.format, want.format)
        assert_dense(got.toarray(), want.toarray())


def test_random_takes_rng_or_random_state(dev):
    for f, args in ((dev.sp.random, (3, 4)), (dev.sp.rand, (3, 4)), (dev.sp.random_array, ((3, 4),))):
        with pytest.raises(TypeError, match="only one of"):
            f(*args, rng=1, random_state=1)


@pytest.mark.parametrize("k", [0, 1, -2])
def test_tril_triu_find(dev, k):
    h = rand_coo(9, 8, 0.4, seed=37).tocsr()
    a = dev.sp.csr_matrix(h)
    assert_dense(dev.sp.tril(a, k).toarray(), ssp.tril(h, k).toarray())
    assert_dense(dev.sp.triu(a, k, format="csr").toarray(), ssp.triu(h, k).toarray())
    r, c, v = dev.sp.find(a)
    hr, hc, hv = ssp.find(h)
    order = np.lexsort((hc, hr))
    np.testing.assert_array_equal(H(r), hr[order])
    np.testing.assert_array_equal(H(c), hc[order])
    np.testing.assert_allclose(H(v), hv[order])


@pytest.mark.gpu
@pytest.mark.parametrize("fmt", ["coo", "csr"])
@pytest.mark.parametrize("dtype", [None, np.float32, np.complex64, np.int32])
def test_random(fmt, dtype):
    a = sp.random(200, 300, density=0.05, format=fmt, dtype=dtype, random_state=1)
    assert a.format == fmt and a.shape == (200, 300) and a.nnz == 3000
    h = a.get().tocsr()
    h.sum_duplicates()
    assert h.nnz == 3000  # distinct cells
    assert a.dtype == np.dtype(np.float64 if dtype is None else dtype)
    b = sp.random_array((50, 40), density=0.1, random_state=2)
    assert isinstance(b, sp.sparray) and b.nnz == 200
    # SciPy's newer name: `rng`, in random_state's place (positional in random and rand)
    same = (sp.random_array((50, 40), density=0.1, rng=2), sp.random(50, 40, 0.1, "coo", None, 2),
            sp.rand(50, 40, 0.1, "coo", None, 2))
    for x in same:
        np.testing.assert_array_equal(x.toarray().get(), b.toarray().get())
