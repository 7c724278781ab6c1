"""Parameter-like host arguments CuPy accepts (host_input.as_parameter), against NumPy: histogram
bins, diag's input, gradient spacings, nan_to_num array values, copyto from a NumPy scalar array,
roll with a device shift. Ufunc operands stay refused."""

import numpy
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
from cuarray import testing  # noqa: E402


def up(xp, h):
    return h if xp is numpy else xp.asarray(h)


@pytest.mark.parametrize("bins", [[-5, 0, 2, 7], (-10.0, 0.0, 10.0), numpy.array([-3.0, 1.0, 4.0])])
@testing.numpy_cuarray_allclose()
def test_histogram_host_bins(xp, bins):
    a = up(xp, testing.shaped_random((200,), numpy, numpy.float64))
    return xp.histogram(a, bins=bins)


@pytest.mark.parametrize("v, k", [([1, 2, 3], 0), ([[1, 2], [3, 4]], 1), (numpy.arange(4.0), -1)])
@testing.numpy_cuarray_array_equal()
def test_diag_host_input(xp, v, k):
    return xp.diag(v, k)


@testing.numpy_cuarray_allclose(rtol=1e-12, atol=1e-12)
def test_gradient_host_coordinates(xp):
    f = up(xp, testing.shaped_random((6, 5), numpy, numpy.float64))
    x = numpy.array([0.0, 1.0, 1.5, 3.5, 4.0, 6.0])
    return xp.gradient(f, x, [0.0, 2.0, 3.0, 4.5, 5.0])


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64, numpy.complex128])
@pytest.mark.parametrize("device_values", [False, True])
@testing.numpy_cuarray_allclose()
def test_nan_to_num_array_values(xp, dtype, device_values):
    h = testing.shaped_random((3, 4), numpy, dtype)
    h.flat[[1, 5, 9]] = [numpy.nan, numpy.inf, -numpy.inf]
    if dtype == numpy.complex128:
        h.flat[2] = complex(numpy.nan, numpy.inf)
    vals = [numpy.arange(4.0), numpy.full(4, 7.0), numpy.full((3, 1), -7.0)]
    if device_values:
        vals = [up(xp, v) for v in vals]
    return xp.nan_to_num(up(xp, h), nan=vals[0], posinf=vals[1], neginf=vals[2])


@pytest.mark.parametrize("src", [numpy.float32(2.5), numpy.array(3), numpy.array([1.5])])
@testing.numpy_cuarray_array_equal()
def test_copyto_numpy_scalar(xp, src):
    dst = up(xp, numpy.zeros((2, 3)))
    xp.copyto(dst, src)
    return dst


@pytest.mark.parametrize("shift, axis", [(2, None), (-1, 0), ((1, 2), (0, 1))])
@testing.numpy_cuarray_array_equal()
def test_roll_device_shift(xp, shift, axis):
    a = up(xp, testing.shaped_arange((3, 4), numpy, numpy.int32))
    return xp.roll(a, up(xp, numpy.asarray(shift)), axis)


def test_ufunc_operands_still_refused():
    with pytest.raises(TypeError, match="asarray"):
        cuarray.exp(numpy.ones(3))
    with pytest.raises(TypeError):
        cuarray.copyto(cuarray.zeros(3), numpy.ones(3))  # not one element: data, refused
