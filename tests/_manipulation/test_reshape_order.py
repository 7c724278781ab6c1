"""reshape's `order` errors as NumPy's, on the CPU (arrays viewing host memory: nothing launches)."""

import numpy
import pytest

import cuarray
from linalg import _host_fake as hf  # tests/ is on sys.path


@pytest.mark.parametrize("order", ["K", "k", "Zed", "", "CF", 1, 2.5])
def test_reshape_order_errors_as_numpy(order):
    h = numpy.arange(6.0)
    with pytest.raises((ValueError, TypeError)) as want:
        h.reshape(2, 3, order=order)
    with pytest.raises(type(want.value)) as got:
        cuarray.reshape(hf.from_np(h), (2, 3), order=order)
    assert str(got.value) == str(want.value)


@pytest.mark.parametrize("order", ["c", "f", "a", "A", None])
def test_reshape_order_accepted(order):
    h = numpy.arange(6.0)
    got = hf.to_np(cuarray.reshape(hf.from_np(h), (2, 3), order=order))
    numpy.testing.assert_array_equal(got, h.reshape(2, 3, order=order))


@pytest.mark.parametrize("reqs, err", [("X", KeyError), (["C", "F"], ValueError), ("owndata", KeyError)])
def test_require_bad_requirements_as_numpy(reqs, err):
    # NumPy 2 raises KeyError for an unknown flag (CuPy: ValueError); cuarray follows NumPy.
    with pytest.raises(err):
        numpy.require(numpy.ones(2), requirements=reqs)
    with pytest.raises(err):
        cuarray.require(numpy.ones(2), requirements=reqs)
