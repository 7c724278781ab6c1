"""Run one test body under NumPy and under cuarray and compare the results.

`numpy_cuarray_allclose` calls the decorated test twice, with ``xp=numpy`` and ``xp=cuarray``,
and checks that both give the same kind of result (tuple/list structure, Python scalar types,
array shape and dtype) with values equal within dtype-aware tolerances, NaN where NaN. With
`accept_error`, both must raise the same exception type instead.
"""

from __future__ import annotations

import functools
import inspect

import numpy

import cuarray

from ..cuda import _backend
from . import _random
from ._asserts import to_host

__all__ = [
    "tolerance_for",
    "compare_results",
    "numpy_cuarray_allclose",
    "numpy_cuarray_array_equal",
    "make_decorator",
]

# Default (rtol, atol) by result dtype. float32 and float16 leave room for the GPU's different
# order of summation and its own libm; complex uses its component's float. Integers and bools are exact.
_TOLERANCE = {
    "e": (1e-3, 1e-3),
    "f": (1e-5, 1e-6),
    "d": (1e-12, 1e-12),
    "g": (1e-12, 1e-12),
}

# Tests of this module replace the second library (see tests/testing); None means cuarray.
_other_xp = None


def tolerance_for(dtype) -> tuple[float, float]:
    """Default ``(rtol, atol)`` for comparing results of `dtype`; ``(0, 0)`` for exact kinds."""
    dt = numpy.dtype(dtype)
    if dt.kind == "c":
        dt = numpy.finfo(dt).dtype  # complex64 -> float32
    if dt.kind != "f":
        return (0.0, 0.0)
    return _TOLERANCE.get(dt.char, _TOLERANCE["d"])


def _cuarray():
    if _other_xp is not None:
        return _other_xp
    return cuarray


def _to_numpy(x):
    """A NumPy array (or scalar) with the contents of `x`, wherever `x` lives."""
    return numpy.asarray(to_host(x)) if not isinstance(x, numpy.generic) else x


def _pick_tol(value, dtype, which):
    """An explicit tolerance (a number, or a dict by dtype with an optional 'default') or the default."""
    default = tolerance_for(dtype)[which]
    if value is None:
        return default
    if isinstance(value, dict):
        dt = numpy.dtype(dtype)
        for key, tol in value.items():
            if key != "default" and numpy.dtype(key) == dt:
                return tol
        return value.get("default", default)
    return value


def compare_results(expected, actual, rtol=None, atol=None, type_check=True, exact=False,
                    contiguous_check=False, path="result"):
    """Assert that `actual` (cuarray or NumPy) matches `expected` (NumPy's result).

    Raises AssertionError naming the part (`path`, e.g. ``result[1]``) that differs.
    """
    if isinstance(expected, (tuple, list)):
        if type_check and type(actual) is not type(expected):
            raise AssertionError("{}: NumPy gave a {}, cuarray a {}".format(
                path, type(expected).__name__, type(actual).__name__))
        if not isinstance(actual, (tuple, list)) or len(actual) != len(expected):
            raise AssertionError("{}: NumPy gave {} items, cuarray gave {!r}".format(path, len(expected), actual))
        for i, (e, a) in enumerate(zip(expected, actual)):
            compare_results(e, a, rtol, atol, type_check, exact, contiguous_check, "{}[{}]".format(path, i))
        return
    if expected is None or actual is None:
        if expected is not actual:
            raise AssertionError("{}: NumPy gave {!r}, cuarray gave {!r}".format(path, expected, actual))
        return
    if type(expected) in (bool, int, float, complex):
        # A Python scalar from NumPy (len, item, bool(...)) must be the same Python type from cuarray.
        # (Exact type: numpy.float64 subclasses float but is an array-like result.)
        if type_check and type(actual) is not type(expected):
            raise AssertionError("{}: NumPy gave Python {} {!r}, cuarray gave {} {!r}".format(
                path, type(expected).__name__, expected, type(actual).__name__, actual))
    elif type_check and isinstance(expected, numpy.ndarray):
        nd = getattr(_cuarray(), "ndarray", None)
        if nd is not None and not isinstance(actual, nd):
            raise AssertionError("{}: cuarray returned a {}, not its ndarray".format(
                path, type(actual).__module__ + "." + type(actual).__name__))
    if contiguous_check and isinstance(expected, numpy.ndarray):
        flags = getattr(actual, "flags", None)
        for order in ("c_contiguous", "f_contiguous"):
            if getattr(expected.flags, order) and not (flags is not None and getattr(flags, order)):
                raise AssertionError("{}: NumPy's result is {}, cuarray's is not".format(path, order))
    exp = numpy.asarray(expected)
    act = numpy.asarray(_to_numpy(actual))
    msg = "{} (xp=numpy vs xp=cuarray)".format(path)
    if exp.shape != act.shape:
        raise AssertionError("{}: shape {} from NumPy, {} from cuarray".format(path, exp.shape, act.shape))
    if type_check and exp.dtype != act.dtype:
        raise AssertionError("{}: dtype {} from NumPy, {} from cuarray".format(path, exp.dtype, act.dtype))
    rt, at = _pick_tol(rtol, exp.dtype, 0), _pick_tol(atol, exp.dtype, 1)
    if act.dtype != exp.dtype:  # only with type_check off: use the looser tolerance of the two
        rt, at = max(rt, _pick_tol(rtol, act.dtype, 0)), max(at, _pick_tol(atol, act.dtype, 1))
    if exact or (rt == 0 and at == 0) or "b" in (exp.dtype.kind, act.dtype.kind):
        # assert_array_equal requires NaN where NaN too, and works for bool (allclose does not).
        numpy.testing.assert_array_equal(act, exp, err_msg=msg)
        return
    numpy.testing.assert_allclose(act, exp, rtol=rt, atol=at, equal_nan=True, err_msg=msg)


