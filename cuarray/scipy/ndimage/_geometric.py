"""scipy.ndimage's `geometric_transform`: the input coordinates of every output point from
`mapping`, then `map_coordinates`' device interpolation (every order, mode, `cval` and
`prefilter`; complex input by parts). Two forms of `mapping`:

- a Python callable, SciPy's contract: called once per output point, in C order, on the host, as
  ``mapping(point, *extra_arguments, **extra_keywords)`` with `point` a tuple of Python ints; it
  returns a tuple whose first ``input.ndim`` items are the input coordinates (read as C doubles,
  as SciPy reads them). The coordinates then go to the device as one float64 array. The calls cost
  about what they cost in SciPy (0.3-1 us a point on one CPU core with a one-line lambda: up to a
  second per million output points); the interpolation runs on the device. It is not tried on
  whole coordinate arrays: SciPy's contract is one tuple per point, and a mapping that also runs
  on arrays may mean something else there.
- a `cuarray.ElementwiseKernel`, cuarray's device form (CuPy has no `geometric_transform`):
  ``len(output_shape)`` inputs, the output point's coordinates (int64), then one input per item of
  `extra_arguments` (cuarray arrays broadcast against the output grid, or scalars); ``input.ndim``
  outputs, the input coordinates (declared float64: written in place; other types are cast). One
  launch over the output grid; `extra_keywords` is not taken.

A `scipy.LowLevelCallable` is host machine code: TypeError.
"""

from __future__ import annotations

import itertools
import math

import numpy

from ..._core.copying import copyto_unchecked
from ..._core.elementwise_kernel import ElementwiseKernel as _ElementwiseKernel
from ..._core.ndarray import ndarray
from ..._core.transfer import from_host
from ..._creation.ranges import arange as _arange
from . import _interp_kernels as _k
from . import _support as _s
from ._interpolation import map_coordinates

__all__ = ["geometric_transform"]

_I8 = numpy.dtype(numpy.int64)
_F8 = numpy.dtype(numpy.float64)
# Types numpy.array reads as PyFloat_AsDouble does (it would also parse strings, which SciPy refuses).
_PLAIN = {float, int, bool, numpy.float64, numpy.float32, numpy.int64, numpy.int32}
_HOST_CHUNK = 65536  # output points converted at a time


def _as_double(v) -> float:
    """`v` as SciPy's PyFloat_AsDouble reads a returned coordinate: numbers and objects with
    __float__ or __index__; a string is a TypeError (Python's float() would parse it)."""
    if isinstance(v, (str, bytes, bytearray)):
        raise TypeError("must be real number, not {}".format(type(v).__name__))
    return float(v)


def _host_coordinates(mapping, oshape, irank: int, extra_arguments, extra_keywords) -> numpy.ndarray:
    """(irank,) + oshape float64 input coordinates from one call of `mapping` per output point,
    in C order (SciPy's order: a mapping with side effects sees the same sequence of calls);
    converted a chunk of points at a time (the returned tuples of a chunk held, not all)."""
    total = math.prod(oshape)
    values = numpy.empty((irank, total), dtype=_F8)  # (the result's layout: no transposed copy at the end)
    points = itertools.product(*(range(n) for n in oshape))
    for start in range(0, total, _HOST_CHUNK):
        rows = []
        append = rows.append
        for point in itertools.islice(points, _HOST_CHUNK):
            got = mapping(point, *extra_arguments, **extra_keywords)
            if not isinstance(got, tuple) or len(got) < irank:  # SciPy reads items of a tuple
                raise TypeError("mapping must return a tuple of {} input coordinates (the input's rank), not {!r}"
                                .format(irank, got))
            append(got if len(got) == irank else got[:irank])
        flat = list(itertools.chain.from_iterable(rows))
        if set(map(type, flat)) <= _PLAIN:  # (one pass in C; converting each value costs 0.4 us a point)
            chunk = numpy.array(flat, dtype=_F8)
        else:
            chunk = numpy.fromiter(map(_as_double, flat), dtype=_F8, count=len(flat))
        values[:, start:start + len(rows)] = chunk.reshape(-1, irank).T
    return values.reshape((irank,) + tuple(oshape))


