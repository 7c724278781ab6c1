"""CuPy's user-facing runtime API on the device: cuda.runtime, Device, Stream, cooperative RawKernel."""

from __future__ import annotations

import threading

import numpy
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

import cuarray  # noqa: E402
from cuarray.cuda import runtime  # noqa: E402


def test_runtime_functions():
    assert runtime.getDeviceCount() >= 1
    runtime.deviceSynchronize()
    free, total = runtime.memGetInfo()
    assert 0 < free <= total
    assert runtime.driverGetVersion() >= 12000 and runtime.runtimeGetVersion() >= 12000
    p = runtime.getDeviceProperties(0)
    dev = cuarray.cuda.Device(0)
    assert isinstance(p["name"], bytes) and p["name"].decode() == dev.name
    assert "{}{}".format(p["major"], p["minor"]) == dev.compute_capability
    assert p["multiProcessorCount"] == dev.multiprocessor_count and p["totalGlobalMem"] == total
    assert p["warpSize"] == 32 and p["maxThreadsPerBlock"] == 1024
    assert runtime.deviceGetAttribute(1, 0) == 1024  # cudaDevAttrMaxThreadsPerBlock
    with pytest.raises(runtime.CUDARuntimeError):
        runtime.getDeviceProperties(runtime.getDeviceCount() + 7)


def test_stream_create_destroy_and_use():
    ptr = runtime.streamCreate()
    assert ptr not in (0, 1, 2)
    s = cuarray.cuda.ExternalStream(ptr)
    with s:
        y = cuarray.arange(10) * 2
    runtime.streamSynchronize(ptr)
    numpy.testing.assert_array_equal(y.get(), numpy.arange(10) * 2)
    runtime.streamDestroy(ptr)
    nb = runtime.streamCreateWithFlags(runtime.streamNonBlocking)
    assert cuarray.cuda.Stream.from_external(nb).is_non_blocking
    runtime.streamDestroy(nb)


def test_device_attributes_and_pci_bus_id():
    dev = cuarray.cuda.Device(0)
    attrs = dev.attributes
    assert attrs["MaxThreadsPerBlock"] == 1024 and attrs["WarpSize"] == 32
    assert attrs["MultiProcessorCount"] == dev.multiprocessor_count
    cc = dev.compute_capability
    assert isinstance(cc, str) and cc == "{}{}".format(attrs["ComputeCapabilityMajor"], attrs["ComputeCapabilityMinor"])
    assert cuarray.cuda.Device.from_pci_bus_id(dev.pci_bus_id) == dev


def test_stream_properties():
    lo, hi = 0, -1
    s = cuarray.cuda.Stream(non_blocking=True, priority=hi)
    assert s.is_non_blocking and s.priority <= lo
    b = cuarray.cuda.Stream()
    assert not b.is_non_blocking and b.priority == 0
    assert cuarray.cuda.Stream.null.priority == 0 and not cuarray.cuda.Stream.null.is_non_blocking
    e = cuarray.cuda.Stream.from_external(s.ptr)
    assert e.ptr == s.ptr and e == s
    with cuarray.cuda.Stream(null=True, ptds=True) as p:
        assert cuarray.cuda.get_current_stream() is p and p.ptr == 2
        x = cuarray.arange(1000, dtype=numpy.float32) + 1
    p.synchronize()
    numpy.testing.assert_array_equal(x.get(), numpy.arange(1000, dtype=numpy.float32) + 1)


def test_host_functions_run_after_the_queued_work():
    s = cuarray.cuda.Stream()
    seen, done = [], threading.Event()
    with s:
        x = cuarray.ones(1 << 20) * 3
    s.launch_host_func(lambda arg: seen.append(("host", arg)), 42)
    s.add_callback(lambda stream, status, arg: (seen.append((stream is s, status, arg)), done.set()), "a")
    s.synchronize()
    assert done.wait(10)
    assert seen == [("host", 42), (True, 0, "a")]
    assert float(x[-1]) == 3.0


COOP = r"""
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void twopass(float* x, float* out, int n) {
    cg::grid_group g = cg::this_grid();
    int i = g.thread_rank();
    if (i < n) x[i] = x[i] * 2.0f;
    g.sync();  // every block's writes are visible after a grid-wide barrier
    if (i < n) out[i] = x[(i + 1) % n];
}
"""


def test_cooperative_raw_kernel_grid_sync():
    n = 4 * 256
    h = numpy.random.default_rng().standard_normal(n).astype(numpy.float32)
    x = cuarray.asarray(h)
    out = cuarray.empty(n, numpy.float32)
    k = cuarray.RawKernel(COOP, "twopass", enable_cooperative_groups=True)
    k((4,), (256,), (x, out, numpy.int32(n)))
    numpy.testing.assert_array_equal(out.get(), numpy.roll(h * 2, -1))


def test_elementwise_kernel_size_rules_on_device():
    k = cuarray.ElementwiseKernel("", "raw int32 y", "y[i] = i", "fill_index")
    y = cuarray.zeros(6, numpy.int32)
    k(y, size=6)
    numpy.testing.assert_array_equal(y.get(), numpy.arange(6))
    k2 = cuarray.ElementwiseKernel("float32 x", "float32 y", "y = x * 2", "twice")
    with pytest.raises(ValueError):
        k2(cuarray.ones(3, numpy.float32), size=3)
