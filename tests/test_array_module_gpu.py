"""CPU/GPU-agnostic code (the seed slides): one function body written with `xp`, run with NumPy
and with cuarray, agrees."""

import numpy
import pytest

import cuarray

pytestmark = pytest.mark.gpu


def logsumexp(x, axis=-1):
    xp = cuarray.get_array_module(x)
    m = xp.max(x, axis=axis, keepdims=True)
    return xp.squeeze(m, axis=axis) + xp.log(xp.sum(xp.exp(x - m), axis=axis))


def softplus(x):
    xp = cuarray.get_array_module(x)
    return xp.maximum(x, 0) + xp.log1p(xp.exp(-xp.abs(x)))


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_seed_slides_agnostic_functions(dtype):
    x = (numpy.random.default_rng().standard_normal((64, 100)) * 30).astype(dtype)
    d = cuarray.asarray(x)
    assert cuarray.get_array_module(d) is cuarray
    assert cuarray.get_array_module(x) is numpy
    tol = 1e-5 if dtype == numpy.float32 else 1e-12
    for f in (logsumexp, softplus):
        ref = f(x)
        got = f(d)
        assert isinstance(got, cuarray.ndarray) and got.dtype == ref.dtype and got.shape == ref.shape
        numpy.testing.assert_allclose(got.get(), ref, rtol=tol, atol=tol)
