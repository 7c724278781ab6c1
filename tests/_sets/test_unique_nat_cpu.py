"""Which flattened `unique` keeps one NaN/NaT, checked against NumPy on the host: NumPy's hash-based
unique (datetime64 only among the kinds with NaN-like values, and only when nothing but the values
is asked for) keeps one NaT even with equal_nan=False. The device result is tested by
test_sets_gpu.py::test_unique_datetime_nat."""

import itertools

import numpy as np
import pytest

from cuarray._sets.unique import nats_equal

NAT = np.iinfo(np.int64).min


@pytest.mark.parametrize("dt", ["M8[s]", "M8[D]", "m8[s]", "float64", "complex128"])
@pytest.mark.parametrize("equal_nan", [True, False])
def test_nats_equal_is_numpys_rule(dt, equal_nan):
    dt = np.dtype(dt)
    if dt.kind in "Mm":
        x = np.array([5, NAT, 2, NAT, 5, NAT], np.int64).view(dt)
    else:
        x = np.array([5, np.nan, 2, np.nan, 5, np.nan]).astype(dt)
    for flags in itertools.product([False, True], repeat=3):
        res = np.unique(x, *flags, equal_nan=equal_nan)
        values = res[0] if any(flags) else res
        kept = int(np.isnan(values).sum())
        assert kept == (1 if nats_equal(dt, equal_nan, not any(flags)) else 3), (flags, values)
