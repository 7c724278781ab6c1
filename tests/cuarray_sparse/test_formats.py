"""Construction, conversions and canonical form against scipy.sparse (host shim and GPU)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as ssp

from ._util import D, H, assert_dense, assert_sparse, rand_coo

FORMATS = ["csr", "csc", "coo", "dia"]
DTYPES = ["float32", "float64", "complex64", "complex128", "int32", "int64", "bool"]


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("kind", ["matrix", "array"])
def test_from_scipy_and_get(dev, fmt, kind):
    h = rand_coo(20, 13, 0.2, seed=1).asformat(fmt)
    cls = getattr(dev.sp, "{}_{}".format(fmt, kind))
    a = cls(h)
    assert a.format == fmt and a.shape == (20, 13) and a.dtype == h.dtype
    back = a.get()
    assert type(back).__name__ == "{}_{}".format(fmt, kind)
    assert_dense(back.toarray(), h.toarray())
    assert dev.sp.issparse(a) and dev.sp.isspmatrix(a) == (kind == "matrix")
    assert getattr(dev.sp, "isspmatrix_" + fmt)(a) == (kind == "matrix")


@pytest.mark.parametrize("dtype", DTYPES)
def test_coo_triplets_sum_duplicates(dev, dtype):
    h = rand_coo(30, 17, 0.15, dtype=dtype, seed=2)
    a = dev.sp.coo_matrix((D(h.data), (D(h.row), D(h.col))), shape=h.shape)
    assert a.row.dtype == np.int32 and a.dtype == h.dtype
    assert_dense(a.toarray(), h.toarray())
    c, hc = a.tocsr(), h.tocsr()
    assert c.has_canonical_format
    hc.sum_duplicates()
    np.testing.assert_array_equal(H(c.indptr), hc.indptr)
    np.testing.assert_array_equal(H(c.indices), hc.indices)
    np.testing.assert_allclose(H(c.data), hc.data, rtol=1e-5)
    assert c.indices.dtype == np.int32 and c.indptr.dtype == np.int32


def test_shape_inference_and_int64_inputs(dev):
    row = D(np.array([0, 3, 1], np.int64))
    col = D(np.array([2, 0, 4], np.int64))
    a = dev.sp.coo_array((D(np.array([1.0, 2.0, 3.0])), (row, col)))
    assert a.shape == (4, 5) and a.row.dtype == np.int32
    c = dev.sp.csr_matrix((D(np.array([1.0, 2.0])), D(np.array([0, 3], np.int64)), D(np.array([0, 1, 2], np.int64))))
    assert c.shape == (2, 4) and c.indices.dtype == np.int32


@pytest.mark.parametrize("fmt", ["csr", "csc"])
def test_compressed_triplet(dev, fmt):
    h = rand_coo(11, 9, 0.3, seed=3).asformat(fmt)
    cls = getattr(dev.sp, fmt + "_matrix")
    a = cls((D(h.data), D(h.indices), D(h.indptr)), shape=h.shape)
    assert_dense(a.toarray(), h.toarray())
    with pytest.raises(ValueError):
        cls((D(h.data), D(h.indices), D(h.indptr[:-1])), shape=h.shape)


@pytest.mark.parametrize("fmt", FORMATS)
def test_from_dense_and_shape(dev, fmt):
    rng = np.random.default_rng(4)
    d = rng.random((7, 5))
    d[d < 0.6] = 0
    a = getattr(dev.sp, fmt + "_matrix")(D(d))
    assert_dense(a.toarray(), d)
    z = getattr(dev.sp, fmt + "_array")((4, 6))
    assert z.dtype == np.float64 and z.nnz == 0 and H(z.toarray()).shape == (4, 6)
    f = getattr(dev.sp, fmt + "_matrix")((3, 2), dtype=np.complex64)
    assert f.dtype == np.complex64


def test_copy_semantics(dev):
    h = rand_coo(8, 8, 0.3, seed=5).tocsr()
    a = dev.sp.csr_matrix(h)
    b = dev.sp.csr_matrix(a)
    c = dev.sp.csr_matrix(a, copy=True)
    assert b.data is a.data and c.data is not a.data
    d = dev.sp.csr_array(a)
    assert isinstance(d, dev.sp.csr_array) and d.data is a.data


@pytest.mark.parametrize("src", FORMATS)
@pytest.mark.parametrize("dst", FORMATS)
def test_conversions(dev, src, dst):
    h = rand_coo(19, 23, 0.2, dtype="complex128", seed=6)
    a = dev.sp.coo_matrix(h).asformat(src)
    b = a.asformat(dst)
    assert b.format == dst
    assert_dense(b.toarray(), h.toarray())
    assert_dense(b.todense(), h.toarray())


@pytest.mark.parametrize("fmt", ["csr", "csc"])
def test_canonical_ops(dev, fmt):
    h = rand_coo(25, 21, 0.2, seed=7).asformat(fmt)  # duplicates, unsorted after conversion
    h.data[::5] = 0
    a = getattr(dev.sp, fmt + "_matrix")((D(h.data), D(h.indices), D(h.indptr)), shape=h.shape)
    assert a.has_canonical_format == h.has_canonical_format
    a.sort_indices()
    h.sort_indices()
    assert a.has_sorted_indices
    a.sum_duplicates()
    h.sum_duplicates()
    np.testing.assert_array_equal(H(a.indptr), h.indptr)
    np.testing.assert_array_equal(H(a.indices), h.indices)
    a.eliminate_zeros()
    h.eliminate_zeros()
    assert a.nnz == h.nnz
    np.testing.assert_array_equal(H(a.indices), h.indices)
    np.testing.assert_allclose(H(a.data), h.data)


def test_coo_canonical(dev):
    h = rand_coo(12, 10, 0.4, seed=8)
    a = dev.sp.coo_matrix(h)
    assert not a.has_canonical_format
    a.sum_duplicates()
    h.sum_duplicates()
    assert a.has_canonical_format and a.nnz == h.nnz
    np.testing.assert_array_equal(H(a.row), h.row)
    np.testing.assert_array_equal(H(a.col), h.col)


@pytest.mark.parametrize("fmt", FORMATS)
def test_transpose_conj_astype(dev, fmt):
    h = rand_coo(9, 14, 0.3, dtype="complex64", seed=9).asformat(fmt)
    a = getattr(dev.sp, fmt + "_matrix")(h)
    assert_dense(a.T.toarray(), h.T.toarray())
    assert_dense(a.conj().toarray(), h.conj().toarray())
    assert_dense(a.H.toarray(), h.conj().T.toarray())
    b = a.astype(np.complex128)
    assert b.dtype == np.complex128
    with pytest.raises(ValueError):
        a.transpose(axes=(0, 1))


def test_bad_input(dev):
    with pytest.raises(ValueError):
        dev.sp.csr_matrix(D(np.ones((2, 2), np.float16)))
    with pytest.raises(TypeError):
        dev.sp.csr_matrix(np.ones((2, 2)))
    with pytest.raises(ValueError):
        dev.sp.coo_matrix((D(np.ones(2)), (D(np.array([0, 1])), D(np.array([0])))))
    with pytest.raises(ValueError):
        dev.sp.csr_matrix((3, -1))
    a = dev.sp.csr_matrix(D(np.eye(3)))
    with pytest.raises(TypeError):
        len(a)
    with pytest.raises(TypeError):
        np.asarray(a)


@pytest.mark.parametrize("fmt", ["csr", "coo"])
@pytest.mark.parametrize("kind", ["matrix", "array"])
def test_save_load_npz(dev, tmp_path, fmt, kind):
    h = rand_coo(9, 6, 0.3, seed=60).asformat(fmt)
    a = getattr(dev.sp, "{}_{}".format(fmt, kind))(h)
    path = tmp_path / "m.npz"
    dev.sp.save_npz(path, a)
    b = dev.sp.load_npz(path)
    assert type(b) is type(a)
    assert_dense(b.toarray(), h.toarray())
