"""The layering rule (docs/architecture.md), checked on the source (no GPU): imports point down.

Nothing under `cuarray/cuda/` or `cuarray/_core/` imports a routine folder, a subsystem
(`linalg`, `fft`, `random`, ...) or the package root, counting imports inside functions;
`cuarray/cuda/` imports nothing of `_core`. What the engine needs from above comes through
`_core/registry.py`. Above the engine, the routine folders and subsystems follow one order
(`ROUTINE_LAYERS`): none imports a layer above its own.
"""

from __future__ import annotations

import ast
import pathlib
import sys

import pytest

PKG = pathlib.Path(__file__).resolve().parent.parent / "cuarray"


def _module_name(path: pathlib.Path) -> str:
    rel = path.relative_to(PKG.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: pathlib.Path):
    """(line, absolute module name) of every import in the file, function-level ones included;
    `from pkg import x` yields pkg.x as well (x may be a submodule)."""
    mod = _module_name(path)
    package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for a in node.names:
                yield node.lineno, a.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                full = ".".join(base + ([node.module] if node.module else []))
            else:
                full = node.module or ""
            yield node.lineno, full
            for a in node.names:
                yield node.lineno, full + "." + a.name


def _within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def _violations(layer: str, allowed: tuple) -> list:
    out = []
    for path in sorted((PKG / layer).rglob("*.py")):
        for line, target in imports_of(path):
            if not _within(target, "cuarray"):
                continue
            if not any(_within(target, a) for a in allowed):
                out.append("{}:{} imports {}".format(path.relative_to(PKG.parent), line, target))
    return out


def test_cuda_layer_imports_only_itself():
    assert _violations("cuda", ("cuarray.cuda",)) == []


def test_core_imports_only_itself_and_cuda():
    assert _violations("_core", ("cuarray.cuda", "cuarray._core")) == []


def test_the_check_sees_function_level_and_root_imports(tmp_path, monkeypatch):
    """A check that cannot fail is no check: an upward import inside a function, and the package
    root, are both reported."""
    core = tmp_path / "cuarray" / "_core"
    core.mkdir(parents=True)
    (tmp_path / "cuarray" / "__init__.py").write_text("")
    (core / "__init__.py").write_text("")
    (core / "bad.py").write_text("def f():\n    from .._math import misc\n    import cuarray\n")
    monkeypatch.setattr(sys.modules[__name__], "PKG", tmp_path / "cuarray")
    found = _violations("_core", ("cuarray.cuda", "cuarray._core"))
    assert any("cuarray._math" in v for v in found) and any(v.endswith("imports cuarray") for v in found)


@pytest.mark.parametrize("name", ["_asarray", "_as_device", "_to_device"])
def test_no_private_host_input_helpers(name):
    """Host input follows one policy, `_core/host_input.py`; routine modules keep no copy of it."""
    found = []
    for path in sorted(PKG.rglob("*.py")):
        if _within(_module_name(path), "cuarray._core") or _within(_module_name(path), "cuarray.cuda"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef) and node.name == name:
                found.append("{}:{}".format(path.relative_to(PKG.parent), node.lineno))
    assert found == []


def test_only_the_runtime_layer_touches_cuda_python():
    """cuda.core, cuda.bindings and nvmath are imported, and our streams' cuda.core handles and the
    raw launch are touched, only under cuarray/cuda/ (every launch goes through launch.enqueue,
    so a launch hook sees it). `_info.py` (the `python -m cuarray info` report) may name versions."""
    found = []
    for path in sorted(PKG.rglob("*.py")):
        name = _module_name(path)
        if _within(name, "cuarray.cuda"):
            continue
        text = path.read_text()
        for line, target in imports_of(path):
            if any(_within(target, m) for m in ("cuda.core", "cuda.bindings", "nvmath")):
                found.append("{}:{} imports {}".format(path.relative_to(PKG.parent), line, target))
        for private in ("._cs", "._core()", "_launch_fn", "_backend.driver(", "_backend.core(", "launch._raw"):
            if private in text:
                found.append("{} uses {}".format(path.relative_to(PKG.parent), private))
    assert found == []


# The routine folders and subsystems, bottom to top (docs/architecture.md): a module imports its own
# layer and those below, never one above, imports inside functions included. Within a layer the
# folders may import each other (Python's import proves the module-level imports acyclic).
# "" is the package root (`cuarray/__init__.py`, and any name reached as `from cuarray import x`).
ROUTINE_LAYERS = (
    ("exceptions", "lib", "_dtype", "_misc", "_creation", "_manipulation", "_indexing"),
    ("_math", "_logic", "_bitwise", "_sorting", "fft"),
    ("_statistics", "_sets", "_functional", "_window", "_io", "_padding"),
    ("linalg",),
    ("random", "_polynomial", "polynomial"),
    ("sparse",),
    ("scipy",),
    ("distributed", "profiler"),
    ("", "_array_methods", "_array_api_info", "_info", "_coverage", "_coverage_scope", "_scipy_dispatch"),
    ("bench", "testing", "__main__"),
)
_ENGINE = ("cuda", "_core")


