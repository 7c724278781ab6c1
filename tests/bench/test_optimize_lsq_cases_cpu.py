"""The lsq-exp-fits bench case on the CPU: registered for cuarray and SciPy, the host setup times
SciPy's least_squares on a sample scaled to the batch, and the batched residuals and Jacobian are
the single fit's, row by row."""

from __future__ import annotations

import types

import numpy as np
import pytest

from cuarray.bench import cases
from cuarray.bench.cases import optimize_lsq as C


def test_registered():
    (case,) = cases.select(ids=["lsq-exp-fits"])
    assert case.group == "optimize" and set(case.setups) == {"cuarray", "numpy"} and case.timing == "process"


def test_host_setup_times_a_sample_scaled():
    out = C.exp_fits.setups["numpy"](np, 1, None, batch=40, sample=2)()
    assert out["sample"] == 2 and out["time_s"] > 0


def test_batched_fun_and_jac_are_the_single_fits():
    t, y = C.fits(4)
    rng = np.random.default_rng()
    x = rng.uniform(0.5, 2, (4, 3))
    (bf, bj), (f1, j1) = C.batched(np), C.one()
    for i in range(4):
        np.testing.assert_allclose(bf(x, t, y)[i], f1(x[i], t, y[i]), rtol=1e-14)
        np.testing.assert_allclose(bj(x, t, y)[i], j1(x[i], t, y[i]), rtol=1e-14)


def test_library_without_the_solver_is_na():
    with pytest.raises(cases.NotAvailable):
        C.exp_fits.setups["cuarray"](types.SimpleNamespace(__name__="cupy"), 1, None, batch=4)
