"""The API reference's pages, written from the namespaces themselves (called by conf.py).

One page per namespace with an autosummary table of every public name (``__all__`` where the
module has one, else its names without a leading underscore, less submodules and the
``from __future__`` flag), and one page per name under ``api/generated/`` (an autodoc directive:
signature, docstring, a class's table of methods). Nothing is listed by hand, so a new public
function gets its page at the next build. A namespace that re-exports another
(``cuarray.scipy.sparse`` is ``cuarray.sparse``) gets a pointer, not a second set of pages.

The per-name pages are written here, not by autosummary's ``:toctree:``, and are ``:orphan:``:
out of the site's toctree, reached from their namespace's table and from search. In the toctree,
every page's sidebar (furo's navigation tree) listed all ~1,000 of them, and resolving and
re-parsing that tree for each page was 96 % of a 14-minute build (docs/tools/build-times.md).
"""

from __future__ import annotations

import __future__
import importlib
import inspect
import os
import re
import types

import numpy

# (module, title, one line). Order: what a NumPy user reaches first, then SciPy, then the runtime.
NAMESPACES = [
    ("cuarray", "cuarray: the NumPy namespace", "NumPy's names on the GPU; `import cuarray as np`."),
    ("cuarray.linalg", "cuarray.linalg", "numpy.linalg on cuBLAS and cuSOLVER."),
    ("cuarray.fft", "cuarray.fft", "numpy.fft on cuFFT."),
    ("cuarray.random", "cuarray.random", "numpy.random: Generator, legacy RandomState functions."),
    ("cuarray.polynomial", "cuarray.polynomial", "numpy.polynomial."),
    ("cuarray.polynomial.polynomial", "cuarray.polynomial.polynomial", "numpy.polynomial.polynomial."),
    ("cuarray.lib.stride_tricks", "cuarray.lib.stride_tricks", "numpy.lib.stride_tricks."),
    ("cuarray.exceptions", "cuarray.exceptions", "numpy.exceptions."),
    ("cuarray.sparse", "cuarray.sparse", "scipy.sparse on cuSPARSE."),
    ("cuarray.sparse.linalg", "cuarray.sparse.linalg", "scipy.sparse.linalg."),
    ("cuarray.sparse.csgraph", "cuarray.sparse.csgraph", "scipy.sparse.csgraph: components, traversals, shortest paths, trees, flows, matchings."),
    ("cuarray.scipy.special", "cuarray.scipy.special", "scipy.special as ufuncs."),
    ("cuarray.scipy.linalg", "cuarray.scipy.linalg", "scipy.linalg."),
    ("cuarray.scipy.stats", "cuarray.scipy.stats", "scipy.stats."),
    ("cuarray.scipy.stats.qmc", "cuarray.scipy.stats.qmc", "scipy.stats.qmc: Sobol, Halton, LatinHypercube, QMCEngine, discrepancy, scale."),
    ("cuarray.scipy.ndimage", "cuarray.scipy.ndimage", "scipy.ndimage."),
    ("cuarray.scipy.signal", "cuarray.scipy.signal", "scipy.signal."),
    ("cuarray.scipy.signal.windows", "cuarray.scipy.signal.windows", "scipy.signal.windows."),
    ("cuarray.scipy.interpolate", "cuarray.scipy.interpolate", "scipy.interpolate."),
    ("cuarray.scipy.integrate", "cuarray.scipy.integrate", "scipy.integrate."),
    ("cuarray.scipy.optimize", "cuarray.scipy.optimize", "scipy.optimize: minimize (BFGS, CG, L-BFGS-B, Nelder-Mead, Powell, Newton-CG, TNC, trust-ncg, trust-krylov, trust-exact), fmin_tnc, root (hybr, lm, broyden1, broyden2, krylov, anderson, mixing, df-sane), newton_krylov, broyden1, broyden2, anderson, lsq_linear, nnls, linear_sum_assignment, scalar minimizers and root finders."),
    ("cuarray.scipy.fft", "cuarray.scipy.fft", "scipy.fft."),
    ("cuarray.scipy.fftpack", "cuarray.scipy.fftpack", "scipy.fftpack (legacy) over cuFFT."),
    ("cuarray.scipy.fftpack.convolve", "cuarray.scipy.fftpack.convolve", "scipy.fftpack.convolve."),
    ("cuarray.scipy.spatial", "cuarray.scipy.spatial", "scipy.spatial: KDTree, ConvexHull, Delaunay, Voronoi, SphericalVoronoi, HalfspaceIntersection, Rectangle, the plot helpers and the module's helpers."),
    ("cuarray.scipy.spatial.distance", "cuarray.scipy.spatial.distance", "scipy.spatial.distance."),
    ("cuarray.scipy.spatial.transform", "cuarray.scipy.spatial.transform", "scipy.spatial.transform."),
    ("cuarray.scipy.optimize.elementwise", "cuarray.scipy.optimize.elementwise", "scipy.optimize.elementwise: find_root, find_minimum, bracket_root, bracket_minimum."),
    ("cuarray.scipy.differentiate", "cuarray.scipy.differentiate", "scipy.differentiate: derivative, jacobian, hessian."),
    ("cuarray.scipy.cluster.vq", "cuarray.scipy.cluster.vq", "scipy.cluster.vq: whiten, vq, kmeans, kmeans2."),
    ("cuarray.scipy.cluster.hierarchy", "cuarray.scipy.cluster.hierarchy", "scipy.cluster.hierarchy: linkage and the functions of a linkage matrix."),
    ("cuarray.cuda", "cuarray.cuda: the runtime", "Devices, streams, events, memory pools, kernels (cupy.cuda)."),
    ("cuarray.cuda.runtime", "cuarray.cuda.runtime", "CuPy's runtime functions."),
    ("cuarray.cuda.memory_hooks", "cuarray.cuda.memory_hooks", "Memory hooks (cupy.cuda.memory_hooks)."),
    ("cuarray.profiler", "cuarray.profiler", "Per-operation GPU time, traces, benchmark timer."),
    ("cuarray.testing", "cuarray.testing", "One test body under NumPy and cuarray (cupy.testing)."),
    ("cuarray.distributed", "cuarray.distributed", "NCCL and Dask."),
    ("cuarray.bench", "cuarray.bench", "Benchmark cases and harness (`python -m cuarray.bench`)."),
]
# Namespaces that are another one under a second name.
ALIASES = [("cuarray.scipy.sparse", "cuarray.sparse")]


