"""``python -m cuarray info --coverage``: which of NumPy's and the Array API's names cuarray has.

Walks NumPy's public namespace (the main namespace, `ndarray`'s methods and attributes,
numpy.linalg/fft/random/exceptions/polynomial and the public array-code parts of numpy.lib) and the
Array API 2025.12 names, and marks each name present, missing, or out of scope with the reviewed
reason from `_coverage_scope.OUT_OF_SCOPE`. `--output docs/coverage.md` writes the table the
repository keeps; a CPU test fails when a name that the table marks present disappears. When CuPy
is importable its coverage is added as a column (the floor cuarray aims to stay above).
"""

from __future__ import annotations

import importlib
import re
import sys
from typing import NamedTuple

import numpy

from ._coverage_scope import ARRAY_API, ARRAY_API_VERSION, OUT_OF_SCOPE, PREFIX_OUT_OF_SCOPE

__all__ = ["Section", "sections", "resolve", "status", "render", "main", "parse_present"]

PRESENT, MISSING, OUT = "present", "missing", "out of scope"


class Section(NamedTuple):
    title: str  # the NumPy (or Array API) namespace, e.g. "numpy.linalg"
    target: str  # where cuarray must have the names, e.g. "cuarray.linalg"
    names: tuple  # sorted names
    numpy_prefix: str  # the qualified prefix for OUT_OF_SCOPE look-ups ("" for the Array API)


def _public(obj) -> list[str]:
    return [n for n in dir(obj) if not n.startswith("_") and n != "test"]


def _ndarray_names() -> list[str]:
    # Public attributes and methods, plus the protocols NumPy's ndarray defines beyond object's.
    dunders = set(dir(numpy.ndarray)) - set(dir(object))
    return _public(numpy.ndarray) + sorted(n for n in dunders if n.startswith("__"))


# (NumPy module path, cuarray path) for each walked NumPy namespace.
_NUMPY_MODULES = (
    ("numpy.linalg", "cuarray.linalg"), ("numpy.fft", "cuarray.fft"), ("numpy.random", "cuarray.random"),
    ("numpy.exceptions", "cuarray.exceptions"), ("numpy.polynomial", "cuarray.polynomial"),
    ("numpy.lib", "cuarray.lib"), ("numpy.lib.stride_tricks", "cuarray.lib.stride_tricks"),
    ("numpy.lib.array_utils", "cuarray.lib.array_utils"), ("numpy.lib.scimath", "cuarray.lib.scimath"),
)


def sections() -> list[Section]:
    """Every walked namespace with its names, NumPy's first, then the Array API's."""
    out = [Section("numpy", "cuarray", tuple(sorted(_public(numpy))), "numpy."),
           Section("numpy.ndarray", "cuarray.ndarray", tuple(sorted(_ndarray_names())), "numpy.ndarray.")]
    for mod, target in _NUMPY_MODULES:
        names = _public(importlib.import_module(mod))
        if mod == "numpy.lib":  # its submodules are walked on their own (or out of scope)
            names = [n for n in names if not isinstance(getattr(numpy.lib, n), type(numpy))]
        out.append(Section(mod, target, tuple(sorted(names)), mod + "."))
    api = "Array API {}".format(ARRAY_API_VERSION)
    where = {"": "cuarray", "ndarray": "cuarray.ndarray", "info": "cuarray.__array_namespace_info__()",
             "linalg": "cuarray.linalg", "fft": "cuarray.fft"}
    for key, names in ARRAY_API.items():
        title = "{}: {}".format(api, {"": "main namespace", "ndarray": "array object",
                                       "info": "inspection (__array_namespace_info__())"}.get(key, key))
        out.append(Section(title, where[key], tuple(sorted(names)), ""))
    return out


