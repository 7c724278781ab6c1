"""cuarray.scipy.integrate.quad, dblquad, tplquad and nquad on the GPU against closed forms and
scipy.integrate on the host: device integrands get one cuarray array of nodes per round; the
values are within the requested tolerance and the error estimates are honest (|y - exact| <=
abserr), for smooth, peaked, endpoint-singular, infinite, reversed and break-point cases;
float-only integrands fall back to host calls; SciPy's errors and warning. nsum on a batch
that takes every branch, zeta values, log=True and float32. qmc_quad with the same seeded engine as SciPy."""

from __future__ import annotations

import math

import numpy as np
import pytest

from cuarray.cuda import _backend

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not _backend.is_available(), reason="no CUDA device: {}".format(_backend.unavailable_reason())),
]

si = pytest.importorskip("scipy.integrate")

import cuarray  # noqa: E402
from cuarray.scipy import integrate as ci  # noqa: E402

RNG = np.random.default_rng()
C = float(RNG.uniform(0.5, 2.0))
P = float(RNG.uniform(0.2, 0.8))

CASES = {  # name: (device f, host f, a, b, exact, keywords)
    "smooth": (lambda x: cuarray.exp(-C * x), lambda x: np.exp(-C * x), 0.0, 2.0, (1 - math.exp(-2 * C)) / C, {}),
    "peaked": (lambda x: 1 / (1e-4 + (x - P) ** 2), lambda x: 1 / (1e-4 + (x - P) ** 2), 0.0, 1.0,
               100 * (math.atan((1 - P) * 100) + math.atan(P * 100)), {}),
    "endpoint-singular": (lambda x: x ** (C - 1.5), lambda x: x ** (C - 1.5), 0.0, 1.0, 1 / (C - 0.5), {}),
    "log": (cuarray.log, np.log, 0.0, 1.0, -1.0, {}),
    "points": (lambda x: cuarray.abs(x - P) ** -0.5, lambda x: np.abs(x - P) ** -0.5, 0.0, 1.0,
               2 * (math.sqrt(P) + math.sqrt(1 - P)), dict(points=[P])),
    "gauss-inf": (lambda x: cuarray.exp(-C * x * x), lambda x: np.exp(-C * x * x), -np.inf, np.inf,
                  math.sqrt(math.pi / C), {}),
    "semi-inf": (lambda x: cuarray.exp(-C * x), lambda x: np.exp(-C * x), 1.0, np.inf, math.exp(-C) / C, {}),
    "reversed": (lambda x: cuarray.exp(-C * x), lambda x: np.exp(-C * x), 2.0, 0.0, -(1 - math.exp(-2 * C)) / C, {}),
    "tight": (lambda x: cuarray.cos(40 * x), lambda x: np.cos(40 * x), 0.0, 2.0, math.sin(80) / 40,
              dict(epsabs=0, epsrel=1e-12)),
}


@pytest.mark.parametrize("name", list(CASES))
def test_quad_within_tolerance_and_honest(name):
    fd, fh, a, b, exact, kw = CASES[name]
    calls = []

    def f(x):
        calls.append(type(x))
        return fd(x)

    y, err, info = ci.quad(f, a, b, full_output=1, **kw)
    assert isinstance(y, float) and isinstance(err, float)
    assert all(t is cuarray.ndarray for t in calls), calls  # vectorized: device arrays of nodes
    assert len(calls) < info["neval"] / 10, (len(calls), info["neval"])  # one call a round, not a node
    tol = max(kw.get("epsabs", 1.49e-8), kw.get("epsrel", 1.49e-8) * abs(exact))
    want = si.quad(fh, a, b, **kw)[0]
    # honest: the error within abserr, or (where QUADPACK's own estimate is short, as QAGI's is
    # for a few c on exp(-c x)) no further off than SciPy's value
    assert abs(y - exact) <= max(err, 2 * abs(want - exact)) + 4e-16 * abs(exact), (name, y, exact, err, want)
    assert err <= tol, (name, err, tol)
    assert abs(y - want) <= 2 * tol, (name, y, want)


def test_float_only_integrand_and_args():
    y, err = ci.quad(lambda x, c: math.exp(-c * x), 0, 2, args=(C,))
    assert abs(y - (1 - math.exp(-2 * C)) / C) <= err
    y, err = ci.quad(lambda x, c: cuarray.exp(-c * x), 0, 2, args=(C,))
    assert abs(y - (1 - math.exp(-2 * C)) / C) <= err
    got = ci.quad(lambda x: cuarray.exp(1j * C * x), 0, 1, complex_func=True)
    assert got[0] == pytest.approx((np.exp(1j * C) - 1) / (1j * C), abs=1e-13)