def public_names(module) -> list[str]:
    if "__dir__" in vars(module):
        # A namespace that binds names on first use (cuarray itself) lists them all in __dir__;
        # its __all__ is only what `import *` takes (no `fuse`, `lazy`, ...).
        names = [n for n in dir(module) if not n.startswith("_")]
    else:
        names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n in vars(module) if not n.startswith("_")]
    out = []
    for name in names:
        obj = getattr(module, name, None)
        if obj is None and not hasattr(module, name):
            continue
        if isinstance(obj, (types.ModuleType, __future__._Feature)):
            continue
        out.append(name)
    return sorted(set(out), key=lambda n: (n.lower(), n))


def _numpy_own(obj) -> bool:
    """NumPy's own object, re-exported unchanged (dtypes, errstate, printoptions, ...)."""
    mod = getattr(obj, "__module__", None) or getattr(type(obj), "__module__", "")
    return (inspect.isclass(obj) or callable(obj)) and mod.split(".")[0] == "numpy" and not isinstance(obj, numpy.ufunc)


def _distribution(obj) -> bool:
    """A distribution object of cuarray.scipy.stats (`norm`, `poisson`, ..., the multivariate
    `dirichlet`: a pdf and rvs, no freeze)."""
    if inspect.isclass(obj) or inspect.isroutine(obj):
        return False
    return callable(getattr(obj, "freeze", None)) and hasattr(obj, "ppf") or (
        callable(getattr(obj, "pdf", None)) and callable(getattr(obj, "rvs", None)))


def _kind(obj) -> str:
    if isinstance(obj, numpy.ufunc) or type(obj).__name__ == "ufunc":
        return "Universal functions"
    if inspect.isclass(obj):
        return "Exceptions and warnings" if issubclass(obj, BaseException) else "Classes"
    if callable(obj):
        return "Functions"
    return "Constants and other objects"