def _unit(name: str) -> str:
    """The top-level folder or module of `cuarray.<unit>...`; "" for the root package and for names
    that are not a folder or module of it (`from cuarray import zeros`)."""
    parts = name.split(".")
    if len(parts) < 2:
        return ""
    head = parts[1]
    known = head in _ENGINE or (PKG / head).is_dir() or (PKG / (head + ".py")).is_file()
    return head if known else ""


def _layer_of(unit: str):
    if unit in _ENGINE:
        return -1
    for i, names in enumerate(ROUTINE_LAYERS):
        if unit in names:
            return i
    return None


def _order_violations() -> list:
    """Each import of a unit in a higher layer, and each unit the order does not place."""
    out = []
    for path in sorted(PKG.rglob("*.py")):
        unit = _unit(_module_name(path))
        if unit in _ENGINE:
            continue  # checked above, more strictly
        mine = _layer_of(unit)
        if mine is None:
            out.append("{}: {!r} has no place in ROUTINE_LAYERS".format(path.relative_to(PKG.parent), unit))
            continue
        for line, target in imports_of(path):
            if not _within(target, "cuarray"):
                continue
            theirs = _layer_of(_unit(target))
            if theirs is None or theirs > mine:
                out.append("{}:{} imports {}".format(path.relative_to(PKG.parent), line, target))
    return out


def test_routine_layers_import_downward():
    assert _order_violations() == []


def test_the_order_check_fails_on_a_planted_upward_import(tmp_path, monkeypatch):
    """Plant upward imports in a copy-shaped tree: a routine page reaching a subsystem inside a
    function, a subsystem reaching the package root, and a folder the order does not name."""
    root = tmp_path / "cuarray"
    for folder in ("_creation", "_math", "linalg", "random", "_newthing"):
        (root / folder).mkdir(parents=True)
        (root / folder / "__init__.py").write_text("")
    (root / "__init__.py").write_text("from ._creation import basic\n")
    (root / "_creation" / "basic.py").write_text("def f():\n    from ..linalg import inv\n")
    (root / "_math" / "ok.py").write_text("from .._creation import basic\nfrom ..cuda import launch\n")
    (root / "random" / "bad.py").write_text("def g():\n    from .. import sqrt\n")
    monkeypatch.setattr(sys.modules[__name__], "PKG", root)
    found = _order_violations()
    assert any(v.startswith("cuarray/_creation/basic.py:2 imports cuarray.linalg") for v in found)
    assert any(v.startswith("cuarray/random/bad.py:2 imports cuarray.sqrt") for v in found)
    assert any("'_newthing' has no place" in v for v in found)
    assert not any("_math/ok.py" in v or v.startswith("cuarray/__init__.py") for v in found)
    # ... and a downward import inside a function needs its reason
    (root / "_math" / "lazy.py").write_text("def h():\n    from .._creation import basic\n\n\n"
                                             "def k():\n    from .._creation import basic  # cycle: a reason\n")
    assert _unexplained_function_level_imports() == ["cuarray/_creation/basic.py:2", "cuarray/_math/lazy.py:2",
                                                     "cuarray/random/bad.py:2"]


def _unexplained_function_level_imports() -> list:
    """Imports of cuarray inside functions of the routine folders and subsystems with no comment
    on the statement (the reason: a cycle the order allows, an import-time cost, an optional
    dependency)."""
    below_root = {u for names in ROUTINE_LAYERS[: _layer_of("")] for u in names}
    out = []
    for path in sorted(PKG.rglob("*.py")):
        if _unit(_module_name(path)) not in below_root:
            continue
        text = path.read_text()
        lines = text.splitlines()
        for fn in ast.walk(ast.parse(text)):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(fn):
                if not isinstance(node, (ast.Import, ast.ImportFrom)):
                    continue
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
                internal = getattr(node, "level", 0) or any(_within(n, "cuarray") for n in names)
                if internal and not any("#" in lines[i - 1] for i in range(node.lineno, node.end_lineno + 1)):
                    out.append("{}:{}".format(path.relative_to(PKG.parent), node.lineno))
    return sorted(set(out))


def test_function_level_imports_say_why():
    assert _unexplained_function_level_imports() == []
