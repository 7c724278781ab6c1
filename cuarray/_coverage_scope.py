"""The reviewed literals behind `python -m cuarray info --coverage`: what is out of scope, and the
Array API 2025.12 names.

`OUT_OF_SCOPE` maps a qualified NumPy name to the reason cuarray does not provide it. A name goes
here only after review: "missing" in docs/coverage.md means "not done yet", this table means "not
meant to be done" (a GPU array library has no use for it, or it needs dtypes that cuarray does not
support on the device). A name listed here that cuarray later provides is reported as present.

`ARRAY_API` lists the names of the Array API standard, revision 2025.12, as its published stubs
(data-apis/array-api, src/array_api_stubs/_2025_12) define them: the main namespace, the array
object, the inspection API and the linalg/fft extensions.
"""

from __future__ import annotations

__all__ = ["OUT_OF_SCOPE", "PREFIX_OUT_OF_SCOPE", "ARRAY_API", "ARRAY_API_VERSION"]

_STR = "string/bytes dtypes are not supported on the device"
_OBJ = "object dtype is not supported on the device"
_DT = "datetime string formatting and business-day calendars are host work (datetime64 arrays are supported)"
_IO = "file I/O beyond save/load/savez and the text readers (use NumPy on the host, then cuarray.asarray)"
_LONGD = "extended precision (long double) has no CUDA type"
_HOSTMEM = "describes host memory or NumPy's C internals"
_PKG = "NumPy's own tooling, not array code"
_MASKED = "masked and record arrays are NumPy subclasses with object-level semantics; not on the device"
_MATRIX = "numpy.matrix is deprecated in NumPy; cuarray has only ndarray"
_PYFUNC = "runs an arbitrary Python function per element on the host"
_SCIMATH = ("the result dtype depends on the values (complex where an input is out of the real domain): "
            "a synchronising host decision on every call; cast to complex and use the plain functions")
_LEGACY_RNG = "bit generators other than Philox (cuRAND/our counter-based Philox is the device generator)"

OUT_OF_SCOPE: dict[str, str] = {
    # -- numpy: dtypes and scalar types that the device does not hold --
    "numpy.bytes_": _STR, "numpy.str_": _STR, "numpy.character": _STR, "numpy.flexible": _STR,
    "numpy.object_": _OBJ,
    "numpy.datetime_as_string": _DT,
    "numpy.busday_count": _DT, "numpy.busday_offset": _DT,
    "numpy.busdaycalendar": _DT, "numpy.is_busday": _DT,
    "numpy.longdouble": _LONGD, "numpy.clongdouble": _LONGD, "numpy.float128": _LONGD,
    "numpy.complex256": _LONGD, "numpy.float96": _LONGD, "numpy.complex192": _LONGD,
    "numpy.char": _STR, "numpy.strings": _STR, "numpy.rec": _MASKED, "numpy.recarray": _MASKED,
    "numpy.record": _MASKED, "numpy.ma": _MASKED, "numpy.matrix": _MATRIX, "numpy.asmatrix": _MATRIX,
    "numpy.bmat": _MATRIX, "numpy.matlib": _MATRIX,
    # -- numpy: I/O beyond save/load --
    "numpy.memmap": "memory-mapped files are host memory",
    "numpy.fromregex": "parses a text file into a structured array on the host: numpy.fromregex, then cuarray.asarray",
    "numpy.savez_compressed": _IO, "numpy.DataSource": _IO,
    # -- numpy: host-side machinery --
    "numpy.nditer": "NumPy's C iterator over host memory; device code is written as kernels",
    "numpy.nested_iters": "NumPy's C iterator over host memory; device code is written as kernels",
    "numpy.frompyfunc": _PYFUNC,
    "numpy.getbufsize": "NumPy's ufunc buffer size (host loops)",
    "numpy.setbufsize": "NumPy's ufunc buffer size (host loops)",
    "numpy.ctypeslib": _HOSTMEM, "numpy.little_endian": _HOSTMEM,
    "numpy.get_include": _PKG, "numpy.show_runtime": _PKG, "numpy.test": _PKG,
    "numpy.typing": _PKG, "numpy.f2py": _PKG, "numpy.core": "deprecated alias of numpy._core",
    "numpy.info": _PKG, "numpy.dtypes": "NumPy's dtype classes; cuarray uses numpy.dtype objects as they are",
    "numpy.lib": "a namespace of NumPy internals; its array-code parts are listed on their own",
    "numpy.exceptions": "listed on its own below",
    "numpy.version": _PKG,
    # -- ndarray: attributes and methods about host memory or NumPy internals --
    "numpy.ndarray.ctypes": _HOSTMEM, "numpy.ndarray.__array_interface__": _HOSTMEM,
    "numpy.ndarray.__array_struct__": _HOSTMEM, "numpy.ndarray.__array_wrap__": "NumPy subclass hook", "numpy.ndarray.__setstate__": "pickling uses __reduce__ (a host copy)",
    "numpy.ndarray.__buffer__": "the buffer protocol exposes host memory",
    "numpy.ndarray.__array_priority__": "present as a class attribute (NumPy defers operators to cuarray)",
    "numpy.ndarray.__class_getitem__": "typing only",
    "numpy.ndarray.newbyteorder": "non-native byte order is not supported on the device",
    # -- numpy.random: the other bit generators and the legacy module state --
    "numpy.random.MT19937": _LEGACY_RNG, "numpy.random.PCG64": _LEGACY_RNG,
    "numpy.random.PCG64DXSM": _LEGACY_RNG, "numpy.random.SFC64": _LEGACY_RNG,
    "numpy.random.bit_generator": _LEGACY_RNG, "numpy.random.mtrand": _LEGACY_RNG,
    "numpy.random.get_bit_generator": _LEGACY_RNG, "numpy.random.set_bit_generator": _LEGACY_RNG,
    "numpy.random.get_state": "the Mersenne Twister state of NumPy's legacy generator",
    "numpy.random.set_state": "the Mersenne Twister state of NumPy's legacy generator",
    # -- numpy.exceptions --
    "numpy.exceptions.ModuleDeprecationWarning": _PKG,
    # -- numpy.lib public parts --
    "numpy.lib.Arrayterator": "iterates host memory in blocks",
    "numpy.lib.NumpyVersion": _PKG, "numpy.lib.add_docstring": _PKG, "numpy.lib.add_newdoc": _PKG,
    "numpy.lib.tracemalloc_domain": _PKG, "numpy.lib.format": _IO, "numpy.lib.npyio": _IO,
    "numpy.lib.introspect": _PKG, "numpy.lib.scimath": _SCIMATH, "numpy.lib.mixins": "a mixin for host array-likes",
    "numpy.lib.array_utils.byte_bounds": _HOSTMEM,
    "numpy.emath": _SCIMATH,
}

