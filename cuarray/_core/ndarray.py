"""The array object: storage, shape/strides/dtype, views and attributes. No math, no kernels.

Operators, math methods, indexing, copies and transfers are attached by `cuarray/_array_methods.py`
once everything exists, so this module imports nothing above the runtime layer, `dtypes`,
`shapes` and `registry`.

An ndarray is a view on a `MemoryPointer` (`data`) whose `.ptr` is the address of element 0.
Strides are in bytes and may be negative or zero, as in NumPy.
"""

from __future__ import annotations

import builtins
import math
import operator

import numpy

from ..cuda import device as _device
from ..cuda import memory as _memory
from . import dtypes as _dtypes
from . import registry as _registry
from . import shapes as _shapes

__all__ = ["ndarray"]

_builtin_type = builtins.type


def _normalize_shape(shape) -> tuple:
    t = type(shape)
    if t is int:
        if shape < 0:
            raise ValueError("negative dimensions are not allowed")
        return (shape,)
    if t is tuple and all(type(s) is int for s in shape):
        out = shape
    else:
        try:
            out = tuple(int(operator_index(s)) for s in shape)
        except TypeError:
            out = (int(operator_index(shape)),)
    for s in out:
        if s < 0:
            raise ValueError("negative dimensions are not allowed")
    return out


def operator_index(x):
    try:
        return operator.index(x)
    except TypeError:
        raise TypeError(
            "'{}' object cannot be interpreted as an integer".format(type(x).__name__)
        ) from None


class _Flags:
    """`ndarray.flags`: NumPy's flags object (and CuPy's), live on its array. WRITEABLE can be set
    (as `setflags(write=...)`); ALIGNED stays True (device memory is aligned) and WRITEBACKIFCOPY
    False; the others are read-only, with NumPy's AttributeError."""

    __slots__ = ("_a",)

    _KEYS = {
        "C_CONTIGUOUS": "c_contiguous", "C": "c_contiguous", "CONTIGUOUS": "c_contiguous",
        "F_CONTIGUOUS": "f_contiguous", "F": "f_contiguous", "FORTRAN": "f_contiguous",
        "OWNDATA": "owndata", "O": "owndata", "WRITEABLE": "writeable", "W": "writeable",
        "ALIGNED": "aligned", "A": "aligned", "WRITEBACKIFCOPY": "writebackifcopy", "X": "writebackifcopy",
        "BEHAVED": "behaved", "B": "behaved", "CARRAY": "carray", "CA": "carray", "FARRAY": "farray",
        "FA": "farray", "FNC": "fnc", "FORC": "forc",
    }

    def __init__(self, a):
        object.__setattr__(self, "_a", a)

    c_contiguous = contiguous = property(lambda self: self._a._c)
    f_contiguous = fortran = property(lambda self: self._a._f)
    owndata = property(lambda self: self._a.base is None)
    aligned = property(lambda self: True)
    writebackifcopy = property(lambda self: False)
    behaved = property(lambda self: self._a._writeable)
    carray = property(lambda self: self._a._c and self._a._writeable)
    farray = property(lambda self: self._a._f and not self._a._c and self._a._writeable)
    fnc = property(lambda self: self._a._f and not self._a._c)
    forc = property(lambda self: self._a._f or self._a._c)
    num = property(lambda self: (self._a._c * 1) | (self._a._f * 2) | 0x100 | (self._a._writeable * 0x400)
                   | ((self._a.base is None) * 4))

    @property
    def writeable(self) -> bool:
        return self._a._writeable

    @writeable.setter
    def writeable(self, value) -> None:
        a = self._a
        if value and a.base is not None and not a.base._writeable:
            raise ValueError("cannot set WRITEABLE flag to True of this array")
        a._writeable = bool(value)

    def __setattr__(self, name, value):
        if name == "writeable":
            _Flags.writeable.fset(self, value)
        elif name == "writebackifcopy":
            if value:
                raise ValueError("cannot set WRITEBACKIFCOPY flag to True")
        elif name == "aligned":
            pass  # device allocations are always aligned: the flag stays True
        elif name in self._KEYS.values():
            raise AttributeError("attribute {!r} of 'flagsobj' objects is not writable".format(name))
        else:
            raise AttributeError("'flagsobj' object has no attribute {!r}".format(name))

    def _name(self, key):
        try:
            return self._KEYS[key.upper()]
        except (KeyError, AttributeError):
            raise KeyError("Unknown flag") from None

    def __getitem__(self, key):
        return getattr(self, self._name(key))

    def __setitem__(self, key, value):
        setattr(self, self._name(key), value)

    def __eq__(self, other):
        if not isinstance(other, _Flags):
            return NotImplemented
        return all(getattr(self, k) == getattr(other, k) for k in ("c_contiguous", "f_contiguous", "owndata",
                                                                   "writeable"))

    def __repr__(self):
        return "\n".join(
            "  {} : {}".format(k, getattr(self, a))
            for k, a in (("C_CONTIGUOUS", "c_contiguous"), ("F_CONTIGUOUS", "f_contiguous"),
                         ("OWNDATA", "owndata"), ("WRITEABLE", "writeable"), ("ALIGNED", "aligned"),
                         ("WRITEBACKIFCOPY", "writebackifcopy"))
        )