def _call(fn, args, kwargs):
    try:
        return fn(*args, **kwargs), None
    except Exception as exc:
        return None, exc


def _check_errors(np_err, cu_err, accept_error):
    """Both raised: same type (cuarray may raise a subclass). Returns after a passing check."""
    accepted = (Exception,) if accept_error is True else accept_error
    if not accept_error or not isinstance(np_err or cu_err, accepted):
        raise cu_err if cu_err is not None else np_err
    if cu_err is None:
        raise AssertionError("NumPy raised {}: {} but cuarray raised nothing".format(
            type(np_err).__name__, np_err)) from np_err
    if np_err is None:
        raise AssertionError("cuarray raised {}: {} but NumPy raised nothing".format(
            type(cu_err).__name__, cu_err)) from cu_err
    if not isinstance(cu_err, type(np_err)):
        raise AssertionError("NumPy raised {} but cuarray raised {}: {}".format(
            type(np_err).__name__, type(cu_err).__name__, cu_err)) from cu_err


def _modules(cu, sp_name, scipy_name):
    """The arguments that differ between the two runs: (NumPy's, cuarray's) per parameter name."""
    out = {}
    if sp_name:  # CuPy's `sp`: scipy.sparse / cupyx.scipy.sparse, here cuarray.sparse
        import scipy.sparse

        out[sp_name] = (scipy.sparse, getattr(cu, "sparse", None))
    if scipy_name:  # CuPy's `scp`: scipy / cupyx.scipy, here cuarray.scipy
        import importlib

        import scipy

        cu_scipy = getattr(cu, "scipy", None)
        if cu_scipy is None and _other_xp is None:  # a subpackage the package root does not bind
            cu_scipy = importlib.import_module("cuarray.scipy")
        out[scipy_name] = (scipy, cu_scipy)
    return out


def _densify_sparse(expected, actual, sps, check_format):
    """CuPy's rule for sparse results (with `sp_name`): where cuarray's result is a sparse matrix
    or array, SciPy's must be one too (of the same format when `check_format`), and both are
    compared as dense arrays. Items of a tuple or list result are converted one by one."""
    if isinstance(expected, (tuple, list)) and isinstance(actual, (tuple, list)):
        if len(expected) != len(actual):
            return expected, actual  # compare_results names the length mismatch
        pairs = [_densify_sparse(e, a, sps, check_format) for e, a in zip(expected, actual)]
        return type(expected)(p[0] for p in pairs), type(actual)(p[1] for p in pairs)
    np_sp, cu_sp = sps  # scipy.sparse and cuarray's
    cu_sparse = bool(getattr(cu_sp, "issparse", lambda x: False)(actual))
    np_sparse = np_sp.issparse(expected)
    if not (cu_sparse or np_sparse):
        return expected, actual
    if cu_sparse != np_sparse:
        raise AssertionError("SciPy returned a {}, cuarray a {}".format(
            type(expected).__name__, type(actual).__name__))
    if check_format and actual.format != expected.format:
        raise AssertionError("sparse format {!r} from SciPy, {!r} from cuarray".format(
            expected.format, actual.format))
    # One order on both sides: CuPy checks no contiguity of a sparse result.
    return expected.toarray(order="C"), actual.toarray(order="C")


