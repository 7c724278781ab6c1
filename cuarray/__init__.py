"""cuarray: a NumPy-compatible array library for NVIDIA GPUs. ``import cuarray as np``.

This module is only explicit re-exports, grouped under the headings of NumPy's "Routines"
documentation. Importing it touches no GPU and imports only NumPy and cuda.pathfinder-free
modules of our own; CUDA libraries load on first use.
"""

__version__ = "0.1.0"
__array_api_version__ = "2025.12"  # with the linalg and fft extensions (cuarray.linalg, cuarray.fft)

import sys as _sys

# Names bound on first use by __getattr__ (end of this file): a subsystem whose module the import
# itself does not need (the operators, methods and every ufunc are bound eagerly; see
# _array_methods.py) costs nothing until it is named. docs/perf-notes.md "Import time" has the numbers.
_ON_FIRST_USE = {}


def _lazy(module, *names):
    for name in names:
        _ON_FIRST_USE[name] = (module, name)


def _lazy_module(module, name):
    _ON_FIRST_USE[name] = (module, None)


from numpy import (  # dtypes and scalar types are NumPy's own
    bool_ as bool_, int8 as int8, int16 as int16, int32 as int32, int64 as int64,
    uint8 as uint8, uint16 as uint16, uint32 as uint32, uint64 as uint64,
    float16 as float16, float32 as float32, float64 as float64,
    complex64 as complex64, complex128 as complex128,
    datetime64 as datetime64, timedelta64 as timedelta64, datetime_data as datetime_data,
    void as void,  # structured scalars (arrays of structured dtypes: docs/cupy-users.md)
    dtype as dtype, promote_types as promote_types,
    e as e, pi as pi, inf as inf, nan as nan, newaxis as newaxis, euler_gamma as euler_gamma,
)
from numpy import bool as bool  # noqa: A001  (NumPy 2's name for bool_)
from numpy import (  # NumPy's other names for the same scalar types, and the abstract ones
    byte as byte, ubyte as ubyte, short as short, ushort as ushort, intc as intc, uintc as uintc,
    int_ as int_, uint as uint, long as long, ulong as ulong, longlong as longlong,
    ulonglong as ulonglong, intp as intp, uintp as uintp, half as half, single as single,
    double as double, csingle as csingle, cdouble as cdouble, generic as generic, number as number,
    integer as integer, signedinteger as signedinteger, unsignedinteger as unsignedinteger,
    inexact as inexact, floating as floating, complexfloating as complexfloating,
    False_ as False_, True_ as True_, ScalarType as ScalarType, sctypeDict as sctypeDict,
    typecodes as typecodes,
)
# Floating-point error handling is NumPy's state: the GPU never warns or raises on FP errors (see
# docs/differences.md), so these only keep code that sets it running.
from numpy import (errstate as errstate, seterr as seterr, geterr as geterr, seterrcall as seterrcall,
                   geterrcall as geterrcall)

from . import cuda as cuda
from . import exceptions as exceptions
from . import lib as lib
from ._core.ndarray import ndarray as ndarray
from ._core.ufunc import ufunc as ufunc
_lazy("._core.elementwise_kernel", "ElementwiseKernel")
_lazy("._core.reduction_kernel", "ReductionKernel")
_lazy(".cuda.raw", "RawKernel", "RawModule")
_lazy("._info", "show_config")
_lazy("._array_api_info", "__array_namespace_info__")

# -- Array creation: ones and zeros ---------------------------------------------------------------
from ._creation.basic import empty as empty
from ._creation.basic import empty_like as empty_like
from ._creation.basic import full as full
from ._creation.basic import full_like as full_like
from ._creation.basic import ones as ones
from ._creation.basic import ones_like as ones_like
from ._creation.basic import zeros as zeros
from ._creation.basic import zeros_like as zeros_like

# -- Array creation: from existing data -----------------------------------------------------------
from ._core.interop import from_dlpack as from_dlpack
from ._creation.from_data import array as array
from ._creation.from_data import asanyarray as asanyarray
from ._creation.from_data import asarray as asarray
from ._creation.from_data import ascontiguousarray as ascontiguousarray
from ._creation.from_data import asfortranarray as asfortranarray
from ._creation.from_data import asnumpy as asnumpy
from ._core.interop import fromDlpack as fromDlpack  # CuPy's legacy name
from ._creation.from_data import copy as copy
_lazy("._creation.from_host", "frombuffer", "fromiter", "fromstring", "fromfunction")

