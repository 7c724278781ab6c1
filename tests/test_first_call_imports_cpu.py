"""What a first call imports (issue 51): a subsystem's first use loads only what that call needs.
Checked in fresh processes; no GPU needed."""

from __future__ import annotations

import json
import subprocess
import sys


def _modules_after(code: str) -> set:
    proc = subprocess.run([sys.executable, "-c", code + "\nimport sys, json; print(json.dumps(sorted(sys.modules)))"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return set(json.loads(proc.stdout.strip().splitlines()[-1]))


def test_random_does_not_load_linalg():
    mods = _modules_after("import cuarray.random")
    assert "cuarray.linalg._decomp" not in mods and "cuarray.linalg._svd" not in mods


def test_sparse_loads_neither_its_solvers_nor_random():
    mods = _modules_after("import cuarray.sparse")
    assert "cuarray.sparse.linalg" not in mods
    assert "cuarray.random" not in mods


def test_sparse_linalg_on_first_access():
    mods = _modules_after("import cuarray.sparse as s\nassert s.linalg.cg is not None\n"
                          "from cuarray.sparse import linalg\nassert linalg is s.linalg\n"
                          "assert 'linalg' in dir(s)\n"
                          "import cuarray.sparse.linalg as l\nassert l is s.linalg")
    assert "cuarray.sparse.linalg" in mods
