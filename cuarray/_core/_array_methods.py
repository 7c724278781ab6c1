"""The one place that binds ndarray operators and methods to the routines.

`ndarray.py` holds storage and views; this module runs once at `import cuarray`, after every
routine exists, and attaches `__add__` -> `add`, `.reshape` -> `reshape`, ... So "what does
`a.sum()` call?" has one answer: look here.
"""

from __future__ import annotations

import numpy

from .ndarray import ndarray

_OK = (ndarray, bool, int, float, complex, numpy.generic)


def _binary(uf):
    def op(self, other):
        if isinstance(other, _OK):
            return uf(self, other)
        return NotImplemented

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


def _unary(uf):
    def op(self):
        return uf(self)

    return op


def bind() -> None:
    import cuarray as cp
    from .._manipulation import shape as _shape

    table = {
        "add": cp.add, "sub": cp.subtract, "mul": cp.multiply, "truediv": cp.true_divide,
    }
    optional = {
        "floordiv": "floor_divide", "mod": "remainder", "pow": "power", "and": "bitwise_and",
        "or": "bitwise_or", "xor": "bitwise_xor", "lshift": "left_shift", "rshift": "right_shift",
        "matmul": "matmul", "divmod": "divmod",
    }
    for short, name in optional.items():
        uf = getattr(cp, name, None)
        if uf is not None:
            table[short] = uf
    for short, uf in table.items():
        setattr(ndarray, "__{}__".format(short), _binary(uf))
        setattr(ndarray, "__r{}__".format(short), _reflected(uf))
        if short != "divmod":  # `a @= b` is matmul(a, b, out=a), as in NumPy 2
            setattr(ndarray, "__i{}__".format(short), _inplace(uf))
    for short, name in (("lt", "less"), ("le", "less_equal"), ("gt", "greater"),
                        ("ge", "greater_equal"), ("eq", "equal"), ("ne", "not_equal")):
        uf = getattr(cp, name, None)
        if uf is not None:
            setattr(ndarray, "__{}__".format(short), _binary(uf))
    for short, name in (("neg", "negative"), ("pos", "positive"), ("abs", "absolute"), ("invert", "invert")):
        uf = getattr(cp, name, None)
        if uf is not None:
            setattr(ndarray, "__{}__".format(short), _unary(uf))
    ndarray.__hash__ = None  # mutable, and __eq__ is elementwise

    # NumPy protocols: numpy.add(gpu, gpu) and numpy.sum(gpu) run here, never on the host.
    from . import numpy_protocol

    ndarray.__array_ufunc__ = numpy_protocol.array_ufunc
    try:
        from . import numpy_function

        ndarray.__array_function__ = numpy_function.array_function
    except ImportError:  # arrives with the ndarray-routines work
        pass

    # Complex parts: views of the array's memory for complex dtypes (NumPy semantics).
    from .._math import complex as _complex

    ndarray.real = property(_complex.real, lambda self, v: _complex.real(self).__setitem__(Ellipsis, v))
    ndarray.imag = property(_complex.imag, lambda self, v: _complex.imag(self).__setitem__(Ellipsis, v))

    # Shape methods.
    def reshape(self, *shape, order="C", copy=None):
        if len(shape) == 1 and not isinstance(shape[0], int):
            shape = shape[0]
        return _shape.reshape(self, shape, order=order, copy=copy)

    ndarray.reshape = reshape
    ndarray.ravel = lambda self, order="C": _shape.ravel(self, order)
    ndarray.flatten = lambda self, order="C": _shape.flatten(self, order)
    from .._sorting import sorting as _sorting

    ndarray.sort = _sorting.ndarray_sort  # in place, unlike cuarray.sort
    ndarray.partition = _sorting.ndarray_partition
    ndarray.argsort = _sorting.ndarray_argsort
    ndarray.argpartition = _sorting.ndarray_argpartition
    for name in ("squeeze", "repeat", "take", "clip", "round", "conj", "conjugate", "nonzero",
                 "sum", "prod", "min", "max", "argmin", "argmax", "mean", "var", "std", "any", "all",
                 "cumsum", "cumprod", "ptp", "trace", "diagonal", "sort", "argsort", "dot", "searchsorted"):
        fn = getattr(cp, name, None)
        if fn is not None and not hasattr(ndarray, name):
            setattr(ndarray, name, _method(fn))


def _method(fn):
    def method(self, *args, **kwargs):
        return fn(self, *args, **kwargs)

    method.__name__ = fn.__name__ if hasattr(fn, "__name__") else "method"
    method.__doc__ = "See `cuarray.{}`.".format(method.__name__)
    return method