# -- Array creation: numerical ranges -------------------------------------------------------------
_lazy("._creation.ranges", "arange", "linspace", "logspace", "geomspace", "meshgrid")

# -- Array creation: building matrices ------------------------------------------------------------
_lazy("._creation.matrices", "eye", "identity", "diag", "diagflat", "tri", "tril", "triu", "vander")

# -- Array manipulation: basic operations ---------------------------------------------------------
from ._manipulation.basic import copyto as copyto
from ._manipulation.basic import ndim as ndim
from ._manipulation.basic import shape as shape
from ._manipulation.basic import size as size

# -- Array manipulation: changing kind of array ---------------------------------------------------
from ._manipulation.kind import asarray_chkfinite as asarray_chkfinite
from ._manipulation.kind import require as require

# -- Array manipulation: changing array shape -----------------------------------------------------
from ._manipulation.shape import ravel as ravel
from ._manipulation.shape import reshape as reshape

# -- Array manipulation: transpose-like operations ------------------------------------------------
from ._manipulation.transpose import matrix_transpose as matrix_transpose
from ._manipulation.transpose import moveaxis as moveaxis
from ._manipulation.transpose import permute_dims as permute_dims
from ._manipulation.transpose import rollaxis as rollaxis
from ._manipulation.transpose import swapaxes as swapaxes
from ._manipulation.transpose import transpose as transpose

# -- Array manipulation: changing number of dimensions --------------------------------------------
from ._manipulation.broadcast import broadcast as broadcast
from ._manipulation.dims import atleast_1d as atleast_1d
from ._manipulation.dims import atleast_2d as atleast_2d
from ._manipulation.dims import atleast_3d as atleast_3d
from ._manipulation.dims import broadcast_arrays as broadcast_arrays
from ._manipulation.dims import broadcast_shapes as broadcast_shapes
from ._manipulation.dims import broadcast_to as broadcast_to
from ._manipulation.dims import expand_dims as expand_dims
from ._manipulation.dims import squeeze as squeeze

# -- Array manipulation: joining arrays -----------------------------------------------------------
from ._manipulation.block import block as block
from ._manipulation.joining import column_stack as column_stack
from ._manipulation.joining import concat as concat
from ._manipulation.joining import concatenate as concatenate
from ._manipulation.joining import dstack as dstack
from ._manipulation.joining import hstack as hstack
from ._manipulation.joining import row_stack as row_stack
from ._manipulation.joining import stack as stack
from ._manipulation.joining import vstack as vstack

# -- Array manipulation: splitting arrays ---------------------------------------------------------
from ._manipulation.splitting import array_split as array_split
from ._manipulation.splitting import dsplit as dsplit
from ._manipulation.splitting import hsplit as hsplit
from ._manipulation.splitting import split as split
from ._manipulation.splitting import unstack as unstack
from ._manipulation.splitting import vsplit as vsplit

# -- Array manipulation: tiling arrays ------------------------------------------------------------
from ._manipulation.tiling import repeat as repeat
from ._manipulation.tiling import tile as tile

# -- Array manipulation: adding and removing elements ---------------------------------------------
from ._manipulation.adding_removing import append as append
from ._manipulation.adding_removing import delete as delete
from ._manipulation.adding_removing import insert as insert
from ._manipulation.adding_removing import resize as resize
from ._manipulation.adding_removing import trim_zeros as trim_zeros

# -- Array manipulation: rearranging elements -----------------------------------------------------
from ._manipulation.rearranging import flip as flip
from ._manipulation.rearranging import fliplr as fliplr
from ._manipulation.rearranging import flipud as flipud
from ._manipulation.rearranging import roll as roll
from ._manipulation.rearranging import rot90 as rot90

# -- Padding arrays -------------------------------------------------------------------------------
_lazy("._padding.padding", "pad")

# -- Bit-wise operations --------------------------------------------------------------------------
from ._bitwise.ops import bitwise_and as bitwise_and
from ._bitwise.ops import bitwise_count as bitwise_count
from ._bitwise.ops import bitwise_invert as bitwise_invert
from ._bitwise.ops import bitwise_left_shift as bitwise_left_shift
from ._bitwise.ops import bitwise_not as bitwise_not
from ._bitwise.ops import bitwise_or as bitwise_or
from ._bitwise.ops import bitwise_right_shift as bitwise_right_shift
from ._bitwise.ops import bitwise_xor as bitwise_xor
from ._bitwise.ops import invert as invert
from ._bitwise.ops import left_shift as left_shift
from ._bitwise.ops import right_shift as right_shift

