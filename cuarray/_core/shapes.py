"""Shape and stride arithmetic: broadcasting, axes, contiguity, reshape, basic indexing,
dimension collapsing.  Pure Python, no device.

Shapes and strides are tuples of ints; strides are in bytes, as in NumPy.  Functions on
the hot path are memoised on their (hashable) arguments.
"""

import math
import operator

import numpy as np
from numpy.exceptions import AxisError

__all__ = [
    "AdvancedIndexRequired", "broadcast_shapes", "broadcast_to_strides",
    "normalize_axis_index", "normalize_axis_tuple", "normalize_order", "c_strides", "f_strides",
    "is_c_contiguous", "is_f_contiguous", "reshape_size", "reshape_strides",
    "basic_index", "collapse_dims", "k_order_strides", "check_gpu_aligned", "check_ndim",
]

MAXDIMS = 64
_INTP_MAX = 2**63 - 1
_CACHE_LIMIT = 4096


def check_ndim(nd: int) -> None:
    """NumPy's ValueError for an array of more than MAXDIMS dimensions."""
    if nd > MAXDIMS:
        raise ValueError("maximum supported dimension for an ndarray is currently {}, found {}".format(MAXDIMS, nd))


# NumPy's `broadcast`, `broadcast_shapes` and `broadcast_arrays` go through its legacy iterator,
# which takes at most 32 dimensions (ufuncs and views take MAXDIMS).
LEGACY_ITER_MAXDIMS = 32


def check_legacy_iter_ndim(shapes) -> None:
    """NumPy's RuntimeError from its legacy iterator for a shape of more than 32 dimensions."""
    for s in shapes:
        if len(s) > LEGACY_ITER_MAXDIMS:
            raise RuntimeError("this function only supports up to {} dimensions but the array has {}.".format(
                LEGACY_ITER_MAXDIMS, len(s)))


def _remember(cache, key, value):
    # Clearing (rather than LRU bookkeeping) keeps hits cheap; a program cycling
    # through thousands of shapes just recomputes.
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
    cache[key] = value
    return value


def _ints(t):
    # True for a tuple of exact ints.  Memo keys need it: (2.0, 3) == (2, 3) with equal
    # hashes, so a float shape would otherwise hit an int entry and skip NumPy's TypeError.
    if type(t) is not tuple:
        return False
    for d in t:
        if type(d) is not int:
            return False
    return True


def _as_shape(shape):
    if _ints(shape):
        return shape
    if hasattr(shape, "__iter__"):
        return tuple([operator.index(d) for d in shape])
    return (operator.index(shape),)


def _shape_str(dims):
    # NumPy's compact spelling in reshape/broadcast_to messages: "(2,3)", "(4,)", and a
    # negative (unknown) dimension is dropped when leading, else written "newaxis".
    i = 0
    while i < len(dims) and dims[i] < 0:
        i += 1
    if i == len(dims):
        return "()"
    parts = [str(dims[i])] + ["newaxis" if d < 0 else str(d) for d in dims[i + 1:]]
    return f"({parts[0]},)" if len(dims) == 1 else "(" + ",".join(parts) + ")"


# ---------------------------------------------------------------------------------
# Broadcasting

_broadcast_cache = {}


def broadcast_shapes(*shapes):
    """See `numpy.broadcast_shapes`; memoised.

    Hot path: shapes are taken to be tuples of ints (array shapes), which are not
    re-validated on a cache hit; a public wrapper taking user input should pass
    ``tuple(operator.index(d) for d in s)``.  With more than 64 shapes NumPy numbers
    the args in its error message per chunk of 64 (a quirk); we number them overall.

    Examples
    --------
    >>> import cuarray
    >>> cuarray.broadcast_shapes((2, 1), (3,))
    (2, 3)
    >>> cuarray.broadcast_shapes((5, 1, 4), (3, 1), ())
    (5, 3, 4)
    """
    if len(shapes) == 2:
        a, b = shapes
        if a == b and type(a) is tuple:  # the common `x + y` case: no hashing at all
            return a
    try:
        return _broadcast_cache[shapes]
    except KeyError:
        pass
    except TypeError:  # lists inside: normalise and retry
        return broadcast_shapes(*[_as_shape(s) for s in shapes])
    norm = [_as_shape(s) for s in shapes]
    for s in norm:
        check_ndim(len(s))  # (NumPy makes an array of each shape: more than 64 dims are refused)
        if any(d < 0 for d in s):
            raise ValueError("negative dimensions are not allowed")
    ndim = max((len(s) for s in norm), default=0)
    out = []
    # Walk output dims from the left and operands in order, so the pair named in the
    # error is the one NumPy names.
    for i in range(ndim):
        size, src = 1, -1
        for j, s in enumerate(norm):
            k = i + len(s) - ndim
            if k < 0 or s[k] == 1:
                continue
            if size == 1:
                size, src = s[k], j
            elif s[k] != size:
                raise ValueError(
                    "shape mismatch: objects cannot be broadcast to a single shape.  "
                    f"Mismatch is between arg {src} with shape {norm[src]} and "
                    f"arg {j} with shape {s}.")
        out.append(size)
    return _remember(_broadcast_cache, shapes, tuple(out))


