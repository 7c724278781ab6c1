"""Products, arithmetic, reductions, elementwise functions and indexing against scipy.sparse."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as ssp

import cuarray.sparse as sp

from ._util import D, H, assert_dense, assert_sparse, rand_coo, rand_values

PRODUCT_DTYPES = ["float32", "float64", "complex64", "complex128", "int64", "int32"]


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
@pytest.mark.parametrize("dtype", PRODUCT_DTYPES)
@pytest.mark.parametrize("density", [0.02, 0.3])
def test_spmv_spmm(dev, fmt, dtype, density):
    h = rand_coo(40, 31, density, dtype=dtype, seed=10).asformat(fmt)
    a = getattr(dev.sp, fmt + "_matrix")(h)
    rng = np.random.default_rng(11)
    x = rand_values(rng, 31, dtype)
    X = rand_values(rng, 31 * 5, dtype).reshape(31, 5)
    assert_dense(a @ D(x), h @ x, dtype=(h @ x).dtype)
    assert_dense(a @ D(X), h @ X, dtype=(h @ X).dtype)
    assert_dense(a.dot(D(x)), h.dot(x))
    assert_dense(a * D(x), h * x)                         # spmatrix: * is the product
    y = rand_values(rng, 40, dtype)
    assert_dense(D(y) @ a, y @ h)
    Y = rand_values(rng, 3 * 40, dtype).reshape(3, 40)
    assert_dense(D(Y) @ a, Y @ h)


def test_spmv_mixed_dtypes(dev):
    h = rand_coo(20, 20, 0.2, dtype="float32", seed=12).tocsr()
    a = dev.sp.csr_matrix(h)
    x = np.random.default_rng(13).random(20)
    r = a @ D(x)
    assert r.dtype == np.float64
    assert_dense(r, h @ x)


@pytest.mark.parametrize("dtype", ["float64", "complex64", "int64"])
@pytest.mark.parametrize("fmts", [("csr", "csr"), ("csc", "csc"), ("coo", "csr")])
def test_spgemm(dev, dtype, fmts):
    ha = rand_coo(30, 25, 0.1, dtype=dtype, seed=14).asformat(fmts[0])
    hb = rand_coo(25, 35, 0.1, dtype=dtype, seed=15).asformat(fmts[1])
    a, b = getattr(dev.sp, fmts[0] + "_matrix")(ha), getattr(dev.sp, fmts[1] + "_matrix")(hb)
    c = a @ b
    want = (ha @ hb).tocsr()
    want.sum_duplicates()
    assert_sparse(c, want)
    assert c.nnz == want.nnz
    if fmts == ("csc", "csc"):
        assert c.format == "csc"


def test_matrix_power_and_array_ops(dev):
    h = rand_coo(12, 12, 0.3, seed=16).tocsr()
    a = dev.sp.csr_matrix(h)
    assert_dense((a ** 3).toarray(), (h ** 3).toarray())
    arr = dev.sp.csr_array(h)
    assert_dense((arr ** 2).toarray(), (ssp.csr_array(h) ** 2).toarray())
    assert_dense((arr * arr).toarray(), h.multiply(h).toarray())
    with pytest.raises(ValueError):
        a @ 2


@pytest.mark.parametrize("dtype", ["bool", "int8", "int64", "float32", "float64", "complex64", "complex128"])
def test_scalar_division_dtypes(dev, dtype):
    """SciPy's rule: a dtype that casts safely to float64 is divided in float64 (a float32 matrix
    / 2 is float64, as CuPy's since it followed SciPy), a complex one keeps its type."""
    h = rand_coo(6, 5, 0.5, dtype=dtype, seed=84).tocsr()
    a = dev.sp.csr_array(h)
    for s in (2, 2.5, np.float32(4), 1 + 1j):
        got, want = a / s, h / s
        assert got.dtype == want.dtype, (s, got.dtype, want.dtype)
        assert_dense(got.toarray(), want.toarray())


