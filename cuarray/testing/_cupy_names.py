"""CuPy's test decorators under CuPy's names and signatures, so a CuPy test file moves over by
changing ``from cupy import testing`` to ``from cuarray import testing``.

The comparisons are `cupy.testing`'s (CuPy's default tolerances, ``rtol=1e-7, atol=0``, and
contiguity checked by default); ``xp`` receives numpy and cuarray, ``sp`` scipy.sparse and
cuarray.sparse, ``scp`` scipy and cuarray.scipy. Differences (docs/cupy-users.md): the dtype and
order decorators are pytest parametrisations (one test per dtype), which run every dtype in turn
where pytest does not call the function itself (a `check_*` helper, a `unittest.TestCase`
method), as CuPy's loops do; `shaped_random` keeps cuarray's value range.
"""

from __future__ import annotations

import functools
import itertools
import os
import random

import numpy

from . import _asserts
from ._compare import compare_results, make_decorator
from ._dtypes import ALL_DTYPES, parametrize
from cuarray import cuda

__all__ = [
    "numpy_cupy_allclose",
    "numpy_cupy_array_almost_equal",
    "numpy_cupy_array_almost_equal_nulp",
    "numpy_cupy_array_max_ulp",
    "numpy_cupy_array_equal",
    "numpy_cupy_array_list_equal",
    "numpy_cupy_array_less",
    "numpy_cupy_equal",
    "for_dtypes_combination",
    "for_all_dtypes_combination",
    "for_float_dtypes_combination",
    "for_int_dtypes_combination",
    "for_signed_dtypes_combination",
    "for_unsigned_dtypes_combination",
    "for_orders",
    "for_CF_orders",
    "product",
    "product_dict",
    "parameterize",
    "slow",
    "multi_gpu",
    "with_requires",
]


# ---- comparing decorators ---------------------------------------------------------------------


def numpy_cupy_allclose(rtol=1e-7, atol=0, err_msg="", verbose=True, name="xp", type_check=True,
                        accept_error=False, sp_name=None, scipy_name=None, contiguous_check=True,
                        *, _check_sparse_format=True):
    """CuPy's `numpy_cupy_allclose`: `numpy_cuarray_allclose` with CuPy's defaults.

    `rtol`/`atol` may be dicts by dtype with a ``'default'`` key, as in CuPy. With `sp_name`,
    sparse results are compared as dense arrays, and (unless `_check_sparse_format` is False)
    must have SciPy's format.
    """
    check = functools.partial(compare_results, rtol=rtol, atol=atol, type_check=type_check,
                              contiguous_check=contiguous_check)
    return make_decorator(check, name, accept_error, sp_name, scipy_name,
                          check_sparse_format=_check_sparse_format)


def numpy_cupy_array_equal(err_msg="", verbose=True, name="xp", type_check=True, accept_error=False,
                           sp_name=None, scipy_name=None, strides_check=False):
    """CuPy's `numpy_cupy_array_equal`: exact equality (NaN where NaN), optionally equal strides."""
    def check(expected, actual):
        compare_results(expected, actual, type_check=type_check, exact=True)
        if strides_check and getattr(expected, "strides", None) != getattr(actual, "strides", None):
            raise AssertionError("strides differ: NumPy {}, cuarray {}".format(
                getattr(expected, "strides", None), getattr(actual, "strides", None)))
    return make_decorator(check, name, accept_error, sp_name, scipy_name)


def _host_check(assertion, type_check, **kw):
    """A check calling one of `_asserts`' functions, after CuPy's dtype check."""
    def check(expected, actual):
        if type_check:
            de, da = getattr(expected, "dtype", None), getattr(actual, "dtype", None)
            if de is not None and da is not None and numpy.dtype(de) != numpy.dtype(da):
                raise AssertionError("dtype {} from NumPy, {} from cuarray".format(de, da))
        assertion(actual, expected, **kw)
    return check