_broadcast_to_cache = {}


def broadcast_to_strides(shape, strides, target_shape):
    """Strides of ``shape``/``strides`` broadcast to ``target_shape`` (see `numpy.broadcast_to`).

    Broadcast dims get stride 0, and so does every dim of length 1, as in NumPy.
    """
    key = (shape, strides, target_shape)
    if _ints(target_shape):
        try:
            return _broadcast_to_cache[key]
        except KeyError:
            pass
    target = _as_shape(target_shape)
    check_ndim(len(target))
    if any(d < 0 for d in target):
        raise ValueError("all elements of broadcast shape must be non-negative")
    extra = len(target) - len(shape)
    if extra < 0:
        raise ValueError("input operand has more dimensions than allowed by the axis remapping")
    out = [0] * extra
    for d, s, t in zip(shape, strides, target[extra:]):
        if d == t:
            out.append(0 if d == 1 else s)
        elif d == 1:
            out.append(0)
        else:
            raise ValueError(
                "operands could not be broadcast together with remapped shapes "
                f"[original->remapped]: {_shape_str(shape)}  and requested shape "
                f"{_shape_str(target)}")
    out = tuple(out)
    if _ints(target_shape):
        _remember(_broadcast_to_cache, key, out)
    return out


# ---------------------------------------------------------------------------------
# Axes

def normalize_axis_index(axis, ndim, msg_prefix=None):
    """See `numpy.lib.array_utils.normalize_axis_index` (raises `numpy.exceptions.AxisError`)."""
    if type(axis) is not int:
        try:
            axis = operator.index(axis)
        except TypeError:
            raise TypeError(f"integer argument expected, got {type(axis).__name__}") from None
    if -ndim <= axis < ndim:
        return axis + ndim if axis < 0 else axis
    raise AxisError(axis, ndim, msg_prefix)


_axis_tuple_cache = {}


def normalize_axis_tuple(axis, ndim, argname=None, allow_duplicate=False):
    """See `numpy.lib.array_utils.normalize_axis_tuple`; memoised for int/tuple axes."""
    key = (axis, ndim, argname, allow_duplicate)
    cacheable = type(axis) is int or _ints(axis)
    if cacheable:
        try:
            return _axis_tuple_cache[key]
        except KeyError:
            pass
    if type(axis) is not tuple and type(axis) is not list:
        try:
            axis = (operator.index(axis),)
        except TypeError:
            pass  # an iterable of axes (or a non-iterable, which fails just below)
    result = tuple([normalize_axis_index(a, ndim, argname) for a in axis])
    if not allow_duplicate and len(set(result)) != len(result):
        raise ValueError(f"repeated axis in `{argname}` argument" if argname else "repeated axis")
    if cacheable:
        _remember(_axis_tuple_cache, key, result)
    return result


# ---------------------------------------------------------------------------------
# Contiguity

_c_strides_cache = {}
_f_strides_cache = {}


def c_strides(shape, itemsize):
    """Row-major strides, NumPy's rule: a zero-length dim counts as 1.

    (NumPy reports all-zero strides for a *freshly allocated* size-0 array, but these
    for a size-0 view such as a reshape; the caller picks.)
    """
    key = (shape, itemsize)
    try:
        return _c_strides_cache[key]
    except KeyError:
        pass
    out = [0] * len(shape)
    step = itemsize
    for i in range(len(shape) - 1, -1, -1):
        out[i] = step
        step *= shape[i] or 1
    return _remember(_c_strides_cache, key, tuple(out))


