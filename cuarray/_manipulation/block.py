"""block: an array assembled from nested lists of blocks. See `numpy.block` ("Array manipulation /
Joining arrays"). The innermost lists join along the last axis, the outer ones along earlier
axes; every block is first given the result's number of dimensions (leading 1s). One
`concatenate` per list, as NumPy's definition reads."""

from __future__ import annotations

from .._core.host_input import as_array, is_scalar, reject
from .._core.ndarray import ndarray
from .joining import concatenate

__all__ = ["block"]


def _depths(arrays, index=()):
    """(depth of the list nesting, largest block ndim); ValueError/TypeError as NumPy's."""
    if type(arrays) is tuple:
        raise TypeError("{} is a tuple. Only lists can be used to arrange blocks, and np.block does "
                        "not allow implicit conversion from tuple to ndarray.".format(
                            "arrays" + "".join("[{}]".format(i) for i in index)))
    if type(arrays) is not list:
        if isinstance(arrays, ndarray):
            return len(index), arrays.ndim
        if is_scalar(arrays):
            return len(index), 0
        raise reject(arrays, "block")
    if not arrays:
        raise ValueError("List at arrays{} cannot be empty".format("".join("[{}]".format(i) for i in index)))
    found = [_depths(a, index + (i,)) for i, a in enumerate(arrays)]
    depth = found[0][0]
    for i, (d, _) in enumerate(found):
        if d != depth:
            raise ValueError("List depths are mismatched. First element was at depth {}, but there is an "
                             "element at depth {} (arrays{})".format(depth, d, "".join(
                                 "[{}]".format(j) for j in index + (i,))))
    return depth, max(nd for _, nd in found)


def _assemble(arrays, depth: int, ndim: int, level: int = 0):
    if type(arrays) is list:
        parts = [_assemble(a, depth, ndim, level + 1) for a in arrays]
        return concatenate(parts, axis=-(depth - level))
    a = as_array(arrays, "block")
    return a.reshape((1,) * (ndim - a.ndim) + a.shape) if a.ndim < ndim else a


def block(arrays):
    """See `numpy.block`.

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.ones((2, 2), dtype=int)
    >>> cuarray.block([[a, 2 * a], [3 * a, 4 * a]])
    array([[1, 1, 2, 2],
           [1, 1, 2, 2],
           [3, 3, 4, 4],
           [3, 3, 4, 4]])
    """
    depth, nd = _depths(arrays)
    out = _assemble(arrays, depth, max(depth, nd))
    return out if depth else out.copy()
