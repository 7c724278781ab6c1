"""cuda/libs/_preload.py: the math libraries' shared objects loaded in a thread without the GIL
(CUARRAY_PREFETCH_LIBS=names, issue 51). No GPU needed: dlopen works without a driver."""

from __future__ import annotations

import subprocess
import sys

import pytest

from cuarray.cuda.libs import _preload


def test_dependencies_come_first_once():
    assert _preload._order(["cufft", "cusolver"]) == ["nvJitLink", "cufft", "cublasLt", "cublas", "cusparse",
                                                     "cusolver"]
    assert _preload._order(["nope"]) == []


def test_loads_in_a_fresh_process_without_holding_the_gil():
    if _preload.wheel_file("cufft") is None:
        pytest.skip("the cu13 wheels are not installed")
    code = (
        "import time\n"
        "from cuarray.cuda.libs import _preload\n"
        "t = _preload.start(['cufft'])\n"
        "assert _preload.start(['cufft']) is None\n"  # once per process
        "n = 0\n"
        "while t.is_alive():\n"
        "    n += 1\n"  # the main thread runs Python while the thread is inside dlopen
        "maps = open('/proc/self/maps').read()\n"
        "assert sorted(_preload.loaded) == ['cufft', 'nvJitLink'], _preload.loaded\n"
        "assert 'libcufft.so' in maps and 'libnvJitLink.so' in maps\n"
        "assert n > 1000, n\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
