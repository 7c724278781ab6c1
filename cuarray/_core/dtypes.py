"""Supported dtypes, their C names and categories, and NumPy 2 (NEP 50) promotion.

NumPy is the oracle: promotion and ufunc loop selection are delegated to it once per
distinct key and memoised, so the hot path is a dictionary look-up.  Python ``int``,
``float`` and ``complex`` scalars are *weak* (NEP 50): they take the kind of the array
they meet, not a dtype of their own.  Python ``bool`` promotes exactly like ``bool``.
"""

import numpy as np

# The Python scalar types NumPy treats as weak scalars (NEP 50): one definition for every module.
PY_SCALARS = (bool, int, float, complex)

__all__ = [
    "SUPPORTED_DTYPES", "normalize_dtype", "ctype", "short_name",
    "is_bool", "is_signed_int", "is_unsigned_int", "is_integer", "is_float",
    "is_complex", "is_inexact", "weak_scalar_kind", "result_type",
    "check_weak_scalar", "int_out_of_range", "ufunc_loop_dtypes", "can_cast",
    "is_datetime", "is_supported", "storage_dtype", "is_structured",
]

SUPPORTED_DTYPES = tuple(np.dtype(t) for t in (
    np.bool_, np.int8, np.int16, np.int32, np.int64,
    np.uint8, np.uint16, np.uint32, np.uint64,
    np.float16, np.float32, np.float64, np.complex64, np.complex128,
))

_SUPPORTED_NAMES = ", ".join(dt.name for dt in SUPPORTED_DTYPES) + ", datetime64, timedelta64"

# C++ spellings used by generated kernels; `complex<T>` comes from our device header.
_CTYPES = dict(zip(SUPPORTED_DTYPES, (
    "bool", "signed char", "short", "int", "long long",
    "unsigned char", "unsigned short", "unsigned int", "unsigned long long",
    "__half", "float", "double", "complex<float>", "complex<double>",
)))

# Type character -> canonical supported dtype.  Several characters can name one dtype
# (on Linux 'l' and 'q' are both int64); normalising to one instance keeps every
# table below keyed by a single object and keeps kernel cache keys stable.
_CANONICAL = {}
for _char in np.typecodes["All"]:
    try:
        _dt = np.dtype(_char)
    except TypeError:
        continue
    for _sup in SUPPORTED_DTYPES:
        if _dt == _sup:
            _CANONICAL[_dt.char] = _sup
del _char, _dt, _sup

_KIND = {dt: dt.kind for dt in SUPPORTED_DTYPES}

# datetime64 / timedelta64 (kinds 'M' and 'm', any unit): storage as int64 on the device, NaT being
# int64's minimum, as NumPy stores them. They are not in SUPPORTED_DTYPES (the numeric types every
# routine loops over); the rules of their values (unit conversion, NaT, the ufunc loops) live in
# one module, cuarray/_core/datetimes.py. Here: their C type, their kernel-name spelling, and
# normalisation (each distinct unit is its own dtype, memoised like the others).
_DATETIME_CTYPE = "long long"
# `isinstance(x, np.dtype)` costs ~100 ns (metaclass check); a set of the concrete
# dtype classes answers "is this a supported dtype instance?" in ~30 ns.
_DTYPE_TYPES = frozenset(type(dt) for dt in SUPPORTED_DTYPES)
_NAME = {dt: dt.name for dt in SUPPORTED_DTYPES}
_BOOL = np.dtype(np.bool_)

# Memo caches are cleared when they grow past this; keys are normally few (dtypes),
# the bound only protects long-running programs that feed unusual keys.
_CACHE_LIMIT = 4096


def _remember(cache, key, value):
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
    try:
        cache[key] = value
    except TypeError:  # unhashable key: nothing to remember
        pass
    return value


# ---------------------------------------------------------------------------------
# Normalisation

_normalize_cache = {}


