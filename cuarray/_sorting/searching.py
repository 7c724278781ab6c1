"""Searching (NumPy "Sorting, searching, and counting / Searching"): `where`.

`where(cond, x, y)` is one elementwise kernel; Python scalars among `x`, `y` (and `cond`) are kernel
arguments, weak in the result type (NEP 50: ``where(c, x_f32, 2.0)`` is float32). The one-argument
form is `nonzero`, which needs advanced indexing.
"""

from __future__ import annotations

import numpy

from .._core import dtypes as _dtypes
from .._core import shapes as _shapes
from .._core import tracing as _tracing
from .._core.elementwise import Definition, KernelParam, scalar_converter
from .._core.host_input import reject
from .._core.ndarray import ndarray
from .searching_nonzero import nonzero
from .._core.dtypes import PY_SCALARS as _PY_SCALARS
from ..cuda import caches as _caches

_BOOL = numpy.dtype(bool)
_defs: dict = {}
_caches.register("where definitions", _defs)


def _operand_type(v):
    """(dtype for result_type, stored dtype or None for a scalar)."""
    if isinstance(v, ndarray):
        return v.dtype, v.dtype
    if type(v) in _PY_SCALARS:
        return v, None
    if isinstance(v, numpy.generic):
        return _dtypes.normalize_dtype(v.dtype), None
    raise reject(v, "where")


def _definition(kinds, res) -> Definition:
    key = (kinds, res)
    d = _defs.get(key)
    if d is None:
        computes = (_BOOL, res, res)
        params = []
        for name, kind, comp in zip(("cond", "x", "y"), kinds, computes):
            if kind is None:
                params.append(KernelParam(name, "scalar", comp, comp))
            else:
                params.append(KernelParam(name, "in", kind, comp))
        params.append(KernelParam("out0", "out", res, res))
        parts = ["s" if k is None else k.name for k in kinds]
        name = "cuarray_where_{}_to_{}".format("_".join(parts), res.name)
        d = _defs[key] = Definition(name, params, "out0 = cond ? x : y")
    return d


def where(condition, x=None, y=None):
    """See `numpy.where`. With one argument, `nonzero(condition)` (one host sync for the size).

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.arange(6).reshape(2, 3)
    >>> cuarray.where(a > 2, a, -1)
    array([[-1, -1, -1],
           [ 3,  4,  5]])
    """
    if _tracing.active:  # the dispatch point for a tracer (`_core/tracing.py`)
        t = _tracing.state.tracer
        if t is not None:
            return t.call("where", where, (condition, x, y), {})
    if x is None and y is None:
        return nonzero(condition)
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    c_rt, c_kind = _operand_type(condition)
    x_rt, x_kind = _operand_type(x)
    y_rt, y_kind = _operand_type(y)
    res = _dtypes.normalize_dtype(numpy.result_type(x_rt, y_rt))
    ops = (condition, x, y)
    arrays = [v for v in ops if isinstance(v, ndarray)]
    shapes = [a.shape for a in arrays]
    shape = _shapes.broadcast_shapes(*shapes) if shapes else ()
    scalars = []
    for v, kind, comp in zip(ops, (c_kind, x_kind, y_kind), (_BOOL, res, res)):
        if kind is None:
            # A Python int out of the result type's range raises OverflowError (NumPy >= 2.5; 2.4
            # wrapped it); NumPy scalars are cast like NumPy casts them.
            if isinstance(v, numpy.generic):
                with numpy.errstate(all="ignore"):
                    val = numpy.asarray(v).astype(comp)[()]
            else:
                val = comp.type(v)
            if comp.kind in "Mm":  # a datetime as its int64 count (cuda.core refuses numpy.datetime64)
                val = scalar_converter(comp)(val)
            scalars.append(numpy.float32(val) if comp.char == "e" else val)
    out = ndarray(shape, res)
    d = _definition((c_kind, x_kind, y_kind), res)
    d.run(tuple(arrays) + (out,), tuple(scalars), shape)
    return out
