"""The API reference's pages, written from the namespaces themselves (called by conf.py).

One page per namespace with an autosummary table of every public name (``__all__`` where the
module has one, else its names without a leading underscore, less submodules and the
``from __future__`` flag); autosummary then writes one page per name. Nothing is listed by hand,
so a new public function gets its page at the next build. A namespace that re-exports another
(``cuarray.scipy.sparse`` is ``cuarray.sparse``) gets a pointer, not a second set of pages.
"""

from __future__ import annotations

import __future__
import importlib
import inspect
import os
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
    ("cuarray.scipy.special", "cuarray.scipy.special", "scipy.special as ufuncs."),
    ("cuarray.scipy.linalg", "cuarray.scipy.linalg", "scipy.linalg."),
    ("cuarray.scipy.stats", "cuarray.scipy.stats", "scipy.stats."),
    ("cuarray.scipy.ndimage", "cuarray.scipy.ndimage", "scipy.ndimage."),
    ("cuarray.scipy.signal", "cuarray.scipy.signal", "scipy.signal."),
    ("cuarray.scipy.fft", "cuarray.scipy.fft", "scipy.fft."),
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


def page(modname: str, title: str, blurb: str, seen: dict, toctree: bool = True) -> str:
    """The namespace's page. `seen` maps id(object) -> the first full name given a page: a later
    name for the same object links there instead of describing the object twice."""
    module = importlib.import_module(modname)
    groups: dict[str, list[str]] = {}
    aliases, numpy_own, constants = [], [], []
    for name in public_names(module):
        obj = getattr(module, name)
        full = modname + "." + name
        if _numpy_own(obj):
            numpy_own.append((name, _numpy_path(obj, name)))
        elif _kind(obj) == "Constants and other objects":
            constants.append((name, obj))
        elif id(obj) in seen:
            aliases.append((name, seen[id(obj)]))
        else:
            seen[id(obj)] = full
            groups.setdefault(_kind(obj), []).append(name)
    lines = [title, "=" * len(title), "", blurb, "", ".. currentmodule:: " + modname, ""]
    for kind in _ORDER:
        if kind not in groups:
            continue
        lines += [kind, "-" * len(kind), "", ".. autosummary::"]
        lines += ["   :toctree: generated/"] if toctree else []
        lines += ["   :nosignatures:", ""] + ["   " + n for n in groups[kind]] + [""]
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


def _numpy_path(obj, name) -> str:
    """``linalg.LinAlgError``, ``float32``: where NumPy's reference documents it."""
    parts = (getattr(obj, "__module__", None) or "numpy").split(".")[1:]
    prefix = "" if any(p.startswith("_") for p in parts) or not parts else ".".join(parts) + "."
    return prefix + getattr(obj, "__name__", name)


def _short(value) -> str:
    text = " ".join(repr(value).split())
    return text if len(text) <= 60 else text[:57] + "..."


def write(folder: str, toctree: bool = True, only=None) -> None:
    """Write api/<namespace>.rst and api/index.rst. `toctree=False`: tables of names and summaries
    only, no page per name (the cheap check CI runs); `only`: these namespaces (a quick look)."""
    os.makedirs(folder, exist_ok=True)
    toc, seen = [], {}
    for modname, title, blurb in NAMESPACES:
        if only and modname not in only:
            continue
        _write_if_changed(os.path.join(folder, modname + ".rst"), page(modname, title, blurb, seen, toctree))
        toc.append(modname)
    for alias, target in ALIASES:
        if only and target not in only:
            continue
        text = "{0}\n{1}\n\n``{0}`` is ``{2}`` under SciPy's name: see :doc:`{2}`.\n".format(
            alias, "=" * len(alias), target)
        _write_if_changed(os.path.join(folder, alias + ".rst"), text)
        toc.append(alias)
    index = ["API reference", "=============", "",
             "Every public name of every namespace, one page each, generated from the docstrings.",
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
