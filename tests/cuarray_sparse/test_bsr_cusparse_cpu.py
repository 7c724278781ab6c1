"""BSR products on cuSPARSE's bsrmv/bsrmm without a GPU: `_matmul`'s BSR path and
`cuda/libs/cusparse.py`'s wrappers run on host-backed cuarray arrays (cuarray.testing.fake_device),
with a NumPy stand-in for nvmath.bindings.cusparse that takes its arguments by the names of
nvmath's own signatures (read from the installed bindings' docstrings) and computes what the
cuSPARSE documentation says: the pointer order, enum values, sizes and leading dimensions, and
the layouts (row-major blocks, B given transposed in column-major, C column-major) are checked
on the values against scipy.sparse."""

from __future__ import annotations

import ctypes
import re
import types

import numpy as np
import pytest
import scipy.sparse as ssp

from cuarray.cuda.libs import cusparse
from cuarray.sparse import _matmul
from cuarray.testing.fake_device import from_np, host_module, new_c, to_np

nvcs = pytest.importorskip("nvmath.bindings.cusparse")

_DT = {"s": np.float32, "d": np.float64, "c": np.complex64, "z": np.complex128}


def _read(ptr, count, dtype):
    dt = np.dtype(dtype)
    return np.frombuffer((ctypes.c_char * (count * dt.itemsize)).from_address(ptr), dt, count).copy()


def _write(ptr, values):
    v = np.ascontiguousarray(values)
    ctypes.memmove(ptr, v.ctypes.data, v.nbytes)


def _params(name):
    """Parameter names of nvmath's binding `name`, from its docstring's signature line."""
    first = getattr(nvcs, name).__doc__.strip().splitlines()[0]
    return [p.split()[-1] for p in re.match(r"\w+\((.*)\)", first).group(1).split(",")]


class FakeBsrLib:
    def __init__(self):
        self.calls = []
        self.descrs = 0

    def create_mat_descr(self):
        self.descrs += 1
        return 0xD0 + self.descrs

    def destroy_mat_descr(self, d):
        self.descrs -= 1

    def __getattr__(self, name):
        if not re.fullmatch("[sdcz]bsrm[vm]", name):
            raise AttributeError(name)

        def f(*args):
            kw = dict(zip(_params(name), args, strict=True))
            self.calls.append((name, kw))
            (self._mv if name.endswith("mv") else self._mm)(_DT[name[0]], kw)

        return f

    @staticmethod
    def _dense_a(dt, kw, mb, kb, bd):
        assert kw["dir_a"] == int(nvcs.Direction.ROW) and kw["trans_a"] == int(nvcs.Operation.NON_TRANSPOSE)
        nnzb = kw["nnzb"]
        vals = _read(kw["bsr_sorted_val_a"], nnzb * bd * bd, dt).reshape(nnzb, bd, bd)  # ROW: row-major
        ptr = _read(kw["bsr_sorted_row_ptr_a"], mb + 1, np.int32)
        ind = _read(kw["bsr_sorted_col_ind_a"], nnzb, np.int32)
        assert ptr[-1] == nnzb and (np.diff(ptr) >= 0).all() and ((ind >= 0) & (ind < kb)).all()
        return ssp.bsr_array((vals, ind, ptr), shape=(mb * bd, kb * bd)).toarray()

    def _mv(self, dt, kw):
        mb, nb, bd = kw["mb"], kw["nb"], kw["block_dim"]
        assert bd > 1
        a = self._dense_a(dt, kw, mb, nb, bd)
        alpha, beta = _read(kw["alpha"], 1, dt)[0], _read(kw["beta"], 1, dt)[0]
        y = alpha * (a @ _read(kw["x"], nb * bd, dt))
        if beta != 0:
            y = y + beta * _read(kw["y"], mb * bd, dt)
        _write(kw["y"], y.astype(dt))

    def _mm(self, dt, kw):
        mb, n, kb, bd = kw["mb"], kw["n"], kw["kb"], kw["block_size"]
        assert bd > 1
        a = self._dense_a(dt, kw, mb, kb, bd)
        k = kb * bd
        ldb, ldc = kw["ldb"], kw["ldc"]
        if kw["trans_b"] == int(nvcs.Operation.NON_TRANSPOSE):        # B: k x n, column-major
            assert ldb >= max(1, k)
            b = _read(kw["b"], ldb * n, dt).reshape(n, ldb)[:, :k].T
        else:                                                           # B: n x k, column-major; op(B) = B^T
            assert kw["trans_b"] == int(nvcs.Operation.TRANSPOSE) and ldb >= max(1, n)
            b = _read(kw["b"], ldb * k, dt).reshape(k, ldb)[:, :n]
        assert ldc >= max(1, mb * bd)
        alpha, beta = _read(kw["alpha"], 1, dt)[0], _read(kw["beta"], 1, dt)[0]
        assert beta == 0
        c = alpha * (a @ b)                                             # mb*bd x n, column-major
        mem = np.zeros((n, ldc), dt)
        mem[:, : mb * bd] = c.T
        _write(kw["c"], mem)


