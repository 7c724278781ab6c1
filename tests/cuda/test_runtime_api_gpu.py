"""CuPy's runtime helpers on a device: external streams from the stream protocol, Device.from_pointer,
library handles as ints, pinned memory through numpy.frombuffer, profiler.benchmark."""

from __future__ import annotations

import sys

import numpy
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
from cuarray import profiler  # noqa: E402


def test_external_stream_from_protocol_runs_work():
    s = cuarray.cuda.Stream(non_blocking=True)

    class Foreign:  # another library's stream object
        def __cuda_stream__(self):
            return (0, s.ptr)

    ext = cuarray.cuda.Stream.from_external(Foreign())
    assert ext.ptr == s.ptr
    h = numpy.random.default_rng().random(1000)
    with ext:
        assert cuarray.cuda.get_current_stream() is ext
        assert cuarray.cuda.get_current_stream_ptr() == s.ptr
        y = cuarray.asarray(h) * 2
    ext.synchronize()
    assert cuarray.cuda.get_current_stream() is cuarray.cuda.Stream.null
    numpy.testing.assert_allclose(y.get(), h * 2)


def test_current_stream_mixes_with_use_and_with():
    a, b = cuarray.cuda.Stream(), cuarray.cuda.Stream()
    with a:
        assert cuarray.cuda.get_current_stream() == a
        b.use()
        assert cuarray.cuda.get_current_stream() == b
    assert cuarray.cuda.get_current_stream() == cuarray.cuda.Stream.null


def test_device_from_pointer():
    x = cuarray.arange(10)
    assert cuarray.cuda.Device.from_pointer(x.data.ptr) == cuarray.cuda.Device(0)
    assert cuarray.cuda.Device.from_pointer(x.data) == cuarray.cuda.Device(0)
    with pytest.raises(cuarray.cuda.CUDARuntimeError):
        cuarray.cuda.Device.from_pointer(8)


def test_library_handles_are_ints():
    for get in (cuarray.cuda.get_cublas_handle, cuarray.cuda.get_cusolver_handle,
                cuarray.cuda.get_cusparse_handle):
        h = get()
        assert isinstance(h, int) and h != 0 and get() == h  # one per (device, thread)
    dev = cuarray.cuda.Device()
    assert dev.cublas_handle == cuarray.cuda.get_cublas_handle()


@pytest.mark.skipif(sys.version_info < (3, 12), reason="a Python class exports a buffer from 3.12 (PEP 688)")
def test_pinned_memory_recipe():
    # CuPy's documented recipe: a NumPy array in pinned memory, then an asynchronous upload.
    h = numpy.random.default_rng().random((64, 32))
    mem = cuarray.cuda.alloc_pinned_memory(h.nbytes)
    pinned = numpy.frombuffer(mem, h.dtype, h.size).reshape(h.shape)
    pinned[...] = h
    d = cuarray.empty(h.shape, h.dtype)
    d.set(pinned)
    numpy.testing.assert_array_equal(d.get(), h)


def test_benchmark_times_each_call():
    x = cuarray.asarray(numpy.random.default_rng().random(1 << 20))
    r = profiler.benchmark(lambda a: a * 2 + 1, (x,), n_repeat=20, n_warmup=2)
    assert r.cpu_times.shape == (20,) and r.gpu_times.shape == (1, 20)
    assert (r.gpu_times > 0).all() and (r.cpu_times > 0).all()
    assert "GPU-0" in str(r)
    short = profiler.benchmark(lambda: x.sum(), n_repeat=10**6, max_duration=0.05)
    assert 1 <= short.cpu_times.size < 10**6
