"""scipy.integrate cases (group "integrate"), ODEs: an ensemble of independent ODE systems.

- ivp-lotka-volterra: 1e6 Lotka-Volterra systems (random rates and initial states), RK45 from
  t = 0 to 10 at rtol 1e-6, atol 1e-9: cuarray's `solve_ivp_batched` (every system its own steps,
  whole-array operations, one host read per step) against `scipy.integrate.solve_ivp` on the host
  one system at a time, timed on a sample of 50 systems and scaled to the batch (the systems are
  independent, so the host's time is linear in their number); the NumPy cell's extras give the
  sample. CuPy and PyTorch have no ODE solver (cupyx.scipy has no integrate.solve_ivp), and the
  bench has no JAX column, so JAX's odeint under vmap is not a peer here. Timing "process": each
  callable times itself; cuarray's call ends with its host reads, so its device work is done.
"""

from __future__ import annotations

import time

import numpy

from . import NotAvailable, register, sampled_host, scipy_module

BATCH = 10**6
SAMPLE = 50
T_SPAN = (0.0, 10.0)
TOL = dict(rtol=1e-6, atol=1e-9)


def lv_problem(batch, seed=71):
    """(rates (batch, 4), initial states (batch, 2)) on the host."""
    rng = numpy.random.default_rng(seed)
    rates = rng.uniform([0.5, 0.5, 1.0, 0.5], [2.0, 1.5, 3.0, 1.5], (batch, 4))
    return rates, rng.uniform(1.0, 10.0, (batch, 2))


def lv_batched(xp, rates):
    """The batched right-hand side: rows are systems."""
    a, b, c, d = (xp.asarray(numpy.ascontiguousarray(rates[:, i])) for i in range(4))

    def f(t, y):
        x, z = y[:, 0], y[:, 1]
        return xp.stack([a * x - b * x * z, -c * z + d * x * z], axis=1)

    return f


def lv_one(rate):
    a, b, c, d = rate

    def f(t, y):
        return numpy.array([a * y[0] - b * y[0] * y[1], -c * y[1] + d * y[0] * y[1]])

    return f


ivp = register(
    "ivp-lotka-volterra", group="integrate",
    description="solve_ivp RK45 of 1e6 independent Lotka-Volterra systems to t=10 (host: a sample, scaled)",
    size=3, quick=1, timing="process",
    size_label=lambda runs: "1e6 systems",
)


@ivp.setup("cuarray", "numpy")
def _(xp, runs, param, batch=BATCH, sample=SAMPLE):
    integrate = scipy_module(xp, "integrate")
    rates, y0 = lv_problem(batch)
    if getattr(xp, "__name__", "") == "numpy":
        return sampled_host(lambda i: integrate.solve_ivp(lv_one(rates[i]), T_SPAN, y0[i], method="RK45", **TOL),
                            batch, sample)
    if not hasattr(integrate, "solve_ivp_batched"):
        raise NotAvailable("no solve_ivp_batched")
    f, y = lv_batched(xp, rates), xp.asarray(y0)
    small = lv_batched(xp, rates[:8])
    integrate.solve_ivp_batched(small, T_SPAN, y[:8], method="RK45", **TOL)  # compiles the kernels

    def device():
        start = time.perf_counter()
        res = integrate.solve_ivp_batched(f, T_SPAN, y, method="RK45", **TOL)
        return {"time_s": time.perf_counter() - start, "success": float(res.success)}

    return device