def numpy_cupy_array_almost_equal(decimal=6, err_msg="", verbose=True, name="xp", type_check=True,
                                  accept_error=False, sp_name=None, scipy_name=None):
    """CuPy's `numpy_cupy_array_almost_equal` (`numpy.testing.assert_array_almost_equal`)."""
    check = _host_check(_asserts.assert_array_almost_equal, type_check, decimal=decimal,
                        err_msg=err_msg, verbose=verbose)
    return make_decorator(check, name, accept_error, sp_name, scipy_name)


def numpy_cupy_array_almost_equal_nulp(nulp=1, name="xp", type_check=True, accept_error=False,
                                       sp_name=None, scipy_name=None):
    """CuPy's `numpy_cupy_array_almost_equal_nulp`."""
    check = _host_check(_asserts.assert_array_almost_equal_nulp, type_check, nulp=nulp)
    return make_decorator(check, name, accept_error, sp_name, scipy_name)


def numpy_cupy_array_max_ulp(maxulp=1, dtype=None, name="xp", type_check=True, accept_error=False,
                             sp_name=None, scipy_name=None):
    """CuPy's `numpy_cupy_array_max_ulp`."""
    check = _host_check(_asserts.assert_array_max_ulp, type_check, maxulp=maxulp, dtype=dtype)
    return make_decorator(check, name, accept_error, sp_name, scipy_name)


def numpy_cupy_array_less(err_msg="", verbose=True, name="xp", type_check=True, accept_error=False,
                          sp_name=None, scipy_name=None):
    """CuPy's `numpy_cupy_array_less`: cuarray's result is less than NumPy's, element by element."""
    check = _host_check(_asserts.assert_array_less, type_check, err_msg=err_msg, verbose=verbose)
    return make_decorator(check, name, accept_error, sp_name, scipy_name)


def numpy_cupy_array_list_equal(err_msg="", verbose=True, name="xp", sp_name=None, scipy_name=None):
    """CuPy's (deprecated) `numpy_cupy_array_list_equal`: lists of arrays, item by item."""
    def check(expected, actual):
        _asserts.assert_array_list_equal(actual, expected, err_msg=err_msg, verbose=verbose)
    return make_decorator(check, name, False, sp_name, scipy_name)


def numpy_cupy_equal(name="xp", sp_name=None, scipy_name=None):
    """CuPy's `numpy_cupy_equal`: results that are not arrays (Python objects) compared with ``==``."""
    def check(expected, actual):
        if expected != actual:
            raise AssertionError("NumPy gave {!r}, cuarray gave {!r}".format(expected, actual))
    return make_decorator(check, name, False, sp_name, scipy_name)


# ---- dtype combinations and orders --------------------------------------------------------------


def _full_combination(full):
    if full is not None:
        return full
    return os.environ.get("CUARRAY_TEST_FULL_COMBINATION", "0") not in ("", "0")


def for_dtypes_combination(types, names=("dtype",), full=None):
    """Parametrise the arguments `names` over combinations of `types` (CuPy's name).

    With `full` (or CUARRAY_TEST_FULL_COMBINATION=1) every combination; otherwise a fixed sample in
    which every dtype appears for every name (as CuPy's, but the same sample every run).
    """
    types, names = list(types), list(names)
    if _full_combination(full):
        combos = list(itertools.product(types, repeat=len(names)))
    else:
        rng = random.Random(0)
        columns = []
        for _ in names:
            shuffled = types[:]
            rng.shuffle(shuffled)
            columns.append(types + shuffled)
        combos = list(dict.fromkeys(zip(*columns)))
    ids = ["-".join(numpy.dtype(t).name for t in c) for c in combos]
    if len(names) == 1:  # one name takes the dtype itself (as CuPy's), not a 1-tuple
        combos = [c[0] for c in combos]
    return parametrize(names, combos, ids)


def _kinds(no_bool=False, no_float16=False, no_complex=False, kinds="biufc"):
    out = []
    for d in ALL_DTYPES:
        kind = numpy.dtype(d).kind
        if kind not in kinds or (no_bool and kind == "b") or (no_complex and kind == "c"):
            continue
        if no_float16 and d is numpy.float16:
            continue
        out.append(d)
    return out


