"""CUDA Array Interface and DLPack on the device: round trips, zero copy with PyTorch and CuPy,
streams, read-only and copy flags, and NEP 18 dispatch."""

import gc

import numpy
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
from cuarray import testing  # noqa: E402
from cuarray._core import interop  # noqa: E402
from cuarray._manipulation.dims import broadcast_to  # noqa: E402

DTYPES = [numpy.bool_, numpy.int8, numpy.uint16, numpy.int64, numpy.float16, numpy.float32, numpy.float64,
          numpy.complex64, numpy.complex128]


def data(shape, dtype, seed=0):
    return testing.shaped_random(shape, numpy, dtype, seed=seed)


@pytest.mark.parametrize("dtype", DTYPES, ids=testing.dtype_id)
@pytest.mark.parametrize("layout", testing.LAYOUTS)
@pytest.mark.parametrize("versioned", [False, True])
def test_dlpack_roundtrip_self(dtype, layout, versioned):
    h = data((3, 4), dtype)
    a = testing.non_contiguous(h, layout, xp=cuarray)

    class Producer:
        def __dlpack__(self, **kw):
            if not versioned:
                kw.pop("max_version", None)
            return a.__dlpack__(**kw)

        def __dlpack_device__(self):
            return a.__dlpack_device__()

    b = interop.from_dlpack(Producer())
    assert b.data.ptr == a.data.ptr and b.strides == a.strides and b.dtype == a.dtype
    numpy.testing.assert_array_equal(b.get(), h)
    b[0] = a[1]  # writes are visible through the original
    numpy.testing.assert_array_equal(a[0].get(), h[1])


def test_dlpack_copy_and_readonly():
    a = cuarray.asarray(data((5,), numpy.float32))

    class P:
        def __init__(self, arr):
            self.arr = arr

        def __dlpack__(self, **kw):
            return self.arr.__dlpack__(**kw)

        def __dlpack_device__(self):
            return self.arr.__dlpack_device__()

    c = interop.from_dlpack(P(a), copy=True)
    assert c.data.ptr != a.data.ptr
    numpy.testing.assert_array_equal(c.get(), a.get())
    r = interop.from_dlpack(P(broadcast_to(a, (2, 5))))
    assert not r.flags.writeable
    with pytest.raises(ValueError):
        r[0] = 1


def test_dlpack_to_cpu_and_numpy():
    h = data((4, 3), numpy.float64)
    a = cuarray.asarray(h)
    cap_owner = type("P", (), {"__dlpack__": lambda s, **kw: a.__dlpack__(dl_device=(1, 0), **kw),
                               "__dlpack_device__": lambda s: (1, 0)})()
    numpy.testing.assert_array_equal(numpy.from_dlpack(cap_owner), h)
    with pytest.raises(BufferError):
        a.__dlpack__(dl_device=(1, 0), copy=False)
    # A NumPy (CPU) producer is copied to the device.
    b = interop.from_dlpack(h)
    numpy.testing.assert_array_equal(b.get(), h)
    with pytest.raises(BufferError):
        interop.from_dlpack(h, copy=False)


def test_unconsumed_capsules_are_released():
    a = cuarray.asarray(data((1000,), numpy.float32))
    n = len(interop._live)
    for _ in range(10):
        a.__dlpack__(max_version=(1, 0))
        a.__dlpack__()
    gc.collect()
    assert len(interop._live) == n


def test_stream_argument():
    a = cuarray.asarray(data((100,), numpy.float32))
    s = cuarray.cuda.Stream(non_blocking=True)
    a.__dlpack__(stream=s.ptr)
    a.__dlpack__(stream=-1)
    a.__dlpack__(stream=1)
    with pytest.raises(ValueError):
        a.__dlpack__(stream=0)
    with s:
        cai = a.__cuda_array_interface__
        assert cai["stream"] == s.ptr
    assert a.__cuda_array_interface__["stream"] == 1
    s.synchronize()


