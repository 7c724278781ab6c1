"""diff's prepend/append that NumPy turns into an object array: cuarray's TypeError, raised before
any device work (docs/differences.md lists it)."""

from fractions import Fraction

import numpy as np
import pytest

import cuarray as cp


@pytest.mark.parametrize("value", [Fraction(1, 2), [Fraction(1, 2)], 2**70, [2**70, 1]],
                         ids=["fraction", "fractions", "big_int", "big_ints"])
@pytest.mark.parametrize("where", ["prepend", "append"])
def test_object_prepend_is_a_type_error(recorded_launches, value, where):
    assert np.diff(np.arange(4.0), **{where: value}).dtype == object  # NumPy computes on Python objects
    with pytest.raises(TypeError, match="object|Fraction"):
        cp.diff(cp.empty(4), **{where: value})
    assert not recorded_launches
