"""The layering rule of DESIGN.md, checked on the source (no GPU): imports point down.

Nothing under `cuarray/cuda/` or `cuarray/_core/` imports a routine folder, a subsystem
(`linalg`, `fft`, `random`, ...) or the package root, counting imports inside functions;
`cuarray/cuda/` imports nothing of `_core`. What the engine needs from above comes through
`_core/registry.py`.
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
