"""Planning an advanced index on the host: pure Python, no device, tested against NumPy.

An index like ``x[1:, idx, None, mask]`` is executed in two steps:

1. a *view* (``x[1:, :, None, :, :]``): every basic item (ints, slices, None, Ellipsis) is applied
   as view arithmetic; each integer array becomes a full slice (a placeholder axis), a k-d boolean
   array k placeholders, a 0-d boolean a new axis of length 1;
2. one gather (or scatter) kernel over the result: each placeholder axis is read at the value of
   its index array, broadcast over the broadcast shape ``B`` of all the index arrays.

NumPy's layout rule: when the advanced items (arrays, booleans, and plain integers once any array is
present) are consecutive in the index tuple, ``B`` replaces them in place; otherwise (separated by a
slice, None or Ellipsis, even one that expands to no axis) ``B`` goes first.

A k-d boolean array stands for its k ``nonzero()`` arrays (NumPy's definition); a 0-d boolean for
an index array of shape ``(1,)`` (True) or ``(0,)`` (False) into its new length-1 axis. The caller
supplies those arrays (their length needs the device's data); `plan_index` needs only shapes.
"""

from __future__ import annotations

import operator

import numpy as np

from . import shapes as _shapes

__all__ = ["IndexPlan", "plan_index", "normalize_items", "ArraySpec", "BOOL0", "apply_plan_numpy"]

INDEX_ERROR = ("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) "
               "and integer or boolean arrays are valid indices")


class ArraySpec:
    """What the planner knows about an array index: its shape and whether it is boolean."""

    __slots__ = ("shape", "is_bool")

    def __init__(self, shape, is_bool):
        self.shape = tuple(shape)
        self.is_bool = bool(is_bool)

    def __repr__(self):
        return "ArraySpec({}, {})".format(self.shape, "bool" if self.is_bool else "int")


# Placeholder sources for the advanced axes (see IndexPlan.sources).
BOOL0 = "bool0"


class IndexPlan:
    """The plan of an advanced index on an array of shape `shape`.

    view_index: a basic index (tuple) giving the view V.
    adv_axes:   V's axes read through index arrays, in order, one per index array.
    sources:    per index array, ``(item, sub)``: the index item number and, for a k-d boolean
                item, which of its k nonzero() arrays (else 0); ``(item, BOOL0)`` for a 0-d boolean.
    array_shapes: per index array its shape, ``None`` for boolean-derived arrays (length unknown
                until the mask is counted).
    front:      whether the broadcast dims go first in the result.
    orig_axes:  per index array, the axis of the original array it indexes (for error messages;
                None for a 0-d boolean's new axis).
    """

    __slots__ = ("shape", "view_index", "adv_axes", "sources", "array_shapes", "front", "orig_axes",
                 "view_ndim", "first_pos")

    def __repr__(self):
        return "IndexPlan(view={}, adv_axes={}, front={})".format(self.view_index, self.adv_axes, self.front)

    def result_layout(self, view_shape, bshape):
        """(result shape, per result dim: ('B', j) or ('V', view_axis))."""
        adv = set(self.adv_axes)
        rest = [a for a in range(len(view_shape)) if a not in adv]
        bdims = [("B", j) for j in range(len(bshape))]
        if self.front:
            dims = bdims + [("V", a) for a in rest]
        else:
            first = self.first_pos
            before = [("V", a) for a in rest if a < first]
            after = [("V", a) for a in rest if a > first]
            dims = before + bdims + after
        shape = tuple(bshape[d[1]] if d[0] == "B" else view_shape[d[1]] for d in dims)
        return shape, dims


def _is_int_like(item):
    t = type(item)
    if t is int:
        return True
    if t is bool or isinstance(item, np.bool_):
        return False
    if isinstance(item, np.integer):
        return True
    if isinstance(item, (np.generic, float, complex, str, bytes)):
        return False
    if isinstance(item, (list, tuple, slice)) or item is None or item is Ellipsis:
        return False
    if hasattr(item, "shape") or hasattr(item, "__array__"):
        return False
    return hasattr(t, "__index__")


def normalize_items(index):
    """Split an index into a tuple of items: int, slice, None, Ellipsis, or ArraySpec-able arrays.

    Returns the items list; array-like items are left for the caller to convert (this function
    only decides the tuple structure, like NumPy: a tuple is several items, anything else one)."""
    items = list(index) if isinstance(index, tuple) else [index]
    for k, it in enumerate(items):
        # A 0-d integer array is an integer to NumPy (basic indexing, checked at once).
        if isinstance(it, np.ndarray) and it.ndim == 0 and it.dtype.kind in "iu":
            items[k] = int(it)
    return items


