"""cuda/libs/cusparse.py without a GPU: a recording stand-in for nvmath.bindings.cusparse checks
the enum values passed, the dense-descriptor cache (reuse by address, bounded, destroyed on
eviction) and that the workspace size is asked once per matrix and operation."""

from __future__ import annotations

import types

import numpy as np
import pytest

from cuarray.cuda.libs import cusparse


class FakeLib:
    def __init__(self):
        self.calls = []
        self.next = 100

    def _new(self):
        self.next += 1
        return self.next

    def __getattr__(self, name):
        def f(*args):
            self.calls.append((name, args))
            if name.startswith("create") or name.endswith("_create_descr"):
                return self._new()
            if name.endswith("buffer_size"):
                return 256
            return None

        return f

    def count(self, name):
        return sum(1 for n, _ in self.calls if n == name)


@pytest.fixture
def lib(monkeypatch):
    fake = FakeLib()
    monkeypatch.setattr(cusparse, "bindings", lambda: fake)
    monkeypatch.setattr(cusparse, "handle", lambda: 7)
    monkeypatch.setattr(cusparse, "_workspace", lambda n: types.SimpleNamespace(ptr=0xABC))
    monkeypatch.setattr(cusparse, "_dense", cusparse._DenseCache())
    return fake


def test_csr_descriptor_enums(lib):
    d = cusparse.SpMatDescr("csr", 4, 5, 6, 0x10, 0x20, 0x30, np.int32, np.complex64)
    name, args = lib.calls[-1]
    assert name == "create_csr"
    # rows, cols, nnz, offsets, indices, values, 32-bit index types (2), base 0, C_32F (4)
    assert args == (4, 5, 6, 0x10, 0x20, 0x30, 2, 2, 0, 4)
    e = cusparse.SpMatDescr("csc", 4, 5, 6, 0x10, 0x20, 0x30, np.int64, np.float64)
    assert lib.calls[-1][0] == "create_csc" and lib.calls[-1][1][6:] == (3, 3, 0, 1)
    del d, e
    assert lib.count("destroy_sp_mat") == 2     # destroyed when collected


def test_spmv_reuses_dense_descriptors_and_buffer_size(lib):
    d = cusparse.SpMatDescr("csr", 3, 3, 4, 1, 2, 3, np.int32, np.float32)
    for _ in range(5):
        cusparse.spmv(d, cusparse.OP_N, 0x1000, 3, 0x2000, 3)
    assert lib.count("create_dn_vec") == 2          # x and y, once
    assert lib.count("sp_mv_buffer_size") == 1
    assert lib.count("sp_mv") == 5
    args = [a for n, a in lib.calls if n == "sp_mv"][0]
    assert args[0] == 7 and args[1] == cusparse.OP_N and args[7] == 0  # handle, op, R_32F compute
    cusparse.spmv(d, cusparse.OP_N, 0x3000, 3, 0x2000, 3)              # a new address: one more
    assert lib.count("create_dn_vec") == 3


def test_dense_cache_is_bounded(lib):
    old = cusparse.get_descriptor_cache_size()
    cusparse.set_descriptor_cache_size(4)
    try:
        d = cusparse.SpMatDescr("csr", 3, 3, 4, 1, 2, 3, np.int32, np.float64)
        for i in range(6):
            cusparse.spmv(d, cusparse.OP_N, 0x1000 + 16 * i, 3, 0x9000, 3)
        assert len(cusparse._dense.items) <= 4
        assert lib.count("destroy_dn_vec") == lib.count("create_dn_vec") - len(cusparse._dense.items)
        cusparse.clear_descriptor_cache()  # public clear: every descriptor destroyed
        assert len(cusparse._dense.items) == 0
        assert lib.count("destroy_dn_vec") == lib.count("create_dn_vec")
    finally:
        cusparse.set_descriptor_cache_size(old)
    with pytest.raises(ValueError):
        cusparse.set_descriptor_cache_size(0)


def test_spmm_row_major(lib):
    d = cusparse.SpMatDescr("csr", 3, 4, 4, 1, 2, 3, np.int32, np.float64)
    cusparse.spmm(d, cusparse.OP_N, 0x1000, 4, 8, 0x2000, 3, 8)
    mats = [a for n, a in lib.calls if n == "create_dn_mat"]
    assert mats[0] == (4, 8, 8, 0x1000, 1, cusparse.ORDER_ROW) and mats[1] == (3, 8, 8, 0x2000, 1, 2)
    assert cusparse.supports(np.float32) and not cusparse.supports(np.int32)
