"""CuPy's runtime helpers that need no device: the CUDA stream protocol for external streams,
default/current stream pointers, using_allocator, the pinned-memory buffer protocol, the handle
getters' names, and profiler.benchmark's validation and report."""

from __future__ import annotations

import ctypes
import sys

import numpy
import pytest

import cuarray
from cuarray import profiler
from cuarray.cuda import device, memory, pinned_memory, stream


class Proto:
    def __init__(self, ret):
        self.ret = ret

    def __cuda_stream__(self):
        return self.ret


@pytest.mark.parametrize("make", [cuarray.cuda.ExternalStream, cuarray.cuda.Stream.from_external])
def test_external_stream_from_the_stream_protocol(make):
    s = make(Proto((0, 0x1234)))
    assert isinstance(s, cuarray.cuda.ExternalStream) and s.ptr == 0x1234
    assert make(0x42).ptr == 0x42
    assert make(numpy.uint64(7)).ptr == 7
    # Our own streams speak the protocol too (the legacy default stream as CUDA's 0x1).
    assert make(cuarray.cuda.Stream.null).ptr == 1


@pytest.mark.parametrize("bad", [Proto((1, 5)), Proto([0, 5]), Proto((0,)), Proto((0, "5")), Proto(None),
                                 Proto((0, 2.5)), Proto((True, 5)), "0x10", 1.5, object()])
def test_external_stream_rejects_bad_objects(bad):
    with pytest.raises(TypeError):
        cuarray.cuda.ExternalStream(bad)
    with pytest.raises(TypeError):
        cuarray.cuda.Stream.from_external(bad)


def test_stream_pointers():
    assert cuarray.cuda.get_default_stream_ptr() == 0
    assert stream.get_default_stream_ptr() == 0
    assert cuarray.cuda.get_current_stream_ptr() == cuarray.cuda.get_current_stream().ptr


def test_using_allocator_restores():
    calls = []

    def fake(size):
        calls.append(size)
        raise MemoryError

    before = memory.get_allocator()
    with cuarray.cuda.using_allocator(fake):
        assert memory.get_allocator() is fake
        with pytest.raises(MemoryError):
            memory.alloc(64)
    assert memory.get_allocator() is before and calls == [64]
    with pytest.raises(RuntimeError):
        with cuarray.cuda.using_allocator(fake):
            raise RuntimeError
    assert memory.get_allocator() is before


def test_using_allocator_is_per_thread():
    import threading

    seen = []
    with cuarray.cuda.using_allocator(lambda size: size):
        t = threading.Thread(target=lambda: seen.append(memory.get_allocator()))
        t.start()
        t.join()
    assert seen == [memory._chosen]  # another thread kept the process's allocator


def test_handle_getters_are_cupys_names():
    for name in ("get_cublas_handle", "get_cusolver_handle", "get_cusparse_handle"):
        assert getattr(cuarray.cuda, name) is getattr(device, name)
    for prop in ("cublas_handle", "cusolver_handle", "cusparse_handle"):
        assert isinstance(getattr(cuarray.cuda.Device, prop), property)
    assert callable(cuarray.cuda.Device.from_pointer)


def test_pinned_memory_exports_a_buffer():
    host = (ctypes.c_ubyte * 16)(*range(16))

    class Block:  # stands for PinnedMemory: an address and a size
        ptr = ctypes.addressof(host)
        size = 16

    p = pinned_memory.PinnedMemoryPointer(Block())
    view = p.__buffer__(0)
    assert view.nbytes == 16 and bytes(view) == bytes(range(16))
    p.__release_buffer__(view)
    if sys.version_info >= (3, 12):  # PEP 688: numpy.frombuffer reaches __buffer__
        a = numpy.frombuffer(p, numpy.uint32, 4)
        assert a[0] == int.from_bytes(bytes(range(4)), sys.byteorder)


@pytest.mark.parametrize("kwargs", [{"args": [1]}, {"kwargs": ()}, {"n_repeat": 1.0}, {"name": 3},
                                    {"n_warmup": None}, {"max_duration": "1"}, {"devices": [0]}])
def test_benchmark_validates_as_cupy(kwargs):
    with pytest.raises(ValueError):
        profiler.benchmark(lambda *a: None, **kwargs)
    with pytest.raises(ValueError, match="callable"):
        profiler.benchmark(3)


def test_perf_case_result_report():
    r = profiler.PerfCaseResult("f", [[1e-6, 3e-6], [2e-6, 4e-6]], (0,))
    numpy.testing.assert_allclose(r.cpu_times, [1e-6, 3e-6])
    assert r.gpu_times.shape == (1, 2)
    text = str(r)
    assert text.startswith("f                   :") and "CPU:     2.000 us" in text and "GPU-0:     3.000 us" in text
    assert "+/-" in text and "min:" in text
    assert "GPU" not in r.to_str()
