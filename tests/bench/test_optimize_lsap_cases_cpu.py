"""The optimize-lsap bench case on the CPU: registered for cuarray and SciPy (the "numpy" column);
the host setup, run small, returns a valid optimal assignment of the case's cost matrix (the
cuarray algorithm on such matrices is checked in tests/scipy/optimize/test_lsap_cpu.py)."""

from __future__ import annotations

import itertools

import numpy as np

from cuarray.bench import cases
from cuarray.bench.cases import optimize_lsap as C


def test_registered():
    (case,) = cases.select(ids=["optimize-lsap"])
    assert case.group == "optimize" and set(case.setups) == {"cuarray", "numpy"} and case.params == (4, 1)


def test_host_setup_is_optimal():
    rows, cols = C.lsap.setups["numpy"](np, 24, 4)()  # a 6 x 6 matrix: brute force
    c = C.costs(np, 6)
    np.testing.assert_array_equal(rows, np.arange(6))
    best = min(c[np.arange(6), list(p)].sum() for p in itertools.permutations(range(6)))
    assert c[rows, cols].sum() == best