_ORDER = ["Functions", "Universal functions", "Classes", "Exceptions and warnings", "Constants and other objects"]


_NUMPY_URL = "https://numpy.org/doc/stable/reference/generated/numpy.{}.html"


def page(modname: str, title: str, blurb: str, seen: dict, stubs: dict | None = None) -> str:
    """The namespace's page. `seen` maps id(object) -> the first full name given a page: a later
    name for the same object links there instead of describing the object twice. `stubs`, if
    given, receives full name -> the text of that name's own page."""
    module = importlib.import_module(modname)
    groups: dict[str, list[str]] = {}
    aliases, numpy_own, constants, distributions = [], [], [], []
    for name in public_names(module):
        obj = getattr(module, name)
        full = modname + "." + name
        if _numpy_own(obj):
            numpy_own.append((name, _numpy_path(obj, name)))
        elif _distribution(obj):
            distributions.append(name)
        elif _kind(obj) == "Constants and other objects":
            constants.append((name, obj))
        elif id(obj) in seen:
            aliases.append((name, seen[id(obj)]))
        else:
            seen[id(obj)] = full
            groups.setdefault(_kind(obj), []).append(name)
            if stubs is not None:
                stubs[full] = stub(modname, name, obj)
    lines = [title, "=" * len(title), "", blurb, "", ".. currentmodule:: " + modname, ""]
    for kind in _ORDER:
        if kind not in groups:
            continue
        lines += [kind, "-" * len(kind), "", ".. autosummary::", "   :nosignatures:", ""]
        lines += ["   " + n for n in groups[kind]] + [""]
    if distributions:
        # objects, not functions or classes: autodoc has no directive for them but autodata, which
        # shows no methods; the distributions page says what each method does on the device
        lines += ["Distributions", "-------------", "", "Objects with SciPy's methods (:doc:`/scipy-stats`):", ""]
        lines += ["- ``{0}``: `scipy.stats.{0}`".format(n) for n in distributions] + [""]
    if aliases:
        lines += ["Other names", "-----------", "", "The same objects as documented under their first name:", ""]
        lines += ["- ``{}``: :obj:`{}`".format(n, target) for n, target in aliases] + [""]
    if numpy_own:
        lines += ["NumPy's own objects", "-------------------", "",
                  "Re-exported unchanged (the same Python objects as NumPy's); NumPy documents them:", ""]
        lines += ["- ``{}``: `numpy.{} <{}>`__".format(n, real, _NUMPY_URL.format(real)) for n, real in numpy_own]
        lines += [""]
    if constants:
        lines += ["Constants", "---------", ""]
        lines += ["- ``{}`` = ``{}``".format(n, _short(v)) for n, v in constants] + [""]
    return "\n".join(lines)


def stub(modname: str, name: str, obj) -> str:
    """A name's own page: what autosummary's stub generator wrote for it (the same autodoc
    directive, chosen the same way, except for ufuncs), marked orphan (see the module's
    docstring), and a link back to its namespace's page (the sidebar cannot show where an orphan
    belongs)."""
    signature, note, call = "", "", ufunc_signature(obj)
    if inspect.isclass(obj):
        directive = "autoexception" if issubclass(obj, BaseException) else "autoclass"
    elif inspect.isroutine(obj):
        directive = "autofunction"
    elif call is not None:
        # autosummary's autodata would show `cuarray.add = <ufunc 'add'>` and no parameters.
        directive, signature = "autofunction", "(" + call + ")"
        note = "A ufunc: {} input{}, {} output{}.\n\n".format(
            obj.nin, "s" * (obj.nin > 1), obj.nout, "s" * (obj.nout > 1))
    else:
        directive = "autodata"
    title = rst_escape(modname + "." + name)
    return ":orphan:\n\n{}\n{}\n\n.. currentmodule:: {}\n\n.. {}:: {}{}\n\n{}In :doc:`/api/{}`.\n".format(
        title, "=" * len(title), modname, directive, name, signature, note, modname)


# NumPy's ufunc keywords, which cuarray's ufuncs take (a test compares them with ufunc._call's).
UFUNC_KEYWORDS = "where=True, casting='same_kind', order='K', dtype=None, subok=True, signature=None"