@pytest.mark.parametrize("dtype", ["float64", "complex128", "int64"])
def test_add_sub_multiply(dev, dtype):
    ha = rand_coo(15, 18, 0.2, dtype=dtype, seed=17).tocsr()
    hb = rand_coo(15, 18, 0.2, dtype=dtype, seed=18).tocsr()
    a, b = dev.sp.csr_matrix(ha), dev.sp.csr_matrix(hb)
    assert_sparse(a + b, (ha + hb).tocsr())
    assert_sparse(a - b, (ha - hb).tocsr())
    assert (a - a).nnz == (ha - ha).nnz == 0
    assert_sparse(a.multiply(b), ha.multiply(hb).tocsr())
    assert_dense((a * 3).toarray(), (ha * 3).toarray())
    assert_dense((2 * a).toarray(), (2 * ha).toarray())
    assert_dense((a / 4).toarray(), (ha / 4).toarray())
    assert_dense((-a).toarray(), (-ha).toarray())
    assert_dense(abs(a).toarray(), abs(ha).toarray())
    d = rand_values(np.random.default_rng(19), 15 * 18, dtype).reshape(15, 18)
    assert_dense(a + D(d), ha + d)
    assert_dense(D(d) - a, d - ha)
    assert_dense(a.multiply(D(d)).toarray(), ha.multiply(d).toarray())
    assert_dense(a.power(2).toarray(), ha.power(2).toarray())
    assert_dense((a + 0).toarray(), ha.toarray())
    with pytest.raises(NotImplementedError):
        a + 1
    with pytest.raises(ValueError):
        a + dev.sp.csr_matrix((3, 3))


def test_maximum_minimum(dev):
    ha = rand_coo(10, 9, 0.3, seed=20).tocsr()
    hb = rand_coo(10, 9, 0.3, seed=21).tocsr()
    hb.data -= 0.5
    a, b = dev.sp.csr_matrix(ha), dev.sp.csr_matrix(hb)
    assert_sparse(a.maximum(b), ha.maximum(hb).tocsr())
    assert_sparse(a.minimum(b), ha.minimum(hb).tocsr())


@pytest.mark.parametrize("kind", ["matrix", "array"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "int32", "bool"])
def test_sum_mean(dev, kind, dtype):
    h = rand_coo(16, 11, 0.2, dtype=dtype, seed=22).tocsr()
    if kind == "array":
        h = ssp.csr_array(h)
    a = getattr(dev.sp, "csr_" + kind)(h)
    for axis in (None, 0, 1, -1):
        s, want = a.sum(axis=axis), h.sum(axis=axis)
        assert_dense(s, np.asarray(want), dtype=np.asarray(want).dtype)
        m, wantm = a.mean(axis=axis), h.mean(axis=axis)
        assert_dense(m, np.asarray(wantm), dtype=np.asarray(wantm).dtype)


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
def test_max_min(dev, fmt):
    h = rand_coo(14, 12, 0.25, seed=23).asformat(fmt)
    h.data -= 0.5
    a = getattr(dev.sp, fmt + "_array")(h)
    ha = ssp.csr_array(h)
    for axis in (None, 0, 1):
        want = ha.max(axis=axis)
        want = want.toarray() if hasattr(want, "toarray") else np.asarray(want)
        assert_dense(a.max(axis=axis), want)
        want = ha.min(axis=axis)
        want = want.toarray() if hasattr(want, "toarray") else np.asarray(want)
        assert_dense(a.min(axis=axis), want)


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
@pytest.mark.parametrize("k", [0, 2, -3])
def test_diagonal_setdiag(dev, fmt, k):
    h = rand_coo(10, 13, 0.3, seed=24).asformat(fmt)
    a = getattr(dev.sp, fmt + "_matrix")(h)
    assert_dense(a.diagonal(k), h.diagonal(k))
    assert_dense(a.trace(k), np.asarray(h.trace(k)))
    h2 = h.tolil()
    h2.setdiag(7.0, k)
    a.setdiag(7.0, k)
    assert_dense(a.toarray(), h2.toarray())
    vals = np.arange(1, 5, dtype=np.float64)
    h2.setdiag(vals, k)
    a.setdiag(D(vals), k)
    assert_dense(a.toarray(), h2.toarray())


@pytest.mark.parametrize("name", ["sqrt", "sin", "tanh", "expm1", "floor", "sign", "arcsinh", "deg2rad"])
@pytest.mark.parametrize("dtype", ["float64", "int8", "bool", "complex64"])
def test_ufunc_methods(dev, name, dtype):
    """SciPy's values and dtypes, and its errors: a float16 result (of bool or int8 data) is
    SciPy's ValueError, a ufunc with no loop for the type a TypeError."""
    h = rand_coo(9, 7, 0.3, seed=25, dtype=dtype).tocsr()
    a = dev.sp.csr_matrix(h)
    try:
        want = getattr(h, name)()
    except (ValueError, TypeError) as e:
        with pytest.raises(ValueError if isinstance(e, ValueError) else TypeError):
            getattr(a, name)()
        return
    got = getattr(a, name)()
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert_dense(got.toarray(), want.toarray())