# -- Bit-wise operations: bit packing -------------------------------------------------------------
_lazy("._bitwise.packing", "packbits", "unpackbits")

# -- Data type routines (those that take only dtypes are NumPy's own) -----------------------------
from ._dtype.info import finfo as finfo
from ._dtype.info import iinfo as iinfo
from ._dtype.routines import astype as astype
from ._dtype.routines import can_cast as can_cast
from ._dtype.routines import common_type as common_type
from ._dtype.routines import min_scalar_type as min_scalar_type
from ._dtype.routines import result_type as result_type
from numpy import issubdtype as issubdtype
from numpy import isdtype as isdtype
from numpy import mintypecode as mintypecode
from numpy import typename as typename

# -- Discrete Fourier transform (numpy.fft); a scipy.fft backend ----------------------------------
_lazy_module(".fft", "fft")
_lazy_module(".fft._scipy_backend", "fft_backend")

# -- Functional programming -----------------------------------------------------------------------
_lazy("._functional.apply", "apply_along_axis", "apply_over_axes")
_lazy("._functional.vectorize", "vectorize")

# -- Input and output: string formatting and options (printing is NumPy's, of a host copy) ---------
_lazy("._io.printing", "array2string", "array_repr", "array_str")
from numpy import set_printoptions as set_printoptions
from numpy import get_printoptions as get_printoptions
from numpy import printoptions as printoptions
from numpy import format_float_positional as format_float_positional
from numpy import format_float_scientific as format_float_scientific
from numpy import base_repr as base_repr
from numpy import binary_repr as binary_repr
_lazy("._io.text", "loadtxt", "savetxt", "genfromtxt", "fromfile")

# -- Indexing routines: generating index arrays ---------------------------------------------------
_lazy("._indexing.generating",
      "indices", "ix_", "unravel_index", "ravel_multi_index", "diag_indices", "diag_indices_from",
      "tril_indices", "tril_indices_from", "triu_indices", "triu_indices_from", "mask_indices")
_lazy("._indexing.index_tricks", "r_", "c_", "s_", "index_exp", "mgrid", "ogrid")

# -- Indexing routines: iterating over arrays -----------------------------------------------------
_lazy("._indexing.index_tricks", "ndindex", "ndenumerate")
from ._indexing.flatiter import flatiter as flatiter

# -- Indexing routines: indexing-like operations, inserting data into arrays ----------------------
_lazy("._indexing.inserting",
      "take", "take_along_axis", "choose", "compress", "diagonal", "select", "extract", "place", "put",
      "put_along_axis", "putmask", "fill_diagonal", "piecewise")

# -- Indexing routines: out-of-bounds device indices (cuarray; see docs/differences.md) -----------
from ._core.device_errors import check_index_errors as check_index_errors
from ._core.device_errors import set_sync_index_checks as set_sync_index_checks

# -- Input and output: NumPy binary files (through host copies) -----------------------------------
_lazy("._io.npy", "save", "load", "savez", "savez_compressed", "NpzFile")

# -- Linear algebra: matrix and vector products; numpy.linalg -------------------------------------
_lazy(".linalg._matmul", "matmul")
_lazy(".linalg._products",
      "dot", "vdot", "inner", "outer", "tensordot", "kron", "cross", "vecdot", "matvec", "vecmat")
_lazy(".linalg._einsum", "einsum", "einsum_path")
_lazy_module(".linalg", "linalg")

# -- Logic functions: truth value testing ---------------------------------------------------------
from ._logic.truth import all as all  # noqa: A001
from ._logic.truth import any as any  # noqa: A001

# -- Logic functions: array contents --------------------------------------------------------------
from ._logic.content import isfinite as isfinite
from ._logic.content import isinf as isinf
from ._logic.content import isnan as isnan
from ._logic.content import isnat as isnat

# -- Logic functions: array type testing -----------------------------------------------------------
from ._logic.type_testing import iscomplex as iscomplex
from ._logic.type_testing import iscomplexobj as iscomplexobj
from ._logic.type_testing import isfortran as isfortran
from ._logic.type_testing import isneginf as isneginf
from ._logic.type_testing import isposinf as isposinf
from ._logic.type_testing import isreal as isreal
from ._logic.type_testing import isrealobj as isrealobj
from numpy import isscalar as isscalar

