"""scipy.ndimage's `distance_transform_cdt` and `distance_transform_bf` on the GPU, composed of
array operations (no kernel of their own).

`distance_transform_cdt` gives SciPy's result exactly, indices included. SciPy runs two raster
passes: the first takes each element's distance from the structure's first half (the neighbours
before it in C order, each one step), the second the same over the mirrored half. Each pass is the
unique solution of d(p) = min(d(p), d(p + s) + 1) over its offsets s (the dependencies run one way
along the raster, so there is no cycle), so here it is the fixpoint of that relaxation, each
single-axis offset applied as a cumulative minimum along its axis and the others by doubling
(shifts by s, 2s, 4s, ...), each a whole chain of the offset a step, repeated until nothing changes
(a round or two more than the turns of the longest shortest path). The nearest feature is
SciPy's too: each element's winning neighbour is the first offset (in the structure's order) that
improves it by SciPy's rule, evaluated on the converged distances, and following those links to
their ends (pointer doubling, log2 of the longest chain of gathers) gives the element SciPy's pass
copied its feature from.

`distance_transform_bf`: its distances are the exact metric distances to the nearest background
element (SciPy's border elements are the nearest background ones), so the euclidean metric takes
`distance_transform_edt`'s passes and the taxicab and chessboard metrics the relaxation above with
the full cross or box. Where several background elements are nearest, `indices` may name another
one than SciPy's (at the same distance)."""

from __future__ import annotations

import numpy

from ..._core.ndarray import ndarray
from ..._creation.ranges import arange as _arange
from ..._indexing.inserting import take as _take
from ..._math.extrema import minimum as _minimum
from ..._sorting.searching import where as _where
from . import _edt
from . import _support as _s
from ._morphology import binary_structure

__all__ = ["distance_transform_cdt", "distance_transform_bf", "half_offsets", "cdt_core"]

_INF = 1 << 40  # an unreached element (SciPy's -1) while the passes run in int64
_I4 = numpy.dtype(numpy.int32)
_I8 = numpy.dtype(numpy.int64)


def _empty(shape, dtype):
    return ndarray(shape, dtype)


def _arg_check(dt_inplace: bool, ft_inplace: bool, return_distances: bool, return_indices: bool):
    msgs = []
    if not return_distances and not return_indices:
        msgs.append("at least one of return_distances/return_indices must be True")
    if dt_inplace and not return_distances:
        msgs.append("return_distances must be True if distances is supplied")
    if ft_inplace and not return_indices:
        msgs.append("return_indices must be True if indices is supplied")
    if msgs:
        raise RuntimeError(", ".join(msgs))


