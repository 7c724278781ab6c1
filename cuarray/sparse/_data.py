"""SciPy's elementwise functions of sparse matrices: the ufuncs with f(0) == 0, applied to the
stored values only (`A.sqrt()`, `A.sin()`, ...). See `scipy.sparse.csr_array.sqrt` and friends.

A table (name -> cuarray ufunc), bound to the sparse base class once by `bind`.
"""

from __future__ import annotations

from .._math import explog, hyperbolic, misc, rounding, trigonometric
from . import _sputils

__all__ = ["UFUNCS", "bind"]

UFUNCS = {
    "arcsin": trigonometric.arcsin, "arctan": trigonometric.arctan, "sin": trigonometric.sin,
    "tan": trigonometric.tan, "deg2rad": trigonometric.deg2rad, "rad2deg": trigonometric.rad2deg,
    "arcsinh": hyperbolic.arcsinh, "arctanh": hyperbolic.arctanh, "sinh": hyperbolic.sinh,
    "tanh": hyperbolic.tanh, "ceil": rounding.ceil, "floor": rounding.floor, "rint": rounding.rint,
    "trunc": rounding.trunc, "expm1": explog.expm1, "log1p": explog.log1p, "sign": misc.sign,
    "sqrt": misc.sqrt,
}


def _method(name, uf):
    def method(self):
        data = uf(self._deduped_data())  # each cell's value: duplicates summed first, as SciPy
        _sputils.check_dtype(data.dtype)  # bool and int8 data give float16 here: SciPy's ValueError
        return self._with_data(data, copy=True)

    method.__name__ = name
    method.__doc__ = "Elementwise {} of the stored values. See `scipy.sparse.csr_array.{}`.".format(name, name)
    return method


def bind(cls) -> None:
    """Attach one method per row of `UFUNCS` to `cls`."""
    for name, uf in UFUNCS.items():
        setattr(cls, name, _method(name, uf))
