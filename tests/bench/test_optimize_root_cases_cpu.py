"""The root-hybr bench case on the CPU: registered for cuarray and SciPy; the host setup solves the
Broyden tridiagonal system (the residual is small, the Jacobian is the analytic one); the cuarray
algorithm on this case is checked in tests/scipy/optimize/test_root_cpu.py."""

from __future__ import annotations

import numpy as np
import scipy.optimize as so

from cuarray.bench import cases
from cuarray.bench.cases import optimize_root as C


def test_registered():
    (case,) = cases.select(ids=["root-hybr"])
    assert case.group == "optimize" and set(case.setups) == {"cuarray", "numpy"}


def test_host_setup_solves_the_system():
    res = C.root_hybr.setups["numpy"](np, 100, None)()
    assert res.success and res.status == 1
    f, jac, _ = C.system(np, 100)
    assert np.abs(f(res.x)).max() < 1e-6
    x = np.random.default_rng().standard_normal(100)
    want = so.approx_fprime(x, f, 1e-7)
    np.testing.assert_allclose(jac(x), want, rtol=1e-5, atol=1e-5)

