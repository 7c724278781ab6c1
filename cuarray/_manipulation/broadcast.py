"""The `broadcast` class (NumPy "Array manipulation / Changing number of dimensions").

Its shape arithmetic is the engine's (`broadcast_shapes`, at most 64 operands as in NumPy 2).
`iters` are flat iterators over read-only broadcast views; iterating the object itself reads
each operand to the host once (one synchronisation for the whole loop) and yields tuples of
NumPy scalars, as NumPy does.
"""

from __future__ import annotations

import numpy

from .._core import shapes as _shapes
from .._core.host_input import as_array
from .._indexing.flatiter import flatiter
from .dims import broadcast_to

__all__ = ["broadcast"]

_MAXARGS = 64


class broadcast:
    """An object that mimics broadcasting. See `numpy.broadcast`.

    Examples
    --------
    >>> import cuarray
    >>> b = cuarray.broadcast(cuarray.ones((2, 1)), cuarray.ones(3))
    >>> b.shape, b.nd, b.size
    ((2, 3), 2, 6)
    """

    def __init__(self, *args):
        if len(args) > _MAXARGS:
            raise ValueError("Need at least 0 and at most {} array objects.".format(_MAXARGS))
        arrays = []
        for x in args:
            if isinstance(x, broadcast):
                arrays.extend(x._arrays)
            else:
                arrays.append(as_array(x, "broadcast"))
        if len(arrays) > _MAXARGS:
            raise ValueError("Need at least 0 and at most {} array objects.".format(_MAXARGS))
        self._arrays = arrays
        _shapes.check_legacy_iter_ndim([a.shape for a in arrays])
        self._shape = _shapes.broadcast_shapes(*[a.shape for a in arrays]) if arrays else ()
        self._index = 0
        self._host = None

    @property
    def shape(self) -> tuple:
        return self._shape

    @property
    def nd(self) -> int:
        return len(self._shape)

    @property
    def ndim(self) -> int:
        return len(self._shape)

    @property
    def size(self) -> int:
        n = 1
        for d in self._shape:
            n *= d
        return n

    @property
    def numiter(self) -> int:
        return len(self._arrays)

    @property
    def index(self) -> int:
        return self._index

    @property
    def iters(self) -> tuple:
        return tuple(flatiter(broadcast_to(a, self._shape)) for a in self._arrays)

    def reset(self) -> None:
        self._index = 0

    def __iter__(self):
        return self

    def __next__(self):
        if self._index >= self.size:
            raise StopIteration
        if self._host is None:
            hosts = [a.get() for a in self._arrays]  # one copy per operand, not per element
            self._host = [numpy.broadcast_to(h, self._shape).reshape(-1) for h in hosts]
        i = self._index
        self._index += 1
        return tuple(h[i] for h in self._host)
