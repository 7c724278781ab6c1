"""cuarray.scipy.integrate.cubature run as the real code with NumPy standing in for the device
routines (conftest.host_integrate), against scipy.integrate.cubature and exact values: every
rule, dimensions 1 to 4, vector and complex values, args, break points, infinite and flipped
limits, single precision, max_subdivisions, and SciPy's errors."""

import inspect
import math

import numpy as np
import pytest
import scipy.integrate as si


def agrees(got, want, exact=None, rtol=1e-8):
    """Both estimates within the tolerance of the exact value (or of each other), the status and
    the result's fields as SciPy's."""
    g, w = np.asarray(got.estimate), np.asarray(want.estimate)
    assert g.shape == w.shape and g.dtype == w.dtype, (g.shape, w.shape, g.dtype, w.dtype)
    ref = w if exact is None else np.asarray(exact)
    # each run meets its tolerance: the two differ by at most both errors plus the tolerances
    slack = np.asarray(got.error) + np.asarray(want.error) + 2 * rtol * np.abs(ref) + 1e-300
    assert (np.abs(g - ref) <= slack).all(), (g, ref, got.error, want.error)
    assert got.status == want.status == "converged"
    assert (np.asarray(got.error) <= rtol * np.abs(g) + got.atol).all()
    assert len(got.regions) >= 1 and got.subdivisions >= 0 and (got.atol, got.rtol) == (want.atol, want.rtol)


def test_signature():
    assert str(inspect.signature(__import__("cuarray.scipy.integrate", fromlist=["cubature"]).cubature)) == \
        str(inspect.signature(si.cubature))


@pytest.mark.parametrize("rule,ndim", [(r, n) for r in ("gk21", "gk15", "genz-malik", "gauss-kronrod") for n in (1, 2, 3)
                                       if (r, n) != ("genz-malik", 1)] + [("genz-malik", 4)])
def test_rules_and_dimensions(host_integrate, rule, ndim):
    rng = np.random.default_rng()
    c = rng.uniform(0.5, 2.0, ndim)
    a, b = rng.uniform(-1, 0, ndim), rng.uniform(0.5, 1.5, ndim)

    def f(x):
        return np.exp(-np.sum(c * x * x, axis=-1))

    exact = np.prod([math.sqrt(math.pi / ci) / 2 * (math.erf(math.sqrt(ci) * bi) - math.erf(math.sqrt(ci) * ai))
                     for ci, ai, bi in zip(c, a, b)])
    kw = dict(rule=rule, rtol=1e-7)
    agrees(host_integrate.cubature(f, a, b, **kw), si.cubature(f, a, b, **kw), exact, 1e-7)


def test_vector_complex_values_and_args(host_integrate):
    rng = np.random.default_rng()
    alphas = rng.uniform(0.5, 2, (3, 2))

    def f(x, r, al):
        return np.exp(1j * (r + x @ al.T))[:, :, None] * np.arange(1, 3)

    a, b = np.zeros(2), np.ones(2)
    kw = dict(args=(0.3, alphas), rtol=1e-9)
    got = host_integrate.cubature(f, a, b, **kw)
    # SciPy 1.18 sums complex values into its limits' float dtype, dropping the imaginary part
    # (a ComplexWarning); the integral of each part is SciPy's integral of that part
    parts = [si.cubature(lambda x, *p, part=part: part(f(x, *p)), a, b, **kw) for part in (np.real, np.imag)]
    assert np.asarray(got.estimate).dtype == np.complex128
    for part, want in zip((np.real, np.imag), parts):
        one = type(got)(part(np.asarray(got.estimate)), got.error, got.status, got.regions, got.subdivisions,
                        got.atol, got.rtol)
        agrees(one, want, rtol=1e-9)