def test_count_nonzero_getnnz(dev):
    h = rand_coo(13, 9, 0.3, seed=26).tocsr()
    h.data[::4] = 0
    a = dev.sp.csr_matrix((D(h.data), D(h.indices), D(h.indptr)), shape=h.shape)
    assert a.count_nonzero() == h.count_nonzero()
    assert a.nnz == h.nnz
    for axis in (0, 1):
        np.testing.assert_array_equal(H(a.getnnz(axis=axis)), h.getnnz(axis=axis))


@pytest.mark.parametrize("fmt", ["csr", "csc"])
def test_indexing(dev, fmt):
    h = rand_coo(17, 12, 0.3, seed=27).asformat(fmt)
    h.sum_duplicates()
    a = getattr(dev.sp, fmt + "_matrix")(h)
    for key in [3, -1, slice(2, 9), slice(None, None, 3), slice(10, 2, -2), [1, 5, 5, 0],
                (slice(None), 4), (slice(None), [0, 3, 3]), (slice(1, 5), slice(2, 7)),
                (np.array([True, False] * 8 + [True]),), (2, slice(None))]:
        got = a[key]
        want = h[key]
        assert_dense(got.toarray(), want.toarray())
    for i, j in [(3, 4), (-1, -2), (0, 0)]:
        assert_dense(a[i, j], np.asarray(h[i, j]))
    assert_dense(a[D(np.array([4, 1]))].toarray(), h[[4, 1]].toarray())
    with pytest.raises(IndexError):
        a[17]
    with pytest.raises(IndexError):
        a[0, -13]
    with pytest.raises(IndexError):
        a[[0, 20]]
    arr = getattr(dev.sp, fmt + "_array")(h)
    with pytest.raises(NotImplementedError):
        arr[3]
    assert_dense(arr[[3]].toarray(), h[[3]].toarray())


def test_shape_errors(dev):
    a = dev.sp.csr_matrix(rand_coo(4, 5, 0.5, seed=28).tocsr())
    with pytest.raises(ValueError):
        a @ D(np.ones(4))
    with pytest.raises(ValueError):
        a @ dev.sp.csr_matrix((4, 5))
    with pytest.raises(ValueError):
        a.multiply(dev.sp.csr_matrix((5, 4)))
    with pytest.raises(TypeError):
        a @ np.ones(5)


@pytest.mark.parametrize("op", ["__lt__", "__gt__", "__le__", "__ge__", "__eq__", "__ne__"])
def test_comparisons(dev, op):
    import warnings

    ha = rand_coo(8, 7, 0.3, seed=70).tocsr()
    hb = rand_coo(8, 7, 0.3, seed=71).tocsr()
    hb.data -= 0.6
    a, b = dev.sp.csr_matrix(ha), dev.sp.csr_matrix(hb)
    d = np.random.default_rng(72).random((8, 7)) - 0.5
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for other, hother in [(b, hb), (0.5, 0.5), (-0.5, -0.5), (0, 0)]:
            got, want = getattr(a, op)(other), getattr(ha, op)(hother)
            assert dev.sp.issparse(got) and got.dtype == np.bool_
            assert_dense(got.toarray(), want.toarray())
            if op in ("__lt__", "__gt__", "__ne__") and not np.isscalar(hother):
                assert got.nnz == want.nnz
        assert_dense(getattr(a, op)(D(d)), np.asarray(getattr(ha, op)(d)))


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
@pytest.mark.parametrize("shift", [0.0, 0.7, -2.0])
@pytest.mark.parametrize("kind", ["matrix", "array"])
def test_argmax_argmin(dev, fmt, shift, kind):
    h = rand_coo(12, 9, 0.35, seed=73).asformat(fmt)
    h.data = np.round(h.data - shift, 1)      # ties, negatives, explicit zeros
    h.sum_duplicates()
    cls = getattr(ssp, "csr_" + kind)
    hh = cls(h)
    a = getattr(dev.sp, "{}_{}".format(fmt, kind))(h)
    for axis in (None, 0, 1):
        for name in ("argmax", "argmin"):
            got = getattr(a, name)(axis=axis)
            want = getattr(hh, name)(axis=axis)
            if axis is None:
                assert got == int(want), (name, got, want)
            else:
                np.testing.assert_array_equal(H(got), np.asarray(want))


