"""scipy.optimize.elementwise and scipy.differentiate cases (group "optimize"): cuarray's against
SciPy's on the host ("numpy" column) in the same run. CuPy has neither (SciPy runs these on CuPy
arrays only under SCIPY_ARRAY_API=1, set before SciPy is imported, which this process does not).

- optimize-find_root: elementwise.find_root of x^3 + x - p on 1e7 independent problems (quick:
  1e6), p uniform in [-10, 10], bracket (-3, 3): about ten Chandrupatla iterations, each one pass
  of where-arithmetic over the running problems and one count read back. SciPy's row runs the
  whole size on the host (a few seconds: the harness times such a call once).
- differentiate-jacobian: differentiate.jacobian of f(x) = sin(A x) + x^2 / 2 from R^1000 to
  R^1000 (quick: 300), A random: each iteration evaluates f at m x m x (2 to 8) points, one
  tensordot of A with them on the device (cuBLAS), SciPy's on the host's BLAS."""

from __future__ import annotations

import numpy

from . import register, scipy_module


def cubic(x, p):
    return x ** 3 + x - p


find_root = register(
    "optimize-find_root", group="optimize",
    description="elementwise.find_root(x^3 + x - p, (-3, 3)) of n independent float64 problems",
    size=10**7, quick=10**6,
)


@find_root.setup("cuarray", "numpy")
def _(xp, n, param):
    elementwise = scipy_module(xp, "optimize.elementwise")
    p = xp.asarray(numpy.random.default_rng(71).uniform(-10, 10, n))
    return lambda: elementwise.find_root(cubic, (-3., 3.), args=(p,))


jacobian = register(
    "differentiate-jacobian", group="optimize",
    description="differentiate.jacobian of sin(A x) + x^2/2, R^m -> R^m, float64",
    size=1000, quick=300,
)


def jacobian_problem(xp, m, seed=72):
    """(f, x, A) of the jacobian row on xp's device: f maps x of shape (m, ...) to (m, ...)."""
    rng = numpy.random.default_rng(seed)
    a = xp.asarray(rng.standard_normal((m, m)) / numpy.sqrt(m))
    x = xp.asarray(rng.uniform(-1, 1, m))

    def f(z):
        return xp.sin(xp.tensordot(a, z, axes=1)) + z * z / 2

    return f, x, a


@jacobian.setup("cuarray", "numpy")
def _(xp, m, param):
    differentiate = scipy_module(xp, "differentiate")
    f, x, _a = jacobian_problem(xp, m)
    return lambda: differentiate.jacobian(f, x)
