"""The one place that binds ndarray operators and methods to the routines.

`_core/ndarray.py` holds storage, views and attributes and imports nothing above it. This module
sits above every routine, runs once at the end of `import cuarray` (`bind()`), and attaches
`__add__` -> `add`, `__getitem__` -> `_core.indexing.getitem`, `.reshape` -> `reshape`, ... So
"what does `a.sum()` call?" has one answer: look here. Engine functions whose signature is the
method's are bound as they are (no wrapper frame on paths like `a[i]`, `a.copy()`, `a.get()`).
"""

from __future__ import annotations

import numpy

from ._bitwise.ops import bitwise_and, bitwise_or, bitwise_xor, invert, left_shift, right_shift
from ._core import copying, indexing, interop, structured, transfer
from ._core.ndarray import ndarray
from ._core.numpy_function import array_function
from ._core.numpy_protocol import array_ufunc
from ._core.power_shortcuts import shortcut as _shortcut
from ._core.tracing import active as _tracing_active
from ._creation.basic import full
from ._indexing.flatiter import flat_property
from ._logic.comparison import equal, greater, greater_equal, less, less_equal, not_equal
from ._logic.content import isnat
from ._logic.truth import all, any  # noqa: A004
from ._manipulation import shape as _shape
from ._manipulation.dims import squeeze
from ._manipulation.tiling import repeat
from ._math.arithmetic import (add, divmod, floor_divide, multiply, negative, positive, power,  # noqa: A004
                               reciprocal, remainder, subtract, true_divide)
from ._math.complex import conj, conjugate
from ._math.misc import absolute, clip, sqrt, square
from ._math.rounding import round  # noqa: A004
from ._math.sums import prod, sum, trace  # noqa: A004
from ._sorting.searching_nonzero import nonzero
from ._sorting.searching_reduce import argmax, argmin
from ._statistics.order import max, min, ptp  # noqa: A004
from .cuda.device import Device

__all__ = ["bind"]

# An operator's other operand it takes (bool is an int). Ordered by how often each comes: each
# class before the match costs isinstance a `__class__` look-up (~120 instructions; a traced
# `a * 2.0` paid three).
_OK = (ndarray, float, int, complex, numpy.generic)

# Binary operators: `a + b` -> add(a, b); `b + a` (reflected) -> add(b, a); `a += b` -> add(a, b, out=a).
_BINARY = {
    "add": add, "sub": subtract, "mul": multiply, "truediv": true_divide, "floordiv": floor_divide,
    "mod": remainder, "pow": power, "and": bitwise_and, "or": bitwise_or, "xor": bitwise_xor,
    "lshift": left_shift, "rshift": right_shift, "divmod": divmod,
}
_COMPARISON = {"lt": less, "le": less_equal, "gt": greater, "ge": greater_equal, "eq": equal, "ne": not_equal}
_UNARY = {"neg": negative, "pos": positive, "abs": absolute, "invert": invert}
# Methods that are the routine with the array first: `a.sum(axis=0)` -> sum(a, axis=0).
_METHODS = {
    "squeeze": squeeze, "repeat": repeat, "clip": clip, "round": round, "conj": conj,
    "conjugate": conjugate, "nonzero": nonzero, "sum": sum, "prod": prod, "min": min, "max": max,
    "argmin": argmin, "argmax": argmax, "any": any, "all": all, "ptp": ptp, "trace": trace,
}
# The same, for routines whose modules `import cuarray` does not load (sorting, scans, statistics,
# linalg, I/O: docs/perf-notes.md "Import time"): the class holds a stand-in that imports the
# module on the first call and replaces itself with the method `bind()` would have made.
# attribute -> (module, routine, how the method is made from it)
_ON_FIRST_CALL = {
    "take": ("._indexing.inserting", "take", "method"),
    "diagonal": ("._indexing.inserting", "diagonal", "method"),
    "choose": ("._indexing.inserting", "choose", "method"),
    "put": ("._indexing.inserting", "put", "method"),
    "compress": ("._indexing.inserting", "compress", "compress"),
    "mean": ("._statistics.averages", "mean", "method"),
    "var": ("._statistics.averages", "var", "method"),
    "std": ("._statistics.averages", "std", "method"),
    "cumsum": ("._math.sums_scan", "cumsum", "method"),
    "cumprod": ("._math.sums_scan", "cumprod", "method"),
    "searchsorted": ("._sorting.searchsorted", "searchsorted", "method"),
    "dot": (".linalg._products", "dot", "method"),
    "sort": ("._sorting.sorting", "ndarray_sort", "as is"),  # in place, unlike cuarray.sort
    "partition": ("._sorting.sorting", "ndarray_partition", "as is"),
    "argsort": ("._sorting.sorting", "ndarray_argsort", "as is"),
    "argpartition": ("._sorting.sorting", "ndarray_argpartition", "as is"),
    "tofile": ("._io.text", "tofile", "as is"),
    "dump": ("._io.text", "dump", "as is"),
    "dumps": ("._io.text", "dumps", "as is"),
    "__matmul__": (".linalg._matmul", "matmul_operator", "as is"),  # `_binary(matmul)` with a fast path
    "__rmatmul__": (".linalg._matmul", "matmul", "reflected"),
    "__imatmul__": (".linalg._matmul", "matmul", "inplace"),  # `a @= b` is matmul(a, b, out=a), as in NumPy 2
}