def test_dblquad_peaked_batched():
    calls = []

    def peak(y, x):
        calls.append(y.size)
        return cuarray.exp(-((x - P) ** 2 + (y - 0.5) ** 2) / (0.01 * C))

    got = ci.dblquad(peak, 0, 1, 0, lambda x: 1 + x)
    want = si.dblquad(lambda y, x: np.exp(-((x - P) ** 2 + (y - 0.5) ** 2) / (0.01 * C)), 0, 1, 0, lambda x: 1 + x)
    assert got[0] == pytest.approx(want[0], rel=1e-7, abs=3e-8), (got, want)
    assert got[1] <= 1.49e-8
    assert max(calls) >= 21 * 21, calls  # the inner integrals of an outer round in one call


def test_tplquad_nquad():
    got = ci.tplquad(lambda z, y, x: x * y * z, 0, 1, 0, lambda x: x, 0, lambda x, y: x + y)
    assert got[0] == pytest.approx(17 / 144, rel=1e-12)
    got = ci.nquad(lambda x, y, c: cuarray.exp(-c * (x * x + y * y)), [[-np.inf, np.inf], [0, np.inf]], args=(C,),
                   full_output=True)
    assert got[0] == pytest.approx(math.pi / (2 * C), rel=1e-8) and got[2]["neval"] > 0


def test_errors_and_warning():
    with pytest.raises(ValueError, match="Infinity inputs cannot be used with break points"):
        ci.quad(cuarray.sin, 0, np.inf, points=[1.0])
    with pytest.raises(ValueError, match="not a recognized weighting function"):
        ci.quad(cuarray.sin, 0, 1, weight="foo")
    with pytest.raises(NotImplementedError, match="weight='cos'"):
        ci.quad(cuarray.sin, 0, 1, weight="cos", wvar=1.0)
    with pytest.warns(si.IntegrationWarning, match="maximum number of subdivisions"):
        y, err = ci.quad(cuarray.sin, 0, 50, limit=3)
    assert abs(y - (1 - math.cos(50))) <= err


def test_nsum_batch_every_branch():
    c = RNG.uniform(0.5, 2.0, 6)
    a = np.array([1.0, 1.0, 5.0, np.nan, -np.inf, -np.inf])
    b = np.array([np.inf, 10.0, 2.0, 3.0, -1.0, np.inf])
    got = ci.nsum(lambda k, c: c * cuarray.exp(-cuarray.abs(k) / 3), cuarray.asarray(a), cuarray.asarray(b),
                  args=(cuarray.asarray(c),))
    want = si.nsum(lambda k, c: c * np.exp(-np.abs(k) / 3), a, b, args=(c,))
    for key in ("sum", "error", "status", "success", "nfev"):
        assert isinstance(got[key], cuarray.ndarray), key
    np.testing.assert_array_equal(got.status.get(), want.status)
    np.testing.assert_allclose(got.sum.get(), want.sum, rtol=1e-7, equal_nan=True)
    # nfev follows tanhsinh's levels and the probed terms: equal up to a level at a tolerance edge
    np.testing.assert_allclose(got.nfev.get(), want.nfev, rtol=0.1)


def test_nsum_zeta_log_float32():
    from scipy.special import zeta

    p = RNG.uniform(2.0, 4.0, 4)
    got = ci.nsum(lambda k, p: k ** -p, 1, np.inf, args=(cuarray.asarray(p),))
    np.testing.assert_allclose(got.sum.get(), zeta(p), rtol=1e-7)
    assert bool(got.success.all())
    got = ci.nsum(lambda k: -2 * cuarray.log(k), 1, np.inf, log=True)
    assert float(got.sum) == pytest.approx(math.log(math.pi ** 2 / 6), rel=1e-7)
    got = ci.nsum(lambda k: 1 / k ** 2, np.float32(1), np.float32(np.inf))
    assert got.sum.dtype == np.float32 and float(got.sum) == pytest.approx(math.pi ** 2 / 6, rel=1e-5)
    with pytest.raises(ValueError, match="`maxterms` must be a non-negative integer"):
        ci.nsum(lambda k: 1 / k ** 2, 1, 3, maxterms=1.5)


@pytest.mark.parametrize("log", [False, True])
def test_qmc_quad_same_points_as_scipy(log):
    from scipy.stats import qmc

    seed = int(RNG.integers(2**31))
    b = RNG.uniform(0.5, 2.0, 3) * np.array([1, -1, 1])
    calls = []

    def f(x):
        calls.append(type(x))
        return -(x ** 2).sum(axis=0) if log else cuarray.exp(-(x ** 2).sum(axis=0))

    got = ci.qmc_quad(f, cuarray.zeros(3), cuarray.asarray(b), qrng=qmc.Sobol(3, seed=seed), log=log, n_points=512)
    hf = (lambda x: -(x ** 2).sum(axis=0)) if log else (lambda x: np.exp(-(x ** 2).sum(axis=0)))
    want = si.qmc_quad(hf, np.zeros(3), b, qrng=qmc.Sobol(3, seed=seed), log=log, n_points=512)
    assert all(t is cuarray.ndarray for t in calls)
    assert isinstance(got.integral, cuarray.ndarray)
    np.testing.assert_allclose(got.integral.get(), want.integral, rtol=1e-10)
    np.testing.assert_allclose(got.standard_error.get(), want.standard_error, rtol=1e-6)