def normalize_dtype(dtype):
    """Return the canonical supported ``np.dtype`` for anything ``np.dtype()`` accepts.

    ``None`` gives float64 (NumPy's creation default).  Unsupported dtypes and
    non-native byte orders raise TypeError naming the dtype.
    """
    try:
        return _normalize_cache[dtype]
    except (KeyError, TypeError):  # TypeError: unhashable (e.g. a structured spec list)
        pass
    dt = np.dtype(dtype)
    canon = None
    if dt.fields is None and dt.subdtype is None:
        canon = _CANONICAL.get(dt.char)
        if canon is None and dt.kind in "Mm":
            canon = _datetime_dtype(dt) if dt.isnative else dt  # (non-native: the message below)
    if canon is None:
        if dt.names is not None:
            raise TypeError(_structured_message(dt))
        raise TypeError(
            f"cuarray does not support dtype {str(dt)!r} (supported: {_SUPPORTED_NAMES})")
    if not dt.isnative:
        # The GPU kernels read native byte order only.
        raise TypeError(
            f"cuarray does not support non-native byte order dtype {dt.str!r}; "
            f"use .astype({dt.name!r}) first")
    return _remember(_normalize_cache, dtype, canon)


# ---------------------------------------------------------------------------------
# Structured dtypes: storage, not computation
#
# An array may hold a structured dtype (fields of the dtypes above, nested structs, any offsets and
# itemsize, as CuPy 14 allows): creation, transfers, copies, views and field views work on its bytes.
# Nothing computes on the structs themselves: `normalize_dtype`, which every kernel's types go
# through, refuses them (`_structured_message`), so ufuncs, reductions and sorts raise TypeError on
# their slow path and the numeric hot paths pay nothing. Array storage asks `storage_dtype`.

_storage_cache = {}


def storage_dtype(dtype):
    """The dtype an array is created with: `normalize_dtype`'s, or a structured dtype whose every
    field cuarray holds (TypeError naming the field otherwise: object, string, unstructured void or
    sub-array fields). Memoised like `normalize_dtype`."""
    try:
        return _normalize_cache[dtype]
    except (KeyError, TypeError):
        pass
    try:
        return _storage_cache[dtype]
    except (KeyError, TypeError):
        pass
    dt = np.dtype(dtype)
    if dt.names is None:
        return normalize_dtype(dtype)  # (memoised under the caller's key, as normalize_dtype does)
    _check_struct(dt, dt)
    if not dt.isnative:
        # A structured dtype with big-endian fields names a host layout only (CuPy's rule for
        # numeric dtypes: the upload converts to native order; see transfer.from_host).
        raise TypeError(f"cuarray does not support non-native byte order dtype {dt}; use "
                        f".astype(dtype.newbyteorder('=')) first")
    return _remember(_storage_cache, dtype, dt)


def _check_struct(dt, top):
    for name in dt.names:
        fdt = dt.fields[name][0]
        if fdt.subdtype is not None:
            raise TypeError(f"cuarray does not support structured dtype {top} (field {name!r} is a sub-array "
                            f"{fdt}: sub-array fields are not supported, as in CuPy)")
        if fdt.names is not None:
            _check_struct(fdt, top)
        elif fdt.kind not in "biufcmM" or _CANONICAL.get(fdt.char) is None and fdt.kind not in "mM":
            raise TypeError(f"cuarray does not support structured dtype {top} (field {name!r} has dtype "
                            f"{fdt}; fields hold {_SUPPORTED_NAMES} or nested structs)")


def is_structured(dtype):
    """True for a structured dtype (one with fields)."""
    return dtype.names is not None


def _structured_message(dt):
    return (f"cuarray does not support dtype {str(dt)!r} in computations: arrays of a structured dtype "
            f"support creation, copies, views and field access (a['name']); compute on their fields")


def _datetime_dtype(dt):
    """A native datetime64/timedelta64 dtype entered in the tables (first sight of its unit)."""
    _CTYPES[dt] = _DATETIME_CTYPE
    _KIND[dt] = dt.kind
    # Kernel names are C identifiers: 'datetime64[ns]' -> 'datetime64_ns', '<m8[10ms]' -> 'timedelta64_10ms'.
    _NAME[dt] = dt.name.replace("[", "_").rstrip("]")
    return dt