def for_all_dtypes_combination(names=("dtype",), no_float16=False, no_bool=False, full=None,
                               no_complex=False):
    return for_dtypes_combination(_kinds(no_bool, no_float16, no_complex), names, full)


def for_float_dtypes_combination(names=("dtype",), no_float16=False, full=None):
    return for_dtypes_combination(_kinds(True, no_float16, True, "f"), names, full)


def for_int_dtypes_combination(names=("dtype",), no_bool=False, full=None):
    return for_dtypes_combination(_kinds(no_bool, kinds="biu"), names, full)


def for_signed_dtypes_combination(names=("dtype",), full=None):
    return for_dtypes_combination(_kinds(kinds="i"), names, full)


def for_unsigned_dtypes_combination(names=("dtype",), full=None):
    return for_dtypes_combination(_kinds(kinds="u"), names, full)


def for_orders(orders, name="order"):
    """Parametrise `name` over memory orders (CuPy's name)."""
    orders = list(orders)
    return parametrize([name], orders, [str(o) for o in orders])


def for_CF_orders(name="order"):  # noqa: N802  (CuPy's name)
    return for_orders(["C", "F", "c", "f"], name)


# ---- parameterised classes -----------------------------------------------------------------------


def product(parameter):
    """All combinations of a dict of lists, as a list of dicts (CuPy's `testing.product`)."""
    keys = sorted(parameter)
    return [dict(zip(keys, values)) for values in itertools.product(*(parameter[k] for k in keys))]


def product_dict(*parameters):
    """Every merge of one dict from each of the lists `parameters` (CuPy's `testing.product_dict`)."""
    return [functools.reduce(lambda a, b: {**a, **b}, combo, {})
            for combo in itertools.product(*parameters)]


def _param_id(params):
    return ",".join("{}={}".format(k, getattr(v, "__name__", v)) for k, v in params.items())


def parameterize(*params):
    """Class decorator: run every test of the class once per dict of `params`, with the dict's
    items as attributes of ``self`` (CuPy's `testing.parameterize`).

    Done with a parametrised autouse fixture, so pytest ids name the parameters; stacking
    decorators multiplies. Not for `unittest.TestCase` classes (pytest cannot parametrise them).
    """
    import pytest

    params = list(params)

    def deco(cls):
        @pytest.fixture(autouse=True, params=params, ids=[_param_id(p) for p in params])
        def fixture(self, request):
            for key, value in request.param.items():
                setattr(self, key, value)

        # A new name per decoration, so stacked decorators all take effect.
        n = sum(1 for k in vars(cls) if k.startswith("_cuarray_parameterize_"))
        setattr(cls, "_cuarray_parameterize_{}".format(n), fixture)
        return cls

    return deco


# ---- marks ----------------------------------------------------------------------------------------


def slow(fn):
    """pytest's ``slow`` mark (CuPy's `testing.slow`)."""
    import pytest

    return pytest.mark.slow(fn)


def multi_gpu(gpu_num):
    """Skip unless at least `gpu_num` devices are present; marks the test ``gpu`` (CuPy's name)."""
    import pytest


    def deco(fn):
        have = cuda.runtime.getDeviceCount() if cuda.is_available() else 0
        fn = pytest.mark.skipif(have < gpu_num, reason="needs {} GPUs".format(gpu_num))(fn)
        return pytest.mark.gpu(fn)

    return deco


def with_requires(*requirements):
    """Skip unless every requirement (``'scipy>=1.12'``) is installed (CuPy's `testing.with_requires`)."""
    import pytest

    missing = [r for r in requirements if not _installed(r)]
    return pytest.mark.skipif(bool(missing), reason="requires {}".format(", ".join(missing)))


def _installed(requirement: str) -> bool:
    from importlib import metadata

    try:
        from packaging.requirements import Requirement
    except ImportError:  # no packaging: the name alone
        name, spec = requirement.split(">")[0].split("=")[0].split("<")[0].strip(), None
    else:
        req = Requirement(requirement)
        name, spec = req.name, req.specifier
    try:
        version = metadata.version(name)
    except metadata.PackageNotFoundError:
        return False
    return spec is None or spec.contains(version, prereleases=True)