def plan_index(shape, items) -> IndexPlan:
    """Plan `items` (ints, slices, None, Ellipsis, ArraySpec) on an array of `shape`.

    Raises NumPy's IndexError for too many indices, mismatched boolean shapes and index arrays
    that do not broadcast (when their shapes are known)."""
    shape = tuple(shape)
    ndim = len(shape)
    consumed = 0
    n_ell = 0
    for it in items:
        if isinstance(it, ArraySpec):
            consumed += len(it.shape) if it.is_bool else 1
        elif it is None:
            pass
        elif it is Ellipsis:
            n_ell += 1
        else:
            consumed += 1
    if n_ell > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    if consumed > ndim:
        raise IndexError("too many indices for array: array is {}-dimensional, but {} were indexed".format(
            ndim, consumed))
    fancy = any(isinstance(it, ArraySpec) for it in items)
    view_index = []
    adv_axes, sources, array_shapes, orig_axes = [], [], [], []
    adv_positions = []  # item positions of advanced items (for the adjacency rule)
    vaxis = 0   # axis of V being produced
    oaxis = 0   # axis of the original array being consumed
    first_pos = None
    for pos, it in enumerate(items):
        if isinstance(it, ArraySpec):
            adv_positions.append(pos)
            if first_pos is None:
                first_pos = vaxis
            if it.is_bool and len(it.shape) == 0:
                view_index.append(None)
                adv_axes.append(vaxis)
                sources.append((pos, BOOL0))
                array_shapes.append(None)
                orig_axes.append(None)
                vaxis += 1
            elif it.is_bool:
                k = len(it.shape)
                for j in range(k):
                    n = shape[oaxis + j]
                    # NumPy accepts an empty mask axis against any axis (nothing is selected).
                    if it.shape[j] != n and it.shape[j] != 0:
                        raise IndexError(
                            "boolean index did not match indexed array along axis {}; size of axis is {} "
                            "but size of corresponding boolean axis is {}".format(oaxis + j, n, it.shape[j]))
                for j in range(k):
                    view_index.append(slice(None))
                    adv_axes.append(vaxis)
                    sources.append((pos, j))
                    array_shapes.append(None)
                    orig_axes.append(oaxis)
                    vaxis += 1
                    oaxis += 1
            else:
                view_index.append(slice(None))
                adv_axes.append(vaxis)
                sources.append((pos, 0))
                array_shapes.append(it.shape)
                orig_axes.append(oaxis)
                vaxis += 1
                oaxis += 1
        elif it is None:
            view_index.append(None)
            vaxis += 1
        elif it is Ellipsis:
            skip = ndim - consumed
            view_index.append(Ellipsis)
            vaxis += skip
            oaxis += skip
        elif type(it) is slice:
            view_index.append(it)
            vaxis += 1
            oaxis += 1
        else:
            if not _is_int_like(it):
                raise IndexError(INDEX_ERROR)
            v = operator.index(it)
            n = shape[oaxis]
            if not -n <= v < n:
                raise IndexError("index {} is out of bounds for axis {} with size {}".format(v, oaxis, n))
            view_index.append(v)
            if fancy:
                adv_positions.append(pos)
                if first_pos is None:
                    first_pos = vaxis  # B goes where this integer's axis was
            oaxis += 1
    plan = IndexPlan()
    plan.shape = shape
    plan.view_index = tuple(view_index)
    plan.adv_axes = tuple(adv_axes)
    plan.sources = tuple(sources)
    plan.array_shapes = tuple(array_shapes)
    plan.orig_axes = tuple(orig_axes)
    plan.view_ndim = vaxis + (ndim - oaxis)
    consecutive = all(b - a == 1 for a, b in zip(adv_positions, adv_positions[1:]))
    plan.front = not consecutive
    # B's position when in place: just before the first V axis after the advanced run.
    plan.first_pos = (first_pos if first_pos is not None else 0) - 0.5
    known = [s for s in array_shapes if s is not None]
    if known and all(s is not None for s in array_shapes):
        broadcast_index_shapes(known)
    return plan


def broadcast_index_shapes(shapes):
    """The broadcast shape of the index arrays, with NumPy's IndexError when they do not broadcast."""
    try:
        return _shapes.broadcast_shapes(*shapes) if shapes else ()
    except ValueError:
        raise IndexError("shape mismatch: indexing arrays could not be broadcast together with shapes "
                         + " ".join(_shapes._shape_str(s) for s in shapes) + " ") from None


def index_arrays_numpy(plan: IndexPlan, items):
    """The index arrays of `plan` as NumPy arrays (booleans through nonzero): the reference the
    device path follows, used by the CPU tests."""
    out = []
    nz_cache = {}
    for pos, sub in plan.sources:
        it = np.asarray(items[pos])
        if sub == BOOL0:
            out.append(np.zeros(1 if it else 0, dtype=np.intp))
        elif it.dtype == bool:
            if pos not in nz_cache:
                nz_cache[pos] = np.nonzero(it)
            out.append(nz_cache[pos][sub])
        else:
            out.append(it.astype(np.intp))
    return out


def apply_plan_numpy(x: np.ndarray, plan: IndexPlan, arrays):
    """Execute `plan` on a NumPy array with the same arithmetic as the gather kernel: the view,
    then for each result element the view coordinates (index arrays for placeholder axes)."""
    v = x[plan.view_index]
    bshape = broadcast_index_shapes([a.shape for a in arrays])
    rshape, dims = plan.result_layout(v.shape, bshape)
    coords = np.indices(rshape, sparse=False) if rshape else np.zeros((0,), dtype=np.intp)
    bcoords = [None] * len(bshape)
    vcoords = [None] * v.ndim
    for d, (kind, j) in enumerate(dims):
        if kind == "B":
            bcoords[j] = coords[d]
        else:
            vcoords[j] = coords[d]
    for a, axis in zip(arrays, plan.adv_axes):
        n = v.shape[axis]
        # Checked even when the result is empty (but not when B is), like NumPy.
        if np.prod(bshape, dtype=np.int64) and np.any((a < -n) | (a >= n)):
            bad = a[(a < -n) | (a >= n)].flat[0]
            raise IndexError("index {} is out of bounds for axis {} with size {}".format(bad, axis, n))
        ab = np.broadcast_to(a, bshape)
        if bshape:
            vals = ab[tuple(bcoords)]
        else:
            vals = np.broadcast_to(ab, rshape)
        vals = np.where(vals < 0, vals + n, vals)
        vcoords[axis] = vals
    if not rshape:
        return v[tuple(int(c) for c in vcoords)] if v.ndim else v[()]
    return v[tuple(vcoords)]