def f_strides(shape, itemsize):
    """Column-major strides, NumPy's rule: a zero-length dim counts as 1."""
    key = (shape, itemsize)
    try:
        return _f_strides_cache[key]
    except KeyError:
        pass
    out = [0] * len(shape)
    step = itemsize
    for i in range(len(shape)):
        out[i] = step
        step *= shape[i] or 1
    return _remember(_f_strides_cache, key, tuple(out))


def _contiguous(dims_strides, itemsize):
    # dims_strides runs from the fastest-varying axis outwards.
    expected = itemsize
    for d, s in dims_strides:
        if d != 1:
            if s != expected:
                return any(dd == 0 for dd, _ in dims_strides)  # size 0: always contiguous
            expected *= d
    return True


def is_c_contiguous(shape, strides, itemsize):
    """NumPy 2's C_CONTIGUOUS flag: length-1 dims are ignored, size 0 is contiguous."""
    if strides == c_strides(shape, itemsize):
        return True
    return _contiguous(list(zip(shape, strides))[::-1], itemsize)


def is_f_contiguous(shape, strides, itemsize):
    """NumPy 2's F_CONTIGUOUS flag: length-1 dims are ignored, size 0 is contiguous."""
    if strides == f_strides(shape, itemsize):
        return True
    return _contiguous(list(zip(shape, strides)), itemsize)


def k_order_strides(shape, strides, itemsize):
    """Strides of a new packed array laid out in the memory order of the given one.

    Matches ``numpy.empty_like(x, order='K').strides``: a C-contiguous input gives C
    strides, an F-contiguous one F strides; otherwise axes are ranked by decreasing
    ``|stride|`` (ties keep axis order) and packed with positive strides.  A size-0
    result has all-zero strides, as NumPy gives for new empty arrays.
    """
    key = (shape, strides, itemsize)
    try:
        return _k_order_cache[key]
    except KeyError:
        pass
    if 0 in shape:
        out = (0,) * len(shape)
    elif is_c_contiguous(shape, strides, itemsize):
        out = c_strides(shape, itemsize)
    elif is_f_contiguous(shape, strides, itemsize):
        out = f_strides(shape, itemsize)
    else:
        order = sorted(range(len(shape)), key=lambda i: -abs(strides[i]))
        packed = [0] * len(shape)
        step = itemsize
        for i in reversed(order):
            packed[i] = step
            step *= shape[i]
        out = tuple(packed)
    return _remember(_k_order_cache, key, out)


_k_order_cache = {}


# ---------------------------------------------------------------------------------
# Reshape

_reshape_size_cache = {}


