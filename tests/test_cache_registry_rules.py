"""One cache registry (`cuarray/cuda/caches.py`, docs/contributing.md section 4), checked on the source:
every memo of kernels, Definitions, plans, handles or workspaces in cuarray/ is registered there,
so `cuarray.cuda.cache_info()` lists it and `clear_caches()` (and the fake device) empties it.

What the check finds (an AST scan of every module):

- a module-level dict, list or set (a literal, a comprehension, or `dict()`, `defaultdict()`,
  `OrderedDict()`, `WeakKeyDictionary()`, a backend's `table(...)`...) that a function of the
  module writes: an item stored or deleted, a mutating method called (`setdefault`, `update`, `append`, `add`...), or the name
  rebound under `global`. A list written only at a constant index (``_flag[0] = True``) is a
  mutable cell, a setting rather than a memo, and is not reported;
- a function decorated with `functools.lru_cache` or `functools.cache`.

Each must be registered: its name appears in a module-level `caches.register(...)` call of its
module (the table itself, or the `count`/`clear` callables that reach it), or the function is
decorated with `caches.memo(...)` (an lru_cache the registry counts and clears) instead. Otherwise
it is listed in NOT_A_DEVICE_CACHE with the reason it holds no kernel, plan, handle or workspace
(a dtype table, a hook list, a host-side memo of numbers or names). The list may only shrink: an
entry that is no longer found fails the test.
"""

from __future__ import annotations

import ast
import functools
import pathlib
import re

PKG = pathlib.Path(__file__).resolve().parent.parent / "cuarray"

# ("table": a backend's table, `cuda/backend.py`, which a module's globals start as)
_CONTAINER_CALLS = {"dict", "list", "set", "defaultdict", "OrderedDict", "WeakKeyDictionary",
                    "WeakValueDictionary", "WeakSet", "deque", "Counter", "table"}
_MUTATORS = {"setdefault", "update", "append", "add", "extend", "insert", "appendleft", "__setitem__",
             "pop", "popitem", "remove", "discard", "clear"}