def _binary(uf):
    fast = getattr(uf, "_fast", None)
    if fast is None or uf.nin != 2:
        def op(self, other):
            if isinstance(other, _OK):
                return uf(self, other)
            return NotImplemented
    else:
        prepared2 = uf.prepared2

        def op(self, other):
            # HOT PATH: the ufunc's fast-path test (`prepared2`), called without the ufunc's
            # __call__ frame and argument tuple; anything else goes through the ufunc (as
            # everything does while a thread traces: the ufunc's dispatch point asks its tracer).
            if not _tracing_active:
                f = prepared2(self, other)
                if f is not None:
                    return f(self, other)
            if isinstance(other, _OK):
                return uf(self, other)
            return NotImplemented

    op.__name__ = "__{}__".format(uf.__name__)
    return op


# NumPy's `==` / `!=` where `equal` has no loop for the two dtypes (datetime64 == 5, an int array
# == "x"): an array of False (True), broadcast, instead of the ufunc's error. Only that error:
# any other (a host array refused, shapes that do not broadcast) is raised as it is.
_NO_LOOP = getattr(getattr(getattr(numpy, "_core", None), "_exceptions", None), "_UFuncNoLoopError", None)


def _none_compared(self, fill):
    """`a == None` (`!=`): NumPy compares None as NaT with datetime64/timedelta64, else never equal."""
    if self._dtype.kind in "Mm":
        nat = isnat(self)
        return nat if not fill else ~nat
    return _full_like(self._shape, fill)


def _full_like(shape, fill):
    return full(shape, fill, dtype=bool)


_NUMBER = numpy.dtype(float)


def _struct_compared(a, b, fill):
    """NumPy's `==` (`!=`: fill True) of structured arrays: field by field (by position, the names
    equal: NumPy asks `result_type`), all fields equal (any differs), with NumPy's TypeErrors."""
    if not (a._dtype.names is not None and getattr(b, "dtype", _NUMBER).names is not None):
        raise TypeError("Cannot compare structured or void to non-void arrays.")
    try:
        numpy.result_type(a._dtype, b.dtype)
    except TypeError:
        raise TypeError("Cannot compare structured arrays unless they have a common dtype.  I.e. "
                        "`np.result_type(arr1, arr2)` must be defined.") from None
    if not isinstance(b, ndarray):  # a numpy.void: one element, on the device
        b = transfer.from_host(numpy.asarray(b))
    out = None
    for na, nb in zip(a._dtype.names, b._dtype.names):
        fa, fb = indexing.getitem(a, na), indexing.getitem(b, nb)
        r = (fa != fb) if fill else (fa == fb)
        out = r if out is None else (out | r if fill else out & r)
    if out is None:  # no fields: equal
        return _full_like(numpy.broadcast_shapes(a._shape, b._shape), fill)
    return out


def _equality(uf, fill):
    """`__eq__` (fill False) or `__ne__` (fill True): `_binary`'s operator, with NumPy's answer where
    the dtypes cannot be compared."""
    fast = getattr(uf, "_fast", None)
    prepared2 = None if fast is None else uf.prepared2

    def op(self, other):
        # HOT PATH: as `_binary`'s (the try costs nothing until it raises)
        if prepared2 is not None and not _tracing_active:
            f = prepared2(self, other)
            if f is not None:
                return f(self, other)
        if other is None:
            return _none_compared(self, fill)
        if isinstance(other, (str, bytes)):
            return _full_like(self._shape, fill)
        if not isinstance(other, _OK):
            return NotImplemented
        try:
            return uf(self, other)
        except TypeError as exc:
            if self._dtype.names is not None or getattr(other, "dtype", _NUMBER).names is not None:
                struct = True  # (the ufunc refuses structs, a numpy.void too: compared below)
            elif _NO_LOOP is None or not isinstance(exc, _NO_LOOP):
                raise
            else:
                struct = False
        if struct:
            return _struct_compared(self, other, fill)
        shape = numpy.broadcast_shapes(self._shape, numpy.shape(other))
        return _full_like(shape, fill)

    op.__name__ = "__{}__".format(uf.__name__)
    return op


