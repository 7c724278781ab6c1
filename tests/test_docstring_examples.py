"""Every Examples section in a public docstring runs as written: on the GPU for real (the `gpu`
marker), and here, with no device, against NumPy/SciPy: the same lines with `cuarray` standing for
NumPy (`cuarray.linalg` for numpy.linalg, `cuarray.scipy.special` for scipy.special, ...) must print
what the docstring says, since NumPy's answer is the one cuarray promises. Examples of what NumPy
does not have (kernels, fusion, the device) run for real here where they need no device
(`NO_DEVICE`) and are listed with why in `CUARRAY_ONLY`. docs/api_pages.py puts these docstrings
on the site; this keeps their examples true."""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import os
import re

import numpy
import pytest

import cuarray

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _docs_module(path, name):
    spec = importlib.util.spec_from_file_location(name, os.path.join(ROOT, "docs", path))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


api_pages = _docs_module("api_pages.py", "cuarray_docs_api_pages_ex")
# `cuarray` standing for NumPy/SciPy (the scripts that write the examples' outputs use it too)
standin = _docs_module(os.path.join("tools", "examples_standin.py"), "cuarray_docs_examples_standin")
counterpart = standin.counterpart


# Examples that need no device: run for real here too.
NO_DEVICE = {"cuarray.get_array_module", "cuarray.result_type", "cuarray.fuse", "cuarray.lazy",
             "cuarray.linalg.get_matmul_precision", "cuarray.linalg.set_matmul_precision",
             "cuarray.linalg.matmul_precision", "cuarray.random.get_random_state",
             "cuarray.random.set_random_state", "cuarray.random.XORWOW", "cuarray.random.MRG32k3a",
             "cuarray.random.Philox4x3210", "cuarray.set_sync_index_checks", "cuarray.LazyArray",
             "cuarray.broadcast_shapes", "cuarray.scipy.linalg.get_blas_funcs",
             "cuarray.scipy.linalg.get_lapack_funcs"}

# Examples of cuarray's own API (no NumPy counterpart to compare with): name -> why.
CUARRAY_ONLY = {
    "cuarray.asnumpy": "the device-to-host copy",
    "cuarray.row_stack": "NumPy 2.5 removed row_stack (cuarray keeps NumPy 2's deprecated alias)",
    "cuarray.fuse": "kernel fusion",
    "cuarray.lazy": "lazy mode",
    "cuarray.get_array_module": "dispatch between NumPy and cuarray",
    "cuarray.scipy.integrate.solve_ivp_batched": "the batched ODE solver (SciPy has no batched mode)",
    "cuarray.ElementwiseKernel": "a user's CUDA kernel",
    "cuarray.ReductionKernel": "a user's CUDA kernel",
    "cuarray.RawKernel": "a user's CUDA kernel",
    "cuarray.RawModule": "a user's CUDA module",
    "cuarray.scipy.ndimage.generic_filter": "a kernel as the function (SciPy's is a Python callable)",
    "cuarray.scipy.ndimage.generic_filter1d": "a kernel as the function (SciPy's is a Python callable)",
    "cuarray.linalg.get_matmul_precision": "cuBLAS's float32 compute mode",
    "cuarray.linalg.set_matmul_precision": "cuBLAS's float32 compute mode",
    "cuarray.linalg.matmul_precision": "cuBLAS's float32 compute mode",
    "cuarray.random.get_random_state": "CuPy's global RandomState accessor",
    "cuarray.random.set_random_state": "CuPy's global RandomState accessor",
    "cuarray.random.tomaxint": "numpy.random has no module-level tomaxint (RandomState's method)",
    "cuarray.random.XORWOW": "CuPy's bit generator name",
    "cuarray.random.MRG32k3a": "CuPy's bit generator name",
    "cuarray.random.Philox4x3210": "CuPy's bit generator name",
    "cuarray.set_sync_index_checks": "cuarray's index-error reporting",
    "cuarray.check_index_errors": "cuarray's index-error reporting",
    "cuarray.fromDlpack": "CuPy's legacy DLPack import",
    "cuarray.LazyArray": "lazy mode",
    "cuarray.scipy.signal.cwt": "SciPy removed it in 1.15 (CuPy's, as SciPy 1.14's)",
    "cuarray.scipy.signal.morlet": "SciPy removed it in 1.15 (CuPy's, as SciPy 1.14's)",
    "cuarray.scipy.signal.morlet2": "SciPy removed it in 1.15 (CuPy's, as SciPy 1.14's)",
    "cuarray.scipy.signal.qmf": "SciPy removed it in 1.15 (CuPy's, as SciPy 1.14's)",
    "cuarray.scipy.signal.ricker": "SciPy removed it in 1.15 (CuPy's, as SciPy 1.14's)",
    "cuarray.scipy.linalg.get_blas_funcs": "NotImplementedError where SciPy returns host BLAS function objects",
    "cuarray.scipy.fftpack.get_fft_plan": "cupyx's plan (SciPy's fftpack has none)",
    "cuarray.scipy.linalg.get_lapack_funcs": "NotImplementedError where SciPy returns host LAPACK function objects",
}


