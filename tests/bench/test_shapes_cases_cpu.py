"""The `shapes` bench group (issue 32) on the CPU: its cases are registered under the group, and
their array-library setups (the CuPy/cuarray spelling) compute the right thing with NumPy standing
in for the device library, on smaller shapes."""

from __future__ import annotations

import numpy as np
import scipy.special as sp

from cuarray.bench import cases
from cuarray.bench.cases import shapes as S


def test_group_selects_the_cases():
    ids = [c.id for c in cases.select(groups=["shapes"])]
    assert ids == ["shapes-red", "shapes-softmax", "shapes-center", "shapes-kmeans", "shapes-em"]


def test_every_reduction_row_runs_and_counts_its_bytes():
    for label, (shape, dtype, op, axis, view) in S.REDUCTIONS.items():
        x, op2, axis2 = S._input(np, label, 1)
        assert x.shape == shape and x.dtype == dtype and (op2, axis2) == (op, axis)
        assert S.red.amount("nbytes", 1, label) == x.size * x.itemsize
        if view == "step2":
            assert x.strides[1] == 2 * x.itemsize
        if op.startswith("nan"):
            assert np.isnan(x).any()


def test_programs_compute_what_they_say():
    rng = np.random.default_rng(5)
    x = rng.standard_normal((1000, 10)).astype(np.float32)
    np.testing.assert_allclose(S._written_softmax(np, x), sp.softmax(x, axis=1), rtol=1e-5)
    d = S.kmeans.setups["cupy"](np, (500, 2, 8), "distances")()
    labels = S.kmeans.setups["cupy"](np, (500, 2, 8), "labels")()
    assert d.shape == (500, 8) and np.array_equal(labels, d.argmin(axis=1))
    X = rng.standard_normal((4000, 2)) + np.where(rng.random((4000, 1)) < 0.3, 3.0, -1.0)
    w, mu, var = np.array([0.5, 0.5]), np.array([[-1.0, -1.0], [2.0, 2.0]]), np.ones((2, 2))
    for _ in range(30):
        w, mu, var = S._em_step(np, X, w, mu, var, False)
    assert abs(w.sum() - 1) < 1e-12 and np.all(var > 0)
    np.testing.assert_allclose(np.sort(mu[:, 0]), [-1.0, 3.0], atol=0.15)
