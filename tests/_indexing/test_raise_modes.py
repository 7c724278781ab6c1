"""ravel_multi_index / unravel_index argument checks that need no device: NumPy's errors, raised
before anything is copied (on the old code these reached the device: another error on a CPU)."""

import numpy
import pytest

import cuarray


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_ravel_multi_index_zero_dim(mode):
    with pytest.raises(ValueError, match="zero entries"):
        cuarray.ravel_multi_index(([1], [0]), (0, 3), mode=mode)
    with pytest.raises(ValueError, match="zero entries"):
        numpy.ravel_multi_index(([1], [0]), (0, 3), mode=mode)


def test_ravel_multi_index_too_large():
    with pytest.raises(ValueError, match="invalid dims"):
        cuarray.ravel_multi_index(([1], [2]), (2**40, 2**40), mode="wrap")


def test_unravel_index_too_large_and_float():
    with pytest.raises(ValueError, match="too large"):
        cuarray.unravel_index(3, (2**40, 2**40))
    with pytest.raises(TypeError, match="inferred as float"):
        cuarray.unravel_index([], (2, 3))
    with pytest.raises(TypeError, match="only int"):
        cuarray.unravel_index([1.0], (2, 3))


@pytest.mark.parametrize("idx, shape", [(6, (2, 3)), (-1, (2, 3)), (3, (2, -3)), ([1, 9], (3, 3))])
def test_unravel_index_out_of_bounds_host(idx, shape):
    with pytest.raises(ValueError) as want:
        numpy.unravel_index(idx, shape)
    with pytest.raises(ValueError) as got:
        cuarray.unravel_index(idx, shape)
    assert str(got.value) == str(want.value)
