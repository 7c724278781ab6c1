"""Issue 54: programs in the style of CuPy's examples (custom_struct's three, gemm's sgemm; written
for cuarray, as the project copies no CuPy code) run unchanged as programs: struct, vector and
matrix parameters by value from host NumPy values, Python ints for `int` parameters."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.gpu

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "example_programs")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.mark.parametrize("program", ["vector_param.py", "nested_struct.py", "matrix_param.py", "tiled_sgemm.py"])
def test_program_runs(program):
    env = dict(os.environ)
    env["PYTHONPATH"] = ROOT + os.pathsep + env.get("PYTHONPATH", "")
    r = subprocess.run([sys.executable, os.path.join(HERE, program)], capture_output=True, text=True, env=env,
                       timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "ok" in r.stdout or "matches dot" in r.stdout
