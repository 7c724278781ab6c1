"""What the engine finds at run time from the layers above it, without importing them.

`_core` and `cuda/` never import a routine folder or the package root (docs/architecture.md;
tests/test_layers.py checks it). Where the engine needs something that is defined higher up, the
upper layer registers it here once, at import:

- `ufuncs`: every ufunc by NumPy's name for it, filled by `create_ufunc` (and by ufunc-like
  objects such as `matmul`, which register themselves). `numpy.add(gpu, gpu)` and NumPy-internal
  ufuncs (`numpy._core.umath.clip`, which `numpy.clip` calls) dispatch through it.
- `ufunc_sources`: functions `f(np_ufunc) -> ufunc or None` asked for a ufunc that is not in
  `ufuncs` or not NumPy's own (cuarray/_scipy_dispatch.py: SciPy's special functions, whose
  cuarray.scipy.special `import cuarray` leaves for first use), added by `register_ufunc_source`.
- `conversion_hint`: a function returning a sentence for `ndarray.__array__`'s TypeError (which
  cuarray function to call when SciPy code asked for a host copy).
- the namespace: the public module `cuarray`, set by `cuarray/__init__.py`. `__array_namespace__`,
  `get_array_module` and NEP-18 dispatch (`numpy.concatenate(gpu_arrays)`) read it.
"""

from __future__ import annotations

__all__ = ["ufuncs", "register_ufunc", "ufunc_sources", "register_ufunc_source", "set_conversion_hint",
           "conversion_hint", "set_namespace", "namespace"]

ufuncs: dict = {}
ufunc_sources: list = []
_namespace = []
_hint = []


def register_ufunc(uf, name: str | None = None):
    """Make `uf` the implementation of NumPy's ufunc `name` (default: `uf.__name__`); returns it."""
    ufuncs[name or uf.__name__] = uf
    return uf


def register_ufunc_source(fn) -> None:
    """Called once by `cuarray/__init__.py`: ask `fn(np_ufunc)` for ufuncs `ufuncs` cannot answer."""
    if fn not in ufunc_sources:
        ufunc_sources.append(fn)


def set_conversion_hint(fn) -> None:
    """Called once by `cuarray/__init__.py`: `fn()` returns "" or a sentence for `__array__`'s error."""
    _hint[:] = [fn]


def conversion_hint() -> str:
    return _hint[0]() if _hint else ""


def set_namespace(module) -> None:
    """Called once by `cuarray/__init__.py` with the package module itself."""
    _namespace[:] = [module]


def namespace():
    """The public `cuarray` module."""
    if not _namespace:
        raise RuntimeError("cuarray's namespace is not registered: import cuarray first")
    return _namespace[0]