# Every name under these prefixes is out of scope, with this reason (whole subpackages).
PREFIX_OUT_OF_SCOPE: dict[str, str] = {
    "numpy.lib.scimath.": _SCIMATH,
    "numpy.lib.format.": _IO,
    "numpy.lib.npyio.": _IO,
}

ARRAY_API_VERSION = "2025.12"

# name -> where cuarray must have it: "" (main namespace), "ndarray", "info", "linalg", "fft".
ARRAY_API: dict[str, tuple[str, ...]] = {
    "": (
        # constants and data types
        "e", "inf", "nan", "newaxis", "pi",
        "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
        "float32", "float64", "complex64", "complex128",
        "__array_namespace_info__",
        # creation
        "arange", "asarray", "empty", "empty_like", "eye", "from_dlpack", "full", "full_like", "linspace",
        "meshgrid", "ones", "ones_like", "tril", "triu", "zeros", "zeros_like",
        # data type functions
        "astype", "can_cast", "finfo", "iinfo", "isdtype", "result_type",
        # elementwise
        "abs", "acos", "acosh", "add", "asin", "asinh", "atan", "atan2", "atanh", "bitwise_and",
        "bitwise_left_shift", "bitwise_invert", "bitwise_or", "bitwise_right_shift", "bitwise_xor", "ceil",
        "clip", "conj", "copysign", "cos", "cosh", "divide", "equal", "exp", "expm1", "floor", "floor_divide",
        "greater", "greater_equal", "hypot", "imag", "isfinite", "isinf", "isnan", "less", "less_equal", "log",
        "log1p", "log2", "log10", "logaddexp", "logical_and", "logical_not", "logical_or", "logical_xor",
        "maximum", "minimum", "multiply", "negative", "nextafter", "not_equal", "positive", "pow", "real",
        "reciprocal", "remainder", "round", "sign", "signbit", "sin", "sinh", "square", "sqrt", "subtract",
        "tan", "tanh", "trunc",
        # indexing, linear algebra, manipulation
        "take", "take_along_axis", "matmul", "matrix_transpose", "tensordot", "vecdot",
        "broadcast_arrays", "broadcast_shapes", "broadcast_to", "concat", "expand_dims", "flip", "moveaxis",
        "permute_dims", "repeat", "reshape", "roll", "squeeze", "stack", "tile", "unstack",
        # searching, sets, sorting, statistics, utilities
        "argmax", "argmin", "count_nonzero", "nonzero", "searchsorted", "where",
        "isin", "unique_all", "unique_counts", "unique_inverse", "unique_values", "argsort", "sort",
        "cumulative_sum", "cumulative_prod", "max", "mean", "min", "prod", "std", "sum", "var",
        "all", "any", "diff",
    ),
    "ndarray": (
        "T", "mT", "device", "dtype", "ndim", "shape", "size", "to_device",
        "__abs__", "__add__", "__and__", "__array_namespace__", "__bool__", "__complex__", "__dlpack__",
        "__dlpack_device__", "__eq__", "__float__", "__floordiv__", "__ge__", "__getitem__", "__gt__",
        "__index__", "__int__", "__invert__", "__le__", "__lshift__", "__lt__", "__matmul__", "__mod__",
        "__mul__", "__ne__", "__neg__", "__or__", "__pos__", "__pow__", "__rshift__", "__setitem__",
        "__sub__", "__truediv__", "__xor__",
    ),
    "info": ("capabilities", "default_device", "default_dtypes", "devices", "dtypes"),
    "linalg": (
        "cholesky", "cross", "det", "diagonal", "eig", "eigh", "eigvals", "eigvalsh", "inv", "matmul",
        "matrix_norm", "matrix_power", "matrix_rank", "matrix_transpose", "outer", "pinv", "qr", "slogdet",
        "solve", "svd", "svdvals", "tensordot", "trace", "vecdot", "vector_norm",
    ),
    "fft": (
        "fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn", "irfftn", "hfft", "ihfft", "fftfreq",
        "rfftfreq", "fftshift", "ifftshift",
    ),
}