def is_datetime(dtype):
    """True for datetime64 and timedelta64 dtypes (any unit)."""
    return getattr(dtype, "kind", None) in ("M", "m")


def is_supported(dtype):
    """True for a normalised dtype cuarray computes on: the numeric ones and datetime64/timedelta64
    (arrays may also hold structured dtypes: `storage_dtype`)."""
    return dtype in _CTYPES


def ctype(dtype):
    """C++ type name of ``dtype`` in generated kernels (``'float'``, ``'complex<double>'``)."""
    try:
        return _CTYPES[dtype]
    except (KeyError, TypeError):
        return _CTYPES[normalize_dtype(dtype)]


def short_name(dtype):
    """Name used in kernel names: ``dtype.name`` (``'int8'``, ``'complex64'``, ...)."""
    try:
        return _NAME[dtype]
    except (KeyError, TypeError):
        return _NAME[normalize_dtype(dtype)]


# ---------------------------------------------------------------------------------
# Categories (bool is not an integer, as in NumPy)

def _kind(dtype):
    try:
        return _KIND[dtype]
    except (KeyError, TypeError):
        return _KIND[normalize_dtype(dtype)]


def is_bool(dtype):
    """True for bool."""
    return _kind(dtype) == "b"


def is_signed_int(dtype):
    """True for int8..int64."""
    return _kind(dtype) == "i"


def is_unsigned_int(dtype):
    """True for uint8..uint64."""
    return _kind(dtype) == "u"


def is_integer(dtype):
    """True for signed and unsigned integers (not bool)."""
    k = _kind(dtype)
    return k == "i" or k == "u"


def is_float(dtype):
    """True for real floating dtypes (float16, float32, float64)."""
    return _kind(dtype) == "f"


def is_complex(dtype):
    """True for complex64 and complex128."""
    return _kind(dtype) == "c"


def is_inexact(dtype):
    """True for floating and complex dtypes."""
    k = _kind(dtype)
    return k == "f" or k == "c"


# ---------------------------------------------------------------------------------
# Promotion

# Exact types only: NumPy treats subclasses of int/float (and NumPy scalars) as strong.
_WEAK_KINDS = {bool: bool, int: int, float: float, complex: complex}
# A value standing for a weak scalar when asking np.result_type (the value is ignored
# by NEP 50 promotion, only its Python type matters).
_WEAK_PROXY = {int: 0, float: 0.0, complex: 0j}


def weak_scalar_kind(x):
    """``bool``, ``int``, ``float`` or ``complex`` if ``x`` is exactly that type, else None."""
    return _WEAK_KINDS.get(type(x))


_result_type_cache = {}


def _promotion_item(x):
    # Key item (a dtype) for what result_type's inline checks did not settle.
    t = type(x)
    if t is bool:
        return _BOOL
    if isinstance(x, np.dtype):
        return x
    if t is not type:
        dt = getattr(x, "dtype", None)
        if isinstance(dt, np.dtype):  # arrays and NumPy scalars are strong
            return dt
    return normalize_dtype(x)


def result_type(*arrays_and_dtypes):
    """See `numpy.result_type` (NumPy 2 rules; Python int/float/complex are weak).

    Anything with a ``.dtype`` counts as an array of that dtype.
    """
    key = []
    for x in arrays_and_dtypes:  # the commonest items inline: no call per item
        t = type(x)
        if t is int or t is float or t is complex:
            key.append(t)
        elif t in _DTYPE_TYPES:
            key.append(x)
        else:
            dt = getattr(x, "dtype", None)
            key.append(dt if type(dt) in _DTYPE_TYPES else _promotion_item(x))
    key = tuple(key)
    try:
        return _result_type_cache[key]
    except KeyError:
        pass
    args = [_WEAK_PROXY[k] if type(k) is type else k for k in key]
    return _remember(_result_type_cache, key, normalize_dtype(np.result_type(*args)))