def half_offsets(structure: numpy.ndarray) -> list:
    """The offsets (tuples of -1/0/1) of the structure's set elements before its centre in C order:
    what SciPy's raster pass reads (the second half of the structure is never read). As SciPy,
    element i is set when byte i of the structure's C-ordered data is nonzero: the same as
    `structure != 0` for one-byte types; for wider ones (a list of ints becomes int64) SciPy reads
    the first elements' bytes, and so does this."""
    st = numpy.ascontiguousarray(structure)
    flat = numpy.frombuffer(st.tobytes(), numpy.uint8)[:st.size // 2] != 0
    out = []
    for i in range(flat.size):
        if flat[i]:
            out.append(tuple(int(c) - 1 for c in numpy.unravel_index(i, st.shape)))
    return out


def _slices(s, shape):
    """(destination, source) index tuples: element p of the destination reads p + s of the source."""
    dst, src = [], []
    for o, n in zip(s, shape):
        if o < 0:
            dst.append(slice(-o, n))
            src.append(slice(0, n + o))
        elif o > 0:
            dst.append(slice(0, n - o))
            src.append(slice(o, n))
        else:
            dst.append(slice(None))
            src.append(slice(None))
    return tuple(dst), tuple(src)


def _chain(d, axis: int, step: int):
    """d relaxed along one axis by the whole chain of offsets `step` (-1: from the lower neighbour):
    d(i) = min_k<=i (d(k) + i - k), the cumulative minimum of d(i) - i plus i."""
    n = d.shape[axis]
    shape = [1] * d.ndim
    shape[axis] = n
    view = d if step < 0 else d[tuple(slice(None, None, -1) if k == axis else slice(None) for k in range(d.ndim))]
    ramp = _arange(n, dtype=_I8).reshape(tuple(shape))
    relaxed = _minimum(_minimum.accumulate(view - ramp, axis=axis) + ramp, _INF)
    return relaxed if step < 0 else relaxed[tuple(slice(None, None, -1) if k == axis else slice(None)
                                                  for k in range(d.ndim))]


def _step(d, s):
    """d (owned by the caller: changed in place, or a new array returned) relaxed along whole
    chains of offset s: a cumulative minimum for a single-axis offset,
    else doubling (after the shifts by s, 2s, 4s, ... each d(p) is min over k < 2^j of
    d(p + k s) + k; a chain is inside the array when its ends are)."""
    axes = [k for k, o in enumerate(s) if o != 0]
    if len(axes) == 1:
        return _chain(d, axes[0], s[axes[0]])
    longest = min(d.shape[k] for k in axes) - 1
    k = 1
    while k <= longest:
        dst, src = _slices(tuple(k * o for o in s), d.shape)
        d[dst] = _minimum(d[dst], d[src] + k)  # the right side whole before it is stored: no overlap
        k *= 2
    return d


def _relax(d, offsets):
    """The fixpoint of d(p) = min(d(p), d(p + s) + 1) over `offsets` (d itself is not changed);
    checked for a change after 1, 2, 4, ... 32 rounds (one synchronisation each)."""
    if not offsets or d.size == 0:
        return d
    d = d.copy()
    rounds = 1
    while True:
        before = d.copy()
        for _ in range(rounds):
            for s in offsets:
                d = _step(d, s)
        if bool((d == before).all()):
            return d
        rounds = min(2 * rounds, 32)


def _links(d, init, offsets, flat):
    """Per element, the flat index of the neighbour SciPy's pass copies its feature from (itself
    where none improves it): the first offset whose d + 1 is below the best so far, starting from
    the element's value before the pass (background 0: never replaced)."""
    best = init.copy()
    link = flat.copy()
    for s in offsets:
        dst, src = _slices(s, d.shape)
        cand = d[src] + 1
        better = cand < best[dst]
        best[dst] = _where(better, cand, best[dst])
        link[dst] = _where(better, flat[src], link[dst])
    return link.reshape((-1,))


def _ends(link):
    """Each chain of links followed to its end (pointer doubling)."""
    while True:
        nxt = _take(link, link)
        if bool((nxt == link).all()):
            return link
        link = nxt


def cdt_core(fg, offsets: list, want_indices: bool):
    """(distances int64 with _INF unreached, flat feature indices or None) of the boolean array
    `fg` (True: foreground) by SciPy's two passes over `offsets` and their mirror."""
    d = _where(fg, _INF, 0).astype(_I8)
    mirror = [tuple(-o for o in s) for s in offsets]
    flat = _arange(d.size, dtype=_I8).reshape(d.shape) if want_indices else None
    init = d
    d = _relax(d, offsets)
    ft = _ends(_links(d, init, offsets, flat)) if want_indices and d.size else None
    init = d
    d = _relax(d, mirror)
    if ft is not None:
        ft = _take(ft, _ends(_links(d, init, mirror, flat)))
    elif want_indices:
        ft = flat.reshape((-1,))
    return d, ft


def _coordinates(ft, shape):
    """Flat indices -> (ndim, *shape) int32 coordinates (np.indices of SciPy's, gathered)."""
    coords, rem = [], ft
    for n in shape[::-1]:
        coords.append((rem % n).astype(_I4).reshape(shape))
        rem = rem // n
    out = _empty((len(shape),) + tuple(shape), _I4)
    for k, c in enumerate(coords[::-1]):
        out[k] = c
    return out


def _structure(metric, ndim: int) -> numpy.ndarray:
    if isinstance(metric, str):
        if metric in ("taxicab", "cityblock", "manhattan"):
            return binary_structure(ndim, 1)
        if metric == "chessboard":
            return binary_structure(ndim, ndim)
        raise ValueError("invalid metric provided")
    try:
        st = _s.host_param(metric)
    except Exception as e:
        raise ValueError("invalid metric provided") from e
    for n in st.shape:
        if n != 3:
            raise ValueError("metric sizes must be equal to 3")
    if st.ndim != ndim:
        # SciPy reads past the structure (or only part of it) here; refuse instead
        raise RuntimeError("metric and input must have equal rank ({} and {})".format(st.ndim, ndim))
    return st


def _result(return_distances, dt_inplace, dt, return_indices, ft_inplace, ft):
    result = []
    if return_distances and not dt_inplace:
        result.append(dt)
    if return_indices and not ft_inplace:
        result.append(ft)
    if len(result) == 2:
        return tuple(result)
    return result[0] if result else None


def _check_indices(indices, shape, err):
    if indices.dtype != _I4:
        raise err("indices array must be int32")
    if indices.shape != (len(shape),) + tuple(shape):
        raise err("indices array has wrong shape")


def distance_transform_cdt(input, metric="chessboard", return_distances=True, return_indices=False,
                           distances=None, indices=None):
    """See `scipy.ndimage.distance_transform_cdt`. A structure of another rank than the input is a
    RuntimeError (SciPy reads outside it); a 0-d input is a TypeError, as SciPy's. As SciPy, a
    `metric` array's data is read byte by byte as booleans (for a list of ints, or any type wider
    than one byte, not its values).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> ndimage.distance_transform_cdt(cuarray.array([[0, 1, 1, 1], [1, 1, 1, 1]]), metric="taxicab")
    array([[0, 1, 2, 3],
           [1, 2, 3, 4]], dtype=int32)
    """
    ft_inplace, dt_inplace = _s.is_array(indices), _s.is_array(distances)
    _arg_check(dt_inplace, ft_inplace, return_distances, return_indices)
    x = _s.as_array(input, "distance_transform_cdt")
    structure = _structure(metric, x.ndim)
    if dt_inplace:
        if distances.dtype != _I4:
            raise ValueError("distances must be of int32 type")
        if distances.shape != x.shape:
            raise ValueError("distances has wrong shape")
    if x.ndim == 0:
        raise TypeError("distance_transform_cdt needs an input of one dimension or more")
    d, ft = cdt_core(x != 0, half_offsets(structure), return_indices)
    dt = _where(d >= _INF, -1, d).astype(_I4)
    if dt_inplace:
        _s.finish(dt, distances)
    if return_indices:
        ft = _coordinates(ft, x.shape)
        if ft_inplace:
            _check_indices(indices, x.shape, ValueError)
            ft = _s.finish(ft, indices)
    return _result(return_distances, dt_inplace, dt, return_indices, ft_inplace, ft)


_BF_METRICS = {"euclidean": 1, "taxicab": 2, "cityblock": 2, "manhattan": 2, "chessboard": 3}


def _bf(x, code: int, sampling, want_indices: bool):
    """(distances, flat-or-coordinate features) of a 1-d-or-more input by metric `code`, SciPy's
    values without background (sqrt(DBL_MAX) or UINT32_MAX, feature 0)."""
    if x.size and not bool((x == 0).any()):
        fill = numpy.sqrt(numpy.finfo(numpy.float64).max) if code == 1 else numpy.iinfo(numpy.uint32).max
        dt = _empty(x.shape, numpy.dtype(numpy.float64 if code == 1 else numpy.uint32))
        dt.fill(fill)
        ft = None
        if want_indices:
            ft = _empty((x.ndim,) + x.shape, _I4)
            ft.fill(0)
        return dt, ft
    if code == 1:
        dt, idx = _edt._distances(x != 0, sampling, want_indices)
        return dt, (idx.astype(_I4) if want_indices else None)
    # the cross or the box: SciPy's two passes give the exact taxicab / chessboard distances
    structure = binary_structure(x.ndim, 1 if code == 2 else x.ndim)
    d, flat = cdt_core(x != 0, half_offsets(structure), want_indices)
    ft = _coordinates(flat, x.shape) if want_indices else None
    return d.astype(numpy.uint32), ft


def distance_transform_bf(input, metric="euclidean", sampling=None, return_distances=True, return_indices=False,
                          distances=None, indices=None):
    """See `scipy.ndimage.distance_transform_bf`. The distances are SciPy's; where several
    background elements are nearest, `indices` may name another one (at the same distance).

    Examples
    --------
    >>> import cuarray
    >>> from cuarray.scipy import ndimage
    >>> ndimage.distance_transform_bf(cuarray.array([[0, 1, 1, 1]]), metric="chessboard")
    array([[0, 1, 2, 3]], dtype=uint32)
    """
    ft_inplace, dt_inplace = _s.is_array(indices), _s.is_array(distances)
    _arg_check(dt_inplace, ft_inplace, return_distances, return_indices)
    x = _s.as_array(input, "distance_transform_bf")
    code = _BF_METRICS.get(metric.lower())
    if code is None:
        raise RuntimeError("distance metric not supported")
    if sampling is not None:
        sampling = [float(v) for v in _s.normalize_sequence(sampling, x.ndim)]
    if dt_inplace:
        if distances.shape != x.shape:
            raise RuntimeError("distances array has wrong shape")
        want = numpy.float64 if code == 1 else numpy.uint32
        if distances.dtype != want:
            raise RuntimeError("distances array must be {}".format(numpy.dtype(want).name))
    x1 = x.reshape((1,)) if x.ndim == 0 else x
    dt, ft = _bf(x1, code, [1.0] * x1.ndim if sampling is None or x.ndim == 0 else sampling, return_indices)
    dt = dt.reshape(x.shape)
    if return_indices and x.ndim == 0:
        ft = _empty((0,), _I4)  # np.indices(()) as SciPy gathers it
    if return_distances and dt_inplace:
        _s.finish(dt, distances)
    if return_indices and ft_inplace:
        _check_indices(indices, x.shape, RuntimeError)
        ft = _s.finish(ft, indices)
    return _result(return_distances, dt_inplace, dt, return_indices, ft_inplace, ft)
