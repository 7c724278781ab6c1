"""Shared helpers: random SciPy matrices with duplicates and empty rows, device round trips."""

from __future__ import annotations

import numpy as np
import scipy.sparse as ssp

from cuarray._creation.from_data import asarray

from . import _host_shim


def D(a):
    """A device array (or the host shim's stand-in) of NumPy data."""
    return (_host_shim.host_asarray if _host_shim.active else asarray)(np.asarray(a))


def H(x):
    """Host copy of a device array or a 0-d result."""
    return x.get() if hasattr(x, "get") else np.asarray(x)


def rand_values(rng, n, dtype):
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.random(n) < 0.7
    if dt.kind in "iu":
        return rng.integers(1, 9, n).astype(dt)
    v = rng.random(n) + 0.1
    if dt.kind == "c":
        v = v + 1j * (rng.random(n) - 0.5)
    return v.astype(dt)


def rand_coo(m, n, density, dtype="float64", seed=0, dups=True, empty_rows=True):
    """A SciPy coo_matrix with random values, some duplicate entries and some empty rows."""
    rng = np.random.default_rng(seed)
    k = max(1, int(density * m * n)) if m and n else 0
    row = rng.integers(0, max(m, 1), k)
    col = rng.integers(0, max(n, 1), k)
    if empty_rows and m > 3:
        row = row[row % 3 != 1] if (row % 3 != 1).any() else row
        col = col[: row.size]
    if dups and row.size > 2:
        row = np.concatenate([row, row[:2]])
        col = np.concatenate([col, col[:2]])
    data = rand_values(rng, row.size, dtype)
    return ssp.coo_matrix((data, (row, col)), shape=(m, n))


def assert_dense(got, want, dtype=None):
    g = H(got)
    w = np.asarray(want.toarray() if hasattr(want, "toarray") else want)
    assert g.shape == w.shape, (g.shape, w.shape)
    if dtype is not None:
        assert g.dtype == np.dtype(dtype), (g.dtype, dtype)
    tol = 1e-4 if g.dtype in (np.float32, np.complex64) else 1e-10
    np.testing.assert_allclose(g, w, rtol=tol, atol=tol)


def assert_sparse(got, want, fmt=None):
    """Same values, dtype and shape; the same format when `fmt` is given."""
    h = got.get()
    assert h.shape == want.shape
    assert h.dtype == want.dtype, (h.dtype, want.dtype)
    if fmt is not None:
        assert got.format == fmt
    assert_dense(h.toarray(), want.toarray())
