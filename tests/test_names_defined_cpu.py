"""Every name a module's code reads is defined: imported, assigned, a builtin. CI has no GPU, so a
GPU-only test (or a device-only branch of the package) is only ever compiled there; a name left
behind by a refactor (a table moved to a shared module, its local `inf` with it) fails first on
the GPU machine. The symbol tables of every file under cuarray/, tests/ and scripts/ catch it here."""

from __future__ import annotations

import builtins
import pathlib
import re
import symtable

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
_MODULE_NAMES = {"__file__", "__name__", "__builtins__", "__spec__", "__doc__", "__path__", "__package__",
                 "__loader__"}
# Read on purpose without a definition: a compiled function's error message names the missing global.
_DELIBERATE = {("tests/_functional/test_vectorize_compile_cpu.py", "not_defined_anywhere")}


def undefined_names(source: str, filename: str) -> list:
    """(scope, line, name) for each name read in `source` that nothing defines (none for a module
    with a star import, whose names cannot be known from its text)."""
    if re.search(r"^\s*from\s+\S+\s+import\s+\*", source, re.M):
        return []
    top = symtable.symtable(source, filename, "exec")
    symbols = top.get_symbols()
    known = ({s.get_name() for s in symbols if s.is_assigned() or s.is_imported() or s.is_namespace()}
             | set(dir(builtins)) | _MODULE_NAMES)
    found = []

    def walk(table):
        for s in table.get_symbols():
            free_global = s.is_global() and not s.is_declared_global()
            at_top = table is top and not (s.is_assigned() or s.is_imported())
            if s.is_referenced() and (free_global or at_top) and s.get_name() not in known:
                found.append((table.get_name(), table.get_lineno(), s.get_name()))
        for child in table.get_children():
            walk(child)

    walk(top)
    return found


def test_every_name_read_is_defined():
    bad = []
    for folder in ("cuarray", "tests", "scripts"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            for scope, line, name in undefined_names(path.read_text(encoding="utf-8"), rel):
                if (rel, name) not in _DELIBERATE:
                    bad.append("{}:{} {}: {}".format(rel, line, scope, name))
    assert not bad, "names read and never defined:\n" + "\n".join(bad)


@pytest.mark.parametrize("src, want", [
    ("import numpy as np\ndef f():\n    return np.array(complex(-inf, 1))\n", ["inf"]),
    ("def f():\n    inf = 1.0\n    return inf\n", []),
    ("x = y + 1\n", ["y"]),
    ("from math import inf\nclass C:\n    def m(self):\n        return inf, len\n", []),
    ("from os.path import *\ndef f():\n    return join2\n", []),
])
def test_the_check_sees_undefined_names(src, want):
    assert [name for _, _, name in undefined_names(src, "t.py")] == want
