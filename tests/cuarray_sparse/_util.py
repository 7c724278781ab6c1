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


def _apart(x, m, step):
    """x with its m largest values moved up, and its m smallest down, to `step` apart from each
    other and from the rest."""
    o = np.argsort(x)
    x = x.copy()
    x[o[-m:]] = x[o[-m - 1]] + step * np.arange(1, m + 1)
    x[o[:m]] = x[o[m]] - step * np.arange(m, 0, -1)
    return x


def normal_plus(n, dtype, seed=3, apart=False):
    """A nonsymmetric sparse matrix whose eigenvalues are well conditioned and complex: a normal
    matrix (2 x 2 rotation-scaling blocks a +- ib for a real dtype, a diagonal a + ib for a complex
    one; a and b cubes of uniform numbers, |a| <= 3, |b| <= 1) under a random permutation, plus
    a small random perturbation. As drawn, an end of the spectrum may be crowded (seed 3, n 1600:
    the three leftmost conjugate pairs within 0.007; the largest imaginary parts within 0.004),
    hard for Arnoldi and ARPACK alike. `apart`: the 8 largest and 8 smallest a, and b (for a real
    dtype, whose eigenvalues come in conjugate pairs, the largest |b|), moved 0.15 apart, so that
    each `which` wants well separated eigenvalues (with b 0.05 apart, SciPy's 'LI' still missed
    one for one start in eight)."""
    rng = np.random.default_rng(seed)
    m = n // 2
    a, b = 3 * rng.uniform(-1, 1, m) ** 3, rng.uniform(-1, 1, m) ** 3
    if np.dtype(dtype).kind == "c":
        m = n
        a, b = 3 * rng.uniform(-1, 1, m) ** 3, rng.uniform(-1, 1, m) ** 3
    if apart:
        a = _apart(a, 8, 0.15)
        b = _apart(b, 8, 0.15) if np.dtype(dtype).kind == "c" else _apart(np.abs(b), 8, 0.15)
    if np.dtype(dtype).kind == "c":
        d = ssp.diags(a + 1j * b)
    else:
        i = np.arange(m)
        rows = np.concatenate([2 * i, 2 * i, 2 * i + 1, 2 * i + 1])
        cols = np.concatenate([2 * i, 2 * i + 1, 2 * i, 2 * i + 1])
        d = ssp.coo_matrix((np.concatenate([a, b, -b, a]), (rows, cols)), shape=(n, n))
    p = ssp.eye(n, format="csr")[rng.permutation(n)]
    e = ssp.random(n, n, density=2.0 / n, random_state=seed, data_rvs=lambda k: rng.uniform(-1e-3, 1e-3, k))
    return (p @ d @ p.T + e).tocsr().astype(dtype)
