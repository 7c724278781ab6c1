"""scipy.ndimage's morphology on the GPU. Binary erosion is a minimum filter of the boolean image
over the structure's true elements with the border value outside (templates/filters.cu's
`filternd`); dilation is the erosion of the complement by the reflected structure, complemented,
as SciPy defines it. Grey morphology is the minimum/maximum filter with SciPy's structure offsets.

Structures are small host parameters: every function here takes them as NumPy or cuarray arrays
(or Python sequences); `generate_binary_structure` and `iterate_structure` return cuarray arrays, as
cupyx does. Iterating to convergence (`iterations < 1`, `binary_propagation`, `binary_fill_holes`) checks for
a change after each pass, one host synchronisation per pass.
"""

from __future__ import annotations

import operator
import warnings

import numpy

from ..._core.transfer import from_host as _from_host
from . import _filter_kernels as _k
from . import _filters
from . import _support as _s

__all__ = ["generate_binary_structure", "iterate_structure", "binary_erosion", "binary_dilation",
           "binary_opening", "binary_closing", "binary_hit_or_miss", "binary_propagation", "binary_fill_holes",
           "grey_erosion", "grey_dilation", "grey_opening", "grey_closing", "morphological_gradient",
           "morphological_laplace", "white_tophat", "black_tophat"]

_BOOL = numpy.dtype(bool)
_CONSTANT = 4  # boundary.cuh's CONSTANT: the border value outside


def binary_structure(rank, connectivity) -> numpy.ndarray:
    """`generate_binary_structure` on the host (the default structures of every function here)."""
    if connectivity < 1:
        connectivity = 1
    if rank < 1:
        return numpy.array(True, dtype=bool)
    output = numpy.fabs(numpy.indices([3] * rank) - 1)
    output = numpy.add.reduce(output, 0)
    return output <= connectivity


def generate_binary_structure(rank, connectivity):
    """See `scipy.ndimage.generate_binary_structure`. Returns a cuarray array (built on the host,
    copied: it is at most 3**rank booleans).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> ndimage.generate_binary_structure(2, 1)
    array([[False,  True, False],
           [ True,  True,  True],
           [False,  True, False]])
    """
    return _from_host(binary_structure(rank, connectivity))


