"""`python -m cuarray info` and `cuarray.show_config()` work with or without a device."""

from __future__ import annotations

import io
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _run(*args):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (ROOT, os.environ.get("PYTHONPATH")) if p))
    return subprocess.run([sys.executable, "-m", "cuarray", *args], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=120)


def _device_available() -> bool:
    from cuarray.cuda import _backend

    return _backend.is_available()


def test_info_exits_0_and_reports_devices():
    proc = _run("info")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    for heading in ("cuarray:", "NumPy", "cuda-core", "cuda-bindings", "cuda-pathfinder", "driver", "NVRTC",
                    "CUDA libraries", "nvrtc", "cublas", "nvJitLink", "CUDA headers", "cccl",
                    "nvmath-python", "Kernel cache", "Devices:"):
        assert heading in out, heading
    if _device_available():
        assert "device 0" in out and "compute capability" in out
    else:
        assert "no usable device" in out
        assert "no CUDA driver" in out or "no CUDA device" in out


def test_no_arguments_prints_usage():
    proc = _run()
    assert proc.returncode == 0
    assert "usage: python -m cuarray" in proc.stdout and "info" in proc.stdout


def test_unknown_command_fails():
    proc = _run("frobnicate")
    assert proc.returncode == 2 and "unknown command" in proc.stderr


def test_show_config_in_process():
    from cuarray._info import show_config

    buf = io.StringIO()
    show_config(file=buf)
    text = buf.getvalue()
    assert text.startswith("cuarray:") and "Devices:" in text
