"""scipy.integrate cases (group "integrate"), stiff ODEs: the implicit solvers.

- ivp-heat-bdf: the method-of-lines heat equation u_t = u_xx on (0, 1) with zero boundary values,
  n interior points (full: 2000; quick: 500), y0 = sin(pi x) plus a small random part, BDF from
  t = 0 to 0.05 at rtol 1e-6, atol 1e-9, with the (tridiagonal) Jacobian given as a dense array:
  cuarray's BDF (the differences, the Newton iteration and cuSOLVER's LU on the device, one host
  read per Newton iteration and per step) against `scipy.integrate.solve_ivp` on the host with the
  same dense Jacobian (LAPACK's LU).
- ivp-heat-bdf-sparse: the same equation with n = 1e6 interior points (quick: 1e4) and the
  Jacobian as a sparse tridiagonal matrix: cuarray's BDF with a device CSC Jacobian factorised by
  cuDSS against SciPy's on the host with SuperLU (`splu`). cuarray's cell needs `cuarray[cudss]`
  (n/a without it: the case measures cuDSS's LU). SciPy is n/a past 1e4 (0.33 s a call at 1e4,
  13 s at 1e5 on the development host, and over 100 s at 1e6 on the H200's host): its quick row
  is the peer.
- ivp-heat-lsoda: the same problem by LSODA (`solve_ivp(method='LSODA')` with the Jacobian as a
  callable returning the dense array): the Adams start, the switch to BDF and its chord Newton
  iterations, cuarray's port on the device against SciPy's ODEPACK on the host.
Timing "process": each callable times itself; cuarray's call ends with its host reads.
"""

from __future__ import annotations

import time

import numpy

from . import NotAvailable, register, scipy_module
from cuarray.cuda.libs import cudss

T_SPAN = (0.0, 0.05)
TOL = dict(rtol=1e-6, atol=1e-9)


def heat_y0(n, seed=73):
    """y0 on the host: sin(pi x) at the n interior points plus a small random part."""
    x = numpy.linspace(0.0, 1.0, n + 2)[1:-1]
    return numpy.sin(numpy.pi * x) + 0.01 * numpy.random.default_rng(seed).standard_normal(n)


def heat_problem(n, seed=73):
    """(y0, the Jacobian (n, n)) on the host: the second difference over n interior points."""
    dx2 = (1.0 / (n + 1)) ** 2
    J = (numpy.diag(numpy.full(n - 1, 1.0), -1) - 2.0 * numpy.eye(n) + numpy.diag(numpy.full(n - 1, 1.0), 1)) / dx2
    return heat_y0(n, seed), J


def heat_rhs(xp, n):
    """u_xx by the second difference, zero boundary values; whole-array operations only."""
    inv_dx2 = float((n + 1) ** 2)

    def f(t, y):
        padded = xp.concatenate([y[:1] * 0.0, y, y[:1] * 0.0])
        return (padded[:-2] - 2.0 * padded[1:-1] + padded[2:]) * inv_dx2

    return f


heat = register(
    "ivp-heat-bdf", group="integrate",
    description="solve_ivp BDF of the method-of-lines heat equation, n points, dense Jacobian",
    size=2000, quick=500, timing="process",
)


def _solver(integrate, xp, method, y0, jac, small_jac, count):
    """The timed call of `solve_ivp(method)` on the heat problem of y0's size (a device column first
    solves the 8- or 64-point problem, so compiles and library loads stay outside the timing), and
    the statistic `count` of the result."""
    n = y0.shape[0]
    if getattr(xp, "__name__", "") != "numpy":
        m, jac_m = small_jac
        integrate.solve_ivp(heat_rhs(xp, m), T_SPAN, xp.asarray(heat_y0(m)), method=method, jac=jac_m, **TOL)
    f, y = heat_rhs(xp, n), xp.asarray(y0)

    def run():
        start = time.perf_counter()
        res = integrate.solve_ivp(f, T_SPAN, y, method=method, jac=jac, **TOL)
        return {"time_s": time.perf_counter() - start, "success": float(res.success), count: float(getattr(res, count))}

    return run


@heat.setup("cuarray", "numpy")
def _(xp, n, param):
    y0, J = heat_problem(n)
    return _solver(scipy_module(xp, "integrate"), xp, "BDF", y0, xp.asarray(J), (8, xp.asarray(heat_problem(8)[1])), "nlu")


def heat_sparse_jacobian(sparse, n):
    """The second difference over n interior points as a CSC matrix of the `sparse` module
    (`cuarray.sparse` or `scipy.sparse`), built without an n x n array."""
    dx2 = (1.0 / (n + 1)) ** 2
    return sparse.diags([1.0 / dx2, -2.0 / dx2, 1.0 / dx2], [-1, 0, 1], shape=(n, n), format="csc")


heat_sparse = register(
    "ivp-heat-bdf-sparse", group="integrate",
    description="solve_ivp BDF of the method-of-lines heat equation, n points, sparse Jacobian (cuDSS / SuperLU)",
    size=1_000_000, quick=10_000, timing="process",
)
SPARSE_HOST_MAX = 10_000  # SciPy's largest n here: 0.33 s a call (13 s at 1e5) on the development host


@heat_sparse.setup("cuarray", "numpy")
def _(xp, n, param):
    if getattr(xp, "__name__", "") == "numpy":
        if n > SPARSE_HOST_MAX:
            raise NotAvailable("SciPy on the host: ~13 s a call at 1e5 and minutes at 1e6 (see the quick row)")
    elif not cudss.available():
        raise NotAvailable("cuDSS not installed (pip install 'cuarray[cudss]')")
    sparse = scipy_module(xp, "sparse")
    return _solver(scipy_module(xp, "integrate"), xp, "BDF", heat_y0(n), heat_sparse_jacobian(sparse, n),
                   (64, heat_sparse_jacobian(sparse, 64)), "nlu")


heat_lsoda = register(
    "ivp-heat-lsoda", group="integrate",
    description="solve_ivp LSODA of the method-of-lines heat equation, n points, dense Jacobian",
    size=2000, quick=500, timing="process",
)


@heat_lsoda.setup("cuarray", "numpy")
def _(xp, n, param):
    y0, J = heat_problem(n)
    jac, jac8 = xp.asarray(J), xp.asarray(heat_problem(8)[1])
    return _solver(scipy_module(xp, "integrate"), xp, "LSODA", y0, lambda t, u: jac, (8, lambda t, u: jac8), "njev")