def _reflected(uf):
    def op(self, other):
        if isinstance(other, _OK):
            return uf(other, self)
        return NotImplemented

    return op


def _inplace(uf):
    def op(self, other):
        if isinstance(other, _OK):
            uf(self, other, out=self)
            return self
        return NotImplemented

    return op


def _power_operators(power, square, reciprocal, sqrt):
    """`a ** s` and `a **= s`: NumPy's shortcuts (`_core.power_shortcuts`: square, reciprocal,
    sqrt for some Python scalar exponents), `power`'s operator otherwise."""
    general, general_inplace = _binary(power), _inplace(power)
    by_name = {"square": square, "reciprocal": reciprocal, "sqrt": sqrt}

    def __pow__(self, other):
        name = _shortcut(self._dtype.kind, other)
        return general(self, other) if name is None else by_name[name](self)

    def __ipow__(self, other):
        name = _shortcut(self._dtype.kind, other)
        if name is None:
            return general_inplace(self, other)
        by_name[name](self, out=self)
        return self

    return __pow__, __ipow__


def _unary(uf):
    def op(self):
        return uf(self)

    return op


def _method(name, fn):
    def method(self, *args, **kwargs):
        return fn(self, *args, **kwargs)

    method.__name__ = name
    method.__doc__ = "See `cuarray.{}`.".format(name)
    return method


# -- methods whose engine function takes other arguments --------------------------------------
def _get(self, stream=None, order="C", out=None, blocking=True) -> numpy.ndarray:
    """Copy to a NumPy array (synchronising). See `cupy.ndarray.get`."""
    return transfer.to_host(self, stream=stream, out=out, blocking=blocking)


def _set(self, arr, stream=None) -> None:
    """Copy a NumPy array of the same shape into this array. See `cupy.ndarray.set`."""
    transfer.from_host_into(self, arr, stream=stream)


def _astype(self, dtype, order="K", casting="unsafe", subok=None, copy=True) -> ndarray:
    """See `numpy.ndarray.astype`."""
    return copying.astype(self, dtype, order=order, casting=casting, copy=copy)


def _array_to_device(self, device, /, *, stream=None) -> ndarray:
    """See the Array API's `array.to_device`: the array itself when `device` is its device; on
    another CUDA device, a copy made there (`transfer.from_other_device`: peer to peer where the
    hardware allows). `stream` is a stream of the target device (default: its current one)."""
    if isinstance(device, int) and not isinstance(device, bool):
        device = Device(device)
    if not isinstance(device, Device):
        raise ValueError("to_device: {!r} is not a cuarray device (a cuarray.cuda.Device); use .get() or "
                         "cuarray.asnumpy() to copy to the host".format(device))
    if device == self.device:
        return self
    with device:
        if stream is None:
            return transfer.from_other_device(self)
        with stream:
            return transfer.from_other_device(self)


def _compress(compress):
    def method(self, condition, axis=None, out=None) -> ndarray:
        """See `numpy.ndarray.compress` (the condition comes first in the function)."""
        return compress(condition, self, axis=axis, out=out)

    method.__name__ = "compress"
    return method


_MAKE = {"method": _method, "as is": lambda name, fn: fn, "compress": lambda name, fn: _compress(fn),
         "binary": lambda name, fn: _binary(fn), "reflected": lambda name, fn: _reflected(fn),
         "inplace": lambda name, fn: _inplace(fn)}


def _on_first_call(attr, module, routine, how):
    def first_call(self, *args, **kwargs):
        import importlib

        fn = getattr(importlib.import_module(module, __package__), routine)
        method = _MAKE[how](attr, fn)
        setattr(ndarray, attr, method)
        return method(self, *args, **kwargs)

    first_call.__name__ = attr
    first_call.__doc__ = "See `cuarray.{}` (its module is imported on the first call).".format(routine)
    return first_call


def _resize(self, *new_shape, refcheck=True) -> None:
    """See `numpy.ndarray.resize`: in place; the flat C-order prefix is kept, new elements are
    zero. Only an array that owns its memory can be resized (no reference counting of views on
    the device: `refcheck` is accepted and not checked, as CuPy's arrays cannot be either)."""
    if len(new_shape) == 1 and not isinstance(new_shape[0], int):
        new_shape = tuple(new_shape[0])
    if self.base is not None:
        raise ValueError("cannot resize this array: it does not own its data")
    if not self._c:
        raise ValueError("resize only works on single-segment arrays")
    new = ndarray(new_shape, self._dtype)
    if new._size:
        new.data.memset_async(0, new.nbytes)
        n = new._size if new._size < self._size else self._size  # (`min` here is cuarray's)
        if n:
            new.data.copy_from_device_async(self.data, n * self._dtype.itemsize)
    self._shape, self._strides, self._size = new._shape, new._strides, new._size
    self.data, self._c, self._f = new.data, new._c, new._f


