"""poly1d.get()/set() (CuPy's), roots(poly1d), polyvander's dtype, shape and memory order as NumPy's."""

import numpy
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
from cuarray import testing  # noqa: E402


def test_poly1d_get_set():
    h = numpy.poly1d([3.0, -1.0, 2.0], variable="z")
    p = cuarray.poly1d(cuarray.asarray(h.coeffs), variable="z")
    g = p.get()
    assert isinstance(g, numpy.poly1d) and g == h and g.variable == "z"
    # set() copies into the existing coefficients (CuPy's `coeffs.set`): same length needed, and
    # poly1d(zeros(3)) has one coefficient (leading zeros are trimmed, as NumPy's)
    q = cuarray.poly1d(cuarray.asarray([4.0, -5.0, 6.0]))
    q.set(numpy.poly1d([1.0, 2.0, 3.0], variable="t"))
    numpy.testing.assert_array_equal(q.coeffs.get(), [1.0, 2.0, 3.0])
    assert q.variable == "t"
    with pytest.raises(TypeError):
        q.set([1.0, 2.0, 3.0])


def test_roots_of_poly1d():
    h = numpy.poly1d([1.0, -6.0, 11.0, -6.0])
    got = numpy.sort_complex(cuarray.roots(cuarray.poly1d(cuarray.asarray(h.coeffs))).get())
    numpy.testing.assert_allclose(got, numpy.sort_complex(numpy.roots(h)), rtol=1e-10)


@pytest.mark.parametrize("shape", [(), (5,), (2, 3)])
@pytest.mark.parametrize("dtype", [numpy.int32, numpy.float32, numpy.float64, numpy.complex64],
                         ids=testing.dtype_id)
@testing.numpy_cuarray_allclose(contiguous_check=True)
def test_polyvander_dtype_shape_layout(xp, shape, dtype):
    h = testing.shaped_random(shape, numpy, dtype, scale=3)
    v = xp.polynomial.polynomial.polyvander(h if xp is numpy else xp.asarray(h), 3)
    assert v.strides == numpy.polynomial.polynomial.polyvander(h, 3).strides
    return v
