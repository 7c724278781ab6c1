"""Input handling shared by cuarray.scipy.linalg: SciPy's dtype rule on top of cuarray.linalg's
(float16 is computed in float32, as SciPy's LAPACK wrappers do, where NumPy refuses it), and
SciPy's `check_finite`."""

from __future__ import annotations

import warnings

import numpy

from ..._core import dtypes as _dtypes
from ..._core.elementwise import KernelParam
from ..._core.reduction import ReductionDef
from ..._creation.basic import empty
from ...linalg._util import as_array, compute_char
from ...cuda import caches as _caches

__all__ = ["as_lapack", "banded_operands", "deprecate_dtypes", "require_finite", "LinAlgWarning", "lapack_char",
           "batch_shape"]

# all(isfinite(x)) as one pass over x (the map is isfinite, the combine &&): no boolean temporary
# and no second kernel, as `all(isfinite(x))` would take.
_BOOL = numpy.dtype(numpy.bool_)
_finite_defs: dict = {}
_caches.register("check_finite definitions", _finite_defs)


def all_finite_definition(dt) -> ReductionDef:
    """The engine's reduction `all(isfinite(x))` over `x` of dtype `dt` into a bool."""
    d = _finite_defs.get(dt)
    if d is None:
        d = _finite_defs[dt] = ReductionDef(
            "cuarray_scipy_all_finite_{}".format(dt.name), [KernelParam("x", "in", dt, dt)],
            KernelParam("y", "out", _BOOL, _BOOL), "bool", 1, "_acc_t(cuarray::isfinite(x))", "a && b",
            "_acc_t(true)", "y = a", preamble="typedef {} T;\n".format(_dtypes.ctype(dt)))
    return d


def _all_finite(a, flag) -> None:
    """`flag` (a 0-d bool array) = all(isfinite(a)), one reduction over every axis of `a`."""
    all_finite_definition(a.dtype).run(a.shape, [a], (), flag, tuple(range(a.ndim)))


_NOT_FINITE = "array must not contain infs or NaNs"


def finite_operands(arrays) -> list:
    """The operands `require_finite` has to look at: floating and complex ones with elements (an
    integer or bool array is finite by its type; an empty one has nothing to check)."""
    return [a for a in arrays if a is not None and a.dtype.kind in "fc" and a.size]


def require_finite(check, *arrays) -> None:
    """SciPy's `check_finite=True`: ValueError("array must not contain infs or NaNs") when an
    operand holds an inf or NaN. One fused reduction per floating operand, into one small flags
    array, then one host read of the flags for all of them: a synchronisation with the device
    (docs/scipy.md). `check` false: nothing at all."""
    if not check:
        return
    todo = finite_operands(arrays)
    if not todo:
        return
    flags = empty((len(todo),), dtype=numpy.bool_)
    for i, a in enumerate(todo):
        _all_finite(a, flags[i])
    if not flags.get().all():
        raise ValueError(_NOT_FINITE)


def deprecate_dtypes(fn: str, *arrays, stacklevel: int = 3) -> None:
    """SciPy 1.18's DeprecationWarning (scipy._lib._util._deprecate_dtypes) for an input dtype
    that LAPACK has no routine for (float16, bool): integers and float32/64, complex64/128 pass.
    `stacklevel` 3 points at the caller of the public function that calls this directly."""
    for a in arrays:
        if a is not None and a.dtype.char not in numpy.typecodes["AllInteger"] + "fdFD":
            warnings.warn("Calling {} with arguments of dtype={} (a.dtype.char = '{}') is deprecated in SciPy 1.18.0 "
                          "and will be removed in SciPy 1.20.0. Please cast array inputs to one of np.float{{32,64}} "
                          "or np.complex{{64,128}} manually.".format(fn, a.dtype, a.dtype.char),
                          DeprecationWarning, stacklevel=stacklevel)
            return


def as_lapack(x, fn: str):
    """`x` as a cuarray array (host input by cuarray's policy), float16 cast to float32, with SciPy
    1.18's DeprecationWarning for float16 and bool input (`deprecate_dtypes`)."""
    a = as_array(x, fn)
    deprecate_dtypes(fn, a, stacklevel=4)
    return a.astype(numpy.float32) if a.dtype == numpy.float16 else a


# SciPy's LAPACK type scores (scipy.linalg.blas.find_best_blas_type): bool, 8- and 16-bit integers
# and float16/32 are computed in single precision, wider integers and float64 in double.
_SCORE = {c: 1 for c in "?bBhHef"}
_SCORE.update({c: 2 for c in "iIlLqQd"})
_SCORE.update({"F": 3, "D": 4})
_CHAR = {1: "f", 2: "d", 3: "F", 4: "D"}


def lapack_char(*arrays) -> str:
    """The dtype character SciPy's LAPACK wrappers pick for these operands: the highest score,
    complex64 with a double operand becoming complex128 (NumPy's rule, `compute_char`, sends
    int8/int16/bool to float64 where SciPy computes in float32)."""
    compute_char(*arrays)  # the device check and the dtypes linalg refuses
    scores = [_SCORE.get(a.dtype.char, 2) for a in arrays]
    best = max(scores)
    if best == 3 and 2 in scores:
        best = 4
    return _CHAR[best]


def batch_shape(fn: str, *batches) -> tuple:
    """The broadcast batch shape of operands whose batch shapes are `batches`, with SciPy 1.18's
    errors (scipy._lib._util._apply_over_batch): shapes that do not broadcast raise NumPy's
    ValueError, and a batch with no element raises "`fn` does not support zero-size batches."
    (only when some operand has batch dimensions)."""
    if not any(batches):
        return ()  # single matrices: the common case, without broadcast_shapes' ~3 us
    batch = numpy.broadcast_shapes(*batches)
    if 0 in batch:
        raise ValueError("`{}` does not support zero-size batches.".format(fn))
    return batch


class LinAlgWarning(RuntimeWarning):
    """See `scipy.linalg.LinAlgWarning`. Exported for code that filters it; cuarray does not emit
    it (detecting ill-conditioning would cost a device read per call)."""


def banded_operands(ab, b, fn: str):
    """(ab, b, b is one vector) for the banded solvers, with SciPy's errors for bad shapes."""
    ab, b = as_lapack(ab, fn), as_lapack(b, fn)
    if ab.ndim < 2:
        raise ValueError("expected a 2-D array of diagonals, got ab.shape={}".format(ab.shape))
    vector = b.ndim == 1
    if b.ndim == 0 or ab.shape[-1] != b.shape[0 if vector else -2]:
        raise ValueError("shapes of ab and b are not compatible.")
    return ab, b, vector
