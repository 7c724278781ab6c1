"""`cuarray.testing.fake_device` is the one fake device: importable without a GPU, not loaded by
`import cuarray`, standing in through the runtime's hook points; no second fake Device or backing
remains in tests/ or scripts/."""

from __future__ import annotations

import json
import pathlib
import re
import subprocess
import sys

from cuarray.testing import fake_device

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_install_runs_a_process_on_the_fake_device():
    script = fake_device.SCRIPT_PRELUDE + (
        "import json, sys, cuarray\n"
        "from cuarray.cuda import device, limits\n"
        "a = cuarray.arange(10, dtype=cuarray.float32)\n"
        "b = (a * 2 + 1).sum()\n"  # launches (no-ops) and a fused reduction's counter word
        "print(json.dumps([limits.shared_per_block(), device._sm_count(0), a.data.ptr >= 1 << 40,\n"
        "                  'scipy' in sys.modules]))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == [48 * 1024, 132, True, False]


def test_import_cuarray_does_not_load_it():
    code = "import sys, cuarray; print('cuarray.testing.fake_device' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "False"


def test_no_other_fake_device_or_backing():
    pattern = re.compile(r"^\s*class\s+\w*(Fake\w*(Device|Backing)|Host\w*Stub)\b", re.M)
    found = []
    for folder in ("tests", "scripts"):
        for path in (ROOT / folder).rglob("*.py"):
            if pattern.search(path.read_text(errors="replace")):
                found.append(str(path.relative_to(ROOT)))
    assert found == []
    assert not (ROOT / "tests" / "fake_device.py").exists() and not (ROOT / "scripts/perf/_host_stub.py").exists()


def test_recording_leaves_no_fake_kernel_in_a_definition():
    """A kernel compiled under `recording()` with the fake compile observer (what the distributed
    tests' `fake_runtime` sets) is a FakeKernel; every definition's own kernel table must forget it
    on exit, or the next test in the worker launches it on the real device (a Dask sum on the GPU
    machine: "expected cuda.core Kernel, got FakeKernel")."""
    import gc

    import cuarray
    from cuarray._core import elementwise, reduction, scan

    with fake_device.recording_fake_compiles():
        a = cuarray.arange(10, dtype=cuarray.float32)
        a.sum()
        cuarray.cumsum(a)
    kinds = (elementwise.Definition, reduction.ReductionDef, scan.ScanOp)
    left = [type(o).__name__ for o in gc.get_objects()
            if isinstance(o, kinds) and any(isinstance(k, fake_device.FakeKernel) for k in o._kernels.values())]
    assert not left