def _dilate_host(x: numpy.ndarray, structure: numpy.ndarray, iterations: int) -> numpy.ndarray:
    """Binary dilation of a small host array (iterate_structure's), border 0, centred structure."""
    s = structure[(slice(None, None, -1),) * structure.ndim] != 0
    pad = [(d // 2, d - 1 - d // 2) for d in s.shape]
    for _ in range(iterations):
        p = numpy.pad(x, pad)
        out = numpy.zeros_like(x)
        for idx in zip(*numpy.nonzero(s)):
            out |= p[tuple(slice(i, i + n) for i, n in zip(idx, x.shape))]
        x = out
    return x


def iterate_structure(structure, iterations, origin=None):
    """See `scipy.ndimage.iterate_structure`. Returns a cuarray array (the structure, a cuarray,
NumPy or Python array, is dilated on the host: it is small).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> s = ndimage.generate_binary_structure(2, 1)
    >>> ndimage.iterate_structure(s, 2).astype(int)
    array([[0, 0, 1, 0, 0],
           [0, 1, 1, 1, 0],
           [1, 1, 1, 1, 1],
           [0, 1, 1, 1, 0],
           [0, 0, 1, 0, 0]])
    """
    structure = _s.host_param(structure)
    if iterations < 2:
        return _from_host(structure.copy())
    ni = iterations - 1
    shape = [ii + ni * (ii - 1) for ii in structure.shape]
    pos = [ni * (structure.shape[ii] // 2) for ii in range(len(shape))]
    slc = tuple(slice(pos[ii], pos[ii] + structure.shape[ii], None) for ii in range(len(shape)))
    out = numpy.zeros(shape, bool)
    out[slc] = structure != 0
    out = _from_host(_dilate_host(out, structure, ni))
    if origin is None:
        return out
    origin = _s.normalize_sequence(origin, structure.ndim)
    return out, [iterations * o for o in origin]


def _erode_pass(b, fp, origins, border, invert, mask):
    """One erosion of the boolean array b (dilation when `invert`), masked positions kept."""
    src = ~b if invert else b
    if fp.any():
        r = _k.filternd(src, _BOOL, "min", fp, None, origins, _CONSTANT, (not border) if invert else bool(border))
    else:  # no true element: every test passes (SciPy's loop over no offsets), all true
        r = src | True
    if invert:
        r = ~r
    if mask is not None:
        r = (r & mask) | (b & ~mask)
    return r


def _structure_or_shape(structure, n):
    """cupyx's shorthand, where SciPy refuses the value as a structure of rank n: an int k is the
    all-true structure of shape (k,) * n, a tuple of n ints the all-true structure of that shape."""
    if isinstance(structure, (int, numpy.integer)) and not isinstance(structure, (bool, numpy.bool_)) and n != 0:
        return numpy.ones((operator.index(structure),) * n, bool)
    if (isinstance(structure, tuple) and n != 1 and structure
            and all(isinstance(v, (int, numpy.integer)) and not isinstance(v, bool) for v in structure)):
        return numpy.ones(structure, bool)
    return structure


def _binary_erosion(input, structure, iterations, mask, output, border_value, origin, invert, axes, what):
    try:
        iterations = operator.index(iterations)
    except TypeError as e:
        raise TypeError("iterations parameter should be an integer") from e
    x = _s.as_input(input, what)
    if x.dtype.kind == "c":
        raise TypeError("Complex type not supported")
    axes = _s.check_axes(axes, x.ndim)
    n = len(axes)
    structure = binary_structure(n, 1) if structure is None else _s.host_param(_structure_or_shape(structure, n), bool)
    if x.ndim > n:
        structure = _s.expand_footprint(x.ndim, axes, structure, "structure")
    if structure.ndim != x.ndim:
        raise RuntimeError("structure and input must have same dimensionality")
    if structure.size < 1:
        raise RuntimeError("structure must not be empty")
    if mask is not None:
        mask = _s.as_array(mask, what)
        if mask.shape != x.shape:
            raise RuntimeError("mask and input must have equal sizes")
        mask = mask.astype(bool, copy=False)
    origins = _s.expand_origin(x.ndim, axes, _s.normalize_sequence(origin, n))
    if _s.is_array(output):
        if output.dtype.kind == "c":
            raise TypeError("Complex output type not supported")
        dt = _s.output_dtype(output, x)
    else:
        dt = _BOOL
    b = x if x.dtype == _BOOL else x != 0
    cur = _erode_pass(b, structure, origins, border_value, invert, mask)
    done = 1
    while done < iterations or iterations < 1:
        nxt = _erode_pass(cur, structure, origins, border_value, invert, mask)
        done += 1
        if iterations < 1 and not bool((nxt != cur).any()):
            cur = nxt
            break
        cur = nxt
    return _s.finish(cur if dt == _BOOL else _s.like(cur, dt), output)


def binary_erosion(input, structure=None, iterations=1, mask=None, output=None, border_value=0, origin=0,
                   brute_force=False, *, axes=None):
    """See `scipy.ndimage.binary_erosion`. `brute_force` is accepted and ignored (every pass
    visits every element). As in cupyx, `structure` may be an int or a tuple of ints where SciPy
    would refuse it: the all-true structure of that shape (an int: that size along every axis).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> ndimage.binary_erosion(cuarray.array([0, 1, 1, 1, 0]))
    array([False, False,  True, False, False])
    """
    return _binary_erosion(input, structure, iterations, mask, output, border_value, origin, False, axes,
                           "binary_erosion")


def _reflected(structure, origin, n):
    structure = _s.host_param(structure)
    structure = structure[(slice(None, None, -1),) * structure.ndim]
    origin = _s.normalize_sequence(origin, n)
    for ii in range(len(origin)):
        origin[ii] = -origin[ii]
        if not structure.shape[ii] & 1:
            origin[ii] -= 1
    return structure, origin


def binary_dilation(input, structure=None, iterations=1, mask=None, output=None, border_value=0, origin=0,
                    brute_force=False, *, axes=None):
    """See `scipy.ndimage.binary_dilation`. `structure` may be an int or a tuple of ints, as in
    `binary_erosion` (cupyx's shorthand).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> ndimage.binary_dilation(cuarray.array([0, 0, 1, 0, 0]))
    array([False,  True,  True,  True, False])
    """
    x = _s.as_input(input, "binary_dilation")
    axes = _s.check_axes(axes, x.ndim)
    n = len(axes)
    structure = binary_structure(n, 1) if structure is None else _structure_or_shape(structure, n)
    structure, origin = _reflected(structure, origin, n)
    return _binary_erosion(x, structure, iterations, mask, output, border_value, origin, True, axes,
                           "binary_dilation")


def binary_opening(input, structure=None, iterations=1, output=None, origin=0, mask=None, border_value=0,
                   brute_force=False, *, axes=None):
    """See `scipy.ndimage.binary_opening`. `structure` may be an int or a tuple of ints, as in
    `binary_erosion` (cupyx's shorthand).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> ndimage.binary_opening(cuarray.array([1, 1, 1, 0, 1, 0, 0]))
    array([ True,  True,  True, False, False, False, False])
    """
    return _binary_pair(input, binary_erosion, binary_dilation, structure, iterations, output, origin, mask,
                        border_value, axes, "binary_opening")


def binary_closing(input, structure=None, iterations=1, output=None, origin=0, mask=None, border_value=0,
                   brute_force=False, *, axes=None):
    """See `scipy.ndimage.binary_closing`. `structure` may be an int or a tuple of ints, as in
    `binary_erosion` (cupyx's shorthand).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> ndimage.binary_closing(cuarray.array([0, 1, 1, 0, 1, 1, 0]))
    array([False,  True,  True,  True,  True,  True, False])
    """
    return _binary_pair(input, binary_dilation, binary_erosion, structure, iterations, output, origin, mask,
                        border_value, axes, "binary_closing")


def _binary_pair(input, first, second, structure, iterations, output, origin, mask, border_value, axes, what):
    """second(first(x)) with one structure (SciPy's default: connectivity 1 over `axes`), the
    second pass into `output`: binary opening (erosion, dilation) or closing (dilation, erosion)."""
    x = _s.as_input(input, what)
    axes = _s.check_axes(axes, x.ndim)
    if structure is None:
        structure = binary_structure(len(axes), 1)
    tmp = first(x, structure, iterations, mask, None, border_value, origin, axes=axes)
    return second(tmp, structure, iterations, mask, output, border_value, origin, axes=axes)


def binary_hit_or_miss(input, structure1=None, structure2=None, output=None, origin1=0, origin2=None, *, axes=None):
    """See `scipy.ndimage.binary_hit_or_miss`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> a = cuarray.array([0, 1, 0, 1, 1])
    >>> ndimage.binary_hit_or_miss(a, cuarray.array([0, 1, 0]), cuarray.array([1, 0, 1]))
    array([False,  True, False, False, False])
    """
    x = _s.as_input(input, "binary_hit_or_miss")
    axes = _s.check_axes(axes, x.ndim)
    n = len(axes)
    structure1 = binary_structure(n, 1) if structure1 is None else _s.host_param(structure1)
    if structure2 is None:
        structure2 = numpy.logical_not(structure1)
    origin1 = _s.normalize_sequence(origin1, n)
    origin2 = origin1 if origin2 is None else _s.normalize_sequence(origin2, n)
    for st in (structure1, _s.host_param(structure2)):  # both checked before the first erosion runs
        full = _s.expand_footprint(x.ndim, axes, st != 0, "structure") if x.ndim > n else st
        if full.ndim != x.ndim:
            raise RuntimeError("structure and input must have same dimensionality")
    tmp1 = _binary_erosion(x, structure1, 1, None, None, 0, origin1, False, axes, "binary_hit_or_miss")
    tmp2 = _binary_erosion(x, structure2, 1, None, None, 0, origin2, True, axes, "binary_hit_or_miss")
    res = tmp1 & ~tmp2
    if _s.is_array(output):
        return _s.finish(_s.like(res, output.dtype), output)
    return res


def binary_propagation(input, structure=None, mask=None, output=None, border_value=0, origin=0, *, axes=None):
    """See `scipy.ndimage.binary_propagation`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> mask = cuarray.array([1, 1, 1, 0, 1])
    >>> ndimage.binary_propagation(cuarray.array([0, 1, 0, 0, 0]), mask=mask)
    array([ True,  True,  True, False, False])
    """
    return binary_dilation(input, structure, -1, mask, output, border_value, origin, axes=axes)


def binary_fill_holes(input, structure=None, output=None, origin=0, *, axes=None):
    """See `scipy.ndimage.binary_fill_holes`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> ndimage.binary_fill_holes(cuarray.array([[1, 1, 1], [1, 0, 1], [1, 1, 1]]))
    array([[ True,  True,  True],
           [ True,  True,  True],
           [ True,  True,  True]])
    """
    x = _s.as_input(input, "binary_fill_holes")
    mask = ~(x if x.dtype == _BOOL else x != 0)
    tmp = mask & ~mask  # all False, on the device
    res = ~binary_dilation(tmp, structure, -1, mask, None, 1, origin, axes=axes)
    if _s.is_array(output):
        return _s.finish(_s.like(res, output.dtype), output)
    return res


def grey_erosion(input, size=None, footprint=None, structure=None, output=None, mode="reflect", cval=0.0, origin=0,
                 *, axes=None):
    """See `scipy.ndimage.grey_erosion`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> ndimage.grey_erosion(cuarray.array([1, 5, 2, 0, 3]), size=3)
    array([1, 1, 0, 0, 0])
    """
    if size is None and footprint is None and structure is None:
        raise ValueError("size, footprint, or structure must be specified")
    return _filters._min_or_max_filter(input, size, footprint, structure, output, mode, cval, origin, True, axes,
                                       "grey_erosion")


def grey_dilation(input, size=None, footprint=None, structure=None, output=None, mode="reflect", cval=0.0, origin=0,
                  *, axes=None):
    """See `scipy.ndimage.grey_dilation`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> ndimage.grey_dilation(cuarray.array([1, 5, 2, 0, 3]), size=3)
    array([5, 5, 5, 3, 3])
    """
    if size is None and footprint is None and structure is None:
        raise ValueError("size, footprint, or structure must be specified")
    if structure is not None:
        structure = _s.host_param(structure)
        structure = structure[(slice(None, None, -1),) * structure.ndim]
    if footprint is not None:
        footprint = _s.host_param(footprint)
        footprint = footprint[(slice(None, None, -1),) * footprint.ndim]
    x = _s.as_input(input, "grey_dilation")
    axes = _s.check_axes(axes, x.ndim)
    origin = _s.normalize_sequence(origin, len(axes))
    for ii in range(len(origin)):
        origin[ii] = -origin[ii]
        if footprint is not None:
            sz = footprint.shape[ii]
        elif structure is not None:
            sz = structure.shape[ii]
        elif numpy.isscalar(size):
            sz = size
        else:
            sz = size[ii]
        if not sz & 1:
            origin[ii] -= 1
    return _filters._min_or_max_filter(x, size, footprint, structure, output, mode, cval, origin, False, axes,
                                       "grey_dilation")


def _warn_size(size, footprint):
    if size is not None and footprint is not None:
        warnings.warn("ignoring size because footprint is set", UserWarning, stacklevel=3)


def grey_opening(input, size=None, footprint=None, structure=None, output=None, mode="reflect", cval=0.0, origin=0,
                 *, axes=None):
    """See `scipy.ndimage.grey_opening`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> ndimage.grey_opening(cuarray.array([1, 5, 2, 0, 3]), size=3)
    array([1, 1, 1, 0, 0])
    """
    _warn_size(size, footprint)
    tmp = grey_erosion(input, size, footprint, structure, None, mode, cval, origin, axes=axes)
    return grey_dilation(tmp, size, footprint, structure, output, mode, cval, origin, axes=axes)


def grey_closing(input, size=None, footprint=None, structure=None, output=None, mode="reflect", cval=0.0, origin=0,
                 *, axes=None):
    """See `scipy.ndimage.grey_closing`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> ndimage.grey_closing(cuarray.array([1, 5, 2, 0, 3]), size=3)
    array([5, 5, 3, 3, 3])
    """
    _warn_size(size, footprint)
    tmp = grey_dilation(input, size, footprint, structure, None, mode, cval, origin, axes=axes)
    return grey_erosion(tmp, size, footprint, structure, output, mode, cval, origin, axes=axes)


def morphological_gradient(input, size=None, footprint=None, structure=None, output=None, mode="reflect", cval=0.0,
                           origin=0, *, axes=None):
    """See `scipy.ndimage.morphological_gradient`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> ndimage.morphological_gradient(cuarray.array([1, 5, 2, 0, 3]), size=3)
    array([4, 4, 5, 3, 3])
    """
    tmp = grey_dilation(input, size, footprint, structure, None, mode, cval, origin, axes=axes)
    ero = grey_erosion(input, size, footprint, structure, None, mode, cval, origin, axes=axes)
    res = tmp - ero
    if _s.is_array(output):
        return _s.finish(_s.like(res, output.dtype), output)
    return res


def morphological_laplace(input, size=None, footprint=None, structure=None, output=None, mode="reflect", cval=0.0,
                          origin=0, *, axes=None):
    """See `scipy.ndimage.morphological_laplace`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> ndimage.morphological_laplace(cuarray.array([1, 5, 2, 0, 3]), size=3)
    array([ 4, -4,  1,  3, -3])
    """
    x = _s.as_input(input, "morphological_laplace")
    tmp1 = grey_dilation(x, size, footprint, structure, None, mode, cval, origin, axes=axes)
    dt = output.dtype if _s.is_array(output) else x.dtype
    tmp2 = grey_erosion(x, size, footprint, structure, dt, mode, cval, origin, axes=axes)
    # SciPy: np.add(tmp1, tmp2, tmp2) then subtract the input twice, each in tmp2's dtype
    res = _s.like(tmp1 + tmp2, dt)
    res = _s.like(res - x, dt)
    res = _s.like(res - x, dt)
    return _s.finish(res, output)


def white_tophat(input, size=None, footprint=None, structure=None, output=None, mode="reflect", cval=0.0, origin=0,
                 *, axes=None):
    """See `scipy.ndimage.white_tophat`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> ndimage.white_tophat(cuarray.array([1, 5, 2, 0, 3]), size=3)
    array([0, 4, 1, 0, 3])
    """
    x = _s.as_input(input, "white_tophat")
    tmp = _opening_like(x, grey_erosion, grey_dilation, size, footprint, structure, output, mode, cval, origin, axes)
    res = x ^ tmp if (x.dtype == _BOOL and tmp.dtype == _BOOL) else _s.like(x - tmp, tmp.dtype)
    return _s.finish(res, output)


def black_tophat(input, size=None, footprint=None, structure=None, output=None, mode="reflect", cval=0.0, origin=0,
                 *, axes=None):
    """See `scipy.ndimage.black_tophat`.

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> ndimage.black_tophat(cuarray.array([1, 5, 2, 0, 3]), size=3)
    array([4, 0, 1, 3, 0])
    """
    x = _s.as_input(input, "black_tophat")
    tmp = _opening_like(x, grey_dilation, grey_erosion, size, footprint, structure, output, mode, cval, origin, axes)
    res = tmp ^ x if (x.dtype == _BOOL and tmp.dtype == _BOOL) else _s.like(tmp - x, tmp.dtype)
    return _s.finish(res, output)


def _opening_like(x, first, second, size, footprint, structure, output, mode, cval, origin, axes):
    """second(first(x)): the grey opening (erosion, dilation) or closing (dilation, erosion) of the
    top-hats, the second pass into the output's dtype as SciPy writes it."""
    _warn_size(size, footprint)
    tmp = first(x, size, footprint, structure, None, mode, cval, origin, axes=axes)
    return second(tmp, size, footprint, structure, None if output is None else _dtype_of(output), mode, cval, origin,
                  axes=axes)


def _dtype_of(output):
    return output.dtype if _s.is_array(output) else output