def check_weak_scalar(value, dtype):
    """Convert a Python scalar to a NumPy scalar of ``dtype`` as NumPy 2 does in an operation.

    ``dtype`` is the loop dtype the scalar meets (see `ufunc_loop_dtypes`).  Raises what
    NumPy raises (``OverflowError: Python integer 1000 out of bounds for int8``) and
    warns where it warns (``1e300`` as float32 gives inf with a RuntimeWarning).
    Comparison ufuncs are the exception NumPy makes: ``int8_array < 1000`` is valid
    there (see `int_out_of_range`); the caller must check that first.
    """
    t = type(value)
    k = dtype.kind
    if t is int and k == "b" and not -2**63 <= value < 2**63:
        # np.bool_(2**100) is True, but NumPy's weak path goes through a C long first.
        raise OverflowError("Python int too large to convert to C long")
    if t is int or t is bool or (t is float and k in "fc") or (t is complex and k == "c"):
        # The scalar constructors apply exactly the bounds checks and messages that
        # NumPy's weak-scalar path does (verified in the tests).
        return dtype.type(value)
    # A narrowing kind (float -> int, complex -> real) only happens with an explicit
    # dtype= and casting='unsafe'; NumPy then casts like an array, with its warnings.
    return np.asarray(value).astype(dtype)[()]


def int_out_of_range(value, dtype):
    """For a Python int meeting an integer ``dtype``: 0 if it fits, -1 below, +1 above.

    NumPy 2's comparison ufuncs accept out-of-range Python ints (``uint8_array == -1``
    is all False, ``int8_array < 1000`` all True) instead of raising; the result is
    then the same for every element, and this says which way.
    """
    info = _iinfo.get(dtype)
    if info is None:
        info = _iinfo[dtype] = (int(np.iinfo(dtype).min), int(np.iinfo(dtype).max))
    if value < info[0]:
        return -1
    return 1 if value > info[1] else 0


_iinfo = {}
_loop_cache = {}


def ufunc_loop_dtypes(np_ufunc, in_types, dtype=None, casting="same_kind", reduction=False):
    """Dtypes of the loop NumPy would pick: inputs then outputs.

    ``in_types`` items are ``np.dtype`` (arrays) or the Python types ``bool``, ``int``,
    ``float``, ``complex`` (weak scalars).  ``dtype`` fixes the output dtype(s), like the
    ufunc's ``dtype=`` argument.  NumPy's own exception (a TypeError) is raised for
    unsupported combinations.
    """
    key = (np_ufunc, in_types, dtype, casting, reduction)
    try:
        return _loop_cache[key]
    except KeyError:
        pass
    except TypeError:  # unhashable in_types (a list): use a tuple key
        in_types = tuple(in_types)
        return ufunc_loop_dtypes(np_ufunc, in_types, dtype, casting, reduction)
    nout = np_ufunc.nout
    # resolve_dtypes has no weak bool; a Python bool promotes like the bool dtype anyway.
    ops = tuple(_BOOL if t is bool else t for t in in_types) + (None,) * nout
    if dtype is None:
        loop = np_ufunc.resolve_dtypes(ops, casting=casting, reduction=reduction)
    else:
        # The ufunc dtype= argument is the same as fixing only the output dtypes.
        signature = (None,) * np_ufunc.nin + (normalize_dtype(dtype),) * nout
        loop = np_ufunc.resolve_dtypes(ops, signature=signature, casting=casting,
                                       reduction=reduction)
    return _remember(_loop_cache, key, tuple([normalize_dtype(d) for d in loop]))


_can_cast_cache = {}


def can_cast(from_, to, casting="safe"):
    """See `numpy.can_cast`, for dtypes; memoised."""
    key = (from_, to, casting)
    try:
        return _can_cast_cache[key]
    except KeyError:
        pass
    return _remember(_can_cast_cache, key,
                     bool(np.can_cast(normalize_dtype(from_), normalize_dtype(to), casting)))
