"""The `optimize` group's rows on the CPU: registered with SciPy (the "numpy" column) as the peer,
and SciPy's setups, run small, compute what the rows say (the roots of x^3 + x - p, the Jacobian
cos(A x) A + diag(x))."""

from __future__ import annotations

import numpy as np

from cuarray.bench import cases
from cuarray.bench.cases import optimize as O


def test_rows_registered():
    # sorted: the registration order follows which case module a test session imported first
    assert sorted(c.id for c in cases.select(groups=["optimize"])) == sorted(
        ["optimize-find_root", "differentiate-jacobian", "minimize-logreg", "minimize-lbfgsb-logreg",
         "minimize-tnc-logreg", "root-hybr", "lsq-exp-fits", "optimize-lsap"])
    assert set(O.find_root.setups) == set(O.jacobian.setups) == {"cuarray", "numpy"}


def test_find_root_setup_solves_the_cubics():
    res = O.find_root.setups["numpy"](np, 1000, None)()
    assert res.success.all()
    p = np.random.default_rng(71).uniform(-10, 10, 1000)
    np.testing.assert_allclose(res.x ** 3 + res.x, p, rtol=1e-12, atol=1e-12)


def test_jacobian_setup_is_the_analytic_jacobian():
    m = 40
    res = O.jacobian.setups["numpy"](np, m, None)()
    _f, x, a = O.jacobian_problem(np, m)
    want = np.cos(a @ x)[:, None] * a + np.diag(x)
    np.testing.assert_allclose(res.df, want, rtol=1e-7, atol=1e-9)
