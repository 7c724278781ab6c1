"""The epilogue step's library call without a device: launches recorded, `cublas.gemm_epilogue`
stubbed. Operand layouts map to cuBLAS's transpose flags and leading dimensions as the eager
GEMM maps them (row-major C = A B computed as C^T = B^T A^T); a strided bias is copied first;
alpha is the scalar (or its reciprocal); a declined call runs the eager product and the chain's
kernel."""

from __future__ import annotations

import types

import numpy as np
import pytest

import cuarray as cp
from cuarray._core.fusion import codegen, epilogue, planner, products
from cuarray.cuda.libs import cublas


@pytest.fixture
def lt(recorded_launches, monkeypatch):
    calls, gemms = [], []
    answer = [True]

    def gemm_epilogue(*args):
        calls.append(args)
        return answer[0]

    monkeypatch.setattr(cublas, "gemm_epilogue", gemm_epilogue)
    monkeypatch.setattr(products, "_blas", [types.SimpleNamespace(gemm=lambda *a: gemms.append(a))])
    # Nothing planned here (kernels are placeholders) may reach a later test.
    monkeypatch.setattr(planner, "_programs", {})
    monkeypatch.setattr(codegen, "_defs", {})
    return calls, gemms, answer, recorded_launches


def _ptr(a):
    return a.data.ptr


def test_layouts_map_to_flags_and_leading_dimensions(lt):
    calls, _, _, _ = lt
    m, k, n = 64, 48, 40
    b = cp.empty(n, dtype="float32")
    x = cp.empty((m, k), dtype="float32")
    xt = cp.empty((k, m), dtype="float32").T           # F-ordered
    wide = cp.empty((m, k + 16), dtype="float32")[:, :k]  # rows of a wider matrix
    W = cp.empty((k, n), dtype="float32")
    Wt = cp.empty((n, k), dtype="float32").T
    stack = cp.empty((3, m, k), dtype="float32")
    cases = [(x, W, 0, 0, n, k), (xt, W, 0, 1, n, m), (x, Wt, 1, 0, k, k), (wide, W, 0, 0, n, k + 16)]
    for a, w, ta, tb, lda, ldb in cases:
        with cp.lazy():
            y = cp.maximum(cp.dot(a, w) + b, 0)
        got = calls.pop()
        assert got[:12] == ("f", ta, tb, n, m, k, _ptr(w), lda, _ptr(a), ldb, _ptr(y._materialize()), n)
        assert got[12:] == ("relu_bias", _ptr(b), None)
    with cp.lazy():
        y = stack @ W + b
    got = calls.pop()
    assert got[3:6] == (n, 3 * m, k) and got[12] == "bias" and y.shape == (3, m, n)


def test_alpha_division_and_strided_bias(lt):
    calls, _, _, launches = lt
    x = cp.empty((32, 16), dtype="float32")
    W = cp.empty((16, 8), dtype="float32")
    b2 = cp.empty(16, dtype="float32")[::2]
    with cp.lazy():
        y = (x @ W) / 4 + b2
    got = calls.pop()
    assert got[12] == "bias" and got[13] != _ptr(b2)  # a contiguous copy of the bias
    assert got[14].dtype == np.float32 and got[14][0] == 0.25
    assert len(launches) == 1  # the copy
    with cp.lazy():
        y = cp.maximum(2 * (x @ W), 0.0)
    got = calls.pop()
    assert got[12:14] == ("relu", 0) and got[14][0] == 2.0


def test_declined_call_runs_the_eager_product_and_the_chain_kernel(lt):
    calls, gemms, answer, launches = lt
    answer[0] = False
    x = cp.empty((32, 16), dtype="float64")
    W = cp.empty((16, 8), dtype="float64")
    b = cp.empty(8, dtype="float64")
    before = epilogue.FALLBACKS[0]
    with cp.lazy():
        y = cp.maximum(x @ W + b, 0)
    assert len(calls) == 1 and len(gemms) == 1 and epilogue.FALLBACKS[0] == before + 1
    assert len(launches) == 1 and "add_maximum" in launches[0][2][0]  # the chain, one kernel
    assert y.shape == (32, 8) and y.dtype == np.float64


def test_scalar_changed_after_planning_skips_the_library(lt):
    calls, gemms, _, _ = lt
    x = cp.empty((32, 16), dtype="float32")
    W = cp.empty((16, 8), dtype="float32")
    for s, want in ((2.0, 1), (0.3, 0)):  # one structure, one plan
        with cp.lazy():
            y = cp.maximum(s * (x @ W), 0)
        assert len(calls) == want and y.shape == (32, 8)
        del calls[:]
    assert len(gemms) == 1
