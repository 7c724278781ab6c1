"""Lazy mode's multi-output kernels (sibling results of one shape sharing nodes or inputs) on
the GPU: the same bits as eager cuarray, and NumPy's values; contiguous (vector and flat
launches), non-contiguous and broadcast inputs (the engine's general path), empty and
length-1 arrays, mixed output dtypes, repeated evaluations of the cached Program."""

import numpy
import pytest

import cuarray as cp
from cuarray._core.fusion import planner

pytestmark = pytest.mark.gpu


def _body(xp, x, y):
    t = xp.log(xp.exp(xp.sin(x)) + 1)
    return t * 2 + x, t * t - 1, (t * y) > 0.25, (t + y).astype(numpy.float32)


def _check(x, y):
    eager = _body(cp, x, y)
    for _ in range(3):  # planned, then the cached Program twice
        with cp.lazy():
            got = _body(cp, x, y)
        for g, e in zip(got, eager):
            v = g.get()
            assert v.dtype == e.dtype and v.shape == e.shape
            numpy.testing.assert_array_equal(v, e.get())
    want = _body(numpy, x.get(), y.get())
    for g, w in zip(got, want):
        if w.dtype != bool:  # (the comparison's bits are eager's, checked above)
            numpy.testing.assert_allclose(g.get(), w, rtol=1e-5 if w.dtype == numpy.float32 else 1e-12, atol=1e-6)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("n", [0, 1, 3, 1000, 4099])
def test_siblings_contiguous(dtype, n):
    rng = numpy.random.default_rng(n)
    x = cp.asarray(rng.standard_normal(n).astype(dtype))
    y = cp.asarray(rng.standard_normal(n).astype(dtype))
    _check(x, y)


def test_siblings_non_contiguous_and_broadcast():
    rng = numpy.random.default_rng(7)
    base = cp.asarray(rng.standard_normal((64, 66)).astype(numpy.float32))
    x = base[:, 1:65]  # a strided view
    y = cp.asarray(rng.standard_normal((1, 64)).astype(numpy.float32))  # broadcast over rows
    _check(x, y)
    _check(base.T[:64, :64], cp.asarray(rng.standard_normal(64).astype(numpy.float32)))


def test_siblings_one_kernel_on_the_device():
    x = cp.asarray(numpy.random.default_rng(3).standard_normal(1 << 12).astype(numpy.float32))
    with cp.lazy():
        a, b = x * 2.0 + 1.0, cp.exp(x * 2.0) - 1.0
    prog = next(p for p in planner._programs.values() if len(p.steps) == 1 and len(p.outputs) == 2
                and isinstance(p.steps[0], planner._ElementwiseMulti) and "exp" in p.steps[0].defn.name)
    assert prog.steps[0].nout == 2
    numpy.testing.assert_array_equal(a.get(), (x * 2.0 + 1.0).get())
    numpy.testing.assert_array_equal(b.get(), (cp.exp(x * 2.0) - 1.0).get())


def test_fuse_tuple_result_values():
    rng = numpy.random.default_rng(5)
    x = cp.asarray(rng.standard_normal(2053).astype(numpy.float32))
    y = cp.asarray(rng.standard_normal(2053).astype(numpy.float32))

    @cp.fuse()
    def f(x, y):
        return _body(cp, x, y)

    eager = _body(cp, x, y)
    for _ in range(2):
        got = f(x, y)
        assert len(got) == 4
        for g, e in zip(got, eager):
            assert g.dtype == e.dtype and g.shape == e.shape
            numpy.testing.assert_array_equal(g.get(), e.get())
