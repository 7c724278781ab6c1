"""The minimize-logreg, minimize-lbfgsb-logreg and minimize-tnc-logreg bench cases on the CPU:
registered for cuarray and SciPy, the host setups run SciPy's BFGS for its 10 iterations,
L-BFGS-B to convergence and TNC for its 50 calls on a small problem, and the sizes SciPy or CuPy
cannot run are n/a with their reasons."""

from __future__ import annotations

import types

import numpy as np
import pytest
import scipy.optimize as so

from cuarray.bench import cases
from cuarray.bench.cases import optimize_minimize as C


def test_registered():
    (case,) = cases.select(ids=["minimize-logreg"])
    assert case.group == "optimize" and set(case.setups) == {"cuarray", "numpy", "jax"} and case.ops == C.ITERATIONS


def test_host_setup_runs_scipys_bfgs():
    res = C.run(so, np, 400, 12)()
    assert res.nit == C.ITERATIONS and res.x.shape == (12,)
    X, y = C.problem(np, 400, 12)
    f = C.loss_and_grad(np, X, y)
    assert so.check_grad(lambda w: f(w)[0], lambda w: f(w)[1], np.full(12, 0.01)) < 1e-6


def test_too_large_or_missing_is_na():
    with pytest.raises(cases.NotAvailable, match="1e5"):
        C._optimize(np, 10**6)
    with pytest.raises(cases.NotAvailable, match="cupy"):
        C._optimize(types.SimpleNamespace(__name__="cupy"), 10)


def test_lbfgsb_registered_and_host_setup_converges():
    (case,) = cases.select(ids=["minimize-lbfgsb-logreg"])
    assert case.group == "optimize" and set(case.setups) == {"cuarray", "numpy"} and case.timing == "host"
    out = C.run_lbfgsb(so, np, 400, 12)()
    X, y = C.problem(np, 400, 12)
    f = C.ridge_loss_and_grad(np, X, y)
    ref = so.minimize(f, np.zeros(12), method="L-BFGS-B", jac=True)
    assert ref.success and out == {"nit": ref.nit} and out["nit"] > 3
    assert so.check_grad(lambda w: f(w)[0], lambda w: f(w)[1], np.full(12, 0.01)) < 1e-6


def test_tnc_registered_and_host_setup_runs_its_calls():
    (case,) = cases.select(ids=["minimize-tnc-logreg"])
    assert case.group == "optimize" and set(case.setups) == {"cuarray", "numpy"} and case.ops == C.TNC_MAXFUN
    out = C.run_tnc(so, np, 400, 12)()
    X, y = C.problem(np, 400, 12)
    f = C.ridge_loss_and_grad(np, X, y)
    ref = so.minimize(f, np.zeros(12), method="TNC", jac=True, bounds=[(-1, 1)] * 12, options={"maxfun": C.TNC_MAXFUN})
    assert out == {"nit": ref.nit, "nfev": ref.nfev} and out["nit"] > 3