def reshape_size(new_shape, size):
    """Resolve a requested shape (int or sequence, one negative = unknown) for ``size`` elements.

    Raises ValueError with NumPy's messages.
    """
    key = (new_shape, size)
    cacheable = type(new_shape) is int or _ints(new_shape)
    if cacheable:
        try:
            return _reshape_size_cache[key]
        except KeyError:
            pass
    dims = _as_shape(new_shape)
    check_ndim(len(dims))
    unknown = -1
    known = 1
    for i, d in enumerate(dims):
        if d > _INTP_MAX or d < -_INTP_MAX - 1:
            raise ValueError("Maximum allowed dimension exceeded")
        if d < 0:  # NumPy takes any negative value as "unknown"
            if unknown >= 0:
                raise ValueError("can only specify one unknown dimension")
            unknown = i
        else:
            known *= d
    if unknown >= 0:
        if known == 0 or known > _INTP_MAX or size % known:
            raise _reshape_mismatch(size, dims)
        dims = dims[:unknown] + (size // known,) + dims[unknown + 1:]
    elif known != size:
        raise _reshape_mismatch(size, dims)
    elif 0 in dims and math.prod(d for d in dims if d) > _INTP_MAX:
        # NumPy's message (it is about bytes there; we do not know the itemsize).
        raise ValueError("array is too big; `arr.size * arr.dtype.itemsize` "
                         "is larger than the maximum possible size.")
    if cacheable:
        _remember(_reshape_size_cache, key, dims)
    return dims


def _reshape_mismatch(size, dims):
    return ValueError(f"cannot reshape array of size {size} into shape {_shape_str(dims)}")


_reshape_strides_cache = {}


def reshape_strides(shape, strides, itemsize, new_shape, order="C"):
    """Strides of a view of ``new_shape`` (already resolved, same size), or None if NumPy
    would copy.  ``order`` is 'C', 'F' or 'A'.  Strides match NumPy's, including those
    it gives to length-1 dims.
    """
    key = (shape, strides, itemsize, new_shape, order)
    try:
        return _reshape_strides_cache[key]
    except KeyError:
        pass
    if order == "A":
        order = ("F" if is_f_contiguous(shape, strides, itemsize)
                 and not is_c_contiguous(shape, strides, itemsize) else "C")
    if new_shape == shape:
        result = strides  # NumPy returns a plain view here, strides untouched
    elif order == "C" and is_c_contiguous(shape, strides, itemsize):
        result = c_strides(new_shape, itemsize)
    elif order == "F" and is_f_contiguous(shape, strides, itemsize):
        # NumPy only switches to F strides for ndim > 1 (same thing for ndim <= 1).
        result = f_strides(new_shape, itemsize)
    elif order in ("C", "F"):
        result = _nocopy_strides(shape, strides, itemsize, new_shape, order == "F")
    else:
        raise ValueError(f"order must be one of 'C', 'F', 'A' (got {order!r})")
    return _remember(_reshape_strides_cache, key, result)


def _nocopy_strides(shape, strides, itemsize, new_shape, fortran):
    # Length-1 old dims carry no layout information: drop them.
    old = [(d, s) for d, s in zip(shape, strides) if d != 1]
    new = list(new_shape)
    out = [0] * len(new)
    # Split both shapes into groups of equal element count.  Each group of old dims
    # must be one contiguous block relative to itself (it may sit anywhere in memory,
    # with any stride, including 0 or negative); the new dims of the group then
    # subdivide that block.  Length-1 new dims join the group that follows them.
    ni = oi = 0
    while oi < len(old):
        n_end, o_end = ni + 1, oi + 1
        n_size, o_size = new[ni], old[oi][0]
        while n_size != o_size:
            if n_size < o_size:
                n_size *= new[n_end]
                n_end += 1
            else:
                o_size *= old[o_end][0]
                o_end += 1
        group = old[oi:o_end]
        for (d0, s0), (d1, s1) in zip(group, group[1:]):
            if (s1 != d0 * s0) if fortran else (s0 != d1 * s1):
                return None
        if fortran:
            # The first new dim steps like the first old dim; the rest follow outward.
            step = group[0][1]
            for k in range(ni, n_end):
                out[k] = step
                step *= new[k]
        else:
            # The last new dim steps like the last old dim; the rest follow inward.
            step = group[-1][1]
            for k in range(n_end - 1, ni - 1, -1):
                out[k] = step
                step *= new[k]
        ni, oi = n_end, o_end
    # Trailing length-1 new dims: NumPy repeats the last stride (C) or steps past the
    # last dim (F).
    if ni < len(new):
        last = out[ni - 1] if ni else itemsize
        if fortran and ni:
            last *= new[ni - 1]
        for k in range(ni, len(new)):
            out[k] = last
    return tuple(out)


# ---------------------------------------------------------------------------------
# Basic indexing

class AdvancedIndexRequired(Exception):
    """Raised by `basic_index` when the index needs advanced (gather/scatter) indexing."""


_INDEX_ERROR = ("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) "
                "and integer or boolean arrays are valid indices")
# Anything array-like is an advanced index (NumPy converts it with asarray).
_ARRAY_ATTRS = ("__array__", "__cuda_array_interface__", "__array_interface__",
                "__dlpack__", "shape")


def _index_int(item):
    """The integer an index item other than int/slice/None/... stands for; raises
    `AdvancedIndexRequired` for array-likes and booleans, IndexError for the rest."""
    if type(item) is bool or isinstance(item, np.bool_):
        raise AdvancedIndexRequired  # a scalar boolean mask
    if isinstance(item, np.generic):
        if isinstance(item, np.integer):
            return int(item)
        raise IndexError(_INDEX_ERROR)  # np.float64 etc.
    if isinstance(item, (list, tuple)) or any(hasattr(item, a) for a in _ARRAY_ATTRS):
        raise AdvancedIndexRequired
    if hasattr(type(item), "__index__"):
        return operator.index(item)
    raise IndexError(_INDEX_ERROR)


def basic_index(shape, strides, index):
    """Apply a basic index (ints, slices, ``...``, ``None``) as view arithmetic.

    Returns ``(new_shape, new_strides, byte_offset)``.  Raises NumPy's IndexError /
    ValueError / TypeError for bad indices and `AdvancedIndexRequired` when the index
    holds anything advanced (arrays, lists, booleans).
    """
    ndim = len(shape)
    # Fast paths: a[i] and a[i:j:k] on the first axis.
    t = type(index)
    if t is int and ndim:
        n = shape[0]
        i = index + n if index < 0 else index
        if 0 <= i < n:
            return shape[1:], strides[1:], i * strides[0]
    elif t is slice and ndim:
        length, stride, offset = _slice_view(index, shape[0], strides[0])
        return (length,) + shape[1:], (stride,) + strides[1:], offset

    items = index if isinstance(index, tuple) else (index,)
    # Pass 1: validate, count the axes consumed, convert odd integers (np.int64,
    # __index__ objects) in a copy only when there are any.
    consumed = n_int = n_new = 0
    seen_ellipsis = advanced = False
    converted = None
    for pos, item in enumerate(items):
        t = type(item)
        if t is slice:
            consumed += 1
            continue
        if t is int:
            value = item
        elif item is None:
            n_new += 1
            continue
        elif item is Ellipsis:
            if seen_ellipsis:
                raise IndexError("an index can only have a single ellipsis ('...')")
            seen_ellipsis = True
            continue
        else:
            try:
                value = _index_int(item)
            except AdvancedIndexRequired:
                # Keep going: an invalid item later still wins with NumPy's IndexError.
                advanced = True
                consumed += 1
                continue
            if converted is None:
                converted = list(items)
            converted[pos] = value
        consumed += 1
        n_int += 1
        if not -_INTP_MAX - 1 <= value <= _INTP_MAX:
            raise IndexError(_INDEX_ERROR)
    if advanced:
        raise AdvancedIndexRequired
    if consumed > ndim:
        raise IndexError(f"too many indices for array: array is {ndim}-dimensional, "
                         f"but {consumed} were indexed")
    if ndim - n_int + n_new > MAXDIMS:
        raise IndexError(f"number of dimensions must be within [0, {MAXDIMS}], "
                         f"indexing result would have {ndim - n_int + n_new}")

    # Pass 2: the view arithmetic.
    new_shape, new_strides = [], []
    offset = axis = 0
    for item in (items if converted is None else converted):
        t = type(item)
        if t is slice:
            length, stride, start = _slice_view(item, shape[axis], strides[axis])
            new_shape.append(length)
            new_strides.append(stride)
            offset += start
            axis += 1
        elif t is int:
            n = shape[axis]
            if not -n <= item < n:
                raise IndexError(f"index {item} is out of bounds for axis {axis} with size {n}")
            offset += (item + n if item < 0 else item) * strides[axis]
            axis += 1
        elif item is None:
            new_shape.append(1)
            new_strides.append(0)
        else:  # ellipsis: all the axes the other items leave over
            skip = ndim - consumed
            new_shape.extend(shape[axis:axis + skip])
            new_strides.extend(strides[axis:axis + skip])
            axis += skip
    if axis < ndim:
        new_shape.extend(shape[axis:])
        new_strides.extend(strides[axis:])
    return tuple(new_shape), tuple(new_strides), offset


def _slice_view(sl, n, stride):
    """(length, new stride, byte offset) of slicing an axis of length ``n``."""
    if sl.step is None and sl.start is None and sl.stop is None:
        return n, stride, 0  # `:`, by far the most common slice
    # slice.indices does NumPy's clamping and raises its messages (zero step,
    # non-integer bounds).
    start, stop, step = sl.indices(n)
    if step == 1:
        length = stop - start if stop > start else 0
    else:
        length = len(range(start, stop, step))
    if length == 0:
        return 0, stride, 0  # NumPy points an empty slice at the axis start, step 1
    if not -_INTP_MAX <= step <= _INTP_MAX:
        # Only a length-1 result gets here.  NumPy clamps the step to a C ssize_t and
        # multiplies in int64; copy its (wrapped) stride so views compare equal.
        step = _INTP_MAX if step > 0 else -_INTP_MAX
        wrapped = (stride * step) & (2**64 - 1)
        return length, wrapped - 2**64 if wrapped > _INTP_MAX else wrapped, start * stride
    return length, stride * step, start * stride


# ---------------------------------------------------------------------------------
# Dimension collapsing for elementwise kernels

_collapse_cache = {}


def collapse_dims(shape, strides_list, keep_order=False):
    """Fewest dims that walk the same elements of every operand in the same order.

    ``strides_list`` holds one strides tuple per operand, the output first.  Length-1
    dims are dropped, axes are put in the output's memory order (decreasing
    ``|stride|``, ties broken by the later operands, then by axis number), and
    neighbours that are one run for *every* operand are merged.  A contiguous array of
    any ndim becomes 1-D.  Size 0 gives shape ``(0,)`` (all strides 0) and size 1
    (including 0-d) gives shape ``()``: the kernel then touches one element.
    """
    key = (shape, strides_list, keep_order)
    try:
        return _collapse_cache[key]
    except KeyError:
        pass
    except TypeError:  # a list of strides: use tuples
        return collapse_dims(tuple(shape), tuple(map(tuple, strides_list)), keep_order)
    n_ops = len(strides_list)
    if 0 in shape:
        result = ((0,), ((0,),) * n_ops)
        return _remember(_collapse_cache, key, result)
    axes = [i for i, d in enumerate(shape) if d != 1]
    if len(axes) > 1 and not keep_order:
        axes.sort(key=lambda i: tuple([-abs(s[i]) for s in strides_list]))
    dims = []
    op_strides = [[] for _ in range(n_ops)]
    for i in axes:
        d = shape[i]
        if dims and all(ss[-1] == s[i] * d for ss, s in zip(op_strides, strides_list)):
            dims[-1] *= d
            for ss, s in zip(op_strides, strides_list):
                ss[-1] = s[i]
        else:
            dims.append(d)
            for ss, s in zip(op_strides, strides_list):
                ss.append(s[i])
    result = (tuple(dims), tuple(map(tuple, op_strides)))
    return _remember(_collapse_cache, key, result)



def collapse_dims_c_order(shape, strides_list):
    """`collapse_dims` keeping the axes in C order, so a flat loop index is the C-order index of
    the full shape (what an ElementwiseKernel's `i` means)."""
    return collapse_dims(shape, strides_list, keep_order=True)


def diagonal(shape, strides, offset=0, axis1=0, axis2=1):
    """(shape, strides, byte offset of element 0) of the `offset`-th diagonal over (axis1, axis2),
    moved to the last axis, as `numpy.diagonal` lays it out. Raises NumPy's errors."""
    nd = len(shape)
    if nd < 2:
        raise ValueError("diag requires an array of at least two dimensions")
    axis1 = normalize_axis_index(axis1, nd)
    axis2 = normalize_axis_index(axis2, nd)
    if axis1 == axis2:
        raise ValueError("axis1 and axis2 cannot be the same")
    offset = operator.index(offset)
    n1, n2 = shape[axis1], shape[axis2]
    s1, s2 = strides[axis1], strides[axis2]
    if offset >= 0:
        n = max(0, min(n1, n2 - offset))
        start = offset * s2 if n else 0
    else:
        n = max(0, min(n1 + offset, n2))
        start = -offset * s1 if n else 0
    rest = [d for d in range(nd) if d not in (axis1, axis2)]
    return (tuple(shape[d] for d in rest) + (n,), tuple(strides[d] for d in rest) + (s1 + s2,), start)


_ORDERS = {"C": "C", "F": "F", "A": "A", "K": "K", "c": "C", "f": "F", "a": "A", "k": "K"}


def normalize_order(order, default: str = "K") -> str:
    """An `order=` argument as one of 'C', 'F', 'A', 'K': NumPy accepts either case, and None
    means `default`."""
    if order is None:
        return default
    o = _ORDERS.get(order) if isinstance(order, str) else None
    if o is None:
        raise ValueError("order must be one of 'C', 'F', 'A', or 'K' (got {!r})".format(order))
    return o


def check_gpu_aligned(shape, strides, dtype, ptr: int) -> None:
    """ValueError when a view of numeric `dtype` at address `ptr` would load elements from
    misaligned addresses (a field of a packed structured dtype, a dtype view at an odd offset): the
    GPU loads an n-byte element (complex: two parts, aligned as a whole) from multiples of n only, and
    a misaligned load ends the CUDA context. Empty views are fine (CuPy's rule)."""
    n = dtype.itemsize
    if dtype.names is not None or n == 1 or 0 in shape:
        return
    if ptr % n or any(s % n for d, s in zip(shape, strides) if d > 1):
        raise ValueError("the result array with dtype {0} would not be sufficiently aligned for GPU access "
                         "(its address and strides must be multiples of {1} bytes: give the field an offset "
                         "and the structured dtype an itemsize that are multiples of {1})".format(dtype, n))
