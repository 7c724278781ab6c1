"""cuarray.scipy.integrate.qmc_quad run as the real code with NumPy standing in for the device
routines (conftest.host_integrate) against scipy.integrate.qmc_quad with the same seeded engine
(the points are SciPy's): reversed limits, log=True (complex for an odd number of swaps),
float32, equal limits, and SciPy's errors."""

import inspect

import numpy as np
import pytest
import scipy.integrate as si
from scipy.stats import qmc

RNG = np.random.default_rng()


def gauss(x):
    return np.exp(-(x ** 2).sum(axis=0))


@pytest.mark.parametrize("engine", [qmc.Halton, qmc.Sobol])
@pytest.mark.parametrize("log", [False, True])
def test_same_points_same_estimates(host_integrate, engine, log):
    seed = int(RNG.integers(2**31))
    b = RNG.uniform(0.5, 2.0, 3) * np.array([1, -1, 1])  # one reversed limit
    f = (lambda x: -(x ** 2).sum(axis=0)) if log else gauss
    got = host_integrate.qmc_quad(f, np.zeros(3), b, qrng=engine(3, seed=seed), log=log, n_points=256)
    want = si.qmc_quad(f, np.zeros(3), b, qrng=engine(3, seed=seed), log=log, n_points=256)
    np.testing.assert_allclose(got.integral, want.integral, rtol=1e-12)
    np.testing.assert_allclose(got.standard_error, want.standard_error, rtol=1e-8)


def test_float32_and_equal_limits(host_integrate):
    a, b = np.float32([0, 0]), np.float32([1, 2])
    got = host_integrate.qmc_quad(gauss, a, b, qrng=qmc.Halton(2, seed=5), n_estimates=4, n_points=128)
    want = si.qmc_quad(gauss, a, b, qrng=qmc.Halton(2, seed=5), n_estimates=4, n_points=128)
    assert np.asarray(got.integral).dtype == np.asarray(want.integral).dtype == np.float32
    np.testing.assert_allclose(got.integral, want.integral, rtol=1e-5)
    with pytest.warns(UserWarning, match="equal to an upper limit"):
        got = host_integrate.qmc_quad(gauss, [0.0, 1.0], [0.0, 2.0])
    assert got == (0.0, 0.0)


def test_bad_input(host_integrate):
    for args, kw, exc in [((3, [0], [1]), {}, TypeError), ((gauss, [0], [1]), dict(n_points=1.5), TypeError),
                          ((gauss, [0], [1]), dict(n_estimates=1.5), TypeError),
                          ((gauss, [0], [1]), dict(qrng=3), TypeError),
                          ((gauss, [0], [1]), dict(qrng=qmc.Halton(2)), ValueError),
                          ((gauss, [0], [1]), dict(log=2), TypeError),
                          ((lambda x: 1 / 0, [0], [1]), {}, ValueError)]:
        with pytest.raises(exc) as want:
            si.qmc_quad(*args, **kw)
        with pytest.raises(exc) as got:
            host_integrate.qmc_quad(*args, **kw)
        assert str(got.value)[:40] == str(want.value)[:40]


def test_signature():
    from cuarray.scipy import integrate

    assert inspect.signature(integrate.qmc_quad) == inspect.signature(si.qmc_quad)
