"""Structured NumPy scalars (`numpy.void`) as RawKernel arguments, without a GPU: the bytes each
launch path hands the driver for the parameter start with the struct's bytes (the driver copies as
many as the kernel's image says), the parameter-size check uses the struct's size, and a struct past
16 bytes goes through `launch_struct`'s pointer array (against a fake driver) and the launch hook."""

from __future__ import annotations

import ctypes

import numpy as np
import pytest

from cuarray.cuda import _backend
from cuarray.cuda import launch
from cuarray.cuda import module

FLOAT3 = np.dtype({"names": ["x", "y", "z"], "formats": [np.float32] * 3})  # CUDA's float3
INT2 = np.dtype({"names": ["x", "y"], "formats": [np.int32] * 2})  # int2
DOUBLE2 = np.dtype({"names": ["x", "y"], "formats": [np.float64] * 2})  # double2
CHAR_DOUBLE = np.dtype([("a", "i1"), ("b", "f8")], align=True)  # struct {char a; double b;}: 16 bytes
BIG = np.dtype([("a", "f8"), ("b", "i4"), ("c", "f8", (2,))], align=True)  # 32 bytes
SMALL = [FLOAT3, INT2, DOUBLE2, CHAR_DOUBLE, np.dtype("V3"), np.dtype([("h", "u2")])]


def _scalar(dt, rng):
    raw = rng.integers(0, 256, dt.itemsize, dtype=np.uint8).tobytes()
    return np.frombuffer(raw, dtype=dt)[0]


@pytest.mark.parametrize("dt", SMALL, ids=lambda d: str(d.itemsize) + "B")
def test_small_struct_rides_a_numeric_scalar_with_its_bytes_first(dt):
    v = _scalar(dt, np.random.default_rng())
    c = launch.struct_arg(v)
    assert isinstance(c, np.generic) and not isinstance(c, np.void)
    assert c.itemsize >= dt.itemsize and c.tobytes()[:dt.itemsize] == v.tobytes()


@pytest.mark.parametrize("dt", SMALL, ids=lambda d: str(d.itemsize) + "B")
def test_both_launch_paths_point_at_the_struct_bytes(dt):
    from cuda.core._kernel_arg_handler import ParamHolder

    rng = np.random.default_rng()
    v = _scalar(dt, rng)
    args = (np.int8(3), launch.struct_arg(v), 0x7000)
    holder = ParamHolder(args)
    addrs = (ctypes.c_void_p * 3).from_address(holder.ptr)
    assert ctypes.string_at(addrs[1], dt.itemsize) == v.tobytes()
    lc = pytest.importorskip("cuarray.cuda._launchcore")
    lc.set_scalar_types((np.generic, ctypes._SimpleCData))
    packed, offs, _ = lc.pack(*args)
    assert packed[offs[1]:offs[1] + dt.itemsize] == v.tobytes()


def test_big_struct_is_bytes_and_convert_args_checks_the_struct_size():
    rng = np.random.default_rng()
    big = _scalar(BIG, rng)
    assert BIG.itemsize == 32
    (c,) = module.convert_args((big,), "k", (32,))
    assert type(c) is launch.StructBytes and c.data == big.tobytes()
    module.convert_args((_scalar(FLOAT3, rng),), "k", (12,))  # a 12-byte float3 param: accepted
    with pytest.raises(TypeError, match="structured scalar"):
        module.convert_args((_scalar(FLOAT3, rng),), "k", (16,))


class _FakeDriver:
    def __init__(self, sizes):
        self.sizes, self.calls = sizes, []
        self.CUfunction = self.CUstream = int

    def cuLaunchKernel(self, f, gx, gy, gz, bx, by, bz, shmem, stream, params, extra):
        ptrs = (ctypes.c_void_p * len(self.sizes)).from_address(params)
        raw = [ctypes.string_at(p, n) for p, n in zip(ptrs, self.sizes)]
        self.calls.append((f, (gx, gy, gz), (bx, by, bz), shmem, stream, raw, extra))
        return (0,)


class _Obj:
    def __init__(self, **kw):
        self.__dict__.update(kw)


def test_launch_struct_passes_a_pointer_per_parameter_and_goes_through_the_hook(monkeypatch):
    rng = np.random.default_rng()
    big = _scalar(BIG, rng)
    args = (0x7000, launch.StructBytes(big.tobytes()), np.float32(2.5), -5)
    drv = _FakeDriver((8, 32, 4, 8))
    monkeypatch.setattr(_backend, "driver", lambda: drv)
    monkeypatch.setattr(launch._device, "_core_device", lambda *a: None)
    cfg = _Obj(grid=(3, 1, 1), block=64, shmem_size=128, is_cooperative=False)
    seen = []

    def hook(raw, stream, config, kernel, a):
        seen.append(a)
        raw(stream, config, kernel, *a)

    monkeypatch.setattr(launch, "_hook", hook)
    monkeypatch.setattr(launch._stream, "current_core_stream", lambda: _Obj(handle=0x11))
    monkeypatch.setattr(launch, "launch_config", lambda grid, block, shmem, coop: cfg)
    launch.launch_struct(_Obj(handle=0xBEEF), 3, 64, args, 128)
    ((f, grid, block, shmem, stream, raw, extra),) = drv.calls
    assert (f, grid, block, shmem, stream, extra) == (0xBEEF, (3, 1, 1), (64, 1, 1), 128, 0x11, 0)
    assert raw == [(0x7000).to_bytes(8, "little"), big.tobytes(), np.float32(2.5).tobytes(),
                   (-5).to_bytes(8, "little", signed=True)]
    assert seen == [args]
