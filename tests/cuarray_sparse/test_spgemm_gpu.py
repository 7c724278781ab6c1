"""CSR @ CSR on the device, every SpGEMM method (row-wise hash tables with long rows through
expand-sort or dense accumulators, and expand-sort), against
scipy.sparse with fresh random matrices: every value dtype, empty rows and operands, duplicate
entries, exact cancellation, rows in every bin of the row-wise plan and rows past them."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as ssp

import cuarray
import cuarray.sparse as sp
from cuarray.sparse import _matmul
from cuarray.sparse import _spgemm_plan as plan

pytestmark = pytest.mark.gpu

METHODS = ["rowwise", "rowwise-dense", "expand-sort"]
DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float32", "float64",
          "complex64", "complex128"]


def _values(rng, n, dtype, signed=False):
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.random(n) < 0.7
    if dt.kind in "iu":
        lo = -8 if signed and dt.kind == "i" else 1
        v = rng.integers(lo, 9, n)
        return v.astype(dt)
    v = rng.random(n) + 0.1
    if signed:
        v = v - 0.6
    if dt.kind == "c":
        v = v + 1j * (rng.random(n) - 0.5)
    return v.astype(dt)


def _random_csr(rng, m, n, density, dtype, signed=False):
    h = ssp.random(m, n, density=density, format="csr", random_state=rng, dtype=np.float64)
    h.data = _values(rng, h.nnz, dtype, signed)
    return h


def _want(ha, hb):
    w = (ha @ hb).tocsr()
    w.sum_duplicates()
    w.eliminate_zeros()
    return w


def _check(c, want, exact=None):
    """`c` (device CSR) equals SciPy's `want`: dtype, shape, canonical, no stored zeros, the same
    pattern, the same values (exactly for integer/bool, else to the dtype's tolerance)."""
    h = c.get()
    assert c.format == "csr"
    assert h.shape == want.shape and h.dtype == want.dtype, (h.shape, h.dtype, want.shape, want.dtype)
    assert c.has_sorted_indices and c.has_canonical_format
    ip, ix = h.indptr, h.indices
    for r in range(h.shape[0]):  # sorted strictly inside every row, on the host
        seg = ix[ip[r]:ip[r + 1]]
        assert np.all(seg[1:] > seg[:-1]), r
    assert not np.any(h.data == 0), "explicit zeros kept"
    if exact is None:
        exact = h.dtype.kind in "biu"
    if exact:
        np.testing.assert_array_equal(h.indptr, want.indptr)
        np.testing.assert_array_equal(h.indices, want.indices)
        np.testing.assert_array_equal(h.data, want.data)
    else:
        tol = 1e-4 if h.dtype in (np.float32, np.complex64) else 1e-11
        np.testing.assert_allclose(h.toarray(), want.toarray(), rtol=tol, atol=tol)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_random_every_dtype(method, dtype):
    rng = np.random.default_rng()
    ha = _random_csr(rng, 60, 45, 0.12, dtype)
    hb = _random_csr(rng, 45, 70, 0.1, dtype)
    c = _matmul.spgemm(sp.csr_matrix(ha), sp.csr_matrix(hb), method)
    _check(c, _want(ha, hb))


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("dtype", ["int8", "int32", "int64", "float32", "float64", "complex128"])
def test_cancellation_drops_exact_zeros(method, dtype):
    # Small integer values (exact in every dtype) of both signs: many sums are exactly zero, and
    # SciPy stores none of them.
    rng = np.random.default_rng()
    ha = _random_csr(rng, 80, 30, 0.2, dtype, signed=True)
    hb = _random_csr(rng, 30, 40, 0.3, dtype, signed=True)
    if np.dtype(dtype).kind in "fc":
        ha.data = np.round(ha.data * 4).astype(dtype)
        hb.data = np.round(hb.data * 4).astype(dtype)
        ha.eliminate_zeros()
        hb.eliminate_zeros()
    c = _matmul.spgemm(sp.csr_matrix(ha), sp.csr_matrix(hb), method)
    want = _want(ha, hb)
    ones = lambda h: ssp.csr_matrix((np.ones(h.nnz), h.indices, h.indptr), shape=h.shape)  # noqa: E731
    structural = (ones(ha) @ ones(hb)).nnz  # entries with at least one product
    assert structural > want.nnz or np.dtype(dtype).kind != "f", "the test should produce cancellations"
    _check(c, want, exact=True)


def test_cancellation_small_example():
    a = sp.csr_matrix(ssp.csr_matrix(np.array([[1.0, 1.0], [0.0, 2.0]])))
    b = sp.csr_matrix(ssp.csr_matrix(np.array([[1.0, 2.0], [-1.0, 3.0]])))
    c = a @ b
    h = c.get()
    np.testing.assert_array_equal(h.indptr, [0, 1, 3])
    np.testing.assert_array_equal(h.indices, [1, 0, 1])
    np.testing.assert_array_equal(h.data, [5.0, -2.0, 6.0])


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("shapes", [((0, 5), (5, 3)), ((4, 0), (0, 3)), ((4, 5), (5, 0)), ((3, 4), (4, 6))])
def test_empty_operands(method, shapes):
    (m, k), (k2, n) = shapes
    a = sp.csr_matrix((m, k), dtype=np.float32)
    b = sp.csr_matrix(_random_csr(np.random.default_rng(), k2, n, 0.5, "float32")) if k2 and n else \
        sp.csr_matrix((k2, n), dtype=np.float32)
    c = _matmul.spgemm(a, b, method)
    assert c.shape == (m, n) and c.nnz == 0 and c.dtype == np.float32
    assert c.indptr.get().tolist() == [0] * (m + 1)


@pytest.mark.parametrize("method", METHODS)
def test_no_products_but_entries(method):
    # A's entries all name empty rows of B: no product at all.
    ha = ssp.csr_matrix((np.ones(3), ([0, 1, 2], [1, 1, 3])), shape=(4, 5))
    hb = ssp.csr_matrix((np.ones(2), ([0, 2], [0, 4])), shape=(5, 6))
    c = _matmul.spgemm(sp.csr_matrix(ha), sp.csr_matrix(hb), method)
    assert c.nnz == 0 and c.shape == (4, 6)


@pytest.mark.parametrize("method", METHODS)
def test_duplicates_and_unsorted_inputs(method):
    # Non-canonical operands (repeated and unsorted columns), built from raw arrays.
    rng = np.random.default_rng()
    m, k, n = 50, 20, 30

    def raw(rows, cols):
        lens = rng.integers(0, 9, rows)
        ptr = np.concatenate(([0], np.cumsum(lens))).astype(np.int32)
        idx = rng.integers(0, cols, ptr[-1]).astype(np.int32)
        return _values(rng, ptr[-1], "float64"), idx, ptr

    da, ia, pa = raw(m, k)
    db, ib, pb = raw(k, n)
    ha, hb = ssp.csr_matrix((da, ia, pa), shape=(m, k)), ssp.csr_matrix((db, ib, pb), shape=(k, n))
    a = sp.csr_matrix((cuarray.asarray(da), cuarray.asarray(ia), cuarray.asarray(pa)), shape=(m, k))
    b = sp.csr_matrix((cuarray.asarray(db), cuarray.asarray(ib), cuarray.asarray(pb)), shape=(k, n))
    _check(_matmul.spgemm(a, b, method), _want(ha, hb))


def _every_bin_case(dtype, p=20000, long_row=60000):
    """A with rows whose product counts fall in every bin (and one row far past them), B with
    rows of 16 entries; and the bins the plan gives those rows."""
    rng = np.random.default_rng()
    k = 6000
    blen = 16
    bcols = np.concatenate([rng.choice(p, blen, replace=False) for _ in range(k)])
    hb = ssp.csr_matrix((_values(rng, k * blen, dtype), bcols, np.arange(0, k * blen + 1, blen)), shape=(k, p))
    # A entries per row: 0, then counts giving ub = 16 * n over 1 .. 4096 (all bins), repeated
    ns = [0, 1, 2, 3, 4, 5, 8, 9, 16, 17, 32, 33, 64, 65, 128, 129, 200, 256, 257, 300, long_row // blen]
    ns = ns * 3 + list(rng.integers(0, 40, 200))
    ptr = np.concatenate(([0], np.cumsum(ns)))
    acols = np.concatenate([rng.choice(k, n, replace=False) for n in ns]) if ptr[-1] else np.zeros(0, int)
    ha = ssp.csr_matrix((_values(rng, ptr[-1], dtype), acols, ptr), shape=(len(ns), k))
    row_of = np.repeat(np.arange(len(ns)), ns)
    ub = np.bincount(row_of, weights=np.diff(hb.indptr)[ha.indices], minlength=len(ns)).astype(np.int64)
    return ha, hb, plan.row_bin(ub, p, plan.table_bin_limit(dtype))


@pytest.mark.parametrize("cap", ["default", "uncapped"])  # uncapped: every table bin shared memory allows
@pytest.mark.parametrize("method", ["rowwise", "rowwise-dense"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128", "int32", "bool"])
def test_rows_in_every_bin(dtype, method, cap, monkeypatch):
    if cap == "uncapped":
        monkeypatch.setattr(plan, "TABLE_BIN_CAP", None)
    ha, hb, bins = _every_bin_case(dtype)
    want_bins = set(range(plan.table_bin_limit(dtype) + 1)) | {plan.BIG}
    assert want_bins <= set(bins.tolist()), sorted(set(bins.tolist()))
    c = _matmul.spgemm(sp.csr_matrix(ha), sp.csr_matrix(hb), method)
    _check(c, _want(ha, hb))
    old = _matmul.spgemm(sp.csr_matrix(ha), sp.csr_matrix(hb), "expand-sort")
    np.testing.assert_array_equal(c.indptr.get(), old.indptr.get())
    np.testing.assert_array_equal(c.indices.get(), old.indices.get())


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("p", [100, 5000])
def test_one_very_long_row(p, method):
    # One row of A names every row of B: 2e5 products; with p = 100 it still fits a shared table
    # (at most 100 distinct columns), with p = 5000 it takes the sort path.
    rng = np.random.default_rng()
    k = 4000
    hb = _random_csr(rng, k, p, min(1.0, 50 / p), "float64")
    ha = _random_csr(rng, 30, k, 0.002, "float64")
    ha = ssp.vstack([ha[:10], ssp.csr_matrix(_values(rng, k, "float64").reshape(1, k)), ha[10:]]).tocsr()
    c = _matmul.spgemm(sp.csr_matrix(ha), sp.csr_matrix(hb), method)
    _check(c, _want(ha, hb))


def test_int64_index_operands():
    rng = np.random.default_rng()
    ha = _random_csr(rng, 40, 30, 0.2, "float64")
    hb = _random_csr(rng, 30, 50, 0.2, "float64")
    # (the constructor narrows index arrays to int32: build the matrix from its parts)
    a = sp.csr_matrix._from_parts(cuarray.asarray(ha.data), cuarray.asarray(ha.indices.astype(np.int64)),
                                  cuarray.asarray(ha.indptr.astype(np.int64)), ha.shape)
    b = sp.csr_matrix(hb)
    assert a.indices.dtype == np.int64
    _check(a @ b, _want(ha, hb))


@pytest.mark.parametrize("fmts", [("csc", "csc"), ("coo", "csr"), ("csr", "csc")])
def test_formats_and_mixed_dtypes(fmts):
    rng = np.random.default_rng()
    ha = _random_csr(rng, 30, 25, 0.2, "float32").asformat(fmts[0])
    hb = _random_csr(rng, 25, 35, 0.2, "int16").asformat(fmts[1])
    a, b = getattr(sp, fmts[0] + "_matrix")(ha), getattr(sp, fmts[1] + "_matrix")(hb)
    c = a @ b
    want = _want(ha.tocsr(), hb.tocsr())
    assert c.dtype == want.dtype
    np.testing.assert_allclose(c.toarray().get(), want.toarray(), rtol=1e-5)
    if fmts == ("csc", "csc"):
        assert c.format == "csc"


@pytest.mark.parametrize("method", ["rowwise", "rowwise-dense"])
def test_power_law_rows_match_expand_sort(method):
    rng = np.random.default_rng()
    m = 3000
    lens = np.minimum((rng.pareto(1.2, m) * 3).astype(int), m)
    ptr = np.concatenate(([0], np.cumsum(lens)))
    idx = np.concatenate([rng.choice(m, n, replace=False) for n in lens])
    h = ssp.csr_matrix((rng.random(ptr[-1]) + 0.1, idx, ptr), shape=(m, m))
    a = sp.csr_matrix(h)
    c = _matmul.spgemm(a, a, method)
    _check(c, _want(h, h))
    old = _matmul.spgemm(a, a, "expand-sort")
    np.testing.assert_array_equal(c.indptr.get(), old.indptr.get())
    np.testing.assert_array_equal(c.indices.get(), old.indices.get())
    np.testing.assert_allclose(c.data.get(), old.data.get(), rtol=1e-12)


def test_default_method_and_unknown_method():
    assert _matmul.SPGEMM_METHOD in METHODS
    a = sp.csr_matrix(_random_csr(np.random.default_rng(), 5, 5, 0.5, "float64"))
    with pytest.raises(ValueError):
        _matmul.spgemm(a, a, "bogus")


@pytest.mark.parametrize("dtype", ["int8", "uint16", "int64", "complex64", "bool"])
def test_long_rows_dense_every_accumulator(dtype):
    # Long rows of the small integer, 64-bit, complex and bool accumulators through the dense path.
    ha, hb, _ = _every_bin_case(dtype)
    c = _matmul.spgemm(sp.csr_matrix(ha), sp.csr_matrix(hb), "rowwise-dense")
    _check(c, _want(ha, hb))


def test_matrix_power():
    h = _random_csr(np.random.default_rng(), 40, 40, 0.1, "float64")
    np.testing.assert_allclose((sp.csr_matrix(h) ** 3).toarray().get(), (h ** 3).toarray(), rtol=1e-12)
