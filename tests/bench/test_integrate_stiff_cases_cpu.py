"""The `integrate` group's stiff case on the CPU: registered for cuarray and SciPy, the host setup
is SciPy's BDF call, the right-hand side is the Jacobian's product, and cuarray's BDF (NumPy
standing in for the device routines) reaches SciPy's solution on a small grid."""

from __future__ import annotations

import importlib.util
import pathlib

import numpy as np
import pytest
import scipy.integrate as si

from cuarray.bench import cases
from cuarray.bench.cases import integrate_stiff as S


def test_row_registered_and_host_setup_runs():
    case = next(c for c in cases.all_cases() if c.id == "ivp-heat-bdf")
    assert case.group == "integrate" and set(case.setups) == {"cuarray", "numpy"} and case.timing == "process"
    out = S.heat.setups["numpy"](np, 40, None)()
    assert out["success"] == 1.0 and out["nlu"] >= 1 and out["time_s"] > 0


def test_lsoda_row_registered_and_host_setup_runs():
    case = next(c for c in cases.all_cases() if c.id == "ivp-heat-lsoda")
    assert case.group == "integrate" and set(case.setups) == {"cuarray", "numpy"} and case.timing == "process"
    out = S.heat_lsoda.setups["numpy"](np, 40, None)()
    assert out["success"] == 1.0 and out["njev"] >= 1 and out["time_s"] > 0  # stiff: LSODA switched to BDF


def test_rhs_is_the_jacobian_product_and_bdf_matches_scipy():
    n = 30
    y0, J = S.heat_problem(n)
    f = S.heat_rhs(np, n)
    y = np.random.default_rng().standard_normal(n)
    np.testing.assert_allclose(f(0.0, y), J @ y, rtol=1e-12, atol=1e-9 * np.abs(J @ y).max())
    spec = importlib.util.spec_from_file_location(
        "bench_stiff_host", pathlib.Path(__file__).resolve().parents[1] / "scipy" / "integrate" / "_ivp_host.py")
    host = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(host)
    res = host.host_integrate().solve_ivp(f, S.T_SPAN, y0, method="BDF", jac=J, **S.TOL)
    ref = si.solve_ivp(f, S.T_SPAN, y0, method="BDF", jac=J, **S.TOL)
    assert res.success and ref.success
    np.testing.assert_allclose(res.y[:, -1], ref.y[:, -1], rtol=1e-3, atol=1e-6)


def test_sparse_row_registered_and_matches_the_dense_problem():
    import scipy.sparse

    case = next(c for c in cases.all_cases() if c.id == "ivp-heat-bdf-sparse")
    assert case.group == "integrate" and set(case.setups) == {"cuarray", "numpy"} and case.timing == "process"
    n = 30
    _, J = S.heat_problem(n)
    np.testing.assert_allclose(S.heat_sparse_jacobian(scipy.sparse, n).toarray(), J, rtol=1e-15)
    out = S.heat_sparse.setups["numpy"](np, 200, None)()
    assert out["success"] == 1.0 and out["nlu"] >= 1 and out["time_s"] > 0
    assert case.quick <= S.SPARSE_HOST_MAX < case.size  # SciPy's quick row runs, its full one is n/a


def test_sparse_row_is_na_without_cudss_and_past_the_host_size(monkeypatch):
    """Without cuDSS the cuarray cell is n/a with the reason (it used to expand the 1e6 x 1e6
    Jacobian and fail allocating 7.28 TiB); SciPy is n/a where one call would take minutes."""
    import cuarray

    monkeypatch.setattr(S.cudss, "available", lambda: False)
    with pytest.raises(cases.NotAvailable, match=r"cuarray\[cudss\]"):
        S.heat_sparse.setups["cuarray"](cuarray, S.heat_sparse.size, None)
    with pytest.raises(cases.NotAvailable, match="SciPy on the host"):
        S.heat_sparse.setups["numpy"](np, S.heat_sparse.size, None)
