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