def ufunc_signature(obj) -> str | None:
    """The call of a ufunc-like object (``nin``/``nout``) in NumPy's form, ``x1, x2, /, out=None,
    *, where=True, ...``, or its own signature where its ``__call__`` spells one out (matmul);
    None for anything else. A ufunc's ``__call__`` is ``(*args, **kwargs)``."""
    if not (callable(obj) and isinstance(getattr(obj, "nin", None), int) and isinstance(getattr(obj, "nout", None), int)):
        return None
    try:
        own = inspect.signature(obj)
    except (TypeError, ValueError):
        own = None
    if own is not None and not any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in own.parameters.values()):
        return str(own)[1:-1]
    inputs = ["x"] if obj.nin == 1 else ["x{}".format(i + 1) for i in range(obj.nin)]
    out = "None" if obj.nout == 1 else "(" + ", ".join(["None"] * obj.nout) + ")"
    return "{}, /, out={}, *, {}".format(", ".join(inputs), out, UFUNC_KEYWORDS)


def rst_escape(text: str) -> str:
    """Backslash before reST's markup characters (``matrix_power`` is not a link target)."""
    return re.sub(r"([!-\-/:-@\[-`{-~])", r"\\\1", text)


def _numpy_path(obj, name) -> str:
    """``linalg.LinAlgError``, ``float32``: where NumPy's reference documents it."""
    parts = (getattr(obj, "__module__", None) or "numpy").split(".")[1:]
    prefix = "" if any(p.startswith("_") for p in parts) or not parts else ".".join(parts) + "."
    return prefix + getattr(obj, "__name__", name)


def _short(value) -> str:
    # No "object at 0x7f..." (a different page at each build).
    text = re.sub(r" at 0x[0-9a-fA-F]+", "", " ".join(repr(value).split()))
    return text if len(text) <= 60 else text[:57] + "..."


def write(folder: str, only=None) -> None:
    """Write api/<namespace>.rst, api/index.rst and a page per name in api/generated/ (removing
    pages of names that are gone); `only`: these namespaces (a quick look at a few)."""
    generated = os.path.join(folder, "generated")
    os.makedirs(generated, exist_ok=True)
    toc, seen, stubs = [], {}, {}
    for modname, title, blurb in NAMESPACES:
        if only and modname not in only:
            continue
        _write_if_changed(os.path.join(folder, modname + ".rst"), page(modname, title, blurb, seen, stubs))
        toc.append(modname)
    for alias, target in ALIASES:
        if only and target not in only:
            continue
        text = "{0}\n{1}\n\n``{0}`` is ``{2}`` under SciPy's name: see :doc:`{2}`.\n".format(
            alias, "=" * len(alias), target)
        _write_if_changed(os.path.join(folder, alias + ".rst"), text)
        toc.append(alias)
    for full, text in stubs.items():
        _write_if_changed(os.path.join(generated, full + ".rst"), text)
    # Pages of names (or namespaces, after a CUARRAY_DOCS_ONLY build) that are not written now.
    for old in set(os.listdir(generated)) - {full + ".rst" for full in stubs}:
        os.remove(os.path.join(generated, old))
    for old in {f for f in os.listdir(folder) if f.endswith(".rst")} - {t + ".rst" for t in toc} - {"index.rst"}:
        os.remove(os.path.join(folder, old))
    index = ["API reference", "=============", "",
             "Every public name of every namespace, one page each, generated from the docstrings:",
             "each namespace's page lists its names with their summaries and links to their pages.",
             "A docstring says which NumPy or SciPy function it follows and only what differs on the GPU.",
             "", ".. toctree::", "   :maxdepth: 1", ""] + ["   " + t for t in toc] + [""]
    _write_if_changed(os.path.join(folder, "index.rst"), "\n".join(index))


def _write_if_changed(path: str, text: str) -> None:
    # Unchanged files keep their time stamps, so an incremental build re-reads nothing.
    try:
        with open(path) as f:
            if f.read() == text:
                return
    except OSError:
        pass
    with open(path, "w") as f:
        f.write(text)