def _is_container(v) -> bool:
    if isinstance(v, (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)):
        return True
    if isinstance(v, ast.Call):
        f = v.func
        return (f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", None)) in _CONTAINER_CALLS
    return False


def _decorator_kind(d) -> str:
    """'lru' for functools.lru_cache/cache (called or not), 'memo' for caches.memo(...), else ''."""
    f = d.func if isinstance(d, ast.Call) else d
    name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
    if name in ("lru_cache", "cache"):
        return "lru"
    if name == "memo" and isinstance(f, ast.Attribute) and "caches" in ast.unparse(f.value):
        return "memo"
    return ""


def _caches_aliases(tree) -> set:
    """Local names of the cache registry module (`from ..cuda import caches as _caches`)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            for a in node.names:
                if a.name == "caches":
                    out.add(a.asname or a.name)
    return out


def _registered_names(tree) -> set:
    """Every name mentioned in a module-level `caches.register(...)` call (its table, or the
    callables that count and clear it) and in the functions those callables name."""
    aliases = _caches_aliases(tree)
    funcs = {n.name: n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    out = set()
    for st in tree.body:
        for node in ast.walk(st) if not isinstance(st, (ast.FunctionDef, ast.ClassDef)) else ():
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "register" \
                    and isinstance(node.func.value, ast.Name) and node.func.value.id in aliases:
                names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
                for fn in [funcs[n] for n in names if n in funcs]:
                    names |= {n.id for n in ast.walk(fn) if isinstance(n, ast.Name)}
                out |= names
    return out


def _constant_index_only(name: str, writes: list) -> bool:
    return all(isinstance(w, ast.Subscript) and isinstance(w.slice, ast.Constant) for w in writes)


@functools.lru_cache(maxsize=None)
def _tree(path: pathlib.Path):
    return ast.parse(path.read_text(), str(path))


def memos(path: pathlib.Path) -> dict:
    """{name: 'dict' | 'list' | 'set' | 'lru'} of the module's unregistered memos (see the module
    docstring for what counts)."""
    tree = _tree(path)
    containers = {}
    for st in tree.body:
        targets = st.targets if isinstance(st, ast.Assign) else [st.target] if isinstance(st, ast.AnnAssign) else []
        if getattr(st, "value", None) is not None and _is_container(st.value):
            for t in targets:
                if isinstance(t, ast.Name):
                    v = st.value
                    call = ast.unparse(v.func) if isinstance(v, ast.Call) else ""
                    containers[t.id] = "list" if isinstance(v, (ast.List, ast.ListComp)) or call == "list" else \
                        "set" if isinstance(v, (ast.Set, ast.SetComp)) or call.endswith(("set", "WeakSet")) else "dict"
    writes: dict = {}
    found = {}
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if any(_decorator_kind(d) == "lru" for d in fn.decorator_list) and fn in tree.body:
            found[fn.name] = "lru"
        for node in ast.walk(fn):
            if isinstance(node, ast.Subscript) and isinstance(node.ctx, (ast.Store, ast.Del)) \
                    and isinstance(node.value, ast.Name) and node.value.id in containers:
                writes.setdefault(node.value.id, []).append(node)
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _MUTATORS \
                    and isinstance(node.func.value, ast.Name) and node.func.value.id in containers:
                writes.setdefault(node.func.value.id, []).append(node)
            elif isinstance(node, ast.Global):
                for n in node.names:
                    if n in containers:
                        writes.setdefault(n, []).append(node)
    for name, ws in writes.items():
        if containers[name] == "list" and _constant_index_only(name, ws):
            continue
        found[name] = containers[name]
    registered = _registered_names(tree)
    return {n: k for n, k in found.items() if n not in registered}


# "module::name" -> why it holds no kernel, Definition, plan, handle or workspace.
NOT_A_DEVICE_CACHE = {
    "__init__.py::_ON_FIRST_USE": "names bound on first use -> their module's name (strings)",
    "_core/device_errors.py::_kinds": "error kinds by flag value -> the exception-making callable",
    "_core/device_errors.py::_pending": "device ids with launches since the error channel was read",
    "_core/device_errors.py::_sites": "device id -> the name of the operation that launched first",
    "_core/device_errors.py::_buffers": "the error channel itself, not a memo: launched kernels hold its address "
                                        "until the next synchronisation reads it (emptying it would lose errors)",
    "_core/dtypes.py::_CTYPES": "dtype -> C type name (strings; datetime units added on first use)",
    "_core/dtypes.py::_KIND": "dtype -> kind character",
    "_core/dtypes.py::_NAME": "dtype -> name string",
    "_core/dtypes.py::_iinfo": "dtype -> numpy.iinfo (host numbers)",
    "_core/elementwise.py::_skeletons": "template file name -> its text (string.Template of the source)",
    "_core/fusion/fast_paths.py::operator_memos": "(ufunc name, reflected) -> that operator's dict of shapes and dtypes",
    "_core/fusion/fast_paths.py::_ufunc_memo": "traced ufunc calls -> (node attribute, dtype): host shapes and dtypes",
    "_core/fusion/fast_paths.py::_product_memo": "products -> (shape, dtype, attribute) of their node",
    "_core/fusion/fast_paths.py::_reduce_memo": "reductions -> how their nodes are made (shapes, dtypes, names)",
    "_core/fusion/graph.py::_loops": "(ufunc, input types) -> NumPy's loop resolution (dtypes)",
    "_core/fusion/graph_replay.py::carried_outputs": "weak references to arrays a graph replay handed out, "
                                                     "not a memo: each entry goes when its array does",
    "_core/fusion/products.py::_eager": "product name -> the namespace's eager routine (a Python function)",
    "_core/fusion/products.py::_memo": "products -> (shape, dtype, attribute) of their node",
    "_core/fusion/products.py::_blas": "the cuBLAS module, imported on first use",
    "_core/interop.py::_live": "DLPack capsules' holders of the user's arrays, alive until the consumer "
                               "calls the deleter: ownership, not a memo",
    "_core/mask_compact.py::_names": "kernel name expressions (strings); the kernels live in the family cache",
    "_core/ndarray.py::_c_layouts": "shape and item size -> C strides and flags (host tuples)",
    "_core/ndarray.py::_f_layouts": "shape and item size -> F strides and flags (host tuples)",
    "_core/numpy_function.py::_cache": "NumPy function -> cuarray's function of that name",
    "_core/reduction_ops.py::_result_cache": "(function, dtype) -> NumPy's result dtype",
    "_core/registry.py::ufuncs": "the ufuncs by NumPy name (the objects users call)",
    "_core/registry.py::ufunc_sources": "modules that define ufuncs, registered at import",
    "_core/registry.py::_hint": "the namespace's import hint (a string)",
    "_core/registry.py::_namespace": "the package namespace module",
    "_core/scan.py::_result_dtypes": "(ufunc, dtype) -> the scan's result dtype",
    "_core/sort.py::radix_kernel_names": "kernel name expressions (strings); the kernels live in the family cache",
    "_core/sort.py::block_kernel_name": "a kernel name expression (a string)",
    "_core/sort.py::helper_kernel_names": "kernel name expressions (strings)",
    "_core/sort.py::key_word_kernel_name": "a kernel name expression (a string)",
    "_core/tracing.py::active": "the process-wide flag cell that a tracer is installed (a list of one bool)",
    "_core/ufunc.py::_instances": "every ufunc object (a WeakSet) for the shared-memory setting",
    "_functional/vectorize_source.py::_sources": "code object -> its parsed source (AST and text)",
    "_math/convolution.py::_dtype_pairs": "(dtype, dtype) -> the result and compute dtypes",
    "_math/fft_convolve.py::fast_len": "n -> a transform length (an int)",
    "_math/fft_convolve.py::block_len": "k -> a block length (an int)",
    "_sets/unique_dense.py::kernel_names": "kernel name expressions (strings)",
    "_sets/unique_heads.py::kernel_names": "kernel name expressions (strings)",
    "_statistics/histograms.py::auto_names": "kernel name expressions (strings)",
    "_statistics/quantiles.py::_same_ranks": "read-only host arrays of ranks (NumPy)",
    "bench/cases/__init__.py::_CASES": "the benchmark's registered cases (the harness, not the library)",
    "bench/cases/__init__.py::_BROKEN": "benchmark cases that failed to import, with the reason",
    "bench/cases/indexing.py::_masks": "the benchmark's host input masks (NumPy)",
    "bench/cases/linalg_solvers.py::_host": "the benchmark's host inputs (NumPy)",
    "bench/cases/pool.py::churn_sizes": "the benchmark's allocation sizes (ints)",
    "bench/cases/scipy_special.py::_host": "the benchmark's host inputs (NumPy)",
    "bench/cases/sparse.py::_host_csr": "the benchmark's host inputs (SciPy matrices)",
    "bench/libs.py::_LIBS": "the benchmark's library adapters by name",
    "cuda/_driver_objects.py::_priority_ranges": "device id -> its stream priority range (ints)",
    "cuda/_kernel_cache.py::_unwritable": "cache directories already warned about (paths)",
    "cuda/_memory_base.py::_release_hooks": "hooks run when the pool releases memory (callables)",
    "cuda/_sync_hooks.py::_hooks": "callbacks after a synchronisation (callables)",
    "cuda/caches.py::_entries": "the registry itself",
    "cuda/backend.py::_selectors": "each module's function that rebinds its globals to a selected backend "
                                   "(code; what they bind is registered where it is made)",
    "cuda/compiler.py::_header_dirs": "header directories found (paths)",
    "cuda/compiler.py::_headers_digest": "a hash of the header files (a string)",
    "cuda/compiler.py::_toolchain_id": "the compiler's identity (a string)",
    "cuda/compiler.py::_options_class": "a ProgramOptions subclass (a Python class)",
    "cuda/compiler.py::_include_dirs": "registered include directories (paths)",
    "cuda/compiler.py::_archs": "device id -> its architecture name (a string)",
    "cuda/compiler.py::_compiling": "locks of the compiles in progress",
    "cuda/device.py::_primary": "each device's primary context, retained once for the process's life (as "
                                "cuda.core does): releasing it would invalidate everything made on the device",
    "cuda/device.py::_seen_devices": "device ids used so far (ints)",
    "cuda/device.py::_SM_COUNT": "device id -> SM count (an int)",
    "cuda/device.py::_CC": "device id -> compute capability (ints)",
    "cuda/device.py::_SHARED_PER_BLOCK": "device id -> shared memory per block (an int)",
    "cuda/device.py::_SHARED_PER_BLOCK_OPTIN": "device id -> opt-in shared memory per block (an int)",
    "cuda/device.py::_peer_access": "(device, peer) -> whether peer access is on (a bool)",
    "cuda/device.py::_peer_allowed": "(device, peer) pairs the user enabled",
    "cuda/graph.py::_retired": "memory pools of destroyed graphs whose segments arrays still use: they are "
                               "trimmed as those arrays go, not a memo (dropping one frees nothing)",
    "cuda/kernel_family.py::_families": "the declared KernelFamily objects (declarations; their kernels are "
                                        "in the registered 'kernel families' cache)",
    "cuda/libs/_handles.py::_prefetch": "the library prefetch thread",
    "cuda/libs/_handles.py::_imported": "library name -> its imported bindings module",
    "cuda/libs/_preload.py::loaded": "library name -> (path, seconds its dlopen took)",
    "cuda/libs/_preload.py::_started": "libraries whose preload began (names)",
    "cuda/memory.py::_fast_made": "the allocator the pool's C form was made for, and that form (callables)",
    "cuda/memory_hook.py::_global": "memory hooks for every thread (callables)",
    "linalg/_decomp.py::_ALWAYS_COMPLEX": "whether NumPy's eigvals always returns complex (a bool)",
    "polynomial/_base.py::_STYLE": "the print style setting",
    "polynomial/_tables.py::products": "host coefficient matrices (NumPy)",
    "polynomial/_tables.py::from_power": "host coefficient matrices (NumPy)",
    "polynomial/_tables.py::to_power": "host coefficient matrices (NumPy)",
    "polynomial/_tables.py::derivative": "host coefficient matrices (NumPy)",
    "random/_kernels.py::_module_names": "kernel name expressions (strings)",
    "scipy/interpolate/_linear.py::_installed": "the weights formula of the installed SciPy (a function)",
    "scipy/linalg/_triangular_checks.py::_names": "kernel name expressions (strings)",
    "scipy/ndimage/_filters.py::_gaussian_weights": "read-only host weights (NumPy)",
    "scipy/ndimage/_rank_network.py::batcher": "sorting network comparators (tuples of ints)",
    "scipy/ndimage/_rank_network.py::select_ops": "sorting network operations (tuples)",
    "scipy/ndimage/_rank_network.py::select_range_ops": "sorting network operations (tuples)",
    "scipy/ndimage/_rank_network.py::pair_ops": "sorting network operations (tuples)",
    "scipy/signal/_host_calls.py::_both_bad_coefficients": "a warning class",
    "scipy/signal/_lfilter.py::settling": "a filter's settling length (an int)",
    "scipy/signal/_lfilter.py::decay_length": "a filter's warm-up length (an int)",
    "scipy/signal/_sosfilt.py::cascade_decay_length": "a cascade's warm-up length (an int)",
    "scipy/signal/_spectral.py::_kept_window": "read-only host windows (NumPy)",
    "scipy/signal/_spectral_fused.py::pass_twiddles": "host twiddle tables (NumPy), uploaded per call",
    "scipy/signal/_spectral_fused.py::_regs_twiddles": "host twiddle tables (NumPy), uploaded per call",
    "scipy/special/_ufunc.py::_texts": "template header name -> its text",
    "sparse/_base.py::_CLASSES": "(format, is_array) -> the sparse class",
    "sparse/_spgemm_rowwise.py::_roles": "kernel roles and name expressions (strings)",
    "sparse/linalg/_arpack_errors.py::_with_scipy": "an exception class joined with SciPy's",
    "sparse/linalg/_direct.py::SOLVER_OPTIONS": "the user's solver options (`use_solver`)",
    "testing/fake_device.py::_buffers": "the fake device's host allocations (the test double's memory)",
}

NOT_A_DEVICE_CACHE_MAX = 108


# Files that may hold a memo at all (a module-level container, a memoised function): the others
# are not parsed (parsing every file of the package is most of this test's time).
_CANDIDATE = re.compile(
    r"^(?!__all__)[A-Za-z_]\w*(?:\s*:[^=\n]+)?\s*=\s*(?:[\[{]|(?:\w+\.)*(?:" + "|".join(sorted(_CONTAINER_CALLS))
    + r")\()|lru_cache|functools\.cache", re.M)


@functools.lru_cache(maxsize=None)
def _found(pkg: pathlib.Path = PKG) -> dict:
    out = {}
    for path in sorted(pkg.rglob("*.py")):
        if not _CANDIDATE.search(path.read_text()):
            continue
        rel = path.relative_to(pkg).as_posix()
        for name, kind in memos(path).items():
            out["{}::{}".format(rel, name)] = kind
    return out


def test_every_device_cache_is_registered():
    """Each memo the scan finds is registered, or listed with the reason it holds nothing of the device."""
    found = _found()
    unlisted = sorted(k for k in found if k not in NOT_A_DEVICE_CACHE)
    assert not unlisted, (
        "memos outside the cache registry: register each in cuarray/cuda/caches.py (`caches.register`, "
        "`caches.memo`; docs/contributing.md section 4), or, where it holds no kernel, Definition, plan, "
        "handle or workspace, list it in NOT_A_DEVICE_CACHE with the reason: {}".format(
            ["{} ({})".format(k, found[k]) for k in unlisted]))


def test_the_lists_only_shrink():
    found = _found()
    stale = sorted(set(NOT_A_DEVICE_CACHE) - set(found))
    assert not stale, "no longer found (registered or gone): delete from the lists: {}".format(stale)
    assert len(NOT_A_DEVICE_CACHE) <= NOT_A_DEVICE_CACHE_MAX
    assert all(r.strip() for r in NOT_A_DEVICE_CACHE.values())


def test_the_check_sees_unregistered_memos(tmp_path):
    """A check that cannot fail is no check: a dict of Definitions filled by a function, an
    lru_cache of kernels and a list appended to are reported; registered ones and a one-element
    cell are not."""
    pkg = tmp_path / "cuarray"
    pkg.mkdir()
    (pkg / "m.py").write_text(
        "import functools\n"
        "from .cuda import caches as _caches\n"
        "_defs = {}\n_plans: dict = {}\n_kept = {}\n_seen = []\n_flag = [False]\n"
        "_caches.register('kept', count=lambda: len(_kept), clear=_kept.clear)\n"
        "def get(k):\n    d = _defs.get(k)\n    if d is None:\n        d = _defs[k] = object()\n"
        "    _plans.setdefault(k, d)\n    _kept[k] = d\n    _seen.append(k)\n    _flag[0] = True\n    return d\n"
        "@functools.lru_cache(maxsize=None)\ndef kernel(t):\n    return t\n"
        "@functools.cache\ndef other(t):\n    return t\n"
        "@_caches.memo('plans', maxsize=8)\ndef plan(t):\n    return t\n")
    assert _found(pkg) == {"m.py::_defs": "dict", "m.py::_plans": "dict", "m.py::_seen": "list",
                           "m.py::kernel": "lru", "m.py::other": "lru"}


def _unnamed_handle_sets(pkg) -> list:
    """`PerThreadHandle(...)` constructions in `pkg` without `name=`: handles the registry would
    not list."""
    out = []
    for path in sorted(pkg.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "PerThreadHandle":
                if not any(k.arg == "name" for k in node.keywords):
                    out.append("{}:{}".format(path.relative_to(pkg), node.lineno))
    return out


def test_every_library_handle_set_is_listed(tmp_path):
    """Each math library's per-thread handles are a registry entry (`PerThreadHandle(..., name=)`:
    listed by `cache_info`, kept by `clear_caches`); the check sees one without a name."""
    assert _unnamed_handle_sets(PKG) == []
    (tmp_path / "lib.py").write_text("h = PerThreadHandle(make, drop)\nk = PerThreadHandle(make, drop, name='x')\n")
    assert _unnamed_handle_sets(tmp_path) == ["lib.py:1"]
