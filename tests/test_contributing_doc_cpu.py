"""docs/contributing.md cannot go stale: every file path it quotes exists, every `cuarray.x.y` name
resolves, every test it names (`tests/x.py::test_y`, or a `test_y` after a tests/ path in the same
paragraph) is defined, and docs/index.md's toctree reaches the page."""

from __future__ import annotations

import importlib
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
TEXT = (ROOT / "docs" / "contributing.md").read_text()
QUOTED = re.findall(r"`([^`\n]+)`", TEXT)
PATH = re.compile(r"^(?:[\w.-]+/)+[\w.-]*$|^[\w.-]+\.(?:py|md|cu|cuh)$")


def _paths():
    out = set()
    for q in QUOTED:
        for token in q.split():
            token = token.split("::")[0].rstrip(",;:")
            if "/" in token and PATH.match(token) and "<" not in token:
                out.add(token)
    return sorted(out)


def _resolve(path: str) -> pathlib.Path:
    """A quoted path, from the repository root or (a bare file name) from docs/."""
    for base in (ROOT, ROOT / "docs"):
        if (base / path).exists():
            return base / path
    return ROOT / path


def test_quotes_paths():
    assert len(_paths()) > 20, _paths()


@pytest.mark.parametrize("path", _paths())
def test_every_quoted_path_exists(path):
    assert _resolve(path).exists(), path


def _names():
    return sorted({q for q in QUOTED if re.fullmatch(r"cuarray(\.\w+)+", q)})


@pytest.mark.parametrize("name", _names())
def test_every_cuarray_name_resolves(name):
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for attr in parts[i:]:
            obj = getattr(obj, attr)
        return
    pytest.fail(name)


def _tests():
    """(file, test name) of each test the page names: `file::test` or a bare `test_x` quoted in a
    paragraph (or list item) that quotes test files (it must be in one of them)."""
    out = set()
    for block in re.split(r"\n\s*\n|\n- ", TEXT):
        quoted = re.findall(r"`([^`\n]+)`", block)
        files = [q.split("::")[0] for q in quoted if q.startswith("tests/") and q.split("::")[0].endswith(".py")]
        for q in quoted:
            if "::" in q and q.startswith("tests/"):
                out.add((q.split("::")[0], (q.split("::")[1],)))
            elif re.fullmatch(r"test_\w+", q):
                out.add(("|".join(files), (q,)))
    return sorted(out)


@pytest.mark.parametrize("files,name", _tests())
def test_every_named_test_exists(files, name):
    assert files, "{} is quoted in a paragraph that names no test file".format(name[0])
    texts = [(ROOT / f).read_text() for f in files.split("|")]
    assert any(re.search(r"^def {}\(".format(name[0]), t, re.M) for t in texts), (files, name[0])


def test_every_kernel_family_declaration_quoted_is_the_modules():
    """The page's KernelFamily block is the example module's declaration, verbatim."""
    block = re.search(r"```python\n(.*?)```", TEXT, re.S).group(1)
    assert block in (ROOT / "cuarray" / "scipy" / "special" / "_softmax.py").read_text()


def test_reachable_from_the_index():
    index = (ROOT / "docs" / "index.md").read_text()
    entries = [e.strip() for b in re.findall(r"```\{toctree\}\n(.*?)```", index, re.S) for e in b.splitlines()]
    assert "contributing" in entries
