"""digitize's monotonicity rule against NumPy's own scan (numpy._core.multiarray._monotonicity), on
the CPU: the four facts `monotonicity` reads from the device, computed here with NumPy."""

from __future__ import annotations

import numpy
import pytest
from numpy._core.multiarray import _monotonicity

from cuarray._sorting.searchsorted import direction_from_flags


def _flags(b):
    lo, hi = b[:-1], b[1:]
    changed = hi != b[0]
    first = hi[numpy.argmax(changed)]
    return bool(changed.any()), bool(b[0] < first), bool((lo > hi).any()), bool((lo < hi).any())


@pytest.mark.parametrize("seed", range(40))
def test_direction_matches_numpy_nan_and_repeats(seed):
    rng = numpy.random.default_rng(seed)
    for _ in range(50):
        n = int(rng.integers(2, 7))
        b = rng.choice(numpy.array([0.0, 1.0, 2.0, numpy.nan]), n)
        if rng.random() < 0.5:
            b = numpy.sort(b) if rng.random() < 0.5 else numpy.sort(b)[::-1].copy()
        assert direction_from_flags(*_flags(b)) == _monotonicity(b), b


def test_direction_examples():
    assert direction_from_flags(*_flags(numpy.array([1.0, 2.0, numpy.nan]))) == 1  # old code: 0
    assert direction_from_flags(*_flags(numpy.array([1.0, numpy.nan, 2.0]))) == -1
    assert direction_from_flags(*_flags(numpy.array([numpy.nan, 1.0, 2.0]))) == 0
    assert direction_from_flags(*_flags(numpy.array([2.0, 2.0]))) == 1