def test_cai_fields():
    a = cuarray.asarray(data((3, 4), numpy.complex64))
    c = a.__cuda_array_interface__
    assert c["shape"] == (3, 4) and c["typestr"] == "<c8" and c["strides"] is None and c["version"] == 3
    assert c["data"] == (a.data.ptr, False)
    t = a.T.__cuda_array_interface__
    assert t["strides"] == (8, 32)


@pytest.mark.parametrize("dtype", DTYPES, ids=testing.dtype_id)
def test_from_foreign_cai(dtype):
    h = data((3, 4), dtype)
    a = cuarray.asarray(h)[:, ::-2]

    class CAI:
        __cuda_array_interface__ = a.__cuda_array_interface__

    b = interop.from_foreign(CAI())
    assert b.data.ptr == a.data.ptr and b.strides == a.strides
    numpy.testing.assert_array_equal(b.get(), h[:, ::-2])




@pytest.mark.parametrize("dtype", [numpy.bool_, numpy.int8, numpy.int64, numpy.float16, numpy.float32,
                                   numpy.complex64, numpy.complex128], ids=testing.dtype_id)
def test_torch_zero_copy(dtype):
    torch = pytest.importorskip("torch")
    h = data((4, 5), dtype)
    a = cuarray.asarray(h)
    t = torch.from_dlpack(a)
    assert t.data_ptr() == a.data.ptr
    numpy.testing.assert_array_equal(t.cpu().numpy(), h)
    v = a[:, 1:4]
    tv = torch.from_dlpack(v)
    assert tv.data_ptr() == v.data.ptr and tv.stride() == (5, 1)
    # and back
    t2 = torch.arange(12, device="cuda", dtype=torch.float32).reshape(3, 4).t()
    b = interop.from_dlpack(t2)
    assert b.data.ptr == t2.data_ptr() and b.strides == (4, 16)
    numpy.testing.assert_array_equal(b.get(), t2.cpu().numpy())
    b[0, 0] = 100
    assert t2[0, 0].item() == 100
    c = cuarray.asarray(t2)
    assert c.data.ptr == t2.data_ptr()


def test_cupy_zero_copy():
    cupy = pytest.importorskip("cupy")
    h = data((4, 5), numpy.float32)
    a = cuarray.asarray(h)
    c = cupy.asarray(a)
    assert c.data.ptr == a.data.ptr
    numpy.testing.assert_array_equal(cupy.asnumpy(c), h)
    ct = cupy.arange(20, dtype=cupy.int16).reshape(4, 5)[:, ::2]
    b = cuarray.asarray(ct)
    assert b.data.ptr == ct.data.ptr and b.strides == ct.strides
    numpy.testing.assert_array_equal(b.get(), cupy.asnumpy(ct))
    d = interop.from_dlpack(ct)
    assert d.data.ptr == ct.data.ptr
    e = cupy.from_dlpack(a)
    assert e.data.ptr == a.data.ptr


def test_get_array_module():
    a = cuarray.asarray([1, 2])
    assert interop.get_array_module(a, numpy.ones(2)) is cuarray
    assert interop.get_array_module(numpy.ones(2)) is numpy


def test_array_function_dispatch():
    from cuarray._core.numpy_function import array_function

    a = cuarray.asarray(data((3, 4), numpy.float32))
    r = array_function(a, numpy.reshape, (type(a),), (a, (4, 3)), {})
    assert isinstance(r, cuarray.ndarray) and r.shape == (4, 3)
    assert array_function(a, numpy.reshape, (type(a), numpy.ndarray), (a, (4, 3)), {}) is NotImplemented
    assert array_function(a, numpy.dtype, (type(a),), (), {}) is NotImplemented
    if hasattr(cuarray.ndarray, "__array_function__"):
        r = numpy.reshape(a, (2, 6))
        assert isinstance(r, cuarray.ndarray) and r.shape == (2, 6)
        with pytest.raises(TypeError):
            numpy.unravel_index(a, (3, 4)) if not hasattr(cuarray, "unravel_index") else (_ for _ in ()).throw(TypeError)
