"""Imports of cuarray inside functions are few, and each says why it is there (docs/contributing.md):
an import is at module level unless

- ``# import time:`` it would load, at `import cuarray` or at a subsystem's import, a module that
  only some calls need (the cost measured or the module named);
- ``# cycle:`` the module it names imports this one (at module level, directly or not);
- ``# optional dependency:`` it needs a package cuarray does not require.

The reason is a comment on the import statement, starting with one of those three. The count
covers every module of the package (the runtime layer, the engine, the routines, the bench and the
testing helpers) and may not grow past MAX: an import that can move to module level moves there.
"""

from __future__ import annotations

import ast
import functools
import pathlib
import re

PKG = pathlib.Path(__file__).resolve().parent.parent / "cuarray"
MAX = 40
REASONS = ("# import time:", "# cycle:", "# optional dependency:")
# (an import inside a function is indented: files with none are not parsed)
_INDENTED_IMPORT = re.compile(r"^[ \t]+(?:from \.|from cuarray\b|import cuarray\b)", re.M)


@functools.lru_cache(maxsize=None)
def function_level_imports(pkg: pathlib.Path = PKG) -> dict:
    """{"path:line": the comment on the statement ('' where none)} of every import of cuarray
    (absolute or relative) inside a function of the package."""
    out = {}
    for path in sorted(pkg.rglob("*.py")):
        text = path.read_text()
        if not _INDENTED_IMPORT.search(text):
            continue
        lines = text.splitlines()
        seen = set()
        for fn in ast.walk(ast.parse(text, str(path))):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(fn):
                if id(node) in seen or not isinstance(node, (ast.Import, ast.ImportFrom)):
                    continue
                seen.add(id(node))
                if isinstance(node, ast.ImportFrom):
                    internal = node.level > 0 or (node.module or "").split(".")[0] == "cuarray"
                else:
                    internal = any(a.name.split(".")[0] == "cuarray" for a in node.names)
                if not internal:
                    continue
                commented = [lines[i - 1] for i in range(node.lineno, node.end_lineno + 1) if "#" in lines[i - 1]]
                comment = commented[0][commented[0].index("#"):].strip() if commented else ""
                out["{}:{}".format(path.relative_to(pkg.parent).as_posix(), node.lineno)] = comment
    return out


def test_each_function_level_import_says_why():
    found = function_level_imports()
    bad = sorted(k for k, c in found.items() if not c.startswith(REASONS))
    assert not bad, ("function-level imports of cuarray with no reason ({}): move each to module level, or "
                     "give the reason on the statement: {}".format(" / ".join(REASONS), bad))


def test_few_function_level_imports():
    found = function_level_imports()
    assert len(found) <= MAX, ("{} function-level imports of cuarray (at most {}): move one to module level "
                               "where no cycle or import-time cost asks otherwise: {}".format(
                                   len(found), MAX, sorted(found)))


def test_the_count_sees_nested_relative_and_absolute_imports(tmp_path):
    pkg = tmp_path / "cuarray"
    pkg.mkdir()
    (pkg / "a.py").write_text(
        "import os\nfrom . import b\n"
        "def f():\n    import json\n    from . import c  # cycle: c imports a\n"
        "    def g():\n        import cuarray.d\n    return g\n"
        "class K:\n    def m(self):\n        from .e import (x,  # import time: e is slow\n            y)\n")
    assert function_level_imports(pkg) == {"cuarray/a.py:5": "# cycle: c imports a", "cuarray/a.py:7": "",
                                           "cuarray/a.py:11": "# import time: e is slow"}