# -- Logic functions: logical operations ----------------------------------------------------------
from ._logic.ops import logical_and as logical_and
from ._logic.ops import logical_not as logical_not
from ._logic.ops import logical_or as logical_or
from ._logic.ops import logical_xor as logical_xor

# -- Logic functions: comparison ------------------------------------------------------------------
from ._logic.comparison import equal as equal
from ._logic.comparison import greater as greater
from ._logic.comparison import greater_equal as greater_equal
from ._logic.comparison import less as less
from ._logic.comparison import less_equal as less_equal
from ._logic.comparison import not_equal as not_equal
_lazy("._logic.comparison_reduce", "isclose", "allclose", "array_equal", "array_equiv")

# -- Mathematical functions: trigonometric functions ----------------------------------------------
from ._math.trigonometric import acos as acos
from ._math.trigonometric import arccos as arccos
from ._math.trigonometric import arcsin as arcsin
from ._math.trigonometric import arctan as arctan
from ._math.trigonometric import arctan2 as arctan2
from ._math.trigonometric import asin as asin
from ._math.trigonometric import atan as atan
from ._math.trigonometric import atan2 as atan2
from ._math.trigonometric import cos as cos
from ._math.trigonometric import deg2rad as deg2rad
from ._math.trigonometric import degrees as degrees
from ._math.trigonometric import hypot as hypot
from ._math.trigonometric import rad2deg as rad2deg
from ._math.trigonometric import radians as radians
from ._math.trigonometric import sin as sin
from ._math.trigonometric import tan as tan
_lazy("._math.unwrap", "unwrap")

# -- Mathematical functions: hyperbolic functions -------------------------------------------------
from ._math.hyperbolic import acosh as acosh
from ._math.hyperbolic import arccosh as arccosh
from ._math.hyperbolic import arcsinh as arcsinh
from ._math.hyperbolic import arctanh as arctanh
from ._math.hyperbolic import asinh as asinh
from ._math.hyperbolic import atanh as atanh
from ._math.hyperbolic import cosh as cosh
from ._math.hyperbolic import sinh as sinh
from ._math.hyperbolic import tanh as tanh

# -- Mathematical functions: rounding -------------------------------------------------------------
from ._math.rounding import around as around
from ._math.rounding import ceil as ceil
from ._math.rounding import fix as fix
from ._math.rounding import floor as floor
from ._math.rounding import rint as rint
from ._math.rounding import round as round  # noqa: A001
from ._math.rounding import trunc as trunc

# -- Mathematical functions: sums, products, differences ------------------------------------------
from ._math.sums import nanprod as nanprod
from ._math.sums import nansum as nansum
from ._math.sums import prod as prod
from ._math.sums import sum as sum  # noqa: A001
from ._math.sums import trace as trace
_lazy("._math.sums_scan",
      "cumsum", "cumprod", "nancumsum", "nancumprod", "cumulative_sum", "cumulative_prod", "diff",
      "ediff1d")
_lazy("._math.gradient", "gradient", "trapezoid")

# -- Mathematical functions: exponents and logarithms ---------------------------------------------
from ._math.explog import exp as exp
from ._math.explog import exp2 as exp2
from ._math.explog import expm1 as expm1
from ._math.explog import log as log
from ._math.explog import log10 as log10
from ._math.explog import log1p as log1p
from ._math.explog import log2 as log2
from ._math.explog import logaddexp as logaddexp
from ._math.explog import logaddexp2 as logaddexp2

# -- Mathematical functions: floating point routines ----------------------------------------------
from ._math.floating import copysign as copysign
from ._math.floating import frexp as frexp
from ._math.floating import ldexp as ldexp
from ._math.floating import modf as modf
from ._math.floating import nextafter as nextafter
from ._math.floating import signbit as signbit
from ._math.floating import spacing as spacing

# -- Mathematical functions: rational routines ----------------------------------------------------
from ._math.rational import gcd as gcd
from ._math.rational import lcm as lcm

