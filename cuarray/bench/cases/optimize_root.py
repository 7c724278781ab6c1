"""scipy.optimize cases, root (group "optimize"): cuarray.scipy.optimize.root against SciPy's on the
host ("numpy" column).

- root-hybr: root(method='hybr', jac=callable) of the Broyden tridiagonal system (Moré, Garbow and
  Hillstrom's problem 30: f_i = (3 - 2 x_i) x_i - x_{i-1} - 2 x_{i+1} + 1) in n = 1000 float64
  unknowns from x0 = -1, to SciPy's default xtol: the function and its dense n x n Jacobian are
  written with the library's own array routines (SciPy: MINPACK's hybrj with its QR updates on the
  host; cuarray: the Jacobian kept on the device, one LU solve a step). CuPy n/a: cupyx has no
  scipy.optimize."""

from __future__ import annotations

from . import register, scipy_module


def system(xp, n):
    """(f, jac, x0) of the Broyden tridiagonal system on xp's device."""
    zero = xp.zeros(1)
    main = xp.arange(n)

    def f(x):
        xm = xp.concatenate([zero, x[:-1]])
        xp1 = xp.concatenate([x[1:], zero])
        return (3 - 2 * x) * x - xm - 2 * xp1 + 1

    def jac(x):
        j = xp.zeros((n, n))
        j[main, main] = 3 - 4 * x
        j[main[1:], main[:-1]] = -1.0
        j[main[:-1], main[1:]] = -2.0
        return j

    return f, jac, -xp.ones(n)


root_hybr = register(
    "root-hybr", group="optimize",
    description="root(hybr, jac), Broyden tridiagonal system, n float64 unknowns, to convergence",
    size=1000, quick=1000, timing="host",
)


def run(opt, xp, n):
    """The timed call: `opt.root`'s hybr on the n-unknown system."""
    f, jac, x0 = system(xp, n)
    return lambda: opt.root(f, x0, method="hybr", jac=jac)


@root_hybr.setup("cuarray", "numpy")
def _(xp, n, param):
    return run(scipy_module(xp, "optimize"), xp, n)
