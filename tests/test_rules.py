"""The architecture rules that hold by test (docs/architecture.md, "Rules"), checked on the source:

- every kernel launch outside the runtime (`cuarray/cuda/`) goes through a declaration
  (cuda/kernel_family.py): a kernel family's `Kernel`, which packs its arguments from the kernel's
  declaration, or, for the kernels the engine generates (`cuarray/_core/`), the `Skeleton` that
  declares their parameters (its bound `Kernel`s, its `launch` and `enqueue`): no `launch.launch`
  / `launch.enqueue` / `launch.launch_struct` call with a hand-built argument tuple;
- every compile of a kernel to launch goes through cuda/kernel_family.py: no module but it (and
  the compiler, and RawKernel/RawModule, the user's API) calls `compiler.compile_module` (compile
  and load), so none keeps a private compile cache: the families' one cache holds every template's
  kernels, and the engine's generated ones (elementwise, reduction, scan: `kernel_family.generated`).
  `compiler.compile_cubin` is outside the rule: it compiles for a named architecture with no device
  and loads nothing, so what it returns can be neither launched nor cached as a kernel (the fusion
  planner's `explain(compile=True)` reports a cubin's size with it; CI's code-generation tests use
  it too);
- no source file in `cuarray/` (Python, CUDA, C) over 800 lines, no function over 120 lines;
- no assignment to another module's attributes (``mod.x = ...``, ``setattr(mod, ...)``) in
  `cuarray/`: hooks are explicit, nothing is monkey-patched;
- no shim (`test_no_shim_modules` says what one is): a module imports each name from the module
  that defines it.
- no comment or docstring in `cuarray/`, and no line of README.md or docs/, points at an issue by
  number ("issue 51", "issue #7818"):
  the text says why, which a tracker's number does not (and it outlives the tracker).
- a measurement script in `scripts/perf/` stays while something cites it: a docs page, or the
  comment in `cuarray/`, `tests/` or `scripts/` whose decision it measured (or a cited script that
  imports it). A variant that lost its measurement is deleted: git keeps it.

Where the code does not follow a rule yet, the exception is listed below by file. Each list may only
shrink: an entry that no longer breaks its rule fails the test (delete it), and the lists' sizes
are capped at what they were when the rule came in.
"""

from __future__ import annotations

import ast
import functools
import importlib.util
import pathlib
import re

import pytest

PKG = pathlib.Path(__file__).resolve().parent.parent / "cuarray"
MAX_FILE_LINES = 800
MAX_FUNCTION_LINES = 120

# (arange's memoised fast path launches through the engine's `FlatLaunch.bind`.)
LAUNCH_ALLOWED: set = set()
LAUNCH_ALLOWED_MAX = 0
COMPILE_ALLOWED: set = set()
COMPILE_ALLOWED_MAX = 0
FILE_LINES_ALLOWED: set = set()
FILE_LINES_ALLOWED_MAX = 0
FUNCTION_LINES_ALLOWED: set = set()
FUNCTION_LINES_ALLOWED_MAX = 0
# None: memory hooks and the OOM snapshot fill hook points (`memory.set_memory_hooks`,
# `_memory_base.set_oom_details`), the profiler reports through `cuda/_observe.py` and the launch
# hook, and the bench chooses quantiles' method by `quantiles.order_statistics_by`.
PATCH_ALLOWED: set = set()
PATCH_ALLOWED_MAX = 0


def _files():
    return sorted(PKG.rglob("*.py"))


@functools.lru_cache(maxsize=None)
def _tree(path: pathlib.Path):
    """The file's AST, parsed once for all the rules."""
    return ast.parse(path.read_text(), str(path))


def _rel(path: pathlib.Path) -> str:
    return path.relative_to(PKG).as_posix()