# -- Mathematical functions: arithmetic operations ------------------------------------------------
from ._math.arithmetic import add as add
from ._math.arithmetic import divide as divide
from ._math.arithmetic import divmod as divmod  # noqa: A001
from ._math.arithmetic import float_power as float_power
from ._math.arithmetic import floor_divide as floor_divide
from ._math.arithmetic import fmod as fmod
from ._math.arithmetic import mod as mod
from ._math.arithmetic import multiply as multiply
from ._math.arithmetic import negative as negative
from ._math.arithmetic import positive as positive
from ._math.arithmetic import pow as pow  # noqa: A001
from ._math.arithmetic import power as power
from ._math.arithmetic import reciprocal as reciprocal
from ._math.arithmetic import remainder as remainder
from ._math.arithmetic import subtract as subtract
from ._math.arithmetic import true_divide as true_divide

# -- Mathematical functions: handling complex numbers ---------------------------------------------
from ._logic.type_testing import real_if_close as real_if_close
from ._math.complex import angle as angle
from ._math.complex import conj as conj
from ._math.complex import conjugate as conjugate
from ._math.complex import imag as imag
from ._math.complex import real as real

# -- Mathematical functions: extrema finding ------------------------------------------------------
from ._math.extrema import fmax as fmax
from ._math.extrema import fmin as fmin
from ._math.extrema import maximum as maximum
from ._math.extrema import minimum as minimum

# -- Mathematical functions: miscellaneous (and special functions i0, sinc) -----------------------
from ._math.misc import abs as abs  # noqa: A001
from ._math.misc import absolute as absolute
from ._math.misc import cbrt as cbrt
from ._math.misc import clip as clip
from ._math.misc import fabs as fabs
from ._math.misc import heaviside as heaviside
from ._math.misc import i0 as i0
from ._math.misc import nan_to_num as nan_to_num
from ._math.misc import sign as sign
from ._math.misc import sinc as sinc
from ._math.misc import sqrt as sqrt
from ._math.misc import square as square
_lazy("._math.convolution", "convolve")
_lazy("._math.interpolation", "interp")

# -- Polynomials: power series (numpy.poly1d and friends) -----------------------------------------
_lazy("._polynomial.poly1d", "poly1d")
_lazy("._polynomial.routines",
      "polyval", "polyfit", "polyadd", "polysub", "polymul", "polydiv", "polyder", "polyint", "poly",
      "roots")
_lazy_module(".polynomial", "polynomial")  # numpy.polynomial: the six series classes and their modules

# -- Miscellaneous routines -----------------------------------------------------------------------
_lazy("._misc.memory", "may_share_memory", "shares_memory")
from numpy import iterable as iterable

# -- Random sampling (numpy.random) ---------------------------------------------------------------
_lazy_module(".random", "random")

# -- Sparse matrices and arrays (scipy.sparse): `cuarray.sparse`, loaded on first use (see the end)

# -- Set routines ---------------------------------------------------------------------------------
_lazy("._sets.unique", "unique", "unique_all", "unique_counts", "unique_inverse", "unique_values")
_lazy("._sets.membership", "isin", "in1d")
_lazy("._sets.setops", "intersect1d", "union1d", "setdiff1d", "setxor1d")

# -- Sorting, searching, and counting: sorting ----------------------------------------------------
_lazy("._sorting.sorting", "sort", "argsort", "lexsort", "sort_complex", "partition", "argpartition")

# -- Sorting, searching, and counting: searching --------------------------------------------------
from ._sorting.searching import where as where
from ._sorting.searching_nonzero import argwhere as argwhere
from ._sorting.searching_nonzero import flatnonzero as flatnonzero
from ._sorting.searching_nonzero import nonzero as nonzero
from ._sorting.searching_reduce import argmax as argmax
from ._sorting.searching_reduce import argmin as argmin
from ._sorting.searching_reduce import nanargmax as nanargmax
from ._sorting.searching_reduce import nanargmin as nanargmin
_lazy("._sorting.searchsorted", "searchsorted")

# -- Sorting, searching, and counting: counting ---------------------------------------------------
_lazy("._sorting.counting", "count_nonzero")

# -- Statistics: order statistics -----------------------------------------------------------------
from ._statistics.order import amax as amax
from ._statistics.order import amin as amin
from ._statistics.order import max as max  # noqa: A001
from ._statistics.order import min as min  # noqa: A001
from ._statistics.order import nanmax as nanmax
from ._statistics.order import nanmin as nanmin
from ._statistics.order import ptp as ptp
_lazy("._statistics.median", "median", "nanmedian")
_lazy("._statistics.quantiles", "percentile", "nanpercentile", "quantile", "nanquantile")

