"""CuPy's array behaviours on a device: non-native byte order uploads as native, byteswap(),
toDlpack/fromDlpack, argmin/argmax(dtype=), the flags object, against NumPy."""

import numpy
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
from cuarray import testing  # noqa: E402


@pytest.mark.parametrize("dt", [">i4", ">f8", ">c8", ">u2", "<i4"])
def test_non_native_upload(dt):
    h = testing.shaped_random((3, 5), numpy, numpy.dtype(dt).newbyteorder("="), scale=50).astype(dt)
    d = cuarray.asarray(h)
    assert d.dtype == numpy.dtype(dt).newbyteorder("=") and d.dtype.isnative
    numpy.testing.assert_array_equal(d.get(), h)
    numpy.testing.assert_array_equal(cuarray.array(h[:, ::2]).get(), h[:, ::2])


@testing.for_all_dtypes()
@pytest.mark.parametrize("layout", ["contiguous", "transposed", "step2", "negative"])
@pytest.mark.parametrize("inplace", [False, True])
@testing.numpy_cuarray_array_equal()
def test_byteswap(xp, dtype, layout, inplace):
    h = testing.shaped_random((4, 6), numpy, dtype, scale=100, seed=2)
    a = testing.non_contiguous(h, layout, xp=xp)
    r = a.byteswap(inplace=inplace)
    if inplace:
        assert r is a
    return r


def test_byteswap_0d_and_empty():
    for h in (numpy.array(3.5), numpy.zeros((0, 3), numpy.int32)):
        numpy.testing.assert_array_equal(cuarray.asarray(h).byteswap().get(), h.byteswap())


def test_to_and_from_dlpack_legacy_names():
    h = testing.shaped_random((4, 3), numpy, numpy.float32)
    d = cuarray.asarray(h)
    cap = d.toDlpack()
    assert type(cap).__name__ == "PyCapsule"
    back = cuarray.fromDlpack(cap)
    assert back.data.ptr == d.data.ptr
    numpy.testing.assert_array_equal(back.get(), h)
    numpy.testing.assert_array_equal(cuarray.fromDlpack(d).get(), h)  # objects with __dlpack__ too
    with pytest.raises(TypeError):
        cuarray.fromDlpack(object())


@pytest.mark.parametrize("fn", ["argmin", "argmax"])
@pytest.mark.parametrize("dtype", [numpy.int32, numpy.int16, numpy.uint8, numpy.int64])
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_argminmax_dtype(fn, dtype, axis):
    h = testing.shaped_random((5, 7), numpy, numpy.float32)
    d = cuarray.asarray(h)
    want = getattr(numpy, fn)(h, axis=axis).astype(dtype)
    for got in (getattr(cuarray, fn)(d, axis=axis, dtype=dtype), getattr(d, fn)(axis=axis, dtype=dtype)):
        assert got.dtype == dtype
        numpy.testing.assert_array_equal(got.get(), want)
    with pytest.raises(TypeError):
        getattr(cuarray, fn)(d, dtype=numpy.float32)


def test_flags_object_on_device_arrays():
    base = cuarray.arange(6.0)
    d = base.reshape(2, 3)
    assert base.flags.owndata and not d.flags.owndata  # as NumPy's
    d.flags.writeable = False
    with pytest.raises(ValueError):
        d[0, 0] = 1.0
    with pytest.raises(AttributeError):
        d.flags.owndata = True
    d.flags["W"] = True
    d[0, 0] = 7.0
    assert float(d[0, 0]) == 7.0
