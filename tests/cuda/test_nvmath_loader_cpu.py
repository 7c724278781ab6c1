"""The math libraries' bindings load without nvmath's package __init__ (cuda/libs/_nvmath_loader.py):
a first library call pays only for the binding it needs. No GPU needed."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(importlib.util.find_spec("nvmath") is None,
                                reason="nvmath-python is not installed (pip install -e '.[cu13]')")

_BINDINGS = ("cublas", "cublasLt", "cusolverDn", "cufft", "cusparse")


def _child(code: str) -> dict:
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_layout_the_loader_relies_on():
    """Breaks loudly when a new nvmath-python moves its binding modules: each is found, as a file,
    beside nvmath/bindings/__init__.py, without importing nvmath."""
    from cuarray.cuda.libs import _nvmath_loader

    before = set(sys.modules)
    found = _nvmath_loader.check_layout(_BINDINGS)
    assert set(found) == set(_BINDINGS)
    for path in found.values():
        assert "bindings" in path
    assert not {m for m in set(sys.modules) - before if m.startswith("nvmath")}


def test_first_call_imports_leave_nvmath_package_unimported():
    """The imports of the first matmul/solve/fft/spmv path (as far as they run without a GPU) load
    the binding modules and none of nvmath's heavy packages; a later `import nvmath` runs the real
    package and shares the same binding modules."""
    out = _child(r"""
import json, sys, time
import cuarray
from cuarray.cuda.libs import cublas, cusolver
from cuarray.cuda.libs._handles import nvmath_bindings
t0 = time.perf_counter()
cublas.bindings(); cublas.lt_bindings()
cusolver.bindings()
nvmath_bindings("cufft"); nvmath_bindings("cusparse")
elapsed = time.perf_counter() - t0
heavy = sorted(m for m in sys.modules if m in ("nvmath", "nvmath.fft", "nvmath.linalg", "nvmath.sparse",
                                                "nvmath.tensor", "nvmath.memory", "nvmath.bindings"))
loaded = sorted(m for m in sys.modules if m.startswith("nvmath.bindings."))
first = sys.modules["nvmath.bindings.cublas"]
import nvmath, nvmath.fft
print(json.dumps({"heavy": heavy, "loaded": loaded, "elapsed": elapsed,
                  "shared": nvmath.bindings.cublas is first, "version": nvmath.__version__}))
""")
    assert out["heavy"] == [], out
    for name in _BINDINGS:
        assert "nvmath.bindings." + name in out["loaded"]
    assert out["shared"] and out["version"]


def test_loader_defers_to_an_imported_nvmath():
    """Where the program imported nvmath itself, the binding is the package's own module."""
    out = _child(r"""
import json, sys
import nvmath
from cuarray.cuda.libs import _nvmath_loader
m = _nvmath_loader.load("cublas")
print(json.dumps({"same": m is nvmath.bindings.cublas}))
""")
    assert out["same"]


def test_missing_binding_names_it():
    from cuarray.cuda.libs import _nvmath_loader

    with pytest.raises(ImportError, match="no_such_library"):
        _nvmath_loader.binding_path("no_such_library")