# Examples of names a newer SciPy added, compared with SciPy where the installed one has them:
# name -> the SciPy version that added it.
NEWER_SCIPY = {"cuarray.scipy.signal.whittaker_henderson": (1, 18)}


def _scipy_version():
    import scipy

    return tuple(int(v) for v in scipy.__version__.split(".")[:2])


def _public(modname):
    mod = importlib.import_module(modname)
    for name in api_pages.public_names(mod):
        obj = getattr(mod, name, None)
        if not callable(obj):  # constants (arrays, numbers) carry their type's docstring
            continue
        yield modname + "." + name, obj


def _has_examples(obj) -> bool:
    doc = getattr(obj, "__doc__", None) or ""
    return "\n    Examples\n    --------\n" in doc or "\nExamples\n--------\n" in doc


def _site_names():
    """(namespace, full name, object) of every public callable of the site's namespaces."""
    for modname, _, _ in api_pages.NAMESPACES:
        try:
            names = list(_public(modname))
        except ImportError:  # an optional namespace's import needs a library this machine lacks
            continue
        for full, obj in names:
            yield modname, full, obj


def _documented():
    seen, out = set(), []
    for _, full, obj in _site_names():
        if _has_examples(obj) and id(obj) not in seen and not api_pages._numpy_own(obj):
            seen.add(id(obj))
            out.append((full, obj))
    return out


DOCUMENTED = _documented()
IDS = [full for full, _ in DOCUMENTED]


def _test_of(full, obj):
    finder = doctest.DocTestFinder(recurse=False)
    tests = finder.find(obj, full, globs={})
    assert tests and tests[0].examples, "{} has an Examples heading and no example".format(full)
    return tests[0]


# `from cuarray.scipy import special` (or `... import linalg as splinalg`) would import the real
# module: it becomes `special = cuarray.scipy.special`, an attribute of the stand-in.
_FROM_IMPORT = re.compile(r"^(\s*)from (cuarray[\w.]*) import (\w+)(?: as (\w+))?\s*$")


def _from_stand_in(line):
    m = _FROM_IMPORT.match(line)
    return line if m is None else "{}{} = {}.{}".format(m[1], m[4] or m[3], m[2], m[3])


def _run(test, globs=None):
    if globs is not None:
        test.globs.update(globs)
        for ex in test.examples:  # `import cuarray...` would rebind the stand-in
            lines = [_from_stand_in(ln) for ln in ex.source.splitlines()
                     if not ln.lstrip().startswith("import cuarray")]
            ex.source = "\n".join(lines) + "\n" if lines else "pass\n"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    out = []
    with numpy.printoptions(legacy=False):
        result = runner.run(test, out=out.append)
    assert result.failed == 0, "".join(out)


@pytest.mark.parametrize("full, obj", DOCUMENTED, ids=IDS)
def test_examples_print_numpys_answer(full, obj):
    if full in CUARRAY_ONLY:
        pytest.skip(CUARRAY_ONLY[full])
    if counterpart(full.rsplit(".", 1)[0]) is None:
        pytest.skip("cuarray's own namespace")
    pytest.importorskip("scipy")
    if full in NEWER_SCIPY and _scipy_version() < NEWER_SCIPY[full]:
        pytest.skip("SciPy {}.{} added it (installed: {}.{})".format(*NEWER_SCIPY[full], *_scipy_version()))
    _run(_test_of(full, obj), {"cuarray": standin.AsNumPy("cuarray")})


@pytest.mark.parametrize("full, obj", [(f, o) for f, o in DOCUMENTED if f in NO_DEVICE],
                         ids=[f for f in IDS if f in NO_DEVICE])
def test_examples_run_without_a_device(full, obj):
    _run(_test_of(full, obj))


# Examples of functions behind an optional extra (cuDSS: `cuarray[cudss]`) run where it is installed.
OPTIONAL_EXTRA = {"cuarray.sparse.linalg." + n: "cudss" for n in ("spsolve", "splu", "spilu", "factorized", "SuperLU",
                                                                   "inv", "expm")}


@pytest.mark.gpu
@pytest.mark.parametrize("full, obj", DOCUMENTED, ids=IDS)
def test_examples_run_on_the_device(full, obj):
    if full in OPTIONAL_EXTRA:
        from cuarray.cuda.libs import cudss

        reason = cudss.unavailable_reason()
        if reason is not None:
            pytest.skip("needs cuarray[{}]: {}".format(OPTIONAL_EXTRA[full], reason))
    _run(_test_of(full, obj))


def test_a_new_users_first_names_have_examples():
    first = ["asarray", "zeros", "arange", "linspace", "asnumpy", "sum", "where", "reshape", "concatenate",
             "ElementwiseKernel", "get_array_module", "result_type", "fuse", "lazy"]
    assert not [n for n in first if not _has_examples(getattr(cuarray, n))]


