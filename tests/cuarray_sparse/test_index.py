"""CSR/CSC indexing and assignment against scipy.sparse, on the host shim and on the GPU (`dev`):
element pairs of index arrays, SciPy's broadcasting of 2-D index arrays, whole selections as
copies, and assignment of host values with SciPy's structure (explicit zeros, last-wins)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.sparse as ssp

import cuarray

from ._util import D, H, rand_coo

DTYPES = ["float32", "float64", "complex64", "complex128"]

# Index pairs as cupyx's tests and SciPy's docs write them: duplicates, negatives, broadcasting.
PAIRS = [
    ([1, 5, 4], [1, 5, 4]),
    ([2, 0, 10, 0, 2], [9, 2, 1, 0, 2]),
    ([2, 0, 2], [2, 1, 2]),
    ([-1, 0, -13], [3, -12, 0]),
    ([0], [0]),
    ([4], [1, 2, 3]),                     # broadcasts to 3 pairs
    ([[1], [2]], [3, 4, 11]),             # a column with a row: rows x columns
    ([[1], [2]], [[3, 4]]),
    ([[1, 2], [3, 4]], [[0, 1], [2, 3]]),  # 2-D pairs: a sparse result of that shape
    ([[1, 2]], [[3], [4]]),
    (0, [[1], [2]]),                      # an integer joins the broadcast (SciPy gives COO here)
    ([[1, 2]], 0),
    (3, [[1, 2]]),
    ([[]], [1]),
]


def _mat(dev, fmt, kind, dtype, shape=(13, 12), seed=0):
    h = rand_coo(*shape, 0.4, dtype=dtype, seed=seed).asformat(fmt)
    h.sum_duplicates()
    return getattr(ssp, "{}_{}".format(fmt, kind))(h), getattr(dev.sp, "{}_{}".format(fmt, kind))(h)


def _same(got, want, where):
    """`got` (cuarray's) is what SciPy's `want` is: sparse of the same format and values, or a
    dense array of the same shape, dtype and values (np.matrix: a 2-D cuarray array)."""
    if ssp.issparse(want):
        assert hasattr(got, "tocoo"), "{}: SciPy gave a sparse {}, cuarray a {}".format(
            where, want.format, type(got).__name__)
        assert got.format == want.format, "{}: format {} from SciPy, {} from cuarray".format(
            where, want.format, got.format)
        g, w = H(got.toarray()), want.toarray()
    else:
        assert not hasattr(got, "tocoo"), "{}: SciPy gave a dense {}, cuarray a sparse {}".format(
            where, type(want).__name__, got.format)
        g, w = H(got), np.asarray(want)
    assert g.shape == w.shape and g.dtype == w.dtype, "{}: {} {} from cuarray, {} {} from SciPy".format(
        where, g.shape, g.dtype, w.shape, w.dtype)
    np.testing.assert_array_equal(g, w, err_msg=where)


@pytest.mark.parametrize("kind", ["matrix", "array"])
@pytest.mark.parametrize("fmt", ["csr", "csc"])
@pytest.mark.parametrize("dtype", DTYPES)
def test_index_array_pairs(dev, fmt, kind, dtype):
    h, a = _mat(dev, fmt, kind, dtype)
    for r, c in PAIRS:
        want = h[r, c]
        for form in ("list", "int32", "int64", "device"):
            def conv(x):
                if isinstance(x, int) or form == "list":
                    return x
                x = np.asarray(x, dtype=np.int64 if form == "device" else form)
                return D(x) if form == "device" else x
            _same(a[conv(r), conv(c)], want, "{}[{!r}, {!r}] ({})".format(type(h).__name__, r, c, form))


@pytest.mark.parametrize("fmt", ["csr", "csc"])
def test_index_pairs_sum_duplicates_of_unsorted_input(dev, fmt):
    # Stored duplicates, unsorted indices: a pair reads their sum, as SciPy; the input is unchanged.
    data = np.array([1.0, 2.0, 4.0, 8.0, 16.0])
    indices = np.array([3, 1, 3, 0, 2])
    indptr = np.array([0, 3, 3, 5])
    h = getattr(ssp, fmt + "_matrix")((data, indices, indptr), shape=(3, 4) if fmt == "csr" else (4, 3))
    a = getattr(dev.sp, fmt + "_matrix")((D(data), D(indices), D(indptr)), shape=h.shape)
    r, c = ([0, 0, 2, 1, 2], [3, 1, 0, 2, 2]) if fmt == "csr" else ([3, 1, 0, 2, 2], [0, 0, 2, 1, 2])
    _same(a[r, c], h[r, c], "pairs of a non-canonical " + fmt)
    assert a.nnz == 5 and np.array_equal(H(a.indices), indices)


@pytest.mark.parametrize("kind", ["matrix", "array"])
@pytest.mark.parametrize("fmt", ["csr", "csc"])
def test_index_errors_as_scipy(dev, fmt, kind):
    h, a = _mat(dev, fmt, kind, "float64")
    for key in [([1, 13], [0, 1]), ([1, -14], [0, 1]), ([0, 1], [12, 0]), ([1, 2, 3], [1, 2, 3, 4]),
                [[0, 0], [1, 1]], (slice(None), [[1], [2]]), ([[1], [2]], slice(None)), "foo", (2, "foo"),
                (0, 0, 0)]:
        with pytest.raises(IndexError):
            h[key]
        with pytest.raises(IndexError):
            a[key]
    if kind == "array":  # SciPy's result is a 1-D sparse array
        with pytest.raises(NotImplementedError):
            a[[], []]


@pytest.mark.parametrize("fmt", ["csr", "csc"])
def test_index_whole_selections_are_copies(dev, fmt):
    shares = np.shares_memory if dev == "host" else cuarray.shares_memory
    for shape in [(1, 9), (9, 1), (6, 7)]:
        h, a = _mat(dev, fmt, "matrix", "float32", shape=shape, seed=3)
        for key in [(), (Ellipsis,), (slice(None), slice(None)), -1, (slice(None), -1), (slice(0, shape[0]),),
                    (np.array(-1), slice(None))]:
            want, got = h[key], a[key]
            where = "{}{}[{!r}]".format(fmt, shape, key)
            _same(got, want, where)
            for part in ("data", "indices", "indptr"):
                assert not shares(getattr(got, part), getattr(a, part)), where + " shares " + part


def test_index_0d_integer_arrays(dev):
    h, a = _mat(dev, "csr", "matrix", "complex128")
    for key in [(np.array(3), [1, 2]), ([1, 2], np.array(-2)), (D(np.array(4)), D(np.array([0, 5]))),
                (D(np.array(2)), D(np.array(-1))), (np.int32(1), slice(2, 5))]:
        _same(a[key], h[tuple(np.asarray(H(k)) if hasattr(k, "get") else k for k in key)], repr(key))


# ---- assignment ------------------------------------------------------------------------------------

XS = ssp.random(1, 5, density=0.8, format="csr", random_state=2)
SET_CASES = [
    ((slice(2, 4), slice(0, 2)), [[4], [1]]),
    ((slice(2, 4), slice(0, 2)), [[4, 5], [6, 7]]),
    ((slice(2, 4), 0), [[4], [6]]),
    (([0, 5, 10, 2], 0), [1, 2, 3, 2]),
    (([0, 5, 10, 2, 0, 10], [1, 2, 3, 4, 1, 3]), np.array([1, 2, 3, 4, 5, 6])),   # last wins
    (([1, 2, 3, 4, 1, 6, 1, 8, 9], [1, 5, 2, 3, 4, 5, 4, 1, 5]), 5),
    ((slice(None), 3), np.arange(12.0).reshape(-1, 1)),
    ((slice(1, 10, 2), [1, 5, 4]), 0.0),         # zeros are stored where nothing was (SciPy)
    (([1, 5, 4], slice(5, 1, -1)), np.array(7)),
    ((-1, -2), 0),
    (([0, 1, 2, 3, 5], [1, 2, 3, 4, 5]), "XS"),
    (([[0], [1], [2], [3], [5]], [1, 2, 3, 4, 5]), "XS"),
    (([0, 2, 4, 5, 6], 1), "XS"),
    ((slice(2, 4), slice(0, 3)), "S13"),
    ((slice(2, 4), slice(0, 3)), "S21"),
]


def _value(val, dev):
    if isinstance(val, str):
        x = XS if val == "XS" else ssp.random(int(val[1]), int(val[2]), density=0.6, format="csr", random_state=3)
        return x, dev.sp.csr_matrix(x)
    return val, val


@pytest.mark.parametrize("fmt", ["csr", "csc"])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("density", [0.5, 0.0])
def test_setitem_as_scipy(dev, fmt, dtype, density):
    # cupyx's comparison: the same indptr, indices and data after sort_indices (explicit zeros too).
    h0 = ssp.random(12, 11, density=density, format=fmt, dtype=dtype, random_state=7)
    for key, val in SET_CASES:
        hv, dv = _value(val, dev)
        for form in ("host", "device"):
            k, v = key, dv
            if form == "device":  # keys and dense values as cuarray arrays
                k = tuple(D(x) if isinstance(x, list) else x for x in key)
                v = D(dv) if isinstance(dv, np.ndarray) else dv
            h, a = h0.copy(), getattr(dev.sp, fmt + "_matrix")(h0)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ssp.SparseEfficiencyWarning)
                h[key] = hv
            a[k] = v
            h.sort_indices()
            a.sort_indices()
            where = "{} A[{!r}] = {!r} ({} key)".format(fmt, key, val, form)
            for part in ("indptr", "indices", "data"):
                np.testing.assert_array_equal(H(getattr(a, part)), getattr(h, part), err_msg=where + ": " + part)


@pytest.mark.parametrize("fmt", ["csr", "csc"])
def test_setitem_errors_as_scipy(dev, fmt):
    h0 = ssp.random(6, 5, density=0.5, format=fmt, random_state=8)
    cases = [((0, 0), [1, 2], ValueError), ((slice(0, 2), slice(0, 2)), np.ones(3), ValueError),
             (([1, 2], [1, 2, 3]), 1, IndexError), ((6, 0), 1, IndexError), (([1, -7],), 1, IndexError),
             ((0, 0), 1 + 2j, TypeError), ((slice(0, 2), slice(0, 2)), "S32", ValueError)]
    for key, val, exc in cases:
        hv, dv = _value(val, dev)
        h, a = h0.copy(), getattr(dev.sp, fmt + "_matrix")(h0)
        with pytest.raises(exc):
            h[key] = hv
        with pytest.raises(exc):
            a[key] = dv


@pytest.mark.parametrize("dtype", ["float32", "complex128"])
def test_coo_array_indexing(dev, dtype):
    # SciPy's coo_array indexes (coo_matrix does not): 2-D results as COO; its 1-D and n-D results
    # are sparse arrays cuarray.sparse does not have.
    h = rand_coo(9, 8, 0.4, dtype=dtype, seed=5)  # duplicates: read summed
    hh, a = ssp.coo_array(h), dev.sp.coo_array(h)
    for key in [(slice(1, 7), slice(None, None, 2)), [3, 0, 3, -1], (slice(None), [7, 1]),
                ([[1], [2]], [3, 4, 5]), ([[1, 2], [3, 4]], [[0, 1], [2, 3]]), (), (4, 5), (-1, -8)]:
        _same(a[key], hh[key], "coo_array[{!r}]".format(key))
    for key in [([1, 2], [3, 4]), 3, (slice(None), 2), (slice(None), [[1], [2]])]:
        hh[key]
        with pytest.raises(NotImplementedError):
            a[key]
    for key in [([1, 9], [0, 0]), (0, 8)]:
        with pytest.raises(IndexError):
            hh[key]
        with pytest.raises(IndexError):
            a[key]
    with pytest.raises(TypeError):
        h[0, 0]
    with pytest.raises(TypeError):
        dev.sp.coo_matrix(h)[0, 0]


@pytest.mark.parametrize("kind", ["matrix", "array"])
@pytest.mark.parametrize("fmt", ["csr", "csc"])
def test_index_2d_boolean_mask(dev, fmt, kind):
    # SciPy reads a mask of the matrix's shape as the pairs of its True cells (row-major order).
    h, a = _mat(dev, fmt, kind, "float64", seed=6)
    mask = np.random.default_rng(7).random(h.shape) < 0.3
    for form in (mask, mask.tolist(), D(mask), (mask,)):
        _same(a[form], h[mask], "{}[mask] ({})".format(fmt, type(form).__name__))
    h2, a2 = h.copy(), a.copy()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ssp.SparseEfficiencyWarning)
        h2[mask] = 7.0
    a2[D(mask)] = 7.0
    _same(a2, h2, fmt + "[mask] = 7")
    for bad in (mask[:-1], mask[:, :1], (mask, slice(None))):
        with pytest.raises(IndexError):
            h[bad]
        with pytest.raises(IndexError):
            a[bad]
