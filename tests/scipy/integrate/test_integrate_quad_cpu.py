"""cuarray.scipy.integrate.quad, dblquad, tplquad and nquad run as the real code with NumPy
standing in for the device routines (conftest.host_integrate), against scipy.integrate and
closed forms: smooth, peaked, endpoint-singular and interior-singular integrands, infinite and
reversed ranges, `points`, vectorized and scalar (float-only) integrands, `args`, complex_func,
full_output, the warning on non-convergence and SciPy's errors for bad input. The error estimate
must be honest: |y - exact| <= abserr, and y within the requested tolerance."""

import inspect
import math
import warnings

import numpy as np
import pytest
import scipy.integrate as si
from scipy.integrate import IntegrationWarning

RNG = np.random.default_rng()
C = RNG.uniform(0.5, 2.0)  # fresh each run: the integrands' parameter
P = RNG.uniform(0.2, 0.8)  # an interior point

CASES = [  # (f, a, b, exact, keywords)
    (lambda x: np.exp(-C * x), 0.0, 2.0, (1 - math.exp(-2 * C)) / C, {}),
    (lambda x: 1 / (1e-4 + (x - P) ** 2), 0.0, 1.0, 100 * (math.atan((1 - P) * 100) + math.atan(P * 100)), {}),
    (lambda x: x ** (C - 1.5), 0.0, 1.0, 1 / (C - 0.5), {}),  # endpoint singularity when C < 1.5
    (lambda x: np.log(x), 0.0, 1.0, -1.0, {}),
    # an interior singularity at a break point (without it, QUADPACK too may land a node on it)
    (lambda x: np.abs(x - P) ** -0.5, 0.0, 1.0, 2 * (math.sqrt(P) + math.sqrt(1 - P)), dict(points=[P, 2.0])),
    (lambda x: np.exp(-C * x * x), -np.inf, np.inf, math.sqrt(math.pi / C), {}),
    (lambda x: np.exp(-C * x), 1.0, np.inf, math.exp(-C) / C, {}),
    (lambda x: 1 / (1 + x * x), -np.inf, 0.0, math.pi / 2, {}),
    (lambda x: np.exp(-C * x), 2.0, 0.0, -(1 - math.exp(-2 * C)) / C, {}),  # reversed
    (lambda x: np.cos(40 * x), 0.0, 2.0, math.sin(80) / 40, {}),
    (lambda x: np.exp(-C * x), 0.0, 2.0, (1 - math.exp(-2 * C)) / C, dict(epsabs=0, epsrel=1e-12)),
    (lambda x: np.exp(-C * x), 0.0, 2.0, (1 - math.exp(-2 * C)) / C, dict(epsabs=1e-3, epsrel=0)),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_quad_value_and_honest_error(host_integrate, case):
    f, a, b, exact, kw = CASES[case]
    with warnings.catch_warnings():
        warnings.simplefilter("error", IntegrationWarning)
        y, err, info = host_integrate.quad(f, a, b, full_output=1, **kw)
        want = si.quad(f, a, b, **kw)[0]
    tol = max(kw.get("epsabs", 1.49e-8), kw.get("epsrel", 1.49e-8) * abs(exact))
    # honest: the error within abserr, except where QUADPACK's own estimate is short too (QAGI's
    # estimate of exp(-c x) on [1, inf) is, for a few c): then no further off than SciPy's value
    slack = max(err, 2 * abs(want - exact)) + 4 * np.finfo(float).eps * abs(exact)
    assert abs(y - exact) <= slack, (y, exact, err, want)
    assert err <= tol, (err, tol)
    assert abs(y - want) <= 2 * tol
    assert info["last"] <= 50 and info["neval"] > 0
    assert set(info) == {"neval", "last", "iord", "alist", "blist", "rlist", "elist"}
    assert abs(info["rlist"][:info["last"]].sum()) == pytest.approx(abs(y), rel=1e-6, abs=err) or "points" in kw or \
        not np.isfinite(a + b) or case in (2, 3)  # extrapolated results are not the sum of rlist


def test_scalar_integrand_and_args(host_integrate):
    # a function of Python floats is called node by node, as SciPy does
    y, err = host_integrate.quad(math.sin, 0, 3)
    assert y == pytest.approx(1 - math.cos(3), abs=1e-13)
    y, err = host_integrate.quad(lambda x, c: math.exp(-c * x) if x > 0.5 else 0.0, 0, 2, args=C, points=[0.5])
    assert abs(y - (math.exp(-C / 2) - math.exp(-2 * C)) / C) <= err
    assert host_integrate.quad(lambda x: 3.0, 0, 2)[0] == pytest.approx(6.0)  # a constant: broadcast
    y, err = host_integrate.quad(lambda x, a, b: a * x + b, 0, 1, args=(2.0, C))
    assert y == pytest.approx(1 + C)


def test_complex_func_and_empty_interval(host_integrate):
    got = host_integrate.quad(lambda x: np.exp(1j * C * x), 0, 1, complex_func=True, full_output=1)
    want = si.quad(lambda x: np.exp(1j * C * x), 0, 1, complex_func=True, full_output=1)
    assert got[0] == pytest.approx((np.exp(1j * C) - 1) / (1j * C), abs=1e-13)
    assert set(got[2]) == set(want[2]) == {"real", "imag"}
    assert host_integrate.quad(np.sin, 1.0, 1.0) == si.quad(np.sin, 1.0, 1.0) == (0.0, 0.0)
    assert host_integrate.quad(np.sin, 1.0, 1.0, full_output=1)[2]["last"] == 0


def test_non_convergence_warns_or_returns_the_message(host_integrate):
    with pytest.warns(IntegrationWarning, match="maximum number of subdivisions"):
        y, err = host_integrate.quad(np.sin, 0, 50, limit=3)
    want = si.quad(np.sin, 0, 50, limit=3, full_output=1)
    got = host_integrate.quad(np.sin, 0, 50, limit=3, full_output=1)
    assert len(got) == len(want) == 4 and got[3] == want[3]
    assert abs(y - (1 - math.cos(50))) <= err
    with pytest.warns(IntegrationWarning):
        host_integrate.quad(lambda x: 1 / x, 0, 1)  # divergent


def test_bad_input_gets_scipys_errors(host_integrate):
    for kw in [dict(limit=0), dict(epsabs=0, epsrel=1e-20), dict(weight="foo"), dict(b=np.inf, points=[0.5]),
               dict(points=[0.1, 0.2, 0.3], limit=3)]:
        a, b = kw.pop("a", 0.0), kw.pop("b", 1.0)
        with pytest.raises(ValueError) as want:
            si.quad(np.sin, a, b, **kw)
        with pytest.raises(ValueError) as got:
            host_integrate.quad(np.sin, a, b, **kw)
        assert str(got.value) == str(want.value)
    with pytest.raises(NotImplementedError, match="weight='cos'"):
        host_integrate.quad(np.sin, 0, 1, weight="cos", wvar=2.0)
    with pytest.raises(TypeError, match="complex"):
        host_integrate.quad(lambda x: 1j * x, 0, 1)
    with pytest.raises(ValueError, match="one value per node"):
        host_integrate.quad(lambda x: np.ones((2, x.size)), 0, 1)


def test_dblquad_tplquad_nquad(host_integrate):
    def peak(y, x):
        return np.exp(-((x - P) ** 2 + (y - 0.5) ** 2) / (0.01 * C))

    got, want = host_integrate.dblquad(peak, 0, 1, 0, lambda x: 1 + x), si.dblquad(peak, 0, 1, 0, lambda x: 1 + x)
    assert got[0] == pytest.approx(want[0], rel=1e-8) and got[1] <= 1.49e-8
    got = host_integrate.tplquad(lambda z, y, x: x * y * z, 0, 1, 0, lambda x: x, 0, lambda x, y: x + y)
    assert got[0] == pytest.approx(17 / 144, rel=1e-12)
    f = lambda x, y, c: np.exp(-c * (x * x + y * y))  # noqa: E731
    got = host_integrate.nquad(f, [[-np.inf, np.inf], lambda c: [0, np.inf]], args=(C,), full_output=True)
    want = si.nquad(f, [[-np.inf, np.inf], lambda c: [0, np.inf]], args=(C,), full_output=True)
    assert got[0] == pytest.approx(math.pi / (2 * C), rel=1e-8) and set(got[2]) == set(want[2]) == {"neval"}
    got = host_integrate.nquad(lambda x, y: x * y, [[0, 1], [0, 2]], opts=[{"points": [0.5, 3.0]}, {}])
    assert got[0] == pytest.approx(1.0, rel=1e-13)
    with pytest.raises(TypeError, match="unexpected keyword"):
        host_integrate.nquad(lambda x: x, [[0, 1]], opts={"bogus": 1})


def test_signatures():
    from cuarray.scipy import integrate

    for name in ["quad", "dblquad", "tplquad", "nquad"]:
        assert inspect.signature(getattr(integrate, name)) == inspect.signature(getattr(si, name)), name


def test_epsilon_algorithm_extrapolates_a_geometric_sequence(host_integrate):
    from cuarray.scipy.integrate import _gk_batch

    seq = [3.0 - 2.0 * 0.7 ** k for k in range(6)]
    assert _gk_batch.epsilon_extrapolate(seq) == pytest.approx(3.0, rel=1e-12)
    assert _gk_batch.epsilon_extrapolate([1.0, 2.0, 3.0]) == 3.0  # an arithmetic sequence: no limit