def _module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(PKG.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@functools.lru_cache(maxsize=None)
def _is_module(full: str) -> bool:
    parts = full.split(".")
    if parts[0] == "cuarray":
        p = PKG.parent.joinpath(*parts)
        return p.with_suffix(".py").exists() or (p / "__init__.py").exists()
    try:
        return importlib.util.find_spec(full) is not None
    except (ImportError, ValueError):
        return False


def _imported(path: pathlib.Path, tree) -> dict:
    """{local name: absolute dotted name} of every import in the file (function-level ones too)."""
    mod = _module_name(path)
    package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
    names = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.asname:
                    names[a.asname] = a.name
                else:
                    names[a.name.split(".")[0]] = a.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                full = ".".join(base + ([node.module] if node.module else []))
            else:
                full = node.module or ""
            for a in node.names:
                names[a.asname or a.name] = full + "." + a.name
    return names


def _calls_into(tree, imported: dict, module: str, functions: tuple):
    """Line numbers of calls `m.f(...)` with m imported as `module` and f in `functions`, and of
    `f(...)` with f imported from `module`."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if isinstance(f, ast.Attribute) and f.attr in functions and isinstance(f.value, ast.Name) \
                and imported.get(f.value.id) == module:
            yield node.lineno
        elif isinstance(f, ast.Name) and imported.get(f.id) in tuple(module + "." + g for g in functions):
            yield node.lineno


def _check(found: dict, allowed: set, cap: int, what: str) -> None:
    new = sorted(k for k in found if k not in allowed)
    assert not new, "{}: {}".format(what, ["{} {}".format(k, found[k]) for k in new])
    stale = sorted(allowed - set(found))
    assert not stale, "these now follow the rule: delete them from the allow-list: {}".format(stale)
    assert len(allowed) <= cap, "the allow-list only shrinks"


def _launch_sites() -> dict:
    found = {}
    for path in _files():
        rel = _rel(path)
        if rel.startswith("cuda/"):
            continue
        tree = _tree(path)
        lines = list(_calls_into(tree, _imported(path, tree), "cuarray.cuda.launch",
                                 ("launch", "enqueue", "launch_struct")))
        if lines:
            found[rel] = lines
    return found


def test_no_hand_packed_launch_outside_the_runtime():
    """Outside cuda/, kernels launch through a KernelFamily's `Kernel.launch`, or the engine's
    generated ones through their `Skeleton` (cuda/kernel_family.py)."""
    _check(_launch_sites(), LAUNCH_ALLOWED, LAUNCH_ALLOWED_MAX, "launches with a hand-built argument tuple")


# The compile paths themselves: the compiler, the kernel families (with `generated`), and the user's
# RawKernel/RawModule (CuPy's API: each object holds the module of its user's source).
COMPILERS = {"cuda/compiler.py", "cuda/kernel_family.py", "cuda/raw.py"}


def test_no_private_compile_cache():
    """Only the compile paths (COMPILERS) compile and load kernels."""
    found = {}
    for path in _files():
        rel = _rel(path)
        if rel in COMPILERS:
            continue
        tree = _tree(path)
        lines = list(_calls_into(tree, _imported(path, tree), "cuarray.cuda.compiler", ("compile_module",)))
        if lines:
            found[rel] = lines
    _check(found, COMPILE_ALLOWED, COMPILE_ALLOWED_MAX, "kernel compiles outside cuda/kernel_family.py")


SOURCE_SUFFIXES = (".py", ".cu", ".cuh", ".c", ".h")


def _source_files():
    """Every source file of the package: Python, the CUDA templates and headers, the C cores."""
    return sorted(p for p in PKG.rglob("*") if p.suffix in SOURCE_SUFFIXES and p.is_file())


def test_no_file_over_800_lines():
    found = {}
    for path in _source_files():
        n = len(path.read_text().splitlines())
        if n > MAX_FILE_LINES:
            found[_rel(path)] = n
    _check(found, FILE_LINES_ALLOWED, FILE_LINES_ALLOWED_MAX, "files over {} lines".format(MAX_FILE_LINES))


def test_no_function_over_120_lines():
    found = {}
    for path in _files():
        for node in ast.walk(_tree(path)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                n = node.end_lineno - node.lineno + 1
                if n > MAX_FUNCTION_LINES:
                    found["{}:{}".format(_rel(path), node.name)] = n
    _check(found, FUNCTION_LINES_ALLOWED, FUNCTION_LINES_ALLOWED_MAX,
           "functions over {} lines".format(MAX_FUNCTION_LINES))


def _patches(path: pathlib.Path, tree=None) -> list:
    tree = _tree(path) if tree is None else tree
    modules = {local for local, full in _imported(path, tree).items() if _is_module(full)}
    for node in ast.walk(tree):  # local aliases of a module (`m = _memory`) are the module too
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Name) and node.value.id in modules:
            modules.update(t.id for t in node.targets if isinstance(t, ast.Name))
    out = []
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
        for t in targets:
            for tt in (t.elts if isinstance(t, ast.Tuple) else [t]):
                if isinstance(tt, ast.Attribute) and isinstance(tt.value, ast.Name) and tt.value.id in modules:
                    out.append("{}: {}.{}".format(node.lineno, tt.value.id, tt.attr))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("setattr", "delattr") \
                and node.args and isinstance(node.args[0], ast.Name) and node.args[0].id in modules:
            out.append("{}: {}({}, ...)".format(node.lineno, node.func.id, node.args[0].id))
    return out


def test_no_module_attribute_assignment():
    found = {}
    for path in _files():
        p = _patches(path)
        if p:
            found[_rel(path)] = p
    _check(found, PATCH_ALLOWED, PATCH_ALLOWED_MAX, "assignments to another module's attributes")


@pytest.mark.parametrize("src,want", [
    ("from ..cuda import launch as _launch\n_launch.launch(k, 1, 1, (1,))\n", 1),
    ("from ..cuda.launch import enqueue\nenqueue(s, c, k, 1)\n", 1),
    ("from ..cuda import launch as _launch\n_launch.grid_one_pass(4)\nK.launch(1, 1, 2)\n", 0),
])
def test_the_launch_check_sees_hand_packed_launches(tmp_path, src, want):
    path = PKG / "linalg" / "_probe_rule.py"  # where it would live (the name resolves the imports)
    tree = ast.parse(src)
    imported = _imported(path, tree)
    assert len(list(_calls_into(tree, imported, "cuarray.cuda.launch", ("launch", "enqueue", "launch_struct")))) == want


def test_the_patch_check_sees_assignments(tmp_path, monkeypatch):
    probe = PKG / "linalg" / "_probe_rule_patch.py"
    tree = ast.parse("from . import _util\nimport numpy\n\ndef f():\n    _util.x = 1\n    numpy.y += 2\n"
                     "    setattr(_util, 'z', 3)\n    obj.w = 4\n    m = _util\n    m.v = 5\n")
    assert len(_patches(probe, tree)) == 4


_NVRTC_WRITERS = ("nvrtcGetPTX(", "nvrtcGetCUBIN(", "nvrtcGetLTOIR(", "nvrtcGetProgramLog(")


def test_nvrtc_text_is_read_in_one_place():
    # NVRTC writes into the bytes object it is handed; `b" " * size` with size 1 (an empty log) is
    # CPython's one shared b" ", and the NUL written into it broke print for the whole test worker
    # once. Only tests/cubin_info.nvrtc_text reads NVRTC's text (into a new buffer each time).
    root = PKG.parent
    found = []
    for path in sorted([*PKG.rglob("*.py"), *(root / "tests").rglob("*.py"), *(root / "scripts").rglob("*.py")]):
        if path == root / "tests" / "cubin_info.py" or path == pathlib.Path(__file__).resolve():
            continue
        text = path.read_text()
        found += ["{}: {}".format(path.relative_to(root), w) for w in _NVRTC_WRITERS if w in text]
    assert not found, "call tests/cubin_info.nvrtc_text instead: {}".format(found)



def _is_public_namespace(path: pathlib.Path) -> bool:
    """A package's `__init__.py`, or a module no part of whose path is private (`cuarray/cuda/memory.py`,
    `cuarray/scipy/spatial/distance.py`): the names users import, STYLE.md's explicit re-exports."""
    return path.name == "__init__.py" or not any(p.startswith("_") for p in path.relative_to(PKG).parts)


