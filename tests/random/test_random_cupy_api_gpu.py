"""CuPy's random API on a device: `dtype=float32` results (dtype and law), `choice` with a host
list for `a` and `p`, weighted sampling without replacement, Generator over CuPy's bit-generator names."""

from __future__ import annotations

import numpy
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
from cuarray import random as cr  # noqa: E402

N = 200_000


@pytest.mark.parametrize("name, args, mean", [
    ("random_sample", (), 0.5), ("standard_normal", (), 0.0), ("uniform", (2.0, 4.0), 3.0),
    ("normal", (1.0, 2.0), 1.0), ("exponential", (2.0,), 2.0), ("gamma", (3.0, 1.0), 3.0),
    ("beta", (2.0, 2.0), 0.5), ("laplace", (1.0, 1.0), 1.0),
])
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_dtype_float32_and_law(name, args, mean, dtype):
    rs = cr.RandomState()
    x = getattr(rs, name)(*args, size=N, dtype=dtype)
    assert x.dtype == dtype and x.shape == (N,)
    h = x.get().astype(numpy.float64)
    assert abs(h.mean() - mean) < 0.02 * max(1.0, abs(mean)) + 5 * h.std() / numpy.sqrt(N)
    y = getattr(cr, name)(*args, size=4, dtype=dtype)
    assert y.dtype == dtype


def test_rand_randn_dtype():
    assert cr.rand(3, 4, dtype=numpy.float32).dtype == numpy.float32
    assert cr.randn(5, dtype=numpy.float32).dtype == numpy.float32
    assert cr.rand(2).dtype == numpy.float64


@pytest.mark.parametrize("make", [cr.RandomState, cr.default_rng])
def test_choice_host_list_a_and_p(make):
    g = make()
    pop = [10, 20, 30, 40]
    x = g.choice(pop, size=1000)
    assert isinstance(x, cuarray.ndarray) and set(x.get().tolist()) <= set(pop)
    p = [0.1, 0.0, 0.6, 0.3]
    y = g.choice(pop, size=20000, p=p).get()
    assert 20 not in y
    assert abs((y == 30).mean() - 0.6) < 0.02
    z = g.choice(numpy.arange(4), size=3, p=numpy.array(p), replace=False).get()
    assert sorted(z.tolist()) == [0, 2, 3]  # the three with p > 0, each once


def test_choice_p_without_replacement_law():
    g = cr.default_rng()
    p = numpy.array([0.5, 0.25, 0.125, 0.125])
    first = numpy.array([g.choice(4, size=2, replace=False, p=cuarray.asarray(p)).get()[0] for _ in range(2000)])
    assert abs((first == 0).mean() - 0.5) < 0.05  # the first draw follows p
    with pytest.raises(ValueError, match="Fewer non-zero"):
        g.choice(4, size=3, replace=False, p=[0.5, 0.5, 0.0, 0.0])


@pytest.mark.parametrize("name", ["XORWOW", "MRG32k3a", "Philox4x3210"])
def test_generator_over_cupy_names(name):
    g = cr.Generator(getattr(cr, name)(7))
    x = g.random(N).get()
    assert abs(x.mean() - 0.5) < 0.01 and 0 <= x.min() and x.max() < 1
    same = cr.Generator(getattr(cr, name)(7)).random(N).get()
    numpy.testing.assert_array_equal(x, same)  # seeded: reproducible
