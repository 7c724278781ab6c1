"""NumPy's errors for inputs it refuses in the poly1d routines and polyutils.trimseq, raised before
any device work (the fake device), and trimseq's N-D rows checked on the host stand-in."""

import numpy
import pytest
from numpy.polynomial import polyutils as npu

import cuarray
from cuarray.polynomial import polyutils as pu

from _numpy_xp import shadow_package


def _same_error(np_call, cp_call, same_message=True):
    with pytest.raises(Exception) as want:
        np_call()
    with pytest.raises(type(want.value)) as got:
        cp_call()
    if same_message:
        assert str(got.value) == str(want.value)


@pytest.mark.parametrize("shape", [(), (3, 4, 5), (3, 2), (3, 0), (2, 0, 1)], ids=str)
def test_trimseq_refuses_what_numpy_refuses(recorded_launches, shape):
    """NumPy compares the last row with 0 (`seq[-1] != 0`): TypeError for 0-d, ValueError for rows
    of more or fewer than one element. The old code trimmed an N-D array as if it were flat."""
    _same_error(lambda: npu.trimseq(numpy.ones(shape)), lambda: pu.trimseq(cuarray.empty(shape)))
    assert not recorded_launches


@pytest.mark.parametrize("seq", [[[1.0], [0.0]], [[0.0], [0.0], [0.0]], [[[2.0]], [[3.0]]], [1.0, 0.0, 0.0], [0.0],
                                 numpy.zeros((0, 3))], ids=["col", "zeros_col", "3d", "1d", "zero", "empty_rows"])
def test_trimseq_rows_of_one_element_as_numpy(seq):
    seq = numpy.asarray(seq)
    got = shadow_package().polyutils.trimseq(seq)
    want = npu.trimseq(seq)
    assert got.shape == want.shape
    numpy.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("p", [lambda xp: xp.empty(()), lambda xp: 1.0, lambda xp: numpy.float64(2.0)],
                         ids=["0d", "float", "npfloat"])
def test_roots_of_a_scalar_is_a_type_error(recorded_launches, p):
    """NumPy 2.4 and 2.5 iterate over the coefficients (TypeError); the old code took a 0-d array as
    one coefficient (no roots)."""
    _same_error(lambda: numpy.roots(p(numpy)), lambda: cuarray.roots(p(cuarray)), same_message=False)
    _same_error(lambda: numpy.roots(numpy.ones((2, 2))), lambda: cuarray.roots(cuarray.empty((2, 2))))
    assert not recorded_launches


@pytest.mark.parametrize("p", [lambda xp: xp.empty(()), lambda xp: 1.0, lambda xp: numpy.int64(2)],
                         ids=["0d", "float", "npint"])
def test_polyval_of_scalar_coefficients_is_a_type_error(recorded_launches, p):
    """NumPy iterates over `p`: a 0-d `p` is a TypeError (the old code evaluated it as a constant)."""
    _same_error(lambda: numpy.polyval(p(numpy), numpy.arange(3.0)), lambda: cuarray.polyval(p(cuarray), cuarray.empty(3)))
    assert not recorded_launches
