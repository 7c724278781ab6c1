"""Lazy loop bodies on the GPU, where a cached plan (and, were it on, a graph replay) could go
stale: every iteration's values against eager cuarray and NumPy's evaluation of the same graph,
with the structure changing mid-loop, inputs reassigned, views of one array as inputs, one
array shared by several operands and carried between iterations, and the evaluation log
(`explain()`) following what ran."""

import numpy
import pytest

import cuarray as cp
from cuarray._core.fusion import replay

pytestmark = pytest.mark.gpu


def _close(got, want, dtype):
    tol = 1e-5 if dtype == numpy.float32 else 1e-12
    numpy.testing.assert_allclose(got, want, rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_structure_change_mid_loop_replans(dtype):
    rng = numpy.random.default_rng(1)
    hx = rng.standard_normal((33, 7)).astype(dtype)
    x = cp.asarray(hx)
    for i in range(8):
        def body(xp, a):
            if i < 3:
                return xp.exp(-a) * 2.0 + a
            if i < 6:  # a different graph on the same inputs: a new plan
                return (xp.tanh(a) - a * 0.5).sum(axis=0) + a[0]
            return xp.maximum(a, 0.0) * (a - 1.0)
        with cp.lazy():
            y = body(cp, x)
            want_np = y.numpy()
        _close(y.get(), body(numpy, hx), dtype)
        _close(want_np, body(numpy, hx), dtype)
        _close(y.get(), body(cp, x).get(), dtype)
    assert replay.evaluations()[-1]["repeats"] == 2


def test_inputs_reassigned_views_and_shared_between_iterations():
    rng = numpy.random.default_rng(2)
    hw = rng.standard_normal(40).astype(numpy.float32)
    hbig = rng.standard_normal((6, 40)).astype(numpy.float32)
    w, big = cp.asarray(hw), cp.asarray(hbig)
    ew = w.copy()
    for i in range(7):
        row = big[i % 6]  # a view: another row (another address) each iteration
        with cp.lazy():
            g = (w - row) * 0.1 + w * w * 0.01  # `w` shared by three operands
            w = w - g  # reassigned: the next iteration reads this iteration's result
        ew = ew - ((ew - big[i % 6]) * 0.1 + ew * ew * 0.01)
        hw = hw - ((hw - hbig[i % 6]) * 0.1 + hw * hw * 0.01)
        numpy.testing.assert_allclose(w.get(), ew.get(), rtol=1e-6, atol=1e-6)
        numpy.testing.assert_allclose(w.get(), hw, rtol=1e-5, atol=1e-5)
    ev = replay.evaluations()[-1]
    assert ev["repeats"] >= 6 and not ev["replay"], ev  # (one fused kernel and a moved input to copy: would not pay)


def test_strided_view_then_contiguous_input_same_structure():
    """One trace key for a transposed view and a contiguous array of the same shape: the cached
    Program must read each by its own layout."""
    rng = numpy.random.default_rng(3)
    ha = rng.standard_normal((9, 9)).astype(numpy.float32)
    a = cp.asarray(ha)
    for src, hsrc in ((a.T, ha.T), (a, ha), (a.T, ha.T), (a[::-1], ha[::-1])):
        with cp.lazy():
            y = cp.sin(src) * 3.0 - src
        numpy.testing.assert_allclose(y.get(), numpy.sin(hsrc) * 3.0 - hsrc, rtol=1e-5, atol=1e-5)


def test_seed_gradient_loop_with_reassigned_weights():
    rng = numpy.random.default_rng(4)
    n, k, m = 16, 12, 5
    hX, hW = rng.standard_normal((n, k)).astype(numpy.float32), rng.standard_normal((m, k)).astype(numpy.float32)
    hx, hz = rng.standard_normal((n, m)).astype(numpy.float32), rng.standard_normal((n, m)).astype(numpy.float32)
    X, W, x, z = (cp.asarray(v) for v in (hX, hW, hx, hz))
    for _ in range(4):
        h = 1.0 / (1.0 + cp.exp(-(X + W[0])))  # eager, (n, k): a new array each iteration
        hh = h.get()
        with cp.lazy():
            delta_o = -(x - z)
            delta_h = cp.dot(delta_o, W) * h * (1.0 - h)
            grad_W = cp.dot(X.T, delta_h)
            W = W - 0.01 * grad_W.T[:m]
        want = hX.T @ ((-(hx - hz)) @ hW * hh * (1.0 - hh))
        numpy.testing.assert_allclose(grad_W.get(), want, rtol=1e-4, atol=1e-4)
        hW = hW - 0.01 * want.T[:m]
        numpy.testing.assert_allclose(W.get(), hW, rtol=1e-4, atol=1e-4)
    assert "evaluations (this thread" in grad_W.explain()
