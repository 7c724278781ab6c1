"""The `integrate` group's case on the CPU: the host (SciPy) setup and the batched setup, run with
NumPy standing in for cuarray's namespace on a small batch, give the same final states as SciPy
solving each system alone, and the host time is scaled from its sample to the batch."""

from __future__ import annotations

import importlib.util
import pathlib
import types

import numpy as np
import scipy.integrate as si

from cuarray.bench import cases
from cuarray.bench.cases import integrate_ivp as I


def test_row_registered():
    case = next(c for c in cases.all_cases() if c.id == "ivp-lotka-volterra")
    assert case.group == "integrate" and set(case.setups) == {"cuarray", "numpy"} and case.timing == "process"


def test_host_setup_times_a_sample_scaled():
    out = I.ivp.setups["numpy"](np, 1, None, batch=1000, sample=2)()
    assert out["sample"] == 2 and out["time_s"] > 0


def test_batched_rhs_matches_one_system():
    rates, y0 = I.lv_problem(5)
    spec = importlib.util.spec_from_file_location(
        "bench_ivp_host", pathlib.Path(__file__).resolve().parents[1] / "scipy" / "integrate" / "_ivp_host.py")
    host = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(host)
    integrate = host.host_integrate()
    f = I.lv_batched(np, rates)
    res = integrate.solve_ivp_batched(f, I.T_SPAN, y0, method="RK45", **I.TOL)
    for i in range(5):
        ref = si.solve_ivp(I.lv_one(rates[i]), I.T_SPAN, y0[i], method="RK45", **I.TOL)
        np.testing.assert_allclose(res.y[i], ref.y[:, -1], rtol=1e-7)
        assert int(res.nfev[i]) == ref.nfev
    ns = types.SimpleNamespace(__name__="cupy")
    try:
        I.ivp.setups["cuarray"](ns, 1, None, batch=4)
    except cases.NotAvailable:
        pass
    else:
        raise AssertionError("a library without scipy.integrate must be n/a")