# Every public callable of SciPy's namespaces shows an Examples section too (the lines are in
# scripts/docstring_examples.py: SPECIAL_UFUNCS, SCIPY_ROUTINES), exceptions and abstract bases
# aside.
SCIPY_NAMESPACES = ("cuarray.scipy.special", "cuarray.scipy.linalg", "cuarray.scipy.stats", "cuarray.scipy.ndimage",
                    "cuarray.scipy.signal", "cuarray.scipy.fft", "cuarray.scipy.fftpack", "cuarray.sparse",
                    "cuarray.sparse.linalg")
# Names allowed to lack one for now, each to be done and removed from here.
SCIPY_PENDING: set[str] = set()


def _scipy_names_needing_examples():
    # A NumPy-namespace function re-exported (scipy.linalg's old kron, scipy.fft's fftfreq) has
    # the NumPy namespace's examples and test, and scipy.fft's transforms, which live in
    # cuarray/fft (_scipy_backend.py), are checked with that folder's routines.
    numpys = {id(obj) for ns in ("cuarray", "cuarray.linalg", "cuarray.fft") for _, obj in _public(ns)}
    for modname in SCIPY_NAMESPACES:
        for full, obj in _public(modname):
            if isinstance(obj, type) and issubclass(obj, BaseException) or api_pages._numpy_own(obj) \
                    or id(obj) in numpys or (getattr(obj, "__module__", None) or "").startswith("cuarray.fft."):
                continue
            yield full, obj


def test_every_callable_of_scipys_namespaces_has_examples():
    names = list(_scipy_names_needing_examples())
    assert len(names) > 350  # the namespaces were read (about 380 names)
    missing = [full for full, obj in names if not _has_examples(obj) and full not in SCIPY_PENDING]
    assert not missing, "no Examples section (add its lines to scripts/docstring_examples.py): {}".format(missing)
    done = [full for full, obj in names if full in SCIPY_PENDING and _has_examples(obj)]
    assert not done, "done: remove from SCIPY_PENDING: {}".format(done)


# Every ufunc of the cuarray namespace and every public routine defined in these folders shows an
# Examples section (scripts/docstring_examples.py writes them from NumPy's output), so a new name
# cannot go without one.
EXAMPLES_REQUIRED = tuple("cuarray.{}.".format(f) for f in (
    "_math", "_statistics", "_logic", "_sorting", "_sets", "_bitwise", "_window", "_misc", "_polynomial"))
# Names allowed to lack one for now (each to be done, then removed from here): none.
PENDING_MATH: set[str] = set()


def test_every_ufunc_and_routine_of_these_folders_has_examples():
    from cuarray._core.ufunc import ufunc

    checked, missing = 0, []
    for name in api_pages.public_names(cuarray):
        obj = getattr(cuarray, name)
        defined_here = callable(obj) and (getattr(obj, "__module__", None) or "").startswith(EXAMPLES_REQUIRED)
        if isinstance(obj, ufunc) or defined_here:
            checked += 1
            if not _has_examples(obj) and name not in PENDING_MATH:
                missing.append(name)
    assert checked > 200  # the namespace was read (about 100 ufunc names and 120 routines)
    assert not missing, "no Examples section (add its lines to scripts/docstring_examples.py): {}".format(missing)
    assert not [n for n in PENDING_MATH if _has_examples(getattr(cuarray, n))], "done: remove from PENDING_MATH"
# Where the array routines, linalg, fft and random live: every public callable defined there (in
# any namespace of the site: cuarray.scipy.fft's functions live in cuarray/fft), and every callable
# of the cuarray.linalg, .fft and .random namespaces wherever it is defined, has an Examples
# section, so a new name cannot reach the site without one. Ufuncs are checked by their own
# folders' test.
EXAMPLE_FOLDERS = ("cuarray._creation", "cuarray._manipulation", "cuarray._indexing", "cuarray._io",
                   "cuarray._functional", "cuarray._dtype", "cuarray._padding", "cuarray._core",
                   "cuarray.linalg", "cuarray.fft", "cuarray.random")
EXAMPLE_NAMESPACES = ("cuarray.linalg", "cuarray.fft", "cuarray.random")

# Names of those folders still without an Examples section: each must be written, then removed
# from here (the test below also fails on a name listed here that has one).
PENDING_ROUTINES: set[str] = set()


def _example_scope():
    out = {}
    for modname, full, obj in _site_names():
        if api_pages._numpy_own(obj) or isinstance(obj, cuarray.ufunc) or id(obj) in out:
            continue
        home = getattr(obj, "__module__", None) or ""
        if modname in EXAMPLE_NAMESPACES or home.startswith(EXAMPLE_FOLDERS):
            out[id(obj)] = (full, obj)
    return sorted(out.values(), key=lambda t: t[0])


def test_array_routines_linalg_fft_random_have_examples():
    scope = _example_scope()
    assert len(scope) > 250  # the scope is found (a renamed folder would empty it)
    missing = {full for full, obj in scope if not _has_examples(obj)}
    assert missing <= PENDING_ROUTINES, "no Examples section: {}".format(sorted(missing - PENDING_ROUTINES))
    assert not PENDING_ROUTINES - missing, "has Examples now, remove from PENDING_ROUTINES: {}".format(sorted(PENDING_ROUTINES - missing))
