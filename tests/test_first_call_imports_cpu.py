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


def test_random_import_leaves_permutations_and_sorting_for_later():
    # The first draw needs neither (14 of the ~35 ms `import cuarray.random` took on a CPU box).
    mods = _modules_after("import cuarray.random")
    assert "cuarray.random._permutation" not in mods and "cuarray._sorting.sorting" not in mods
    assert "cuarray.random._multivariate" not in mods


def test_first_draw_looks_up_one_kernel_of_the_core_module():
    # The core module compiles 31 kernels together; the first draw used to look up all 31 in the
    # loaded module and build a launcher for each. Now only the one it launches (fake device).
    from cuarray.testing.fake_device import SCRIPT_PRELUDE

    code = SCRIPT_PRELUDE + (
        "import numpy, cuarray\n"
        "from cuarray.cuda import kernel_family\n"
        "z = cuarray.random.default_rng(0).random(4096, dtype=numpy.float32)\n"
        "made = sum(len(v) if isinstance(v, tuple) else 1 for v in kernel_family._cache.values())\n"
        "assert made == 1, made\n"
        "r = cuarray.random.default_rng(1)\n"
        "r.standard_normal(8); r.integers(0, 9, 8); r.random(8)\n"
        "made = sum(len(v) if isinstance(v, tuple) else 1 for v in kernel_family._cache.values())\n"
        "assert made == 4, made\n"  # + normal and uniform in double, integers
        "p = r.permutation(10)\n"  # permutations still load on first use
        "assert 'cuarray.random._permutation' in sys.modules\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