class ndarray:
    """An N-dimensional array in GPU memory. See `numpy.ndarray` and `cupy.ndarray`.

    ``ndarray(shape, dtype=float, memptr=None, strides=None, order='C')`` allocates (or wraps
    `memptr`, a MemoryPointer to element 0). Most users create arrays with `cuarray.asarray`,
    `cuarray.empty`, `cuarray.zeros`, ...

    Examples
    --------
    >>> import cuarray
    >>> a = cuarray.ndarray((2, 3), dtype=cuarray.float32)   # values not set, as cuarray.empty's
    >>> a.shape, a.dtype, a.nbytes
    ((2, 3), dtype('float32'), 24)
    >>> x = cuarray.arange(6).reshape(2, 3)
    >>> (x * 2).sum(axis=1)
    array([ 6, 24])
    """

    __slots__ = ("_shape", "_strides", "_dtype", "data", "base", "_size", "_c", "_f", "_writeable",
                 "__weakref__")

    # NumPy defers binary operators with a NumPy array to us (so `np_arr + gpu_arr` asks us).
    __array_priority__ = 100

    def __init__(self, shape, dtype=float, memptr=None, strides=None, order="C"):
        shape = _normalize_shape(shape)
        dtype = _dtypes.storage_dtype(dtype)  # (structured dtypes too: storage only)
        itemsize = dtype.itemsize
        if memptr is None and strides is None and order == "C":
            # HOT PATH (empty, zeros, every op's output): memoised C layout, one allocation.
            lay = _c_layout(shape, itemsize)
            strides, size, f = lay
            self._shape = shape
            self._strides = strides
            self._dtype = dtype
            self.data = _memory.alloc(size * itemsize)
            self.base = None
            self._size = size
            self._c = True
            self._f = f
            self._writeable = True
            if type(self) is not ndarray:
                self._finalize(None)
            return
        _check_ndim(len(shape))
        size = math.prod(shape)
        if order not in ("C", "F"):
            if order is None or (isinstance(order, str) and order in "cf" and len(order) == 1):
                order = "C" if order is None else order.upper()
            else:
                raise ValueError("order must be 'C' or 'F', got {!r}".format(order))
        if strides is None:
            strides = _shapes.c_strides(shape, itemsize) if order == "C" else _shapes.f_strides(shape, itemsize)
        else:
            strides = tuple(int(s) for s in strides)
            if len(strides) != len(shape):
                raise ValueError("strides, if given, must be the same length as shape")
            if memptr is None and size:
                # NumPy's rule (CuPy raises here, which its maintainers count a bug): strides over the
                # size * itemsize bytes allocated, every element inside them.
                lo = sum((n - 1) * st for n, st in zip(shape, strides) if st < 0)
                hi = sum((n - 1) * st for n, st in zip(shape, strides) if st > 0) + itemsize
                if lo < 0 or hi > size * itemsize:
                    raise ValueError("strides is incompatible with shape of requested array and size of buffer")
        if memptr is None:
            memptr = _memory.alloc(size * itemsize)
        self._shape = shape
        self._strides = strides
        self._dtype = dtype
        self.data = memptr
        self.base = None
        self._size = size
        self._c = _shapes.is_c_contiguous(shape, strides, itemsize)
        self._f = _shapes.is_f_contiguous(shape, strides, itemsize)
        self._writeable = True
        if type(self) is not ndarray:
            self._finalize(None)

    def _finalize(self, obj) -> None:
        """A subclass's `__array_finalize__(obj)`, as NumPy and CuPy call it (obj None for an
        explicit construction, the source array for a view cast with `view(type=...)`)."""
        self.__array_finalize__(obj)

    def __array_finalize__(self, obj) -> None:
        """The subclass hook (nothing to do for ndarray itself). See `numpy.ndarray.__array_finalize__`."""

    # -- construction helpers used by the engine (no validation: callers pass clean values) --
    @classmethod
    def _view(cls, shape, strides, dtype, memptr, base, c=None, f=None):
        """A view of the array `base` (or of nothing: None); `c`/`f` contiguity computed when not
        given. The view is writeable when `base` is, and its `.base` is the memory's owner, as in
        NumPy 2."""
        a = object.__new__(cls)
        a._shape = shape
        a._strides = strides
        a._dtype = dtype
        a.data = memptr
        a._size = math.prod(shape)
        a._c = _shapes.is_c_contiguous(shape, strides, dtype.itemsize) if c is None else c
        a._f = _shapes.is_f_contiguous(shape, strides, dtype.itemsize) if f is None else f
        if base is None:
            a._writeable = True
        else:
            a._writeable = base._writeable  # a view of a read-only view is read-only
            if base.base is not None:
                base = base.base
        a.base = base
        return a

    @classmethod
    def _new_strided(cls, shape, dtype, strides):
        """A new allocation laid out with `strides` (a dense layout: the engine's 'K'-order
        outputs), with no check: the public constructor checks strides given without memptr."""
        dtype = _dtypes.storage_dtype(dtype)
        size = math.prod(shape)
        return cls._view(shape, tuple(strides), dtype, _memory.alloc(size * dtype.itemsize), None)

    # -- attributes ------------------------------------------------------------------------
    @property
    def shape(self) -> tuple:
        return self._shape

    @shape.setter
    def shape(self, new_shape):
        new_shape = _shapes.reshape_size(new_shape, self._size)
        strides = _shapes.reshape_strides(self._shape, self._strides, self._dtype.itemsize, new_shape, "C")
        if strides is None:
            raise AttributeError(
                "Incompatible shape for in-place modification. Use `.reshape()` to make a copy "
                "with the desired shape."
            )
        self._shape = new_shape
        self._strides = strides
        self._c = _shapes.is_c_contiguous(new_shape, strides, self._dtype.itemsize)
        self._f = _shapes.is_f_contiguous(new_shape, strides, self._dtype.itemsize)

    @property
    def strides(self) -> tuple:
        return self._strides

    @property
    def dtype(self) -> numpy.dtype:
        return self._dtype

    @property
    def ndim(self) -> int:
        return len(self._shape)

    @property
    def size(self) -> int:
        return self._size

    @property
    def itemsize(self) -> int:
        return self._dtype.itemsize

    @property
    def nbytes(self) -> int:
        return self._size * self._dtype.itemsize

    @property
    def flags(self) -> _Flags:
        return _Flags(self)

    @property
    def device(self):
        return _device.Device(self.data.device_id)

    # -- complex parts: views of the array's memory (NumPy semantics) ----------------------
    def _part(self, offset: int) -> "ndarray":
        part = numpy.dtype(self._dtype.char.lower())  # complex64 -> float32, complex128 -> float64
        return ndarray._view(self._shape, self._strides, part, self.data + offset, self)

    @property
    def real(self) -> "ndarray":
        """A view of the real parts of a complex array (writing it writes the array); a real array
        itself (a view), as in NumPy."""
        if self._dtype.kind == "c":
            return self._part(0)
        return ndarray._view(self._shape, self._strides, self._dtype, self.data, self, self._c, self._f)

    @real.setter
    def real(self, value) -> None:
        self.real[...] = value

    @property
    def imag(self) -> "ndarray":
        """A view of the imaginary parts of a complex array; for a real array a new read-only
        array of zeros, as in NumPy."""
        if self._dtype.kind == "c":
            return self._part(self._dtype.itemsize // 2)
        z = ndarray(self._shape, self._dtype)
        if z._size:
            z.data.memset_async(0, z.nbytes)
        z._writeable = False
        return z

    @imag.setter
    def imag(self, value) -> None:
        if self._dtype.kind != "c":
            raise TypeError("array does not have imaginary part to set")
        self.imag[...] = value

    @property
    def T(self) -> "ndarray":
        # HOT PATH (`x.T * 2`): reversing the axes swaps C and F contiguity, nothing to compute.
        a = object.__new__(ndarray)
        a._shape = self._shape[::-1]
        a._strides = self._strides[::-1]
        a._dtype = self._dtype
        a.data = self.data
        a.base = self if self.base is None else self.base
        a._size = self._size
        a._c = self._f
        a._f = self._c
        a._writeable = self._writeable
        return a

    @property
    def mT(self) -> "ndarray":
        if self.ndim < 2:
            raise ValueError("matrix transpose with ndim < 2 is undefined")
        return self.swapaxes(-1, -2)

    def transpose(self, *axes) -> "ndarray":
        """See `numpy.ndarray.transpose`. Always a view."""
        nd = len(self._shape)
        if not axes or (len(axes) == 1 and axes[0] is None):
            perm = tuple(range(nd - 1, -1, -1))
        else:
            if len(axes) == 1 and not isinstance(axes[0], int) and hasattr(axes[0], "__len__"):
                axes = tuple(axes[0])
            if len(axes) != nd:
                raise ValueError("axes don't match array")
            perm = _shapes.normalize_axis_tuple(axes, nd)
        shape = tuple(self._shape[i] for i in perm)
        strides = tuple(self._strides[i] for i in perm)
        return ndarray._view(shape, strides, self._dtype, self.data, self)

    def swapaxes(self, axis1, axis2) -> "ndarray":
        nd = len(self._shape)
        a1 = _shapes.normalize_axis_index(axis1, nd)
        a2 = _shapes.normalize_axis_index(axis2, nd)
        perm = list(range(nd))
        perm[a1], perm[a2] = perm[a2], perm[a1]
        return self.transpose(perm)

    def _root(self) -> "ndarray":
        """The array that owns the memory (NumPy 2 also points views' `base` at the owner)."""
        return self if self.base is None else self.base

    # -- memory extent (for overlap checks) ----------------------------------------------
    def _overlaps(self, other: "ndarray") -> bool:
        """Whether the byte ranges the two views can touch intersect (conservative)."""
        lo, hi = self._extent()
        olo, ohi = other._extent()
        return olo < hi and lo < ohi

    def _same_elements(self, other: "ndarray") -> bool:
        """Element i of each is at the same address (an elementwise op may read and write it)."""
        return (self.data.ptr == other.data.ptr and self._strides == other._strides
                and self._shape == other._shape and self._dtype.itemsize == other._dtype.itemsize)

    def _extent(self) -> tuple[int, int]:
        """[lo, hi) byte addresses this view can touch."""
        lo = hi = self.data.ptr
        if self._size == 0:
            return lo, lo
        for n, s in zip(self._shape, self._strides):
            if s > 0:
                hi += (n - 1) * s
            else:
                lo += (n - 1) * s
        return lo, hi + self._dtype.itemsize

    # -- host transfer: get()/set() are bound by cuarray/_array_methods.py ------------------
    def __array__(self, dtype=None, copy=None):
        # No silent device-to-host copies: NumPy calls this when it wants host data. When SciPy
        # code is the caller, the hint names the cuarray function to call instead.
        raise TypeError(
            "Implicit conversion to a NumPy array is not allowed. Use `.get()` or "
            "`cuarray.asnumpy()` to copy the array to the host explicitly." + _registry.conversion_hint()
        )

    # -- Python protocol ---------------------------------------------------------------------
    def __len__(self) -> int:
        if not self._shape:
            raise TypeError("len() of unsized object")
        return self._shape[0]

    def __iter__(self):
        # Not a generator function: iter() of a 0-d array must raise at once, as NumPy's does
        # (numpy.iterable, which cuarray.iterable is, asks only iter()).
        if not self._shape:
            raise TypeError("iteration over a 0-d array")
        return (self[i] for i in range(self._shape[0]))

    def item(self, *args):
        """Copy one element to a Python scalar (synchronising). See `numpy.ndarray.item`."""
        if args:
            return self.get().item(*args)
        if self._size != 1:
            raise ValueError("can only convert an array of size 1 to a Python scalar")
        return self.get().item()

    def tolist(self):
        return self.get().tolist()

    def _scalar_check(self, what):
        if self._size != 1:
            if what == "bool":
                raise ValueError(
                    "The truth value of an array with more than one element is ambiguous. "
                    "Use a.any() or a.all()"
                    if self._size > 1 else
                    "The truth value of an empty array is ambiguous. Use `array.size > 0` to "
                    "check that an array is not empty."
                )
            raise TypeError("only length-1 arrays can be converted to Python scalars")

    def __bool__(self) -> bool:
        self._scalar_check("bool")
        return bool(self.get().reshape(()))

    def _to_python(self, convert):
        """int()/float()/complex(): NumPy 2 accepts only 0-d arrays (synchronising copy)."""
        self._scalar_check(convert.__name__)
        if self.ndim > 0:
            raise TypeError("only 0-dimensional arrays can be converted to Python scalars")
        return convert(self.get())

    def __int__(self) -> int:
        return self._to_python(int)

    def __float__(self) -> float:
        return self._to_python(float)

    def __complex__(self) -> complex:
        return self._to_python(complex)

    def __index__(self) -> int:
        if self.ndim != 0 or not _dtypes.is_integer(self._dtype):
            raise TypeError("only integer scalar arrays can be converted to a scalar index")
        return int(self.get())

    def __repr__(self) -> str:
        return repr(self.get())

    def __str__(self) -> str:
        return str(self.get())

    def __format__(self, spec) -> str:
        if self.ndim == 0:
            return format(self.get()[()], spec)
        return format(self.get(), spec)

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def __sizeof__(self) -> int:
        return object.__sizeof__(self) + self.nbytes

    # -- indexing, copy(), fill(), astype(): bound by cuarray/_array_methods.py ---------------
    def view(self, dtype=None, type=None) -> "ndarray":
        """A view with another dtype (or another ndarray subclass: `type`) of the same memory.
        See `numpy.ndarray.view`; structured dtypes too. A numeric view the GPU could not load (its
        address or strides not multiples of the itemsize, e.g. of a packed structured array) raises
        ValueError, as in CuPy."""
        if type is None and isinstance(dtype, _builtin_type) and issubclass(dtype, ndarray):
            dtype, type = None, dtype
        out = self._dtype_view(dtype)
        if type is None:
            return out
        if not (isinstance(type, _builtin_type) and issubclass(type, ndarray)):
            raise TypeError("Type must be a sub-type of ndarray type")
        if type is ndarray:
            return out
        cast = object.__new__(type)
        for name in ndarray.__slots__[:-1]:
            setattr(cast, name, getattr(out, name))
        cast._finalize(self)
        return cast

    def tobytes(self, order="C") -> bytes:
        """The elements as bytes (copied to the host, synchronising). See `numpy.ndarray.tobytes`."""
        return self.get().tobytes(order)

    def _dtype_view(self, dtype) -> "ndarray":
        if dtype is None:
            return ndarray._view(self._shape, self._strides, self._dtype, self.data, self, self._c, self._f)
        dtype = _dtypes.storage_dtype(dtype)
        old, new = self._dtype.itemsize, dtype.itemsize
        if old == new:
            if dtype.names is None and new > 1 and self._dtype.names is not None:
                # (a structured array's address and strides need not suit a numeric dtype)
                _shapes.check_gpu_aligned(self._shape, self._strides, dtype, self.data.ptr)
            return ndarray._view(self._shape, self._strides, dtype, self.data, self, self._c, self._f)
        if self.ndim == 0:
            raise ValueError("Changing the dtype of a 0d array is only supported if the itemsize is unchanged")
        if self._shape[-1] != 1 and self._strides[-1] != old:
            raise ValueError(
                "To change to a dtype of a different size, the last axis must be contiguous"
            )
        last = self._shape[-1] * old
        if last % new:
            raise ValueError(
                "When changing to a {} dtype, its size must be a divisor of the size of original "
                "dtype".format("smaller" if new < old else "larger")
            )
        shape = self._shape[:-1] + (last // new,)
        strides = self._strides[:-1] + (new,)
        _shapes.check_gpu_aligned(shape, strides, dtype, self.data.ptr)  # (a uint8 array at an odd offset)
        return ndarray._view(shape, strides, dtype, self.data, self)

    # -- interop (__cuda_array_interface__ and __dlpack__ are bound by _array_methods.py) ------
    def __dlpack_device__(self):
        return (2, self.data.device_id)  # kDLCUDA

    def __array_namespace__(self, *, api_version=None):
        if api_version not in (None, "2021.12", "2022.12", "2023.12", "2024.12", "2025.12"):
            raise ValueError("unsupported array API version {!r}".format(api_version))
        return _registry.namespace()


_c_layouts: dict = {}


_check_ndim = _shapes.check_ndim


def _c_layout(shape: tuple, itemsize: int) -> tuple:
    """(strides, size, f_contiguous) of a C-contiguous array, memoised (computed for 0-d/1-d:
    random 1-d sizes, as in pool churn, would only churn the memo)."""
    nd = len(shape)
    if nd == 1:
        return ((itemsize,), shape[0], True)
    if nd == 0:
        return ((), 1, True)
    key = (shape, itemsize)
    lay = _c_layouts.get(key)
    if lay is None:
        _check_ndim(nd)  # (on the memo's miss only: a layout seen before was checked)
        strides = _shapes.c_strides(shape, itemsize)
        if len(_c_layouts) > 4096:
            _c_layouts.clear()
        lay = _c_layouts[key] = (strides, math.prod(shape), _shapes.is_f_contiguous(shape, strides, itemsize))
    return lay


def _new_c(shape: tuple, dtype: numpy.dtype) -> ndarray:
    """HOT PATH: a new C-contiguous array; shape is a clean tuple of ints, dtype supported.
    `_c_layout` (1-d) and `_new_dense` inlined: two frames less per temporary (~0.1 us stubbed)."""
    itemsize = dtype.itemsize
    if len(shape) == 1:
        size = shape[0]
        strides = (itemsize,)
        f = True
    else:
        strides, size, f = _c_layout(shape, itemsize)
    a = object.__new__(ndarray)
    a._shape = shape
    a._strides = strides
    a._dtype = dtype
    a.data = _memory._allocator(size * itemsize)
    a.base = None
    a._size = size
    a._c = True
    a._f = f
    a._writeable = True
    return a


def _new_dense(shape, strides, size, dtype, c, f) -> ndarray:
    a = object.__new__(ndarray)
    a._shape = shape
    a._strides = strides
    a._dtype = dtype
    # alloc() without its frame: `_allocator` is read at each call (set_allocator and memory hooks swap it)
    a.data = _memory._allocator(size * dtype.itemsize)
    a.base = None
    a._size = size
    a._c = c
    a._f = f
    a._writeable = True
    return a


_f_layouts: dict = {}


def _new_f(shape: tuple, dtype: numpy.dtype) -> ndarray:
    """HOT PATH: a new F-contiguous array (the 'K'-order output of F-contiguous operands)."""
    itemsize = dtype.itemsize
    key = (shape, itemsize)
    lay = _f_layouts.get(key)
    if lay is None:
        strides = _shapes.f_strides(shape, itemsize)
        if len(_f_layouts) > 4096:
            _f_layouts.clear()
        lay = _f_layouts[key] = (strides, math.prod(shape), _shapes.is_c_contiguous(shape, strides, itemsize))
    strides, size, c = lay
    return _new_dense(shape, strides, size, dtype, c, True)
