"""dtype parametrisation: thin wrappers over `pytest.mark.parametrize` with readable ids.

Each decorator is one visible parametrize mark (ids like ``float32``), so a failing test names its
dtype and ``pytest -k float16`` selects by dtype. A decorated function that pytest does not call
itself (CuPy's pattern: a `check_*` helper called from tests, or a `unittest.TestCase` method,
which parametrize marks do not reach) runs once per dtype in turn when called without the
argument, as CuPy's decorators do.
"""

from __future__ import annotations

import itertools
import random

import numpy

__all__ = [
    "ALL_DTYPES",
    "for_dtypes",
    "for_all_dtypes",
    "for_float_dtypes",
    "for_int_dtypes",
    "for_signed_dtypes",
    "for_unsigned_dtypes",
    "for_complex_dtypes",
    "for_dtype_pairs",
    "dtype_id",
]

BOOL = (numpy.bool_,)
SIGNED = (numpy.int8, numpy.int16, numpy.int32, numpy.int64)
UNSIGNED = (numpy.uint8, numpy.uint16, numpy.uint32, numpy.uint64)
FLOAT = (numpy.float16, numpy.float32, numpy.float64)
COMPLEX = (numpy.complex64, numpy.complex128)
# The 14 dtypes NumPy's ufuncs loop over and cuarray supports, in NumPy's order of kinds.
ALL_DTYPES = BOOL + SIGNED + UNSIGNED + FLOAT + COMPLEX


def dtype_id(dtype) -> str:
    """The pytest id of a dtype: NumPy's name (``bool``, ``float32``)."""
    return numpy.dtype(dtype).name


def parametrize(names, values, ids):
    """pytest.mark.parametrize of `names` (a list) over `values` (one value each when one name,
    else tuples), on a function that, called without those arguments (not by pytest), runs with
    each value in turn."""
    import functools

    import pytest

    names, values = list(names), list(values)

    def decorate(fn):
        @functools.wraps(fn)
        def run(*args, **kwargs):
            if all(n in kwargs for n in names):  # pytest's call: the parameters by name
                return fn(*args, **kwargs)
            for v in values:
                fn(*args, **dict(kwargs, **dict(zip(names, (v,) if len(names) == 1 else v))))
            return None

        return pytest.mark.parametrize(",".join(names), values, ids=ids)(run)

    return decorate


def for_dtypes(dtypes, name: str = "dtype"):
    """Parametrise the test's argument `name` over `dtypes` (NumPy scalar types)."""
    dtypes = list(dtypes)
    return parametrize([name], dtypes, [dtype_id(d) for d in dtypes])


def _pick(no_bool=False, no_int=False, no_float16=False, no_float64=False, no_complex=False,
          no_unsigned=False):
    out = []
    for d in ALL_DTYPES:
        kind = numpy.dtype(d).kind
        if (no_bool and kind == "b") or (no_int and kind in "iu") or (no_unsigned and kind == "u"):
            continue
        if (no_float16 and d is numpy.float16) or (no_complex and kind == "c"):
            continue
        if no_float64 and d in (numpy.float64, numpy.complex128):
            continue  # float64 and its complex: the slow-FP64 parts some tests skip
        out.append(d)
    return tuple(out)


def for_all_dtypes(name: str = "dtype", no_bool=False, no_int=False, no_float16=False,
                   no_float64=False, no_complex=False, no_unsigned=False):
    """All 14 dtypes (bool, ints, uints, float16/32/64, complex64/128) minus the excluded kinds."""
    return for_dtypes(_pick(no_bool, no_int, no_float16, no_float64, no_complex, no_unsigned), name)


def for_float_dtypes(name: str = "dtype", no_float16=False, no_float64=False):
    return for_dtypes(_pick(True, True, no_float16, no_float64, True), name)


def for_int_dtypes(name: str = "dtype", no_bool=False):
    """bool (unless `no_bool`) and the signed and unsigned integers, as CuPy's `for_int_dtypes`."""
    return for_dtypes((() if no_bool else BOOL) + SIGNED + UNSIGNED, name)


def for_signed_dtypes(name: str = "dtype"):
    return for_dtypes(SIGNED, name)


def for_unsigned_dtypes(name: str = "dtype"):
    return for_dtypes(UNSIGNED, name)


def for_complex_dtypes(name: str = "dtype"):
    return for_dtypes(COMPLEX, name)


def for_dtype_pairs(names=("dtype1", "dtype2"), dtypes=ALL_DTYPES, sample: int | None = None,
                    seed: int = 0):
    """Parametrise two arguments over pairs of dtypes (ids ``float32-int8``).

    All ``len(dtypes)**2`` pairs by default (196 for the 14 dtypes); with `sample`, a deterministic
    sample of that many pairs (the same for the same `seed`), kept in product order so ids are stable.
    """
    pairs = list(itertools.product(dtypes, repeat=2))
    if sample is not None and sample < len(pairs):
        keep = sorted(random.Random(seed).sample(range(len(pairs)), sample))
        pairs = [pairs[i] for i in keep]
    ids = ["{}-{}".format(dtype_id(a), dtype_id(b)) for a, b in pairs]
    return parametrize(names, pairs, ids)
