"""Test modules outside a package are imported by their file name alone (pytest's rootdir import
mode): two such files with one name fail to collect in the same process, on whichever machine
collects both (tests/scipy/optimize/test_elementwise_gpu.py against tests/_core's)."""

from __future__ import annotations

import collections
import pathlib

TESTS = pathlib.Path(__file__).resolve().parent


def _module_name(path: pathlib.Path) -> str:
    """The name pytest imports `path` under: dotted through the packages (folders with an
    __init__.py) it sits in, the bare file name otherwise."""
    parts = [path.stem]
    folder = path.parent
    while (folder / "__init__.py").exists():
        parts.insert(0, folder.name)
        folder = folder.parent
    return ".".join(parts)


def test_every_test_module_imports_under_its_own_name():
    names = collections.defaultdict(list)
    for path in TESTS.rglob("test_*.py"):
        names[_module_name(path)].append(str(path.relative_to(TESTS)))
    clashes = {n: sorted(p) for n, p in names.items() if len(p) > 1}
    assert not clashes, clashes
