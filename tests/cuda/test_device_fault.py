"""A device fault (illegal address in a user kernel): CUDA makes the context unusable. The first
error says so and names the last user kernel launched; every later error repeats it. CPU: the
message logic with a fake status; GPU: a real fault, in a child process (it poisons the context)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from cuarray.cuda import _backend


@pytest.fixture
def fresh_fault_state(monkeypatch):
    monkeypatch.setattr(_backend, "_fault", None)
    monkeypatch.setattr(_backend, "_last_user_kernel", "")
    monkeypatch.setattr(_backend, "_error_text", lambda status: "CUDA_ERROR_{}".format(int(status)))


def test_sticky_error_names_the_kernel_and_later_errors_repeat_it(fresh_fault_state):
    with pytest.raises(_backend.CUDARuntimeError) as e:
        _backend.check((1,))  # an ordinary error: no fault text
    assert "unusable" not in str(e.value)
    _backend.note_user_kernel("bad_kernel")
    with pytest.raises(_backend.CUDARuntimeError) as e:
        _backend.check((700,))
    msg = str(e.value)
    assert "CUDA_ERROR_700" in msg and "illegal address" in msg and "'bad_kernel'" in msg and "unusable" in msg
    with pytest.raises(_backend.CUDARuntimeError) as e:  # a later call, any error: same explanation
        _backend.check((201,))
    assert "unusable" in str(e.value) and "'bad_kernel'" in str(e.value)
    assert _backend.check((0, 5)) == 5  # success still passes through


class _FaultedDriver:
    """cuda.bindings' driver after a device fault: every synchronisation returns
    CUDA_ERROR_ILLEGAL_ADDRESS (700)."""

    cuStreamSynchronize = staticmethod(lambda stream: (700,))
    cuCtxSynchronize = staticmethod(lambda: (700,))


@pytest.mark.parametrize("sync", ["Stream.synchronize", "Device.synchronize", "cuda.synchronize", "pool"])
def test_a_fault_first_seen_by_a_synchronisation_is_explained(fresh_fault_state, monkeypatch, sync):
    """The H100 run: the first error after a faulting RawKernel came from the stream's
    synchronisation as cuda.core's CUDAError (no kernel name, no word on the context); every
    synchronisation now goes through the driver and `_backend.check`."""
    from cuarray.cuda import device, memory, stream

    monkeypatch.setattr(_backend, "driver", lambda: _FaultedDriver)
    monkeypatch.setattr(device, "_core_device", lambda device_id=None: None)  # no context to make current
    _backend.note_user_kernel("poke")
    call = {"Stream.synchronize": stream.Stream.null.synchronize,
            "Device.synchronize": device.Device(0).synchronize,
            "cuda.synchronize": device.synchronize,
            "pool": lambda: memory._DriverBacking().synchronize(0)}[sync]
    with pytest.raises(_backend.CUDARuntimeError, match="unusable") as e:
        call()
    assert "CUDA_ERROR_700" in str(e.value) and "'poke'" in str(e.value)


def test_a_launch_after_a_fault_is_explained(fresh_fault_state):
    from cuarray.cuda import launch

    _backend.note_user_kernel("poke")
    with pytest.raises(_backend.CUDARuntimeError, match="unusable.*'poke'"):
        launch._launch_error(700)  # the native launch path's failed cuLaunchKernel


_CHILD = textwrap.dedent("""
    import cuarray as cp, numpy as np
    k = cp.RawKernel(r'''extern "C" __global__ void poke(float* p) { p[threadIdx.x] = 1.0f; }''', "poke")
    k((1,), (32,), (np.uint64(0x10),))  # writes near address 0: illegal address
    try:
        cp.cuda.Stream.null.synchronize()
        print("NO ERROR")
    except Exception as e:
        print("FIRST", type(e).__name__, e)
    try:
        cp.ones(3).sum().get()
        print("NO SECOND ERROR")
    except Exception as e:
        print("SECOND", type(e).__name__, e)
""")


@pytest.mark.gpu
def test_illegal_address_in_a_raw_kernel():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])))
    out = subprocess.run([sys.executable, "-c", _CHILD], env=env, capture_output=True, text=True, timeout=120).stdout
    first = next(line for line in out.splitlines() if line.startswith(("FIRST", "NO ERROR")))
    second = next(line for line in out.splitlines() if line.startswith(("SECOND", "NO SECOND")))
    assert first.startswith("FIRST CUDARuntimeError") and "'poke'" in first and "unusable" in first, out
    assert second.startswith("SECOND") and "unusable" in second, out