def _setflags(self, write=None, align=None, uic=None) -> None:
    """See `numpy.ndarray.setflags`: only WRITEABLE is a cuarray flag (device memory is aligned)."""
    if uic:
        raise ValueError("cannot set WRITEBACKIFCOPY flag to True")
    if write is not None:
        if write and self.base is not None and not self.base._writeable:
            raise ValueError("cannot set WRITEABLE flag to True of this array")
        self._writeable = bool(write)


def _contains(self, value) -> bool:
    """`value in a`: any element equal (one bool read, synchronising)."""
    return bool(any(equal(self, value)))


def _delitem(self, key) -> None:
    raise ValueError("cannot delete array elements")


def _reduce(self):
    # Pickling copies to the host (the only portable representation).
    return (transfer.from_host, (self.get(),))


def _setfield(self, val, dtype, offset=0) -> None:
    """See `numpy.ndarray.setfield`: ``self.getfield(dtype, offset)[...] = val``."""
    indexing.setitem(structured.getfield(self, dtype, offset), Ellipsis, val)


def _reshape(self, *shape, order="C", copy=None):
    """See `numpy.ndarray.reshape` (the shape as one tuple or as separate ints)."""
    if len(shape) == 1 and not isinstance(shape[0], int):
        shape = shape[0]
    return _shape.reshape(self, shape, order=order, copy=copy)


def bind() -> None:
    """Attach operators, protocols and methods to `ndarray` (once, at `import cuarray`)."""
    for short, uf in _BINARY.items():
        setattr(ndarray, "__{}__".format(short), _binary(uf))
        setattr(ndarray, "__r{}__".format(short), _reflected(uf))
        if short != "divmod":  # `a @= b` is matmul(a, b, out=a), as in NumPy 2
            setattr(ndarray, "__i{}__".format(short), _inplace(uf))
    ndarray.__pow__, ndarray.__ipow__ = _power_operators(power, square, reciprocal, sqrt)
    for short, uf in _COMPARISON.items():
        setattr(ndarray, "__{}__".format(short), _binary(uf))
    ndarray.__eq__ = _equality(equal, False)
    ndarray.__ne__ = _equality(not_equal, True)
    for short, uf in _UNARY.items():
        setattr(ndarray, "__{}__".format(short), _unary(uf))
    ndarray.__hash__ = None  # mutable, and __eq__ is elementwise

    # NumPy protocols: numpy.add(gpu, gpu) and numpy.sum(gpu) run here, never on the host.
    ndarray.__array_ufunc__ = array_ufunc
    ndarray.__array_function__ = array_function

    # Indexing, copies, transfers and interchange (the engine's functions, bound as they are).
    ndarray.__getitem__ = indexing.getitem
    ndarray.flat = flat_property  # a flatiter (1-D C-order indexing, assignment, iteration)
    ndarray.__setitem__ = indexing.setitem
    ndarray.copy = copying.copy
    ndarray.fill = copying.assign_scalar  # NumPy's ndarray.fill: assignment's conversion, not full's cast
    ndarray.astype = _astype
    ndarray.get = _get
    ndarray.to_device = _array_to_device
    ndarray.set = _set
    ndarray.__reduce__ = _reduce
    ndarray.__cuda_array_interface__ = property(interop.cuda_array_interface)
    ndarray.__dlpack__ = interop.to_dlpack
    ndarray.toDlpack = interop.to_dlpack_capsule  # CuPy's legacy name
    ndarray.byteswap = copying.byteswap
    ndarray.getfield = structured.getfield
    ndarray.setfield = _setfield

    # Shape and sorting methods (their own signatures), then routines with the array first.
    ndarray.reshape = _reshape
    ndarray.ravel = _shape.ravel
    ndarray.flatten = _shape.flatten
    ndarray.resize = _resize
    ndarray.setflags = _setflags
    ndarray.__contains__ = _contains
    ndarray.__delitem__ = _delitem
    for name, fn in _METHODS.items():
        setattr(ndarray, name, _method(name, fn))
    for attr, (module, routine, how) in _ON_FIRST_CALL.items():
        setattr(ndarray, attr, _on_first_call(attr, module, routine, how))
