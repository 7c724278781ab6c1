"""`import cuarray` loads only what the operators, methods and ufuncs need; every other public name
is bound on first use (cuarray/__init__.py `_lazy`, _array_methods.py `_ON_FIRST_CALL`). These tests
check that the deferred names are still all there, and that the import really leaves them out."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import cuarray
from cuarray import _array_methods
from cuarray._core.ndarray import ndarray


def _fresh(code: str):
    """Run `code` in a fresh interpreter (this tree's cuarray) and return what it prints as JSON."""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


# The modules `import cuarray` adds (to those the interpreter and NumPy had loaded).
_LOADED = ("import sys, numpy; before = set(sys.modules); import cuarray\n"
           "loaded = sorted(set(sys.modules) - before); import json; print(json.dumps(loaded))")
# Subsystems that `import cuarray` must not load (each was 2-25 ms of it, docs/perf-notes.md).
_DEFERRED_MODULES = [
    "cuarray.linalg", "cuarray.fft", "cuarray.random", "cuarray.polynomial", "cuarray.profiler",
    "cuarray.sparse", "cuarray._core.fusion", "cuarray._sorting.sorting", "cuarray._statistics.averages",
    "cuarray._math.sums_scan", "cuarray._io.text", "cuarray._io.npy", "cuarray._info",
    "cuarray._indexing.inserting", "cuarray._window.functions", "cuarray._sets.unique",
    "cuarray._creation.ranges", "cuarray._padding.padding", "cuarray._functional.vectorize",
    "cuarray._core.elementwise_kernel", "cuarray._core.reduction_kernel", "cuarray.cuda.raw",
    "cuarray.cuda.runtime", "cuarray.cuda.memory_hook", "cuarray.cuda.memory_hooks", "cuarray.cuda._snapshot",
    "cuarray.cuda._managed", "cuarray.testing",
]


def test_import_leaves_subsystems_for_first_use():
    loaded = _fresh(_LOADED)
    assert "cuarray._core.ndarray" in loaded and "cuarray._math.arithmetic" in loaded  # (not vacuous)
    assert not [m for m in _DEFERRED_MODULES if m in loaded]
    # Standard-library modules only some paths need (kernel-cache writes, host-copy threads, hooks).
    assert not [m for m in ("concurrent.futures", "tempfile", "json", "importlib.metadata") if m in loaded]


def test_import_loads_no_cuda_package():
    loaded = _fresh(_LOADED)
    assert not [m for m in loaded if m.startswith(("cuda.core", "cuda.bindings", "nvmath"))]


@pytest.mark.parametrize("name", sorted(cuarray._ON_FIRST_USE))
def test_every_deferred_name_resolves(name):
    value = getattr(cuarray, name)
    assert value is not None
    assert name in vars(cuarray)  # bound once: the next access is a plain module attribute
    assert name in dir(cuarray)


@pytest.mark.parametrize("name", sorted(cuarray.cuda._ON_FIRST_USE))
def test_every_deferred_cuda_name_resolves(name):
    assert getattr(cuarray.cuda, name) is not None
    assert name in vars(cuarray.cuda) and name in dir(cuarray.cuda)


def test_deferred_cuda_names_are_the_modules_objects():
    from cuarray.cuda import memory_hook, raw

    assert cuarray.cuda.memory_hook is memory_hook and cuarray.cuda.MemoryHook is memory_hook.MemoryHook
    assert cuarray.RawKernel is raw.RawKernel is cuarray.cuda.RawKernel
    assert callable(cuarray.cuda.graph) and not isinstance(cuarray.cuda.graph, type(sys))  # the context manager
    with pytest.raises(AttributeError, match="cuarray.cuda' has no attribute 'nope'"):
        cuarray.cuda.nope  # noqa: B018


def test_deferred_names_are_the_modules_objects():
    import cuarray.linalg
    from cuarray._sorting import sorting

    assert cuarray.sort is sorting.sort
    assert cuarray.linalg is sys.modules["cuarray.linalg"]
    assert cuarray.matmul is cuarray.linalg._matmul.matmul


def test_unknown_name_raises_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        cuarray.no_such_name  # noqa: B018
    assert not hasattr(cuarray, "no_such_name")


def test_dir_and_star_import_list_deferred_names():
    names = _fresh("import json, cuarray; print(json.dumps([dir(cuarray), cuarray.__all__]))")
    listed, star = set(names[0]), set(names[1])
    for n in ("sort", "linalg", "fft", "random", "mean", "arange", "add", "ndarray", "sparse"):
        assert n in listed, n
    for n in ("sort", "linalg", "fft", "random", "mean", "arange", "add", "ndarray", "float32"):
        assert n in star, n
    assert "sparse" not in star and not [n for n in star if n.startswith("_")]
    ns = _fresh("import json\nfrom cuarray import *\nprint(json.dumps([callable(arange), callable(sort), "
                "linalg.__name__, 'sparse' in dir()]))")
    assert ns == [True, True, "cuarray.linalg", False]


def test_methods_of_deferred_modules_are_stand_ins_until_called():
    names = _fresh(
        "import json, cuarray\n"
        "from cuarray._core.ndarray import ndarray\n"
        "print(json.dumps([getattr(ndarray, n).__name__ for n in ('sort', 'mean', '__matmul__', 'dot', 'tofile')]))")
    assert names == ["sort", "mean", "__matmul__", "dot", "tofile"]
    for attr in _array_methods._ON_FIRST_CALL:
        assert callable(getattr(ndarray, attr)), attr


def test_stand_in_replaces_itself_with_the_bound_method(monkeypatch):
    # A stand-in resolves the routine, installs what bind() would have made, and calls it.
    calls = []

    def routine(a, *args, **kwargs):
        calls.append((a, args, kwargs))
        return "result"

    monkeypatch.setattr(ndarray, "std", ndarray.std)  # restored after the test
    monkeypatch.setitem(sys.modules, "cuarray._fake_routines", type(sys)("cuarray._fake_routines"))
    sys.modules["cuarray._fake_routines"].std = routine
    stand_in = _array_methods._on_first_call("std", "._fake_routines", "std", "method")
    monkeypatch.setattr(ndarray, "std", stand_in)
    a = object.__new__(ndarray)
    assert ndarray.std(a, 1, ddof=1) == "result"
    assert calls == [(a, (1,), {"ddof": 1})]
    assert ndarray.std is not stand_in and ndarray.std.__name__ == "std"
    assert ndarray.std(a) == "result" and len(calls) == 2


def test_numpy_matmul_dispatch_finds_the_deferred_matmul():
    # numpy.matmul(gpu, gpu) looks the cuarray ufunc up by name; matmul registers on first use.
    found = _fresh(
        "import json, numpy, sys, cuarray\n"
        "from cuarray._core import numpy_protocol\n"
        "before = 'cuarray.linalg._matmul' in sys.modules\n"
        "uf = numpy_protocol._cuarray_ufunc(numpy.matmul)\n"
        "print(json.dumps([before, uf is cuarray.matmul, numpy_protocol._cuarray_ufunc(numpy.frexp) is cuarray.frexp]))")
    assert found == [False, True, True]