# -- Statistics: averages and variances -----------------------------------------------------------
_lazy("._statistics.averages", "mean", "average", "var", "std", "nanmean", "nanvar", "nanstd")

# -- Statistics: correlating ----------------------------------------------------------------------
_lazy("._statistics.correlating", "cov", "corrcoef")
_lazy("._math.convolution", "correlate")

# -- Statistics: histograms -----------------------------------------------------------------------
_lazy("._statistics.histograms", "histogram")
_lazy("._statistics.histogramdd", "histogram2d", "histogramdd")
_lazy("._statistics.histograms", "bincount", "histogram_bin_edges")
_lazy("._sorting.searchsorted", "digitize")

# -- Window functions -----------------------------------------------------------------------------
_lazy("._window.functions", "bartlett", "blackman", "hamming", "hanning", "kaiser")

# -- CuPy's helpers -------------------------------------------------------------------------------
from ._core.interop import get_array_module as get_array_module
from .cuda.memory import get_default_memory_pool as get_default_memory_pool
from .cuda.pinned_memory import get_default_pinned_memory_pool as get_default_pinned_memory_pool

# -- Testing helpers (numpy.testing / cupy.testing as an attribute): `testing` ----------------------
# On first use: importing it costs ~7 ms (inspect, random, secrets), ~3% of `import cuarray`.
_lazy_module(".testing", "testing")

# -- Profiling (docs/profiling.md) ----------------------------------------------------------------
_lazy_module(".profiler", "profiler")
_lazy(".profiler", "profile")

# -- Lazy evaluation and kernel fusion (docs/fusion.md): `fuse`, `lazy`, `LazyArray` ----------------
_lazy("._core.fusion", "fuse", "lazy", "LazyArray")
# -- Sparse matrices and arrays (scipy.sparse; docs/sparse.md): `sparse` -----------------------------
_lazy_module(".sparse", "sparse")
# -- SciPy's special functions as the namespace's `special` (docs/scipy.md) ------------------------
# With SCIPY_ARRAY_API=1, `scipy.special.erf(x)` asks the array's namespace for `special.erf` when
# SciPy has no module of its own for that library (the Array API's anticipated `special` extension,
# scipy/special/_support_alternative_backends.py `_get_native_func`): so it finds cuarray.scipy.special.
_lazy_module(".scipy.special", "special")
# Not in `from cuarray import *` (they were never bound by the import itself).
_NOT_STARRED = frozenset(("fuse", "lazy", "LazyArray", "sparse", "special", "testing"))


def __getattr__(name):
    where = _ON_FIRST_USE.get(name)
    if where is None:
        if name == "__all__":  # `from cuarray import *`: what the eager namespace exported
            return sorted(n for n in set(globals()) | set(_ON_FIRST_USE)
                          if not n.startswith("_") and n not in _NOT_STARRED)
        raise AttributeError("module 'cuarray' has no attribute {!r}".format(name))
    import importlib

    module = importlib.import_module(where[0], __name__)
    value = module if where[1] is None else getattr(module, where[1])
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_ON_FIRST_USE))

# -- Binding operators and methods (must come last: it needs every routine above) -------------
from . import _array_methods  # noqa: E402
from . import _scipy_dispatch  # noqa: E402
from ._core import registry as _registry  # noqa: E402

_array_methods.bind()
_registry.set_namespace(_sys.modules[__name__])  # for __array_namespace__, NEP 18, get_array_module
# scipy.special's ufuncs on cuarray arrays, and the cuarray function to name when SciPy copies to the host.
_registry.register_ufunc_source(_scipy_dispatch.special_ufunc)
_registry.set_conversion_hint(_scipy_dispatch.conversion_hint)
del _array_methods, _registry, _scipy_dispatch

# A Dask worker has imported distributed before it meets cuarray (unpickling its first task): its
# serializers for cuarray arrays are registered now, so results travel as device or host frames
# (docs/distributed.md); elsewhere `cuarray.distributed.register_dask()` registers them.
if "distributed.protocol" in _sys.modules:
    from .distributed import serialization as _serialization  # noqa: E402

    _serialization.register()
    del _serialization


def is_available() -> bool:
    """True when a CUDA device can be used."""
    return cuda.is_available()
