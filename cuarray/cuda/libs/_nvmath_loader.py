"""Load one of nvmath-python's binding modules (`nvmath.bindings.cublas`, ...) without running
nvmath's package `__init__`.

Why: Python imports a package before its submodules, and `nvmath/__init__.py` imports
`nvmath.fft`, `nvmath.linalg`, `nvmath.sparse`, `nvmath.tensor`, `nvmath.memory` and cuda.core's
program cache, none of which a cuBLAS call needs: 0.3 s warm and 0.9 s from a cold disk on a CPU
machine, 0.44-0.66 s on the H100, three quarters of a first matmul (docs/perf-notes.md, "First
call into a math library"). A binding module itself (a Cython extension and its `_internal`
loader) imports in 25-30 ms and needs nothing from the package but its location.

How, with the import system's documented machinery only: while one binding is imported, the two
parent packages (`nvmath`, `nvmath.bindings`) are present in `sys.modules` as hollow package
modules (a `ModuleSpec` with the real `submodule_search_locations` and no loader, so no
`__init__` runs), and Python's path finder finds the extension modules in the real folders. The
hollow parents are taken out of `sys.modules` again at once: the binding modules stay, and a later
`import nvmath` by anyone runs the real `__init__`, whose own `from nvmath.bindings import cublas`
finds the module already loaded. While `nvmath` is already imported (the user imported it), the
plain import is used.

Layout this relies on, checked by `check_layout()` (tests/cuda/test_nvmath_loader_cpu.py fails
loudly when a new nvmath-python changes it): `nvmath/bindings/<name>` is an extension module or
Python module beside `nvmath/bindings/__init__.py`, and importing it needs no attribute of the
`nvmath` or `nvmath.bindings` package objects.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import os
import sys
import threading

__all__ = ["load", "check_layout", "binding_path"]

_PARENTS = ("nvmath", "nvmath.bindings")
# One loader at a time: the hollow parents must not be seen by a second of our own imports while a
# first takes them out. (A user thread importing nvmath in the same ~30 ms could see the hollow
# package; it then finds nvmath's modules but not the package's own attributes. Our imports run
# under this lock and the first library call of a process is where they happen.)
_lock = threading.RLock()


def _nvmath_dir() -> str:
    """The folder of the installed `nvmath` package, found without importing it."""
    spec = importlib.util.find_spec("nvmath")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("No module named 'nvmath' (nvmath-python is not installed)", name="nvmath")
    return list(spec.submodule_search_locations)[0]


def binding_path(name: str) -> str:
    """The file `nvmath.bindings.<name>` loads from, found without importing anything."""
    bindings_dir = os.path.join(_nvmath_dir(), "bindings")
    spec = importlib.machinery.PathFinder.find_spec("nvmath.bindings." + name, [bindings_dir])
    if spec is None or spec.origin is None:
        raise ImportError("nvmath-python has no module nvmath.bindings.{} in {}".format(name, bindings_dir),
                          name="nvmath.bindings." + name)
    return spec.origin


def check_layout(names=("cublas", "cublasLt", "cusolverDn", "cufft", "cusparse")) -> dict:
    """name -> file for each binding module; raises ImportError naming what moved."""
    root = _nvmath_dir()
    if not os.path.isfile(os.path.join(root, "bindings", "__init__.py")):
        raise ImportError("nvmath-python's layout changed: no nvmath/bindings/__init__.py in " + root)
    return {n: binding_path(n) for n in names}


def _hollow_package(name: str, path: str):
    spec = importlib.machinery.ModuleSpec(name, None, is_package=True)
    spec.submodule_search_locations = [path]
    return importlib.util.module_from_spec(spec)


def load(name: str):
    """`nvmath.bindings.<name>`, imported without nvmath's package `__init__` where it has not run."""
    full = "nvmath.bindings." + name
    with _lock:
        mod = sys.modules.get(full)
        if mod is not None:
            return mod
        if "nvmath" in sys.modules:
            return importlib.import_module(full)
        root = _nvmath_dir()
        placed = {}
        try:
            for pkg, path in zip(_PARENTS, (root, os.path.join(root, "bindings"))):
                if pkg not in sys.modules:
                    placed[pkg] = sys.modules[pkg] = _hollow_package(pkg, path)
            return importlib.import_module(full)
        finally:
            for pkg, hollow in placed.items():
                if sys.modules.get(pkg) is hollow:
                    del sys.modules[pkg]