def test_points_flipped_limits_and_float32(host_integrate):
    def sinc(x):
        return np.sin(x[:, 0]) / x[:, 0]

    kw = dict(points=[[0.0]])
    agrees(host_integrate.cubature(sinc, [-1.0], [1.0], **kw), si.cubature(sinc, [-1.0], [1.0], **kw))
    # a > b on one axis: the estimate changes sign (exact: -(e - 1) * 1 / 2)
    f = lambda x: np.exp(x[:, 0]) * x[:, 1]  # noqa: E731
    got, want = host_integrate.cubature(f, [1.0, 0.0], [0.0, 1.0]), si.cubature(f, [1.0, 0.0], [1.0 * 0, 1.0])
    agrees(got, want, -(math.e - 1) / 2)
    a32, b32 = np.zeros(2, np.float32), np.ones(2, np.float32)
    got, want = host_integrate.cubature(f, a32, b32, rtol=1e-5), si.cubature(f, a32, b32, rtol=1e-5)
    assert np.asarray(got.estimate).dtype == np.float32
    agrees(got, want, (math.e - 1) / 2, 1e-5)


@pytest.mark.parametrize("a,b", [([-np.inf, 0.0], [np.inf, 1.0]), ([0.0, 0.0], [np.inf, np.inf]),
                                 ([-np.inf, -np.inf], [np.inf, np.inf])])
def test_infinite_limits_as_scipy(host_integrate, a, b):
    def f(x):
        return np.exp(-x[:, 0] ** 2 - 2 * x[:, 1] ** 2)

    exact = 1.0
    for lo, hi, s in zip(a, b, (1.0, 2.0)):
        exact *= math.sqrt(math.pi / s) / 2 * (math.erf(math.sqrt(s) * hi) - math.erf(math.sqrt(s) * lo))
    kw = dict(rtol=1e-8)
    agrees(host_integrate.cubature(f, np.array(a), np.array(b), **kw), si.cubature(f, np.array(a), np.array(b), **kw),
           exact)


def test_lower_infinite_limit_is_the_integral_scipys_docs_state(host_integrate):
    """(-inf, b]: x = b - (1 - t) / t, the map SciPy's docstring gives; SciPy 1.18's code maps it
    to [-b, inf) without reflecting x, so its estimate is of another integral (docs/differences)."""
    f = lambda x: np.exp(2 * x[:, 0])  # noqa: E731
    got = host_integrate.cubature(f, [-np.inf], [1.0])
    assert got.status == "converged"
    assert np.asarray(got.estimate) == pytest.approx(math.exp(2) / 2, rel=1e-8)
    g = lambda x: np.exp(x[:, 0] - x[:, 0] ** 2)  # noqa: E731
    want = si.quad(lambda x: math.exp(x - x * x), -np.inf, 0.5, epsabs=0, epsrel=1e-12)[0]
    assert np.asarray(host_integrate.cubature(g, [-np.inf], [0.5]).estimate) == pytest.approx(want, rel=1e-8)


def test_max_subdivisions_and_hard_integrand(host_integrate):
    f = lambda x: 1 / np.sqrt(np.abs(x[:, 0] - 0.3) + 1e-12)  # noqa: E731
    got = host_integrate.cubature(f, [0.0], [1.0], max_subdivisions=3)
    want = si.cubature(f, [0.0], [1.0], max_subdivisions=3)
    assert got.status == want.status == "not_converged"
    assert got.subdivisions == 3 and want.subdivisions == 3
    got = host_integrate.cubature(f, [0.0], [1.0], rtol=1e-6, points=[[0.3]])
    want = si.cubature(f, [0.0], [1.0], rtol=1e-6, points=[[0.3]])
    agrees(got, want, 2 * (math.sqrt(0.7) + math.sqrt(0.3)), 1e-5)


@pytest.mark.parametrize("case", ["empty", "2d", "rule", "genz1d"])
def test_errors(host_integrate, case):
    f = lambda x: x[:, 0]  # noqa: E731
    kw, a, b = {}, [0.0], [1.0]
    if case == "empty":
        a, b = [], []
    elif case == "2d":
        a, b = [[0.0]], [[1.0]]
    elif case == "rule":
        kw = {"rule": "simpson"}
    else:
        kw = {"rule": "genz-malik"}
    with pytest.raises(ValueError) as want:
        si.cubature(f, np.array(a), np.array(b), **kw)
    with pytest.raises(ValueError) as got:
        host_integrate.cubature(f, a, b, **kw)
    assert str(got.value) == str(want.value)