def resolve(target: str, root=None):
    """The object at a dotted `target` path ("cuarray.linalg", "cuarray.__array_namespace_info__()"),
    or None when some part is absent. `root` replaces the leading package (CuPy's floor)."""
    parts = target.split(".")
    if root is None:
        root = importlib.import_module(parts[0])
    obj = root
    for p in parts[1:]:
        call = p.endswith("()")
        obj = getattr(obj, p[:-2] if call else p, None)
        if obj is None:
            return None
        if call:
            try:
                obj = obj()
            except Exception:
                return None
    return obj


def _has(owner, name: str) -> bool:
    if owner is None:
        return False
    try:
        return hasattr(owner, name)
    except Exception:
        return False


def status(section: Section, name: str, owner) -> tuple[str, str]:
    """(status, reason) of one name: present wins over the out-of-scope table."""
    if _has(owner, name):
        return PRESENT, ""
    if section.numpy_prefix:
        qual = section.numpy_prefix + name
        if qual in OUT_OF_SCOPE:
            return OUT, OUT_OF_SCOPE[qual]
        for prefix, reason in PREFIX_OUT_OF_SCOPE.items():
            if qual.startswith(prefix):
                return OUT, reason
    return MISSING, ""


def _cupy():
    try:
        import cupy  # noqa: F401  (a peer: only to report its coverage, never used at run time)

        return cupy
    except Exception:
        return None


def render() -> str:
    """docs/coverage.md as a string."""
    cupy = _cupy()
    rows, summary = [], []
    for sec in sections():
        owner = resolve(sec.target)
        cp_owner = resolve(sec.target, cupy) if cupy is not None else None
        counts = {PRESENT: 0, MISSING: 0, OUT: 0}
        cp_count = 0
        lines = ["", "## `{}` -> `{}`".format(sec.title, sec.target), ""]
        lines.append("| name | status | reason (out of scope) |" + (" CuPy |" if cupy else ""))
        lines.append("|---|---|---|" + ("---|" if cupy else ""))
        for name in sec.names:
            st, why = status(sec, name, owner)
            counts[st] += 1
            cell = ""
            if cupy is not None:
                has = _has(cp_owner, name)
                cp_count += has
                cell = " {} |".format("yes" if has else "no")
            lines.append("| `{}` | {} | {} |{}".format(name, st, why, cell))
        rows.extend(lines)
        summary.append("| `{}` | {} | {} | {} | {} |{}".format(
            sec.title, counts[PRESENT], counts[MISSING], counts[OUT], len(sec.names),
            " {} |".format(cp_count) if cupy else ""))
    head = [
        "# Coverage: NumPy's and the Array API's names in cuarray",
        "",
        "Generated by `python -m cuarray info --coverage --output docs/coverage.md` with NumPy {}{}; do not "
        "edit by hand. \"missing\" means not done yet; \"out of scope\" carries the reviewed reason from "
        "`cuarray/_coverage_scope.py`. `tests/test_coverage.py` fails when a name marked present here "
        "disappears.".format(numpy.__version__, " and CuPy {}".format(cupy.__version__) if cupy else ""),
        "",
        "| namespace | present | missing | out of scope | total |" + (" CuPy has |" if cupy else ""),
        "|---|---|---|---|---|" + ("---|" if cupy else ""),
    ]
    return "\n".join(head + summary + rows) + "\n"


_HEADING = re.compile(r"^## `[^`]+` -> `([^`]+)`$")
_ROW = re.compile(r"^\| `([^`]+)` \| (present|missing|out of scope) \|")


def parse_present(text: str) -> list[tuple[str, str]]:
    """(target, name) of every row marked present in a rendered coverage page."""
    out, target = [], None
    for line in text.splitlines():
        m = _HEADING.match(line)
        if m:
            target = m.group(1)
            continue
        m = _ROW.match(line)
        if m and target and m.group(2) == PRESENT:
            out.append((target, m.group(1)))
    return out


def main(output: str | None = None) -> int:
    text = render()
    if output:
        with open(output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0
