"""unique's one-kernel flags without a GPU: the two operations compile for sm_90 for every dtype
they take, their expressions (evaluated with NumPy) flag the starts of NumPy's unique values
(NaNs equal or not), and the values-only path is chosen only where no index is asked for."""

from __future__ import annotations

import numpy as np
import pytest

from cuarray._sets import unique as u
from cuarray.cuda import compiler

B = np.dtype(bool)
DTYPES = [np.dtype(c) for c in ("?", "i1", "u1", "i2", "i4", "u4", "i8", "u8", "f4", "f8")]


@pytest.mark.parametrize("equal_nan", [False, True])
def test_flags_compile(equal_nan):
    for dt in DTYPES:  # one translation unit each (the placeholder is a typedef)
        d = u.flags_definition(dt, equal_nan)
        cubin, _ = compiler.compile_cubin(d.source("flat", 1, np.int64)[1], arch="sm_90")
        assert cubin[:4] == b"\x7fELF"


def _flags(x, equal_nan):
    """The kernels' expressions, element by element, in NumPy."""
    prev, cur = x[:-1], x[1:]
    ne = cur != prev
    if equal_nan and x.dtype.kind == "f":
        ne = ne & ((cur == cur) | (prev == prev))
    return np.concatenate(([True], ne))


@pytest.mark.parametrize("equal_nan", [True, False])
def test_flag_expressions_are_numpys(equal_nan):
    rng = np.random.default_rng(int(equal_nan))
    for x in (np.sort(rng.integers(-3, 4, 50)), np.sort(rng.integers(0, 2, 20).astype(bool)),
              np.sort(np.concatenate((np.round(rng.normal(size=40)), [np.nan] * 4, [-0.0, 0.0, np.inf, -np.inf])))):
        f = _flags(x, equal_nan)
        np.testing.assert_array_equal(x[f], np.unique(x, equal_nan=equal_nan), strict=True)


def test_kernels_named_and_flagged_dtypes():
    assert u.flags_definition(B, False).operation.startswith("f = i == 0")
    assert "x[i] == x[i]" in u.flags_definition(np.dtype("f8"), True).operation
