"""The process's first use of the driver (`device._init_overlapped`): a thread imports cuda.core
while the caller runs cuInit and retains the primary context. Checked in fresh processes, since
the first use happens once per process."""

import subprocess
import sys
import textwrap

import pytest

_CHILD = textwrap.dedent("""
    import sys, threading
    import numpy
    import cuarray
    from cuarray.cuda import _backend
    assert "cuda.core" not in sys.modules and "cuda.bindings" not in sys.modules
    try:
        z = cuarray.asarray(numpy.arange(4, dtype=numpy.float32)) + 1.0
        cuarray.cuda.Device().synchronize()
        print("OK", z.get().tolist())
    except _backend.NoDeviceError as exc:
        print("NODEVICE", exc)
    # the import thread is joined before the first use returns, whatever happened
    assert not [t for t in threading.enumerate() if t.name == "cuarray-import-cuda.core"]
    print("cuda.core imported:", "cuda.core" in sys.modules)
""")


def _child(code: str) -> str:
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_first_use_works_or_names_the_missing_driver():
    out = _child(_CHILD)
    if out.startswith("OK"):
        assert "[1.0, 2.0, 3.0, 4.0]" in out
        assert "cuda.core imported: True" in out
    else:
        assert out.startswith("NODEVICE")
        assert "no CUDA driver" in out or "no CUDA device" in out or "failed to initialise" in out


def test_no_device_error_is_short_and_named_by_its_public_path():
    import subprocess
    import sys

    code = "import cuarray\ntry:\n    cuarray.arange(3)\nexcept cuarray.cuda.NoDeviceError:\n    raise\n"
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    if res.returncode == 0:
        pytest.skip("a device is present")
    last = res.stderr.strip().splitlines()[-1]
    assert last.startswith("cuarray.cuda.NoDeviceError: "), last
    assert "During handling" not in res.stderr and "direct cause" not in res.stderr