def _module_path(full: str):
    p = PKG.parent.joinpath(*full.split("."))
    return p.with_suffix(".py") if p.with_suffix(".py").exists() else None


@functools.lru_cache(maxsize=None)
def _passed_on(path: pathlib.Path) -> frozenset:
    """The names the module binds at module level by importing them from cuarray (not its own)."""
    names = _imported(path, ast.Module(body=[n for n in _tree(path).body if isinstance(n, (ast.Import, ast.ImportFrom))],
                                       type_ignores=[]))
    return frozenset(k for k, full in names.items() if full.startswith("cuarray.") and not _is_module(full))


def _shim_reasons(path: pathlib.Path, tree=None) -> dict:
    """{shim's path relative to cuarray/: why} for the module at `path`: itself when it is a shim,
    and each module it imports through (empty: neither). docs/architecture.md: "Subsystems import
    the routines they use from their own modules, never through a shim or the package root"; a
    shim is a module other modules import cuarray's names through instead of from the module that
    defines them. A private module under cuarray/ (not a package's `__init__.py`, not a public
    module: `_is_public_namespace`) is a shim when
    (1) it is named `_xp.py` (an array namespace gathered for a package), or
    (2) its body is nothing but imports (its docstring, `from __future__`, `__all__` aside), one
        of them from cuarray, or
    (3) another module imports through it a name it imports from cuarray itself:
        `from ._m import f` or `_m.f` where `_m` has `from .._math.sums import f`."""
    tree = _tree(path) if tree is None else tree
    out: dict = {}
    if not _is_public_namespace(path):
        if path.name == "_xp.py":
            out.setdefault(_rel(path), []).append("named _xp.py")
        rest = [n for n in tree.body if not (
            isinstance(n, ast.ImportFrom) and n.module == "__future__"
            or isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)
            or isinstance(n, ast.Assign) and [getattr(t, "id", None) for t in n.targets] == ["__all__"])]
        imports = [n for n in rest if isinstance(n, (ast.Import, ast.ImportFrom))]
        if rest and len(imports) == len(rest) and any(
                isinstance(n, ast.ImportFrom) and n.level or any(
                    (getattr(n, "module", None) or a.name).startswith("cuarray") for a in n.names) for n in imports):
            out.setdefault(_rel(path), []).append("nothing but imports")
    imported = _imported(path, tree)
    for full in imported.values():  # `from ._m import f`
        mod, _, name = full.rpartition(".")
        src = _module_path(mod) if mod.startswith("cuarray") else None
        if src is not None and not _is_public_namespace(src) and src != path and name in _passed_on(src):
            out.setdefault(_rel(src), []).append("{} imports {} through it".format(_rel(path), name))
    modules = {local: _module_path(full) for local, full in imported.items()
               if full.startswith("cuarray") and _module_path(full) is not None}
    for node in ast.walk(tree):  # `_m.f`
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in modules:
            src = modules[node.value.id]
            if not _is_public_namespace(src) and node.attr in _passed_on(src):
                out.setdefault(_rel(src), []).append("{} uses {}.{}".format(_rel(path), node.value.id, node.attr))
    return {k: sorted(set(v)) for k, v in out.items()}