@pytest.fixture
def lib(monkeypatch):
    fake = FakeBsrLib()
    monkeypatch.setattr(cusparse, "bindings", lambda: fake)
    monkeypatch.setattr(cusparse, "handle", lambda: 7)
    return fake


def _host_matmul():
    return host_module(_matmul, {"empty": new_c})


def _bsr(h):
    """The BSR matrix as `_matmul` sees it, over host-backed cuarray arrays."""
    return types.SimpleNamespace(shape=h.shape, blocksize=h.blocksize, data=from_np(h.data),
                                 indices=from_np(h.indices), indptr=from_np(h.indptr), _format="bsr",
                                 has_sorted_indices=True)


def _rand(mb, kb, bd, dtype, seed):
    rng = np.random.default_rng(seed)
    h = ssp.random_array((mb * bd, kb * bd), density=0.3, rng=rng, dtype=np.float64).tobsr((bd, bd))
    h.sort_indices()
    data = rng.random(h.data.shape) + (1j * rng.random(h.data.shape) if np.dtype(dtype).kind == "c" else 0)
    return ssp.bsr_array((data.astype(dtype), h.indices.astype(np.int32), h.indptr.astype(np.int32)),
                         shape=h.shape)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("bd", [2, 3])
def test_bsrmv_and_bsrmm_plumbing(lib, dtype, bd):
    mm = _host_matmul()
    h = _rand(4, 5, bd, dtype, seed=bd)
    a = _bsr(h)
    dt = np.dtype(dtype)
    tol = 1e-5 if dt in (np.float32, np.complex64) else 1e-12
    x = np.random.default_rng(1).random(h.shape[1]).astype(dtype)
    assert mm._bsr_on_cusparse(a, dt)
    y = to_np(mm._bsr_mv(a, from_np(x), dt))
    np.testing.assert_allclose(y, h @ x, rtol=tol)
    for k in (1, 3):
        b = np.random.default_rng(k).random((h.shape[1], k)).astype(dtype)
        c = to_np(mm._bsr_mm(a, from_np(b), dt))
        assert c.shape == (h.shape[0], k)
        np.testing.assert_allclose(c, h @ b, rtol=tol)
    names = [n for n, _ in lib.calls]
    assert names == [{"float32": "s", "float64": "d", "complex64": "c", "complex128": "z"}[dtype] + r
                     for r in ("bsrmv", "bsrmm", "bsrmm")]
    assert lib.descrs == 0          # every matrix descriptor destroyed


def test_which_bsr_matrices_go_to_cusparse(lib):
    mm = _host_matmul()
    h = _rand(2, 2, 2, "float64", seed=0)
    f64 = np.dtype(np.float64)
    assert mm._bsr_on_cusparse(_bsr(h), f64)
    assert not mm._bsr_on_cusparse(_bsr(h), np.dtype(np.int64))               # integer values
    unsorted = _bsr(h)
    unsorted.has_sorted_indices = False
    assert not mm._bsr_on_cusparse(unsorted, f64)
    for other in (ssp.bsr_array(np.ones((4, 6)), blocksize=(2, 3)), ssp.bsr_array(np.ones((4, 4)), blocksize=(1, 1))):
        assert not mm._bsr_on_cusparse(_bsr(other), f64)                      # rectangular, 1x1 blocks
    wide = _bsr(h)
    wide.indices = from_np(h.indices.astype(np.int64))
    assert not mm._bsr_on_cusparse(wide, f64)                                  # 64-bit indices


def test_bsrmm_size_limits():
    mm = _host_matmul()
    assert mm._bsrmm_fits(524_272, 524_272, 4) and not mm._bsrmm_fits(524_273, 3, 2)
    assert not mm._bsrmm_fits(10, 262_137, 5) and mm._bsrmm_fits(10, 262_136, 8)
    assert mm._bsrmm_fits(6_553, 3, 10) and not mm._bsrmm_fits(6_554, 3, 10)