def make_decorator(check, name="xp", accept_error=False, sp_name=None, scipy_name=None,
                   skip_without_device=True, check_sparse_format=True):
    """A decorator running the test with ``name=numpy`` and ``name=cuarray`` and calling
    ``check(numpy_result, cuarray_result)`` (which raises AssertionError on a mismatch).

    Both runs see the same `shaped_random` data: its calls without a seed draw seeds from one
    sequence, fresh for every test call and restarted for the second run (see `_random.same_data`).
    With `sp_name`, sparse results are compared as dense arrays, as CuPy does (`_densify_sparse`).
    """
    def deco(fn):
        sig = inspect.signature(fn)
        hidden = [n for n in (name, sp_name, scipy_name) if n]
        for n in hidden:
            if n not in sig.parameters:
                raise TypeError("{} has no parameter {!r} to receive the module".format(fn.__name__, n))

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            cu = _cuarray()
            if skip_without_device and _other_xp is None:
                _skip_without_device(cu)
            mods = dict(_modules(cu, sp_name, scipy_name), **{name: (numpy, cu)})
            base = _random.fresh_seed()
            with _random.same_data(base):
                np_out, np_err = _call(fn, args, dict(kwargs, **{k: v[0] for k, v in mods.items()}))
            with _random.same_data(base):
                cu_out, cu_err = _call(fn, args, dict(kwargs, **{k: v[1] for k, v in mods.items()}))
            try:
                if np_err is not None or cu_err is not None:
                    _check_errors(np_err, cu_err, accept_error)
                    return
                if sp_name:
                    np_out, cu_out = _densify_sparse(np_out, cu_out, mods[sp_name], check_sparse_format)
                check(np_out, cu_out)
            except AssertionError as exc:
                exc.add_note("shaped_random's seed sequence started at {}".format(base))
                raise

        # pytest reads the signature to find fixtures; `xp` (and `sp`/`scp`) come from here instead.
        wrapper.__signature__ = sig.replace(parameters=[p for p in sig.parameters.values()
                                                        if p.name not in hidden])
        return wrapper

    return deco


def _skip_without_device(cu) -> None:
    """Skip (with the reason) when cuarray has no usable device, instead of failing every test."""
    cuda = getattr(cu, "cuda", None)
    is_available = getattr(cuda, "is_available", None)
    if is_available is not None and not is_available():
        import pytest

        pytest.skip("needs a CUDA device: {}".format(_backend.unavailable_reason()))


def numpy_cuarray_allclose(rtol=None, atol=None, type_check=True, accept_error=False,
                           contiguous_check=False, name="xp"):
    """Decorator: run the test with ``xp=numpy`` and ``xp=cuarray`` and compare with tolerances.

    `rtol`/`atol` default by dtype (`tolerance_for`); either may be a dict by dtype. `accept_error`
    may be True (any exception) or an exception type or tuple: then, if either raises, both must,
    with the same type. Skips when there is no CUDA device.
    """
    return make_decorator(functools.partial(compare_results, rtol=rtol, atol=atol, type_check=type_check,
                                            contiguous_check=contiguous_check),
                          name, accept_error)


def numpy_cuarray_array_equal(type_check=True, accept_error=False, contiguous_check=False, name="xp"):
    """Like `numpy_cuarray_allclose`, but values must be exactly equal (NaN where NaN)."""
    return make_decorator(functools.partial(compare_results, type_check=type_check, exact=True,
                                            contiguous_check=contiguous_check),
                          name, accept_error)