# Modules other modules import a few names through (each name's own module is one hop further);
# the list only shrinks.
SHIM_ALLOWED = {"_core/fusion/graph.py", "_core/fusion/lazy_mode.py", "_core/reduction.py",
                "_functional/vectorize_compile.py", "linalg/_util.py", "scipy/linalg/_special_matrices.py",
                "scipy/signal/_design.py", "scipy/signal/_design_orders.py", "scipy/ndimage/_support.py"}
SHIM_ALLOWED_MAX = 9


def test_no_shim_modules():
    """No module under cuarray/ is a shim (`_shim_reasons` says what one is): each importer imports
    what it uses from the module that defines it."""
    found: dict = {}
    for path in _files():
        for shim, why in _shim_reasons(path).items():
            found.setdefault(shim, []).extend(why)
    found = {k: sorted(v)[:3] + (["..."] if len(v) > 3 else []) for k, v in found.items()}
    _check(found, SHIM_ALLOWED, SHIM_ALLOWED_MAX, "shims (import each name from its own module instead)")


@pytest.mark.parametrize("name,src,shim", [
    ("_xp.py", "def f():\n    return 1\n", True),
    ("_a.py", '"""doc"""\nfrom __future__ import annotations\nfrom .._math.sums import prod\n', True),
    ("_a.py", "from .._math.sums import prod\n\ndef g():\n    return prod\n", False),
    ("_a.py", "from .._math import sums\n\ndef g():\n    return sums.prod\n", False),
    ("_a.py", "from .._core.host_input import as_array\n", True),  # host_input imports no as_array: (2)
    ("_a.py", "from .._math.sums import _sum_out\n\ndef g():\n    return 1\n", None),
    ("__init__.py", "from ._a import g as g\n", False),
])
def test_the_shim_check_sees_shims(name, src, shim):
    if shim is None:  # a name sums.py imports from elsewhere, taken through sums.py
        passed = sorted(_passed_on(PKG / "_math" / "sums.py"))
        assert passed, "sums.py imports nothing from cuarray: pick another probe"
        src = "from .._math.sums import {}\n\ndef g():\n    return 1\n".format(passed[0])
        shim = True
    assert bool(_shim_reasons(PKG / "linalg" / name, ast.parse(src))) is shim


