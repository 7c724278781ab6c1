"""NumPy's dispatch protocols: `numpy.add(gpu, gpu)` runs `cuarray.add` (`__array_ufunc__`).

`array_ufunc` is bound as `ndarray.__array_ufunc__` (see _array_methods.py). It maps a NumPy ufunc
to the cuarray ufunc of the same `__name__` and calls the method NumPy asked for. Inputs and
outputs must be cuarray arrays or scalars: a NumPy array among them gives NotImplemented (NumPy
then raises TypeError), so nothing is copied between host and device behind the user's back.
"""

from __future__ import annotations

import numpy

from . import registry as _registry
from .ndarray import ndarray

__all__ = ["array_ufunc"]

_SCALARS = (bool, int, float, complex, numpy.generic)
_METHODS = ("__call__", "reduce", "accumulate", "reduceat", "outer", "at")


def _cuarray_ufunc(np_ufunc):
    # Filled by create_ufunc and ufunc-like objects (matmul): _core imports no routine module.
    uf = _registry.ufuncs.get(np_ufunc.__name__)
    if uf is None and _registry.ufuncs:
        # A ufunc-like object whose module `import cuarray` leaves for first use (matmul):
        # naming it in the namespace imports it, and it registers itself.
        getattr(_registry.namespace(), np_ufunc.__name__, None)
        uf = _registry.ufuncs.get(np_ufunc.__name__)
    if uf is None or getattr(numpy, np_ufunc.__name__, None) is not np_ufunc:
        # Another library's ufunc, possibly under a NumPy name (SciPy's cbrt): its implementation
        # is found on first use (`import cuarray` leaves cuarray.scipy.special unloaded).
        for source in _registry.ufunc_sources:
            found = source(np_ufunc)
            if found is not None:
                return found
    return uf


def _foreign(x) -> bool:
    return not (x is None or isinstance(x, (ndarray,) + _SCALARS))


def _refuse_for_scipy(ufunc, uf, foreign) -> None:
    """Raise the TypeError that names the cuarray function to call, when SciPy code made a call
    cuarray cannot take: a private ufunc cuarray lacks (scipy.special.zeta calls `_zeta`) or a
    NumPy array beside ours (scipy.special.spherical_jn makes `n` one). Only NumPy arrays are
    foreign then, so no other operand's `__array_ufunc__` could take the call; NumPy's own error
    would be "all returned NotImplemented". Outside SciPy code the hint is "": nothing raised."""
    if all(isinstance(x, numpy.ndarray) for x in foreign):
        hint = _registry.conversion_hint()
        if hint:
            what = ("cuarray has no ufunc {!r}." if uf is None else
                    "cuarray's {!r} takes no NumPy arrays (no implicit host copies).").format(ufunc.__name__)
            raise TypeError(what + hint)


def array_ufunc(self, ufunc, method, *inputs, **kwargs):
    """`ndarray.__array_ufunc__`: run NumPy's `ufunc.method(*inputs, **kwargs)` with cuarray."""
    if method not in _METHODS:
        return NotImplemented
    uf = _cuarray_ufunc(ufunc)
    foreign = [x for x in inputs if not isinstance(x, (tuple, list)) and _foreign(x)]
    if uf is None or foreign:
        _refuse_for_scipy(ufunc, uf, foreign)
        return NotImplemented
    out = kwargs.get("out")
    if out is not None:
        outs = out if isinstance(out, tuple) else (out,)
        if any(o is not None and not isinstance(o, ndarray) for o in outs):
            return NotImplemented
        if method in ("__call__", "outer") and len(outs) == 1:
            kwargs["out"] = outs[0]
    if method == "__call__":
        return uf(*inputs, **kwargs)
    return getattr(uf, method)(*inputs, **kwargs)