@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (0, 0)])
@pytest.mark.parametrize("kind", ["matrix", "array"])
def test_argmax_argmin_max_min_of_empty(dev, shape, kind):
    """Along an axis whose length is not zero, a matrix with no rows (or columns) gives an empty
    result, as SciPy's and NumPy's; along a zero-sized axis, or over everything, SciPy's
    ValueError."""
    h = getattr(ssp, "csr_" + kind)(shape)
    a = getattr(dev.sp, "csr_" + kind)(h)
    for name in ("argmax", "argmin", "max", "min"):
        for axis in (None, 0, 1):
            try:
                want = getattr(h, name)(axis=axis)
            except ValueError:
                with pytest.raises(ValueError):
                    getattr(a, name)(axis=axis)
                continue
            got = getattr(a, name)(axis=axis)
            got = got.toarray() if hasattr(got, "toarray") else H(got)
            want = want.toarray() if hasattr(want, "toarray") else np.asarray(want)
            assert got.shape == want.shape and got.size == 0, (name, axis, got.shape, want.shape)


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
def test_nonzero_reshape_rows(dev, fmt):
    h = rand_coo(6, 8, 0.3, seed=80).asformat(fmt)
    h.sum_duplicates()
    h.data[::3] = 0
    a = getattr(dev.sp, fmt + "_matrix")(h)
    r, c = a.nonzero()
    hr, hc = h.nonzero()
    # SciPy's order too: C order for CSR and CSC (SciPy sorts CSC's by row), storage order for COO
    assert list(zip(H(r).tolist(), H(c).tolist())) == list(zip(hr.tolist(), hc.tolist()))
    for shape, order in [((12, 4), "C"), ((4, 12), "F"), ((-1, 2), "C"), ((48, 1), "C")]:
        got, want = a.reshape(shape, order=order), h.reshape(shape, order=order)
        assert got.format == fmt and got.shape == want.shape
        assert_dense(got.toarray(), want.toarray())
    with pytest.raises(ValueError):
        a.reshape((5, 5))
    assert_dense(a.getrow(-2).toarray(), h.getrow(-2).toarray())
    assert_dense(a.getcol(3).toarray(), h.getcol(3).toarray())
    rows = [x.toarray() for x in a]
    assert len(rows) == 6
    assert_dense(rows[4], h.toarray()[4:5])


@pytest.mark.parametrize("fmt", ["csr", "csc"])
def test_setitem(dev, fmt):
    import warnings

    h = rand_coo(9, 7, 0.3, seed=81).asformat(fmt)
    h.sum_duplicates()
    a = getattr(dev.sp, fmt + "_matrix")(h)
    rng = np.random.default_rng(82)
    cases = [((2, 3), 5.0), ((0, slice(None)), 0.0), ((slice(1, 4), [0, 6]), 7.5), (([1, 8], [2, 2]), -1.0),
             ((slice(None), 5), D(np.arange(9.0))), ((-1, -1), 0.0),
             ((slice(2, 4), slice(0, 3)), rng.random((2, 3)))]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for key, val in cases:
            hv = H(val) if hasattr(val, "get") else val
            if isinstance(val, np.ndarray):
                val = D(val)
            if key == (slice(None), 5):
                hv = np.asarray(hv).reshape(-1, 1)
                val = val.reshape(-1, 1)
            h[key] = hv
            a[key] = val
            assert_dense(a.toarray(), h.toarray())
    assert a.has_canonical_format
    with pytest.raises(IndexError):
        a[9, 0] = 1.0
    with pytest.raises(ValueError):
        a[0:2, 0:2] = D(np.ones(3))


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "dia", "bsr"])
@pytest.mark.parametrize("dtype", ["float32", "complex64", "complex128", "int64"])
def test_real_imag(dev, fmt, dtype):
    h = rand_coo(5, 6, 0.4, seed=83, dtype=dtype).asformat(fmt)
    a = getattr(dev.sp, fmt + "_array")(h)
    for part in ("real", "imag"):
        got, want = getattr(a, part), getattr(h, part)
        assert got.format == want.format and got.dtype == want.dtype, (part, got.format, got.dtype, want.dtype)
        assert_dense(got.toarray(), want.toarray())
    # the values a view, as SciPy's (and NumPy's `.real`): a write reaches the matrix
    a.real.data[...] = 7
    h.real.data[...] = 7
    assert_dense(a.toarray(), h.toarray())