ISSUE_REFERENCE = re.compile(r"[Ii]ssue ?#?[0-9]")


def _issue_references(root):
    """'path:line' of each issue-by-number reference in the text files under `root`."""
    found = []
    for path in sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        try:
            text = path.read_text()
        except (UnicodeDecodeError, OSError):
            continue  # not a text file
        found += ["{}:{}".format(path.relative_to(root), i) for i, line in enumerate(text.splitlines(), 1)
                  if ISSUE_REFERENCE.search(line)]
    return found


def test_no_issue_numbers_in_the_package():
    found = _issue_references(PKG)
    assert not found, "say why instead of citing an issue number: {}".format(found)


def test_no_issue_numbers_in_the_user_docs():
    """README.md and docs/ are read by users, who cannot look an issue number up: a section says
    what it covers and why, not which issue asked for it."""
    readme = (PKG.parent / "README.md").read_text().splitlines()
    found = _issue_references(PKG.parent / "docs") + [
        "README.md:{}".format(i) for i, line in enumerate(readme, 1) if ISSUE_REFERENCE.search(line)]
    assert not found, "say what and why instead of citing an issue number: {}".format(found)


def test_the_issue_check_sees_references(tmp_path):
    (tmp_path / "a.py").write_text("x = 1  # slow (issue 51)\n# fine: issue slots, an issue\n")
    (tmp_path / "b.cu").write_text("// see Issue #7818\n")
    assert _issue_references(tmp_path) == ["a.py:1", "b.cu:1"]


def _uncited_perf_scripts(root: pathlib.Path) -> list:
    """Files of root/scripts/perf that nothing outside it names (docs, README, cuarray, tests, other
    scripts), and no such cited script imports."""
    perf = root / "scripts" / "perf"
    names = sorted(p.name for p in perf.iterdir() if p.is_file() and not p.name.startswith("__"))
    outside = [p for d in ("docs", "cuarray", "tests", "scripts") for p in (root / d).rglob("*")
               if p.is_file() and p.suffix in (".py", ".md", ".sh", ".cu", ".cuh", ".txt", ".rst")
               and perf not in p.parents]
    if (root / "README.md").exists():
        outside.append(root / "README.md")
    text = "\n".join(p.read_text(errors="ignore") for p in outside)
    cited = {n for n in names if n in text}
    grew = True
    while grew:  # the helpers a cited script imports (_timing, _peers) stay with it
        inner = "\n".join((perf / n).read_text(errors="ignore") for n in cited)
        more = {n for n in names if n not in cited and re.search(r"\b{}\b".format(re.escape(n.rsplit(".", 1)[0])), inner)}
        cited |= more
        grew = bool(more)
    return [n for n in names if n not in cited]


def test_every_perf_script_is_cited():
    found = _uncited_perf_scripts(PKG.parent)
    assert not found, "cite each in the docs section (or the comment) of the decision it measured, or delete it: {}".format(found)


def test_the_perf_script_check_sees_uncited_scripts(tmp_path):
    for d in ("docs", "cuarray", "tests", "scripts/perf"):
        (tmp_path / d).mkdir(parents=True)
    (tmp_path / "docs" / "a.md").write_text("measured by `scripts/perf/cited.py`\n")
    (tmp_path / "scripts" / "perf" / "cited.py").write_text("from _timing import best\n")
    (tmp_path / "scripts" / "perf" / "_timing.py").write_text("def best(): pass\n")
    (tmp_path / "scripts" / "perf" / "lost.py").write_text("print(1)\n")
    assert _uncited_perf_scripts(tmp_path) == ["lost.py"]
