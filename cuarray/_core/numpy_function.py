"""`ndarray.__array_function__` (NEP 18): `numpy.concatenate(gpu_arrays)` runs cuarray's.

NumPy hands us the public function it was called as; we look up the function of the same name in
the matching cuarray namespace (`numpy.linalg.norm` -> `cuarray.linalg.norm`) and call it. When
cuarray has no such function, or another array type takes part, we return NotImplemented and
NumPy raises its TypeError ("no implementation found for ...").
"""

from __future__ import annotations

import numpy

from . import registry as _registry
from .ndarray import ndarray

__all__ = ["array_function"]

_cache: dict = {}
_MISSING = object()


def _target(func):
    impl = _cache.get(func, _MISSING)
    if impl is not _MISSING:
        return impl
    module = getattr(func, "__module__", "") or ""
    obj = _registry.namespace()
    parts = module.split(".")
    # 'numpy', 'numpy.linalg', 'numpy.fft', 'numpy.lib._shape_base_impl', ...: public subpackages
    # map to ours; private implementation modules map to the top level.
    if parts[0] == "numpy":
        for p in parts[1:]:
            if p.startswith("_"):
                break
            obj = getattr(obj, p, None)
            if obj is None:
                break
    impl = getattr(obj, func.__name__, None) if obj is not None else None
    if impl is func:
        impl = None  # a NumPy function re-exported as is (dtypes, finfo...) is not ours to run
    _cache[func] = impl
    return impl


def array_function(self, func, types, args, kwargs):
    """`ndarray.__array_function__`."""
    for t in types:
        # Only our arrays (and NumPy scalars): a NumPy array among the arguments would need an
        # implicit host-to-device copy, which cuarray never makes.
        if not (issubclass(t, ndarray) or issubclass(t, numpy.generic)):
            return NotImplemented
    impl = _target(func)
    if impl is None:
        return NotImplemented
    return impl(*args, **kwargs)
