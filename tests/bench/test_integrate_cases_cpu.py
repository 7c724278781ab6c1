"""The integrate bench cases on the CPU: registered in group "integrate" for cuarray and SciPy
(the numpy column), the host setups are SciPy's calls on small sizes, and the host cell is n/a
with its reason at the full sizes."""

from __future__ import annotations

import math
import types

import numpy as np
import pytest
import scipy.integrate as si

from cuarray.bench import cases
from cuarray.bench.cases import integrate as C


def test_registered():
    got = {c.id: c for c in cases.select(groups=["integrate"])}
    assert set(got) == {"cumulative-simpson", "tanhsinh", "quad-vec", "quad-peaked", "ivp-lotka-volterra", "ivp-heat-bdf",
                        "ivp-heat-bdf-sparse", "ivp-heat-lsoda",
                        "cubature-peaked"}
    for case in got.values():
        assert set(case.setups) == {"cuarray", "numpy"}


def test_host_setups_are_scipys_calls():
    y = C.csimp.setups["numpy"](np, 1000, None)()
    want = si.cumulative_simpson(np.random.default_rng(71).standard_normal(1000), dx=0.5)
    np.testing.assert_array_equal(y, want)
    if hasattr(si, "tanhsinh"):
        res = C.ths.setups["numpy"](np, 100, None)()
        c = np.random.default_rng(72).uniform(0.5, 2.0, 100)
        np.testing.assert_allclose(res.integral, si.tanhsinh(lambda x, c: np.exp(-c * x * x), 0.0, 1.0, args=(c,)).integral)
    a = np.linspace(1.0, 100.0, 50)
    for param, exp in zip(C.qv.params, (np.exp, math.exp)):
        np.testing.assert_array_equal(C.qv.setups["numpy"](np, 50, param)()[0],
                                      si.quad_vec(lambda x: np.sin(a * x) * exp(-x), 0.0, 10.0)[0])


def test_quad_vec_integrands():
    # "array calls" takes the (k, 1) array of nodes quad_vec passes (one value row a node, the
    # float calls' values); "float calls" refuses it, so cuarray calls it node by node
    x = np.random.default_rng().uniform(0, 10, 7)
    f, g = (C.quad_vec_integrand(np, 30, p) for p in C.qv.params)
    np.testing.assert_allclose(f(x[:, None]), [g(float(v)) for v in x], rtol=1e-13)
    with pytest.raises(TypeError):
        g(x[:, None])


@pytest.mark.parametrize("case", [C.csimp, C.ths])
def test_full_size_host_is_na_and_cupy_is_na(case):
    with pytest.raises(cases.NotAvailable, match="SciPy on the host"):
        case.setups["numpy"](np, case.size, None)
    with pytest.raises(cases.NotAvailable):
        cases.scipy_module(types.SimpleNamespace(__name__="cupy"), "integrate")


def test_quad_peaked_host_setup_and_batched_integrand():
    # the host setup is SciPy's nquad; the same integrand takes arrays of nodes (the cuarray
    # setup's calls) and gives the values SciPy's scalar calls give
    got = C.qp.setups["numpy"](np, 4, None)()
    f = C.bumps(np, 4)
    want = si.nquad(f, [[0.0, 1.0], [0.0, 1.0]])
    assert got == want
    x, y = np.random.default_rng().uniform(0, 1, (2, 5))
    np.testing.assert_allclose(f(y, x), [f(float(b), float(a)) for a, b in zip(x, y)], rtol=1e-14)
    assert abs(got[0] - 4 * np.pi * 0.002) < 1e-3  # four bumps, nearly all inside the square


def test_cubature_peaked_host_setup_is_scipys_call():
    got = C.cp_.setups["numpy"](np, 3, None)()
    want = si.cubature(C.bumps3(np, 3), [0.0, 0.0, 0.0], [1.0, 1.0, 1.0], rule="genz-malik", rtol=1e-6)
    assert got.status == "converged" and float(got.estimate) == float(want.estimate)
