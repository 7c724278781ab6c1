"""CuPy's random API on the CPU (no kernel runs): `dtype=` of the float samplers and its TypeError,
CuPy's bit-generator names, and the signatures CuPy code calls."""

from __future__ import annotations

import inspect

import numpy
import pytest

import cuarray
from cuarray import random as cr

FLOAT_FUNCS = ["random_sample", "standard_normal", "standard_exponential", "standard_cauchy", "normal",
               "uniform", "exponential", "gumbel", "laplace", "logistic", "lognormal", "rayleigh"]


@pytest.mark.parametrize("name", FLOAT_FUNCS + ["rand", "randn", "gamma", "beta", "chisquare", "f", "wald",
                                                "vonmises", "triangular", "pareto", "power", "weibull"])
def test_float_samplers_take_dtype(name):
    for fn in (getattr(cr, name), getattr(cr.RandomState(0), name)):
        assert "dtype" in inspect.signature(fn).parameters


@pytest.mark.parametrize("name", FLOAT_FUNCS)
@pytest.mark.parametrize("dtype", [numpy.int32, numpy.float16, numpy.complex64, "i8"])
def test_dtype_other_than_float32_64_is_a_type_error(name, dtype):
    # CuPy's rule (TypeError), raised before anything is drawn.
    with pytest.raises(TypeError, match="float32 and float64"):
        getattr(cr.RandomState(0), name)(size=3, dtype=dtype)
    with pytest.raises(TypeError, match="float32 and float64"):
        getattr(cr, name)(size=3, dtype=dtype)


def test_rand_randn_dtype_errors():
    with pytest.raises(TypeError, match="float32 and float64"):
        cr.rand(3, dtype=numpy.int64)
    with pytest.raises(TypeError, match="float32 and float64"):
        cr.randn(3, 2, dtype=numpy.int64)


@pytest.mark.parametrize("name", ["XORWOW", "MRG32k3a", "Philox4x3210"])
def test_cupy_bit_generator_names(name):
    cls = getattr(cr, name)
    g = cr.Generator(cls(42))
    assert isinstance(g.bit_generator, cr.BitGenerator)
    assert cls(42, size=1000).state == cls(42).state  # CuPy's `size` is accepted
    assert cls(42).state == cr.Philox(42).state  # documented: Philox underneath
    assert cls(1).state != cls(2).state