def _device_coordinates(kernel, oshape, irank: int, extra_arguments, extra_keywords) -> ndarray:
    """(irank,) + oshape float64 input coordinates from one launch of the ElementwiseKernel
    `kernel` over the output grid (its coordinates as broadcast int64 ranges)."""
    orank = len(oshape)
    if extra_keywords:
        raise TypeError("an ElementwiseKernel mapping takes no extra_keywords (pass values as extra_arguments)")
    if kernel.nin != orank + len(extra_arguments) or kernel.nout != irank:
        raise TypeError("an ElementwiseKernel mapping takes {} inputs (the {} output coordinates, then the {} "
                        "extra_arguments) and has {} outputs (the input coordinates); {!r} has {} and {}".format(
                            orank + len(extra_arguments), orank, len(extra_arguments), irank, kernel.name,
                            kernel.nin, kernel.nout))
    grids = []
    for d, n in enumerate(oshape):
        shape = [1] * orank
        shape[d] = n
        grids.append(_arange(n, dtype=_I8).reshape(tuple(shape)))
    coords = ndarray((irank,) + tuple(oshape), _F8)
    if all(p.dtype == _F8 and not p.raw for p in kernel.out_params):  # written in place
        kernel(*grids, *extra_arguments, *(coords[d] for d in range(irank)))
        return coords
    got = kernel(*grids, *extra_arguments)
    got = got if isinstance(got, tuple) else (got,)
    for d, c in enumerate(got):
        if c.shape != tuple(oshape):
            raise ValueError("the mapping's outputs have shape {}, not the output shape {} (an extra argument "
                             "broadcasts past the output grid)".format(c.shape, tuple(oshape)))
        copyto_unchecked(coords[d], c)
    return coords


def _check_mapping(mapping):
    if isinstance(mapping, _ElementwiseKernel):
        return
    kind = type(mapping).__name__
    if kind in ("LowLevelCallable", "PyCapsule"):
        raise TypeError("geometric_transform on the GPU takes a Python callable or a cuarray.ElementwiseKernel "
                        "as `mapping`, not a {} (host machine code)".format(kind))
    if not callable(mapping):
        raise ValueError("invalid callable given")


def geometric_transform(input, mapping, output_shape=None, output=None, order=3, mode="constant", cval=0.0,
                        prefilter=True, extra_arguments=(), extra_keywords=None):
    """See `scipy.ndimage.geometric_transform`. The interpolation runs on the device. `mapping`
    is a Python callable, called once per output point on the host as SciPy calls it (as slow as
    in SciPy: up to a microsecond a point), or a `cuarray.ElementwiseKernel` that computes the
    coordinates on the device in one launch: its inputs are the output point's coordinates (int64,
    one per output axis) followed by `extra_arguments` (arrays broadcast against the output grid,
    or scalars), its outputs the input coordinates (one per input axis); it takes no
    `extra_keywords`. With complex input the coordinates are computed once for both parts (SciPy
    calls `mapping` twice per point). A `scipy.LowLevelCallable` (host machine code) raises
    TypeError.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> a = cuarray.arange(1., 13.).reshape(4, 3)
    >>> ndimage.geometric_transform(a, lambda p: (p[0] - 0.5, p[1] - 0.5), order=1, mode='nearest')
    array([[ 1. ,  1.5,  2.5],
           [ 2.5,  3. ,  4. ],
           [ 5.5,  6. ,  7. ],
           [ 8.5,  9. , 10. ]])
    """
    if extra_keywords is None:
        extra_keywords = {}
    if order < 0 or order > 5:
        raise RuntimeError("spline order not supported")
    x = _s.as_input(input, "geometric_transform")
    oshape = x.shape if output_shape is None else tuple(int(s) for s in output_shape)
    if x.ndim < 1 or len(oshape) < 1:
        raise RuntimeError("input and output rank must be > 0")
    complex_out = x.dtype.kind == "c"
    dt = _s.output_dtype(output, x, complex_output=complex_out, shape=oshape)
    _k.mode_code(mode)
    if not isinstance(extra_arguments, tuple):
        raise RuntimeError("extra_arguments must be a tuple")
    if not isinstance(extra_keywords, dict):
        raise RuntimeError("extra_keywords must be a dictionary")
    _check_mapping(mapping)
    if isinstance(mapping, _ElementwiseKernel):
        coords = _device_coordinates(mapping, oshape, x.ndim, extra_arguments, extra_keywords)
    else:
        coords = from_host(_host_coordinates(mapping, oshape, x.ndim, extra_arguments, extra_keywords))
    return map_coordinates(x, coords, output if _s.is_array(output) else dt, order, mode, cval, prefilter)
